"""What the "missing part" rules (AEM2xx) share: `PartRule`, which keeps every one of them off internal
faults, internal signals and detached error-message tables, and the text-shape tests they agree on:
whether a template only passes an exception's or an upstream's text through, whether it names a
value as a whole word, the listing-tool and not-found wording, and a dotted name's root.
"""
from __future__ import annotations

import re
from typing import Iterable, List, Optional, Set, Tuple

import libcst as cst

from ..model import EXCEPTION, RELAYED, Finding, Message, Template
from ..extract import nodes
from ..extract.declared_sets import declared_values, field_values
from ..project_scan import scan_literal_fields
from .base import CONTENT_SINKS, FileContext, internal_fault, internal_signal
from .error_replies import ErrorReplyRule
from .no_message import restates_status
from .protocol_errors import host_protocol_error
from .nouns import is_plural, lists_noun, singular
from .signals import identifiers

# a warning is not a failure: it needs no echo, list or step; a tool's returned error reply is one
PART_SINKS = (CONTENT_SINKS - {"warn"}) | {"tool-return"}
# a tool that lists records: its verb, then (`checks.nouns`) a plural (`get_tags` lists tags; `get_tag` gets one)
LISTING_TOOL = re.compile(r"^(list|search|find|get_all|get|lookup|browse|query)_")
NOT_FOUND_TEXT = re.compile(r"\b(not found|unknown|does not exist|doesn't exist|no such|not a valid|is not valid|invalid id|no \w+ (?:with|named|called|matches))\b", re.I)
VALUE_SOURCE = re.compile(r"\bto see (?:the )?(?:valid|available|allowed|existing|known|supported)\b|\b(?:list|search|find)\w* (?:\w+ )?(?:to|for) (?:see|find|get)\b", re.I)
# a field of an error dict that hands the reader the values or the step (`available_templates`,
# `valid_options`, `suggestions`, `did_you_mean`, `hint`)
LISTING_FIELD = re.compile(r"(?:^|\s)(?:(?:available|valid|allowed|supported|known|possible|existing|accepted)_\w+|\w+_(?:options|choices|values)"
                           r"|options|choices|suggestions?|did_you_mean|hints?|usage|help|expected|allowed)(?:\s|$)", re.I)
EXC_TYPE_NAME = re.compile(r"^(type\(\w+\)\.__(?:qual)?name__|\w+\.__class__\.__(?:qual)?name__)$")


def input_noun(param: str) -> Tuple[str, ...]:
    """The noun an input names, word by word (`issue_id` -> ("issue",), `time_entry_ids` -> ("time",
    "entry")); () for a bare `id`/`key`/`name`, which names no noun."""
    base = re.sub(r"(?:^|_)(?:ids?|keys?|names?|slugs?|uuids?|paths?|refs?)$", "", param.lower())
    return tuple(w for w in base.split("_") if w)


def glued_noun(noun: Tuple[str, ...]) -> Tuple[str, ...]:
    """`username` -> ("user",), `filename` -> ("file",): the noun before an `id`/`name`/`key`
    written without an underscore (tried only when the whole word names no listed noun)."""
    last = re.sub(r"(?<=[a-z]{3})(?:ids?|names?|keys?)$", "", noun[-1]) if noun else ""
    return noun[:-1] + (last,) if last and last != noun[-1] else ()


def listing_tools(tools: Iterable[str]) -> list:
    return sorted(t for t in tools if LISTING_TOOL.match(t))


def listing_tools_for(param: str, tools: Iterable[str], function: str = "", prose: str = "") -> List[str]:
    """The listing tools for the value that failed ([] when none lists it). A tool's listed noun is
    the plural at the end of its name (`list_user_roles` lists roles, `list_people` persons;
    `find_issue` finds one issue, it lists nothing: `checks.nouns`). It must be the noun the input
    names (`issue_id` -> `list_issues`, `category_id` -> `list_categories`, `index_name` ->
    `list_indices`); a bare `id`/`key`/`name`, or no known input, takes the noun of the failing
    function (`get_issue`) or, last, a listed noun the message names ("No such file: {path}" ->
    `list_files`). A listing tool for another noun is no source of this value, and the failing
    function is not offered as its own source."""
    listed = {}
    for tool in listing_tools(tools):
        words = tool.lower().split("_")[1:]
        if tool != function and words and is_plural(words[-1]):
            listed[tool] = tuple(words)

    def lists(noun: Tuple[str, ...]) -> List[str]:
        found = []
        for tool, ws in listed.items():
            if noun and len(ws) >= len(noun) and lists_noun(ws[-1], noun[-1]) and \
                    [singular(w) for w in ws[len(ws) - len(noun):-1]] == [singular(w) for w in noun[:-1]]:
                found.append(tool)
        return found

    noun = input_noun(param) if param else ()
    if noun:  # the input names its noun: an image id is no deck, whatever else the message names
        return lists(noun) or lists(glued_noun(noun))
    found = lists(input_noun(function.split("_", 1)[1])) if "_" in function else []
    if found:
        return found
    words = set(re.findall(r"[a-z]+", prose.lower()))
    return [t for t, ws in listed.items() if any(lists_noun(ws[-1], w) for w in words)]


def listing_tool_for(param: str, tools: Iterable[str], function: str = "", prose: str = ""):
    """The one listing tool for the value that failed (`listing_tools_for`), or None."""
    found = listing_tools_for(param, tools, function, prose)
    return found[0] if len(found) == 1 else None


