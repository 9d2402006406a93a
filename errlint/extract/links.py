"""What one module tells the project model about itself, collected during the walk (no second pass):
dispatch tables, star imports, classes, module-level and `__main__` calls, functions registered as
entry points by a call, and which callees' values flow into a function's return value.

The project model (`errlint.project_model`) joins these facts across files.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import libcst as cst

from . import nodes
from .error_envelopes import PROTOCOL_FIELDS, reply_fields, text_of
from .receivers import call_target
from .sinks import server_stack

# wrappers a reply passes through unchanged in meaning: `return json.dumps(helper(...))`
REPLY_WRAPPERS = frozenset({
    "json.dumps", "str", "repr", "dict", "list", "tuple", "TextContent", "mcp.types.TextContent", "CallToolResult",
    "mcp.types.CallToolResult", "JSONResponse", "dumps", "format", "orjson.dumps", "ujson.dumps",
})
# calls that register a function as an HTTP handler or CLI command: (qualified-name pattern, audience)
HTTP_REGISTRARS = re.compile(r"(^aiohttp\.web\.(get|post|put|patch|delete|head|route|view)$|\.add_(get|post|put|patch|delete|head|route|view|api_route|url_rule|exception_handler|api_websocket_route|websocket_route)$|(^|\.)(Route|WebSocketRoute|APIRoute|path|re_path|url)$)")
# the last names HTTP_REGISTRARS can end a match with (besides `add_...`): a set test first is cheaper
_REGISTRAR_NAMES = frozenset({"get", "post", "put", "patch", "delete", "head", "route", "view", "Route", "WebSocketRoute", "APIRoute", "path", "re_path", "url"})
DECORATOR_CALLS = {
    "tool": "agent", "resource": "agent", "prompt": "agent", "command": "cli", "callback": "cli",
    "get": "http", "post": "http", "put": "http", "patch": "http", "delete": "http", "route": "http",
    "api_route": "http", "exception_handler": "http", "errorhandler": "http",
}
HTTP_MODULES = {"fastapi", "starlette", "flask", "quart", "aiohttp", "django", "rest_framework", "sanic", "litestar"}
ERROR_WORDS = re.compile(r"\b(error|errors|fail|failed|failure|invalid|not found|cannot|can't|could not|couldn't|unable|denied|missing|unknown|not allowed|forbidden|timed? ?out|exception)\b", re.I)


@dataclass
class ModuleLinks:
    """Per-module facts for the project model, all qualified as the module's imports name them."""

    stars: List[str] = field(default_factory=list)  # `from X import *` sources (relative ones keep their dots)
    tables: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # name -> functions or classes stored in it, `X()` for an instance
    classes: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # top-level class -> its bases
    # `Class.attr` -> what its methods assign to `self.attr`: `X()` for an instance of X, `?` for another value
    attrs: Dict[str, Set[str]] = field(default_factory=dict)
    module_calls: Set[str] = field(default_factory=set)
    main_calls: Set[str] = field(default_factory=set)  # calls under `if __name__ == "__main__":`
    # for the calls at the top level and in the main block, as `FunctionInfo.caught`/`relayed` for a
    # function's: the classes every call of a target is protected from, and those some call of it
    # is caught and used around (`try: main()` / `except Exception as e: sys.exit(f"error: {e}")`)
    top_caught: Dict[str, FrozenSet[str]] = field(default_factory=dict)
    top_relayed: Dict[str, FrozenSet[str]] = field(default_factory=dict)
    entries: List[Tuple[str, str, str]] = field(default_factory=list)  # (audience, function, where) registered by a call
    tool_names: List[Tuple[str, str]] = field(default_factory=list)  # (function, tool name) of add_tool
    # functions that start a server (`mcp.run()`, `uvicorn.run(app)`), and the functions they are
    # nested in; `<main>`/`<module>` when the module's main block or top level does
    serving: Set[str] = field(default_factory=set)
    # the module registers code that turns exceptions into HTTP responses by a call: an
    # `exception_handlers=` argument (Starlette, FastAPI), or DRF's `exception_handler` called from a
    # custom one; and the middleware it names (`add_middleware(M)`, `Middleware(M)`, the names in a
    # `middleware=`/`middlewares=` list), which turn exceptions into responses when they catch any
    catchers: bool = False
    middleware: Set[str] = field(default_factory=set)

    def table_refs(self, value: cst.CSTNode, walker) -> Tuple[str, ...]:
        """The functions or classes a dict/list/tuple literal stores (`X()` for an instance of X), when
        every value is a name, an attribute or an instance."""
        if isinstance(value, cst.Dict):
            items = [el.value for el in value.elements if isinstance(el, cst.DictElement)]
        else:
            items = [el.value for el in value.elements]
        if not items or len(items) > 500:
            return ()
        refs = []
        for item in items:
            made = ""
            if isinstance(item, cst.Call) and nodes.last_name(item.func) == "partial" and item.args:
                item = item.args[0].value
            elif isinstance(item, cst.Call):  # an instance: `{"read": ReadHandler(), ...}`
                item, made = item.func, "()"
            name = walker.qualify(item) if isinstance(item, (cst.Name, cst.Attribute)) else ""
            if not name:
                return ()
            refs.append(name + made)
        return tuple(refs)


