"""An error with no message, on every sink: what the reader gets instead of text.

Three shapes, one condition (the reader learns nothing but that something failed):
- no text at all: `raise Gone()`, `raise ValueError()`, `ToolError()`;
- only a status: `abort(409)`, `HTTPException(400)`, `web.HTTPNotFound()`: the client reads the
  status phrase ("Conflict") and nothing more (401, 403 and 405 say all there is: `SELF_STATED`);
- only the rejected object: `raise IndexError(row)` under `if row not in rows`: the value the guard
  rejected, with no word on what was wrong with it.

AEM101 reports all three (`messageless_matters` in `vague` decides where it matters); a message with
no text at all also misses every part, so the missing-part rules still apply to it.
"""
from __future__ import annotations

import re
from typing import Optional, Set

import libcst as cst

from ..extract import nodes
from ..extract.framework_sinks import status_phrase
from ..extract.sinks import BUILTIN_EXCEPTIONS, CONTROL_FLOW
from ..extract.value_names import PROSE_NAME, snake
from ..model import EXCEPTION, Message

MESSAGELESS_SINKS = ("raise", "tool-error", "agent-error", "cli-error", "http")
# statuses whose phrase is the whole answer to the request, with the words that restate it: 401 (the
# WWW-Authenticate header says how to authenticate), 403 (a refusal to authorize, which by convention
# is not explained) and 405 (the Allow header lists the methods). A 400, 404, 409 or 410 leaves open
# what in the request was wrong.
SELF_STATED_PHRASES = {401: ("unauthorized", "unauthorised", "not authenticated", "authentication required"),
                       403: ("forbidden", "access denied", "permission denied", "not authorized", "not authorised"),
                       405: ("method not allowed",)}
SELF_STATED = frozenset(SELF_STATED_PHRASES)
ERROR_TEXT_NAME = re.compile(r"(^|_)(err|errs|error|errors|exc|exception|stderr|stdout|output|out|reason|cause|problem|failure|response|resp|result|res|status|body|content|why)$")
PROTOCOL_METHODS = {"__getitem__", "__getattr__", "__getattribute__", "__missing__", "__delitem__", "__setitem__", "__delattr__", "__next__", "__anext__", "__index__", "__contains__"}


def without_text(message: Message) -> str:
    """What the reader gets when the error has no message ("" when it has one): "" / a status phrase
    / the rejected value's expression."""
    if message.sink not in MESSAGELESS_SINKS:
        return ""
    if message.extra.get("messageless"):
        if message.sink == "http":
            if message.extra.get("status") in SELF_STATED:
                return ""
            phrase = status_phrase(message.extra.get("status"))
            return f"only the status phrase '{phrase}'" if phrase else "only the status code"
        return "nothing"
    value = only_value(message)
    return f"only the rejected value `{value}`" if value else ""


def restates_status(message: Message, template) -> bool:
    """The text of a 401, 403 or 405 is only its status phrase ("Forbidden", "Not authenticated",
    "Method not allowed."): it says what a bare status says, which is all there is (`SELF_STATED`)."""
    status = message.extra.get("status")
    if message.sink != "http" or status not in SELF_STATED or template.placeholders:
        return False
    words = re.sub(r"[^a-z ]", "", template.literal.lower()).split()
    return " ".join(words) in SELF_STATED_PHRASES[status]


def only_value(message: Message) -> str:
    """The expression of a raise whose whole message is the value a guard rejected, else ""."""
    if message.sink != "raise" or message.extra.get("composed") is not None or message.extra.get("constructor"):
        return ""
    expr = message.expr
    if not isinstance(expr, (cst.Name, cst.Attribute, cst.Subscript)):
        return ""
    if message.callee.rsplit(".", 1)[-1] not in BUILTIN_EXCEPTIONS:
        return ""  # a project's own class may build its text from the value (`SheetNotFound(name)`)
    function = message.context.function
    if function is not None and function.name in PROTOCOL_METHODS:
        return ""  # `__getitem__` raising `KeyError(key)`: Python's own protocol
    last = snake(nodes.last_name(expr) or "x")
    if PROSE_NAME.search(last) or ERROR_TEXT_NAME.search(last):
        return ""  # `raise ValueError(msg)`, `raise RuntimeError(stderr)`: text errlint cannot see
    if any(t.pieces or any(h.has(EXCEPTION) for h in t.placeholders) for t in message.templates):
        return ""  # resolved to text, or re-raises an exception's own text
    root = nodes.root_name(expr)
    if not root or root not in _guard_names(message):
        return ""
    return nodes.dotted(expr) or root


def _guard_names(message: Message) -> Set[str]:
    out: Set[str] = set()
    for guard in message.context.guards:
        if guard.subject:
            out.add(guard.subject.split(".", 1)[0])
        if guard.test is not None:
            for node in nodes.iter_expr(guard.test):
                if isinstance(node, cst.Name):
                    out.add(node.value)
    return out


def control_flow(message: Message) -> bool:
    """A bare `raise KeyError` / `EOFError()`: a signal to the caller, not a message (a raise that
    carries the rejected value is still judged)."""
    return bool(message.extra.get("messageless")) and message.callee.rsplit(".", 1)[-1] in CONTROL_FLOW


def status_hint(message: Message) -> Optional[str]:
    status = message.extra.get("status")
    return str(status) if isinstance(status, int) else None
