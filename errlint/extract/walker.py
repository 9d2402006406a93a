"""One pass over a module's CST that finds every error sink and the context around it.

The walk visits statements itself (libcst's generic visitor costs about as much as parsing) and only
descends into expressions to find calls and dict literals. Sinks are recorded raw during the walk and
turned into `Message`s at the end, when every binding in every scope and every tool registration is
known (EM101-style `msg = ...` may be reassigned later; a tool may be registered below its def).

This module holds the statement walk: blocks (the guards, fall-through chains, exits and output runs
around each statement), scopes and reaching definitions, imports, and the compound statements
(if/while/for/with, match). `Walker`'s other parts live in `sink_recording`,
`tool_replies`, `try_blocks`, `definitions`, `bindings` and `file_facts`.
"""
from __future__ import annotations

from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

import libcst as cst

from ..model import Context, FunctionInfo, Guard, Handler
from . import exception_templates, framework_sinks, nodes
from .bindings import BindingNotes, target_names
from .definitions import Definitions
from .file_facts import FactsAssembly, FileFacts, RawSink
from .guards import early_exit, search_miss
from .imports import ImportNotes
from .catching import TryFrame, class_key
from .conditional_appends import extended_by_if, forget_exclusion
from .links import ModuleLinks, carries_message, is_main_test, loop_tables
from .scope import Binding, Reaching, Scope
from .sink_recording import SinkRecording
from .statement_shapes import (HEADER_SINKS, debugger_follows, ends_with_colon, equality_chain, exit_status, exit_status_functions, is_debug_test, match_values, output_runs,
                               prints_later)
from .tool_replies import ToolReplies
from .try_blocks import TryBlocks, TryCollector
from .transient import retry_loop


_ONE_TOKEN = frozenset({cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString})


# Methods that put their arguments into the receiver's value: a list built with `parts.append(x)`
# from an input varies with the input
MUTATORS = frozenset({"append", "extend", "insert", "add", "update", "appendleft", "extendleft", "setdefault"})


