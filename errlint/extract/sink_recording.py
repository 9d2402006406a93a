"""Recognises the sinks a statement or expression sends error text to, and records each one.

Raise statements (the message argument, a composed exception-class template, or none), validator
asserts, and calls: the sink catalogue (`sinks.classify_callee`), framework sinks, `super().__init__`
in an exception class, print/echo/rich Console output to stderr or stdout, exits, stderr writes,
logging, argparse/click errors, MCP context notifications. Also notes every call for the project
model (`links`) and for the enclosing try blocks, and whether the module runs an MCP server on
stdio. `SinkRecording` is one part of `Walker` and works on its state.
"""
from __future__ import annotations

import re
from typing import Dict, Optional

import libcst as cst

from . import framework_sinks, nodes, sink_helpers
from .bindings import LOGGER_FACTORIES, STDERR_QUALIFIED
from .call_arguments import may_be_project_call
from .links import decorates_a_function, function_refs
from .receivers import call_target
from .sinks import ARG_MESSAGE_KEYWORDS, BUILTIN_EXCEPTIONS, LOG_METHODS, MESSAGE_POSITIONS, NOT_MESSAGES, Spec, classify_callee, server_stack
from .statement_shapes import traceback_follows

LOGGER_NAME = re.compile(r"^_*(log|logger|logging|_?lg)$|logger$|_log$", re.I)
MAX_TRY_OPERANDS = 16


