"""A `try` whose body cannot raise (only returns, assignments and `pass` of names, literals and
displays of them) never runs its handlers: what they say reaches nobody, so no rule reports it
(`statement_shapes.cannot_raise`). A call, attribute, subscript or operator in the body may raise."""
from __future__ import annotations

from conftest import PREVIEW, lint


def codes(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, settings=PREVIEW))


TOOL = '''from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("views")


@mcp.tool()
def build_statement(view: str, params: list) -> tuple:
    statement = f"DESCRIBE SEMANTIC VIEW {view}"
    try:
        return (statement, params)
    except Exception as e:
        raise ToolError(f"Error: {e}")
'''


def test_a_handler_of_a_return_of_names_never_runs():
    assert codes(TOOL) == []


def test_the_same_handler_around_a_call_is_judged():
    live = TOOL.replace("return (statement, params)", "return (statement, quote(params))")
    assert codes(live) == [(13, "AEM101"), (13, "AEM207")]


def test_assignments_of_literals_and_a_cli_handler():
    code = '''import sys

import click


@click.command()
@click.argument("name")
def main(name):
    try:
        defaults = {"retries": 3, "names": [name]}
        mode = "fast"
    except Exception:
        click.echo("Something went wrong", err=True)
        sys.exit(1)
    click.echo(f"{mode} {defaults}")
'''
    assert codes(code) == []
    live = code.replace('mode = "fast"', 'mode = load_mode(name)')
    assert codes(live) == [(13, "AEM101")]


def test_an_attribute_store_in_the_body_may_raise():
    code = '''from mcp.server.fastmcp import FastMCP

server = FastMCP("cfg")


class Box:
    pass


@server.tool()
def put(value: str) -> str:
    box = Box()
    try:
        box.value = value
    except Exception:
        return "Error: failed"
    return "ok"
'''
    # the handler is live; its returned error reply is read as a raised one would be (generic: AEM101)
    assert codes(code) == [(16, "AEM101"), (16, "AEM601")]
