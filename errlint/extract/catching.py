"""Which exceptions a `try` catches and replaces, and whether a handler catches a raised class.

A handler *replaces* what its `try` body raised when its body neither re-raises it (a bare `raise`)
nor uses it (its name, `sys.exc_info()`, `traceback.format_exc()`): the reader then sees the
handler's own message, or nothing, never the raised text. A raise that every path from an entry
point passes through such a handler is read by nobody (`errlint.reachability`).

Classes are named by their last dotted name; "" stands for a catch-all (`except:`, `Exception`,
`BaseException`). A handler catches a class by its name, by a builtin superclass
(`except ArithmeticError` catches `OverflowError`) or by a project superclass (`bases`).
"""
from __future__ import annotations

import builtins
import functools
import importlib
import re
from dataclasses import dataclass
from typing import Callable, FrozenSet, Iterable, Mapping, Optional, Sequence, Tuple

import libcst as cst

from . import nodes
from .call_arguments import STDLIB

GENERIC_CATCH = frozenset({"", "Exception", "BaseException", "builtins.Exception", "builtins.BaseException"})
# uses of the caught exception that do not go through its name
_SURFACING = re.compile(r"^\s*raise\s*$|\bsys\.exc_info\(|\btraceback\.(format_exc|print_exc|format_exception)\(|\.exception\(|exc_info\s*=\s*True", re.M)


@dataclass(frozen=True)
class TryFrame:
    """What an enclosing `try` (or `contextlib.suppress`) does with what its body raises: the classes
    its handlers replace, those they use or re-raise, and (classes, test) a handler replaces under
    a test (see `try_frame`)."""

    replaced: FrozenSet[str]
    relayed: FrozenSet[str] = frozenset()
    when: Tuple[Tuple[FrozenSet[str], cst.BaseExpression], ...] = ()


def class_key(name: str) -> str:
    """A caught class by its last dotted name, "" for a catch-all (`Exception`, `BaseException`)."""
    return "" if name in GENERIC_CATCH else name.rsplit(".", 1)[-1]


def handler_types(handler: cst.ExceptHandler, qualify: Callable[[cst.CSTNode], str]) -> Tuple[str, ...]:
    """The classes one `except` clause catches, by last name ("" for a catch-all)."""
    if handler.type is None:
        return ("",)
    elements = [e.value for e in handler.type.elements] if isinstance(handler.type, cst.Tuple) else [handler.type]
    out = []
    for el in elements:
        name = qualify(el) or nodes.dotted(el)
        out.append(class_key(name))
    return tuple(out)


def surfaces(handler: cst.ExceptHandler, code: str) -> bool:
    """The handler re-raises the caught exception or uses it (its name, `sys.exc_info()`, a
    traceback, `logger.exception`): the raised text reaches someone. `code` is the handler body's
    source."""
    name = handler.name.name.value if handler.name is not None and isinstance(handler.name.name, cst.Name) else ""
    if name:
        # `type(e).__name__`, `e.__class__`, `isinstance(e, X)` read only the class, not the text;
        # `raise X("...") from e` chains it for a traceback, but the reader gets X's own text
        text = re.sub(rf"\btype\(\s*{re.escape(name)}\s*\)|\b{re.escape(name)}\.__class__\b|\bisinstance\(\s*{re.escape(name)}\s*,|\bfrom\s+{re.escape(name)}\s*$", "", code, flags=re.M)
        if re.search(rf"\b{re.escape(name)}\b", text):
            return True
    return bool(_SURFACING.search(code))


