"""Which exceptions reach an MCP tool's caller as the stack's `ToolError`, through a converter.

A *converter* is code that catches an exception and raises the stack's pass-through class in its
place: `except (ValueError, GitError) as e: raise ToolError(str(e)) from e`. Servers put one around
every tool, as a decorator (`@reports_failures`) or a context manager (`with reported_to_model():`),
so that a guard deep in a helper can raise a plain `ValueError` and the model still reads its text.
The framework then never sees the `ValueError`, so it masks nothing (AEM603).

- A function *converts* the classes its own handlers catch and replace with a pass-through raise
  when the `try` runs what it wraps (the `yield` of a `@contextmanager`, or a call of the function a
  decorator received), plus what its nested functions convert (a decorator's `wrapper`) and what the
  `@contextmanager` functions it calls convert (the `with` it opens).
- A tool is *wrapped* by what its decorators below the registering one (`@mcp.tool()`) convert, and
  by what the context managers of a `with` around its whole body convert. A handler that re-raises some of what it catches
  (a bare `raise` on some branch) converts nothing.
- A function reached from tools is covered by what every tool reaching it is wrapped by (the
  intersection): one unwrapped tool reaching it is enough for the raw class to reach the framework.

Classes are named by their last dotted name ("" for a catch-all), as in `extract.catching`; a
handler's tuple held in a module constant (`except ANTICIPATED_ERRORS as e`) is read through it.
This sees one module: a decorator imported from another module converts nothing here, so its tools'
raises stay reported (the conservative side).
"""
from __future__ import annotations

import re
from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set

import libcst as cst

from ..model import FunctionInfo, Handler
from . import nodes
from .catching import class_key

# The classes each MCP stack passes through with their text (checked against mcp 2.3.0 and
# fastmcp 4.2.3): a module prefix and the class names under it
UNMASKED = {
    "fastmcp": ("fastmcp.exceptions.", frozenset({"FastMCPError", "ToolError", "ResourceError", "PromptError", "ValidationError",
                                                 "AuthorizationError", "InsufficientScopeError"})),
    "mcp2": ("mcp.server.mcpserver.exceptions.", frozenset({"MCPServerError", "ToolError", "ResourceError", "ResourceNotFoundError"})),
}
RERAISE = re.compile(r"^\s*raise\s*(?:#.*)?$", re.M)
_PASS_THROUGH = frozenset(n for _, names in UNMASKED.values() for n in names)
_CONTEXT_MANAGERS = ("contextmanager", "asynccontextmanager")
_REGISTRARS = {"tool", "call_tool"}


def stack_passing(callee: str) -> str:
    """The stack ("mcp2" or "fastmcp") that passes a raise of `callee` through with its text, or ""."""
    for stack, (prefix, names) in UNMASKED.items():
        if callee.startswith(prefix) and callee[len(prefix):] in names:
            return stack
        if callee.split(".", 1)[0] == prefix.split(".", 1)[0] and callee.rsplit(".", 1)[-1] in names - {"ValidationError"}:
            return stack
    return ""


def passes_through(callee: str) -> bool:
    """A raise of `callee` reaches the model with its text on some MCP stack (`ToolError`,
    `fastmcp.exceptions.ValidationError`, ...), judged by the qualified name the walk gives it."""
    for prefix, names in UNMASKED.values():
        if callee.startswith(prefix) and callee[len(prefix):] in names:
            return True
    root = callee.split(".", 1)[0]
    return root in ("mcp", "fastmcp") and callee.rsplit(".", 1)[-1] in _PASS_THROUGH


def handler_classes(types: Sequence[str], value_of: Callable[[str], Optional[cst.CSTNode]], qualify: Callable[[cst.CSTNode], str]) -> Set[str]:
    """The classes an `except` over `types` catches, by last name; a name bound to a tuple of classes
    (`ANTICIPATED_ERRORS = (ValueError, git.GitError)`) stands for its elements."""
    out: Set[str] = set()
    for name in types:
        value = value_of(name) if name and "." not in name else None
        if value is not None and value.__class__ is cst.Tuple:  # exact class tests: see `nodes`
            out.update(class_key(qualify(el.value) or "") for el in value.elements)
        else:
            out.add(class_key(name))
    return out


def wraps_its_caller(function: FunctionInfo, handler: Handler, handler_code: str) -> bool:
    """The handler's `try` runs what the converter wraps: the `yield` of a context manager, or a call
    of the function a decorator received (`return fn(*args, **kwargs)`), not a check of its own; and
    the handler converts every time (no bare `raise` that lets some of them through)."""
    if RERAISE.search(handler_code):
        return False
    if _is_context_manager(function):
        return True
    wrapped = set()
    outer: Optional[FunctionInfo] = function
    while outer is not None:
        wrapped.update(outer.param_names)
        outer = outer.parent
    return any(call.rsplit(".", 1)[-1] in wrapped for call in handler.try_calls)


