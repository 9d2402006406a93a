"""AEM405 judges the list a message offers as the allowed values, not every collection it shows
(`checks.size._offered`).

"Unknown filter fields {unknown}; allowed fields: status, priority" echoes the keys the caller sent
(bounded by its own request) and then lists a closed set: nothing to flag. "valid columns: {cols}"
where `cols` comes from a file or a database offers a list that can grow without bound.
"""
from __future__ import annotations

from conftest import PREVIEW, lint


def found(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, select=["AEM405"], settings=PREVIEW))


def test_the_rejected_items_echoed_before_a_closed_list():
    code = '''import json

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("tickets")
FIELDS = ("status", "assignee", "priority")


@mcp.tool()
def search(filter_json: str) -> list:
    criteria = json.loads(filter_json)
    unknown = sorted(set(criteria) - set(FIELDS))
    if unknown:
        raise ToolError(f"Unknown filter fields {unknown}; allowed fields: {', '.join(FIELDS)}.")
    return []
'''
    assert found(code) == []


def test_an_offered_list_read_from_data():
    code = '''import csv

import click


@click.command()
@click.argument("path")
@click.option("--column")
def show(path, column):
    with open(path) as fh:
        header = next(csv.reader(fh))
    if column not in header:
        raise click.ClickException(f"Unknown column {column!r}; valid columns: {', '.join(header)}")
'''
    assert found(code) == [(13, "AEM405")]


def test_an_offered_list_after_an_echo():
    code = '''from fastapi import FastAPI, HTTPException

app = FastAPI()


@app.get("/projects/{pid}")
def project(pid: str, db=None):
    ids = [p.id for p in db.all_projects()]
    if pid not in ids:
        raise HTTPException(404, detail=f"No project {pid!r}. Available: {', '.join(ids)}")
    return {}
'''
    assert found(code) == [(10, "AEM405")]


def test_a_collection_before_the_allowed_word_is_not_offered():
    code = '''from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("tags")


@mcp.tool()
def tag(item: str, tags: list[str]) -> str:
    bad = [t for t in tags if t.startswith("_")]
    if bad:
        raise ToolError(f"Tags {bad} are not allowed; drop the leading underscore.")
    return "ok"
'''
    assert found(code) == []
