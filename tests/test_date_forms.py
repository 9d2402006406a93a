"""A date parser in a validating `try` requires a layout: `strptime(day, "%Y-%m-%d")` the literal
one, `fromisoformat`/`isoparse` ISO 8601. The word "date" in "The date could not be read" names the
value, not the form; the layout (`YYYY-MM-DD`, `%Y-%m-%d`, `ISO 8601`), an example or a "must be"
clause states it (`guards.PARSE_FORMS`, `guards._layout`)."""
from __future__ import annotations

import pytest

from conftest import lint

TOOL = '''
from datetime import datetime
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("cal")

@mcp.tool()
def book(day: str) -> str:
    try:
        when = {parse}
    except ValueError:
        raise ToolError({text})
    return str(when)
'''


def allowed(parse: str, text: str) -> list:
    return [d.message for d in lint(TOOL.format(parse=parse, text=text), select=["AEM204"])]


def test_a_literal_layout_is_the_form_to_state():
    assert allowed('datetime.strptime(day, "%Y-%m-%d")', 'f"The date {day!r} could not be read."') == [
        "the message does not say what is allowed (day must be a date in the form %Y-%m-%d)"]


def test_iso_parsing_asks_for_a_date():
    assert allowed("datetime.fromisoformat(day)", 'f"Start date {day!r} was not understood."') == [
        "the message does not say what is allowed (day must be a date)"]


@pytest.mark.parametrize("text", [
    'f"The date {day!r} could not be read; use YYYY-MM-DD."',
    'f"The date {day!r} is not in the form %Y-%m-%d."',
    'f"Day {day!r} is not an ISO 8601 date."',
    'f"Day {day!r} could not be read (e.g. 2026-12-04)."',
    'f"Day {day!r} must be a calendar day."',
])
def test_a_stated_layout_example_or_requirement_satisfies_it(text):
    assert allowed('datetime.strptime(day, "%Y-%m-%d")', text) == []


def test_a_cli_option_parsed_with_dateutil():
    code = '''
        import click
        from dateutil.parser import isoparse

        @click.command()
        @click.option("--since")
        def report(since):
            try:
                start = isoparse(since)
            except ValueError:
                raise click.ClickException(f"Invalid date {since!r}")
            click.echo(start)
    '''
    assert [d.message for d in lint(code, select=["AEM204"])] == [
        "the message does not say what is allowed (since must be a date)"]
