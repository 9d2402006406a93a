"""Tools registered by a call, in the shapes real servers use (the per-file roles, the project's
entry points and the registry scan agree on them):

- the decorator called on a function: `mcp.tool(lookup_user, name="user")`;
- a loop over a literal tuple or list of functions: `for fn in (a, b): mcp.add_tool(fn)`;
- a low-level server's `on_call_tool=` handler given as `functools.partial(handle, db)` or as a
  method, `self.server = Server(..., on_call_tool=self.dispatch)`.

A message in such a function is read by the agent (audience `agent`, the tool as its entry point).
"""
from __future__ import annotations

import pytest

from conftest import PREVIEW, lint
from errlint.project_scan import scan_tool_names

HELPERS = '''from fastmcp import FastMCP

mcp = FastMCP("reg")


def lookup_user(user_id: str, verbose: bool = False) -> dict:
    if not user_id.startswith("u-"):
        raise ValueError("Failed to process request.")
    return {}


def lookup_group(group_id: str, verbose: bool = False) -> dict:
    if not group_id.startswith("g-"):
        raise ValueError("Failed to process request.")
    return {}


def internal_check(value: str) -> None:
    if not value:
        raise ValueError("Failed to process request.")


'''


def _audiences(code):
    return sorted({(d.location.row, d.audience, d.entry_points) for d in lint(code, settings=PREVIEW, select=["AEM101"])})


@pytest.mark.parametrize("registration, tool_names", [
    ('mcp.tool(lookup_user, name="user")\nmcp.tool(lookup_group)\n', ("user", "lookup_group")),
    ("for fn in (lookup_user, lookup_group):\n    mcp.add_tool(fn)\n", ("lookup_user", "lookup_group")),
    ("for fn in [lookup_user, lookup_group]:\n    mcp.add_tool(fn)\n", ("lookup_user", "lookup_group")),
])
def test_a_function_registered_by_a_call_is_a_tool(registration, tool_names):
    found = _audiences(HELPERS + registration)
    assert found == [
        (8, "agent", (f"example.lookup_user (MCP tool `{tool_names[0]}`)",)),
        (14, "agent", (f"example.lookup_group (MCP tool `{tool_names[1]}`)",)),
        (20, "exc", ()),  # registered by nothing
    ]


def test_a_loop_over_a_computed_list_registers_nothing_errlint_can_name():
    found = _audiences(HELPERS + "for fn in load_plugins():\n    mcp.add_tool(fn)\n")
    assert [a for _, a, _ in found] == ["exc", "exc", "exc"]


LOWLEVEL = '''import functools
from mcp.server import Server
from mcp.types import CallToolResult, TextContent


async def handle(db, ctx, params):
    if params.name not in db:
        raise ValueError("Unknown tool; call tools/list.")
    return CallToolResult(content=[TextContent(type="text", text="ok")])

server = Server("w", on_call_tool=functools.partial(handle, {}))


class App:
    def __init__(self):
        self.server = Server("w2", on_call_tool=self.dispatch)

    async def dispatch(self, ctx, params):
        if params.name != "ping":
            raise ValueError("Unknown tool; call tools/list.")
        return CallToolResult(content=[TextContent(type="text", text="pong")])
'''


def test_a_low_level_handler_given_as_a_partial_or_a_method_is_the_call_tool_handler():
    found = sorted((d.location.row, d.code, d.entry_points) for d in lint(LOWLEVEL, select=["AEM604"]))
    assert found == [
        (8, "AEM604", ("example.handle (MCP call_tool handler)",)),
        (20, "AEM604", ("example.App.dispatch (MCP call_tool handler)",)),
    ]


def test_the_registry_scan_reads_the_decorator_called_on_a_function():
    data = b'@mcp.tool(name="a")\ndef f(): pass\nmcp.tool(lookup_user, name="user")\nmcp.tool(lookup_x)\n@mcp.tool(description="x")\ndef h(): pass\n'
    assert scan_tool_names(data) == ["a", "h", "user", "lookup_x"]


@pytest.mark.parametrize("registration", [
    "TOOLS = [lookup_user, lookup_group]\nfor fn in TOOLS:\n    mcp.add_tool(fn)\n",
    "TABLE = {'user': lookup_user, 'group': lookup_group}\nfor name, fn in TABLE.items():\n    mcp.tool(fn, name=name)\n",
    'mcp.tool(name="user")(lookup_user)\nmcp.tool()(lookup_group)\n',
])
def test_more_registration_shapes(registration):
    assert [a for _, a, _ in _audiences(HELPERS + registration)] == ["agent", "agent", "exc"]


def test_add_tool_on_an_object_that_is_no_server_registers_nothing():
    code = HELPERS + "class Toolbox:\n    def add_tool(self, fn):\n        pass\n\n\ntoolbox = Toolbox()\ntoolbox.add_tool(lookup_user)\n"
    assert [a for _, a, _ in _audiences(code)] == ["exc", "exc", "exc"]


def test_a_low_level_server_built_in_a_factory_function():
    code = LOWLEVEL.replace('server = Server("w", on_call_tool=functools.partial(handle, {}))', 'def build():\n    return Server("w", on_call_tool=functools.partial(handle, {}))')
    assert [(d.location.row, d.code) for d in lint(code, select=["AEM604"])] == [(8, "AEM604"), (21, "AEM604")]