def try_frame(handlers: Sequence[cst.ExceptHandler], qualify: Callable[[cst.CSTNode], str], code: Callable[[cst.CSTNode], str],
              body: Optional[cst.CSTNode] = None) -> TryFrame:
    """What a `try`'s handlers do with what its body raises, each handler read once:
    - `replaced`: the classes a handler catches and neither re-raises nor uses;
    - `relayed`: the classes a handler catches and puts into what it sends (`HTTPException(400,
      detail=str(e))`); a bare re-raise passes the exception on as it is, and a log call writes it
      for the operator only, so neither relays it;
    - `when`: (classes, test) for a handler that surfaces what it caught only past a first
      `if test:` whose body replaces it and always leaves (a raise of another exception, a return):

          except asyncio.TimeoutError as e:
              if max_total_time is not None:
                  raise ArxivTimeoutError("... Please retry shortly.") from e
              raise

      A raise in the `try` (`body`) under that same test is replaced: the bare `raise` is on the other
      branch. Not when the `try` assigns a name the test reads (`strict = False` before the raise):
      the handler's test may then differ.
    """
    replaced: set = set()
    relayed: set = set()
    when = []
    for handler in handlers:
        types = handler_types(handler, qualify)
        if not surfaces(handler, code(handler.body)):
            replaced.update(types)
            continue
        if _relays(handler, code):
            relayed.update(types)
        first = handler.body.body[0] if handler.body.body else None
        if isinstance(first, cst.If) and first.orelse is None and _leaves(first.body) and not surfaces(handler, code(first.body)):
            when.append((frozenset(types), first.test))
    if when and body is not None:
        assigned = _assigned_names(body)
        when = [(types, test) for types, test in when if not assigned & {n.value for n in nodes.iter_expr(test) if n.__class__ is cst.Name}]
    return TryFrame(frozenset(replaced), frozenset(relayed), tuple(when))


_LOGGER = re.compile(r"^(?:self\.|cls\.)?_*(?:log|logger|logging|LOG|LOGGER)\w*\.\w+$")
_BARE_RAISE = re.compile(r"^\s*raise\s*$", re.M)


def _relays(handler: cst.ExceptHandler, code: Callable[[cst.CSTNode], str]) -> bool:
    """The handler uses the caught exception in something other than a log call or a bare
    re-raise (see `try_frame`)."""
    kept = []
    for stmt in handler.body.body:
        if stmt.__class__ is cst.SimpleStatementLine and all(
                small.__class__ is cst.Expr and small.value.__class__ is cst.Call and _LOGGER.match(nodes.dotted(small.value.func))
                for small in stmt.body):
            continue  # `logger.warning("failed: %s", e)`: the operator's log, not the reply
        kept.append(code(stmt))
    return surfaces(handler, _BARE_RAISE.sub("", "\n".join(kept)))


def _assigned_names(block: cst.CSTNode) -> set:
    """The plain names a block assigns (`x = ...`, `x += ...`, `x: T = ...`, `(x := ...)`)."""
    out = set()
    for node in nodes.iter_expr(block):
        cls = node.__class__
        if cls is cst.AssignTarget or cls is cst.AugAssign or cls is cst.AnnAssign or cls is cst.NamedExpr:
            if node.target.__class__ is cst.Name:
                out.add(node.target.value)
    return out


def _leaves(block: cst.BaseSuite) -> bool:
    """The block ends in a raise of an exception or a return."""
    last = block.body[-1] if isinstance(block, cst.IndentedBlock) and block.body else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1] if last.body else None
    elif isinstance(block, cst.SimpleStatementSuite):
        last = block.body[-1] if block.body else None
    return isinstance(last, cst.Return) or isinstance(last, cst.Raise) and last.exc is not None


def _superclass_names(obj: object) -> Tuple[str, ...]:
    """The class names in an exception class's MRO, without the roots every exception has; () for
    anything that is not an exception class."""
    if isinstance(obj, type) and issubclass(obj, BaseException):
        return tuple(k.__name__ for k in obj.__mro__ if k.__name__ not in ("object", "Exception", "BaseException"))
    return ()


def _builtin_ancestors(cls: str) -> Tuple[str, ...]:
    return _superclass_names(getattr(builtins, cls, None))


def ancestors(cls: str, bases: Mapping[str, Iterable[str]], depth: int = 0) -> FrozenSet[str]:
    """`cls` and every superclass of it errlint can name: builtin ones, and project ones through
    `bases` (class name -> base names)."""
    out = {cls, *_builtin_ancestors(cls)}
    if depth < 8:
        for base in bases.get(cls, ()):
            last = base.rsplit(".", 1)[-1]
            if last not in out:
                out |= ancestors(last, bases, depth + 1)
    return frozenset(out)


