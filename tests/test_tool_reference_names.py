"""AEM209 reads a tool reference as a whole name: "Call list_docs(folder)" is a call with arguments
(code, not a reference it judges), never the unregistered `list_doc` that a shortened match would
make of it. A near miss of a registered tool's name ("call list_doc()"), with or without `()`, is
still reported.
"""
from __future__ import annotations

import pytest

from conftest import at

SERVER = """from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
mcp = FastMCP("s")
DOCS = {{"a": 1}}


@mcp.tool()
def list_docs(folder: str) -> list:
    return sorted(DOCS)


@mcp.tool()
def get_doc(doc_id: str) -> int:
    if doc_id not in DOCS:
        raise ToolError({text!r})
    return DOCS[doc_id]
"""


@pytest.mark.parametrize("text", [
    "Unknown doc_id. Call list_docs(folder) to see valid ids.",
    "Unknown doc_id; calling list_docs(folder='inbox') shows the ids.",
    "Unknown doc_id. Call `list_docs(folder)` first.",
])
def test_a_call_with_arguments_is_not_a_shortened_reference(text):
    assert at(SERVER.format(text=text), select=["AEM209"]) == []


@pytest.mark.parametrize("text", [
    "Unknown doc_id. Call list_doc() to see valid ids.",
    "Unknown doc_id. Call `list_doc` to see valid ids.",
    "Unknown doc_id. The list_doc tool shows valid ids.",
])
def test_a_reference_to_an_unregistered_tool_is_reported(text):
    assert at(SERVER.format(text=text), select=["AEM209"]) == [(15, "AEM209")]
