"""A search loop that finds nothing is a failed membership test (#14 kind 3, quantifiers).

`for name, cls in PROFILES.items(): if name == wanted: return cls` and then a raise: the raise runs
when `wanted` is no key of PROFILES. So does the `else:` of a loop that `break`s on a match. The
message owes the value and the allowed keys as under `if wanted not in PROFILES`. A loop whose test
is no equality with an outside value (a filter, a test of the element alone) is no search.
"""
from __future__ import annotations

from conftest import at

SELECT = ["AEM202", "AEM204"]


def test_a_dict_search_that_returns_what_it_finds():
    code = '''
    import click

    PROFILES = {"steady": 1, "spike": 2}


    def resolve(name):
        for registered, cls in PROFILES.items():
            if registered == name:
                return cls
        raise click.BadParameter("Unknown profile")


    @click.command()
    @click.option("--profile")
    def main(profile):
        click.echo(resolve(profile))
    '''
    assert at(code, select=SELECT) == [(11, "AEM202"), (11, "AEM204")]


def test_a_list_search_with_the_raise_in_the_loops_else():
    code = '''
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")
    REGIONS = ["eu-west-1", "us-east-1"]


    @mcp.tool()
    def deploy(region: str) -> str:
        for known in REGIONS:
            if region == known:
                break
        else:
            raise ToolError("Region not available.")
        return region
    '''
    assert at(code, select=SELECT) == [(14, "AEM202"), (14, "AEM204")]


def test_a_search_over_rows_a_call_yields_owes_the_value():
    code = '''
    import typer

    from .profiles import iter_profiles

    app = typer.Typer()


    def resolve(name: str):
        for registered, cls, _desc in iter_profiles():
            if registered == name:
                return cls
        raise typer.BadParameter("Unknown profile")


    @app.command()
    def generate(profile: str = typer.Option("steady", "--profile")):
        typer.echo(resolve(profile))
    '''
    assert at(code, select=SELECT) == [(13, "AEM202")]


def test_loops_that_are_no_search():
    code = '''
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")
    REGIONS = ["eu-west-1", "us-east-1"]


    @mcp.tool()
    def deploy(region: str, tags: list) -> str:
        for tag in tags:
            if tag == "":
                return "skipped"
        for known in REGIONS:
            if known.startswith(region):
                return known
        raise ToolError(f"No region starts with {region!r}; regions: {', '.join(REGIONS)}")
    '''
    assert at(code, select=SELECT) == []
