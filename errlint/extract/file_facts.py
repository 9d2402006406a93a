"""What extraction hands on for one module: `FileFacts`, with each raw sink turned into `Message`s.

During the walk a sink is kept as a `RawSink` (its node, scope, context and the reaching
definitions). Once the whole module is walked, every tool registration and binding is known, so
`FactsAssembly.finish` settles function roles and reachability from tools, builds each sink's
templates, picks its audience profile, and returns the module's `FileFacts`. `FactsAssembly` is one
part of `Walker` and works on its state.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst

from ..model import SCHEMA, TRACEBACK, Context, FunctionInfo, Message, Template, ToolInfo
from . import exception_templates, framework_sinks, imported_constants, nodes, sink_helpers
from .links import ModuleLinks
from .scope import Binding, Reaching, ReachingScope, Scope
from .sinks import PROFILE_OF_KIND, classify_callee
from .string_formats import join, percent_template
from .tool_error_converters import converted_by_tools, covered, handler_classes, passes_through, wraps_its_caller
from .templates import TemplateBuilder


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
    caught: Dict[str, Binding] = field(default_factory=dict)  # names enclosing `except ... as name` clauses bind


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
    argparse_calls: List[cst.Call] = field(default_factory=list)  # `add_argument(...)`, `set_defaults(...)` in the module
    returns: List[list] = field(default_factory=list)  # each function's `Binding.returned` (see `release`)
    server_elsewhere: bool = False  # the module registers tools on a server another project module makes

    def release(self) -> None:
        """Break the reference cycles the walk made, once the file's rules have run.

        A function's `def` binding keeps what the function returns, each with the function's scope,
        and that scope's parent holds the binding: without this, every tree would wait for a pass of
        the cyclic garbage collector (measured: about a tenth of a cold run) instead of going with
        its last reference. Nothing may read the facts' helper returns afterwards."""
        for returned in self.returns:
            returned.clear()
        self.returns.clear()


class FactsAssembly:
    """The end of `Walker`'s pass (a mixin: it reads the walker's recorded state)."""

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
        self._conversions()
        tools = [
            ToolInfo(f.tool_name or f.name, f.name, f.param_names, f.stack)
            for f in self.functions
            if f.role == "tool"
        ]
        if self.helper_calls:  # a helper's message is judged at each call that passes it text
            at_calls, replaced = sink_helpers.compose(self.raw, self.helper_calls, self.functions, _at_call)
            self.raw = [raw for raw in self.raw if id(raw) not in replaced] + at_calls
        judged = self.exc_registry.composed | self.error_tables.failed
        messages = [m for raw in self.raw if raw.extra.get("judged_at") not in judged for m in self._messages(raw)]
        self.links.tool_names = [(fn, name) for fn, name, _, _ in self.registrations]
        return FileFacts(self.module, messages, tools, self.functions, self.stacks, self.imports, self.mask_error_details,
                         self.class_bases, self.stdio, self.links, self.argparse_calls, self.returns, self.server_elsewhere)

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

    def _conversions(self) -> None:
        """Each tool-reached function's `converted`: the classes a converter around every tool that
        reaches it turns into the stack's ToolError (`extract.tool_error_converters`)."""
        own: Dict[int, Set[str]] = {}
        for raw in self.raw:
            function, handlers = raw.context.function, raw.context.handlers
            if function is None or not handlers or handlers[0].node is None or not self._passes_through(raw.callee):
                continue
            if not wraps_its_caller(function, handlers[0], self.code(handlers[0].node.body)):
                continue
            own.setdefault(id(function), set()).update(handler_classes(handlers[0].types, raw.scope.value, self.qualify))
        if not own:
            return
        converted = converted_by_tools(self.functions, own)
        for info in self.functions:
            info.converted = covered(info, converted)

    def _passes_through(self, callee: str) -> bool:
        """`callee` is a class the stack passes through, or a class of this module derived from one."""
        return self._derives(callee, passes_through)

    def _derives(self, callee: str, test: Callable[[str], bool]) -> bool:
        """`callee` passes `test`, or is a class of this module derived from one that does."""
        todo, seen = [callee], set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            if test(name):
                return True
            todo.extend(self.class_bases.get(name.rsplit(".", 1)[-1], ()))
        return False

    def _protocol_class_code(self, callee: str, raised: cst.CSTNode) -> str:
        """The JSON-RPC error code a raise of a protocol-error class of this module carries: one the
        raise passes (`RpcFailure(METHOD_NOT_FOUND, "...")`), else the one the class sets for every
        instance (`super().__init__(ErrorData(code=INVALID_PARAMS, ...))`, or an `__init__` parameter's
        default, `code=METHOD_NOT_FOUND`), else ""."""
        call = raised.exc if isinstance(raised, cst.Raise) else raised
        for arg in call.args if isinstance(call, cst.Call) else ():
            if arg.keyword is None or arg.keyword.value == "code":
                if JSONRPC_CODE.match(nodes.last_name(arg.value) or self.code(arg.value).replace(" ", "")):
                    return nodes.last_name(arg.value) or self.code(arg.value)
        last = callee.rsplit(".", 1)[-1]
        codes = set()
        for stmt in list(self.module.body) + list(self.imported_class_nodes.values()):
            if isinstance(stmt, cst.ClassDef) and stmt.name.value == last:
                params = {n.name.value for n in nodes.iter_expr(stmt.body) if isinstance(n, cst.Param)}
                for node in nodes.iter_expr(stmt.body):
                    if isinstance(node, cst.Call) and nodes.last_name(node.func) in ("ErrorData", "McpError", "MCPError"):
                        code = nodes.call_arg(node, 0, "code")
                        if code is not None and not isinstance(code, (cst.Call, cst.SimpleString)) and nodes.dotted(code) not in params:
                            codes.add(self.code(code))  # (`code=code`: the parameter's default or the raise decides)
                    elif isinstance(node, cst.Param) and node.default is not None and JSONRPC_CODE.match(nodes.last_name(node.default) or ""):
                        codes.add(nodes.last_name(node.default))
        return codes.pop() if len(codes) == 1 else ""

    def _messages(self, raw: RawSink) -> List[Message]:
        builder = TemplateBuilder(ReachingScope(raw.scope, raw.reaching, raw.caught) if raw.reaching or raw.caught else raw.scope, self.qualify, self.code,
                                  owner=_owner(raw), function=raw.context.function, module=self.module)
        extra = raw.extra
        if extra.get("messageless"):
            templates: List[Template] = [Template((), (), True)]
        elif extra.get("body"):
            templates = framework_sinks.body_templates(builder, raw.expr)
        elif extra.get("composed") is not None:
            composed = extra["composed"]
            if raw.kind in STRUCTURED_KINDS and framework_sinks.structure_of(composed, builder.scope) is not None:
                composed_templates = framework_sinks.body_templates(builder, composed)  # `detail={"error": message}` of a helper
            else:
                composed_templates = builder.build(composed)
            templates = exception_templates.at_raise(composed_templates)
        elif raw.kind in STRUCTURED_KINDS and framework_sinks.structure_of(raw.expr, builder.scope) is not None:
            # (a `ValidationError` of DRF, Django or marshmallow takes a dict of field names to texts)
            by_field = raw.callee.rsplit(".", 1)[-1] == "ValidationError"
            templates = framework_sinks.body_templates(builder, raw.expr, by_field)
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
            if not any(h.kinds & TEXT_KINDS for t in templates for h in t.placeholders):
                return []  # `sys.exit(main())`: a status
            # `sys.exit(sub.format_help())`, `sys.exit(traceback.format_exc())`: text, none of it known
            templates = [Template(t.parts, t.pieces, False, t.tail, t.tail_style, t.fallback) for t in templates]
        if self.module_constants:  # (a literal of a constant another module defines is no piece to edit here)
            templates = [imported_constants.at_sink(t) for t in templates]
        function = raw.context.function
        if raw.kind == "raise" and self._derives(raw.callee, _protocol_error_class):
            # `class BadArgument(McpError)`: raising it is a protocol error, whatever its text is built from
            raw.kind = "protocol-error"
            extra.setdefault("code", self._protocol_class_code(raw.callee, raw.node))
            extra["subclass"] = True
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


