"""Class hierarchy analysis over the project's classes: which methods a call can reach when the
receiver's class is known only up to a project base class, or not at all.

- `m` called on a receiver of unknown type (`handler.run_tool(args)` where `handler` came out of a
  registry) reaches every override of `m` in one project hierarchy: a project class that defines (or
  declares) `m`, none of whose project bases does, and its project subclasses that override it. A
  call never links to methods that merely share a name: the candidates must share that base, and no
  project class outside that hierarchy may define `m` (the receiver could be that one); names every
  builtin container, string or file defines (`get`, `pop`, `read`, `format`, ...) and dunders are
  never dispatched, and a hierarchy with more than `MAX_TARGETS` methods named `m` is left alone.
- `m` called on a parameter annotated with a project class `T`, or on `self` in `T`, reaches the `m`
  that `T` has (its own or inherited) and every override of `m` in `T`'s project subclasses. Like any
  class hierarchy analysis this does not know which subclass `self` is at a given call: `self.connect()`
  in `SMTP.__init__` reaches `LMTP.connect` even where only `SMTP(...)` is built.
- A stub (`@abstractmethod`, or a body of `pass`, `...` or `raise NotImplementedError`) declares the
  method but is never reached by dispatch: an abstract base's placeholder raise is no reader's message.

Bases are resolved over the whole project (other modules, relative and aliased imports, re-exports).
The index is built once, the first time a call needs it, from the project model's summaries.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

from .extract.builtin_methods import dispatchable

ClassKey = Tuple[str, str]  # (module, top-level class name)

# a base with more overrides of one method than this is a framework's plugin point, where a call on an
# unknown receiver would make every plugin reachable from anywhere
MAX_TARGETS = 100


class ClassHierarchy:
    """Project classes, their resolved project bases and subclasses, and the methods each defines."""

    def __init__(self, model):
        self.methods: Dict[str, Dict[ClassKey, str]] = {}  # method name -> class -> function
        self.stubs: Set[str] = set()
        for fq, fn in model.functions.items():
            cls = fn["cls"]
            if not cls or fn["parent"]:
                continue
            module = model.module_of[fq]
            owner, _, method = fq[len(module) + 1:].rpartition(".")
            if owner == cls:
                self.methods.setdefault(method, {})[(module, cls)] = fq
                if fn.get("stub"):
                    self.stubs.add(fq)
        self.parents: Dict[ClassKey, List[ClassKey]] = {}
        self.children: Dict[ClassKey, List[ClassKey]] = {}
        for module, summary in model.modules.items():
            for cls, bases in summary["classes"].items():
                key = (module, cls)
                for base in bases:
                    found = model.class_named(module, base)
                    if found is not None and found != key:
                        self.parents.setdefault(key, []).append(found)
                        self.children.setdefault(found, []).append(key)
        self._families: Dict[str, Tuple[ClassKey, ...]] = {}
        self._closures: Dict[Tuple[ClassKey, bool], List[ClassKey]] = {}
        self._dispatched: Dict[str, Tuple[Optional[ClassKey], Tuple[str, ...]]] = {}

    def _closure(self, start: ClassKey, edges: Dict[ClassKey, List[ClassKey]]) -> List[ClassKey]:
        """`start` and every class reachable from it along `edges` (parents or children)."""
        key = (start, edges is self.parents)
        found = self._closures.get(key)
        if found is None:
            found = self._closures[key] = self._walk(start, edges)
        return found

    @staticmethod
    def _walk(start: ClassKey, edges: Dict[ClassKey, List[ClassKey]]) -> List[ClassKey]:
        seen = {start}
        order = [start]
        queue = [start]
        while queue:
            for nxt in edges.get(queue.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    order.append(nxt)
                    queue.append(nxt)
        return order

    def lineage(self, cls: ClassKey) -> List[ClassKey]:
        """The class and its project bases, transitively."""
        return self._closure(cls, self.parents)

    def overrides(self, cls: ClassKey, method: str) -> List[str]:
        """Every non-stub `method` defined in a project subclass of `cls` (not `cls` itself)."""
        defined = self.methods.get(method, {})
        return [defined[c] for c in self._closure(cls, self.children)[1:] if c in defined and defined[c] not in self.stubs]

    def families(self, method: str) -> Tuple[ClassKey, ...]:
        """The project classes that define `method` first in their hierarchy and have subclasses that
        override it."""
        found = self._families.get(method)
        if found is None:
            defined = self.methods.get(method, {})
            roots = []
            for cls in defined:
                if any(a in defined for a in self._closure(cls, self.parents)[1:]):
                    continue
                if any(c in defined for c in self._closure(cls, self.children)[1:]):
                    roots.append(cls)
            found = self._families[method] = tuple(sorted(roots))
        return found

    def dispatch(self, method: str) -> Tuple[Optional[ClassKey], Tuple[str, ...]]:
        """(the base class, the methods reached) for `method` called on a receiver of unknown type."""
        found = self._dispatched.get(method)
        if found is None:
            found = self._dispatched[method] = self._dispatch(method)
        return found

    def _dispatch(self, method: str) -> Tuple[Optional[ClassKey], Tuple[str, ...]]:
        if not dispatchable(method):
            return None, ()
        roots = self.families(method)
        if len(roots) != 1:
            return None, ()
        root = roots[0]
        defined = self.methods[method]
        if len(defined) > len(set(defined) & set(self._closure(root, self.children))):
            return None, ()  # a class outside the hierarchy defines it too: the receiver may be that one
        targets = ([defined[root]] if defined[root] not in self.stubs else []) + self.overrides(root, method)
        if len(targets) > MAX_TARGETS:
            return None, ()
        return root, tuple(targets)
