"""Imports, read by the walk: each bound name's qualified name (`self.imports`), the MCP stacks the
module imports (`_note_stack`, in `bindings`), stderr and logger objects imported by name, and
the MCP server objects other project modules make (`project_scan.ServerObjects`): a module that
imports one (`from .common.server import mcp`) decorates that stack's tools.
"""
from __future__ import annotations

from typing import Sequence

import libcst as cst

from . import exception_templates, nodes
from .bindings import STDERR_QUALIFIED
from .imported_constants import constant_value
from .scope import Binding

# drop-in replacements of a framework, imported in its place (`import rich_click as click`): what
# they export is the framework's, so their names are read as the framework's
DROP_IN = {"rich_click": "click", "asyncclick": "click"}


def drop_in(module: str) -> str:
    head, dot, rest = module.partition(".")
    return DROP_IN.get(head, head) + dot + rest


def project_object(qualified: str, package: Sequence[str] = ()) -> str:
    """How the project scan names an imported module-level object (`project_scan.ServerObjects`,
    `ModuleObjects`): the defining module's last name and the object's (`pkg.common.server.mcp`,
    `..common.server.mcp` -> "server.mcp"; `from . import mcp` in notes/tools.py -> "notes.mcp"),
    "" when the import names no module."""
    dots = len(qualified) - len(qualified.lstrip("."))
    parts = qualified[dots:].split(".")
    if dots and len(parts) < 2 and 0 < dots <= len(package):
        parts = [package[-dots]] + parts
    return ".".join(parts[-2:]) if len(parts) >= 2 else ""

class ImportNotes:
    """The walker's import statements (a mixin of `Walker`)."""

    def st_Import(self, stmt: cst.Import) -> None:
        for alias in stmt.names:
            written = nodes.dotted(alias.name)
            full = drop_in(written)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
                self.imports[local] = full
            else:
                local = written.split(".", 1)[0]
                self.imports[local] = drop_in(local)
            self.scope.bind(local, Binding("import", qualified=self.imports[local]))
            self._note_stack(full)

    def project_server(self, qualified: str) -> str:
        """The stack of a server object another project module makes, for an imported name
        (`pkg.common.server.mcp`, `..common.server.mcp`), else ""."""
        if not self.server_objects:
            return ""
        return self.server_objects.get(project_object(qualified, self.package), "")

    def import_exception_class(self, qualified: str) -> None:
        """`from .errors import NotFound`: the class's message sources and bases, read from its
        module's source (`project_scan.ExceptionClasses`), and those of the project classes it
        derives from, for the raises of this module (`exception_templates.Registry`)."""
        key = project_object(qualified, self.package)
        todo = [(key, qualified)]
        while todo and len(todo) < 20:
            key, name = todo.pop()
            found = self.imported_classes.get(key)
            stmt = exception_templates.parsed_class(found[1]) if found is not None else None
            last = key.rsplit(".", 1)[-1]
            if stmt is None or last in self.class_bases:
                continue
            bases = found[0]
            self.class_bases[last] = bases
            self.imported_class_nodes[last] = stmt
            self.exc_registry.add(exception_templates.collect(stmt, bases), name)
            module = key.rsplit(".", 1)[0]
            for base in bases:  # a project base: in the same module, or one module's only class of that name
                base_last = base.rsplit(".", 1)[-1]
                same = f"{module}.{base_last}"
                elsewhere = [k for k in self.imported_classes if k.endswith("." + base_last)]
                base_key = same if same in self.imported_classes else elsewhere[0] if len(elsewhere) == 1 else ""
                if base_key and base_last not in self.exc_registry.classes:
                    todo.append((base_key, base_last))

    def st_ImportFrom(self, stmt: cst.ImportFrom) -> None:
        module = drop_in(nodes.dotted(stmt.module)) if stmt.module is not None else ""
        dots = "." * len(stmt.relative)
        base = dots + module
        self._note_stack(module)
        if isinstance(stmt.names, cst.ImportStar):
            self.links.stars.append(base)
            return
        for alias in stmt.names:
            name = nodes.dotted(alias.name)
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            qualified = f"{base}.{name}" if base and not base.endswith(".") else base + name
            self.imports[local] = qualified
            key = project_object(qualified, self.package) if self.module_objects or self.module_constants else ""
            value = constant_value(self.module_constants[key]) if key in self.module_constants else None
            if value is not None:  # `from .texts import USAGE`: the constant's value, as if it were this module's
                self.scope.bind(local, Binding("assign", value=value, qualified=qualified, origin="constant"))
            else:
                self.scope.bind(local, Binding("import", qualified=qualified, origin=self.module_objects.get(key, "")))
            self._note_stack(qualified)
            if self.imported_classes:
                self.import_exception_class(qualified)
            stack = self.project_server(qualified)
            if stack:  # `from .common.server import mcp`: the tools it decorates are that stack's
                self.servers[local] = stack
                self.stacks.add(stack)
                self.server_elsewhere = True  # (and the server's other tools are registered elsewhere)
            if qualified in STDERR_QUALIFIED:
                self.stderr_names.add(local)
            if qualified in self.logger_objects:
                self.loggers.add(local)