def converted_by_tools(functions: Sequence[FunctionInfo], own: Dict[int, Set[str]]) -> Dict[int, FrozenSet[str]]:
    """Per function (by id) reached from a tool, the classes every tool reaching it converts to a
    pass-through class around its whole body; `own` holds what each function's own handlers convert."""
    by_name: Dict[str, List[FunctionInfo]] = {}
    for info in functions:
        by_name.setdefault(info.name, []).append(info)
    converts = _converts(functions, by_name, own)
    out: Dict[int, FrozenSet[str]] = {}
    for tool in functions:
        if tool.role not in ("tool", "lowlevel"):
            continue
        wrapped: Set[str] = set()
        for deco in _below_registration(tool.decorators):
            for target in by_name.get(deco.rsplit(".", 1)[-1], ()):
                wrapped |= converts.get(id(target), set())
        for called in _body_context_managers(tool):
            for target in by_name.get(called, ()):
                if _is_context_manager(target):
                    wrapped |= converts.get(id(target), set())
        for info in _reached(tool, by_name):
            key = id(info)
            out[key] = out[key] & frozenset(wrapped) if key in out else frozenset(wrapped)
    return out


def _below_registration(decorators: Sequence[str]) -> Sequence[str]:
    """The decorators applied before the tool is registered (those written below `@mcp.tool()`): a
    converter above it wraps a function the framework never calls."""
    for i, deco in enumerate(decorators):
        if deco.rsplit(".", 1)[-1] in _REGISTRARS:
            return decorators[i + 1:]
    return decorators


def _body_context_managers(info: FunctionInfo) -> Set[str]:
    """The context managers a `with` around the function's whole body opens (`with reported():` as
    its only statement, after a docstring); one around part of the body covers only that part."""
    node = info.node
    body = list(getattr(getattr(node, "body", None), "body", ()))
    if body and body[0].__class__ is cst.SimpleStatementLine and body[0].body and body[0].body[0].__class__ is cst.Expr \
            and body[0].body[0].value.__class__ in (cst.SimpleString, cst.ConcatenatedString):  # exact class tests: see `nodes`
        body = body[1:]  # the docstring
    if len(body) != 1 or body[0].__class__ is not cst.With:
        return set()
    return {nodes.last_name(item.item.func) for item in body[0].items if item.item.__class__ is cst.Call}


def _is_context_manager(info: FunctionInfo) -> bool:
    return any(d.rsplit(".", 1)[-1] in _CONTEXT_MANAGERS for d in info.decorators)


def _converts(functions: Sequence[FunctionInfo], by_name: Dict[str, List[FunctionInfo]], own: Dict[int, Set[str]]) -> Dict[int, Set[str]]:
    """What each function converts: its own handlers, its nested functions, the context managers it
    opens; computed to a fixed point (a decorator's wrapper opens a context manager defined later)."""
    converts: Dict[int, Set[str]] = {id(f): set(own.get(id(f), ())) for f in functions}
    children: Dict[int, List[FunctionInfo]] = {}
    for info in functions:
        if info.parent is not None:
            children.setdefault(id(info.parent), []).append(info)
    changed = True
    while changed:
        changed = False
        for info in functions:
            found = set(converts[id(info)])
            for child in children.get(id(info), ()):
                found |= converts[id(child)]
            for called in info.calls:
                for target in by_name.get(called, ()):
                    if _is_context_manager(target):
                        found |= converts[id(target)]
            if found != converts[id(info)]:
                converts[id(info)] = found
                changed = True
    return converts


def _reached(tool: FunctionInfo, by_name: Dict[str, List[FunctionInfo]]) -> Iterable[FunctionInfo]:
    """The tool and the functions it reaches by calls in this module (a nested function is covered
    through its parent: `covered`)."""
    seen = {id(tool)}
    queue = [tool]
    while queue:
        current = queue.pop()
        yield current
        for called in current.calls:
            for target in by_name.get(called, ()):
                if id(target) not in seen and not target.role:
                    seen.add(id(target))
                    queue.append(target)


def covered(info: Optional[FunctionInfo], converted: Dict[int, FrozenSet[str]]) -> FrozenSet[str]:
    """The classes converted around every tool that reaches `info` (or its nearest enclosing function
    that tools reach)."""
    while info is not None:
        found = converted.get(id(info))
        if found is not None:
            return found
        info = info.parent
    return frozenset()
