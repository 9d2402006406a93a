"""A code span is a tool reference only when the message says it is one (AEM209).

"`page_size` must be 100 or less" names an input, "set `max_results` in config.toml" a setting,
"`created_at` is read-only" a field: none tells the reader to call a tool. AEM209 reports a name that
is not registered when the message says to call or use it ("call X", "use `X`", "run `X`", "the X
tool"), or when it is a near miss of a registered tool; never when it names an input of the tool or
of another tool in the file.
"""
from __future__ import annotations

import pytest

from conftest import lint

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
