"""AEM302 flags a literal home path in a message: it names an account. A path the sentence offers as
an example of the allowed form ("must be absolute, e.g. '/home/me/q1.xlsx'") is made up, so it names
nobody (excel-mcp-server). A real path in a later sentence is still reported."""
from __future__ import annotations

import pytest

from conftest import PREVIEW, lint

HEAD = "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef f(path: str):\n"


def rows(text: str) -> list:
    code = HEAD + f"    raise ToolError({text!r})\n"
    return sorted(d.location.row for d in lint(code, select=["AEM302"], settings=PREVIEW))


@pytest.mark.parametrize("text", [
    "Path must be absolute, e.g. 'C:\\\\Reports\\\\q1.xlsx' or '/home/me/q1.xlsx'.",
    "Pass an absolute folder, for example /Users/alice/projects/app.",
    "Give a config file such as /home/dev/.config/tool.toml; relative paths are not read.",
    "Expected a workspace path (example: /home/you/workspace).",
])
def test_a_path_offered_as_an_example_is_not_a_leak(text):
    assert rows(text) == []


@pytest.mark.parametrize("text", [
    "Cannot read /home/bob/project/settings.toml; run `app init`.",
    "Paths must be absolute, e.g. /srv/app. Could not read /home/bob/app.toml.",
    "No workspace at /Users/carol/work; create it with `app new`.",
])
def test_a_real_home_path_is_still_reported(text):
    assert rows(text) == [6]