# the packages of web frameworks: an exception class of theirs (`fastapi.HTTPException`,
# `werkzeug.exceptions.NotFound`, `aiohttp.web.HTTPBadRequest`, `rest_framework.exceptions.ValidationError`,
# `litestar.exceptions.NotFoundException`, `sanic.exceptions.SanicException`, ...) may be one the
# framework answers with its own status and text
WEB_FRAMEWORKS = frozenset({
    "fastapi", "starlette", "werkzeug", "flask", "quart", "aiohttp", "rest_framework", "django", "ninja", "litestar",
    "sanic", "falcon", "tornado", "pyramid", "bottle", "connexion", "channels"})


def not_an_http_error(qualified: str, bases: Mapping[str, Iterable[str]]) -> bool:
    """The raised class (its name as the code qualifies it) is known not to be an error class a web
    framework answers with its own text: a builtin exception, a class of another package
    (`requests.HTTPError`, `marshmallow.ValidationError`), or a project class (`bases`: last name ->
    its bases, qualified as written) all of whose bases are. A class errlint cannot place (an alias
    `ApiError = HTTPException`, a name from nowhere) is not known, and neither is a framework's."""
    return _outside(qualified, bases, WEB_FRAMEWORKS, is_builtin_exception)


# the packages whose exception classes a command-line framework reports itself: click and typer print
# a `ClickException`'s text as "Error: ..." (with usage for a `UsageError`); argparse prints an
# `ArgumentTypeError` raised by a `type=` converter as a usage error
CLI_FRAMEWORKS = frozenset({"click", "typer", "argparse", "cyclopts", "cleo", "fire", "rich_click", "asyncclick"})


def crashes_a_command(qualified: str, bases: Mapping[str, Iterable[str]]) -> bool:
    """Raised out of a command, the class (qualified as the code writes it) is known to stop the
    program with a traceback: a builtin `Exception` subclass (not `SystemExit` or `KeyboardInterrupt`,
    which Python ends without one), a class of a package that is not a command-line framework, or a
    project class all of whose bases are such. A class errlint cannot place is not known."""
    return _outside(qualified, bases, CLI_FRAMEWORKS, lambda last: is_builtin_exception(last) and issubclass(getattr(builtins, last), Exception))


def _outside(qualified: str, bases: Mapping[str, Iterable[str]], frameworks: FrozenSet[str], builtin, depth: int = 0) -> bool:
    if not qualified or depth > 8:
        return False
    if qualified.split(".", 1)[0] in frameworks:
        return False
    last = qualified.rsplit(".", 1)[-1]
    if last in bases:
        found = list(bases[last])
        return bool(found) and all(_outside(b, bases, frameworks, builtin, depth + 1) for b in found)
    if "." not in qualified or qualified.startswith("builtins."):
        return builtin(last) or last == "object"
    return True  # a class of a package that is not one of `frameworks`


def is_builtin_exception(cls: str) -> bool:
    obj = getattr(builtins, cls, None)
    return isinstance(obj, type) and issubclass(obj, BaseException)


@functools.lru_cache(maxsize=256)
def stdlib_ancestors(qualified: str) -> Tuple[str, ...]:
    """The superclasses of a standard-library exception class named by its dotted path
    (`json.JSONDecodeError` -> ValueError), read from the class itself: the standard library is
    always importable and importing it runs no project code. () for anything else."""
    module, _, name = qualified.rpartition(".")
    if not module or module.split(".", 1)[0] not in STDLIB:
        return ()
    try:
        obj = getattr(importlib.import_module(module), name, None)
    except Exception:  # an optional stdlib module missing on this platform (winreg, curses, ...)
        return ()
    return _superclass_names(obj)


def catches(types: Iterable[str], cls: str, bases: Mapping[str, Iterable[str]]) -> bool:
    """A handler for `types` catches a raise of class `cls` (by last name; "" for an unknown class,
    which only a catch-all catches)."""
    types = set(types)
    if "" in types:
        return True
    return bool(cls) and bool(types & ancestors(cls, bases))


def raised_class(message) -> Optional[str]:
    """The class a raised message is raised as (last dotted name; "" when it is not a class name),
    None when the message is not raised."""
    if message.sink != "raise" and not message.extra.get("raised"):
        return None
    cls = message.callee.rsplit(".", 1)[-1]
    return cls if cls[:1].isupper() else ""