class SinkRecording:
    """The sink recognisers of `Walker` (a mixin: it records through `Walker.record`)."""

    def st_Raise(self, stmt: cst.Raise) -> None:
        if stmt.exc is not None:
            self._raised(stmt, stmt.exc, True)

    def _raised(self, stmt: cst.Raise, exc: cst.BaseExpression, with_cause: bool) -> None:
        """One exception `stmt` raises: `exc` itself, or each branch of `raise A(...) if c else B(...)`."""
        if exc.__class__ is cst.IfExp:
            self.scan(exc.test)
            for branch in (exc.body, exc.orelse):
                self._raised(stmt, branch, False)
            if with_cause and stmt.cause is not None:
                self.scan(stmt.cause)
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
        if with_cause and stmt.cause is not None:
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
        if call is None and spec is not None and spec.kind in ("tool-error", "agent-error", "cli-error") and isinstance(exc, (cst.Name, cst.Attribute)):
            # `raise ToolError` (the class itself): raised with no message, as `raise ToolError()` is
            self.record(spec.kind, callee, stmt, None, messageless=True, raised=True)
            return
        if call is None or not call.args:
            if last in BUILTIN_EXCEPTIONS or self.exception_classes.get(callee) is False:
                self.record("raise", callee, stmt, None, messageless=True, raised=True)
            return
        position = 0
        args = nodes.positional_args(call)
        if last.endswith(("OSError", "IOError", "Error")) and len(args) >= 2 and _is_errno(args[0]):
            position = 1
        if callee in MESSAGE_POSITIONS:
            position = MESSAGE_POSITIONS[callee]
            if position is None:
                return  # `PydanticKnownError("greater_than", ctx)`: the library words it
        expr = nodes.call_arg(call, position, *ARG_MESSAGE_KEYWORDS)
        if expr is None:
            return
        self.record("raise", callee, call if call is exc else stmt, expr, raised=True)

    def st_Assert(self, stmt: cst.Assert) -> None:
        self.scan(stmt.test)
        if stmt.msg is not None and self.func is not None and self.func.role == "validator":
            self.record("validator", "assert", stmt, stmt.msg)

    # ------------------------------------------------------------------ expressions
    def scan(self, expr: cst.CSTNode) -> None:
        """Find sink calls and `isError` dicts anywhere in an expression."""
        # `nodes.iter_expr`'s walk written out: resuming a generator at every node costs more than
        # what is done with most nodes
        stack = [expr]
        while stack:
            node = stack.pop()
            cls = node.__class__
            if cls is cst.Call:
                self.call(node)
            elif cls is cst.Subscript and self.collectors:
                for collector in self.collectors:  # `TABLE[key]` in a `try`: a lookup its `except KeyError` answers
                    if len(collector.lookups) < MAX_TRY_OPERANDS:
                        collector.lookups.append(node)
            elif cls is cst.Dict:
                self.dict_literal(node)
            elif cls is cst.Tuple and self.func is not None:
                framework_sinks.on_tuple(self, node)
            if cls in nodes.LEAVES or cls is cst.Lambda and node is not expr:
                continue
            kids = nodes.children(node)
            if kids:
                kids.reverse()
                stack.extend(kids)

    def call(self, call: cst.Call) -> None:
        func = call.func
        kind = func.__class__  # exact class tests: see `nodes`
        if kind is cst.Name:
            (self.func.calls if self.func is not None else self.module_calls).add(func.value)
        elif kind is cst.Attribute and func.value.__class__ is cst.Name and func.value.value in ("self", "cls"):
            (self.func.calls if self.func is not None else self.module_calls).add(func.attr.value)
        callee = self.qualify(func)
        self._link_call(call, func, callee)
        if self.collectors:
            reads = {nodes.root_name(a.value) for a in call.args} - {""}
            first = nodes.call_arg(call, 0, "file", "path")
            operands = [n for n in (first, func.value if kind is cst.Attribute else None) if n is not None]
            for collector in self.collectors:
                collector.calls.append(callee or nodes.last_name(func))
                collector.nodes.append((callee or nodes.dotted(func), call))
                collector.reads |= reads
                if len(collector.operands) < MAX_TRY_OPERANDS:
                    collector.operands.extend(operands)
        if self.stacks and not self.stdio and _stdio_call(call, self.servers):
            self.stdio = True
        if _serve_call(call, callee, self.servers):
            self._mark_serving()
        if self.stacks and _logs_to_stdout(call, callee, self.qualify):  # judged once the module is known to serve stdio
            self.record("stdio-print", callee, call, None, log_config=True, before_stdio_run=self.before_stdio_run)
        spec = classify_callee(callee)
        if spec is not None:
            self.spec_sink(spec, call, callee, raised=False)
            return
        if framework_sinks.on_call(self, call, callee):
            return
        helper = sink_helpers.helper_name(call)[0]
        if helper and sink_helpers.passes_text(call):  # judged once every function of the file is known
            self.helper_calls.append(self.raw_sink("helper-call", helper, call, None))
        if self.class_is_exception and self.func is not None and self.func.name == "__init__" and _is_super_init(func):
            expr = nodes.call_arg(call, 0, *ARG_MESSAGE_KEYWORDS)
            if expr is not None:
                self.record("raise", self.class_name, call, expr, constructor=True, judged_at=self.class_name)
            return
        if kind is cst.Call and func.func.__class__ is cst.Attribute and func.func.attr.value == "tool" \
                and nodes.dotted(func.func.value) in self.servers and call.args and call.args[0].keyword is None:
            self.tool_registration(call, "tool", func.func.value, options=func)  # `mcp.tool(name="x")(fn)`
            return
        if not callee and kind is not cst.Attribute:
            return
        if callee and "on_call_tool" in {a.keyword.value for a in call.args if a.keyword is not None} and server_stack(callee) == "lowlevel":
            self.note_lowlevel_handler(call)  # `return Server(..., on_call_tool=handle)` in a factory function
        method = func.attr.value if kind is cst.Attribute else ""
        base = func.value if kind is cst.Attribute else None
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
        elif kind is cst.Name and func.value in self.logger_methods:
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
        elif decorates_a_function(call, self.servers):
            self.tool_registration(call, method, base)  # `mcp.tool(fn, name="x")`: the decorator called on a function
        elif method in ("option", "argument", "Option", "Argument") and callee.split(".", 1)[0] in ("click", "typer"):
            cb = nodes.keyword_arg(call, "callback")
            if isinstance(cb, cst.Name):
                self.callbacks.add(cb.value)
        elif method == "add_argument":  # argparse calls a `type=` converter with the one value the user typed
            self.argparse_calls.append(call)
            converter = nodes.keyword_arg(call, "type")
            if isinstance(converter, cst.Name):
                self.callbacks.add(converter.value)
        elif method == "set_defaults":
            self.argparse_calls.append(call)

    def _link_call(self, call: cst.Call, func: cst.CSTNode, callee: str) -> None:
        """Record a call for the project model: its target (`receivers.call_target`: the qualified
        callee, a method of a known class, a call through a dispatch table, or a method call whose
        receiver's class the project's hierarchy decides), functions passed to `functools.partial`,
        and functions registered as entry points by a call (`add_tool(f)`, `web.get("/", f)`,
        `set_defaults(func=f)`)."""
        target = call_target(call, self, callee)
        extra = function_refs(call, callee, self)
        if self.func is not None:
            sink = self.func.qcalls
        else:
            sink = self.links.main_calls if self.main_depth else self.links.module_calls
        if target:
            sink.add(target)
            if self.func is not None and (call.args and not target.startswith("[]") or may_be_project_call(target)):
                self.func.call_nodes.append((target, call))
            # the classes every call of `target` here is protected from, and those some call of it is
            # caught and used around (a function's calls, or the module's top level and main block)
            caught, used = (self.func.caught, self.func.relayed) if self.func is not None else (self.links.top_caught, self.links.top_relayed)
            protected = self.replaced_here()
            before = caught.get(target)
            caught[target] = protected if before is None else before & protected
            relayed = frozenset().union(*(frame.relayed for frame in self.tries))
            if relayed:
                used[target] = used.get(target, frozenset()) | relayed
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
            value = framework_sinks.status_value(status) if status is not None else None  # 403, `status.HTTP_403_FORBIDDEN`, `HTTPStatus.FORBIDDEN`
            extra["status"] = value if value is not None else framework_sinks.status_of_class(callee)  # `web.HTTPForbidden(text=...)`
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
        exc_info = nodes.keyword_arg(call, "exc_info") is not None or level == "exception" or self.block_at is not None and traceback_follows(*self.block_at, self.qualify)
        self.record("log", callee, call, message, level=level, args=args, exc_info=exc_info, paired=self.before_reply)

    # ------------------------------------------------------------------ predicates
    def _starts_stdio(self, stmt: cst.CSTNode) -> bool:
        """The statement starts an MCP server on stdio: `mcp.run()` (FastMCP's default transport),
        `mcp.run(transport="stdio")`, `run_stdio_async()`, `stdio_server()` (also recorded for the
        module in `self.stdio`)."""
        for node in nodes.iter_expr(stmt, stop=(cst.Lambda, cst.FunctionDef, cst.ClassDef)):
            if isinstance(node, cst.Call) and _stdio_call(node, self.servers):
                return True
        return False

    def _mark_serving(self) -> None:
        func = self.func
        if func is None:
            self.links.serving.add("<main>" if self.main_depth else "<module>")
        while func is not None:
            self.links.serving.add(func.qualname)
            func = func.parent

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
        if isinstance(base, cst.Call):  # `click.get_current_context().exit(1)`
            made_by = self.qualify(base.func)
            return made_by.rsplit(".", 1)[-1] == "get_current_context" and made_by.split(".", 1)[0] in ("click", "typer")
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


