"""A message that names the parameter it rejects is not generic, however the name is written: a
query parameter with a leading underscore (`_facet=`, datasette), a long flag (`--limit`), a
`key=` parameter. A message that names nothing is still generic (AEM101)."""
from __future__ import annotations

import pytest

from conftest import PREVIEW, lint

TOOL = """from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("x")

@mcp.tool()
def search(q: str, facet: str = "", limit: int = 10) -> str:
    if facet or limit > 50:
        raise ToolError({text!r})
    return q
"""


def aem101(text: str) -> list:
    return [d.location.row for d in lint(TOOL.format(text=text), select=["AEM101"], settings=PREVIEW)]


@pytest.mark.parametrize("text", [
    "_facet= is not allowed",
    "--limit is not allowed here",
    "The value given for page= could not be used",
    "_sort could not be applied",
])
def test_a_named_parameter_is_not_generic(text):
    assert aem101(text) == []


@pytest.mark.parametrize("text", [
    "This parameter is not allowed",
    "The value could not be used",
])
def test_a_message_naming_nothing_is_still_generic(text):
    assert aem101(text) == [8]
