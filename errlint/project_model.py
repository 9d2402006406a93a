"""The project model: every checked file's functions, classes and methods, its imports resolved within
the project (absolute, relative, aliased, `from x import *`) and its calls (plain, `self.m()`/`cls.m()`,
module attributes, dispatch tables, `functools.partial`, wrapping decorators).

It is built from what the per-file pass already extracted (`project_summary.summarize` turns a file's
`FileFacts` into a small JSON-able summary, cached with the file's results); no file is parsed twice.
"""
from __future__ import annotations

import os
from typing import Dict, Iterable, List, Optional, Set, Tuple

from .extract.call_arguments import runs_detached
from .method_dispatch import MethodDispatch
from .project_summary import Summary

# the "classes caught" of a call edge to a function a runner calls detached (a thread or process
# target, a loop callback, an exit hook): no raise of the function comes back along it
DETACHED = "<detached>"
# the prefix of a class in an edge's "classes caught" that a handler around the call catches and
# re-raises or uses (`~ValueError`; `~` for a catch-all): not replaced, but its text may go on in
# what that handler sends
RELAYED = "~"
# what registers code that turns an exception into an HTTP response of the project's own, whatever
# it catches: an exception or error handler, decorated or registered by a call, and the methods
# frameworks call with the exception (a middleware counts only when it catches: `http_catchers`)
CATCHER_DECORATORS = frozenset({"exception_handler", "errorhandler", "app_errorhandler"})
CATCHER_CALLS = frozenset({"add_exception_handler", "register_error_handler"})
CATCHER_METHODS = frozenset({"process_exception", "handle_exception"})  # Django middleware, Flask/aiohttp overrides


TEST_DIRS = {"tests", "test", "testing"}


def is_test_module(name: str) -> bool:
    """A test module by its dotted name (package-relative, so the folders above the project do not
    count): test_*.py, *_test.py, conftest.py, or a module in a tests/test package."""
    parts = name.split("@")[0].split(".")
    stem = parts[-1]
    return stem.startswith("test_") or stem.endswith("_test") or stem == "conftest" or bool(TEST_DIRS & set(parts[:-1]))


def module_name(path: str) -> Tuple[str, bool]:
    """(dotted module name, is a package `__init__`) of a file, from the `__init__.py` files above it."""
    path = os.path.abspath(path)
    directory, base = os.path.split(path)
    stem = base[:-3] if base.endswith(".py") else base.rsplit(".", 1)[0]
    parts = [] if stem == "__init__" else [stem]
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, pkg = os.path.split(directory)
        if not pkg:
            break
        parts.insert(0, pkg)
    return ".".join(parts) or stem, stem == "__init__"


def _around(caught: Dict[str, list], relayed: Dict[str, list], name: str) -> Tuple[str, ...]:
    """What the `try` blocks around the calls of `name` replace, and (prefixed RELAYED) relay: a
    function's `caught`/`relayed` summary, or a module's `tcaught`/`trelayed` for its top level."""
    return tuple(caught.get(name, ())) + tuple(RELAYED + t for t in relayed.get(name, ()))