def loop_tables(target: cst.CSTNode, listed: cst.CSTNode) -> List[Tuple[str, cst.CSTNode]]:
    """(loop variable, a literal of what it takes in turn) for a `for` over a literal list or tuple:
    `for caster in (boolify, int)` gives caster -> (boolify, int); `for parse, kind in [(int, A),
    (check, B)]` gives parse -> (int, check) and kind -> (A, B)."""
    if listed.__class__ not in (cst.Tuple, cst.List):  # exact class tests: see `nodes`
        return []
    if target.__class__ is cst.Name:
        return [(target.value, listed)]
    if target.__class__ not in (cst.Tuple, cst.List):
        return []
    rows = [el.value for el in listed.elements]
    width = len(target.elements)
    if not rows or any(r.__class__ not in (cst.Tuple, cst.List) or len(r.elements) != width for r in rows):
        return []
    out = []
    for i, el in enumerate(target.elements):
        if el.value.__class__ is cst.Name:
            out.append((el.value.value, cst.Tuple([cst.Element(r.elements[i].value) for r in rows])))
    return out


def is_main_test(test: cst.CSTNode) -> bool:
    """`__name__ == "__main__"` (either order)."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    left, right = test.left, test.comparisons[0].comparator
    names = {nodes.dotted(left), nodes.dotted(right)}
    values = {nodes.string_value(left), nodes.string_value(right)}
    return "__name__" in names and "__main__" in values and isinstance(test.comparisons[0].operator, cst.Equal)


def _note_catchers(call: cst.Call, callee: str, walker) -> None:
    """What a call registers that may turn exceptions into HTTP responses (`ModuleLinks.catchers`,
    `ModuleLinks.middleware`), in one look at its arguments: `FastAPI(exception_handlers={...})`, a
    custom DRF handler's call of `rest_framework.views.exception_handler`, and the middleware it
    names (`app.add_middleware(M)`, `Middleware(M, ...)`, the names in a `middleware=[...]` or
    `middlewares=[...]` list, as aiohttp's `web.Application(middlewares=[m])`)."""
    links = walker.links
    last = callee.rsplit(".", 1)[-1]
    named = (last == "add_middleware" or last == "Middleware") and bool(call.args)
    if callee == "rest_framework.views.exception_handler":
        links.catchers = True
    elif named:
        ref = _ref(call.args[0].value, walker)
        if ref:
            links.middleware.add(ref)
    for arg in call.args:
        keyword = arg.keyword.value if arg.keyword is not None else ""
        if keyword == "exception_handlers":
            links.catchers = True
        elif not named and (keyword == "middleware" or keyword == "middlewares") and arg.value.__class__ in (cst.List, cst.Tuple):
            links.middleware.update(r for r in (_ref(el.value, walker) for el in arg.value.elements) if r)


def function_refs(call: cst.Call, callee: str, walker) -> List[Tuple[str, str]]:
    """Functions a call refers to without calling them here: ("call", f) for `partial(f, ...)`, and
    (audience, f) for a function it registers as an entry point."""
    out: List[Tuple[str, str]] = []
    _note_catchers(call, callee, walker)
    if call.func.__class__ is cst.Call:  # a decorator applied by hand: `mcp.tool(name="x")(self.method)`
        inner = call.func.func
        name = inner.attr.value if isinstance(inner, cst.Attribute) else inner.value if isinstance(inner, cst.Name) else ""
        kind = DECORATOR_CALLS.get(name)
        if kind == "http" and not any(v.split(".", 1)[0] in HTTP_MODULES for v in walker.imports.values()):
            kind = None
        if kind:
            for arg in call.args:
                ref = _ref(arg.value, walker)
                if ref:
                    out.append((kind, ref))
        return out
    last = callee.rsplit(".", 1)[-1] if callee else (call.func.attr.value if call.func.__class__ is cst.Attribute else "")
    if last == "partial" and call.args:
        ref = _ref(call.args[0].value, walker)
        if ref:
            out.append(("call", ref))
        return out
    if last in ("add_tool", "from_function") or decorates_a_function(call, walker.servers):
        fn = nodes.call_arg(call, 0, "fn", "func", "function")
        if last == "add_tool" and not_a_server(call.func.value if call.func.__class__ is cst.Attribute else None, walker):
            return out
        for name in registered_functions(fn, walker.scope):  # `mcp.tool(f)`, and `for f in (a, b): mcp.add_tool(f)`
            ref = _ref(cst.Name(name), walker) if name != getattr(fn, "value", None) else _ref(fn, walker)
            if ref:
                out.append(("agent", ref))
    elif last == "set_defaults":
        ref = _ref(nodes.keyword_arg(call, "func", "handler", "command"), walker)
        if ref:
            out.append(("cli", ref))
    elif last == "add_typer" or last == "add_command":
        ref = _ref(nodes.call_arg(call, 0), walker)
        if ref:
            out.append(("cli", ref))
    elif (last in _REGISTRAR_NAMES or last.startswith("add_")) and HTTP_REGISTRARS.search(callee or "." + last):
        for arg in call.args:
            if arg.keyword is None or arg.keyword.value in ("endpoint", "view_func", "handler", "view"):
                ref = _ref(arg.value, walker)
                if ref:
                    out.append(("http", ref))
    validators = nodes.keyword_arg(call, "validators")
    if validators.__class__ in (cst.List, cst.Tuple):  # exact class tests: see `nodes`
        for el in validators.elements:
            ref = _ref(el.value, walker)
            if ref:
                out.append(("http", ref))
    return out


def decorates_a_function(call: cst.Call, servers) -> bool:
    """`mcp.tool(fn, name="x")`: a server's `tool` decorator called on a function by name."""
    func = call.func
    return func.__class__ is cst.Attribute and func.attr.value == "tool" and nodes.dotted(func.value) in servers \
        and bool(call.args) and call.args[0].keyword is None and call.args[0].value.__class__ is cst.Name


def registered_functions(fn: Optional[cst.CSTNode], scope) -> List[str]:
    """The names of the functions a registration call's argument stands for: a function's name, or
    the loop target of `for f in (a, b):` over a tuple or list of names, written in the loop or bound
    once to a name (`TOOLS = [a, b]`), or the values of a dict's `.items()`/`.values()` (`for name,
    f in TABLE.items():`)."""
    if not isinstance(fn, cst.Name):
        return []
    found = scope.lookup(fn.value) if scope is not None else []
    loops = [b.value for b in found if b.kind == "loop"]
    if not loops or len(loops) != len(found):
        return [fn.value]
    out: List[str] = []
    for iterable in loops:
        items = _literal_functions(iterable, scope)
        if items is None:
            return []
        out += items
    return out


def _literal_functions(iterable: cst.CSTNode, scope) -> Optional[List[str]]:
    """The function names a loop's iterable holds, or None when it is not written out."""
    if isinstance(iterable, cst.Name):
        iterable = scope.value(iterable.value)
    elif isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute) and iterable.func.attr.value in ("items", "values") \
            and isinstance(iterable.func.value, cst.Name):
        table = scope.value(iterable.func.value.value)
        if isinstance(table, cst.Dict):
            return [e.value.value for e in table.elements if isinstance(e, cst.DictElement) and isinstance(e.value, cst.Name)]
        return None
    if isinstance(iterable, (cst.Tuple, cst.List)):
        return [e.value.value for e in iterable.elements if isinstance(e.value, cst.Name)]
    return None