class PartRule(ErrorReplyRule):
    """A "missing part" rule: none applies to an internal fault, which no caller can fix, nor to an
    exception a library raises as an internal signal. A tool's plain `return` of an error reply is read
    as a raised error is (`error_replies.is_error_reply`); of a returned error dict, its text field.
    Subclasses implement `check_part`."""

    ENVELOPE_TEXT = True

    def applies(self, message: Message) -> bool:
        return super().applies(message) and not internal_fault(message)

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        function = message.context.function
        if internal_signal(message, ctx) or function is not None and function.name == "__getattr__":
            return ()  # PEP 562 / attribute lookup: "has no attribute {name!r}" is Python's own message
        main = [t for t in message.templates if not t.fallback]
        if main and all(restates_status(message, t) for t in main):
            return ()  # a 401/403/405 whose text is its status phrase: the status says all there is
        if self.code in ("AEM202", "AEM203", "AEM204", "AEM205") and main and all(relayed_text(t) for t in main):
            return ()  # `raise ToolError(result.get("error"))`: the text is the upstream's; AEM207 judges relaying it
        if message.extra.get("detached"):
            return ()  # an error-message table entry (Django `error_messages`): no failure site to judge parts at
        if message.extra.get("header"):
            return ()  # "Errors from pip install:" then the lines printed after it: the parts are in those lines
        if self.code in ("AEM201", "AEM204", "AEM205") and LISTING_FIELD.search(" ".join(message.extra.get("siblings", ()))):
            return ()  # `{"error": "Template 'x' not found", "available_templates": [...]}`: the reply lists them
        if host_protocol_error(message, ctx):
            return ()  # "Unknown tool: x" as a protocol error: the client host reads it, and holds the tool list
        if declared_exhaustive(message, ctx):
            return ()  # the `else` of a chain that handles every value a `Literal`/`Choice` declares: no reader gets here
        return self.check_part(message, ctx)

    def check_part(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        return ()


def declared_exhaustive(message: Message, ctx: FileContext) -> bool:
    """The guards handle every value a parameter's declaration allows (`Literal[...]`, `click.Choice`),
    so the message is raised for no value a reader can send (`extract.declared_sets`)."""
    function = message.context.function
    if function is None:
        return False
    handled: dict = {}  # subject -> the values the chain's branches handle (`if k == "a": ... elif k == "b": ...`)
    for membership in ctx.guard(message).memberships:
        if membership.allowed and membership.values:
            handled.setdefault(membership.tested or membership.subject, set()).update(membership.values)
    scope = message.scope
    untaken: Optional[Set[int]] = None
    for subject, values in handled.items():
        bindings = scope.lookup(subject) if scope is not None else []
        if any(b.kind != "param" for b in bindings):
            if untaken is None:
                untaken = _untaken_branches(message)
            if any(b.kind != "param" and (b.value is None or id(b.value) not in untaken) for b in bindings):
                continue  # the parameter is rebound before the chain: its declaration no longer holds
        declared = declared_values(function, subject, lambda name: ctx.resolve(message, name), ctx.literal_aliases)
        if declared is None and "." in subject:
            declared = field_values(subject, scope, _model_fields(ctx))
        if declared and declared <= values:
            return True
    return False


def _model_fields(ctx: FileContext) -> dict:
    """The `Literal` fields of the project's pydantic models (the run's scan) and of this file's."""
    found = getattr(ctx, "_model_fields", None)
    if found is None:
        found = ctx._model_fields = {**ctx.literal_aliases, **scan_literal_fields(ctx.text)}  # type: ignore[attr-defined]
    return found


def _untaken_branches(message: Message) -> Set[int]:
    """The nodes in the bodies of the `if`s the message sits in the `else` of: a name rebound there
    (`if kind == "a": kind = A`) still holds the parameter's value where the message is."""
    function = message.context.function
    tests = {id(g.test) for g in message.context.guards if g.negated and g.test is not None}
    out: Set[int] = set()
    if function is None or function.node is None or not tests:
        return out
    for node in nodes.iter_expr(function.node.body, stop=(cst.FunctionDef, cst.ClassDef, cst.Lambda)):
        if node.__class__ is cst.If and id(node.test) in tests:  # exact class test: see `nodes`
            out.update(id(n) for n in nodes.iter_expr(node.body))
    return out


def passthrough_only(template: Template, sig) -> bool:
    """True for `f"Error: {e}"`, `str(e)`, `f"{type(e).__name__}: {e}"`: a generic prefix plus the
    exception's own text and nothing else (AEM207)."""
    holders = template.placeholders
    if not holders or not any(h.has(EXCEPTION) for h in holders):
        return False
    for h in holders:
        if not (h.has(EXCEPTION) or EXC_TYPE_NAME.match(h.expr.replace(" ", ""))):
            return False
    return len(sig.content_words(template)) <= 2 and not identifiers(template)


def relayed_only(template: Template, sig) -> bool:
    """`f"Tool failed: {outcome.get('error')}"`: no words of its own beside a generic prefix, and the
    rest is the upstream's error text read from a mapping."""
    holders = template.placeholders
    return bool(holders) and all(h.has(RELAYED) or EXC_TYPE_NAME.match(h.expr.replace(" ", "")) for h in holders) and not sig.content_words(template)


def relayed_text(template: Template) -> bool:
    """The whole message is exception or upstream text: what it lacks is AEM207's finding, not a part."""
    return not template.literal.strip() and bool(template.placeholders) and all(h.has(EXCEPTION) for h in template.placeholders)


def _contains(template: Template, value: str) -> bool:
    return bool(re.search(rf"(?<![\w]){re.escape(value)}(?![\w])", template.literal))


def _root(name: str) -> str:
    return name.split(".", 1)[0]
