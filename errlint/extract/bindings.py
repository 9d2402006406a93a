"""What an assignment tells the walk about the names it binds.

Binds assignment targets in the current scope, and notes the names that hold something the sink
recognisers ask about later: loggers (and bound logger methods), `sys.stderr` aliases, argparse
parsers, rich Consoles (and whether they write to stderr), MCP servers with their stack (and
`mask_error_details`), and dispatch tables of functions. Imports of an MCP package note its stack.
`BindingNotes` is one part of `Walker` and works on its state.
"""
from __future__ import annotations

from typing import List

import libcst as cst

from . import nodes
from .scope import Binding
from .sinks import LOG_METHODS, server_stack

LOGGER_FACTORIES = {"logging.getLogger", "structlog.get_logger", "structlog.getLogger", "logging.getLoggerClass"}
STDERR_QUALIFIED = {"sys.stderr", "sys.__stderr__", "sys.stderr.buffer", "sys.__stderr__.buffer"}
RICH_CONSOLES = {"rich.console.Console", "rich.Console"}


class BindingNotes:
    """The binding bookkeeping of `Walker` (a mixin: it uses the walker's scope and name sets)."""

    def bind_target(self, target: cst.CSTNode, value: cst.CSTNode) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            self.scope.bind(name, Binding("assign", value))
            self._note_binding(name, value)
        elif isinstance(target, cst.Attribute):
            self._note_attribute(target, value)
        elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
            # `servers[key] = server` fills the collection, as `servers.append(server)` does
            keys = [e.slice.value for e in target.slice if isinstance(e.slice, cst.Index)]
            self.scope.mutations.setdefault(target.value.value, []).extend(keys + [value])
            key = nodes.string_value(keys[0]) if len(keys) == 1 else None
            if key is not None:
                self.scope.keyed.setdefault(target.value.value, []).append((key, value))
        else:
            for name in target_names(target):
                self.scope.bind(name, Binding("other", value))

    def _note_binding(self, name: str, value: cst.CSTNode) -> None:
        kind = value.__class__  # exact class tests: see `nodes`
        if kind is cst.Dict or kind is cst.List or kind is cst.Tuple:
            refs = self.links.table_refs(value, self)
            if refs:
                self.links.tables[name] = refs
            return
        if kind is cst.Call:
            callee = self.qualify(value.func)
            if callee in LOGGER_FACTORIES or callee.endswith(".getLogger"):
                self.loggers.add(name)
            elif callee in ("argparse.ArgumentParser",) or callee.endswith("ArgumentParser"):
                self.parsers.add(name)
            elif callee in RICH_CONSOLES:
                self.consoles[name] = nodes.is_true(nodes.keyword_arg(value, "stderr"))
            else:
                self._note_server(name, value, callee)
        elif kind is cst.Attribute:
            if value.attr.value in LOG_METHODS and self._is_logger(value.value, self.qualify(value)):
                self.logger_methods[name] = value.attr.value
            elif self.qualify(value) in STDERR_QUALIFIED:
                self.stderr_names.add(name)

    def _note_server(self, name: str, value: cst.Call, callee: str) -> None:
        """`name = FastMCP(...)` or `Server(..., on_call_tool=handler)`: an MCP server, its stack,
        the low-level handler it calls with every tool call, and `mask_error_details`."""
        stack = server_stack(callee)
        if not stack:
            return
        if stack == "lowlevel" and self.note_lowlevel_handler(value):
            stack = "lowlevel2"
        self.servers[name] = stack
        self.stacks.add(stack)
        mask = nodes.keyword_arg(value, "mask_error_details")
        if nodes.is_true(mask):
            self.mask_error_details = True

    def note_lowlevel_handler(self, value: cst.Call) -> bool:
        """`Server(..., on_call_tool=handler)` (mcp 2.x): note the function it calls with every tool
        call; True when there is one."""
        handler = _handler_name(nodes.keyword_arg(value, "on_call_tool"))
        if handler:
            self.lowlevel2.add(handler)
            self.stacks.add("lowlevel2")
        return bool(handler)

    def _note_attribute(self, target: cst.Attribute, value: cst.CSTNode) -> None:
        """`self.attr = value` in a method: what the attribute can hold, for a method call on it
        (`self.attr.m()`). `None` adds nothing (an attribute set up empty and filled later)."""
        if not (self.class_name and self.func is not None and isinstance(target.value, cst.Name) and target.value.value == "self"):
            return
        if isinstance(value, cst.Name) and value.value == "None":
            return
        made = self.qualify(value.func) if isinstance(value, cst.Call) and isinstance(value.func, (cst.Name, cst.Attribute)) else ""
        self.links.attrs.setdefault(f"{self.class_name}.{target.attr.value}", set()).add(made + "()" if made else "?")
        if made:
            self._note_server(f"self.{target.attr.value}", value, made)  # `self.server = Server(..., on_call_tool=self.dispatch)`

    def _note_stack(self, module: str) -> None:
        if module.startswith("mcp.server.fastmcp"):
            self.stacks.add("mcp1")
        elif module.startswith("mcp.server.mcpserver"):
            self.stacks.add("mcp2")
        elif module.startswith("fastmcp"):
            self.stacks.add("fastmcp")
        elif module.startswith("mcp.server.lowlevel") or module == "mcp.server.Server":
            self.stacks.add("lowlevel")


def target_names(target: cst.CSTNode) -> List[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        out: List[str] = []
        for el in target.elements:
            out.extend(target_names(el.value))
        return out
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return []


def _handler_name(node) -> str:
    """The function an `on_call_tool=` argument names: `handle`, `self.handle` (a method, by its
    name), or the function `functools.partial(handle, db)` binds."""
    if isinstance(node, cst.Call) and nodes.last_name(node.func) == "partial" and node.args:
        node = node.args[0].value
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value in ("self", "cls"):
        return node.attr.value
    return ""
