"""6xx: MCP protocol misuse (the channel rules AEM606/AEM607 are in `channels`). What each MCP stack sends to
the model (checked against mcp 2.3.0 and fastmcp 4.2.3) is in `extract.tool_error_converters.UNMASKED` and the AEM603 docs below."""
from __future__ import annotations

import re
from typing import Iterable, Optional

import libcst as cst

from ..extract.sinks import TOOL_ERROR_IMPORT
from ..extract.tool_error_converters import UNMASKED, stack_passing
from ..fixes import imports_for, node_edit, replace_in_piece
from ..model import Applicability, Finding, Fix, Level, Message
from .base import FileContext, Rule
from .converter_coverage import converted_on_the_way
from .protocol_errors import protocol_business

ERROR_TEXT = re.compile(r"^\W*(error|failed|failure|exception|unable to|could not|couldn't|cannot|can't|invalid|not found)\b|\b(error|failed|exception)\s*:|\bnot found\b|\bunable to\b", re.I)
RICH_MARKUP = re.compile(r"\[/?[a-z][a-z0-9 #._,=-]*\]")  # "[bold red]Error:[/bold red]"
REDUNDANT_PREFIX = re.compile(r"^\s*(error executing tool\b[^:]*:?|tool error\s*:|failed to execute tool\b[^:]*:?|error\s*:)\s*", re.I)
STACK_NAMES = {
    "mcp1": "mcp 1.x FastMCP",
    "mcp2": "mcp 2.x MCPServer",
    "fastmcp": "standalone FastMCP",
    "lowlevel": "the mcp low-level Server",
    "lowlevel1": "the mcp 1.x low-level Server",
    "lowlevel2": "the mcp 2.x low-level Server",
}
# Exception classes each masking stack lets through with their text (checked with fastmcp 4.2.3 and
# mcp 2.3.0 in tests/test_framework_masking.py): fastmcp re-raises every FastMCPError unmasked, mcp's
# MCPServer every ToolError and ResourceError (its own Unexpected* subclasses are the masks).


def detected_stack(message: Message, ctx: FileContext) -> str:
    function = message.context.function
    if function is not None and function.stack:
        return function.stack
    stacks = sorted(ctx.facts.stacks - {"lowlevel"}) or sorted(ctx.facts.stacks)
    return stacks[0] if stacks else ""


def tool_error_fix(ctx: FileContext, stack: str, title: str, edits: list) -> Optional[Fix]:
    """`edits` plus the import of the stack's ToolError, as an unsafe fix; None when the stack has no
    ToolError or the name `ToolError` already means something else in the module."""
    if stack not in TOOL_ERROR_IMPORT:
        return None
    module, name = TOOL_ERROR_IMPORT[stack]
    bound = ctx.facts.imports.get(name)
    if bound is not None and bound != f"{module}.{name}":
        return None
    extra = imports_for(ctx.module, ctx.text, f"from {module} import {name}", name)
    if extra is None:
        return None
    return Fix(Applicability.UNSAFE, title, tuple(edits) + tuple(extra))


def in_tool(message: Message) -> bool:
    function = message.context.function
    return function is not None and (function.role in ("tool", "lowlevel") or function.reachable_from_tool)


