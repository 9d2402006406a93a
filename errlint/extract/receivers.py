"""How a call is recorded for the project model, and what a method call's receiver is when the call
itself does not say which class it belongs to.

A call's target is its qualified callee (`helpers.run`, `self.step`), `X().m` for a method of the
value a call returns (`Store().load()`, `s = Store(); s.load()`), or `[]T` for a call of an element
of the dispatch table `T` (`HANDLERS[name](args)`). A method call whose receiver's class is not known
from the code around it is recorded so that the project model can resolve it over the project's class
hierarchy (`errlint.class_hierarchy`):

- `<>.m`: `m` called on a receiver of unknown type: a parameter, a loop variable, a local bound more
  than once, an attribute of a local value. (`self.attr.m()` keeps its name: the project model
  reads what the class's methods assign to `self.attr`, `ModuleLinks.attrs`.)
- `<T>.m`: `m` called on a parameter annotated with the class `T` (`handler: BaseHandler`).
- `[]T:m`: `m` called on an element of the container `T` (`T[k].m()`, `T.get(k).m()`,
  `h = T[k]; h.m()`, `for h in T: h.m()`); `[]T():m` on an element called first (`T[k]().m()`, a
  table of classes instantiated at call time).

A receiver that is a module, an imported object, a literal or a value bound by `with`/`except` is not
one of these: its method call keeps its qualified name.
"""
from __future__ import annotations

import itertools
import re
from typing import Optional

import libcst as cst

from . import nodes

CONTAINER_READS = frozenset({"get", "pop", "setdefault"})
ITERATIONS = frozenset({"values", "items", "copy"})
ANY_TYPES = frozenset({"Any", "typing.Any", "object", "builtins.object"})
_OPTIONAL = re.compile(r"^(?:typing\.)?Optional\[(.+)\]$")
_NONE_UNION = re.compile(r"^(.+?)\s*\|\s*None$|^None\s*\|\s*(.+)$")
_DOTTED = re.compile(r"^[A-Za-z_][\w.]*$")


def call_target(call: cst.Call, walker, callee: Optional[str] = None) -> str:
    """What the project model resolves for this call ("" when it names nothing it can resolve);
    `callee` is the call's qualified callee when the caller has it already."""
    func = call.func
    if func.__class__ is cst.Attribute:  # exact class tests: see `nodes`
        found = method_target(func, walker)
        if found:
            return found
    callee = walker.qualify(func) if callee is None else callee
    if func.__class__ is cst.Name and func.value in walker.links.tables and any(b.kind == "loop" for b in walker.scope.lookup(func.value)):
        return "[]" + func.value  # the loop variable of `for caster in (boolify, int):` calls each function listed
    if callee:
        return callee
    inner = func.func if isinstance(func, cst.Call) and isinstance(func.func, cst.Attribute) and func.func.attr.value == "get" else func
    if isinstance(inner, cst.Attribute):
        inner = inner.value
    if isinstance(inner, cst.Subscript):
        inner = inner.value
    table = nodes.dotted(inner)
    return "[]" + table if table else ""


def method_target(func: cst.Attribute, walker) -> str:
    """The target of `recv.m(...)` when the receiver decides it, else "" (the qualified name stands)."""
    method = func.attr.value
    recv = func.value
    kind = recv.__class__  # exact class tests: see `nodes`
    if kind is cst.Call:
        return _made(recv, method, walker)
    if kind is cst.Subscript:
        return _element(recv.value, method, walker)
    if kind is cst.Name:
        return _named(recv.value, method, walker)
    if kind is cst.Attribute:
        root = nodes.root_name(recv)
        if root and nodes.dotted(recv) and root not in ("self", "cls") and not _imported(root, walker):
            return "<>." + method  # an attribute of a local value
    return ""  # `self.attr.m()` keeps its name: the project model reads what the class assigns to `attr`


def _made(made: cst.Call, method: str, walker) -> str:
    """`m` on the value of a call: `X(...).m`, `T[k](...).m`, `T.get(k)(...).m`, `T.get(k).m`."""
    func = made.func
    if isinstance(func, cst.Subscript):
        return _element(func.value, method, walker, "()")
    if isinstance(func, cst.Call) and isinstance(func.func, cst.Attribute) and func.func.attr.value in CONTAINER_READS:
        return _element(func.func.value, method, walker, "()")
    if isinstance(func, cst.Attribute) and func.attr.value in CONTAINER_READS and nodes.dotted(func.value):
        root = nodes.root_name(func.value)
        imported = walker.imports.get(root, "") if _imported(root, walker) else ""
        if root in ("self", "cls") or "." in imported or not imported and walker.scope.lookup(root):
            return _element(func.value, method, walker)  # not `requests.get(url).json()`: a module's function
    if isinstance(func, (cst.Name, cst.Attribute)):
        owner = walker.qualify(func)
        return f"{owner}().{method}" if owner else ""
    return ""


