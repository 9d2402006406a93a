"""The part of the project model that resolves method calls by the receiver's class: the call
encodings `extract.receivers` records (`<>.m`, `<T>.m`, `[]T:m`, `[]T():m`, `self.attr.m`, and `X().m`
when `X` is a project function), resolved over the class hierarchy (`class_hierarchy`). `MethodDispatch`
is one part of `ProjectModel` and works on its modules, functions and name resolution.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

from .class_hierarchy import ClassHierarchy


class MethodDispatch:
    """Method calls resolved by class (a mixin of `ProjectModel`)."""

    modules: Dict[str, dict]
    functions: Dict[str, dict]
    module_of: Dict[str, str]
    dispatched: Dict[Tuple[str, str, str], str]
    _hierarchy: Optional[ClassHierarchy]
    _roots: Optional[Set[str]]
    # from ProjectModel: _resolve, resolve, _class, _in_class, _relative

    def _on_receiver(self, module: str, name: str, within: str, depth: int) -> List[str]:
        """`<>.m`, `<T>.m`, `[]T:m`, `[]T():m`."""
        if name.startswith("[]"):
            return self._on_element(module, name, within, depth)
        declared, _, method = name[1:].partition(">.")
        if declared:
            return self._declared((module, name, within), declared, method, depth)
        return self._dispatch((module, name, within), method)

    def _on_made(self, module: str, name: str, within: str, depth: int) -> List[str]:
        """`X().m`: `m` of the class X, or, when X is a project function, whatever the hierarchy
        decides for a receiver of unknown class."""
        owner, _, method = name.partition("().")
        found = self.class_named(module, owner)
        if found:
            return self._in_class(found[0], found[1], method, depth + 1)
        made = self._resolve(module, owner, within, depth + 1) if "(" not in owner else []
        if made and all(t.endswith(".__init__") for t in made):  # a class reached through its `__init__`
            mod = self.module_of[made[0]]
            return self._in_class(mod, made[0][len(mod) + 1: -len(".__init__")], method, depth + 1)
        return self._dispatch((module, name, within), method) if made else []

    def _on_self(self, module: str, cls: str, name: str, within: str, depth: int) -> List[str]:
        """`self.m()`: the class's own or inherited `m`, and every override in its project subclasses;
        `self.attr.m()`: `m` of what the class assigns to `attr`, when `attr` is no method or property."""
        rest = name.partition(".")[2]
        found = self._in_class(module, cls, rest, depth)
        if cls not in self.modules[module]["classes"]:
            return found
        if "." not in rest:
            below = self.hierarchy().overrides((module, cls), rest)
            if below:
                self.dispatched[(module, name, within)] = f"{module}.{cls}"
                found = found + below
        elif not found and rest.count(".") == 1:
            attr, _, method = rest.partition(".")
            found = self._on_attribute((module, cls), attr, method, (module, name, within), depth)
        return found

    def hierarchy(self) -> ClassHierarchy:
        if self._hierarchy is None:
            self._hierarchy = ClassHierarchy(self)
        return self._hierarchy

    def class_named(self, module: str, name: str) -> Optional[Tuple[str, str]]:
        """(module, class) a qualified name (`pkg.tools.Base`, `.tools.Base`, `Base`) means in `module`."""
        found = self._class(module, name, 0)
        if found is not None or not name:
            return found
        full = self._relative(module, name) if name.startswith(".") else name
        owner, _, cls = full.rpartition(".")
        if owner in self.modules:
            return self._class(owner, cls, 1)
        return None

    def _dispatch(self, call: Tuple[str, str, str], method: str) -> List[str]:
        root, targets = self.hierarchy().dispatch(method)
        if root is not None:
            self.dispatched[call] = f"{root[0]}.{root[1]}"
        return list(targets)

    def dispatch_note(self, caller: str, target: str) -> str:
        """How `caller` reaches `target` when a call was resolved over a class hierarchy, else ""."""
        fn = self.functions.get(caller)
        if fn is None:
            return ""
        module = self.module_of[caller]
        for name in list(fn["calls"]) + list(fn["rets"]):
            base = self.dispatched.get((module, name, caller))
            if base and target in self.resolve(module, name, caller):
                method = name.rpartition(":")[2] if name.startswith("[]") else name.rpartition(".")[2]
                return f"dispatch: `{method}` on an object whose class is known only up to {base} reaches every override in its subclasses"
        return ""

    def _declared(self, call: Tuple[str, str, str], declared: str, method: str, depth: int) -> List[str]:
        """`method` on a parameter annotated with `declared`: the class's own (or inherited) method and
        every override in its project subclasses; nothing when the class is not the project's."""
        found = self.class_named(call[0], declared)
        if found is None:
            return []
        hierarchy = self.hierarchy()
        own = [t for t in self._in_class(found[0], found[1], method, depth + 1) if t not in hierarchy.stubs]
        below = hierarchy.overrides(found, method)
        if below:
            self.dispatched[call] = f"{found[0]}.{found[1]}"
        return own + below

    def _on_attribute(self, cls: Tuple[str, str], attr: str, method: str, call: Tuple[str, str, str], depth: int) -> List[str]:
        """`self.attr.m()`: `m` of the classes the class (or a project base) instantiates into `attr`;
        nothing when another package's class is assigned; the class hierarchy decides when something
        else is (a parameter, a container, a value a project function returns)."""
        values: Set[Tuple[str, str]] = set()
        for key in self.hierarchy().lineage(cls):
            for value in self.modules[key[0]].get("attrs", {}).get(f"{key[1]}.{attr}", ()):
                values.add((key[0], value))
        out: List[str] = []
        unknown = not values
        for owner_module, value in sorted(values):
            found = self.class_named(owner_module, value[:-2]) if value != "?" else None
            if found is not None:
                out.extend(self._in_class(found[0], found[1], method, depth + 1))
            elif value == "?" or self._resolve(owner_module, value[:-2], "", depth + 1):
                unknown = True  # a value of unknown class, or what a project function returns
        return out + self._dispatch(call, method) if unknown else out

    def _on_element(self, module: str, name: str, within: str, depth: int) -> List[str]:
        """`[]T:m` / `[]T():m`: `m` on an element of `T` (instantiated first with `()`). A table of classes
        or instances gives their own `m`; a container the project does not fill by a literal (a registry
        filled by a call or a decorator, an instance attribute) leaves the class hierarchy to decide; a
        container another package defines gives nothing."""
        table, _, method = name[2:].rpartition(":")
        called = table.endswith("()")
        table = table[:-2] if called else table
        found = self._table_refs(module, table)
        if found is not None:
            owner, refs = found
            out: List[str] = []
            for ref in refs:
                instance = ref.endswith("()")
                if called and instance:
                    continue
                cls = self.class_named(owner, ref[:-2] if instance else ref)
                if cls is not None:
                    out.extend(self._in_class(cls[0], cls[1], method, depth + 1))
            return out
        if self._external(module, table):
            return []
        return self._dispatch((module, name, within), method)

    def _table_refs(self, module: str, table: str) -> Optional[Tuple[str, Tuple[str, ...]]]:
        """(module that defines it, its refs) of the literal table a (qualified) name means."""
        summary = self.modules.get(module)
        if summary is None:
            return None
        if table in summary["tables"]:
            return module, tuple(summary["tables"][table])
        full = self._relative(module, table) if table.startswith(".") else table
        owner, _, attr = full.rpartition(".")
        if owner in self.modules and attr in self.modules[owner]["tables"]:
            return owner, tuple(self.modules[owner]["tables"][attr])
        return None

    def _external(self, module: str, name: str) -> bool:
        """A qualified name the module imports from outside the project."""
        if name.startswith("."):
            return False
        if self._roots is None:
            self._roots = {m.split("@")[0].split(".", 1)[0] for m in self.modules}
        imports = self.modules.get(module, {}).get("imports", {})
        head = name.split(".", 1)[0]
        return head not in self._roots and any(name == t or name.startswith(t + ".") for t in imports.values())
