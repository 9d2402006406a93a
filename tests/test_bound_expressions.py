"""A bound is stated when the message interpolates the bound's own expression (#14 item 3: bounds that
are expressions). `if start > date.today()` is answered by "pass {date.today()} or earlier", `if index
>= len(items)` by "the list has {len(items)} items": the reader sees the limit's value at run time, as
it would with `{MAX_ROWS}`. `checks.allowed_values.shows_bound`.
"""
from __future__ import annotations

from conftest import PREVIEW, lint


def found(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, select=["AEM204"], settings=PREVIEW))


CLICK = '''import sys
from datetime import date

import click


@click.command()
@click.option("--since", required=True)
def export(since):
    start = date.fromisoformat(since)
    if start > date.today():
        click.echo(f"error: --since {{start}} is in the future; {tail}", err=True)
        sys.exit(2)
'''

MCP = '''from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("lists")
ITEMS = {{"groceries": ["milk", "eggs"]}}


@mcp.tool()
def pick(list_name: str, index: int) -> str:
    items = ITEMS.get(list_name, [])
    if index >= len(items):
        raise ToolError(f"index {{index}} is past the end of {{list_name}}; {tail}")
    return items[index]
'''

HTTP = '''from fastapi import FastAPI, HTTPException, UploadFile

app = FastAPI()
limits = {{"max_upload": 10_000_000}}


@app.post("/upload")
async def upload(file: UploadFile, size: int):
    if size > limits["max_upload"]:
        raise HTTPException(status_code=413, detail=f"Upload of {{size}} bytes refused; {tail}")
    return {{"ok": True}}
'''


def test_a_call_bound_interpolated_is_stated():
    assert found(CLICK.format(tail="pass today ({date.today()}) or earlier")) == []
    assert found(CLICK.format(tail="pass an earlier day")) == [(12, "AEM204")]


def test_a_measure_bound_interpolated_is_stated():
    assert found(MCP.format(tail="the list holds {len(items)} entries")) == []
    assert found(MCP.format(tail="pick another entry")) == [(12, "AEM204")]


def test_a_subscript_bound_interpolated_is_stated():
    assert found(HTTP.format(tail='the cap is {limits[ "max_upload" ]}'.replace('"', "'"))) == []
    assert found(HTTP.format(tail="the cap is {limits['max_upload']}")) == []
    assert found(HTTP.format(tail="send a smaller file")) == [(10, "AEM204")]


def test_another_expression_is_not_the_bound():
    # `{len(list_name)}` is a measure of another value, not of the list the index ran past
    assert found(MCP.format(tail="the name has {len(list_name)} letters")) == [(12, "AEM204")]


def test_an_offset_of_the_bound_is_stated():
    # "Available entries: 0-{len(items) - 1}": the last valid index, which is the bound less one
    assert found(MCP.format(tail="valid indexes are 0-{len(items) - 1}")) == []
    assert found(MCP.format(tail="valid indexes are 0 to {len(items)-1}")) == []
    # a value computed from the bound some other way is not the bound
    assert found(MCP.format(tail="that is {len(items) * 2} halves")) == [(12, "AEM204")]
