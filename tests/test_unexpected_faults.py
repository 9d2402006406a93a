"""A catch-all handler that says, in its own words, that the failure was unexpected ("Unexpected error
in {tool}; see server log") states an internal fault: no step or missing part fits a failure nobody
foresaw (`checks.base.internal_fault`). The same words outside a catch-all, or a catch-all that
words a specific failure, are still judged."""
from __future__ import annotations

import textwrap

import pytest

from conftest import PREVIEW, lint

PARTS = ["AEM201", "AEM202", "AEM203", "AEM204", "AEM205"]

TOOL = """
import functools
import logging
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("x")
log = logging.getLogger(__name__)
{body}
"""


def rows(body: str) -> list:
    code = TOOL.format(body=textwrap.dedent(body))
    return sorted({d.location.row for d in lint(code, select=PARTS, settings=PREVIEW)})


UNFORESEEN = {
    "decorator_boundary": """
        def as_tool_errors(function):
            @functools.wraps(function)
            def wrapper(*args, **kwargs):
                try:
                    return function(*args, **kwargs)
                except Exception as error:
                    log.exception("Unexpected error in %s", function.__name__)
                    raise ToolError(f"Unexpected error in {function.__name__}; see server log") from error
            return wrapper
    """,
    "bare_except_in_a_tool": """
        @mcp.tool()
        def convert(path: str) -> str:
            try:
                return open(path).read()
            except:
                raise ToolError("An unhandled exception occurred while converting")
    """,
    "exception_in_a_tool_with_a_specific_handler_first": """
        @mcp.tool()
        def convert(path: str) -> str:
            try:
                return open(path).read()
            except FileNotFoundError:
                raise ToolError(f"No file at {path!r}; call list_files to see the files.")
            except BaseException:
                raise ToolError("Unexpected failure while converting")
    """,
}


@pytest.mark.parametrize("name", sorted(UNFORESEEN))
def test_a_catch_all_saying_the_failure_was_unexpected_is_an_internal_fault(name):
    assert rows(UNFORESEEN[name]) == []


def test_unexpected_outside_a_catch_all_is_judged():
    body = """
        @mcp.tool()
        def convert(fmt: str) -> str:
            if fmt not in ("csv", "json"):
                raise ToolError("Unexpected format")
            return fmt
    """
    assert rows(body) == [13]


@pytest.mark.parametrize("body, row", [
    # a catch-all around one parse of the reader's value
    ("""
        @mcp.tool()
        def schedule(date: str) -> str:
            try:
                day = datetime.date.fromisoformat(date)
            except Exception:
                raise ToolError("Unexpected error while reading the date.")
            return str(day)
    """, 15),
    # a client-error status says the reader's request was at fault
    ("""
        from fastapi import HTTPException

        def upload(payload: bytes) -> str:
            try:
                return payload.decode()
            except Exception:
                raise HTTPException(status_code=400, detail="Unexpected error processing the upload")
    """, 16),
])
def test_a_catch_all_about_the_readers_value_is_judged(body, row):
    assert rows(body) == [row]


def test_a_catch_all_wording_a_specific_failure_is_judged():
    body = """
        @mcp.tool()
        def convert(path: str) -> str:
            try:
                return open(path).read()
            except Exception:
                raise ToolError("The file could not be read")
    """
    assert rows(body) == [15]
