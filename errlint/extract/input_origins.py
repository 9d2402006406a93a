"""Which of the caller's inputs a value was computed from, named as the caller knows them.

The guard in front of a message often tests a value the code derived from an input, not the input
itself: `start = date.fromisoformat(start_date)`, `n = int(limit)`, `suffix = out.rsplit(".")[-1]`,
or a field of the namespace argparse returns (`args.workers`, `n = opts.port`). The reader of the
message knows none of those locals; it knows the input it sent: the parameter of the tool or command
(`start_date`), or the command-line option (`--workers`).

`origins(scope, name)` follows the bindings of `name` back through assignments, re-bindings and
unpacking, through conversions and transforms of the value only (`CONVERSIONS`, `VALUE_METHODS`: a
handle made with the input, `db = open_db(path)`, is not the input), and returns the inputs it
reaches: the enclosing function's parameters, the fields of an
argument dict it received read by key (`arguments["ticket_id"]` gives `ticket_id`), the fields of a
web request read by key (`request.args.get("limit")`, `request.data["quantity"]`, or off the body read
from it: `body = request.get_json(); body.get("sort")`), and the fields of an argparse namespace read
by attribute (`args.workers` gives `workers`). It stops at the result of a
call that answers from the world (`db.get(user_id)`): a record is not the value the caller sent
(`provenance.is_outcome`).
"""
from __future__ import annotations

import re
from typing import Dict, FrozenSet, Iterable, Iterator, Optional, Set, Tuple

import libcst as cst

from . import nodes
from .guard_operands import REQUEST_NAMES, keyed_read
from .provenance import CLIENT_VALUES, is_outcome

# The calls that return argparse's namespace of parsed options (`parse_known_args` returns it first
# in a pair).
NAMESPACE_CALL = re.compile(r"^(parse_args|parse_known_args|parse_intermixed_args|parse_known_intermixed_args)$")

Origins = Set[Tuple[str, str]]  # (kind, name): ("param", "limit"), ("key", "ticket_id") or ("option", "workers")


def is_namespace(scope, name: str, namespaces: FrozenSet[str] = frozenset()) -> bool:
    """`name` holds the namespace argparse returns: `args = parser.parse_args()`,
    `opts, rest = p.parse_known_args(argv)`, `ns = p.parse_known_args()[0]`, or a parameter the
    caller says holds one (`namespaces`: a sub-command handler's `args`)."""
    if name in namespaces:
        return True
    for binding in scope.lookup(name) if scope is not None else ():
        value = binding.value
        if binding.kind not in ("assign", "other") or value is None:
            continue
        if value.__class__ is cst.Subscript:
            value = value.value
        if value.__class__ is cst.Call and NAMESPACE_CALL.search(nodes.last_name(value.func) or ""):
            return True
    return False


def origins(scope, name: str, attributes: Iterable[str] = (), namespaces: FrozenSet[str] = frozenset(), limit: int = 40) -> Origins:
    """The inputs the value of `name` was computed from (see the module doc). `attributes` are the
    dotted reads the guard makes (`args.workers`): for a namespace tested by itself they say which of
    its fields failed. `namespaces`: parameters that hold argparse's namespace."""
    found: Origins = set()
    if scope is None:
        return found
    if is_namespace(scope, name, namespaces):
        return {("option", a.split(".", 1)[1]) for a in attributes if a.split(".", 1)[0] == name and a.count(".") == 1}
    seen: Set[str] = set()
    todo = [name]
    while todo and len(seen) < limit:
        current = todo.pop()
        if current in seen or current in ("self", "cls"):
            continue
        seen.add(current)
        for binding in scope.lookup(current):
            if binding.kind == "param":
                found.add(("param", current))
            elif binding.kind in ("assign", "aug", "other") and binding.value is not None:
                field = _field_of_param(binding.value, scope)
                if field is not None:  # `arguments.get("ticket_id")` reads the input; `db.get(key)` is the world's answer
                    found.add(("key", field[1]))
                elif not is_outcome(binding.value):
                    _reads(binding.value, scope, found, todo, namespaces)
    return found