class ProjectModel(MethodDispatch):
    """Functions of the whole project by fully qualified name, and call resolution between them."""

    def __init__(self, summaries: Iterable[Tuple[str, Summary]], scripts: Iterable[str] = ()):
        self.modules: Dict[str, Summary] = {}
        self.paths: Dict[str, str] = {}
        self.packages: Set[str] = set()
        self.functions: Dict[str, dict] = {}
        self.module_of: Dict[str, str] = {}
        self.serving: Set[str] = set()  # functions (and main blocks) that start a server
        for path, summary in summaries:
            name, is_package = module_name(path)
            if name in self.modules:  # two files, one module name (scripts in different folders): keep both apart
                name = f"{name}@{len(self.modules)}"
            self.modules[name] = summary
            self.paths[path] = name
            if is_package:
                self.packages.add(name)
            for qual, fn in summary["fns"].items():
                fq = f"{name}.{qual}"
                self.functions[fq] = fn
                self.module_of[fq] = name
            for qual in summary.get("serving", ()):
                self.serving.add(f"{qual}:{name}" if qual.startswith("<") else f"{name}.{qual}")
        self.children: Dict[str, List[str]] = {}
        for fq, fn in self.functions.items():
            if fn["parent"]:
                self.children.setdefault(f"{self.module_of[fq]}.{fn['parent']}", []).append(fq)
        self.scripts = list(scripts)
        self._cache: Dict[Tuple[str, str, str], Tuple[str, ...]] = {}
        self._self_bases: Dict[Tuple[str, str, str], Optional[str]] = {}  # see _resolve_on_self
        self._linked: Optional[Set[str]] = None
        self._catchers: Optional[bool] = None
        self._qbases: Optional[Dict[str, List[str]]] = None
        self._bases: Optional[Dict[str, List[str]]] = None
        self._incoming: Optional[Tuple[Dict[str, List[Tuple[str, str, Tuple[str, ...]]]], Set[str]]] = None
        self._hierarchy = None  # MethodDispatch's, built on first use
        self._roots: Optional[Set[str]] = None
        # (module, call, caller) -> the class whose hierarchy a dispatched call was resolved over
        self.dispatched: Dict[Tuple[str, str, str], str] = {}

    # ------------------------------------------------------------------ entry points
    def entry_points(self) -> List[Tuple[str, str, str]]:
        """(function or pseudo-node, audience, label) for every entry point of the project. Test code
        is not one: a handler a test registers, or a test module's `__main__` block, serves no reader."""
        found = self._entry_points()
        tests = {name for name in self.paths.values() if is_test_module(name)}
        return [e for e in found if self.module_of.get(e[0], e[0].partition(":")[2]) not in tests]

    def _entry_points(self) -> List[Tuple[str, str, str]]:
        out: List[Tuple[str, str, str]] = []
        for fq, fn in self.functions.items():
            module = self.module_of[fq]
            if fn["entry"]:
                out.append((fq, fn["entry"][0], fn["entry"][1]))
            elif fn["request"] and not fn["parent"] and not fn["cls"] and module.rsplit(".", 1)[-1].split("@")[0] == "views":
                out.append((fq, "http", "Django view"))
        for module, summary in self.modules.items():
            for audience, ref, where in summary["entries"]:
                for target in self.resolve(module, ref, f"{module}.{where}" if where else ""):
                    label = {"agent": "MCP tool (registered by a call)", "http": "HTTP handler (registered by a call)", "cli": "CLI command (registered by a call)"}[audience]
                    out.append((target, audience, label))
            if summary["main"]:
                out.append((f"<main>:{module}", "cli", "`if __name__ == \"__main__\":` block"))
            if module.split("@")[0].rsplit(".", 1)[-1] == "__main__":
                out.append((f"<module>:{module}", "cli", "`__main__` module"))
        for script in self.scripts:
            for target in self.resolve("", script):
                out.append((target, "cli", "[project.scripts] target"))
        seen = set()
        unique = []
        for item in out:
            if (item[0], item[1]) not in seen:
                seen.add((item[0], item[1]))
                unique.append(item)
        return unique

    @property
    def http_catchers(self) -> bool:
        """The project turns exceptions into HTTP responses of its own somewhere (tests left out): an
        exception or error handler (`@app.exception_handler(...)`, `@app.errorhandler(...)`,
        `add_exception_handler`, `register_error_handler`, `exception_handlers=` of the app, a
        Django `process_exception` method, a custom DRF exception handler), or a middleware of the
        project's own that catches exceptions (a `try` in it): one the app names
        (`add_middleware(M)`, `Middleware(M)`, `middlewares=[m]`), a `@app.middleware` function or a
        `BaseHTTPMiddleware` subclass. A middleware that catches nothing (a locale, a session, a
        timer) lets an exception through to the framework's 500. Which classes a handler catches is
        not recorded, so any of them keeps a plain raise's text possibly read by the HTTP client."""
        if self._catchers is None:
            last = lambda name: name.rsplit(".", 1)[-1]  # noqa: E731
            deco = lambda name: last(name).split("(", 1)[0]  # noqa: E731  `app.exception_handler(404)` -> exception_handler
            live = {m: s for m, s in self.modules.items() if not is_test_module(m)}
            named = {last(ref) for s in live.values() for ref in s.get("middleware", ())}
            named |= {last(cls) for s in live.values() for cls, bases in s.get("classes", {}).items() if any(last(b) == "BaseHTTPMiddleware" for b in bases)}
            catching = set()  # functions and classes with a `try` around some call
            for fq, fn in self.functions.items():
                if fn.get("caught") or fn.get("relayed"):
                    catching.add(last(fq))
                    for owner in (fn["cls"], fn["parent"]):  # a method's class; a factory of a nested handler
                        if owner:
                            catching.add(last(owner))
            self._catchers = any(
                any(deco(d) in CATCHER_DECORATORS for d in fn["decos"]) or any(last(c) in CATCHER_CALLS for c in fn["calls"])
                or last(fq) in CATCHER_METHODS or last(fq) in catching and any(deco(d) == "middleware" for d in fn["decos"])
                for fq, fn in self.functions.items() if self.module_of[fq] in live
            ) or bool(named & catching) or any(
                summary.get("catchers") or any(last(c) in CATCHER_CALLS for c in summary["mcalls"] + summary["main"])
                for summary in live.values()
            )
        return self._catchers

    def linked_modules(self) -> Set[str]:
        """Modules another project module imports (a module nothing imports may be loaded by name:
        a plugin, a script)."""
        if self._linked is None:
            linked: Set[str] = set()
            for module, summary in self.modules.items():
                for target in list(summary["imports"].values()) + list(summary["stars"]):
                    full = self._relative(module, target) if target.startswith(".") else target
                    parts = full.split(".")
                    for cut in range(len(parts), 0, -1):
                        name = ".".join(parts[:cut])
                        if name in self.modules and name != module:
                            linked.add(name)
                            break
            self._linked = linked
        return self._linked

    def incoming(self) -> Tuple[Dict[str, List[Tuple[str, str, Tuple[str, ...]]]], Set[str]]:
        """Every call between project functions, by callee: (caller, the name it called, classes
        caught and replaced around the call); and the functions also reached in ways that carry no
        call site (decorators, functions passed on as values, module-level calls). A nested function
        its parent calls by name has those calls as call sites; one it returns has none."""
        if self._incoming is None:
            incoming: Dict[str, List[Tuple[str, str, Tuple[str, ...]]]] = {}
            other: Set[str] = set()
            for fq, fn in self.functions.items():
                module = self.module_of[fq]
                caught = fn.get("caught", {})
                for name in fn["calls"]:
                    for target in self.resolve(module, name, fq):
                        incoming.setdefault(target, []).append((fq, name, tuple(caught.get(name, ()))))
                for name in fn["decos"] + [ref for ref, _ in fn.get("refs", ())]:
                    other.update(self.resolve(module, name, fq))
            for module, summary in self.modules.items():
                for name in summary["main"] + summary["mcalls"]:
                    other.update(self.resolve(module, name))
            self._incoming = (incoming, other)
        return self._incoming

    def tool_name(self, fq: str) -> str:
        fn = self.functions.get(fq)
        if fn and fn["entry"] and fn["entry"][1].startswith("MCP tool `"):
            return fn["entry"][1][len("MCP tool `"):-1]
        module = self.module_of.get(fq, "")
        for fn_name, name in self.modules.get(module, {}).get("tools", []):
            if fq == f"{module}.{fn_name}":
                return name
        return fq.rsplit(".", 1)[-1]

    # ------------------------------------------------------------------ edges
    def callees(self, node: str) -> List[str]:
        """Project functions `node` calls (resolved)."""
        return [target for target, _ in self.calls(node)]

    def calls(self, node: str) -> List[Tuple[str, Tuple[str, ...]]]:
        """(project function, exception classes caught and replaced around every call of it) for
        each call `node` makes (`extract.catching`)."""
        if node.startswith("<main>:") or node.startswith("<module>:"):
            module = node.split(":", 1)[1]
            summary = self.modules[module]
            names = summary["main"] if node.startswith("<main>:") else summary["main"] + summary["mcalls"]
            caught, relayed = summary.get("tcaught", {}), summary.get("trelayed", {})
            return [(t, _around(caught, relayed, name)) for name in names for t in self.resolve(module, name)]
        fn = self.functions.get(node)
        if fn is None:
            return []
        module = self.module_of[node]
        caught = fn.get("caught", {})
        relayed = fn.get("relayed", {})

        out: List[Tuple[str, Tuple[str, ...]]] = []
        for name in fn["calls"]:
            types = _around(caught, relayed, name)
            out.extend((t, types) for t in self.resolve(module, name, node))
        detached = set()
        for name, via in fn.get("refs", ()):  # a function passed on as a value runs inside the call it is passed to
            if runs_detached(via) and not self.resolve(module, via, node):  # not a project class named `Timer`
                detached.add(name)
                types: Tuple[str, ...] = (DETACHED,)
            else:
                types = _around(caught, relayed, via)
            out.extend((t, types) for t in self.resolve(module, name, node))
        for deco in fn["decos"]:  # a wrapping decorator runs around the function: its wrapper is reached
            for target in self.resolve(module, deco, node):
                out.append((target, ()))
                out.extend((t, ()) for t in self.nested(target))
        calls = set(fn["calls"])
        for t in self.nested(node):  # one only passed to a thread (`Thread(target=work)`) runs detached
            short = t.rsplit(".", 1)[-1]
            out.append((t, (DETACHED,) if short in detached and short not in calls else ()))
        return out

    @property
    def class_bases(self) -> Dict[str, List[str]]:
        """Every project class's base names, by class name (last dotted names)."""
        if self._bases is None:
            self._bases = {}
            for summary in self.modules.values():
                for name, bases in summary.get("classes", {}).items():
                    self._bases.setdefault(name.rsplit(".", 1)[-1], []).extend(b.rsplit(".", 1)[-1] for b in bases)
        return self._bases

    @property
    def qualified_bases(self) -> Dict[str, List[str]]:
        """Every project class's bases as its module qualifies them (`fastapi.HTTPException`), by
        class name (last dotted name)."""
        if self._qbases is None:
            self._qbases = {}
            for summary in self.modules.values():
                for name, bases in summary.get("classes", {}).items():
                    self._qbases.setdefault(name.rsplit(".", 1)[-1], []).extend(bases)
        return self._qbases

    def nested(self, fq: str) -> List[str]:
        return self.children.get(fq, [])

    def returned(self, fq: str) -> List[str]:
        """Project functions whose return value `fq` returns."""
        fn = self.functions.get(fq)
        if fn is None:
            return []
        module = self.module_of[fq]
        return [t for name in fn["rets"] for t in self.resolve(module, name, fq)]

    # ------------------------------------------------------------------ names
    def resolve(self, module: str, name: str, within: str = "") -> Tuple[str, ...]:
        if within and not self._caller_decides(module, name, within):
            within = ""  # the same answer for every caller in the module: computed once, not per caller
        key = (module, name, within)
        found = self._cache.get(key)
        if found is None:
            if within and name.partition(".")[0] in ("self", "cls"):
                return self._resolve_on_self(module, name, within)
            found = tuple(dict.fromkeys(self._resolve(module, name, within, 0)))
            self._cache[key] = found
        return found

    def _resolve_on_self(self, module: str, name: str, within: str) -> Tuple[str, ...]:
        """`self.m` / `cls.m`: the answer depends on the caller's class only, so it is computed once
        per class; the dispatch note (`dispatched`) is kept for each caller."""
        cls = self.functions.get(within, {}).get("cls", "")
        shared = (module, name, "\0" + cls)
        cached = self._cache.get(shared)
        if cached is None:
            cached = tuple(dict.fromkeys(self._resolve(module, name, within, 0)))
            self._cache[shared] = cached
            base = self.dispatched.get((module, name, within))
            self._self_bases[shared] = base
        else:
            base = self._self_bases.get(shared)
            if base is not None:
                self.dispatched[(module, name, within)] = base
        self._cache[(module, name, within)] = cached
        return cached

    def _caller_decides(self, module: str, name: str, within: str) -> bool:
        """Whether `_resolve` can answer differently for this caller than for none: a receiver or
        table encoding, `self.`/`cls.`, or a nested function of the caller (or of its parents)
        that the name means."""
        if name[:1] in ("<", "[", ".") or "()." in name or name.partition(".")[0] in ("self", "cls"):
            return True
        scope = within
        while scope.startswith(module + "."):  # the nested-function lookup of `_resolve`
            if f"{scope}.{name}" in self.functions:
                return True
            parent = self.functions.get(scope, {}).get("parent", "")
            scope = f"{module}.{parent}" if parent else ""
        return False

    def _resolve(self, module: str, name: str, within: str, depth: int) -> List[str]:
        if depth > 8 or not name:
            return []
        summary = self.modules.get(module)
        if name.startswith("<") or name.startswith("[]") and ":" in name:  # a receiver the class decides
            return self._on_receiver(module, name, within, depth)
        if name.startswith("[]"):  # a dispatch table: every function stored in it
            return self._table(module, name[2:].split(".")[-1], within, depth)
        if "()." in name:  # a method called on what a call returns: an instance of a project class
            return self._on_made(module, name, within, depth)
        head, _, rest = name.partition(".")
        if summary is not None and head in ("self", "cls") and within:
            cls = self.functions.get(within, {}).get("cls", "")
            return self._on_self(module, cls, name, within, depth) if cls and rest else []
        if name.startswith("."):
            return self._resolve_absolute(self._relative(module, name), depth)
        if summary is not None:
            if within:  # a nested function of the caller, or of the caller's parent
                scope = within
                while scope.startswith(module + "."):
                    candidate = f"{scope}.{name}"
                    if candidate in self.functions:
                        return [candidate]
                    parent = self.functions.get(scope, {}).get("parent", "")
                    scope = f"{module}.{parent}" if parent else ""
            local = self._in_module(module, name, depth)
            if local:
                return local
            if head in summary["imports"]:
                target = summary["imports"][head]
                full = target + ("." + rest if rest else "")
                if full.startswith("."):
                    full = self._relative(module, full)
                if full != name or target != head:
                    found = self._resolve_absolute(full, depth + 1)
                    if found:
                        return found
                    # else the name was recorded already resolved through this import: `from flatten
                    # import flatten` records the call `flatten.flatten`, whose head is the import again
            for star in summary["stars"]:
                base = self._relative(module, star + ".x")[:-2] if star.startswith(".") else star
                found = self._in_module(base, name, depth + 1) if base in self.modules else []
                if found:
                    return found
        return self._resolve_absolute(name, depth + 1)

    def _class(self, module: str, name: str, depth: int) -> Optional[Tuple[str, str]]:
        """(module, class) that `name` means in `module`, following imports and re-exports."""
        summary = self.modules.get(module)
        if summary is None or depth > 8:
            return None
        if name in summary["classes"]:
            return module, name
        head, _, rest = name.partition(".")
        target = summary["imports"].get(head)
        if target is None:
            return None
        full = target + ("." + rest if rest else "")
        if full.startswith("."):
            full = self._relative(module, full)
        owner, _, cls = full.rpartition(".")
        if owner in self.modules and owner != module:
            return self._class(owner, cls, depth + 1)
        return None

    def _table(self, module: str, table: str, within: str, depth: int) -> List[str]:
        summary = self.modules.get(module)
        if summary is None or depth > 8:
            return []
        if table in summary["tables"]:
            return [t for ref in summary["tables"][table] for t in self._resolve(module, ref, within, depth + 1)]
        target = summary["imports"].get(table, "")
        if target.startswith("."):
            target = self._relative(module, target)
        owner, _, attr = target.rpartition(".")
        if owner in self.modules:
            return self._table(owner, attr, "", depth + 1)
        for star in summary["stars"]:
            base = self._relative(module, star + ".x")[:-2] if star.startswith(".") else star
            if base in self.modules and base != module and table in self.modules[base]["tables"]:
                return self._table(base, table, "", depth + 1)
        return []

    def _resolve_absolute(self, name: str, depth: int) -> List[str]:
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            if module in self.modules:
                return self._in_module(module, ".".join(parts[cut:]), depth + 1)
        return []

    def _in_module(self, module: str, rest: str, depth: int) -> List[str]:
        """`rest` (a function, `Class.method`, a class, or a name the module imports) inside `module`."""
        if depth > 8:
            return []
        summary = self.modules.get(module)
        if summary is None:
            return []
        fq = f"{module}.{rest}"
        if fq in self.functions:
            return [fq]
        head, _, tail = rest.partition(".")
        if head in summary["classes"]:
            if not tail:
                init = f"{module}.{head}.__init__"
                return [init] if init in self.functions else []
            return self._in_class(module, head, tail, depth)
        if head in summary["imports"]:
            target = summary["imports"][head]
            if target.startswith("."):
                target = self._relative(module, target)
            full = target + ("." + tail if tail else "")
            if full != f"{module}.{rest}":
                return self._resolve_absolute(full, depth + 1)
        if head in summary["tables"] and not tail:
            return []
        for star in summary["stars"]:
            base = self._relative(module, star + ".x")[:-2] if star.startswith(".") else star
            if base in self.modules and base != module:
                found = self._in_module(base, rest, depth + 1)
                if found:
                    return found
        return []

    def _in_class(self, module: str, cls: str, method: str, depth: int) -> List[str]:
        fq = f"{module}.{cls}.{method.split('.', 1)[0]}"
        if fq in self.functions:
            return [fq]
        summary = self.modules.get(module, {})
        if "." not in method and method in summary.get("tables", {}):
            return [t for ref in summary["tables"][method] for t in self._resolve(module, ref, "", depth + 1)]
        for base in summary.get("classes", {}).get(cls, ()):  # inherited from a project class
            if depth > 6:
                break
            if base in summary.get("classes", {}):
                found = self._in_class(module, base, method, depth + 1)
            else:
                targets = self._resolve(module, base, "", depth + 1)
                found = []
                for target in targets:
                    owner = target.rsplit(".", 1)[0] if target.endswith(".__init__") else ""
                    if owner:
                        mod = self.module_of[target]
                        found = self._in_class(mod, owner[len(mod) + 1:], method, depth + 1)
            if found:
                return found
        return []

    def _relative(self, module: str, name: str) -> str:
        dots = len(name) - len(name.lstrip("."))
        package = module.split("@")[0] if module in self.packages else module.split("@")[0].rpartition(".")[0]
        parts = package.split(".") if package else []
        if dots > 1:
            parts = parts[: max(len(parts) - (dots - 1), 0)]
        rest = name[dots:]
        return ".".join(parts + ([rest] if rest else []))

    def path_of(self, module: str) -> Optional[str]:
        for path, name in self.paths.items():
            if name == module:
                return path
        return None
