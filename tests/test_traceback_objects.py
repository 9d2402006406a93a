"""AEM305 and a `traceback.TracebackException` bound to a local before it is formatted: `te =
TracebackException.from_exception(e)` then `"".join(te.format())` (or `te.stack.format()`) is the
whole traceback, as the call made in place is. Its `format_exception_only()` is the last line only.
"""
from __future__ import annotations

import pytest

from conftest import at

TOOL = """import traceback
from traceback import TracebackException
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("x")


@mcp.tool()
def run_query(sql: str) -> str:
    try:
        return execute(sql)
    except Exception as e:
        {bind}
        raise ToolError({text})
"""


@pytest.mark.parametrize("bind, text", [
    ("te = traceback.TracebackException.from_exception(e)", '"".join(te.format())'),
    ("report = TracebackException(type(e), e, e.__traceback__)", '"Query failed:\\n" + "".join(report.format())'),
    ("te = TracebackException.from_exception(e, capture_locals=True)", 'f"Query failed: {\'\'.join(te.stack.format())}"'),
])
def test_a_formatted_traceback_object_bound_to_a_local(bind, text):
    assert at(TOOL.format(bind=bind, text=text), select=["AEM305"]) == [(14, "AEM305")]


@pytest.mark.parametrize("bind, text", [
    ("te = traceback.TracebackException.from_exception(e)", '"".join(te.format_exception_only()).strip()'),  # the last line
    ("te = str(e)", 'f"Query failed: {te}"'),
])
def test_the_exception_line_alone_is_not_a_traceback(bind, text):
    assert at(TOOL.format(bind=bind, text=text), select=["AEM305"]) == []