# Calls that return the value they are given in another form: a conversion (`int(limit)`,
# `date.fromisoformat(s)`, `Path(p)`, `json.loads(text)`), a measure of it (`len(items)`), or a
# transform (`re.sub(PREFIX, "", data)`). Any other call made with the input returns something else: a
# handle (`open_db(path)`, `client.bucket(name)`), a record, an outcome.
CONVERSIONS = frozenset({
    "int", "float", "str", "bool", "complex", "Decimal", "Fraction", "abs", "round", "len", "sorted", "list", "tuple",
    "set", "frozenset", "reversed", "Path", "PurePath", "PurePosixPath", "PosixPath", "WindowsPath", "UUID",
    "fromisoformat", "strptime", "fromtimestamp", "isoparse", "parse", "loads", "safe_load", "literal_eval",
    "urlparse", "urlsplit", "unquote", "unquote_plus", "normpath", "abspath", "realpath", "expanduser", "basename",
    "dirname", "splitext", "b64decode", "urlsafe_b64decode", "fromhex", "ip_address", "ip_network", "timedelta",
    "Version", "sub", "subn", "normalize", "match", "fullmatch", "search", "split", "shlex_split",
})
# Methods of a string, path or date that return the value transformed (`raw.split(":")[-1]`)
VALUE_METHODS = frozenset({
    "strip", "lstrip", "rstrip", "lower", "upper", "casefold", "title", "capitalize", "swapcase", "split", "rsplit",
    "splitlines", "partition", "rpartition", "replace", "removeprefix", "removesuffix", "encode", "decode", "zfill",
    "ljust", "rjust", "center", "expandtabs", "translate", "resolve", "absolute", "expanduser", "with_suffix",
    "with_name", "as_posix", "isoformat", "date", "time", "timestamp", "astimezone", "group", "groups", "groupdict",
})


def _reads(value: cst.CSTNode, scope, found: Origins, todo: list, namespaces: FrozenSet[str] = frozenset()) -> None:
    """The inputs `value` is computed from, through conversions and transforms only (`CONVERSIONS`,
    `VALUE_METHODS`); the names it reads otherwise go on `todo`, to be followed in turn."""
    stack = [value]
    while stack:
        node = stack.pop()
        cls = node.__class__
        if cls is cst.Attribute and node.value.__class__ is cst.Name and is_namespace(scope, node.value.value, namespaces):
            found.add(("option", node.attr.value))
            continue
        if cls is cst.Subscript or cls is cst.Call:
            key = _field_of_param(node, scope)
            if key:
                found.add(("key", key[1]))
                continue
        if cls is cst.Call:
            func = node.func
            name = nodes.last_name(func)
            if func.__class__ is cst.Attribute and name in VALUE_METHODS:
                stack.append(func.value)  # `raw.split(":")`: the value, transformed
            if name in CONVERSIONS:
                stack.extend(a.value for a in node.args)  # `int(limit)`, `date.fromisoformat(s)`, `SEMVER.fullmatch(v)`, `shlex.split(cmd)`
            continue  # `open_db(path)`, `client.bucket(name)`: a handle made with the input, not the input
        if cls is cst.Lambda:
            continue
        if cls is cst.Name:
            if not any(b.kind in ("import", "def", "class") for b in scope.lookup(node.value)) and not is_namespace(scope, node.value, namespaces):
                todo.append(node.value)
            continue
        stack.extend(nodes.children(node))


def _field_of_param(node: cst.CSTNode, scope) -> Optional[Tuple[str, str]]:
    """(container, key) for one field of an argument dict the function received, read by its key:
    `arguments["ticket_id"]`, `params.get("ticket_id")`; or of a web request (`request_field`)."""
    key, container = keyed_read(node)
    if not key:
        key = request_field(node, scope)
        return ("request", key) if key else None
    if any(b.kind == "param" for b in scope.lookup(container)):
        return container, key
    return ("request", key) if holds_request_fields(scope, container) else None


# what a request's fields are read from besides `CLIENT_VALUES`: DRF's parsed body, `request.body`
_BODY_FIELDS = frozenset({"data", "body", "json", "get_json", "form", "POST", "GET", "args", "query", "query_params", "params",
                          "values", "match_info", "path_params", "headers", "cookies", "COOKIES"})


def request_field(node: cst.CSTNode, scope=None) -> str:
    """The key of a field a web client sent, read off the request by a literal key:
    `request.args.get("limit")`, `request.query["width"]`, `self.request.GET.get("page")`,
    `request.data["quantity"]`; "" for anything else."""
    if node.__class__ is cst.Subscript and len(node.slice) == 1:
        container, key = node.value, nodes.string_value(getattr(node.slice[0].slice, "value", None))
    elif node.__class__ is cst.Call and node.func.__class__ is cst.Attribute and node.func.attr.value == "get" and node.args:
        container, key = node.func.value, nodes.string_value(node.args[0].value)
    else:
        return ""
    return key or "" if key and _request_body(container) else ""