def not_a_server(base: Optional[cst.CSTNode], walker) -> bool:
    """`base` is known to be no MCP server: a name bound to an instance of a class that is not a
    server (`toolbox = AgentToolbox()`). A server, an imported one, or a receiver errlint cannot
    see (a parameter, an attribute) may be one."""
    if not isinstance(base, cst.Name) or base.value in walker.servers:
        return False
    value = walker.scope.value(base.value)
    return isinstance(value, cst.Call) and not server_stack(walker.qualify(value.func))


def _ref(node: Optional[cst.CSTNode], walker) -> str:
    if isinstance(node, cst.Call) and nodes.last_name(node.func) in ("as_view", "partial"):
        node = node.func.value if nodes.last_name(node.func) == "as_view" and isinstance(node.func, cst.Attribute) else (node.args[0].value if node.args else None)
    if isinstance(node, (cst.Name, cst.Attribute)):
        return walker.qualify(node)
    return ""


def flow_callees(value: cst.CSTNode, walker, depth: int = 0) -> Set[str]:
    """Qualified callees whose result flows into `value` as a reply: called directly, through a local,
    `json.dumps`/`str`/an f-string, `await`, or inside a list (a TextContent list)."""
    out: Set[str] = set()
    if depth > 6 or value is None:
        return out
    if isinstance(value, cst.Await):
        return flow_callees(value.expression, walker, depth + 1)
    if isinstance(value, cst.Call):
        callee = walker.qualify(value.func)
        if callee in REPLY_WRAPPERS or callee.rsplit(".", 1)[-1] in ("dumps", "TextContent", "CallToolResult", "format"):
            for arg in value.args:
                out |= flow_callees(arg.value, walker, depth + 1)
            if isinstance(value.func, cst.Attribute) and value.func.attr.value == "format":
                out |= flow_callees(value.func.value, walker, depth + 1)
        else:
            target = call_target(value, walker, callee)  # named as the call is recorded
            if target:
                out.add(target)
        return out
    if isinstance(value, cst.Name):
        bound = walker.scope.value(value.value)
        if bound is not None and bound is not value:
            return flow_callees(bound, walker, depth + 1)
        return out
    if isinstance(value, cst.FormattedString):
        for part in value.parts:
            if isinstance(part, cst.FormattedStringExpression):
                out |= flow_callees(part.expression, walker, depth + 1)
        return out
    if isinstance(value, (cst.List, cst.Tuple)):
        for el in value.elements:
            out |= flow_callees(el.value, walker, depth + 1)
        return out
    if isinstance(value, cst.BinaryOperation):
        return flow_callees(value.left, walker, depth + 1) | flow_callees(value.right, walker, depth + 1)
    return out


