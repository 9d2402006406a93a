"""Name bindings: what a name in a message expression refers to, so its placeholder can be typed.

A `Scope` records, per name, every way it is bound in a function (or the module): plain and augmented
assignments, parameters, `except ... as e`, loop targets, imports. A name resolves to a value only
when it is bound by exactly one plain assignment (plus `+=` additions), or when the binding that
reaches the sink is known: the last plain assignment in the sink's own block or an enclosing one, with
no other binding of the name in between (`msg = "..."; raise E(msg)`, repeated down a function, as
ruff's EM101 asks). Anything else stays opaque, so errlint never judges text it had to guess.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import libcst as cst

from ..model import Param
from .conditional_appends import Addition, flatten


@dataclass(eq=False)
class Binding:
    """One binding of a name: `kind` is assign, aug, param, except, loop, with, import, def, class or other."""

    kind: str
    value: Optional[cst.CSTNode] = None
    param: Optional[Param] = None
    caught: Tuple[str, ...] = ()
    qualified: str = ""
    tried: Tuple[cst.CSTNode, ...] = ()  # except: what the try body's calls operated on (paths, files)
    requests: Tuple[cst.CSTNode, ...] = ()  # except: the HTTP request calls in the try body
    order: int = 0  # except: how many bindings its scope had made when the clause bound the name
    origin: str = ""  # import: what the project module that makes it says it is, "store" or "settings" (`ModuleObjects`)
    # def: what the function returns, each with the scope that resolves its names at the `return`
    returned: List[Tuple[cst.CSTNode, "ReachingScope"]] = field(default_factory=list)


@dataclass(eq=False)
class Scope:
    """The bindings of one function or of the module; `parent` is the module scope for functions."""

    kind: str
    parent: Optional["Scope"] = None
    bindings: Dict[str, List[Binding]] = field(default_factory=dict)
    order: List[str] = field(default_factory=list)  # names in the order they were bound
    # what the code put into a name's value: by a method call (`parts.append(x)`: parts -> [x]; see
    # MUTATORS) or by subscript assignment (`table[k] = v`: table -> [k, v]; see bindings.bind_target)
    mutations: Dict[str, List[cst.CSTNode]] = field(default_factory=dict)
    # the string keys assigned by subscript, in order (`reply["error"] = msg`: reply -> [("error", msg)])
    keyed: Dict[str, List[Tuple[str, cst.CSTNode]]] = field(default_factory=dict)

    def bind(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)
        self.order.append(name)

    def lookup(self, name: str) -> List[Binding]:
        """Bindings of `name` in the nearest scope that binds it (class scopes are skipped)."""
        scope: Optional[Scope] = self
        while scope is not None:
            found = scope.bindings.get(name)
            if found:
                return found
            scope = scope.parent
        return []

    def value(self, name: str) -> Optional[cst.CSTNode]:
        """The single assigned value of `name`, or None when it is bound any other way or twice."""
        found = self.lookup(name)
        plain = [b for b in found if b.kind == "assign"]
        if len(plain) == 1 and all(b.kind in ("assign", "aug") for b in found):
            return plain[0].value
        return None

    def additions(self, name: str) -> List[cst.CSTNode]:
        """Values appended with `name += ...` (only meaningful when `value(name)` is not None)."""
        return [b.value for b in self.lookup(name) if b.kind == "aug" and b.value is not None]

    def first(self, name: str) -> Optional[Binding]:
        found = self.lookup(name)
        return found[0] if len(found) == 1 else None

    def mutated(self, name: str) -> List[cst.CSTNode]:
        """Values put into `name` by method calls or subscript assignment, in the scope that binds it."""
        scope = self._binder(name)
        return scope.mutations.get(name, []) if scope is not None else []

    def keyed_items(self, name: str) -> List[Tuple[str, cst.CSTNode]]:
        """The string-keyed items put into `name` by subscript assignment, in the scope that binds it."""
        scope = self._binder(name)
        return scope.keyed.get(name, []) if scope is not None else []

    def _binder(self, name: str) -> Optional["Scope"]:
        """The nearest scope that binds `name`."""
        scope: Optional[Scope] = self
        while scope is not None and not scope.bindings.get(name):
            scope = scope.parent
        return scope


# The reaching definition of a name at a sink: its value and the `+=` additions after it.
Reaching = Dict[str, Tuple[cst.CSTNode, Tuple[Addition, ...]]]


class ReachingScope:
    """A scope as seen from one sink: a name whose reaching definition is known resolves to it, even
    when the function binds the name several times; every other name reads the whole scope."""

    def __init__(self, scope: Scope, reaching: Reaching, caught: Optional[Dict[str, Binding]] = None):
        self.scope = scope
        self.reaching = reaching
        self.caught = caught or {}  # names the enclosing `except ... as name` clauses bind at the sink
        self.kind = scope.kind
        self.parent = scope.parent
        self.bindings = scope.bindings

    def lookup(self, name: str) -> List[Binding]:
        if name in self.reaching:
            value, adds = self.reaching[name]
            return [Binding("assign", value)] + [Binding("aug", a) for a in flatten(adds)]
        if name in self.caught:  # `except OSError as e` twice in one function: this clause's `e`
            return [self.caught[name]]
        return self.scope.lookup(name)

    def value(self, name: str) -> Optional[cst.CSTNode]:
        if name in self.reaching:
            return self.reaching[name][0]
        return self.scope.value(name)

    def additions(self, name: str) -> List[Addition]:
        """The `+=` additions, a `Choice` for those made under an `if` (see conditional_appends)."""
        if name in self.reaching:
            return list(self.reaching[name][1])
        return self.scope.additions(name)

    def first(self, name: str) -> Optional[Binding]:
        found = self.lookup(name)
        return found[0] if len(found) == 1 else None

    def mutated(self, name: str) -> List[cst.CSTNode]:
        return self.scope.mutated(name)

    def keyed_items(self, name: str) -> List[Tuple[str, cst.CSTNode]]:
        return self.scope.keyed_items(name)
