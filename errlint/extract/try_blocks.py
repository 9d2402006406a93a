"""The `try` statement in the walk: what each `except` clause catches and binds, what the enclosing
`try` blocks replace at a point, and a non-zero exit from a handler that reports nothing (AEM606).
`TryBlocks` is one part of `Walker` and works on its state.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Set, Tuple

import libcst as cst

from ..model import Handler
from .catching import try_frame
from .file_facts import RawSink
from .scope import Binding, Reaching
from .secret_requests import request_call
from .statement_shapes import USER_INTERRUPTIONS, cannot_raise, exit_status, forked_child_exit, reports_something


@dataclass(eq=False)
class TryCollector:
    """What the body of the `try` being walked calls, reads and operates on."""

    calls: List[str] = field(default_factory=list)
    reads: Set[str] = field(default_factory=set)
    # what the try body's calls operate on (first argument, the object of a method call): the path an
    # OSError caught here names in its text (`open(p)`, `p.read_text()`)
    operands: List[cst.CSTNode] = field(default_factory=list)
    nodes: List[Tuple[str, cst.Call]] = field(default_factory=list)
    lookups: List[cst.Subscript] = field(default_factory=list)  # `TABLE[key]` reads in the body


class TryBlocks:
    """The try/except walk of `Walker` (a mixin: it walks through `Walker.body_of`)."""

    def replaced_here(self) -> FrozenSet[str]:
        """The classes the enclosing `try` blocks replace at this point: their handlers', and those a
        handler replaces under a test that guards this point too (`catching.try_frame`)."""
        out: Set[str] = set()
        for frame in self.tries:
            out |= frame.replaced
            for types, test in frame.when:
                code = self.code(test)
                if any(g.kind == "if" and not g.negated and g.test is not None and self.code(g.test) == code for g in self.guards):
                    out |= types
        return frozenset(out)

    def st_Try(self, stmt: cst.Try) -> None:
        collector = TryCollector()
        self.collectors.append(collector)
        caught = []
        for handler in stmt.handlers:
            if handler.type is None:
                caught.append("")
            elif isinstance(handler.type, cst.Tuple):
                caught.extend(self.qualify(el.value) for el in handler.type.elements)
            else:
                caught.append(self.qualify(handler.type))
        self.catching.append(tuple(caught))
        # what the calls in the body raise of these classes does not reach the reader: the handler
        # neither re-raises nor uses it
        self.tries.append(try_frame(stmt.handlers, self.qualify, self.code, stmt.body))
        try:
            self.body_of(stmt)
        finally:
            self.collectors.pop()
            self.catching.pop()
            self.tries.pop()
        earlier: Tuple[str, ...] = ()
        dead = cannot_raise(stmt.body)  # `try: return (statement, params)`: its handlers never run
        for handler in stmt.handlers if not dead else ():
            earlier += self.except_handler(handler, collector, earlier)
        if stmt.orelse is not None:
            self.body_of(stmt.orelse)
        if stmt.finalbody is not None:
            self.body_of(stmt.finalbody)

    st_TryStar = st_Try

    def _checked_request(self, call: cst.Call):
        """`resp.raise_for_status()` in the `try`, with `resp = await client.get(url, ...)` before it:
        the request whose HTTP error the handler catches (its text holds the request's URL)."""
        func = call.func
        if func.__class__ is not cst.Attribute or func.attr.value != "raise_for_status" or func.value.__class__ is not cst.Name:  # exact class tests: see `nodes`
            return None
        return request_call(self.scope.value(func.value.value))

    def except_handler(self, handler: cst.CSTNode, collector: TryCollector, earlier: Tuple[str, ...] = ()) -> Tuple[str, ...]:
        """Walk one `except` clause; returns the types it catches."""
        types: Tuple[str, ...] = ("",)
        if handler.type is not None:
            if isinstance(handler.type, cst.Tuple):
                types = tuple(self.qualify(el.value) or self.code(el.value) for el in handler.type.elements)
            else:
                types = (self.qualify(handler.type) or self.code(handler.type),)
        name = ""
        binding = None
        shadowed: List[Tuple[Reaching, Tuple[cst.CSTNode, tuple]]] = []
        if handler.name is not None and isinstance(handler.name.name, cst.Name):
            name = handler.name.name.value
            caught = types + (("raise_for_status",) if any(c.endswith("raise_for_status") for c in collector.calls) else ())
            requests = tuple(c for c in (request_call(call) or self._checked_request(call) for _, call in collector.nodes) if c is not None)
            binding = Binding("except", caught=caught, tried=tuple(collector.operands), requests=requests)
            self.scope.bind(name, binding)
            binding.order = len(self.scope.order)
            # inside the clause the name is the caught exception, whatever was assigned to it before the
            # `try`; Python unbinds it when the clause ends, so those definitions reach the code after
            shadowed = [(d, d.pop(name)) for d in self.reaching if name in d]
        info = Handler(types, name, tuple(collector.calls), frozenset(collector.reads), handler, tuple(collector.nodes), len(self.guards), earlier, binding,
                       tuple(collector.lookups))
        self.handlers.append(info)
        before = len(self.raw)
        try:
            self.body_of(handler)
        finally:
            self.handlers.pop()
            for d, definition in shadowed:
                d.setdefault(name, definition)
        self._silent_exit(handler, before, types)
        return types

    def _silent_exit(self, handler: cst.CSTNode, before: int, types: Tuple[str, ...] = ("",)) -> None:
        """AEM606(b): a non-zero exit in an except handler that emitted no message at all. Not for
        a handler of an interruption the user made or asked for (Ctrl-C, a closed pipe: `sys.exit(130)`
        after `KeyboardInterrupt`, as shells do)."""
        if any(r.kind != "tool-return" for r in self.raw[before:]) or reports_something(handler):
            return
        if all(t.rsplit(".", 1)[-1] in USER_INTERRUPTIONS for t in types):
            return
        body = handler.body
        stmts = body.body if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)) else []
        flat: List[cst.CSTNode] = []
        for s in stmts:
            flat.extend(s.body if isinstance(s, cst.SimpleStatementLine) else [s])
        for s in flat:
            code = exit_status(s, self)
            if code is not None and code != 0:
                if self.func is not None and forked_child_exit(s, self.func.node, self.qualify):
                    return
                context = self.context()
                self.raw.append(RawSink("exit", "sys.exit", s, None, self.scope, context, {"silent": True, "messageless": True}))
                return

    def caught_names(self) -> Dict[str, Binding]:
        """The names the enclosing `except ... as name` clauses of this function bind here (the
        innermost clause wins). A name the clause rebinds before this point (`for e in e.errors()`,
        `e = ...` under an `if`) is not the exception any more, so it is left out."""
        caught: Dict[str, Binding] = {}
        for handler in self.handlers:
            binding = handler.binding
            if binding is not None and handler.name not in self.scope.order[binding.order:]:
                caught[handler.name] = binding
        return caught