def reply_candidate(value: cst.CSTNode, scope, qualify, in_handler: bool = False) -> Tuple[Optional[cst.CSTNode], Optional[Dict[str, cst.CSTNode]]]:
    """The error text a helper returns, which becomes a tool reply if a tool returns the helper's
    value, and the fields when it is a dict: a string naming a failure, or a dict with an `error` key
    (or `success: False`) however it is built (`error_envelopes.reply_fields`). (None, None) when the
    value is neither."""
    fields = reply_fields(value, scope, qualify)
    if fields is not None:
        if text_of(fields, in_handler) is None and not fields.keys() & PROTOCOL_FIELDS:
            return None, None
        if isinstance(value, cst.Name):  # reported at the dict the name is bound to
            value = scope.value(value.value) or value
        return value, fields
    if isinstance(value, cst.Name):
        bound = scope.value(value.value)
        if bound is None:
            return None, None
        value = bound
    if isinstance(value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
        text = _literal_text(value)
        return (value, None) if text and ERROR_WORDS.search(text) else (None, None)
    return None, None


def _literal_text(node: cst.CSTNode) -> str:
    if isinstance(node, cst.SimpleString):
        return nodes.string_value(node) or ""
    if isinstance(node, cst.FormattedString):
        return "".join(p.value for p in node.parts if isinstance(p, cst.FormattedStringText))
    if isinstance(node, cst.ConcatenatedString):
        return _literal_text(node.left) + _literal_text(node.right)
    return ""


def error_text(candidate: cst.CSTNode, fields: Optional[Dict[str, cst.CSTNode]], in_handler: bool = False) -> Optional[cst.CSTNode]:
    """The text of a reply candidate: the string itself, or an error envelope's text
    (`error_envelopes.text_of` its `fields`)."""
    if fields is None:
        return candidate
    return text_of(fields, in_handler)


def carries_message(stmt: cst.CSTNode, walker=None) -> bool:
    """A statement whose message the reader sees, so that a log line just before it is judged with
    it: a raise that makes an exception here (`raise X(...)`, `raise X`, `raise err` bound to a call),
    an exit or CLI error call with text (`sys.exit("...")`, `parser.error(...)`, `ctx.fail(...)`,
    `abort(500, "...")`), a return of text, a dict or a call's value, or an error response tuple
    (`return {"error": ...}, 500`). A bare `raise` or a re-raise of a caught exception (`raise exc`)
    shows text made elsewhere, and `sys.exit(1)` shows none: the log line before them stands alone.
    `walker` (when given) resolves imports and local names."""
    kind = stmt.__class__  # exact class tests: see `nodes`
    if kind is cst.Raise:
        return stmt.exc is not None and _makes_exception(stmt.exc, walker)
    if kind is cst.Return:
        value = stmt.value
        if isinstance(value, cst.Tuple):
            from .framework_sinks import flask_error_tuple

            return flask_error_tuple(value, walker.qualify if walker is not None else nodes.dotted) is not None
        return _reply_value(value)
    if kind is cst.Expr and stmt.value.__class__ is cst.Call:
        return _ends_with_text(stmt.value, walker)
    return False


EXIT_CALLS = frozenset({"sys.exit", "exit", "quit", "builtins.exit"})


def _reply_value(value: Optional[cst.CSTNode]) -> bool:
    return isinstance(value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString, cst.Dict, cst.Call, cst.BinaryOperation))


