"""An HTTP status compared against literals says which statuses the response can have where the
sink runs, and only there: `if status in (429, 503)` puts 429/503 in its body, and its `else` (like
the body of `status not in (...)` or `status < 500`) is every other status. A failure there is not
transient, so AEM206 does not ask when to retry (`guard_operands.status_within`); the guard still
reads an outcome, so the value and allowed-values rules stay away from it."""
from __future__ import annotations

import pytest
from conftest import PREVIEW, lint


def found(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, select=["AEM206", "AEM202", "AEM204"], settings=PREVIEW))


ELSE_OF_RETRYABLE = '''import httpx
from fastmcp.exceptions import ToolError


def fetch(client, url):
    try:
        return client.get(url).raise_for_status()
    except httpx.HTTPStatusError as e:
        if e.response.status_code in (429, 503):
            raise ToolError("arXiv is busy") from e
        else:
            raise ToolError(f"arXiv download HTTP error (HTTP {e.response.status_code})") from e
'''


def test_the_else_of_a_retryable_status_check_is_not_transient():
    # the body (429/503) still needs its retry timing; the else branch is every other status
    assert found(ELSE_OF_RETRYABLE) == [(10, "AEM206")]


def test_statuses_outside_the_retryable_ones():
    code = ('import click\nimport requests\n\n\ndef download(url):\n    resp = requests.get(url)\n'
            '    if resp.status_code not in (429, 502, 503):\n'
            '        raise click.ClickException(f"download failed with HTTP {resp.status_code}")\n    return resp.content\n')
    assert found(code) == []


@pytest.mark.parametrize("test,transient", [
    ("resp.status < 500", False),       # a client error
    ("resp.status >= 500", True),       # a server error: retrying may work
    ("not resp.status >= 500", False),
    ("not resp.status < 500", True),
])
def test_bounds_on_the_status(test, transient):
    code = ('from aiohttp import web\n\n\nasync def proxy(session, url):\n    async with session.get(url) as resp:\n'
            f'        if {test}:\n            raise web.HTTPBadGateway(text=f"upstream answered {{resp.status}}")\n'
            '        return await resp.text()\n')
    assert found(code) == ([(7, "AEM206")] if transient else [])


def test_the_else_of_not_equal_is_that_status():
    code = ('from fastmcp.exceptions import ToolError\n\n\ndef post(client, body):\n    resp = client.post("/x", json=body)\n'
            '    if resp.status_code != 429:\n        raise ToolError(f"the CRM refused the batch (HTTP {resp.status_code})")\n'
            '    else:\n        raise ToolError("Too many requests to the CRM")\n')
    assert found(code) == [(9, "AEM206")]
