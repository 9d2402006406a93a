""""Unreachable" says two different things. Said of code ("unreachable", "Unreachable: bad state",
"reached unreachable code", "this should be unreachable") it is the program's own fault, which no
reader can fix: the missing-part rules leave it alone (`checks.base.internal_fault`). Said of a host,
a service or a provider ("Weather provider unreachable", "Host x is unreachable") it is a network
failure: transient, and the reader needs to know whether and when to retry (AEM206).
"""
from __future__ import annotations

import pytest

from conftest import PREVIEW, lint
from errlint.checks.base import INTERNAL_FAULT_TEXT

FASTAPI = '''import httpx
from fastapi import FastAPI, HTTPException

app = FastAPI()


@app.get("/weather")
async def weather(city: str):
    try:
        async with httpx.AsyncClient(timeout=5) as c:
            r = await c.get("https://api.example.com/w", params={"q": city})
    except httpx.ConnectError:
        raise HTTPException(status_code=502, detail=TEXT)
    return r.json()
'''

MCP = '''import requests
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("registry")


@mcp.tool()
def package_info(name: str) -> dict:
    try:
        return requests.get(f"https://registry.example.com/{name}", timeout=10).json()
    except requests.ConnectionError:
        raise ToolError(TEXT)
'''


@pytest.mark.parametrize("template, text, row", [
    (FASTAPI, '"Weather provider unreachable"', 13),
    (FASTAPI, 'f"Host api.example.com is unreachable (city {city})"', 13),
    (MCP, '"The package registry is unreachable."', 13),
    (MCP, 'f"Registry unreachable while looking up {name}"', 13),
])
def test_a_host_said_to_be_unreachable_is_a_transient_failure(template, text, row):
    code = template.replace("TEXT", text)
    assert [(d.location.row, d.code) for d in lint(code, select=["AEM206"])] == [(row, "AEM206")]


@pytest.mark.parametrize("text", ["unreachable", "Unreachable: bad state", "internal: unreachable", "reached unreachable code", "this should be unreachable"])
def test_code_said_to_be_unreachable_is_an_internal_fault(text):
    assert INTERNAL_FAULT_TEXT.search(text)


@pytest.mark.parametrize("text", ["Weather provider unreachable", "Host example.com is unreachable", "the server is unreachable; retry in 30 s", "Unreachable host"])
def test_a_host_said_to_be_unreachable_is_no_internal_fault(text):
    assert not INTERNAL_FAULT_TEXT.search(text)


def test_an_unreachable_branch_in_a_tool_asks_for_no_parts():
    code = ('from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP("x")\n\n\n@mcp.tool()\n'
            'def convert(unit: str) -> float:\n    if unit == "m":\n        return 1.0\n    elif unit == "km":\n        return 1000.0\n'
            '    raise ToolError("Unreachable: unit was validated above")\n')
    assert [d.code for d in lint(code, settings=PREVIEW) if d.code.startswith("AEM2")] == []
