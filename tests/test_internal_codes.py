"""An internal-fault code is no exemption when a check of the caller's input leads to the error.

`McpError(ErrorData(code=INTERNAL_ERROR, ...))` or an HTTP 500 is the program's own fault only when
nothing the caller sent was checked. A tool that picks `INTERNAL_ERROR` for a bad date is the misuse
AEM602 reports, and its text still owes the missing parts (the input's name, the value, what is
allowed). A catch-all or an upstream failure answered with the same code stays exempt.
"""
from __future__ import annotations

import pytest

from conftest import PREVIEW, lint

MCP = '''from datetime import date
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import ErrorData, INTERNAL_ERROR

mcp = FastMCP("cal")


@mcp.tool()
def events(day: str, calendar: str) -> list:
    BODY
    return []
'''

FLASK = '''from flask import Flask, abort, request

app = Flask(__name__)


@app.get("/events")
def events():
    BODY
    return {}
'''


def _parts(code):
    return sorted({d.code for d in lint(code, settings=PREVIEW) if d.code.startswith("AEM2")})


@pytest.mark.parametrize("template, body, codes", [
    (MCP, "d = date.fromisoformat(day)\n    if d.year < 2000:\n        raise McpError(ErrorData(code=INTERNAL_ERROR, message='Date too old'))",
     ["AEM202", "AEM204"]),
    (MCP, "try:\n        d = date.fromisoformat(day)\n    except ValueError:\n        raise McpError(ErrorData(code=INTERNAL_ERROR, message='Could not read the date'))",
     ["AEM202", "AEM204"]),
    (MCP, "if len(calendar) > 40:\n        raise McpError(ErrorData(code=-32603, message='Calendar name too long'))", ["AEM202", "AEM204"]),
    (FLASK, "limit = int(request.args.get('limit', '10'))\n    if limit > 100:\n        abort(500, description='Limit too high')", ["AEM202", "AEM204"]),
])
def test_an_internal_code_for_a_rejected_input_still_owes_the_parts(template, body, codes):
    assert _parts(template.replace("BODY", body)) == codes


def test_the_default_set_asks_for_the_input_name():
    code = MCP.replace("BODY", "d = date.fromisoformat(day)\n    if d.year < 2000:\n        raise McpError(ErrorData(code=INTERNAL_ERROR, message='Date too old'))")
    assert [(d.location.row, d.code) for d in lint(code, select=["AEM203"])] == [(13, "AEM203")]


@pytest.mark.parametrize("template, body", [
    # a catch-all: the program's own failure
    (MCP, "try:\n        load(calendar)\n    except Exception:\n        raise McpError(ErrorData(code=INTERNAL_ERROR, message='Calendar store failed'))"),
    # an upstream's failure answered with a 500
    (FLASK, "resp = fetch_upstream()\n    if resp.status_code != 200:\n        abort(500, description='Upstream failed')"),
])
def test_an_internal_code_with_no_input_check_stays_exempt(template, body):
    assert _parts(template.replace("BODY", body)) == []


def test_a_guard_around_the_try_chose_the_branch_and_checks_nothing():
    body = ("if day.startswith('http'):\n        try:\n            fetch(day)\n        except OSError as e:\n"
            "            raise McpError(ErrorData(code=INTERNAL_ERROR, message=f'Failed to fetch: {e}'))")
    assert _parts(MCP.replace("BODY", body)) == []