class ProtocolErrorForFixableFailure(Rule):
    """## What it does
    Flags `raise McpError(...)`/`MCPError(...)`, or a class of the module derived from one
    (`class BadArgument(McpError)`), (or a hand-built JSON-RPC `error` object with INVALID_PARAMS) in
    an MCP tool for a failure the caller could fix or that belongs to the tool's own execution.
    Capability and handshake errors (a literal code, or the code a derived class sets), unknown tool names and missing resources in resource
    handlers are exempt. A hand-built JSON-RPC error counts only in a module that speaks MCP (it
    imports an MCP SDK, or names MCP's methods, fields or text content blocks): JSON-RPC is also the
    protocol of services that are not MCP servers. The message says which stack was detected.

    ## Why is this bad?
    On mcp >= 2.0 MCPServer a protocol error never reaches the model; on mcp 1.x and FastMCP it is
    wrapped with a generic prefix and the code is lost, and it breaks on the move to mcp 2.x. The spec
    (since 2025-11-25) puts invalid arguments in `isError` results.

    ## Example
    ```python
    raise McpError(ErrorData(code=INVALID_PARAMS, message="volume_id is required"))
    ```

    Use instead:
    ```python
    raise ToolError("volume_id is required; call list_volumes to pick one.")
    ```

    ## Fix safety
    Unsafe: `MCPError(code, message)` becomes `ToolError(message)`.

    ## Options
    None.
    """

    CODE = "AEM602"
    NAME = "protocol-error-for-fixable-failure"
    SUMMARY = "A protocol error for a failure the model should see"
    PROFILES = ("agent",)
    SINKS = frozenset({"protocol-error"})
    LEVEL = Level.ERROR
    FIX = Applicability.UNSAFE
    VALID = (
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef f(v: str) -> str:\n    if not v:\n        raise ToolError('v is required; pass a volume id.')\n    return v\n",
        "import mcp.types as types\nfrom mcp.server.lowlevel import Server\nfrom mcp.shared.exceptions import McpError\nsrv = Server('x')\nKNOWN = {'a'}\n@srv.call_tool()\nasync def route(name: str, arguments: dict):\n    if name not in KNOWN:\n        raise McpError(types.ErrorData(code=types.INVALID_PARAMS, message=f'Unknown tool {name!r}'))\n",
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.shared.exceptions import McpError\nfrom mcp.types import ErrorData\nmcp = FastMCP('x')\n@mcp.resource('books://{book_id}')\ndef book(book_id: str) -> str:\n    raise McpError(ErrorData(code=-32002, message=f'Resource books://{book_id} not found'))\n",
        "def get_balance_rpc(req_id, params):\n    if params.get('account') not in ACCOUNTS:\n        return {'jsonrpc': '2.0', 'id': req_id, 'error': {'code': -32602, 'message': 'Unknown account'}}\n",  # JSON-RPC, not MCP
    )
    INVALID = (
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.shared.exceptions import McpError\nfrom mcp.types import ErrorData, INVALID_PARAMS\nmcp = FastMCP('x')\n@mcp.tool()\ndef f(v: str = '') -> str:\n    if not v:\n        raise McpError(ErrorData(code=INVALID_PARAMS, message='v is required'))\n    return v\n",
        "from mcp.server.mcpserver import MCPServer\nfrom mcp import MCPError\nmcp = MCPServer('x')\n@mcp.tool()\ndef f(n: int) -> int:\n    if n < 0:\n        raise MCPError(-32602, f'n must be >= 0, got {n}')\n    return n\n",
        "def answer_tools_call(req_id, params):\n    city = params.get('city')\n    return {'jsonrpc': '2.0', 'id': req_id, 'error': {'code': -32602, 'message': f'No forecast for {city!r}'}}\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        code = str(message.extra.get("code", ""))
        if protocol_business(message, ctx):
            return
        jsonrpc = message.callee == "jsonrpc"
        if jsonrpc and "32602" not in code and "INVALID_PARAMS" not in code:
            return
        if not jsonrpc and not in_tool(message):
            return
        stack = detected_stack(message, ctx)
        consequence = {
            "mcp2": "it becomes a JSON-RPC error the model never sees",
            "lowlevel2": "the model never sees it",
            "mcp1": "it is wrapped as 'Error executing tool ...' today, loses its code, and breaks on mcp 2.x",
            "fastmcp": "it is wrapped as \"Error calling tool '...'\" and loses its code",
        }.get(stack, "clients MAY hide protocol errors from the model (MCP spec, tools/Error Handling)")
        fix = None
        if isinstance(message.node, cst.Call) and message.expr is not None and not message.extra.get("subclass"):
            # (a project class's raise, `BadArgument(text)`, gets no fix: its text is built in the class)
            fix = tool_error_fix(ctx, stack, "Raise ToolError with the same message", [node_edit(message.node, ctx.code, f"ToolError({ctx.code(message.expr)})")])
        yield self.finding(
            message,
            f"a tool failure is raised as a protocol error ({STACK_NAMES.get(stack, 'stack unknown')}: {consequence})",
            "Raise the stack's ToolError (or return CallToolResult(isError=True)) with the same text.",
            anchor=message.node,
            fix=fix,
        )


class MessageMaskedByFramework(Rule):
    """## What it does
    Flags a crafted message raised with a class other than the stack's `ToolError` inside an MCP tool
    (or a helper it calls in the same module) when the stack masks such exceptions: mcp >= 2.1
    MCPServer (version read from pyproject/requirements/lock files; reported as version-dependent when
    unknown), or FastMCP with `mask_error_details=True`. Pydantic validators and bare `raise` are exempt,
    and so are the classes the stack passes through with their text: fastmcp's `FastMCPError` family
    (`ToolError`, `ValidationError`, `ResourceError`, `AuthorizationError`, ...), mcp's `ToolError` and
    `ResourceError`, and project subclasses of these (`class NotFound(ToolError)`, in this module or
    another one that imports `ToolError` from the stack). So is a raise that every tool reaching it
    runs inside a converter: a decorator or context manager in the same module that catches the class
    and raises the stack's `ToolError` (`@reports_failures`, `with reported_to_model():`).

    ## Why is this bad?
    The model receives only "Error executing tool <name>" (25 characters) or "Error calling tool
    '<name>'": the carefully written message is thrown away (python-sdk PR #3314).

    ## Example
    ```python
    @mcp.tool()
    def get(item_id: str) -> str:
        raise ValueError(f"Unknown item {item_id!r}; call list_items.")
    ```

    Use instead:
    ```python
        raise ToolError(f"Unknown item {item_id!r}; call list_items.")
    ```

    ## Fix safety
    Unsafe: the class changes, so callers catching `ValueError` behave differently.

    ## Options
    None.
    """

    CODE = "AEM603"
    NAME = "message-masked-by-framework"
    SUMMARY = "The framework replaces this message with a generic one"
    PROFILES = ("agent",)
    SINKS = frozenset({"raise"})
    LEVEL = Level.ERROR
    FIX = Applicability.UNSAFE
    VALID = (
        "from mcp.server.mcpserver import MCPServer\nfrom mcp.server.mcpserver.exceptions import ToolError\nmcp = MCPServer('x')\n@mcp.tool()\ndef f(x: str) -> str:\n    raise ToolError(f'Unknown {x!r}; call list_x.')\n",
        "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n@mcp.tool()\ndef f(x: str) -> str:\n    raise ValueError(f'Unknown {x!r}; call list_x.')\n",
        "from mcp.server.mcpserver import MCPServer\nmcp = MCPServer('x')\ndef helper(x):\n    raise ValueError('internal')\n",
        "from mcp.server.mcpserver import MCPServer\nfrom mcp.server.mcpserver.exceptions import ToolError\nclass NotFound(ToolError):\n    pass\nmcp = MCPServer('x')\n@mcp.tool()\ndef f(x: str) -> str:\n    raise NotFound(f'Unknown {x!r}; call list_x.')\n",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ValidationError\nmcp = FastMCP('x', mask_error_details=True)\n@mcp.tool()\ndef f(x: str) -> str:\n    raise ValidationError(f'x must be a slug (got {x!r})')\n",
    )
    INVALID = (
        "from mcp.server.mcpserver import MCPServer\nmcp = MCPServer('x')\n@mcp.tool()\ndef f(x: str) -> str:\n    raise ValueError(f'Unknown {x!r}; call list_x.')\n",
        "from fastmcp import FastMCP\nmcp = FastMCP('x', mask_error_details=True)\n@mcp.tool()\ndef f(x: str) -> str:\n    raise RuntimeError(f'Unknown {x!r}; call list_x.')\n",
        "from mcp.server.mcpserver import MCPServer\nmcp = MCPServer('x')\ndef check(x):\n    if not x:\n        raise KeyError('x is required; pass an id.')\n@mcp.tool()\ndef f(x: str) -> str:\n    check(x)\n    return x\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        function = message.context.function
        if function is None or function.role == "validator" or not (function.role == "tool" or function.reachable_from_tool):
            return
        composed = message.extra.get("composed") is not None  # an exception class's text, read at the raise
        if message.extra.get("messageless") or not any(t.pieces or composed and t.literal.strip() for t in message.templates):
            return
        stack = detected_stack(message, ctx)
        masked, note = self._masked(stack, ctx)
        if not masked or reaches_unmasked(message.callee, stack, ctx) or converted_on_the_way(message, ctx):
            return
        module, name = TOOL_ERROR_IMPORT.get(stack, ("fastmcp.exceptions", "ToolError"))
        fix = None
        if isinstance(message.node, cst.Call) and isinstance(message.node.func, (cst.Name, cst.Attribute)):
            fix = tool_error_fix(ctx, stack, f"Raise {name} instead of {message.callee.rsplit('.', 1)[-1]}", [node_edit(message.node.func, ctx.code, name)])
        yield self.finding(
            message,
            f"{STACK_NAMES.get(stack, stack)} replaces this `{message.callee.rsplit('.', 1)[-1]}` text with a generic 'Error executing tool' message{note}",
            f"Raise {name} (from {module} import {name}) so the model sees the text.",
            anchor=message.node if message.node is not None else None,
            fix=fix,
        )

    def _masked(self, stack: str, ctx: FileContext):
        if stack == "fastmcp":
            return (ctx.facts.mask_error_details, "") if ctx.facts.mask_error_details else (False, "")
        if stack != "mcp2":
            return False, ""
        version = ctx.mcp_versions.get("mcp", "")
        parts = [int(p) for p in re.findall(r"\d+", version)[:2]] + [0, 0]
        if version and (parts[0], parts[1]) >= (2, 1):
            return True, f" (mcp {version})"
        if version and not version.startswith(">="):
            return False, ""
        return True, " (depends on version: masked from mcp 2.1.0 on; pin mcp to know)"


def reaches_unmasked(callee: str, stack: str, ctx: FileContext) -> bool:
    """True when the raised class is one the stack passes through unmasked, or a subclass of one
    defined in this file (`class NotFound(ToolError)`, fastmcp's `ValidationError`)."""
    if stack not in UNMASKED:
        return False
    if f"{stack}:{callee.rsplit('.', 1)[-1]}" in ctx.pass_through:
        return True  # a project subclass of this stack's pass-through class, defined in another module
    seen, todo = set(), [callee]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if stack_passing(name) == stack:
            return True
        todo.extend(ctx.facts.class_bases.get(name, ()))
    return False


class LowlevelHandlerRaises(Rule):
    """## What it does
    Flags a `raise` (other than `MCPError`) in an mcp 2.x low-level `Server(on_call_tool=handler)`
    handler, or a function it calls in the same module, unless the raise sits in a `try` whose handler
    catches it.

    ## Why is this bad?
    mcp 2.x no longer turns handler exceptions into `CallToolResult(is_error=True)`: the client gets
    "Internal server error" and the model sees nothing (docs/migration.md).

    ## Example
    ```python
    async def handle(ctx, params):
        raise ValueError("unknown city")
    server = Server("w", on_call_tool=handle)
    ```

    Use instead:
    ```python
    async def handle(ctx, params):
        return CallToolResult(content=[TextContent(type="text", text="Unknown city 'x'; use one of: oslo, lima.")], is_error=True)
    ```

    ## Fix safety
    Display-only.

    ## Options
    None.
    """

    CODE = "AEM604"
    NAME = "lowlevel-handler-raises"
    SUMMARY = "An exception escapes an mcp 2.x low-level tool handler"
    PROFILES = ("agent",)
    SINKS = frozenset({"raise", "tool-error"})
    LEVEL = Level.ERROR
    PROSE = False
    VALID = (
        "from mcp.server import Server\nfrom mcp.types import CallToolResult, TextContent\nasync def handle(ctx, params):\n    return CallToolResult(content=[TextContent(type='text', text='Unknown city; use oslo.')], is_error=True)\nserver = Server('w', on_call_tool=handle)\n",
        "from mcp.server.lowlevel import Server\nsrv = Server('w')\n@srv.call_tool()\nasync def handle(name, args):\n    raise ValueError('Unknown city; use oslo.')\n",
        "from mcp.server import Server\nfrom mcp import MCPError\nasync def handle(ctx, params):\n    raise MCPError(-32601, 'no such method')\nserver = Server('w', on_call_tool=handle)\n",
    )
    INVALID = (
        "from mcp.server import Server\nasync def handle(ctx, params):\n    raise ValueError('Unknown city; use oslo.')\nserver = Server('w', on_call_tool=handle)\n",
        "from mcp.server import Server\ndef check(p):\n    if not p:\n        raise KeyError('city is required; pass one.')\nasync def handle(ctx, params):\n    check(params)\nserver = Server('w', on_call_tool=handle)\n",
        "from mcp.server import Server\nasync def handle(ctx, params):\n    if not params:\n        raise RuntimeError('city is required')\nserver = Server('w', on_call_tool=handle)\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        function = message.context.function
        if function is None:
            return
        handler = function if function.role == "lowlevel" and function.stack == "lowlevel2" else None
        if handler is None and not (function.reachable_from_tool and any(f.role == "lowlevel" and f.stack == "lowlevel2" for f in ctx.facts.functions)):
            return
        raised = message.callee.rsplit(".", 1)[-1]
        if any(t in ("", "Exception", "BaseException") or t.rsplit(".", 1)[-1] == raised for t in message.context.catching):
            return
        yield self.finding(
            message,
            "an exception escapes the mcp 2.x low-level tool handler; the model sees only 'Internal server error'",
            "Catch it in the handler and return CallToolResult(content=[TextContent(type='text', text=...)], is_error=True).",
            anchor=message.node,
        )


class RedundantErrorPrefix(Rule):
    """## What it does
    Flags a `ToolError`/`MCPError` message that starts with "Error:", "Error executing tool", "Tool
    error:" or "Failed to execute tool" under stacks that already add "Error executing tool <name>: ".
    Off by default.

    ## Why is this bad?
    The model reads "Error executing tool x: Error: ..." - wasted tokens that look like a nested failure.

    ## Example
    ```python
    raise ToolError("Error: unknown region 'mars'")
    ```

    Use instead:
    ```python
    raise ToolError("unknown region 'mars'; use one of: eu, us")
    ```

    ## Fix safety
    Unsafe: removing the leading prefix changes the message text, which can break a test that
    matches it (`pytest.raises(match="Error: ...")`).

    ## Options
    None.
    """

    CODE = "AEM605"
    NAME = "redundant-error-prefix"
    SUMMARY = "A prefix the framework already adds"
    PROFILES = ("agent",)
    SINKS = frozenset({"tool-error", "protocol-error"})
    DEFAULT = False
    LEVEL = Level.INFO
    FIX = Applicability.UNSAFE
    VALID = (
        "from mcp.server.fastmcp.exceptions import ToolError\nraise ToolError(\"unknown region 'mars'; use eu or us\")\n",
        "from fastmcp.exceptions import ToolError\nraise ToolError('Errors in 2 rows; fix rows 3 and 9.')\n",
        "from mcp.server.fastmcp.exceptions import ToolError\nraise ToolError('Rate limited; retry after 30 s.')\n",
    )
    INVALID = (
        "from mcp.server.fastmcp.exceptions import ToolError\nraise ToolError(\"Error: unknown region 'mars'\")\n",
        "from mcp.server.mcpserver.exceptions import ToolError\nraise ToolError('Error executing tool: bad region')\n",
        "from mcp.server.fastmcp.exceptions import ToolError\nraise ToolError('Tool error: bad region')\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        for template in message.templates:
            if not template.parts or not isinstance(template.parts[0], str):
                continue
            found = REDUNDANT_PREFIX.match(template.parts[0])
            if found:
                prefix = found.group(0)
                fix = None
                if len(message.templates) == 1 and template.pieces and template.pieces[0].text.startswith(prefix):
                    edit = replace_in_piece(template.pieces[0].node, ctx.code, prefix, "")
                    if edit is not None:
                        fix = Fix(Applicability.UNSAFE, f"Remove the \"{prefix.strip()}\" prefix", (edit,))
                yield self.finding(message, f"\"{prefix.strip()}\" repeats the prefix the MCP framework adds", f"Drop \"{prefix.strip()}\".", fix=fix)
                return
