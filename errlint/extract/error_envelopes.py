"""Error envelopes: a dict literal that reports a failure in its own fields instead of raising.

`{"error": str(e)}`, `{"success": False, "message": "..."}`, `{"ok": False, "error": ..., "trace": ...}`,
`{"status": "error", "detail": ...}`: the reader of a tool's result (or of a response body) gets a
success whose fields say it failed. A dict is an error envelope when it

- carries a failure flag (`success`/`ok`/`succeeded` set to `False`, `status`/`state`/`result` set to
  "error", "failed", "failure", ...) and a text field (`message`, `error`, `detail`, `reason`, ...),
  and nothing else but what describes the error (a code, a hint, a traceback): outside an except
  handler, a flagged dict that also carries the payload a success would (`"services": []`) is one
  shape of the tool's structured result, whose status field its reader is told to read; in a handler
  it reports the exception caught there; or
- carries an `error`-family field whose value is not `None`, `False` or empty, and no success flag
  (`success: True`, `status: "ok"`).

A dict with an `isError`/`is_error` key says itself whether it is an error: it is no envelope here.

`reply_fields` finds the dict a returned value carries however it was built: a literal,
`dict(success=False, error=msg)`, a local bound to one (with the keys later assigned to it,
`reply["error"] = str(e)`), or one of those inside `json.dumps(...)`/`str(...)`.
"""
from __future__ import annotations

from typing import Callable, Dict, Optional

import libcst as cst

from . import nodes

# fields that hold an error's text, in the order a reply's text is taken from
TEXT_FIELDS = ("error", "error_message", "errors", "message", "detail", "reason", "msg", "description")
ERROR_FIELDS = frozenset({"error", "errors", "error_message"})
FLAG_FIELDS = frozenset({"success", "ok", "succeeded", "successful"})
STATUS_FIELDS = frozenset({"status", "state", "result", "outcome"})
FAILED_STATES = frozenset({"error", "errored", "failed", "failure", "fail", "fatal"})
SUCCEEDED_STATES = frozenset({"ok", "success", "succeeded", "done", "completed", "complete"})
PROTOCOL_FIELDS = frozenset({"isError", "is_error"})
# what may stand beside the flag and the text in an envelope: fields that describe the error
ERROR_DETAIL_FIELDS = frozenset({
    "code", "error_code", "errorcode", "type", "error_type", "kind", "details", "hint", "hints", "traceback", "trace",
    "stack", "stacktrace", "retry", "retryable", "retry_after", "status_code", "http_status", "suggestion", "help",
    "exception", "cause", "title", "data"})
_DESCRIBING = ERROR_DETAIL_FIELDS | FLAG_FIELDS | STATUS_FIELDS  # compared lower-cased


def flagged(found: Dict[str, cst.CSTNode]) -> Optional[bool]:
    """True when a field flags a failure, False when one flags a success, None when none says."""
    for key, value in found.items():
        low = key.lower()
        if low in FLAG_FIELDS and value.__class__ is cst.Name and value.value in ("True", "False"):
            return value.value == "False"
        if low in STATUS_FIELDS:
            state = (nodes.string_value(value) or "").strip().lower()
            if state in FAILED_STATES:
                return True
            if state in SUCCEEDED_STATES:
                return False
    return None


def _empty(value: cst.CSTNode) -> bool:
    if value.__class__ is cst.Name:
        return value.value in ("None", "False")
    text = nodes.string_value(value)
    return text is not None and not text.strip() or value.__class__ in (cst.List, cst.Dict) and not getattr(value, "elements", True)


def envelope_text(node: cst.Dict, in_handler: bool = False) -> Optional[cst.CSTNode]:
    """The error text of an error envelope (the first text field present), else None. `in_handler`:
    the dict is built in an except handler, so it reports the exception caught there, whatever
    payload stands beside the flag."""
    return text_of(nodes.dict_fields(node), in_handler)


def text_of(found: Dict[str, cst.CSTNode], in_handler: bool = False) -> Optional[cst.CSTNode]:
    """`envelope_text` of a dict's fields (`nodes.dict_fields`), for a caller that has them."""
    if found.keys() & PROTOCOL_FIELDS:
        return None
    flag = flagged(found)
    if flag is False:
        return None
    describes = all(k.lower() in _DESCRIBING or k in TEXT_FIELDS for k in found)
    for key in TEXT_FIELDS:
        value = found.get(key)
        if value is None or _empty(value):
            continue
        if flag and (describes or in_handler) or key in ERROR_FIELDS:
            return _inner_text(value)
    return None


def _inner_text(value: cst.CSTNode) -> cst.CSTNode:
    """The text of a nested error object (`{"error": {"code": "not_found", "message": "..."}}`: its
    `message`), else the value itself."""
    if value.__class__ is not cst.Dict:
        return value
    inner = nodes.dict_fields(value)
    return next((inner[k] for k in TEXT_FIELDS if k in inner and not _empty(inner[k])), value)


# calls whose result carries their first argument's dict as the reply: `json.dumps(reply)`
_SERIALISERS = frozenset({"json.dumps", "str", "orjson.dumps", "ujson.dumps", "simplejson.dumps"})


def reply_fields(value: Optional[cst.CSTNode], scope, qualify: Callable[[cst.CSTNode], str],
                 depth: int = 0) -> Optional[Dict[str, cst.CSTNode]]:
    """The string-keyed fields of the dict `value` carries (see the module doc), or None when it
    carries none. `scope` resolves local names (a `ReachingScope` at the return resolves a name the
    function binds more than once), `qualify` names a call's callee."""
    if value is None or depth > 4:
        return None
    kind = value.__class__  # exact class tests: see `nodes`
    if kind is cst.Dict:
        return nodes.dict_fields(value)
    if kind is cst.Call:
        callee = qualify(value.func)
        if callee == "dict":
            found: Dict[str, cst.CSTNode] = {}
            for arg in value.args:
                if arg.keyword is not None:
                    found[arg.keyword.value] = arg.value
                elif not arg.star:  # `dict(base, error=msg)`: the copied dict's fields come first
                    found = {**(reply_fields(arg.value, scope, qualify, depth + 1) or {}), **found}
            return found or None
        if callee in _SERIALISERS and value.args and not value.args[0].keyword:
            return reply_fields(value.args[0].value, scope, qualify, depth + 1)
        return None
    if kind is cst.Name:
        bound = scope.value(value.value)
        if bound is None or bound is value:
            return None
        found = reply_fields(bound, scope, qualify, depth + 1)
        if found is None:
            return None
        return {**found, **dict(scope.keyed_items(value.value))}
    return None
