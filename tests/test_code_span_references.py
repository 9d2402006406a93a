"""A code span is a tool reference only when the message says it is one (AEM209).

"`page_size` must be 100 or less" names an input, "set `max_results` in config.toml" a setting,
"`created_at` is read-only" a field: none tells the reader to call a tool. AEM209 reports a name that
is not registered when the message says to call or use it ("call X", "use `X`", "run `X`", "the X
tool"), or when it is a near miss of a registered tool; never when it names an input of the tool or
of another tool in the file.
"""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import lint
from errlint.cli import main

SERVER = '''from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("docs")


@mcp.tool()
def list_docs(folder_id: str = "") -> list:
    return []


@mcp.tool()
def get_doc(doc_id: str) -> dict:
    return {}


@mcp.tool()
def search_docs(query: str, page_size: int = 20) -> list:
    if page_size > 100:
        raise ToolError(TEXT)
    return []
'''


def _aem209(text):
    return [d.message for d in lint(SERVER.replace("TEXT", repr(text)), select=["AEM209"])]


@pytest.mark.parametrize("text", [
    "`page_size` must be 100 or less.",  # this tool's input
    "`folder_id` narrows a listing; `page_size` must be 100 or less.",  # another tool's input
    "Results are capped; set `max_results` in config.toml to change the cap.",  # a setting
    "The field `created_at` is read-only; sort by `updated_at` instead.",  # fields of a record
])
def test_a_code_span_that_names_no_tool_is_not_a_reference(text):
    assert _aem209(text) == []


@pytest.mark.parametrize("text, ref", [
    ("Too many results; use `list_doc` to browse instead.", "list_doc"),  # a near miss, said as a tool
    ("Too many results; narrow with `search_doc`.", "search_doc"),  # a near miss in a bare code span
    ("Too many results; run `export_all` and read the file.", "export_all"),
    ("Too many results; call fetch_page for the next page.", "fetch_page"),
    ("Too many results; the `browse_folders` tool pages through them.", "browse_folders"),
])
def test_a_name_said_as_a_tool_or_close_to_one_is_checked(text, ref):
    found = _aem209(text)
    assert len(found) == 1 and found[0].startswith(f"the message refers to tool `{ref}`, which is not registered")


@pytest.mark.parametrize("text", [
    "Sort by one field; use `created_at` or `updated_at`.",  # values to pass
    "Use `utf_8` or `latin_1` for encoding.",
    "Labels are lowercase; use `snake_case` names.",
    "Write labels in `label_name:value` syntax.",  # a piece of syntax
])
def test_use_with_a_value_is_no_tool_reference(text):
    assert _aem209(text) == []


def test_a_low_level_servers_declared_tools_count_toward_the_registry(tmp_project):
    code = '''import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("notes")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name="list_notes", description="List", inputSchema={"type": "object"}),
        types.Tool(name="read_note", description="Read", inputSchema={"type": "object"}),
        types.Tool(name="write_note", description="Write", inputSchema={"type": "object"}),
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if "id" not in arguments:
        raise ValueError("A note id is needed; call new_note_id to make one.")
    return []
'''
    (tmp_project / "server.py").write_text(code)
    result = CliRunner().invoke(main, ["--select", "AEM209", "--output-format", "json", "server.py"])
    assert [(d["location"]["row"], d["message"].split(";")[0]) for d in json.loads(result.output)] == [
        (19, "the message refers to tool `new_note_id`, which is not registered")]
