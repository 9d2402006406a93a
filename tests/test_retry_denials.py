"""AEM502 and a denial of retrying that is bounded in time: "do not retry before the 1st", "until the
lock is released", "for 30 seconds" tell the reader when to call again (retry timing), so they are
not a stop. An unbounded "do not retry" on a fixable error still is.
"""
from __future__ import annotations

import pytest

from conftest import at

TOOL = """from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("x")


@mcp.tool()
def search(q: str, page: int = 1) -> str:
    resp = api.search(q, page=page)
    if resp.status_code == 429:
        raise ToolError({text!r})
    return resp.text
"""


@pytest.mark.parametrize("text", [
    "Monthly search quota exhausted; it resets on the 1st. Do not retry before then.",
    "Rate limited by the search API. Don't try again for 30 seconds.",
    "Too many requests. Do not repeat the call within the next minute.",
    "The index is rebuilding. Do not retry until it finishes (about 5 minutes).",
    "Daily quota used up. Don't retry today; call search_cached instead.",
])
def test_a_denial_bounded_in_time_is_retry_timing(text):
    assert at(TOOL.format(text=text), select=["AEM502"]) == []


@pytest.mark.parametrize("text", [
    "Search failed. Do not retry.",
    "Too many requests; do not retry, the agent should stop here.",
    "Query rejected. Don't try again - this cannot be fixed.",
])
def test_an_unbounded_denial_is_still_a_stop(text):
    assert at(TOOL.format(text=text), select=["AEM502"]) == [(10, "AEM502")]