class Walker(SinkRecording, ToolReplies, TryBlocks, Definitions, ImportNotes, BindingNotes, FactsAssembly):
    """Walks one module; use `extract(module, logger_objects)`."""

    def __init__(self, module: cst.Module, logger_objects: Iterable[str] = (), server_objects: Iterable[Tuple[str, str]] = (),
                 package: Tuple[str, ...] = (), imported_classes: Iterable[Tuple[str, Tuple[Tuple[str, ...], str]]] = (),
                 module_objects: Iterable[Tuple[str, str]] = (), module_constants: Iterable[Tuple[str, str]] = ()):
        self.module = module
        self.logger_objects = set(logger_objects)
        self.server_objects = dict(server_objects)  # "server.mcp" -> stack: servers other project modules make
        self.imported_classes = dict(imported_classes)  # "errors.NotFound" -> (bases, source): `project_scan.ExceptionClasses`
        self.imported_class_nodes: Dict[str, cst.ClassDef] = {}  # the classes of those this module imports, by name
        self.module_objects = dict(module_objects)  # "store.NOTES" -> "store" | "settings": `project_scan.ModuleObjects`
        self.module_constants = dict(module_constants)  # "texts.USAGE" -> its source: `module_constants.ModuleConstants`
        self.package = package  # the folders the file sits in, for `from . import mcp`
        self.imports: Dict[str, str] = {}
        self.module_scope = Scope("module")
        self.scope = self.module_scope
        self.func: Optional[FunctionInfo] = None
        self.class_name = ""
        self.class_is_exception = False
        self.handlers: List[Handler] = []
        self.guards: List[Guard] = []
        self.collectors: List[TryCollector] = []
        self.catching: List[Tuple[str, ...]] = []
        self.debug_depth = 0
        self.exits_after = False
        self.exit_functions: FrozenSet[str] = frozenset()  # functions whose return value is the exit status
        self.exit_code: Optional[int] = None
        self.output_run: Optional[Tuple[int, int, int]] = None  # (id of the first statement, position, size) of a run of output lines
        self.block_at: Optional[Tuple[List[cst.CSTNode], int]] = None  # the statement's block and its index there
        self.stdio = False
        self.before_stdio_run = False  # a top-level statement of a block that later starts a stdio server
        self.loggers: Set[str] = set()
        self.logger_methods: Dict[str, str] = {}
        self.stderr_names: Set[str] = set()
        self.consoles: Dict[str, bool] = {}  # rich Console objects by name: True when they write to stderr
        self.parsers: Set[str] = set()
        self.servers: Dict[str, str] = {}
        self.server_elsewhere = False  # a server object this module uses is made by another project module
        self.stacks: Set[str] = set()
        self.mask_error_details = False
        self.registrations: List[Tuple[str, str, str, str]] = []  # (function, tool name, stack, server)
        self.callbacks: Set[str] = set()
        self.argparse_calls: List[cst.Call] = []  # `add_argument(...)` and `set_defaults(...)`, for `input_origins`
        self.lowlevel2: Set[str] = set()
        self.exception_classes: Dict[str, bool] = {}  # name -> has a default message
        self.class_bases: Dict[str, Tuple[str, ...]] = {}
        self.functions: List[FunctionInfo] = []
        self.module_calls: Set[str] = set()
        self.raw: List[RawSink] = []
        self.helper_calls: List[RawSink] = []  # calls passing text to what may be a sink helper (`sink_helpers`)
        self.choices_made = False  # some `if` made a conditional `+=` addition (see `_reach`)
        self.reaching: List[Reaching] = []  # per block being walked: the plain assignments that reach here
        self.links = ModuleLinks()
        self.main_depth = 0
        self.tries: List[TryFrame] = []  # per enclosing `try`: what its handlers replace and relay
        self.returned: Optional[list] = None  # the `returned` list of the function being walked (scope.Binding)
        self.returns: List[list] = []  # every function's `returned` list (`FileFacts.release`)
        self.after_retries = False  # the statement follows a loop that retried a transient failure
        self._mcp_text: Optional[bool] = None  # the module names MCP's methods (`ToolReplies.speaks_mcp`)
        self.before_reply = False  # the next statement of the block is a raise or a return of a value
        self.exc_registry = exception_templates.Registry()
        self.error_tables = framework_sinks.ErrorTables()

    # ------------------------------------------------------------------ names
    def code(self, node: cst.CSTNode) -> str:
        if node.__class__ in _ONE_TOKEN and not node.lpar and not node.rpar:
            return node.value  # what codegen writes for it, without building a codegen state
        return self.module.code_for_node(node)

    def qualify(self, node: Optional[cst.CSTNode]) -> str:
        text = nodes.dotted(node)
        if not text:
            return ""
        head, dot, rest = text.partition(".")
        target = self.imports.get(head)
        if target and not self._shadowed(head):
            return target + (dot + rest if rest else "")
        return text

    def _shadowed(self, name: str) -> bool:
        if self.scope is self.module_scope:
            return False
        found = self.scope.bindings.get(name)
        return bool(found)

    # ------------------------------------------------------------------ statements
    def run(self) -> FileFacts:
        self.exit_functions = exit_status_functions(self.module.body)
        self.block(self.module.body)
        return self.finish()

    def block(self, body: Sequence[cst.CSTNode]) -> None:
        flat: List[cst.CSTNode] = []
        for stmt in body:
            if stmt.__class__ is cst.SimpleStatementLine:  # exact class test: see `nodes`
                flat.extend(stmt.body)
            else:
                flat.append(stmt)
        # (each helper below answers None or False for every other statement class: not called then)
        exit_at = [exit_status(s, self) if s.__class__ in _EXIT_CLASSES else None for s in flat]
        # the first known exit status after each statement (one pass back, not a scan per statement)
        next_exit: List[Optional[int]] = [None] * len(flat)
        for i in range(len(flat) - 2, -1, -1):
            following = exit_at[i + 1]
            next_exit[i] = following if following is not None else next_exit[i + 1]
        runs = output_runs(flat)
        serve_at = max((i for i, s in enumerate(flat) if self._starts_stdio(s)), default=-1) if self.stacks else -1
        chains: Dict[str, List[str]] = {}
        saved_exit = (self.exits_after, self.exit_code, self.output_run, self.before_stdio_run, self.block_at, self.after_retries)
        saved_reply = self.before_reply
        defs: Reaching = {}
        self.reaching.append(defs)
        failed_exit = False
        for i, stmt in enumerate(flat):
            self.before_reply = i + 1 < len(flat) and flat[i + 1].__class__ in _EXIT_CLASSES and carries_message(flat[i + 1], self)
            self.exit_code = next_exit[i]
            self.exits_after = self.exit_code is not None and self.exit_code > 0  # -1: a computed status, not known to fail
            self.output_run = runs[i]
            self.block_at = (flat, i)
            self.before_stdio_run = i < serve_at
            pushed = 0
            for subject, values in chains.items():
                self.guards.append(Guard("fallthrough", subject=subject, values=tuple(values)))
                pushed += 1
            missed = search_miss(flat[i - 1]) if i and flat[i - 1].__class__ is cst.For and flat[i - 1].orelse is None else None
            if missed is not None:
                self.guards.append(Guard("if", test=missed))  # after a search that returns what it finds
                pushed += 1
            if i and flat[i - 1].__class__ is cst.If and early_exit(flat[i - 1]) and not chains and not failed_exit:
                # `if ok(x): return value` then the sink: the sink runs only when the check failed (an
                # exit that itself reports an error is a failure branch; what follows passed its check)
                self.guards.append(Guard("if", test=flat[i - 1].test, negated=True))
                pushed += 1
            scope, mark, emitted = self.scope, len(self.scope.order), len(self.raw)
            before_if = self.reaching_now() if stmt.__class__ is cst.If else None  # exact class test: see `nodes`
            try:
                self.statement(stmt)
            finally:
                del self.guards[len(self.guards) - pushed:]
            # a tool's every return is recorded (most statements record nothing: no scan then)
            failed_exit = len(self.raw) > emitted and any(r.kind != "tool-return" for r in self.raw[emitted:])
            if len(scope.order) > mark:
                self._reach(defs, stmt, set(scope.order[mark:]), before_if)
            if not self.after_retries and stmt.__class__ in _LOOP_CLASSES and retry_loop(stmt):
                self.after_retries = True  # the rest of this block runs once the retries ran out
            chain = equality_chain(stmt) if stmt.__class__ is cst.If else None
            if chain is not None:
                subject, values = chain
                chains.setdefault(subject, []).extend(values)
        self.reaching.pop()
        self.exits_after, self.exit_code, self.output_run, self.before_stdio_run, self.block_at, self.after_retries = saved_exit
        self.before_reply = saved_reply

    def _reach(self, defs: Reaching, stmt: cst.CSTNode, bound: Set[str], before_if: Optional[Reaching] = None) -> None:
        """Update the reaching definitions after `stmt`, which bound the names in `bound`: a plain
        `name = value` (or `name += value` after one, or an `if` whose branches only do that, given
        `before_if`, the definitions that reached it) reaches the statements after it; any other
        binding hides every earlier one."""
        kind = stmt.__class__  # exact class tests: see `nodes`
        added = kind is cst.AugAssign and isinstance(stmt.operator, cst.AddAssign) and isinstance(stmt.target, cst.Name)
        # only `name += value` needs the definition it extends (the innermost block's wins)
        prior = next((d[stmt.target.value] for d in reversed(self.reaching) if stmt.target.value in d), None) if added else None
        # `if c: name += a` [elif/else]: the definition before it, extended by one of the branches
        choices = extended_by_if(stmt, bound, before_if) if before_if else {}
        for d in self.reaching:
            for name in bound:
                d.pop(name, None)
            if self.choices_made:  # most files make none: no scan then
                forget_exclusion(d, bound)
        if kind is cst.Assign and len(stmt.targets) == 1 and isinstance(stmt.targets[0].target, cst.Name):
            defs[stmt.targets[0].target.value] = (stmt.value, ())
        elif kind is cst.AnnAssign and stmt.value is not None and isinstance(stmt.target, cst.Name):
            defs[stmt.target.value] = (stmt.value, ())
        elif prior is not None:
            defs[stmt.target.value] = (prior[0], prior[1] + (stmt.value,))
        if choices:
            defs.update(choices)
            self.choices_made = True

    def reaching_now(self) -> Reaching:
        merged: Reaching = {}
        for d in self.reaching:
            merged.update(d)
        return merged

    def body_of(self, node: cst.CSTNode) -> None:
        body = getattr(node, "body", None)
        if body.__class__ is cst.IndentedBlock or body.__class__ is cst.SimpleStatementSuite:  # exact class tests: see `nodes`
            self.block(body.body)
        elif isinstance(body, (list, tuple)):
            self.block(body)

    def statement(self, stmt: cst.CSTNode) -> None:
        cls = stmt.__class__
        try:
            handler = _HANDLERS[cls]
        except KeyError:  # looked up once a statement class, not once a statement
            handler = _HANDLERS[cls] = getattr(Walker, "st_" + cls.__name__, None)
        if handler is not None:
            handler(self, stmt)
        else:
            for child in nodes.children(stmt):
                if isinstance(child, cst.BaseExpression):
                    self.scan(child)

    # simple statements ---------------------------------------------------------------
    def st_Expr(self, stmt: cst.Expr) -> None:
        self.scan(stmt.value)
        value = stmt.value
        if value.__class__ is cst.Call and value.func.__class__ is cst.Attribute and value.args:
            receiver = value.func.value
            if receiver.__class__ is cst.Name and value.func.attr.value in MUTATORS:
                self.scope.mutations.setdefault(receiver.value, []).extend(a.value for a in value.args)

    def st_Assign(self, stmt: cst.Assign) -> None:
        self.scan(stmt.value)
        for target in stmt.targets:
            self.bind_target(target.target, stmt.value)

    def st_AnnAssign(self, stmt: cst.AnnAssign) -> None:
        if stmt.value is not None:
            self.scan(stmt.value)
            self.bind_target(stmt.target, stmt.value)

    def st_AugAssign(self, stmt: cst.AugAssign) -> None:
        self.scan(stmt.value)
        if isinstance(stmt.target, cst.Name):
            kind = "aug" if isinstance(stmt.operator, cst.AddAssign) else "other"
            self.scope.bind(stmt.target.value, Binding(kind, stmt.value))

    def st_Global(self, stmt: cst.Global) -> None:
        for item in stmt.names:
            self.scope.bind(item.name.value, Binding("other"))

    st_Nonlocal = st_Global

    # compound statements -------------------------------------------------------------
    def st_If(self, stmt: cst.If) -> None:
        self.scan(stmt.test)
        debug = is_debug_test(stmt.test)
        main = self.func is None and is_main_test(stmt.test)
        self.guards.append(Guard("if", test=stmt.test))
        self.debug_depth += debug
        self.main_depth += main
        try:
            self.body_of(stmt)
        finally:
            self.debug_depth -= debug
            self.main_depth -= main
            self.guards.pop()
        orelse = stmt.orelse
        if orelse is None:
            return
        self.guards.append(Guard("if", test=stmt.test, negated=True))
        try:
            if isinstance(orelse, cst.If):
                self.st_If(orelse)
            else:
                self.body_of(orelse)
        finally:
            self.guards.pop()

    def st_While(self, stmt: cst.While) -> None:
        self.scan(stmt.test)
        self.body_of(stmt)
        if stmt.orelse is not None:
            self.body_of(stmt.orelse)

    def st_For(self, stmt: cst.For) -> None:
        self.scan(stmt.iter)
        for name in target_names(stmt.target):
            self.scope.bind(name, Binding("loop", stmt.iter))
        for name, listed in loop_tables(stmt.target, stmt.iter):
            refs = self.links.table_refs(listed, self)  # `for caster in (boolify, int): caster(s)` calls each
            if refs:
                self.links.tables[name] = refs
        if stmt.target.__class__ is cst.Name and stmt.iter.__class__ is cst.Name and stmt.iter.value in self.links.tables:
            self.links.tables[stmt.target.value] = self.links.tables[stmt.iter.value]  # `for load in LOADERS:`
        self.body_of(stmt)
        if stmt.orelse is not None:
            missed = search_miss(stmt, (cst.Return, cst.Break))  # `for ...: if x == y: break` `else:` runs on a miss
            if missed is not None:
                self.guards.append(Guard("if", test=missed))
            try:
                self.body_of(stmt.orelse)
            finally:
                if missed is not None:
                    self.guards.pop()

    def st_With(self, stmt: cst.With) -> None:
        suppressed: List[str] = []
        for item in stmt.items:
            self.scan(item.item)
            if item.asname is not None:
                for name in target_names(item.asname.name):
                    self.scope.bind(name, Binding("with", item.item))
            if item.item.__class__ is cst.Call and self.qualify(item.item.func) == "contextlib.suppress":
                suppressed.extend(self.qualify(a.value) or self.code(a.value) for a in item.item.args)
        if not suppressed:
            self.body_of(stmt)
            return
        # `with contextlib.suppress(ValueError):` is a `try` whose handler swallows those classes
        self.catching.append(tuple(suppressed))
        self.tries.append(TryFrame(frozenset(class_key(t) for t in suppressed)))
        try:
            self.body_of(stmt)
        finally:
            self.catching.pop()
            self.tries.pop()

    def st_Match(self, stmt: cst.CSTNode) -> None:
        self.scan(stmt.subject)
        subject = self.code(stmt.subject)
        seen: List[str] = []
        for case in stmt.cases:
            values = match_values(case.pattern)
            wildcard = isinstance(case.pattern, cst.MatchAs) and case.pattern.pattern is None
            pushed = False
            if wildcard and seen:
                self.guards.append(Guard("fallthrough", subject=subject, values=tuple(seen)))
                pushed = True
            try:
                self.body_of(case)
            finally:
                if pushed:
                    self.guards.pop()
            if values:
                seen.extend(values)


    # ------------------------------------------------------------------ recording
    def context(self) -> Context:
        return Context(
            function=self.func,
            handlers=tuple(reversed(self.handlers)),
            guards=tuple(reversed(self.guards)),
            class_name=self.class_name,
            in_debug_branch=self.debug_depth > 0,
            exits_after=self.exits_after,
            exit_code=self.exit_code,
            catching=tuple(t for group in reversed(self.catching) for t in group),
            replacing=self.replaced_here(),
            after_retries=self.after_retries,
        )

    def record(self, kind: str, callee: str, node: cst.CSTNode, expr: Optional[cst.CSTNode], args: Sequence[cst.CSTNode] = (), **extra: object) -> None:
        self.raw.append(self.raw_sink(kind, callee, node, expr, args, **extra))

    def raw_sink(self, kind: str, callee: str, node: cst.CSTNode, expr: Optional[cst.CSTNode], args: Sequence[cst.CSTNode] = (), **extra: object) -> RawSink:
        """A sink as it stands at this point of the walk: its place (output run, header, `__main__`
        block), scope, context and the names that reach it."""
        if self.output_run is not None and "run" not in extra:
            extra["run"] = self.output_run
        if kind in HEADER_SINKS and expr is not None and ends_with_colon(expr) and self.block_at is not None and prints_later(*self.block_at):
            extra["header"] = True  # "Errors from pip install:" and the lines printed after it
        if kind == "stdout" and self.block_at is not None and debugger_follows(*self.block_at, self.qualify):
            extra["before_debugger"] = True  # "dropping into pdb..." then `pdb.post_mortem(tb)`
        if self.main_depth and self.func is None:
            extra["main"] = True
        return RawSink(kind, callee, node, expr, self.scope, self.context(), dict(extra), args, self.reaching_now(), self.caught_names())


