"""What the masking MCP stacks let through, checked against the installed fastmcp 4.x and mcp 2.x
(the `test` extra), next to what AEM603 says about the same raises.

AEM603 exempts the classes a stack passes through with their text; these tests prove those facts on
the real frameworks (skipped where a framework is not installed, e.g. on Python 3.9/3.10).
"""
from __future__ import annotations

import asyncio
import logging

import pytest

from conftest import codes, lint

MESSAGE = "x must be below 10 (got 12); pass a smaller x."


def _fastmcp_texts():
    fastmcp = pytest.importorskip("fastmcp")
    if int(fastmcp.__version__.split(".")[0]) < 4:
        pytest.skip("needs fastmcp 4.x")
    from fastmcp import Client, FastMCP
    from fastmcp.exceptions import ToolError, ValidationError

    class NotFound(ToolError):
        pass

    server = FastMCP("masking", mask_error_details=True)

    @server.tool
    def subclass(x: int) -> str:
        raise NotFound(MESSAGE)

    @server.tool
    def validation(x: int) -> str:
        raise ValidationError(MESSAGE)

    @server.tool
    def plain(x: int) -> str:
        raise ValueError(MESSAGE)

    async def run():
        out = {}
        async with Client(server) as client:
            for name in ("subclass", "validation", "plain"):
                result = await client.call_tool(name, {"x": 12}, raise_on_error=False)
                out[name] = (result.is_error, result.content[0].text)
        return out

    logging.disable(logging.CRITICAL)
    try:
        return asyncio.run(run())
    finally:
        logging.disable(logging.NOTSET)


def _mcp_texts():
    pytest.importorskip("mcp.server.mcpserver")
    from mcp import Client
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ResourceError, ToolError

    class NotFound(ToolError):
        pass

    server = MCPServer("masking")

    @server.tool()
    def subclass(x: int) -> str:
        raise NotFound(MESSAGE)

    @server.tool()
    def resource_error(x: int) -> str:
        raise ResourceError(MESSAGE)

    @server.tool()
    def plain(x: int) -> str:
        raise ValueError(MESSAGE)

    async def run():
        out = {}
        async with Client(server) as client:
            for name in ("subclass", "resource_error", "plain"):
                result = await client.call_tool(name, {"x": 12})
                out[name] = (result.is_error, result.content[0].text)
        return out

    logging.disable(logging.CRITICAL)
    try:
        return asyncio.run(run())
    finally:
        logging.disable(logging.NOTSET)


def test_fastmcp_masking_lets_tool_error_subclasses_and_validation_errors_through():
    texts = _fastmcp_texts()
    assert texts["subclass"] == (True, MESSAGE)
    assert texts["validation"] == (True, MESSAGE)
    assert texts["plain"] == (True, "Error calling tool 'plain'")
    # errlint agrees: only the plain ValueError is masked
    found = codes(f'''
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError, ValidationError
        class NotFound(ToolError):
            pass
        class Missing(NotFound):
            pass
        server = FastMCP("masking", mask_error_details=True)
        @server.tool
        def subclass(x: int) -> str:
            raise Missing("{MESSAGE}")
        @server.tool
        def validation(x: int) -> str:
            raise ValidationError("{MESSAGE}")
        @server.tool
        def plain(x: int) -> str:
            raise ValueError("{MESSAGE}")
    ''', select=["AEM603"])
    assert found == ["AEM603"]


def test_mcp_server_lets_tool_error_subclasses_through_and_masks_the_rest():
    texts = _mcp_texts()
    assert texts["subclass"] == (True, f"Error executing tool subclass: {MESSAGE}")
    assert texts["resource_error"] == (True, f"Error executing tool resource_error: {MESSAGE}")
    assert texts["plain"] == (True, "Error executing tool plain")
    found = [d.location.row for d in lint(f'''
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ResourceError, ToolError
        class NotFound(ToolError):
            pass
        server = MCPServer("masking")
        @server.tool()
        def subclass(x: int) -> str:
            raise NotFound("{MESSAGE}")
        @server.tool()
        def resource_error(x: int) -> str:
            raise ResourceError("{MESSAGE}")
        @server.tool()
        def plain(x: int) -> str:
            raise ValueError("{MESSAGE}")
    ''', select=["AEM603"])]
    assert found == [15]