# what a call returns that is text whatever it is called: a help text or schema, a traceback
TEXT_KINDS = frozenset({SCHEMA, TRACEBACK})

# sinks whose message argument may be a structure the reader gets whole (a dict of fields, a list of errors)
STRUCTURED_KINDS = frozenset({"raise", "tool-error", "agent-error", "cli-error", "exit", "http", "validator", "class-default"})

# the JSON-RPC error codes the SDKs name (and the numbers they stand for)
JSONRPC_CODE = re.compile(r"^(?:PARSE_ERROR|INVALID_REQUEST|METHOD_NOT_FOUND|INVALID_PARAMS|INTERNAL_ERROR|CONNECTION_CLOSED|"
                          r"REQUEST_TIMEOUT|RESOURCE_NOT_FOUND|MISSING_REQUIRED_CLIENT_CAPABILITY|-32\d{3})$")


def _protocol_error_class(name: str) -> bool:
    spec = classify_callee(name)
    return spec is not None and spec.kind == "protocol-error"


def _tool_function(function: Optional[FunctionInfo]) -> bool:
    return function is not None and function.role in ("tool", "lowlevel")


# what a helper's message keeps from where the helper sends it (the output run, the "main" block and
# the rest are where the call is)
_PLACE_KEYS = ("run", "main", "header", "before_debugger", "paired", "judged_at")


def _at_call(raw: RawSink, call: RawSink, expr: cst.CSTNode, args, composed) -> RawSink:
    """The message a call of a sink helper sends: the helper's sink, at the call, in the call's scope
    and context (`sink_helpers`)."""
    extra = {k: v for k, v in raw.extra.items() if k not in _PLACE_KEYS}
    extra.update({k: v for k, v in call.extra.items() if k in _PLACE_KEYS})
    extra["via"] = call.callee
    caller = call.context.function
    if caller is not None and caller.role in ("tool", "lowlevel"):
        extra.pop("helper", None)  # a helper's error text, written in the tool that sends it: no flow left to follow
    if composed is not None:
        extra["composed"] = composed
    return RawSink(raw.kind, raw.callee, call.node, expr, call.scope, call.context, extra, tuple(args), call.reaching, call.caught)


def _owner(raw: RawSink) -> Optional[cst.ClassDef]:
    """The module-level class whose method holds the sink, if any."""
    function = raw.context.function
    if function is None or not function.class_name or raw.scope is None:
        return None
    found = raw.scope.lookup(function.class_name)
    value = found[0].value if len(found) == 1 and found[0].kind == "class" else None
    return value if isinstance(value, cst.ClassDef) else None