def _is_super_init(func: cst.CSTNode) -> bool:
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "__init__"
        and isinstance(func.value, cst.Call)
        and nodes.dotted(func.value.func) == "super"
    )


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


SERVE_METHODS = frozenset({"run", "run_async", "run_stdio_async", "run_sse_async", "run_streamable_http_async", "run_http_async"})
SERVE_CALLEES = frozenset({"uvicorn.run", "aiohttp.web.run_app", "mcp.server.stdio.stdio_server", "waitress.serve"})


def _serve_call(call: cst.Call, callee: Optional[str], servers: Dict[str, str]) -> bool:
    """The call starts a server: a `run` method of an MCP server the module made, `uvicorn.run`,
    aiohttp's `web.run_app`, `waitress.serve`, a socketserver's `serve_forever()`, or the MCP SDK's
    `stdio_server()`."""
    if callee in SERVE_CALLEES:
        return True
    func = call.func
    if not isinstance(func, cst.Attribute):
        return False
    return func.attr.value == "serve_forever" or func.attr.value in SERVE_METHODS and nodes.dotted(func.value) in servers


def _logs_to_stdout(call: cst.Call, callee: str, qualify) -> bool:
    """A logging set-up that writes records to stdout: `logging.basicConfig(stream=sys.stdout)`,
    `logging.StreamHandler(sys.stdout)`, loguru's `logger.add(sys.stdout)`."""
    last = callee.rsplit(".", 1)[-1]
    if callee == "logging.basicConfig":
        stream = nodes.keyword_arg(call, "stream")
    elif last == "StreamHandler" and callee.startswith("logging."):
        stream = nodes.call_arg(call, 0, "stream")
    elif callee == "loguru.logger.add":
        stream = nodes.call_arg(call, 0, "sink")
    else:
        return False
    return stream is not None and qualify(stream) in ("sys.stdout", "sys.__stdout__")


def _stdio_call(call: cst.Call, servers: Dict[str, str]) -> bool:
    func = call.func
    name = nodes.last_name(func)
    if name in ("stdio_server", "run_stdio_async", "run_stdio"):
        return True
    if name in ("run", "run_async") and isinstance(func, cst.Attribute) and servers.get(nodes.dotted(func.value), "") in ("mcp1", "mcp2", "fastmcp"):
        transport = nodes.call_arg(call, 0, "transport")
        return transport is None or nodes.string_value(transport) == "stdio"
    transport = nodes.keyword_arg(call, "transport")
    if transport is not None:  # `partial(mcp.run_async, transport="sse")`
        return nodes.string_value(transport) == "stdio"
    # `anyio.run(mcp.run_stdio_async)`, `anyio.run(mcp.run_async)` (whose default transport is stdio):
    # a runner called with the server's stdio entry, uncalled
    first = nodes.call_arg(call, 0)
    if not isinstance(first, cst.Attribute):
        return False
    entry = first.attr.value
    return entry in ("run_stdio_async", "run_stdio") or entry == "run_async" and servers.get(nodes.dotted(first.value), "") in ("mcp1", "mcp2", "fastmcp")
