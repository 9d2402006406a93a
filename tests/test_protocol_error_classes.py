"""A project class derived from the SDK's protocol error is a protocol error (AEM602).

`class BadArgument(McpError)` (mcp 1.x) or `class Invalid(MCPError)` (mcp 2.x) raised in a tool
sends a JSON-RPC error, as `raise McpError(...)` does, whatever its `__init__` builds the text from.
The code the class sets for every instance decides the capability exemption as a literal code does
(`METHOD_NOT_FOUND` is the host's business). No fix is offered: the text is built in the class.
"""
from __future__ import annotations

import pytest

from conftest import lint

V1 = '''from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import ErrorData, INVALID_PARAMS, METHOD_NOT_FOUND

mcp = FastMCP("p")


CLASS


@mcp.tool()
def scale(factor: float, image: str) -> str:
    if factor <= 0:
        RAISE
    return image
'''


def _aem602(code):
    return [(d.location.row, d.fix is None) for d in lint(code, select=["AEM602"])]


@pytest.mark.parametrize("klass, statement", [
    ("class BadArgument(McpError):\n    def __init__(self, message: str):\n        super().__init__(ErrorData(code=INVALID_PARAMS, message=message))",
     'raise BadArgument(f"factor must be > 0 (got {factor})")'),
    ("class BadArgument(McpError):\n    pass",
     'raise BadArgument(ErrorData(code=INVALID_PARAMS, message=f"factor must be > 0 (got {factor})"))'),
    # a subclass of a subclass
    ("class ServerError(McpError):\n    pass\n\n\nclass BadArgument(ServerError):\n    def __init__(self, field: str):\n"
     "        super().__init__(ErrorData(code=INVALID_PARAMS, message=f'{field} is invalid'))",
     'raise BadArgument("factor")'),
])
def test_a_subclass_of_mcp_error_raised_in_a_tool_is_a_protocol_error(klass, statement):
    code = V1.replace("CLASS", klass).replace("RAISE", statement)
    row = code.splitlines().index("        " + statement) + 1
    assert _aem602(code) == [(row, True)]


def test_a_subclass_of_mcp_2_error_is_one_too():
    code = '''from mcp.server.mcpserver import MCPServer
from mcp import MCPError
from mcp.types import INVALID_PARAMS

mcp = MCPServer("p")


class Invalid(MCPError):
    def __init__(self, message: str):
        super().__init__(INVALID_PARAMS, message)


@mcp.tool()
def scale(factor: float, image: str) -> str:
    if factor <= 0:
        raise Invalid(f"factor must be > 0 (got {factor})")
    return image
'''
    assert _aem602(code) == [(16, True)]


@pytest.mark.parametrize("klass, statement", [
    # the class's code is a capability code: the host's business, as `McpError(METHOD_NOT_FOUND)` is
    ("class Unsupported(McpError):\n    def __init__(self, what: str):\n        super().__init__(ErrorData(code=METHOD_NOT_FOUND, message=f'{what} is not supported'))",
     'raise Unsupported("scaling")'),
    # an ordinary exception class
    ("class BadArgument(Exception):\n    pass", 'raise BadArgument(f"factor must be > 0 (got {factor})")'),
])
def test_capability_codes_and_other_classes_are_not_reported(klass, statement):
    assert _aem602(V1.replace("CLASS", klass).replace("RAISE", statement)) == []


@pytest.mark.parametrize("klass, statement, rows", [
    # the code is an `__init__` parameter's default
    ("class NotSupported(McpError):\n    def __init__(self, what: str, code: int = METHOD_NOT_FOUND):\n"
     "        super().__init__(ErrorData(code=code, message=f'{what} is not supported'))", 'raise NotSupported("scaling")', []),
    # the raise passes the code
    ("class RpcFailure(McpError):\n    def __init__(self, code: int, message: str):\n        super().__init__(ErrorData(code=code, message=message))",
     'raise RpcFailure(METHOD_NOT_FOUND, "Excel workbooks are not supported.")', []),
    ("class RpcFailure(McpError):\n    def __init__(self, code: int, message: str):\n        super().__init__(ErrorData(code=code, message=message))",
     'raise RpcFailure(INVALID_PARAMS, f"factor must be > 0 (got {factor})")', [True]),
])
def test_the_code_a_raise_or_a_default_passes_decides(klass, statement, rows):
    code = V1.replace("CLASS", klass).replace("RAISE", statement)
    assert [fixless for _, fixless in _aem602(code)] == rows
