"""A protocol error that rejects a tool name or reports a resource not found is read by the client
host, which holds the tool and resource lists: no missing-part rule asks it for a value, an allowed
list or a next step (`checks.protocol_errors`). A handshake code on an argument check, tool arguments
rejected as a protocol error, and a tool failure raised as one are still judged."""
from __future__ import annotations

import textwrap

import pytest

from conftest import PREVIEW, lint

PARTS_AND_PROTOCOL = ["AEM201", "AEM202", "AEM203", "AEM204", "AEM205", "AEM602"]


def found(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(textwrap.dedent(code), select=PARTS_AND_PROTOCOL, settings=PREVIEW))


HOST_READS = {
    "unknown_tool_in_a_middleware": """
        from mcp import MCPError
        from mcp.server.mcpserver import MCPServer
        from mcp.types import INVALID_PARAMS

        server = MCPServer("time")

        async def middleware(ctx, call_next):
            if ctx.method == "tools/call" and ctx.params is not None:
                name = ctx.params.get("name")
                if isinstance(name, str) and name not in {tool.name for tool in await server.list_tools()}:
                    raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {name}")
            return await call_next(ctx)

        server.middleware.append(middleware)
    """,
    "lowlevel_dispatcher_rejecting_a_name": """
        import mcp.types as types
        from mcp.server.lowlevel import Server
        from mcp.shared.exceptions import McpError

        srv = Server("weather")
        HANDLERS = {"forecast": None, "alerts": None}

        @srv.call_tool()
        async def route(name: str, arguments: dict):
            if name not in HANDLERS:
                raise McpError(types.ErrorData(code=types.INVALID_PARAMS, message=f"No such tool {name!r}"))
            return HANDLERS[name](arguments)
    """,
    "resource_not_found_code": """
        from mcp.server.fastmcp import FastMCP
        from mcp.shared.exceptions import McpError
        from mcp.types import ErrorData

        mcp = FastMCP("books")

        @mcp.resource("books://{book_id}")
        def book(book_id: str) -> str:
            if not book_id.isdigit():
                raise McpError(ErrorData(code=-32002, message="Resource not found"))
            return book_id
    """,
}


@pytest.mark.parametrize("name", sorted(HOST_READS))
def test_a_protocol_error_the_host_reads_needs_no_parts(name):
    assert found(HOST_READS[name]) == []


def test_an_unknown_tool_reply_the_model_reads_is_still_judged():
    # a low-level mcp 1.x handler turns a ValueError into an isError result: the model reads it
    code = """
        from mcp.server.lowlevel import Server

        srv = Server("weather")

        @srv.call_tool()
        async def route(name: str, arguments: dict):
            if name == "forecast":
                return []
            raise ValueError("That tool does not exist")
    """
    assert found(code) == [(10, "AEM202"), (10, "AEM204")]


def test_an_argument_check_raised_with_a_handshake_code_is_judged_for_its_parts():
    # AEM602 leaves handshake codes alone, but the text rejects the reader's argument
    code = """
        from mcp.server.fastmcp import FastMCP
        from mcp.shared.exceptions import McpError
        from mcp.types import METHOD_NOT_FOUND, ErrorData

        mcp = FastMCP("x")

        @mcp.tool()
        def sample(kind: str) -> str:
            if kind == "sampling":
                raise McpError(ErrorData(code=METHOD_NOT_FOUND, message="Sampling is not supported"))
            return kind
    """
    assert found(code) == [(11, "AEM201"), (11, "AEM203")]


def test_tool_arguments_rejected_as_a_protocol_error_are_judged():
    code = """
        from mcp import MCPError
        from mcp.server.mcpserver import MCPServer
        from mcp.types import INVALID_PARAMS

        server = MCPServer("units")
        UNITS = {"m", "ft"}

        @server.tool()
        def convert(value: float, unit: str) -> float:
            if unit not in UNITS:
                raise MCPError(code=INVALID_PARAMS, message="Invalid tool arguments")
            return value
    """
    assert found(code) == [(12, "AEM202"), (12, "AEM204"), (12, "AEM602")]


def test_a_tool_failure_raised_as_a_protocol_error_is_still_judged():
    code = """
        from mcp.server.fastmcp import FastMCP
        from mcp.shared.exceptions import McpError
        from mcp.types import INVALID_PARAMS, ErrorData

        mcp = FastMCP("x")

        @mcp.tool()
        def resize(width: int) -> str:
            if width > 4096:
                raise McpError(ErrorData(code=INVALID_PARAMS, message="The width is too large"))
            return str(width)
    """
    assert found(code) == [(11, "AEM202"), (11, "AEM204"), (11, "AEM602")]
