"""A function of the file that sends the text it is handed is a sink for its callers
(`extract/sink_helpers.py`; #14 item 5: sinks from the project's own error surface).

`def fail(msg): raise ToolError(msg)` is only a hole; the text is written where `fail` is called, under
that call's guards, in the tool that runs it. Each call that passes text is judged as that sink, at the
call, and the helper's own message is not judged alone. A helper that tests what it is handed
(`def check(p): if p not in VALID: raise ...`) validates a value; its calls pass values, not messages.
"""
from __future__ import annotations

from conftest import PREVIEW, lint


def found(code: str, select=None) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, select=select, settings=PREVIEW))


def test_a_raising_helper_is_judged_at_each_call():
    code = '''from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("items")
ITEMS = {"a": 1}


def fail(msg: str):
    raise ToolError(msg)


@mcp.tool()
def get(item_id: str) -> int:
    if item_id not in ITEMS:
        fail("Something went wrong.")
    if ITEMS[item_id] < 0:
        fail(f"Item {item_id!r} is archived; call restore_item({item_id!r}) first.")
    return ITEMS[item_id]
'''
    assert found(code) == [(15, "AEM101"), (15, "AEM202"), (15, "AEM204")]


def test_a_helper_that_wraps_an_error_result():
    code = '''from datetime import date

from mcp.server.lowlevel import Server
from mcp.types import CallToolResult, TextContent

server = Server("reminders")


def _refusal(text: str) -> CallToolResult:
    return CallToolResult(isError=True, content=[TextContent(type="text", text=text)])


@server.call_tool()
async def handle(name: str, arguments: dict) -> CallToolResult:
    try:
        due = date.fromisoformat(arguments["due"])
    except ValueError:
        return _refusal("The due date could not be understood. Stop and ask the user how they want to proceed.")
    return CallToolResult(content=[TextContent(type="text", text=str(due))])
'''
    assert ("AEM502" in {c for _, c in found(code)}) and {r for r, _ in found(code)} == {18}


def test_a_helper_that_prints_and_exits_with_its_own_prefix():
    code = '''import sys

import click

MODES = ("fast", "safe")


def die(message: str, code: int = 1) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


@click.command()
@click.argument("mode")
def main(mode: str) -> None:
    if mode not in MODES:
        die("An error occurred.", 2)
    click.echo(mode)
'''
    rows = found(code, select=["AEM101"])
    assert rows == [(17, "AEM101")]


def test_a_method_helper_on_self():
    code = '''from fastmcp import FastMCP
from fastmcp.exceptions import ToolError


class Server:
    def __init__(self):
        self.mcp = FastMCP("jobs")
        self.jobs = {}
        self.mcp.tool()(self.cancel)

    def _reject(self, text: str):
        raise ToolError(text)

    def cancel(self, job_id: str) -> str:
        if job_id not in self.jobs:
            self._reject("Unable to cancel.")
        return "cancelled"
'''
    assert (16, "AEM101") in found(code, select=["AEM101"])
    assert all(row != 12 for row, _ in found(code))


def test_a_helper_that_validates_what_it_is_handed_is_no_sink():
    code = '''from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("perm")


def check(permission: str) -> None:
    if permission not in ("r", "w"):
        raise ToolError(f"Invalid permission argument: {permission!r}")


@mcp.tool()
def read(path: str) -> str:
    check("r")
    return open(path).read()
'''
    assert all(row != 14 for row, _ in found(code))


def test_a_helper_with_its_own_text_keeps_its_findings_there():
    code = '''from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("x")


def oops(where: str):
    raise ToolError("Something went wrong.")


@mcp.tool()
def go(q: str) -> str:
    if not q:
        oops("go")
    return q
'''
    assert found(code, select=["AEM101"]) == [(8, "AEM101")]


def test_a_helper_raising_a_structured_http_error_with_a_default_status():
    code = '''from fastapi import FastAPI, HTTPException

app = FastAPI()
SIZES = {"s", "m", "l"}


def bad_request(text: str, code: int = 422) -> None:
    raise HTTPException(status_code=code, detail={"message": text, "kind": "validation"})


@app.get("/shirts")
def shirts(size: str) -> list:
    if size not in SIZES:
        bad_request("Something is wrong with the request.")
    return []
'''
    # judged at the call, as a 422 whose text is the call's, under the call's guard
    assert found(code, select=["AEM101", "AEM202"]) == [(14, "AEM101"), (14, "AEM202")]


def test_a_helper_that_builds_an_error_dict_a_tool_returns():
    code = '''from fastmcp import FastMCP

mcp = FastMCP("stock")
MAX_ROWS = 200


def failure(text: str) -> dict:
    return {"ok": False, "error": text}


@mcp.tool()
def rows(sheet: str, count: int = 10) -> dict:
    if count > MAX_ROWS:
        return failure("The request could not be processed.")
    return {"ok": True, "rows": []}
'''
    assert (14, "AEM101") in found(code, select=["AEM101"])


def test_an_f_string_handed_to_a_prefixing_helper_is_read_as_one_text():
    code = '''import typer

app = typer.Typer()
REGIONS = ("eu-west-1", "us-east-1")


def fail(message: str, code: int = 2) -> None:
    typer.secho(f"error: {message}", err=True)
    raise typer.Exit(code)


@app.command()
def launch(region: str = typer.Option(..., "--region")) -> None:
    if region not in REGIONS:
        fail(f"--region {region!r} is not enabled; use one of: {', '.join(REGIONS)}, or run 'cloudctl regions enable {region}'.")
    if region.startswith("us-"):
        fail(f"Could not launch ({region}).")
'''
    rows = found(code)
    assert all(row != 15 for row, _ in rows)  # the good text, spliced into "error: ...", needs nothing
    assert (17, "AEM204") in rows  # the other call is judged there: the deny rule `us-` is not stated
    assert all(row not in (8, 9) for row, _ in rows)  # and nothing at the helper itself
