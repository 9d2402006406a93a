"""Which failures are transient (`extract/transient.py`): AEM206 asks those for the retry timing.

- An HTTP client's base class (`httpx.HTTPError`, `requests.RequestException`, `aiohttp.ClientError`,
  `urllib.error.URLError`) is a transport failure when its status error cannot reach the handler:
  an earlier `except` of the same `try` takes it, or nothing in the `try` raises one.
- A guard that reads a clock reading kept in a name (a start or deadline of this run) is a deadline
  that passed; a clock read against a stored expiry is not.
"""
from __future__ import annotations

from conftest import PREVIEW, lint


def found(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, select=["AEM206"], settings=PREVIEW))


def test_httpx_base_class_around_a_request_only():
    code = '''import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("docs")


@mcp.tool()
async def fetch_page(url: str) -> str:
    async with httpx.AsyncClient() as client:
        try:
            response = await client.get(url, timeout=30)
        except httpx.HTTPError as e:
            raise ToolError(f"Failed to fetch {url}: {e}") from e
    return response.text
'''
    assert found(code) == [(14, "AEM206")]


def test_httpx_base_class_that_a_status_error_reaches_is_not_transient():
    # raise_for_status in the try: the HTTPError may be a 404 for the url the agent sent
    code = '''import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("docs")


@mcp.tool()
async def fetch_page(url: str) -> str:
    async with httpx.AsyncClient() as client:
        try:
            response = await client.get(url, timeout=30)
            response.raise_for_status()
        except httpx.HTTPError as e:
            raise ToolError(f"Failed to fetch {url}: {e}") from e
    return response.text
'''
    assert found(code) == []


def test_requests_base_class_after_a_handler_for_status_errors():
    code = '''import click
import requests


@click.command()
@click.argument("vault")
def sync(vault):
    try:
        reply = requests.get(f"http://127.0.0.1:27124/vault/{vault}")
        reply.raise_for_status()
    except requests.HTTPError as e:
        raise click.ClickException(f"Vault {vault!r} refused the sync (HTTP {e.response.status_code}); check the vault name with `notes vaults`.")
    except requests.exceptions.RequestException as e:
        raise click.ClickException(f"Request to the notes server failed: {e}")
'''
    assert found(code) == [(14, "AEM206")]


def test_aiohttp_connector_error_and_a_urllib_base_class():
    code = '''import urllib.error
import urllib.request

import aiohttp
from mcp.server.fastmcp import FastMCP

server = FastMCP("feeds")


@server.tool()
async def poll(feed: str) -> str:
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(feed) as resp:
                return await resp.text()
    except aiohttp.ClientConnectorError as e:
        raise RuntimeError(f"Cannot connect to {feed}: {e}")


@server.tool()
def fetch(url: str) -> str:
    try:
        return urllib.request.urlopen(url).read().decode()
    except urllib.error.URLError as e:
        raise RuntimeError(f"Cannot read {url}: {e.reason}")


@server.tool()
def fetch_status_first(url: str) -> str:
    try:
        return urllib.request.urlopen(url).read().decode()
    except urllib.error.HTTPError as e:
        raise RuntimeError(f"{url} answered HTTP {e.code}; pass a URL from list_feeds.")
    except urllib.error.URLError as e:
        raise RuntimeError(f"Cannot reach {url}: {e.reason}")
'''
    # urlopen raises HTTPError (a URLError) for a 404: only the handler after the HTTPError one is transport-only
    assert found(code) == [(17, "AEM206"), (35, "AEM206")]


def test_a_deadline_of_this_run_that_passed():
    code = '''import time

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("exports")


@mcp.tool()
def export_report(report_id: str, limit_s: float = 60.0) -> bytes:
    start = time.monotonic()
    parts = []
    for page in pages(report_id):
        if time.monotonic() - start > limit_s:
            raise ToolError(f"Export of {report_id} ran past its {limit_s}-second budget")
        parts.append(page)
    return b"".join(parts)
'''
    assert found(code) == [(15, "AEM206")]


def test_a_remaining_budget_computed_from_a_deadline_parameter():
    code = '''import asyncio

import click


async def drain(queue, deadline):
    loop = asyncio.get_running_loop()
    while True:
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise click.ClickException("Queue drain ran out of time")
        await asyncio.wait_for(queue.get(), remaining)


@click.command()
def main():
    asyncio.run(drain(asyncio.Queue(), 10.0))
'''
    assert found(code) == [(11, "AEM206")]


def test_a_stored_expiry_is_not_a_deadline():
    # waiting does not bring a token back: no retry timing is owed
    code = '''import time

import click


@click.command()
@click.argument("profile")
def whoami(profile):
    token = load_token(profile)
    if time.time() > token["expires_at"]:
        raise click.ClickException(f"The login of profile {profile!r} expired; run `acct login {profile}`.")
    click.echo(token["user"])
'''
    assert found(code) == []


def test_a_counter_guard_is_not_a_deadline():
    code = '''import time

from fastmcp.exceptions import ToolError


def poll(job, attempts: int):
    started = time.monotonic()
    for n in range(attempts):
        if n > 10:
            raise ToolError(f"Job {job} is still queued after {n} polls")
        time.sleep(1)
    return time.monotonic() - started
'''
    assert found(code) == []


def test_a_date_built_from_now_is_not_a_deadline():
    # `now` gives today's date; the test tells two times apart, no time ran out
    code = '''from datetime import datetime

from fastmcp.exceptions import ToolError


def to_utc(time_str: str, zone):
    now = datetime.now(zone)
    local = now.replace(hour=int(time_str[:2]), minute=int(time_str[3:]))
    round_trip = datetime.fromtimestamp(local.timestamp(), zone)
    if round_trip != local:
        raise ToolError(f"Invalid time: {time_str} does not exist in {zone} on {local.date()}")
    return local
'''
    assert found(code) == []
