"""Sink helpers: a function of the file whose parameter becomes (part of) the text a sink sends.

`def fail(msg): raise ToolError(msg)`, `def _refusal(text): return CallToolResult(isError=True,
content=[TextContent(type="text", text=text)])`, `def die(msg): print(f"error: {msg}", file=sys.stderr)`.
The helper's own message is only a hole; the text is written where the helper is called, under that
call's guards and handlers, in the function a tool or command runs. So each call that passes text
(`fail("Something went wrong")`, `_refusal(f"Unknown tool {name}")`) is recorded as a message of the
helper's sink at the call, with the helper's expression rewritten in the call's terms, and the helper's
own message is then not judged alone (as an exception class's template is judged at each raise:
`exception_templates`).

Helpers are matched by name in the file: a module-level function called by its name, or a method
called on `self`/`cls` in the same class. A tool's, command's or validator's own function is no helper.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from . import nodes
from .exception_templates import substitute
from .framework_sinks import status_value

# sinks that a call of the helper stands for; a tool's return is followed by the reply flow instead
NOT_HELPER_KINDS = frozenset({"tool-return", "tool-output", "stdio-print", "class-default", "helper-call"})
NOT_HELPER_ROLES = frozenset({"tool", "lowlevel", "cli", "validator", "dunder", "resource"})
TEXT_NODES = (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)
_TEXT_CLASSES = frozenset(TEXT_NODES)  # exact class tests on the hot path: see `nodes`


def passes_text(call: cst.Call) -> bool:
    """The call hands over a text written there: a literal, an f-string, or a literal formatted
    (`"..." % x`, `"...".format(x)`)."""
    for arg in call.args:
        value = arg.value
        kind = value.__class__
        if kind in _TEXT_CLASSES:
            return True
        if kind is cst.BinaryOperation and value.left.__class__ in _TEXT_CLASSES:
            return True
        if kind is cst.Call and value.func.__class__ is cst.Attribute and value.func.attr.value == "format" \
                and value.func.value.__class__ in _TEXT_CLASSES:
            return True
    return False


def helper_name(call: cst.Call) -> Tuple[str, bool]:
    """(`name`, is a method call on self/cls) of a call that may reach a helper of the file, or ("", False)."""
    func = call.func
    if func.__class__ is cst.Name:
        return func.value, False
    if func.__class__ is cst.Attribute and func.value.__class__ is cst.Name and func.value.value in ("self", "cls"):
        return func.attr.value, True
    return "", False


def compose(raws: list, calls: list, functions: list, make) -> Tuple[list, Set[int]]:
    """The messages each helper call stands for, and the ids of the helper raws they replace.
    `make(raw, call_raw, expr, args, composed)` builds the call's RawSink."""
    by_function: Dict[int, list] = {}
    for raw in raws:
        function = raw.context.function
        if function is not None and raw.kind not in NOT_HELPER_KINDS and raw.expr is not None and not raw.extra.get("messageless"):
            by_function.setdefault(id(function), []).append(raw)
    if not by_function:
        return [], set()
    module_level = {f.name: f for f in functions if f.parent is None and not f.class_name}
    methods = {(f.class_name, f.name): f for f in functions if f.class_name and f.parent is None}
    out: list = []
    replaced: Set[int] = set()
    for call_raw in calls:
        name, on_self = helper_name(call_raw.node)
        caller = call_raw.context.function
        target = methods.get((caller.class_name, name)) if on_self and caller is not None else module_level.get(name)
        if target is None or target is caller or target.role in NOT_HELPER_ROLES or id(target) not in by_function:
            continue
        mapping = _arguments(call_raw.node, target)
        if mapping is None:
            continue
        for raw in by_function[id(target)]:
            if not _sends_what_it_is_handed(raw, target):
                continue
            read = _params_read(raw, mapping)
            if not read:
                continue
            whole = isinstance(raw.expr, cst.Name) and raw.expr.value in read
            expr = mapping[raw.expr.value] if whole else substitute(raw.expr, mapping)
            if expr is None:
                continue
            args = [substitute(a, mapping) or a for a in raw.args]
            made = make(raw, call_raw, expr, args, None if whole else expr)
            if "status" in raw.extra and raw.extra["status"] is None:
                made.extra["status"] = _status_at_call(raw, mapping, target)  # `HTTPException(status_code=status, ...)`
            out.append(made)
            replaced.add(id(raw))
    return out, replaced


def _sends_what_it_is_handed(raw, function) -> bool:
    """The helper sends the text whatever it is handed: no `except` of its own around the sink (that
    reports the helper's own failure) and no test of its parameters in front of it (`def check(p): if p
    not in VALID: raise ValueError(f"... {p!r}")` validates what it is handed; the call passes a value,
    not a message). A test of the helper's settings (`if self.verbose:`) is no such test."""
    if raw.context.handlers:
        return False
    params = {p.name for p in function.params} - {"self", "cls"}
    for guard in raw.context.guards:
        test = guard.test
        if test is None:
            if guard.subject and guard.subject.split(".", 1)[0] in params:
                return False
            continue
        if any(isinstance(n, cst.Name) and n.value in params for n in nodes.iter_expr(test)):
            return False
    return True


def _status_at_call(raw, mapping: Dict[str, cst.CSTNode], function) -> Optional[int]:
    """The HTTP status a helper's sink takes from its parameter, as this call passes it or as the
    parameter's default gives it (`def reject(message, status=400)`)."""
    call = raw.node.exc if isinstance(raw.node, cst.Raise) else raw.node
    if not isinstance(call, cst.Call):
        return None
    given = nodes.call_arg(call, 0, "status_code", "code", "status")
    if not isinstance(given, cst.Name):
        return None
    if given.value in mapping:
        return status_value(mapping[given.value])
    default = next((p.default for p in function.params if p.name == given.value), "")
    return int(default) if default.isdigit() else None


def _arguments(call: cst.Call, function) -> Optional[Dict[str, cst.CSTNode]]:
    """The helper's parameters mapped to what the call passes (unpassed ones are left out)."""
    if any(a.star for a in call.args):
        return None
    params = [p.name for p in function.params]
    if params and params[0] in ("self", "cls"):
        params = params[1:]
    mapping: Dict[str, cst.CSTNode] = {}
    positional = [a.value for a in call.args if a.keyword is None]
    if len(positional) > len(params):
        return None
    for param, value in zip(params, positional):
        mapping[param] = value
    for arg in call.args:
        if arg.keyword is not None:
            if arg.keyword.value not in params:
                return None
            mapping[arg.keyword.value] = arg.value
    return mapping


def _params_read(raw, mapping: Dict[str, cst.CSTNode]) -> List[str]:
    """The passed parameters the sink's text reads, still bound to the parameter there."""
    read: List[str] = []
    skip: Set[int] = set()
    for root in (raw.expr, *raw.args):
        for node in nodes.iter_expr(root):
            if isinstance(node, cst.Attribute):
                skip.add(id(node.attr))  # `e.msg` reads no parameter `msg`
            elif isinstance(node, cst.Arg) and node.keyword is not None:
                skip.add(id(node.keyword))
            elif isinstance(node, cst.Name) and id(node) not in skip and node.value in mapping and node.value not in read:
                bindings = raw.scope.lookup(node.value)
                if bindings and all(b.kind == "param" for b in bindings):
                    read.append(node.value)
    return read
