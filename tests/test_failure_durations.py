"""A duration can measure the failure instead of the wait (`prose.measures_failure`).

"timed out after 10s", "gave no answer in 30 s", "ran for more than {limit} minutes" say how long the
failed work ran; they do not tell the reader when to retry, so AEM206 still asks for the timing. A
duration in a clause that looks forward ("retry in 30 s", "back in 5 minutes", "wait 10 s") is the
timing, whatever the clause before it reported.
"""
from __future__ import annotations

import pytest

from conftest import PREVIEW, lint


def found(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, select=["AEM206"], settings=PREVIEW))


MCP = '''import requests
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("notes")


@mcp.tool()
def read_note(note_id: str) -> str:
    try:
        r = requests.get(f"http://127.0.0.1:41184/notes/{{note_id}}", timeout=10)
    except requests.exceptions.Timeout:
        raise ToolError({text})
    return r.text
'''

CLI = '''import subprocess

import click


@click.command()
@click.argument("target")
def build(target):
    try:
        subprocess.run(["make", target], check=True, timeout=1800)
    except subprocess.TimeoutExpired:
        raise click.ClickException({text})
'''

HTTP = '''import httpx
from fastapi import FastAPI, HTTPException

app = FastAPI()


@app.get("/quote/{{symbol}}")
async def quote(symbol: str):
    try:
        async with httpx.AsyncClient(timeout=60) as client:
            r = await client.get(f"https://prices.example.com/{{symbol}}")
    except httpx.TimeoutException:
        raise HTTPException(status_code=504, detail={text})
    return r.json()
'''


@pytest.mark.parametrize(
    "shape, text, row",
    [
        (MCP, '"Request for the note timed out after 10s"', 13),
        (MCP, 'f"No response from Joplin in {10} s."', 13),
        (CLI, 'f"Build of {target} did not finish within 30 minutes"', 12),
        (CLI, '"make ran for more than 30 min and was killed"', 12),
        (HTTP, '"The price service gave no answer for 60 s."', 13),
    ],
)
def test_a_duration_of_the_failure_is_not_retry_timing(shape, text, row):
    assert found(shape.format(text=text)) == [(row, "AEM206")]


@pytest.mark.parametrize(
    "shape, text",
    [
        (MCP, '"Request for the note timed out after 10s; retry in 30 s."'),
        (MCP, '"Joplin did not answer in 10 s, wait 30 s and call read_note again."'),
        (CLI, '"make timed out after 30 minutes; the build farm is back in 1 hour."'),
        (HTTP, '"The price service timed out; try again after 60 s."'),
        (HTTP, '"The price service is overloaded for about 5 minutes."'),
    ],
)
def test_a_duration_in_a_clause_that_looks_forward_is_timing(shape, text):
    assert found(shape.format(text=text)) == []


@pytest.mark.parametrize("shape, text, row", [
    (MCP, '"Request for the note timed out after 10s; ask for fewer fields with `fields=title`."', None),
    (CLI, 'f"make {target} timed out after 30 minutes; build one subdirectory with --jobs 4."', None),
    (HTTP, '"The price service timed out; request fewer symbols per call."', None),
])
def test_a_timeout_that_says_how_to_change_the_call(shape, text, row):
    assert found(shape.format(text=text)) == ([] if row is None else [(row, "AEM206")])


def test_a_rate_limit_still_needs_the_wait():
    code = """import httpx
from fastapi import FastAPI, HTTPException

app = FastAPI()


@app.get("/quote/{symbol}")
async def quote(symbol: str):
    async with httpx.AsyncClient() as client:
        r = await client.get(f"https://prices.example.com/{symbol}")
    if r.status_code == 429:
        raise HTTPException(status_code=503, detail="The price service is rate limited; request fewer symbols per call.")
    return r.json()
"""
    assert found(code) == [(12, "AEM206")]


def test_a_step_put_as_a_suggestion_is_a_step():
    # "Consider simplifying ...", "try narrowing ...": the gerund after a softener is the instruction
    assert found(MCP.format(text='"The note request timed out after 10s. Consider requesting fewer fields."')) == []
    assert found(HTTP.format(text='"The price service timed out; try splitting the symbols into smaller calls."')) == []
    assert found(HTTP.format(text='"The price service timed out. Consider the following."')) == [(13, "AEM206")]



PROBE = """import subprocess
import sys

import click


@click.command()
@click.argument("paths", nargs=-1)
def probe(paths):
    working = []
    for path in paths:
        try:
            subprocess.run([path, "--version"], timeout=10, check=True)
            working.append(path)
        except subprocess.TimeoutExpired:
            print(f"{path} timed out after 10s{tail}", file=sys.stderr)
{after}
    click.echo(" ".join(working))
"""


def test_a_diagnostic_of_a_failure_the_program_works_around():
    # the handler notes the timeout and goes on with the next candidate: nobody is to retry it
    assert found(PROBE.replace("{tail}", "; skipping it").replace("{after}", "")) == []
    # the same line before the command gives up is the failure's report
    assert found(PROBE.replace("{tail}", "").replace("{after}", "            sys.exit(1)")) == [(16, "AEM206")]
    # an exit anywhere in the handler ends the command there too
    assert found(PROBE.replace("{tail}", "").replace("{after}", "            if not working:\n                sys.exit(1)")) == [(16, "AEM206")]
