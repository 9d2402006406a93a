"""Guidance rules and failures nobody can fix from the caller's side.

AEM501 (escalation) asks that a recoverable error not be handed to a person. A failure the message
itself calls unknown ("Unknown error calling API") is not known to be the caller's to fix, whatever
the guard in front of it tests, so "contact support if this persists" fits it (dbt-mcp); only a
transient one (the caller can wait) keeps the rule. AEM503 (advice an agent cannot follow) stays off
internal faults: a catch-all's "Unexpected error in {tool}; see server log" points the operator at
the log (excel-mcp-server), while a specific failure that sends the agent to the log is still one."""
from __future__ import annotations

import textwrap

from conftest import PREVIEW, lint

HEAD = """\
import functools
import httpx
import click
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("x")
"""


def found(body: str, code: str) -> list:
    text = HEAD + textwrap.dedent(body)
    return sorted(d.location.row - HEAD.count("\n") for d in lint(text, select=[code], settings=PREVIEW))


def test_unknown_upstream_error_may_send_the_reader_to_support():
    body = '''
        def raise_api_error(result: dict) -> None:
            if result.get("errors"):
                messages = [e["message"] for e in result["errors"] if "message" in e]
                if messages:
                    raise ToolError("Errors calling API: " + ", ".join(messages))
                raise ToolError("Unknown error calling API. Check your configuration or contact support if this persists.")

        @mcp.tool()
        def models(query: str) -> str:
            result = {"errors": [{}]} if not query else {}
            raise_api_error(result)
            return "ok"
    '''
    assert found(body, "AEM501") == []


def test_unexpected_problem_in_a_cli_command_may_ask_an_administrator():
    body = '''
        @click.command()
        @click.argument("account")
        def sync(account):
            if not account.isalnum():
                raise click.ClickException("An unexpected problem occurred while syncing. Please contact your administrator.")
    '''
    assert found(body, "AEM501") == []


def test_unknown_failure_that_is_transient_still_owes_a_wait():
    body = '''
        @mcp.tool()
        def status(url: str) -> str:
            try:
                return httpx.get(url, timeout=5).text
            except httpx.TimeoutException:
                raise ToolError("Unknown error while waiting for the service; contact support.")
    '''
    assert found(body, "AEM501") == [7]


def test_known_input_failure_handed_to_support_is_still_reported():
    body = '''
        @mcp.tool()
        def invoice(invoice_id: str) -> str:
            if not invoice_id.startswith("inv_"):
                raise ToolError(f"Invoice id {invoice_id!r} is malformed; contact support.")
            return invoice_id
    '''
    assert found(body, "AEM501") == [5]


def test_catch_all_pointing_the_operator_at_the_log():
    body = '''
        def tool_errors(function):
            @functools.wraps(function)
            def wrapper(*args, **kwargs):
                try:
                    return function(*args, **kwargs)
                except Exception as error:
                    raise ToolError(f"Unexpected error in {function.__name__}; see server log") from error
            return wrapper

        @mcp.tool()
        @tool_errors
        def read(path: str) -> str:
            return open(path).read()
    '''
    assert found(body, "AEM503") == []


def test_internal_error_with_a_log_pointer():
    body = '''
        @mcp.tool()
        def render(template: str) -> str:
            state = {}
            if "engine" not in state:
                raise ToolError("Internal error: the renderer has no engine. Check the server logs.")
            return template
    '''
    assert found(body, "AEM503") == []


def test_specific_failure_sending_the_agent_to_the_log_is_still_reported():
    body = '''
        @mcp.tool()
        def upload(path: str) -> str:
            try:
                return httpx.post("https://files.example.com", content=open(path, "rb")).text
            except httpx.HTTPStatusError:
                raise ToolError(f"Upload of {path} was rejected; check the server logs.")
    '''
    assert found(body, "AEM503") == [7]