def _makes_exception(exc: cst.CSTNode, walker) -> bool:
    """`X(...)`, a class `X`/`mod.X`, or a local name bound to a call; not a caught exception object."""
    if isinstance(exc, cst.Call):
        return True
    if isinstance(exc, cst.Name) and walker is not None:
        reaching = walker.reaching_now().get(exc.value)
        bound = reaching[0] if reaching else walker.scope.value(exc.value)
        if isinstance(bound, cst.Call):
            return True
    return nodes.last_name(exc)[:1].isupper()  # exception classes are CapWords; `exc`, `err`, `e` are objects


def _ends_with_text(call: cst.Call, walker) -> bool:
    """An exit or CLI error call that shows text: what `Walker.exit_call` and the argparse, click and
    abort sinks record as a message."""
    callee = walker.qualify(call.func) if walker is not None else nodes.dotted(call.func)
    func = call.func
    base = func.value if isinstance(func, cst.Attribute) else None
    method = func.attr.value if isinstance(func, cst.Attribute) else ""
    if callee in EXIT_CALLS:
        arg = nodes.call_arg(call, 0, "code", "status")
        if arg is None or nodes.int_value(arg) is not None or isinstance(arg, cst.Name) and arg.value in ("None", "True", "False"):
            return False
        return isinstance(arg, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString, cst.BinaryOperation, cst.Name, cst.Call))
    if base is not None and walker is not None:
        if method == "error" and walker._is_parser(base):
            return nodes.call_arg(call, 0, "message") is not None
        if method == "exit" and walker._is_parser(base):
            return nodes.call_arg(call, 1, "message") is not None
        if method == "fail" and walker._is_click_context(base):
            return nodes.call_arg(call, 0, "message") is not None
    if callee.rsplit(".", 1)[-1] == "abort" and callee.split(".", 1)[0] in ("flask", "quart", "werkzeug"):
        return len(call.args) > 1 or nodes.keyword_arg(call, "description") is not None
    return False
