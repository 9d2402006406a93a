"""A failure reported after a loop that retried a transient one (`transient.retry_loop`): the loop
tries a call, and on a timeout or a dropped connection sleeps or goes round again; what follows the
loop runs once the retries ran out. It is transient as the handler itself is: AEM206 asks for retry
guidance, and AEM501 does not accept a hand-off to a person. A loop over alternatives (files, mirrors)
whose handler catches other failures, or one that leaves on the failure, is no retry.
"""
from __future__ import annotations

import pytest

from conftest import at

RETRIES = """import asyncio
import time
import aiohttp
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("hr")


@mcp.tool()
{head}
{loop}
    raise ToolError({text!r})
"""

FOR_SLEEP = ("def employee(emp_id: str) -> dict:",
             "    for _ in range(3):\n        try:\n            return httpx.get(f'https://hr.example/e/{emp_id}', timeout=5).json()\n"
             "        except httpx.ConnectTimeout:\n            time.sleep(1)")
WHILE_CONTINUE = ("def employee(emp_id: str) -> dict:",
                  "    attempts = 0\n    while attempts < 5:\n        try:\n            return fetch(emp_id)\n"
                  "        except (ConnectionError, TimeoutError):\n            attempts += 1\n            continue")
ASYNC_FOR = ("async def employee(emp_id: str) -> dict:",
             "    async with aiohttp.ClientSession() as s:\n        for delay in (1, 2, 4):\n            try:\n"
             "                return await (await s.get(f'https://hr.example/e/{emp_id}')).json()\n"
             "            except aiohttp.ClientConnectorError:\n                await asyncio.sleep(delay)")


@pytest.mark.parametrize("head, loop", [FOR_SLEEP, WHILE_CONTINUE, ASYNC_FOR])
def test_retries_that_ran_out_are_transient(head, loop):
    code = RETRIES.format(head=head, loop=loop, text="The HR system did not answer.")
    row = code.count("\n")
    assert at(code, select=["AEM206"]) == [(row, "AEM206")]


def test_a_hand_off_after_retries_ran_out_is_an_escalation():
    head, loop = FOR_SLEEP
    code = RETRIES.format(head=head, loop=loop, text="The HR system is slow right now. Loop in your manager.")
    row = code.count("\n")
    assert at(code, select=["AEM501"]) == [(row, "AEM501")]


@pytest.mark.parametrize("head, loop", [
    # alternatives, not retries: the handler catches a failure waiting does not cure
    ("def employee(emp_id: str) -> dict:",
     "    for path in ('hr.json', 'hr.backup.json'):\n        try:\n            return load(path)[emp_id]\n        except FileNotFoundError:\n            continue"),
    # the handler leaves the loop on the failure: nothing is retried
    ("def employee(emp_id: str) -> dict:",
     "    for _ in range(3):\n        try:\n            return httpx.get(f'https://hr.example/e/{emp_id}').json()\n        except httpx.ConnectTimeout:\n            break"),
])
def test_a_loop_that_does_not_retry_a_transient_failure(head, loop):
    code = RETRIES.format(head=head, loop=loop, text="The HR system did not answer.")
    assert at(code, select=["AEM206"]) == []


def test_a_function_defined_after_a_retry_loop_starts_afresh():
    code = ("import time\nimport httpx\n\nfor _ in range(3):\n    try:\n        CONFIG = httpx.get('https://cfg.example').json()\n        break\n"
            "    except httpx.ConnectTimeout:\n        time.sleep(1)\n\n\ndef lookup(key):\n    if key not in CONFIG:\n"
            "        raise KeyError(f'No setting {key!r}')\n    return CONFIG[key]\n")
    assert at(code, select=["AEM206"]) == []
