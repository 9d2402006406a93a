"""A tool's returned error reply is read as a raised error is (#13 Deliver 4: "AEM601 and every
content rule apply to it"; `checks.error_replies`).

- The missing-part rules (AEM2xx) and AEM101 read it, as the phrase rules already did: the agent acts on
  "Unable to fetch forecast: the service took too long" whether it comes as a raise or a return.
- A failure statement is error text on a branch that handles the failure of what the tool ran (an
  `except`, a test of `proc.returncode` or `resp.status_code`): "gh pr list failed (exit 1)".
- An error dict returned as JSON inside `TextContent` is read by its fields, as the dict itself is.
- A dict display that spreads another (`{**os.environ, "NO_COLOR": "1"}`) holds what it spreads.
"""
from __future__ import annotations

from conftest import PREVIEW, lint


def found(code: str, select=None) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, select=select, settings=PREVIEW))


def test_a_returned_timeout_is_asked_for_retry_guidance():
    code = '''import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")


@mcp.tool()
async def forecast(lat: float, lon: float) -> str:
    async with httpx.AsyncClient(timeout=8.0) as client:
        try:
            r = await client.get(f"https://api.weather.gov/points/{lat},{lon}")
        except httpx.TimeoutException:
            return "Unable to fetch forecast: the weather service took too long to answer."
    return r.text
'''
    assert found(code, select=["AEM206", "AEM601"]) == [(13, "AEM206"), (13, "AEM601")]


def test_a_returned_generic_failure_is_vague():
    code = '''from fastmcp import FastMCP

mcp = FastMCP("files")


@mcp.tool()
def read(path: str) -> str:
    try:
        return open(path).read()
    except OSError:
        return "Error: something went wrong"
'''
    assert found(code, select=["AEM101", "AEM601"]) == [(11, "AEM101"), (11, "AEM601")]


def test_a_returned_rejection_owes_the_allowed_values():
    code = '''from fastmcp import FastMCP

mcp = FastMCP("units")
UNITS = {"ms", "s", "min"}


@mcp.tool()
def convert(value: float, unit: str) -> str:
    if unit not in UNITS:
        return "Error: unknown unit."
    return str(value)
'''
    assert found(code, select=["AEM202", "AEM204"]) == [(10, "AEM202"), (10, "AEM204")]  # as `raise ToolError(...)` gets


def test_a_tools_data_is_not_an_error_reply():
    code = '''from fastmcp import FastMCP

mcp = FastMCP("jobs")
JOBS = {}


@mcp.tool()
def status(job_id: str) -> str:
    job = JOBS.get(job_id)
    if job is not None and job["state"] == "running":
        return "The job is still running."
    return "done"
'''
    assert found(code) == []


def test_a_failure_statement_on_an_outcome_branch_is_error_text():
    code = '''import subprocess

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("gh")


@mcp.tool()
def gh(args: list[str]) -> str:
    proc = subprocess.run(["gh", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        return f"gh {' '.join(args)} failed (exit {proc.returncode})"
    return proc.stdout
'''
    assert found(code, select=["AEM601"]) == [(12, "AEM601")]
    http = '''import httpx
from fastmcp import FastMCP

mcp = FastMCP("crm")


@mcp.tool()
def contact(contact_id: str) -> str:
    resp = httpx.get(f"https://crm.example.com/contacts/{contact_id}")
    if resp.status_code >= 500:
        return "The CRM could not answer right now."
    return resp.text
'''
    assert found(http, select=["AEM601"]) == [(11, "AEM601")]
    # the same words under a test of the tool's own input are its answer, not a failure it hit
    answer = http.replace("resp.status_code >= 500", "contact_id.startswith('tmp-')").replace(
        '"The CRM could not answer right now."', '"Temporary contacts could not be synced yet; they are kept locally."')
    assert found(answer, select=["AEM601"]) == []


def test_an_error_dict_sent_as_json_text_content():
    code = '''import json
import traceback

from mcp.server import Server
from mcp.types import TextContent

server = Server("kusto")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[TextContent]:
    try:
        return [TextContent(type="text", text=json.dumps(await run(arguments)))]
    except Exception as exc:
        payload = {"status": "error", "message": str(exc), "traceback": traceback.format_exc()}
        return [TextContent(type="text", text=json.dumps(payload, indent=2))]
'''
    assert found(code, select=["AEM305", "AEM601"]) == [(16, "AEM305"), (16, "AEM601")]


def test_a_spread_dict_holds_what_it_spreads():
    code = '''import os
import subprocess

import click


@click.command()
@click.argument("target")
def build(target):
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run(["make", target], env=env)
    if proc.returncode:
        raise click.ClickException(f"make {target} failed with exit {proc.returncode}; environment: {env}")
'''
    assert found(code, select=["AEM304"]) == [(13, "AEM304")]
    rows = '''import click


@click.command()
@click.argument("name")
def show(name):
    base = {"name": name}
    record = {**base, "kind": "user"}
    raise click.ClickException(f"No such user: {record}")
'''
    assert found(rows, select=["AEM304", "AEM402"]) == [(9, "AEM402")]