_HANDLERS: Dict[type, Optional[Callable[[Walker, cst.CSTNode], None]]] = {}  # statement class -> Walker.st_<class>
# the statement classes `exit_status` and `carries_message` can answer for, and `retry_loop`'s
_EXIT_CLASSES = frozenset({cst.Return, cst.Expr, cst.Raise})
_LOOP_CLASSES = frozenset({cst.For, cst.While, cst.With})


def extract(module: cst.Module, logger_objects: Iterable[str] = (), server_objects: Iterable[Tuple[str, str]] = (),
            package: Tuple[str, ...] = (), imported_classes: Iterable[Tuple[str, Tuple[Tuple[str, ...], str]]] = (),
            module_objects: Iterable[Tuple[str, str]] = (), module_constants: Iterable[Tuple[str, str]] = ()) -> FileFacts:
    """Find every message in `module`.

    `logger_objects` are qualified names (`myapp.obs.AUDIT`) to treat as loggers besides
    `logging.getLogger()` results and logger-named variables; `server_objects` the MCP server
    objects other project modules make (`project_scan.ServerObjects`), and `package` the folders the
    file sits in; `imported_classes` the exception classes project modules define
    (`project_scan.ExceptionClasses`), `module_objects` their stores and settings objects
    (`project_scan.ModuleObjects`), `module_constants` the constants they define that modules import.
    """
    return Walker(module, logger_objects, server_objects, package, imported_classes, module_objects, module_constants).run()