def _element(table: cst.CSTNode, method: str, walker, called: str = "") -> str:
    name = walker.qualify(table) if isinstance(table, (cst.Name, cst.Attribute)) else ""
    return f"[]{name}{called}:{method}" if name else "<>." + method


def _named(name: str, method: str, walker) -> str:
    if name in ("self", "cls", "super"):
        return ""
    if name in walker.imports and not walker._shadowed(name):
        return ""  # a module, or an object another module defines
    reaching = next((defs[name] for defs in reversed(walker.reaching) if name in defs), None)
    value = reaching[0] if reaching else walker.scope.value(name)
    if value is not None:
        return _valued(value, method, walker)
    bindings = walker.scope.lookup(name)
    if not bindings:
        return ""  # a builtin, or a name a star import brings
    if any(b.kind in ("import", "def", "class", "with", "except") for b in bindings):
        return ""
    if len(bindings) == 1 and bindings[0].kind == "param":
        return _annotated(bindings[0].param.annotation if bindings[0].param else "", method, walker)
    if len(bindings) == 1 and bindings[0].kind == "loop":
        return _iterated(bindings[0].value, method, walker)
    return "<>." + method


def _valued(value: cst.CSTNode, method: str, walker) -> str:
    if isinstance(value, cst.Call):
        return _made(value, method, walker)
    if isinstance(value, cst.Subscript):
        return _element(value.value, method, walker)
    if isinstance(value, (cst.Name, cst.Attribute)) and nodes.root_name(value) in ("self", "cls"):
        return "<>." + method
    return ""  # a literal, a comprehension, another name: its type is the literal's or unknown here


def _iterated(iterable: Optional[cst.CSTNode], method: str, walker) -> str:
    """`for h in T: h.m()`, `for h in T.values()`, `for k, h in T.items()`."""
    if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute) and iterable.func.attr.value in ITERATIONS and not iterable.args:
        iterable = iterable.func.value
    if isinstance(iterable, (cst.Name, cst.Attribute)) and nodes.dotted(iterable):
        return _element(iterable, method, walker)
    return "<>." + method


def _annotated(annotation: str, method: str, walker) -> str:
    """A parameter's declared class: `h: Base`, `h: "Base"`, `h: Optional[Base]`, `h: Base | None`."""
    text = annotation.strip().strip("'\"")
    if not text:
        return "<>." + method
    for pattern in (_OPTIONAL, _NONE_UNION):
        match = pattern.match(text)
        if match:
            text = next(g for g in match.groups() if g).strip().strip("'\"")
    if not _DOTTED.match(text):
        return ""  # a generic or a union: a container or a builtin, not a project class to dispatch on
    head, dot, rest = text.partition(".")
    target = walker.imports.get(head)
    qualified = target + dot + rest if target else text
    if text in ANY_TYPES or qualified in ANY_TYPES:
        return "<>." + method
    return f"<{qualified}>.{method}"


def _imported(root: str, walker) -> bool:
    return root in walker.imports and not walker._shadowed(root)


def is_stub(node: cst.FunctionDef, decorators) -> bool:
    """A method that only declares itself: `@abstractmethod`, or a body of `pass`, `...` or
    `raise NotImplementedError` (after an optional docstring). Dispatch to it never runs its body."""
    if any(d.rsplit(".", 1)[-1] in ("abstractmethod", "abstractproperty") for d in decorators):
        return True
    body = node.body
    statements = body.body if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)) else ()
    # read statement by statement: a method's first real statement usually settles it
    flat = (small for stmt in statements for small in (stmt.body if stmt.__class__ is cst.SimpleStatementLine else (stmt,)))
    first = next(flat, None)
    if isinstance(first, cst.Expr) and isinstance(first.value, (cst.SimpleString, cst.ConcatenatedString)):
        first = next(flat, None)
    if first is None:
        return True
    for stmt in itertools.chain((first,), flat):
        if isinstance(stmt, cst.Pass) or isinstance(stmt, cst.Expr) and isinstance(stmt.value, cst.Ellipsis):
            continue
        if isinstance(stmt, cst.Raise) and stmt.exc is not None and nodes.last_name(stmt.exc.func if isinstance(stmt.exc, cst.Call) else stmt.exc) == "NotImplementedError":
            continue
        return False
    return True
