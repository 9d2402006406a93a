"""The word "format" states a form only with the form beside it.

"Date format not recognised", "Invalid format" and "wrong format" name the check that failed; the
reader still does not know what passes it (AEM204). "format: YYYY-MM-DD", "in ISO 8601 format",
"the format is {layout}" and "JSON format" state it.
"""
from __future__ import annotations

import pytest

from conftest import codes

DATE = '''
import datetime as dt
from fastapi import FastAPI, HTTPException
app = FastAPI()


@app.get("/usage")
def usage(start: str):
    try:
        day = dt.datetime.strptime(start, "%Y-%m-%d").date()
    except ValueError:
        raise HTTPException(status_code=400, detail={text!r})
    return {{"start": day.isoformat()}}
'''

PATTERN = '''
import re
import click


@click.command()
@click.argument("ref")
def show(ref):
    if not re.fullmatch(r"[A-Z]+-[0-9]+", ref):
        raise click.BadParameter({text!r})
    click.echo(ref)
'''


@pytest.mark.parametrize("text", [
    "Date format not recognised for start.",
    "start has an invalid format.",
    "Wrong format for the start date.",
])
def test_naming_the_format_check_is_not_stating_the_form(text):
    assert "AEM204" in codes(DATE.format(text=text), select=["AEM204"])


@pytest.mark.parametrize("text", [
    "start must use the format YYYY-MM-DD.",
    "start is not a date in ISO 8601 format.",
    "start: expected format: %Y-%m-%d",
])
def test_the_form_stated_beside_format(text):
    assert codes(DATE.format(text=text), select=["AEM204"]) == []


@pytest.mark.parametrize("text, expected", [
    ("Unrecognised ticket format.", ["AEM204"]),
    ("ref is not in a valid format.", ["AEM204"]),
    ("ref must look like ABC-123.", []),
    ("ref is not in JIRA format.", []),
])
def test_a_pattern_guard_reads_format_the_same_way(text, expected):
    assert codes(PATTERN.format(text=text), select=["AEM204"]) == expected
