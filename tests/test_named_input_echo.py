"""AEM202 when the message names the input the caller sent as is.

The value the caller sent is worth echoing unless the message also says what the value must be:
"--cooldown must be a non-negative integer" needs no "(got -3)" (the caller knows what it sent, and
the requirement says what to send), but "Invoice amount rejected." or "Currency not supported."
leaves the caller with neither the value nor the rule.
"""
from __future__ import annotations

import pytest

from conftest import codes

TOOL = '''
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
mcp = FastMCP("billing")
MAX_AMOUNT = 500_000
RATES = {{"USD": 1, "GBP": 2}}


@mcp.tool()
def invoice(amount: int, currency: str) -> str:
    if {test}:
        raise ToolError({text!r})
    return "ok"
'''


@pytest.mark.parametrize("test, text", [
    ("amount <= 0 or amount > MAX_AMOUNT", "Invoice amount rejected."),
    ("currency not in RATES", "Currency not supported."),
    ("amount > MAX_AMOUNT", "The amount is too large for one invoice."),
])
def test_a_named_input_with_no_requirement_needs_its_value(test, text):
    assert "AEM202" in codes(TOOL.format(test=test, text=text), select=["AEM202"])


@pytest.mark.parametrize("test, text", [
    ("amount <= 0 or amount > MAX_AMOUNT", "The amount must be between 1 and 500000 cents."),
    ("currency not in RATES", "Currency must be one of USD or GBP."),
    ("amount > MAX_AMOUNT", "The amount is at most 500000 cents per invoice."),
])
def test_a_named_input_with_its_requirement_needs_no_echo(test, text):
    assert codes(TOOL.format(test=test, text=text), select=["AEM202"]) == []


def test_a_cli_option_named_without_its_rule():
    code = '''
    import click


    @click.command()
    @click.option("--region")
    def deploy(region):
        if region not in ("eu", "us"):
            raise click.BadParameter("Region not available for deployments.")
        click.echo(region)
    '''
    assert codes(code, select=["AEM202"]) == ["AEM202"]


def test_an_http_query_parameter_named_without_its_rule():
    code = '''
    from fastapi import FastAPI, HTTPException
    app = FastAPI()


    @app.get("/items")
    def items(page_size: int = 50):
        if page_size > 500:
            raise HTTPException(status_code=400, detail="Page size rejected.")
        return []
    '''
    assert codes(code, select=["AEM202"]) == ["AEM202"]


@pytest.mark.parametrize("test, text", [
    ("len(foreign_key) % 4 != 0", "Each foreign key requires four values: table, column, other_table, other_column"),
    ("len(pair) % 2", "--pair takes exactly 2 values, a key and a value"),
])
def test_a_required_count_says_what_to_send(test, text):
    code = f'''
    import click


    @click.command()
    @click.option("--pair", multiple=True)
    @click.argument("foreign_key", nargs=-1)
    def add(pair, foreign_key):
        if {test}:
            raise click.ClickException({text!r})
        click.echo("ok")
    '''
    assert codes(code, select=["AEM202"]) == []
