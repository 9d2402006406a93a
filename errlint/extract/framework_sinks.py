"""Framework error surfaces: where each web framework puts the text an HTTP client reads.

The sink catalogue (`sinks.py`) lists calls that take a message. Web frameworks also send errors as
*responses* (a `JSONResponse` with a 4xx/5xx status, aiohttp's `web.json_response`, Flask's
`jsonify(...), 400`), as exception classes whose message is a class attribute (DRF
`default_detail`, `default_error_messages` read by `self.fail(key)`, Django `error_messages`), and as
hand-built JSON-RPC replies. This module recognises those shapes; the walker records what it returns.
A table entry that no `self.fail(key)` in the file reads is `detached`: it has no failure site, so
only the prose rules judge it (its guards and missing parts are unknown).

A structured body is taken apart: its `message`/`detail`/`error`/`title` fields are the template,
and each other field is classified (a hint is text the reader gets, an echoed value is a
placeholder, a status or error code is metadata and adds nothing).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from http import HTTPStatus
from typing import Callable, Dict, List, Optional, Tuple

import libcst as cst

from ..model import Template
from . import nodes
from .string_formats import join
from .templates import TemplateBuilder
from .value_sets import empty_container

MESSAGE_FIELDS = ("message", "detail", "error", "title", "description", "reason", "msg", "error_description", "error_message", "errors",
                  "non_field_errors", "__all__")  # DRF's and Django's errors of no one field
META_FIELDS = re.compile(r"^(code|status|status_code|statusCode|error_code|errorCode|type|kind|success|ok|id|jsonrpc|timestamp|request_id|requestId|trace_id|path|method)$")
STATUS_NAME = re.compile(r"HTTP_(\d{3})(?:_|$)")
ERROR_WORDS = re.compile(r"^\W*(error|failed|failure|invalid|unknown|cannot|can't|could not|unable|not found|missing|denied|forbidden|unauthori[sz]ed)\b", re.I)

_PHRASES: Dict[str, int] = {s.phrase.replace(" ", "").replace("-", "").lower(): s.value for s in HTTPStatus}
_PHRASES.update({s.name.replace("_", "").lower(): s.value for s in HTTPStatus})
_PHRASES.update({"requestentitytoolarge": 413, "requesturitoolong": 414, "requestedrangenotsatisfiable": 416, "imateapot": 418,
                 "misdirectedrequest": 421, "unprocessableentity": 422, "notfound": 404,
                 # DRF's exception classes
                 "permissiondenied": 403, "notauthenticated": 401, "authenticationfailed": 401, "parseerror": 400,
                 "validationerror": 400, "throttled": 429, "notacceptable": 406, "unsupportedmediatype": 415})


def status_value(node: Optional[cst.CSTNode]) -> Optional[int]:
    """The HTTP status a node spells: `415`, `status.HTTP_415_UNSUPPORTED_MEDIA_TYPE`,
    `HTTPStatus.UNSUPPORTED_MEDIA_TYPE` (`.value`), or None when it is computed."""
    if node is None:
        return None
    value = nodes.int_value(node)
    if value is not None:
        return value
    text = nodes.dotted(node)
    if not text:
        return None
    if text.endswith(".value"):
        text = text[: -len(".value")]
    last = text.rsplit(".", 1)[-1]
    match = STATUS_NAME.search(last)
    if match:
        return int(match.group(1))
    if "HTTPStatus" in text or text.startswith("http."):
        member = getattr(HTTPStatus, last, None)
        return int(member) if member is not None else None
    return None


def status_phrase(status: Optional[int]) -> str:
    """`409` -> "Conflict" ("" for a status Python does not name)."""
    try:
        return HTTPStatus(status).phrase if status is not None else ""
    except ValueError:
        return ""


def status_of_class(callee: str) -> Optional[int]:
    """The status an exception or response class stands for, from its name: werkzeug `Gone`, aiohttp
    `HTTPNotFound`, Django `HttpResponseBadRequest`, DRF `NotFound`/`PermissionDenied`."""
    last = callee.rsplit(".", 1)[-1]
    for prefix in ("HttpResponse", "HTTP"):
        if last.startswith(prefix) and len(last) > len(prefix):
            last = last[len(prefix):]
            break
    return _PHRASES.get(last.lower())


@dataclass(frozen=True)
class ErrorResponse:
    """A response built with an error status: its status (None when computed) and body expression."""

    status: Optional[int]
    body: Optional[cst.CSTNode]


def _is_error_status(status: Optional[int]) -> bool:
    return status is not None and 400 <= status <= 599


_RESPONSE_PACKAGES = frozenset({"fastapi", "starlette", "flask", "werkzeug", "rest_framework", "aiohttp", "django", "litestar", "sanic", "quart"})


def error_response(callee: str, call: cst.Call) -> Optional[ErrorResponse]:
    """A call that builds a response with a 4xx/5xx status and a body, or None."""
    top = callee.split(".", 1)[0]
    if top not in _RESPONSE_PACKAGES:  # every branch below names one of them
        return None
    last = callee.rsplit(".", 1)[-1]
    if top in ("fastapi", "starlette") and last.endswith("Response") and ".responses." in callee or callee in ("fastapi.Response", "starlette.responses.Response"):
        status = status_value(nodes.call_arg(call, 1, "status_code"))
        body = nodes.call_arg(call, 0, "content")
    elif callee in ("flask.Response", "flask.make_response", "werkzeug.wrappers.Response", "werkzeug.Response", "rest_framework.response.Response"):
        status = status_value(nodes.call_arg(call, 1, "status"))
        body = nodes.call_arg(call, 0, "response", "data")
    elif top == "aiohttp" and last in ("json_response", "Response"):
        status = status_value(nodes.keyword_arg(call, "status"))
        body = nodes.call_arg(call, 0 if last == "json_response" else None, "data", "text", "body")
    elif top == "litestar" and last == "Response":  # `Response(content, status_code=400)`
        status = status_value(nodes.keyword_arg(call, "status_code"))
        body = nodes.call_arg(call, 0, "content")
    elif top == "sanic" and last in ("json", "text", "HTTPResponse"):  # `sanic.response.json(body, status=400)`
        status = status_value(nodes.call_arg(call, 1, "status"))
        body = nodes.call_arg(call, 0, "body")
    elif callee in ("quart.Response", "quart.make_response"):
        status = status_value(nodes.call_arg(call, 1, "status"))
        body = nodes.call_arg(call, 0, "response")
    elif top == "django" and last in ("JsonResponse", "HttpResponse"):
        status = status_value(nodes.keyword_arg(call, "status"))
        body = nodes.call_arg(call, 0, "data", "content")
    elif top == "django" and last.startswith("HttpResponse"):
        status = status_of_class(last)
        body = nodes.call_arg(call, 0, "content")
    else:
        return None
    if not _is_error_status(status) or body is None:
        return None
    return ErrorResponse(status, body)


def flask_error_tuple(node: cst.Tuple, qualify: Callable[[cst.CSTNode], str]) -> Optional[ErrorResponse]:
    """Flask's `return jsonify(error=...), 400` / `return {"error": ...}, 400` / `return "text", 400`:
    body first, status second."""
    elements = [el.value for el in node.elements if not isinstance(el, cst.StarredElement)]
    if len(elements) < 2:
        return None
    status = status_value(elements[1])
    body = elements[0]
    if not _is_error_status(status):
        return None
    if isinstance(body, cst.Call) and qualify(body.func) in ("flask.jsonify", "flask.json.jsonify"):
        if body.args and all(a.keyword is not None for a in body.args):
            return ErrorResponse(status, cst.Dict([cst.DictElement(cst.SimpleString(repr(a.keyword.value)), a.value) for a in body.args]))
        return ErrorResponse(status, nodes.call_arg(body, 0))
    if isinstance(body, (cst.Dict, cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
        return ErrorResponse(status, body)  # `return "Unknown widget", 404`: the text is the body
    return None


def http_exception_messageless(callee: str, call: cst.Call) -> Tuple[bool, Optional[int]]:
    """(no message, status) for an HTTP error raised or aborted without text: `abort(409)`,
    `HTTPException(400)`, `Gone()`, `web.HTTPNotFound()`, DRF `NotFound()`."""
    last = callee.rsplit(".", 1)[-1]
    if last == "abort" or last in ("HTTPException", "WebSocketException") and callee.split(".", 1)[0] in ("fastapi", "starlette"):
        status = status_value(nodes.call_arg(call, 0, "status_code", "code", "status"))
        if nodes.call_arg(call, 0, "status_code", "code", "status") is None or len(call.args) > 1:
            return False, status
        if status is not None and status < 400:
            return False, status
        first = nodes.call_arg(call, 0, "status_code", "code", "status")
        if status is None and not isinstance(first, (cst.Name, cst.Attribute)):
            return False, status  # `abort(make_response(...))`: a whole response
        return True, status
    if call.args:
        return False, None
    status = status_of_class(callee)
    if status is not None and status < 400:
        return False, status
    return True, status


def structure_of(node: Optional[cst.CSTNode], scope) -> Optional[cst.CSTNode]:
    """The structure a message argument is, or None when it is text: a dict, a list or tuple, `dict(k=...)`,
    or what a name bound once to one holds (`HTTPException(400, detail=body)`). A container made empty
    and filled by the code holds what was put in it: `errors["name"] = "..."` fills a dict of those
    fields, `problems.append(f"...")` a list of those texts; filled any other way, it is unknown."""
    if isinstance(node, cst.Name):
        name = node.value
        node = scope.value(name) if scope is not None else None
        if empty_container(node):
            keyed, filled = scope.keyed_items(name), scope.mutated(name)
            if keyed and len(filled) == 2 * len(keyed):  # every fill is `errors["field"] = text`
                return cst.Dict([cst.DictElement(cst.SimpleString(repr(key)), value) for key, value in keyed])
            if filled and not keyed and node.__class__ is not cst.Dict:
                return cst.List([cst.Element(value) for value in filled])
            return None
    if isinstance(node, (cst.Dict, cst.List, cst.Tuple)):
        return node
    return _keyword_dict(node)


def _keyword_dict(node: Optional[cst.CSTNode]) -> Optional[cst.Dict]:
    """`dict(error=..., code=...)` as the dict literal it builds, else None."""
    if isinstance(node, cst.Call) and nodes.last_name(node.func) == "dict" and node.args and all(a.keyword is not None for a in node.args):
        return cst.Dict([cst.DictElement(cst.SimpleString(repr(a.keyword.value)), a.value) for a in node.args])
    return None


def body_templates(builder: TemplateBuilder, body: cst.CSTNode, by_field: bool = False) -> List[Template]:
    """The templates of a response body or a structured message: a string as itself, a dict taken
    apart by field, a list as its items one after the other (`structure_of`). `by_field`: the dict's
    keys are the names of the fields that failed (`ValidationError({"quantity": ["Must be at least
    1."]})`), which the reader sees with each text."""
    return _value_templates(builder, structure_of(body, builder.scope) or body, 0, by_field)


_SPACE = Template((" ",), (), True)
_UNKNOWN = Template((), (), False)  # a `**spread` or `*items`: fields errlint cannot see


def _joined(out: List[Template], built: List[Template]) -> List[Template]:
    return built if not out else [join(join(a, _SPACE), b) for a in out for b in built][:4]


def _value_templates(builder: TemplateBuilder, value: cst.CSTNode, depth: int, by_field: bool = False) -> List[Template]:
    if isinstance(value, cst.Dict) and depth < 4:
        return _dict_templates(builder, value, depth, by_field)
    if isinstance(value, (cst.List, cst.Tuple)) and depth < 4:
        out: List[Template] = []
        for el in value.elements:
            out = _joined(out, [_UNKNOWN] if isinstance(el, cst.StarredElement) else _value_templates(builder, el.value, depth + 1))
        return out or [Template((), (), True)]
    return builder.build(value)


def _metadata(key: str, value: cst.CSTNode) -> bool:
    """A status, an error code, a flag: a field the reader parses, not prose (`"code": "too_big"`,
    `"code": ErrorCode.BAD_PASSWORD`, `"status": 404`, `"ok": False`)."""
    if not META_FIELDS.match(key):
        return False
    if nodes.string_value(value) is not None or nodes.int_value(value) is not None or status_value(value) is not None:
        return True
    dotted = nodes.dotted(value)
    return dotted in ("True", "False", "None") or bool(CONSTANT.match(dotted.rsplit(".", 1)[-1])) and "." in dotted


CONSTANT = re.compile(r"^[A-Z][A-Z0-9_]*$")


def _dict_templates(builder: TemplateBuilder, body: cst.Dict, depth: int, by_field: bool = False) -> List[Template]:
    fields: List[Tuple[str, cst.CSTNode]] = []
    spread = False
    for el in body.elements:
        if isinstance(el, cst.DictElement):
            key = nodes.string_value(el.key)
            fields.append((key or "", el.value))
        else:
            spread = True
    out: List[Template] = []
    for key, value in fields:
        if key in MESSAGE_FIELDS:
            out = _joined(out, _value_templates(builder, value, depth + 1))
    for key, value in fields:
        if key in MESSAGE_FIELDS or not by_field and _metadata(key, value):
            continue
        built = _value_templates(builder, value, depth + 1, by_field)
        if by_field and key:  # the reader gets each text beside its field's name: `{"quantity": [...]}`
            built = [join(Template((f'"{key}": ',), (), True), b) for b in built]
        out = _joined(out, built)
    if spread:
        out = _joined(out, [_UNKNOWN])
    return out or [Template((), (), True)]


def sets_retry_after(node: cst.CSTNode, resolve: Callable[[str], Optional[cst.CSTNode]]) -> bool:
    """The response or HTTP error sets a `Retry-After` header (`JSONResponse(..., headers={"Retry-After":
    "30"})`, `HTTPException(503, ..., headers=...)`, a headers dict bound to a name first): the client
    reads the wait there."""
    call = node.exc if isinstance(node, cst.Raise) else node
    headers = nodes.keyword_arg(call, "headers") if isinstance(call, cst.Call) else None
    if isinstance(headers, cst.Name):
        headers = resolve(headers.value)
    if not isinstance(headers, cst.Dict):
        return False
    return any(isinstance(el, cst.DictElement) and (nodes.string_value(el.key) or "").lower() == "retry-after" for el in headers.elements)


def jsonrpc_result_texts(keys: Dict[str, cst.CSTNode], in_handler: bool) -> List[cst.CSTNode]:
    """Text nodes of a hand-built JSON-RPC `result` that reports an error without `isError`: the
    reply is built in an `except` handler, or its text opens with a failure word."""
    result = keys.get("result")
    if not isinstance(result, cst.Dict):
        return []
    inner = {nodes.string_value(el.key): el.value for el in result.elements if isinstance(el, cst.DictElement)}
    if "isError" in inner or "is_error" in inner or "content" not in inner:
        return []
    texts: List[cst.CSTNode] = []
    content = inner["content"]
    items = content.elements if isinstance(content, (cst.List, cst.Tuple)) else []
    for item in items:
        value = item.value
        if isinstance(value, cst.Dict):
            for el in value.elements:
                if isinstance(el, cst.DictElement) and nodes.string_value(el.key) == "text":
                    texts.append(el.value)
    literal = [t for t in texts if ERROR_WORDS.search(_leading_text(t))]
    return texts if in_handler else literal


def _leading_text(node: cst.CSTNode) -> str:
    value = nodes.string_value(node)
    if value is not None:
        return value
    if isinstance(node, cst.FormattedString) and node.parts and isinstance(node.parts[0], cst.FormattedStringText):
        return node.parts[0].value
    return ""


def error_message_dicts(call: cst.Call) -> List[Tuple[str, cst.CSTNode]]:
    """Django/DRF `error_messages={"required": "..."}` given to a field: (key, text) pairs."""
    table = nodes.keyword_arg(call, "error_messages")
    return dict_strings(table) if table.__class__ is cst.Dict else []  # exact class test: see `nodes`


def dict_strings(table: cst.Dict) -> List[Tuple[str, cst.CSTNode]]:
    out: List[Tuple[str, cst.CSTNode]] = []
    for el in table.elements:
        if isinstance(el, cst.DictElement):
            key = nodes.string_value(el.key)
            if key is not None and isinstance(el.value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString, cst.Call)):
                out.append((key, el.value))
    return out


class ErrorTables:
    """DRF `default_error_messages` per class in the file, and the keys some `self.fail(key)` reads:
    those entries are judged at the `fail` site (its guards), not at the table."""

    def __init__(self) -> None:
        self.tables: Dict[str, Dict[str, cst.CSTNode]] = {}
        self.bases: Dict[str, Tuple[str, ...]] = {}
        self.failed: set = set()

    def define(self, walker, stmt: cst.ClassDef, bases: List[str]) -> None:
        name = stmt.name.value
        self.bases[name] = tuple(b.rsplit(".", 1)[-1] for b in bases)
        body = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else stmt.body.body
        for item in body:
            for small in item.body if isinstance(item, cst.SimpleStatementLine) else []:
                if isinstance(small, cst.Assign) and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == "default_error_messages" and isinstance(small.value, cst.Dict):
                    table = self.tables.setdefault(name, {})
                    for key, text in dict_strings(small.value):
                        table[key] = text
                        walker.record("http", f"{name}.default_error_messages", text, text, judged_at=(name, key), detached=True)

    def lookup(self, name: str, key: str) -> Tuple[str, Optional[cst.CSTNode]]:
        seen: set = set()
        queue = [name]
        while queue:
            current = queue.pop(0)
            if current in seen:
                continue
            seen.add(current)
            if key in self.tables.get(current, {}):
                return current, self.tables[current][key]
            queue.extend(self.bases.get(current, ()))
        return "", None


def on_call(walker, call: cst.Call, callee: str) -> bool:
    """Record a framework error surface made by a call; True when the call was one."""
    response = error_response(callee, call)
    if response is not None:
        walker.record("http", callee, call, response.body, status=response.status, body=True, raised=False)
        return True
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "fail" and nodes.dotted(func.value) == "self" and walker.class_name:
        key = nodes.string_value(nodes.call_arg(call, 0, "key"))
        owner, text = walker.error_tables.lookup(walker.class_name, key) if key is not None else ("", None)
        if text is not None:
            walker.error_tables.failed.add((owner, key))
            walker.record("http", f"{owner}.fail", call, call, raised=True, table_key=key, composed=text)
            return True
    for key, text in error_message_dicts(call):
        walker.record("http", f"{callee or nodes.last_name(func)}(error_messages)", text, text, table_key=key, detached=True)
    return False


def on_tuple(walker, node: cst.Tuple) -> None:
    response = flask_error_tuple(node, walker.qualify)
    if response is not None:
        walker.record("http", "flask.return", node, response.body, status=response.status, body=True, raised=False)


def on_http_without_text(walker, call: cst.Call, callee: str, extra: dict) -> None:
    """`abort(409)`, `HTTPException(400)`, `raise Gone()`: an HTTP error with no text of its own."""
    none, status = http_exception_messageless(callee, call)
    if not none:
        return
    extra = dict(extra)
    if status is not None:
        extra["status"] = status
    walker.record("http", callee, call, None, messageless=True, **extra)