def holds_request_fields(scope, name: str) -> bool:
    """`name` is bound once to the client's fields: `body = request.get_json()`, `q = request.args`."""
    return scope is not None and _request_body(scope.value(name))


def _request_body(node: Optional[cst.CSTNode]) -> bool:
    """`node` is a collection of the client's fields: `request.args`, `req.query_params`,
    `request.get_json()`, `await request.json()`, DRF's `request.data`."""
    if node.__class__ is cst.Await:
        node = node.expression
    if node.__class__ is cst.Call and not node.args:
        node = node.func
    if node.__class__ is not cst.Attribute or node.attr.value not in _BODY_FIELDS | CLIENT_VALUES:
        return False
    owner = nodes.dotted(node.value)
    return owner in REQUEST_NAMES or owner in ("self.request", "flask.request")


# ---- argparse declarations: which flags set a namespace field, and which are switches ----------------

_SWITCH_ACTIONS = frozenset({"store_true", "store_false", "count", "store_const", "help", "version"})


def _argparse_calls(calls: Iterable[cst.Call], method: str) -> Iterator[cst.Call]:
    """The calls of `method` (`add_argument`, `set_defaults`) among the argparse calls the walk of a
    module recorded (`FileFacts.argparse_calls`)."""
    return (c for c in calls if c.func.__class__ is cst.Attribute and c.func.attr.value == method)


def argparse_options(calls: Iterable[cst.Call]) -> Dict[str, Tuple[Tuple[str, ...], bool]]:
    """dest -> (the names the reader knows it by, in the order to show them; whether it is an on/off
    switch), from a module's `add_argument(...)` calls: an option's flags, longest first
    (`add_argument("-w", "--max-workers", dest="workers", action="store_true")`), a positional's
    metavar and name (`add_argument("infile", metavar="FILE")`, which usage shows as FILE)."""
    out: Dict[str, Tuple[Tuple[str, ...], bool]] = {}
    for node in _argparse_calls(calls, "add_argument"):
        decls = [v for v in (nodes.string_value(a) for a in nodes.positional_args(node)) if v]
        flags = tuple(sorted((d for d in decls if d.startswith("-")), key=len, reverse=True))
        dest = nodes.string_value(nodes.keyword_arg(node, "dest"))
        if not dest:
            longest = [d for d in decls if d.startswith("--")] or list(flags) or decls[:1]
            if not longest:
                continue
            dest = longest[0].lstrip("-").replace("-", "_")
        if not flags:  # a positional: usage shows its metavar, else its name
            metavar = nodes.string_value(nodes.keyword_arg(node, "metavar"))
            flags = tuple(dict.fromkeys(n for n in (metavar, decls[0] if decls else dest) if n))
        action = nodes.keyword_arg(node, "action")
        switch = (nodes.string_value(action) or "") in _SWITCH_ACTIONS or "BooleanOptionalAction" in (nodes.dotted(action) or "")
        out[dest] = (flags, switch)
    return out


def option_flags(options: Dict[str, Tuple[Tuple[str, ...], bool]], dest: str) -> Tuple[str, ...]:
    """The names of namespace field `dest`, the one to show first (its declared flags or metavar,
    else the usual `--dest`)."""
    declared: Optional[Tuple[Tuple[str, ...], bool]] = options.get(dest)
    return declared[0] if declared and declared[0] else ("--" + dest.replace("_", "-"),)


def type_converters(calls: Iterable[cst.Call]) -> FrozenSet[str]:
    """The functions argparse calls to convert one argument's text (`add_argument(..., type=auth_arg)`):
    argparse names the argument in front of whatever they raise ("argument --auth: invalid auth_arg
    value: 'x'")."""
    converters = (nodes.keyword_arg(c, "type") for c in _argparse_calls(calls, "add_argument"))
    return frozenset(c.value for c in converters if c.__class__ is cst.Name)


def subcommand_handlers(calls: Iterable[cst.Call]) -> FrozenSet[str]:
    """The functions argparse calls with its namespace: `sub.set_defaults(func=cmd_fetch)`,
    `handler=`, `command=`."""
    return frozenset(a.value.value for c in _argparse_calls(calls, "set_defaults") for a in c.args
                     if a.keyword is not None and a.keyword.value in ("func", "handler", "command", "run") and a.value.__class__ is cst.Name)
