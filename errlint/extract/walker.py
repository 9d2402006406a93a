"""One pass over a module's CST that finds every error sink and the context around it.

The walk visits statements itself (libcst's generic visitor costs about as much as parsing) and only
descends into expressions to find calls and dict literals. Sinks are recorded raw during the walk and
turned into `Message`s at the end, when every binding in every scope and every tool registration is
known (EM101-style `msg = ...` may be reassigned later; a tool may be registered below its def).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import libcst as cst

from ..model import Context, FunctionInfo, Guard, Handler, Message, Param, Template, ToolInfo
from . import exception_templates, framework_sinks, nodes
from .guards import early_exit
from .scope import Binding, Reaching, ReachingScope, Scope
from .sinks import (
    ARG_MESSAGE_KEYWORDS,
    BUILTIN_EXCEPTIONS,
    LOG_METHODS,
    NOT_MESSAGES,
    PROFILE_OF_KIND,
    Spec,
    classify_callee,
    server_stack,
)
from .links import ModuleLinks, carries_message, error_text, flow_callees, function_refs, is_main_test, replaces_exception, reply_candidate
from .templates import TemplateBuilder, join, percent_template

DEFAULT_MESSAGE_ATTRS = {
    "message", "msg", "detail", "default_detail", "default_message", "template", "message_template",
    "description", "error_message", "default_msg", "msg_template", "reason",
}
VALIDATOR_DECORATORS = {"field_validator", "model_validator", "validator", "root_validator"}
LOGGER_FACTORIES = {"logging.getLogger", "structlog.get_logger", "structlog.getLogger", "logging.getLoggerClass"}
LOGGER_NAME = re.compile(r"^_*(log|logger|logging|_?lg)$|logger$|_log$", re.I)
DEBUG_NAME = re.compile(r"^(__debug__|debug|verbose|verbosity|trace|dev_mode|show_traceback|show_tracebacks)$|_debug$|^debug_", re.I)
MAX_TRY_OPERANDS = 16
STDERR_QUALIFIED = {"sys.stderr", "sys.__stderr__", "sys.stderr.buffer", "sys.__stderr__.buffer"}
RICH_CONSOLES = {"rich.console.Console", "rich.Console"}
# calls that tell the user something: a handler that makes one before exiting is not silent, even
# when errlint cannot tell which channel the output goes to
OUTPUT_CALL = re.compile(r"print|echo|log|write|error|warn|exception|critical|fail|abort|report|show|display|notify|emit", re.I)


@dataclass(eq=False)
class RawSink:
    """A sink as seen during the walk, before names are resolved."""

    kind: str
    callee: str
    node: cst.CSTNode
    expr: Optional[cst.CSTNode]
    scope: Scope
    context: Context
    extra: dict = field(default_factory=dict)
    args: Sequence[cst.CSTNode] = ()
    reaching: Reaching = field(default_factory=dict)


@dataclass(eq=False)
class FileFacts:
    """What extraction found in one module."""

    module: cst.Module
    messages: List[Message]
    tools: List[ToolInfo]
    functions: List[FunctionInfo]
    stacks: Set[str]
    imports: Dict[str, str]
    mask_error_details: bool = False
    class_bases: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # class name -> qualified bases
    stdio: bool = False  # the module runs an MCP server over stdio (`mcp.run()`, `stdio_server()`, ...)
    links: Optional[ModuleLinks] = None


@dataclass(eq=False)
class _TryCollector:
    calls: List[str] = field(default_factory=list)
    reads: Set[str] = field(default_factory=set)
    # what the try body's calls operate on (first argument, the object of a method call): the path an
    # OSError caught here names in its text (`open(p)`, `p.read_text()`)
    operands: List[cst.CSTNode] = field(default_factory=list)
    nodes: List[Tuple[str, cst.Call]] = field(default_factory=list)


class Walker:
    """Walks one module; use `extract(module, logger_objects)`."""

    def __init__(self, module: cst.Module, logger_objects: Iterable[str] = ()):
        self.module = module
        self.logger_objects = set(logger_objects)
        self.imports: Dict[str, str] = {}
        self.module_scope = Scope("module")
        self.scope = self.module_scope
        self.func: Optional[FunctionInfo] = None
        self.class_name = ""
        self.class_is_exception = False
        self.handlers: List[Handler] = []
        self.guards: List[Guard] = []
        self.collectors: List[_TryCollector] = []
        self.catching: List[Tuple[str, ...]] = []
        self.debug_depth = 0
        self.exits_after = False
        self.exit_code: Optional[int] = None
        self.output_run: Optional[Tuple[int, int, int]] = None  # (id of the first statement, position, size) of a run of output lines
        self.stdio = False
        self.before_stdio_run = False  # a top-level statement of a block that later starts a stdio server
        self.loggers: Set[str] = set()
        self.logger_methods: Dict[str, str] = {}
        self.stderr_names: Set[str] = set()
        self.consoles: Dict[str, bool] = {}  # rich Console objects by name: True when they write to stderr
        self.parsers: Set[str] = set()
        self.servers: Dict[str, str] = {}
        self.stacks: Set[str] = set()
        self.mask_error_details = False
        self.registrations: List[Tuple[str, str, str, str]] = []  # (function, tool name, stack, server)
        self.callbacks: Set[str] = set()
        self.lowlevel2: Set[str] = set()
        self.exception_classes: Dict[str, bool] = {}  # name -> has a default message
        self.class_bases: Dict[str, Tuple[str, ...]] = {}
        self.functions: List[FunctionInfo] = []
        self.module_calls: Set[str] = set()
        self.raw: List[RawSink] = []
        self.reaching: List[Reaching] = []  # per block being walked: the plain assignments that reach here
        self.links = ModuleLinks()
        self.main_depth = 0
        self.guarded_calls: List[Set[str]] = []
        self.before_reply = False  # the next statement of the block is a raise or a return of a value
        self.exc_registry = exception_templates.Registry()
        self.error_tables = framework_sinks.ErrorTables()

    # ------------------------------------------------------------------ names
    def code(self, node: cst.CSTNode) -> str:
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
        self.block(self.module.body)
        return self.finish()

    def block(self, body: Sequence[cst.CSTNode]) -> None:
        flat: List[cst.CSTNode] = []
        for stmt in body:
            if isinstance(stmt, cst.SimpleStatementLine):
                flat.extend(stmt.body)
            else:
                flat.append(stmt)
        exit_at = [_exit_code(s, self) for s in flat]
        runs = _output_runs(flat)
        serve_at = max((i for i, s in enumerate(flat) if self.stacks and self._starts_stdio(s)), default=-1)
        chains: Dict[str, List[str]] = {}
        saved_exit = (self.exits_after, self.exit_code, self.output_run, self.before_stdio_run)
        saved_reply = self.before_reply
        defs: Reaching = {}
        self.reaching.append(defs)
        failed_exit = False
        for i, stmt in enumerate(flat):
            self.before_reply = i + 1 < len(flat) and carries_message(flat[i + 1], self)
            later = [c for c in exit_at[i + 1:] if c is not None]
            self.exits_after = bool(later) and later[0] > 0  # -1: a computed status, not known to fail
            self.exit_code = later[0] if later else None
            self.output_run = runs[i]
            self.before_stdio_run = i < serve_at
            pushed = 0
            for subject, values in chains.items():
                self.guards.append(Guard("fallthrough", subject=subject, values=tuple(values)))
                pushed += 1
            if early_exit(flat[i - 1] if i else None) and not chains and not failed_exit:
                # `if ok(x): return value` then the sink: the sink runs only when the check failed (an
                # exit that itself reports an error is a failure branch; what follows passed its check)
                self.guards.append(Guard("if", test=flat[i - 1].test, negated=True))
                pushed += 1
            scope, mark, emitted = self.scope, len(self.scope.order), len(self.raw)
            try:
                self.statement(stmt)
            finally:
                del self.guards[len(self.guards) - pushed:]
            failed_exit = any(r.kind != "tool-return" for r in self.raw[emitted:])  # a tool's every return is recorded
            if len(scope.order) > mark:
                self._reach(defs, stmt, set(scope.order[mark:]))
            chain = _equality_chain(stmt)
            if chain is not None:
                subject, values = chain
                chains.setdefault(subject, []).extend(values)
        self.reaching.pop()
        self.exits_after, self.exit_code, self.output_run, self.before_stdio_run = saved_exit
        self.before_reply = saved_reply

    def _reach(self, defs: Reaching, stmt: cst.CSTNode, bound: Set[str]) -> None:
        """Update the reaching definitions after `stmt`, which bound the names in `bound`: a plain
        `name = value` (or `name += value` after one) reaches the statements after it; any other
        binding hides every earlier one."""
        added = isinstance(stmt, cst.AugAssign) and isinstance(stmt.operator, cst.AddAssign) and isinstance(stmt.target, cst.Name)
        # only `name += value` needs the definition it extends (the innermost block's wins)
        prior = next((d[stmt.target.value] for d in reversed(self.reaching) if stmt.target.value in d), None) if added else None
        for d in self.reaching:
            for name in bound:
                d.pop(name, None)
        if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0].target, cst.Name):
            defs[stmt.targets[0].target.value] = (stmt.value, ())
        elif isinstance(stmt, cst.AnnAssign) and stmt.value is not None and isinstance(stmt.target, cst.Name):
            defs[stmt.target.value] = (stmt.value, ())
        elif prior is not None:
            defs[stmt.target.value] = (prior[0], prior[1] + (stmt.value,))

    def reaching_now(self) -> Reaching:
        merged: Reaching = {}
        for d in self.reaching:
            merged.update(d)
        return merged

    def body_of(self, node: cst.CSTNode) -> None:
        body = getattr(node, "body", None)
        if isinstance(body, cst.IndentedBlock):
            self.block(body.body)
        elif isinstance(body, cst.SimpleStatementSuite):
            self.block(body.body)
        elif isinstance(body, (list, tuple)):
            self.block(body)

    def statement(self, stmt: cst.CSTNode) -> None:
        handler = getattr(self, "st_" + type(stmt).__name__, None)
        if handler is not None:
            handler(stmt)
        else:
            for child in nodes.children(stmt):
                if isinstance(child, cst.BaseExpression):
                    self.scan(child)

    # simple statements ---------------------------------------------------------------
    def st_Expr(self, stmt: cst.Expr) -> None:
        self.scan(stmt.value)

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

    def st_Return(self, stmt: cst.Return) -> None:
        if stmt.value is None:
            return
        self.scan(stmt.value)
        if self.func is not None:
            self.func.rets |= flow_callees(stmt.value, self)
            if self.func.role not in ("tool", "lowlevel"):
                literal = reply_candidate(stmt.value, self.scope)
                if literal is not None:  # error text a tool may return: judged once the project shows one does
                    self.record("tool-return", "", stmt, literal, helper=True)
                    text = error_text(literal)
                    if text is not None:
                        self.record("tool-result", "helper", stmt, text, helper=True, is_error=True)
        if self.func is not None and (self.func.role in ("tool", "lowlevel") or self.stacks):
            value = stmt.value
            if isinstance(value, (cst.List, cst.Tuple)) and any(isinstance(el.value, cst.Call) and nodes.last_name(el.value.func) == "TextContent" for el in value.elements):
                for text in self._content_texts(value):
                    self.record("tool-return", "TextContent", stmt, text)
            else:
                self.record("tool-return", "", stmt, value)

    def st_Raise(self, stmt: cst.Raise) -> None:
        exc = stmt.exc
        if exc is None:
            return
        call: Optional[cst.Call] = exc if isinstance(exc, cst.Call) else None
        if call is None and isinstance(exc, cst.Name):
            reaching = self.reaching_now().get(exc.value)
            bound = reaching[0] if reaching else self.scope.value(exc.value)
            if isinstance(bound, cst.Call):
                call = bound
        if isinstance(exc, cst.Call):
            for arg in exc.args:
                self.scan(arg.value)
        if stmt.cause is not None:
            self.scan(stmt.cause)
        callee = self.qualify(call.func if call is not None else exc)
        if not callee and call is not None and isinstance(call.func, cst.Call):
            return
        last = callee.rsplit(".", 1)[-1]
        if callee in NOT_MESSAGES or last in NOT_MESSAGES:
            if last == "SystemExit" and call is not None:
                self.exit_call(call, callee, stmt)
            return
        composed = self.exc_registry.compose(callee, call) if callee in self.exc_registry.classes else None
        if composed is not None:
            self.record("raise", callee, call if call is exc else stmt, call if call is not None else exc, raised=True, composed=composed)
            return
        spec = classify_callee(callee)
        if call is not None and spec is not None:
            if call is exc:
                self.spec_sink(spec, call, callee, raised=True)
            return
        if call is None or not call.args:
            if last in BUILTIN_EXCEPTIONS or self.exception_classes.get(callee) is False:
                self.record("raise", callee, stmt, None, messageless=True, raised=True)
            return
        position = 0
        args = nodes.positional_args(call)
        if last.endswith(("OSError", "IOError", "Error")) and len(args) >= 2 and _is_errno(args[0]):
            position = 1
        expr = nodes.call_arg(call, position, *ARG_MESSAGE_KEYWORDS)
        if expr is None:
            return
        self.record("raise", callee, call if call is exc else stmt, expr, raised=True)

    def st_Assert(self, stmt: cst.Assert) -> None:
        self.scan(stmt.test)
        if stmt.msg is not None and self.func is not None and self.func.role == "validator":
            self.record("validator", "assert", stmt, stmt.msg)

    def st_Import(self, stmt: cst.Import) -> None:
        for alias in stmt.names:
            full = nodes.dotted(alias.name)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
                self.imports[local] = full
            else:
                local = full.split(".", 1)[0]
                self.imports[local] = local
            self.scope.bind(local, Binding("import", qualified=self.imports[local]))
            self._note_stack(full)

    def st_ImportFrom(self, stmt: cst.ImportFrom) -> None:
        module = nodes.dotted(stmt.module) if stmt.module is not None else ""
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
            self.scope.bind(local, Binding("import", qualified=qualified))
            self._note_stack(qualified)
            if qualified in STDERR_QUALIFIED:
                self.stderr_names.add(local)
            if qualified in self.logger_objects:
                self.loggers.add(local)

    def st_Global(self, stmt: cst.Global) -> None:
        for item in stmt.names:
            self.scope.bind(item.name.value, Binding("other"))

    st_Nonlocal = st_Global

    # compound statements -------------------------------------------------------------
    def st_If(self, stmt: cst.If) -> None:
        self.scan(stmt.test)
        debug = _is_debug_test(stmt.test)
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
        for name in _target_names(stmt.target):
            self.scope.bind(name, Binding("loop", stmt.iter))
        self.body_of(stmt)
        if stmt.orelse is not None:
            self.body_of(stmt.orelse)

    def st_With(self, stmt: cst.With) -> None:
        for item in stmt.items:
            self.scan(item.item)
            if item.asname is not None:
                for name in _target_names(item.asname.name):
                    self.scope.bind(name, Binding("with", item.item))
        self.body_of(stmt)

    def st_Try(self, stmt: cst.Try) -> None:
        collector = _TryCollector()
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
        # calls in the body of a try whose catch-all handler sends its own text (it neither re-raises
        # nor uses the exception): what they raise does not reach the reader
        replaced = self.func is not None and any(replaces_exception(h, self) for h in stmt.handlers)
        if replaced:
            self.guarded_calls.append(set())
        try:
            self.body_of(stmt)
        finally:
            self.collectors.pop()
            self.catching.pop()
            if replaced:
                self.func.guarded |= self.guarded_calls.pop()
        for handler in stmt.handlers:
            self.except_handler(handler, collector)
        if stmt.orelse is not None:
            self.body_of(stmt.orelse)
        if stmt.finalbody is not None:
            self.body_of(stmt.finalbody)

    st_TryStar = st_Try

    def except_handler(self, handler: cst.CSTNode, collector: _TryCollector) -> None:
        types: Tuple[str, ...] = ("",)
        if handler.type is not None:
            if isinstance(handler.type, cst.Tuple):
                types = tuple(self.qualify(el.value) or self.code(el.value) for el in handler.type.elements)
            else:
                types = (self.qualify(handler.type) or self.code(handler.type),)
        name = ""
        if handler.name is not None and isinstance(handler.name.name, cst.Name):
            name = handler.name.name.value
            caught = types + (("raise_for_status",) if any(c.endswith("raise_for_status") for c in collector.calls) else ())
            self.scope.bind(name, Binding("except", caught=caught, tried=tuple(collector.operands)))
        info = Handler(types, name, tuple(collector.calls), frozenset(collector.reads), handler, tuple(collector.nodes))
        self.handlers.append(info)
        before = len(self.raw)
        try:
            self.body_of(handler)
        finally:
            self.handlers.pop()
        self._silent_exit(handler, before)

    def _silent_exit(self, handler: cst.CSTNode, before: int) -> None:
        """AEM606(b): a non-zero exit in an except handler that emitted no message at all."""
        if any(r.kind != "tool-return" for r in self.raw[before:]) or _reports_something(handler):
            return
        body = handler.body
        stmts = body.body if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)) else []
        flat: List[cst.CSTNode] = []
        for s in stmts:
            flat.extend(s.body if isinstance(s, cst.SimpleStatementLine) else [s])
        for s in flat:
            code = _exit_code(s, self)
            if code is not None and code != 0:
                context = self.context()
                self.raw.append(RawSink("exit", "sys.exit", s, None, self.scope, context, {"silent": True, "messageless": True}))
                return

    def st_Match(self, stmt: cst.CSTNode) -> None:
        self.scan(stmt.subject)
        subject = self.code(stmt.subject)
        seen: List[str] = []
        for case in stmt.cases:
            values = _match_values(case.pattern)
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

    def st_FunctionDef(self, stmt: cst.FunctionDef) -> None:
        for deco in stmt.decorators:
            self.scan(deco.decorator)
        params = _params(stmt.params, self)
        decorators = tuple(self.qualify(_decorator_target(d.decorator)) or self.code(_decorator_target(d.decorator)) for d in stmt.decorators)
        info = FunctionInfo(
            name=stmt.name.value,
            params=params,
            decorators=decorators,
            class_name=self.class_name,
            is_async=stmt.asynchronous is not None,
            node=stmt,
            parent=self.func,
            qualname=(self.func.qualname + "." if self.func is not None else self.class_name + "." if self.class_name else "") + stmt.name.value,
        )
        self._role(info, stmt)
        info.aliases = self._cli_aliases(stmt)
        self.functions.append(info)
        self.scope.bind(stmt.name.value, Binding("def", stmt))
        scope = Scope("function", parent=self.scope if self.scope.kind == "function" else self.module_scope)
        for p in params:
            scope.bind(p.name, Binding("param", param=p))
        saved = (self.func, self.scope, self.handlers, self.guards, self.collectors, self.catching, self.debug_depth)
        self.func, self.scope = info, scope
        self.handlers, self.guards, self.collectors, self.catching, self.debug_depth = [], [], [], [], 0
        try:
            self.body_of(stmt)
        finally:
            self.func, self.scope, self.handlers, self.guards, self.collectors, self.catching, self.debug_depth = saved

    def st_ClassDef(self, stmt: cst.ClassDef) -> None:
        bases = [self.qualify(arg.value) or self.code(arg.value) for arg in stmt.bases if arg.keyword is None]
        if self.func is None:
            self.links.classes[stmt.name.value] = tuple(bases)
        is_exc = any(_looks_exception(b) or self.exception_classes.get(b) is not None for b in bases)
        self.class_bases[stmt.name.value] = tuple(bases)
        self.scope.bind(stmt.name.value, Binding("class", stmt))
        saved = (self.class_name, self.class_is_exception, self.scope)
        self.class_name, self.class_is_exception = stmt.name.value, is_exc
        self.scope = Scope("class", parent=self.module_scope if saved[2].kind == "module" else saved[2])
        has_default = False
        try:
            body = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else stmt.body.body
            for item in body:
                smalls = item.body if isinstance(item, cst.SimpleStatementLine) else []
                for small in smalls:
                    if is_exc and isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None:
                        target = small.targets[0].target if isinstance(small, cst.Assign) else small.target
                        if isinstance(target, cst.Name) and target.value in DEFAULT_MESSAGE_ATTRS and nodes.string_value(small.value) is not None:
                            has_default = True
                            self.record("class-default", stmt.name.value, small, small.value, judged_at=stmt.name.value)
                if isinstance(item, cst.FunctionDef) and item.name.value == "__init__":
                    has_default = True
            self.exception_classes[stmt.name.value] = has_default if is_exc else None  # type: ignore[assignment]
            if is_exc:
                self.exc_registry.add(exception_templates.collect(stmt, bases))
            self.error_tables.define(self, stmt, bases)
            if not is_exc:
                self.exception_classes.pop(stmt.name.value, None)
            self.body_of(stmt)
        finally:
            self.class_name, self.class_is_exception, self.scope = saved

    # ------------------------------------------------------------------ expressions
    def scan(self, expr: cst.CSTNode) -> None:
        """Find sink calls and `isError` dicts anywhere in an expression."""
        for node in nodes.iter_expr(expr):
            cls = node.__class__
            if cls is cst.Call:
                self.call(node)
            elif cls is cst.Dict:
                self.dict_literal(node)
            elif cls is cst.Tuple and self.func is not None:
                framework_sinks.on_tuple(self, node)

    def call(self, call: cst.Call) -> None:
        func = call.func
        if isinstance(func, cst.Name):
            (self.func.calls if self.func is not None else self.module_calls).add(func.value)
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("self", "cls"):
            (self.func.calls if self.func is not None else self.module_calls).add(func.attr.value)
        callee = self.qualify(func)
        self._link_call(call, func, callee)
        if self.collectors:
            reads = {nodes.root_name(a.value) for a in call.args} - {""}
            first = nodes.call_arg(call, 0, "file", "path")
            operands = [n for n in (first, func.value if isinstance(func, cst.Attribute) else None) if n is not None]
            for collector in self.collectors:
                collector.calls.append(callee or nodes.last_name(func))
                collector.nodes.append((callee or nodes.dotted(func), call))
                collector.reads |= reads
                if len(collector.operands) < MAX_TRY_OPERANDS:
                    collector.operands.extend(operands)
        if self.stacks and not self.stdio and _stdio_call(call, self.servers):
            self.stdio = True
        spec = classify_callee(callee)
        if spec is not None:
            self.spec_sink(spec, call, callee, raised=False)
            return
        if framework_sinks.on_call(self, call, callee):
            return
        if self.class_is_exception and self.func is not None and self.func.name == "__init__" and _is_super_init(func):
            expr = nodes.call_arg(call, 0, *ARG_MESSAGE_KEYWORDS)
            if expr is not None:
                self.record("raise", self.class_name, call, expr, constructor=True, judged_at=self.class_name)
            return
        if not callee and not isinstance(func, cst.Attribute):
            return
        method = func.attr.value if isinstance(func, cst.Attribute) else ""
        base = func.value if isinstance(func, cst.Attribute) else None
        if callee in ("print", "builtins.print", "rich.print"):
            self.print_call(call)
        elif method in ("print", "log") and isinstance(base, cst.Name) and base.value in self.consoles:
            self.console_call(call, base.value)
        elif callee in ("sys.exit", "exit", "quit", "os._exit", "builtins.exit"):
            self.exit_call(call, callee, call)
        elif method == "write" and base is not None and self._is_stderr(base):
            self.record("stderr", "sys.stderr.write", call, nodes.call_arg(call, 0), exits_after=self.exits_after)
        elif callee == "os.write" and self._is_stderr_fd(nodes.call_arg(call, 0, "fd")):
            self.record("stderr", "os.write", call, nodes.call_arg(call, 1, "data"), exits_after=self.exits_after)
        elif method == "write" and base is not None and self.stacks and self.qualify(base) == "sys.stdout" and nodes.call_arg(call, 0) is not None:
            self.record("stdio-print", "sys.stdout.write", call, nodes.call_arg(call, 0), before_stdio_run=self.before_stdio_run)
        elif callee.rsplit(".", 1)[-1] in ("echo", "secho") and callee.split(".", 1)[0] in ("click", "typer"):
            self.echo_call(call, callee)
        elif method in LOG_METHODS and base is not None and self._is_logger(base, callee):
            self.log_call(call, callee, method)
        elif isinstance(func, cst.Name) and func.value in self.logger_methods:
            self.log_call(call, callee, self.logger_methods[func.value])
        elif method in ("error", "exit") and base is not None and self._is_parser(base):
            self.record("cli-error", f"argparse.ArgumentParser.{method}", call, nodes.call_arg(call, 0 if method == "error" else 1, "message"))
        elif method == "fail" and base is not None and self._is_click_context(base):
            self.record("cli-error", "click.Context.fail", call, nodes.call_arg(call, 0, "message"))
        elif method in ("error", "warning", "info", "debug", "log", "report_progress") and base is not None and self._is_mcp_context(base):
            if method != "report_progress":
                level = method if method != "log" else _string_or(nodes.call_arg(call, 0, "level"), "info")
                pos = 1 if method == "log" else 0
                self.record("notify", f"Context.{method}", call, nodes.call_arg(call, pos, "message", "data"), level=level, paired=self.before_reply)
        elif method == "send_log_message":
            self.record("notify", "send_log_message", call, nodes.call_arg(call, 1, "data"), level=_string_or(nodes.call_arg(call, 0, "level"), "info"), paired=self.before_reply)
        elif method in ("add_tool", "from_function"):
            self.tool_registration(call, method, base)
        elif method in ("option", "argument", "Option", "Argument") and callee.split(".", 1)[0] in ("click", "typer"):
            cb = nodes.keyword_arg(call, "callback")
            if isinstance(cb, cst.Name):
                self.callbacks.add(cb.value)

    def _link_call(self, call: cst.Call, func: cst.CSTNode, callee: str) -> None:
        """Record a call for the project model: its qualified callee (`[]T` for a call through the
        dispatch table `T`), functions passed to `functools.partial`, and functions registered as
        entry points by a call (`add_tool(f)`, `web.get("/", f)`, `set_defaults(func=f)`)."""
        target = callee
        if isinstance(func, cst.Attribute):  # `Store().load()`, `s = Store(); s.load()`: a method of the class
            made = func.value if isinstance(func.value, cst.Call) else self.scope.value(func.value.value) if isinstance(func.value, cst.Name) else None
            if isinstance(made, cst.Call) and isinstance(made.func, (cst.Name, cst.Attribute)):
                target = f"{self.qualify(made.func)}().{func.attr.value}"
        if not target:
            inner = func.func if isinstance(func, cst.Call) and isinstance(func.func, cst.Attribute) and func.func.attr.value == "get" else func
            if isinstance(inner, cst.Attribute):
                inner = inner.value
            if isinstance(inner, cst.Subscript):
                inner = inner.value
            table = nodes.dotted(inner)
            if table:
                target = "[]" + table
        extra = function_refs(call, callee, self)
        if self.func is not None:
            sink = self.func.qcalls
        else:
            sink = self.links.main_calls if self.main_depth else self.links.module_calls
        if target:
            sink.add(target)
            for guarded in self.guarded_calls:
                guarded.add(target)
        for kind, ref in extra:
            if kind == "call":
                sink.add(ref)
            else:
                self.links.entries.append((kind, ref, self.func.qualname if self.func is not None else ""))

    def spec_sink(self, spec: Spec, call: cst.Call, callee: str, raised: bool) -> None:
        extra = {"raised": raised}
        if spec.kind == "tool-result":
            self.tool_result(call, callee)
            return
        if spec.kind == "protocol-error" and callee.endswith("McpError"):
            data = nodes.call_arg(call, 0, "error")
            if isinstance(data, cst.Call):
                extra["code"] = self.code(nodes.call_arg(data, 0, "code")) if nodes.call_arg(data, 0, "code") is not None else ""
                self.record(spec.kind, callee, call, nodes.call_arg(data, 1, "message"), **extra)
            return
        if spec.kind == "protocol-error":
            code = nodes.call_arg(call, 0, "code")
            extra["code"] = self.code(code) if code is not None else ""
        if spec.kind == "http":
            status = nodes.call_arg(call, 0, "status_code", "code", "status")
            extra["status"] = nodes.int_value(status) if status is not None else None
        if callee.split(".", 1)[0] in ("arcade_tdk", "arcade_core"):
            for key in ("additional_prompt_content",):
                more = nodes.keyword_arg(call, key)
                if more is not None:
                    self.record(spec.kind, callee, call, more, **extra)
            extra["retryable"] = "Retryable" in callee
            extra["fatal"] = "Fatal" in callee or "ContextRequired" in callee
        expr = nodes.call_arg(call, spec.position, *spec.keywords) if spec.position is not None or spec.keywords else None
        if expr is None and spec.kind == "http":
            framework_sinks.on_http_without_text(self, call, callee, extra)
            return
        if expr is None and spec.kind in ("tool-error", "agent-error", "cli-error"):
            if not call.args:
                self.record(spec.kind, callee, call, None, messageless=True, **extra)
            return
        if expr is None:
            return
        self.record(spec.kind, callee, call, expr, **extra)

    def tool_result(self, call: cst.Call, callee: str) -> None:
        flag = nodes.keyword_arg(call, "isError", "is_error")
        content = nodes.call_arg(call, None, "content")
        texts = list(self._content_texts(content))
        if nodes.is_true(flag):
            for text in texts:
                self.record("tool-result", callee, call, text, is_error=True)
        elif self.func is not None:
            for text in texts:
                self.record("tool-output", callee, call, text, flag_given=flag is not None)

    def _content_texts(self, content: Optional[cst.CSTNode]) -> Iterable[cst.CSTNode]:
        if content is None:
            return
        if isinstance(content, cst.Name):
            bound = self.scope.value(content.value)
            if bound is not None and not isinstance(bound, cst.Name):
                yield from self._content_texts(bound)
            return
        if isinstance(content, (cst.List, cst.Tuple)):
            for el in content.elements:
                yield from self._content_texts(el.value)
            return
        if isinstance(content, cst.Call) and nodes.last_name(content.func) == "TextContent":
            text = nodes.call_arg(content, None, "text")
            if text is not None:
                yield text
            return
        if isinstance(content, cst.Dict):
            for el in content.elements:
                if isinstance(el, cst.DictElement) and nodes.string_value(el.key) == "text":
                    yield el.value
            return
        yield content

    def dict_literal(self, node: cst.Dict) -> None:
        keys: Dict[str, cst.CSTNode] = {}
        for el in node.elements:
            if isinstance(el, cst.DictElement):
                key = nodes.string_value(el.key)
                if key is not None:
                    keys[key] = el.value
        if ("isError" in keys or "is_error" in keys) and nodes.is_true(keys.get("isError", keys.get("is_error"))):
            sources = [keys["content"]] if "content" in keys else ([keys["text"]] if "text" in keys else [])
            for source in sources:
                for text in self._content_texts(source):
                    self.record("tool-result", "dict", node, text, is_error=True)
        elif "jsonrpc" in keys and isinstance(keys.get("error"), cst.Dict):
            inner = {nodes.string_value(el.key): el.value for el in keys["error"].elements if isinstance(el, cst.DictElement)}
            message = inner.get("message")
            if message is not None:
                code = inner.get("code")
                self.record("protocol-error", "jsonrpc", node, message, code=self.code(code) if code is not None else "", raised=False)
        elif "jsonrpc" in keys and "result" in keys:
            for text in framework_sinks.jsonrpc_result_texts(keys, bool(self.handlers)):
                self.record("tool-output", "jsonrpc", node, text, flag_given=False, error_reply=bool(self.handlers))

    def print_call(self, call: cst.Call) -> None:
        target = nodes.keyword_arg(call, "file")
        args = nodes.positional_args(call)
        if not args:
            return
        if target is not None and self._is_stderr(target):
            self.record("stderr", "print", call, args[0], args=args, exits_after=self.exits_after)
            return
        to_stdout = target is None or self.qualify(target) in ("sys.stdout",)
        if to_stdout and self.exits_after:
            self.record("stdout", "print", call, args[0], args=args)
        if to_stdout and self.stacks:
            self.record("stdio-print", "print", call, args[0], args=args, before_stdio_run=self.before_stdio_run)

    def console_call(self, call: cst.Call, name: str) -> None:
        """`console.print(...)` on a rich Console: stderr when built with `stderr=True`, else stdout."""
        message = nodes.call_arg(call, 0)
        if message is None:
            return
        if self.consoles[name]:
            self.record("stderr", "rich.console.Console.print", call, message, exits_after=self.exits_after)
        elif self.exits_after:
            self.record("stdout", "rich.console.Console.print", call, message)

    def echo_call(self, call: cst.Call, callee: str) -> None:
        err = nodes.keyword_arg(call, "err")
        message = nodes.call_arg(call, 0, "message")
        if message is None:
            return
        if nodes.is_true(err):
            self.record("stderr", callee, call, message, exits_after=self.exits_after)
        elif err is None and self.exits_after:
            self.record("stdout", callee, call, message)

    def exit_call(self, call: cst.Call, callee: str, node: cst.CSTNode) -> None:
        arg = nodes.call_arg(call, 0, "code", "status")
        if arg is None or nodes.int_value(arg) is not None or isinstance(arg, (cst.Name,)) and arg.value in ("None", "True", "False"):
            return
        if isinstance(arg, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString, cst.BinaryOperation, cst.Name, cst.Call)):
            self.record("exit", callee, node, arg, needs_text=True)

    def log_call(self, call: cst.Call, callee: str, level: str) -> None:
        position = 1 if level == "log" else 0
        if level == "log":
            level = _log_level(nodes.call_arg(call, 0, "level"))
        message = nodes.call_arg(call, position, "msg", "message", "event")
        if message is None:
            return
        args = nodes.positional_args(call)[position + 1:]
        self.record("log", callee, call, message, level=level, args=args, exc_info=nodes.keyword_arg(call, "exc_info") is not None or level == "exception", paired=self.before_reply)

    def tool_registration(self, call: cst.Call, method: str, base: Optional[cst.CSTNode]) -> None:
        fn = nodes.call_arg(call, 0, "fn", "func", "function")
        if not isinstance(fn, cst.Name):
            return
        name = nodes.string_value(nodes.keyword_arg(call, "name")) or fn.value
        server = nodes.dotted(base) if base is not None else ""
        stack = self.servers.get(server, "")
        if method == "from_function" and not stack:
            stack = next(iter(sorted(self.stacks - {"lowlevel"})), "")
        self.registrations.append((fn.value, name, stack, server))

    # ------------------------------------------------------------------ predicates
    def _starts_stdio(self, stmt: cst.CSTNode) -> bool:
        """The statement starts an MCP server on stdio: `mcp.run()` (FastMCP's default transport),
        `mcp.run(transport="stdio")`, `run_stdio_async()`, `stdio_server()` (also recorded for the
        module in `self.stdio`)."""
        for node in nodes.iter_expr(stmt, stop=(cst.Lambda, cst.FunctionDef, cst.ClassDef)):
            if isinstance(node, cst.Call) and _stdio_call(node, self.servers):
                return True
        return False

    def _is_stderr(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Name) and node.value in self.stderr_names:
            return True
        if isinstance(node, cst.Attribute) and node.attr.value == "buffer" and isinstance(node.value, cst.Name) and node.value.value in self.stderr_names:
            return True  # `err.buffer.write(b"...")`
        return self.qualify(node) in STDERR_QUALIFIED

    def _is_stderr_fd(self, node: Optional[cst.CSTNode]) -> bool:
        """File descriptor 2, or `sys.stderr.fileno()`."""
        if node is None:
            return False
        if isinstance(node, cst.Integer):
            return node.value == "2"
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "fileno" and not node.args:
            return self._is_stderr(node.func.value)
        return False

    def _is_logger(self, base: cst.CSTNode, callee: str) -> bool:
        if callee.startswith("logging.") and callee.count(".") == 1:
            return True
        if isinstance(base, cst.Call):
            return self.qualify(base.func) in LOGGER_FACTORIES
        qualified = self.qualify(base)
        if qualified in self.logger_objects or qualified in LOGGER_FACTORIES:
            return True
        if isinstance(base, cst.Name) and base.value in self.loggers:
            return True
        return bool(LOGGER_NAME.search(nodes.last_name(base)))

    def _is_parser(self, base: cst.CSTNode) -> bool:
        name = nodes.last_name(base)
        return name in self.parsers or name in ("parser", "argparser", "arg_parser", "ap", "subparser", "cli_parser")

    def _is_click_context(self, base: cst.CSTNode) -> bool:
        name = nodes.last_name(base)
        if name in ("ctx", "context", "click_ctx"):
            return True
        if self.func is not None:
            param = self.func.param(name)
            return param is not None and "Context" in param.annotation and "click" in param.annotation
        return False

    def _is_mcp_context(self, base: cst.CSTNode) -> bool:
        if not isinstance(base, cst.Name) or self.func is None:
            return False
        param = self.func.param(base.value)
        if param is None:
            return False
        if "Context" in param.annotation:
            return True
        return base.value in ("ctx", "context") and bool(self.stacks & {"mcp1", "mcp2", "fastmcp"})

    # ------------------------------------------------------------------ bookkeeping
    def bind_target(self, target: cst.CSTNode, value: cst.CSTNode) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            self.scope.bind(name, Binding("assign", value))
            self._note_binding(name, value)
        else:
            for name in _target_names(target):
                self.scope.bind(name, Binding("other", value))

    def _note_binding(self, name: str, value: cst.CSTNode) -> None:
        if isinstance(value, (cst.Dict, cst.List, cst.Tuple)):
            refs = self.links.table_refs(value, self)
            if refs:
                self.links.tables[name] = refs
            return
        if isinstance(value, cst.Call):
            callee = self.qualify(value.func)
            if callee in LOGGER_FACTORIES or callee.endswith(".getLogger"):
                self.loggers.add(name)
            elif callee in ("argparse.ArgumentParser",) or callee.endswith("ArgumentParser"):
                self.parsers.add(name)
            elif callee in RICH_CONSOLES:
                self.consoles[name] = nodes.is_true(nodes.keyword_arg(value, "stderr"))
            else:
                stack = server_stack(callee)
                if stack:
                    if stack == "lowlevel":
                        handler = nodes.keyword_arg(value, "on_call_tool")
                        if isinstance(handler, cst.Name):
                            self.lowlevel2.add(handler.value)
                            stack = "lowlevel2"
                    self.servers[name] = stack
                    self.stacks.add(stack)
                    mask = nodes.keyword_arg(value, "mask_error_details")
                    if nodes.is_true(mask):
                        self.mask_error_details = True
        elif isinstance(value, cst.Attribute):
            if value.attr.value in LOG_METHODS and self._is_logger(value.value, self.qualify(value)):
                self.logger_methods[name] = value.attr.value
            elif self.qualify(value) in STDERR_QUALIFIED:
                self.stderr_names.add(name)

    def _note_stack(self, module: str) -> None:
        if module.startswith("mcp.server.fastmcp"):
            self.stacks.add("mcp1")
        elif module.startswith("mcp.server.mcpserver"):
            self.stacks.add("mcp2")
        elif module.startswith("fastmcp"):
            self.stacks.add("fastmcp")
        elif module.startswith("mcp.server.lowlevel") or module == "mcp.server.Server":
            self.stacks.add("lowlevel")

    def _role(self, info: FunctionInfo, stmt: cst.FunctionDef) -> None:
        name = info.name
        if name in ("__str__", "__repr__", "__format__"):
            info.role = "dunder"
            return
        for deco in stmt.decorators:
            target = deco.decorator
            func = target.func if isinstance(target, cst.Call) else target
            qualified = self.qualify(func)
            last = qualified.rsplit(".", 1)[-1]
            if last in VALIDATOR_DECORATORS:
                info.role = "validator"
                return
            if not isinstance(func, cst.Attribute):
                if last == "command" and qualified.startswith(("click.", "typer.")):
                    info.role = "cli"
                continue
            server = nodes.dotted(func.value)
            stack = self.servers.get(server, "")
            if last == "tool":
                if stack or self.stacks & {"mcp1", "mcp2", "fastmcp"}:
                    tool_name = info.name
                    if isinstance(target, cst.Call):
                        named = nodes.string_value(nodes.call_arg(target, 0, "name"))
                        tool_name = named or tool_name
                    info.role = "tool"
                    info.stack = stack or next(iter(sorted(self.stacks - {"lowlevel", "lowlevel2"})), "")
                    info.tool_name = tool_name
                    return
            elif last == "call_tool" and (stack in ("lowlevel", "") and self.stacks & {"lowlevel", "mcp1"}):
                info.role = "lowlevel"
                info.stack = "lowlevel1"
                return
            elif last in ("resource", "prompt") and (stack or self.stacks):
                info.role = "resource"
                return
            elif last in ("command", "group", "callback") and (qualified.startswith(("click.", "typer.")) or "app" in server or "cli" in server):
                info.role = "cli"
                return

    def _cli_aliases(self, stmt: cst.FunctionDef) -> Dict[str, Tuple[str, ...]]:
        """click/typer `@option("--format", "fmt")` declarations: parameter name -> flags."""
        out: Dict[str, Tuple[str, ...]] = {}
        for deco in stmt.decorators:
            call = deco.decorator
            if not isinstance(call, cst.Call):
                continue
            callee = self.qualify(call.func)
            if callee.rsplit(".", 1)[-1] not in ("option", "argument") or callee.split(".", 1)[0] not in ("click", "typer"):
                continue
            decls = [v for v in (nodes.string_value(a) for a in nodes.positional_args(call)) if v]
            flags = tuple(d.split("/")[0] for d in decls if d.startswith("-"))
            plain = [d for d in decls if not d.startswith("-")]
            if plain:
                param = plain[0]
            elif flags:
                param = max(flags, key=len).lstrip("-").replace("-", "_")
            else:
                continue
            out[param] = flags
        return out

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
        )

    def record(self, kind: str, callee: str, node: cst.CSTNode, expr: Optional[cst.CSTNode], args: Sequence[cst.CSTNode] = (), **extra: object) -> None:
        if self.output_run is not None and "run" not in extra:
            extra["run"] = self.output_run
        if self.main_depth and self.func is None:
            extra["main"] = True
        self.raw.append(RawSink(kind, callee, node, expr, self.scope, self.context(), dict(extra), args, self.reaching_now()))

    # ------------------------------------------------------------------ finish
    def finish(self) -> FileFacts:
        by_name: Dict[str, List[FunctionInfo]] = {}
        for info in self.functions:
            by_name.setdefault(info.name, []).append(info)
        for fn, tool_name, stack, server in self.registrations:
            for info in by_name.get(fn, []):
                info.role, info.stack, info.tool_name = "tool", stack, tool_name
        for name in self.lowlevel2:
            for info in by_name.get(name, []):
                info.role, info.stack = "lowlevel", "lowlevel2"
        for name in self.callbacks:
            for info in by_name.get(name, []):
                if not info.role:
                    info.role = "cli"
        self._reachability(by_name)
        tools = [
            ToolInfo(f.tool_name or f.name, f.name, f.param_names, f.stack)
            for f in self.functions
            if f.role == "tool"
        ]
        judged = self.exc_registry.composed | self.error_tables.failed
        messages = [m for raw in self.raw if raw.extra.get("judged_at") not in judged for m in self._messages(raw)]
        self.links.tool_names = [(fn, name) for fn, name, _, _ in self.registrations]
        return FileFacts(self.module, messages, tools, self.functions, self.stacks, self.imports, self.mask_error_details,
                         self.class_bases, self.stdio, self.links)

    def _reachability(self, by_name: Dict[str, List[FunctionInfo]]) -> None:
        queue = [f for f in self.functions if f.role in ("tool", "lowlevel")]
        seen: Set[int] = {id(f) for f in queue}
        while queue:
            current = queue.pop()
            for called in current.calls:
                for target in by_name.get(called, []):
                    if id(target) not in seen and not target.role:
                        target.reachable_from_tool = True
                        seen.add(id(target))
                        queue.append(target)
        # nested functions inherit their parent's role for profile purposes
        for info in self.functions:
            parent = info.parent
            while parent is not None and not info.reachable_from_tool:
                if parent.role in ("tool", "lowlevel") or parent.reachable_from_tool:
                    info.reachable_from_tool = True
                parent = parent.parent

    def _messages(self, raw: RawSink) -> List[Message]:
        builder = TemplateBuilder(ReachingScope(raw.scope, raw.reaching) if raw.reaching else raw.scope, self.qualify, self.code)
        extra = raw.extra
        if extra.get("messageless"):
            templates: List[Template] = [Template((), (), True)]
        elif extra.get("body"):
            templates = framework_sinks.body_templates(builder, raw.expr, builder.scope.value)
        elif extra.get("composed") is not None:
            templates = exception_templates.at_raise(builder.build(extra["composed"]))
        elif raw.kind in ("stderr", "stdout") and len(raw.args) > 1:
            templates = builder.build(raw.args[0])
            for arg in raw.args[1:]:
                more = builder.build(arg)
                templates = [join(join(t, Template((" ",), (), True)), m) for t in templates for m in more][:4]
        elif raw.kind == "log" and raw.args:
            base = builder.build(raw.expr)
            templates = [percent_template(t, list(raw.args), builder) if t.pieces and not t.placeholders else t for t in base]
        else:
            templates = builder.build(raw.expr)
        if raw.kind == "tool-return":
            if not _tool_function(raw.context.function) and not extra.get("helper"):
                return []
        if extra.get("needs_text") and not any(t.pieces for t in templates):
            return []
        function = raw.context.function
        profile = PROFILE_OF_KIND[raw.kind]
        if raw.kind == "raise" and function is not None:
            if function.role == "tool" or function.reachable_from_tool or (function.role == "lowlevel" and function.stack == "lowlevel1"):
                profile = "agent"
            elif function.role == "lowlevel":
                profile = "agent"
        if raw.kind == "log" and raw.context.exits_after:
            profile = "cli"
        if extra.get("helper"):
            profile = "agent"
        if raw.kind == "log":
            extra.setdefault("level", "error")
        return [Message(raw.kind, raw.callee, profile, tuple(templates), raw.expr, raw.node, raw.context, extra, raw.scope)]


def _is_super_init(func: cst.CSTNode) -> bool:
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "__init__"
        and isinstance(func.value, cst.Call)
        and nodes.dotted(func.value.func) == "super"
    )


def _tool_function(function: Optional[FunctionInfo]) -> bool:
    return function is not None and function.role in ("tool", "lowlevel")


def _params(params: cst.Parameters, walker: Walker) -> Tuple[Param, ...]:
    out: List[Param] = []
    items = list(params.posonly_params) + list(params.params) + list(params.kwonly_params)
    if isinstance(params.star_arg, cst.Param):
        items.append(params.star_arg)
    if params.star_kwarg is not None:
        items.append(params.star_kwarg)
    for p in items:
        annotation = walker.code(p.annotation.annotation) if p.annotation is not None else ""
        default = walker.code(p.default) if p.default is not None else ""
        out.append(Param(p.name.value, annotation, default))
    return tuple(out)


def _decorator_target(node: cst.CSTNode) -> cst.CSTNode:
    return node.func if isinstance(node, cst.Call) else node


def _target_names(target: cst.CSTNode) -> List[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        out: List[str] = []
        for el in target.elements:
            out.extend(_target_names(el.value))
        return out
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []


def _looks_exception(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return last in BUILTIN_EXCEPTIONS or last.endswith(("Error", "Exception", "Warning", "Failure", "Fault"))


def _is_errno(node: cst.CSTNode) -> bool:
    return nodes.int_value(node) is not None or nodes.dotted(node).startswith("errno.")


def _string_or(node: Optional[cst.CSTNode], default: str) -> str:
    value = nodes.string_value(node)
    return value.lower() if value else default


def _log_level(node: Optional[cst.CSTNode]) -> str:
    text = nodes.dotted(node).rsplit(".", 1)[-1].lower() if node is not None else ""
    if text in ("error", "critical", "fatal", "warning", "warn", "info", "debug", "exception"):
        return text
    value = nodes.int_value(node)
    if value is not None:
        return "error" if value >= 40 else "warning" if value >= 30 else "info"
    return "error"


def _is_debug_test(test: cst.CSTNode) -> bool:
    """`if debug:`, `if self.verbose`, `if __debug__`, `if settings.DEBUG`, `if not quiet and verbose`,
    `if os.environ.get("DEBUG")`: a developer-only branch. Only the test's shallow shape is read."""
    stack = [test]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            if DEBUG_NAME.match(node.value):
                return True
        elif isinstance(node, cst.Attribute):
            if DEBUG_NAME.match(node.attr.value):
                return True
        elif isinstance(node, cst.BooleanOperation):
            stack.extend((node.left, node.right))
        elif isinstance(node, cst.UnaryOperation):
            stack.append(node.expression)
        elif isinstance(node, cst.Call):
            args = nodes.positional_args(node)
            value = nodes.string_value(args[0]) if args else None
            if value and DEBUG_NAME.match(value):
                return True
        elif isinstance(node, cst.Comparison):
            stack.append(node.left)
    return False


def _exit_code(stmt: cst.CSTNode, walker: Walker) -> Optional[int]:
    """The exit status a statement ends the process with (-1 when not a literal), else None."""
    call: Optional[cst.CSTNode] = None
    if isinstance(stmt, cst.Expr) and isinstance(stmt.value, cst.Call):
        call = stmt.value
        name = walker.qualify(call.func)
        if name not in ("sys.exit", "exit", "quit", "os._exit"):
            return None
    elif isinstance(stmt, cst.Raise) and isinstance(stmt.exc, (cst.Call, cst.Name, cst.Attribute)):
        target = stmt.exc.func if isinstance(stmt.exc, cst.Call) else stmt.exc
        name = walker.qualify(target)
        last = name.rsplit(".", 1)[-1]
        if last not in ("SystemExit", "Exit"):
            return None
        call = stmt.exc if isinstance(stmt.exc, cst.Call) else None
        if call is None:
            return 0
    else:
        return None
    arg = nodes.call_arg(call, 0, "code", "status") if isinstance(call, cst.Call) else None
    if arg is None:
        return 0
    value = nodes.int_value(arg)
    if value is not None:
        return value
    if nodes.string_value(arg) is not None or isinstance(arg, cst.FormattedString):
        return 1
    return -1


def _stdio_call(call: cst.Call, servers: Dict[str, str]) -> bool:
    func = call.func
    name = nodes.last_name(func)
    if name in ("stdio_server", "run_stdio_async", "run_stdio"):
        return True
    if name in ("run", "run_async") and isinstance(func, cst.Attribute) and servers.get(nodes.dotted(func.value), "") in ("mcp1", "mcp2", "fastmcp"):
        transport = nodes.call_arg(call, 0, "transport")
        return transport is None or nodes.string_value(transport) == "stdio"
    if nodes.string_value(nodes.keyword_arg(call, "transport")) == "stdio":
        return True
    return False


OUTPUT_NAMES = {"print", "echo", "secho", "write", "writelines", "error", "warning", "warn", "info", "critical", "exception", "fatal", "log", "debug", "exit", "fail"}


def _is_output(stmt: cst.CSTNode) -> bool:
    """A statement that only prints or logs a line (`print(...)`, `click.echo(...)`, `log.error(...)`,
    `sys.exit("...")` with a message)."""
    if not (isinstance(stmt, cst.Expr) and isinstance(stmt.value, cst.Call)):
        return False
    call = stmt.value
    name = nodes.last_name(call.func)
    if name not in OUTPUT_NAMES:
        return False
    if name == "exit":
        arg = nodes.call_arg(call, 0, "code", "status")
        return arg is not None and nodes.int_value(arg) is None and not isinstance(arg, cst.Name)
    return bool(call.args)


def _output_runs(flat: Sequence[cst.CSTNode]) -> List[Optional[Tuple[int, int, int]]]:
    """For each statement of a block: (id of the run's first statement, position, run size) when it
    belongs to a run of consecutive output lines, else None. The lines of one run are one message
    ("Error: no config" then "Run `tool init` to create one.")."""
    out: List[Optional[Tuple[int, int, int]]] = [None] * len(flat)
    i = 0
    while i < len(flat):
        if not _is_output(flat[i]):
            i += 1
            continue
        j = i
        while j < len(flat) and _is_output(flat[j]):
            j += 1
        for k in range(i, j):
            out[k] = (id(flat[i]), k - i, j - i)
        i = j
    return out


def _equality_chain(stmt: cst.CSTNode) -> Optional[Tuple[str, List[str]]]:
    """`if x == "a": return ...` (or `x in ("a", "b")`) whose body leaves: (x, ["a"]); else None."""
    if not isinstance(stmt, cst.If) or stmt.orelse is not None and not isinstance(stmt.orelse, cst.If):
        return None
    subject = ""
    values: List[str] = []
    node: Optional[cst.CSTNode] = stmt
    while isinstance(node, cst.If):
        test = node.test
        if isinstance(test, cst.BooleanOperation):
            test = test.left
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
            return None
        op = test.comparisons[0].operator
        right = test.comparisons[0].comparator
        left_text = nodes.dotted(test.left)
        if not left_text:
            return None
        if subject and left_text != subject:
            return None
        subject = left_text
        if isinstance(op, cst.Equal):
            value = nodes.string_value(right)
            if value is None:
                value = nodes.number_text(right)
            if value is None:
                return None
            values.append(value)
        elif isinstance(op, cst.In):
            listed = nodes.literal_values(right)
            if listed is None:
                return None
            values.extend(listed)
        else:
            return None
        if not _leaves(node.body):
            return None
        node = node.orelse
    return (subject, values) if values else None


def _leaves(body: cst.CSTNode) -> bool:
    stmts = body.body if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)) else []
    if not stmts:
        return False
    last = stmts[-1]
    smalls = last.body if isinstance(last, cst.SimpleStatementLine) else [last]
    if isinstance(last, cst.SimpleStatementSuite):
        smalls = last.body
    return bool(smalls) and isinstance(smalls[-1], (cst.Return, cst.Raise, cst.Continue, cst.Break))


def _match_values(pattern: cst.CSTNode) -> List[str]:
    if isinstance(pattern, cst.MatchValue):
        value = nodes.string_value(pattern.value)
        if value is None:
            value = nodes.number_text(pattern.value)
        return [value] if value is not None else []
    if isinstance(pattern, cst.MatchOr):
        out: List[str] = []
        for el in pattern.patterns:
            out.extend(_match_values(el.pattern))
        return out
    return []


def extract(module: cst.Module, logger_objects: Iterable[str] = ()) -> FileFacts:
    """Find every message in `module`.

    `logger_objects` are qualified names (`myapp.obs.AUDIT`) to treat as loggers besides
    `logging.getLogger()` results and logger-named variables.
    """
    return Walker(module, logger_objects).run()


def _reports_something(handler: cst.CSTNode) -> bool:
    """True when the handler body calls an output-like function (print, echo, log, write, ...)."""
    for node in nodes.iter_expr(handler.body, stop=(cst.Lambda, cst.FunctionDef, cst.ClassDef)):
        if isinstance(node, cst.Call) and OUTPUT_CALL.search(nodes.last_name(node.func)):
            return True
    return False
