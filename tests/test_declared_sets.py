"""A raise in the final `else` of a chain that handles every value a parameter's declaration allows
(`Literal[...]`, also through an alias or inside `Optional`/`Annotated`, or `click.Choice`) is raised
for no value a reader can send: no missing-part rule judges it (`extract.declared_sets`,
`checks.part_rule.declared_exhaustive`). A chain that leaves a declared value unhandled, or a
parameter declared open, is still judged."""
from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner

from conftest import preview_rows

from errlint.cli import main
from errlint.project_scan import LiteralAliases, scan_literal_aliases

PARTS = ["AEM201", "AEM202", "AEM203", "AEM204", "AEM205"]


def part_rows(code: str) -> list:
    return preview_rows(code, PARTS)


# a click command that dispatches on --transport, with the `options` decorators given
CLICK = """
import click

@click.command()
{options}
def main({params}):
    if transport == "stdio":
        run_stdio()
    elif transport == "sse":
        run_sse()
    else:
        raise click.ClickException(f"Invalid transport: {{transport}}")
"""

UNREACHABLE = {
    "literal_on_a_tool": """
        from typing import Literal
        from fastmcp import FastMCP
        mcp = FastMCP("x")

        @mcp.tool()
        def export(fmt: Literal["csv", "json"]) -> str:
            if fmt == "csv":
                return "a,b"
            elif fmt == "json":
                return "{}"
            else:
                raise ValueError(f"Unsupported format: {fmt}")
    """,
    "alias_on_a_validated_function": """
        from typing import Literal
        from pydantic import validate_call
        Unit = Literal["ms", "s", "min"]

        @validate_call
        def to_seconds(value: float, unit: Unit) -> float:
            if unit == "ms":
                return value / 1000
            if unit == "s":
                return value
            if unit == "min":
                return value * 60
            raise ValueError(f"Unknown unit: {unit}")
    """,
    "annotated_literal_with_a_field": """
        from typing import Annotated, Literal
        from pydantic import Field
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool()
        def sort_rows(order: Annotated[Literal["asc", "desc"], Field(description="sort order")]) -> str:
            if order == "asc":
                return "up"
            elif order == "desc":
                return "down"
            raise ToolError(f"Invalid order {order!r}")
    """,
    # the branches turn the name into a class: the `else` still holds the declared parameter
    "rebound_inside_the_branches": """
        from typing import Literal
        from fastmcp import FastMCP
        mcp = FastMCP("x")

        @mcp.tool()
        def create(target: str, obj_type: Literal["database", "schema"]) -> str:
            if obj_type == "database":
                obj_type = Database
            elif obj_type == "schema":
                obj_type = Schema
            else:
                raise ValueError(f"Invalid object type: {obj_type}")
            return str(obj_type(target))
    """,
    "click_choice_option": CLICK.format(options='@click.option("-t", "--transport", type=click.Choice(["stdio", "sse"]), default="stdio")',
                                       params="transport"),
}


@pytest.mark.parametrize("name", sorted(UNREACHABLE))
def test_an_else_no_declared_value_reaches_is_not_judged(name):
    assert part_rows(UNREACHABLE[name]) == []


STILL_JUDGED = {
    # None is allowed too, and reaches the `else`
    "optional_literal_on_a_tool": ("""
        from typing import Literal, Optional
        from fastmcp import FastMCP
        mcp = FastMCP("x")

        @mcp.tool()
        def export(fmt: Optional[Literal["csv", "json"]] = None) -> str:
            if fmt == "csv":
                return "a,b"
            elif fmt == "json":
                return "{}"
            raise ValueError(f"Unsupported format: {fmt}")
    """, 12),
    # a helper's `Literal` is a hint: a tool may pass it any string
    "literal_on_a_helper": ("""
        from typing import Literal

        def to_seconds(value: float, unit: Literal["ms", "s"]) -> float:
            if unit == "ms":
                return value / 1000
            if unit == "s":
                return value
            raise ValueError(f"Unknown unit: {unit}")
    """, 9),
    # the parameter is rebound from configuration before the chain
    "rebound_before_the_chain": ("""
        from typing import Literal
        from fastmcp import FastMCP
        mcp = FastMCP("x")

        @mcp.tool()
        def export(fmt: Literal["csv", "json"]) -> str:
            fmt = CONFIG.get("format", fmt)
            if fmt == "csv":
                return "a,b"
            elif fmt == "json":
                return "{}"
            raise ValueError(f"Unsupported format: {fmt}")
    """, 13),
    # rebound (from configuration) in an earlier `if`, not in a branch the message is the `else` of
    "rebound_in_a_branch_then_checked_again": ("""
        from typing import Literal
        from fastmcp import FastMCP
        mcp = FastMCP("x")

        @mcp.tool()
        def export(fmt: Literal["csv", "json"]) -> str:
            if fmt == "csv":
                fmt = CONFIG.get("csv_dialect", fmt)
            if fmt == "csv":
                return "a,b"
            elif fmt == "json":
                return "{}"
            raise ValueError(f"Unsupported format: {fmt}")
    """, 14),
    # an optional option with no default is None when left out
    "choice_without_a_default": (CLICK.format(options='@click.option("--transport", type=click.Choice(["stdio", "sse"]))',
                                              params="transport"), 12),
    # "tsv" is declared but not handled: the raise is reachable
    "declared_value_left_unhandled": ("""
        from typing import Literal

        def export(fmt: Literal["csv", "json", "tsv"]) -> str:
            if fmt == "csv":
                return "a,b"
            elif fmt == "json":
                return "{}"
            raise ValueError(f"Unsupported format: {fmt}")
    """, 9),
    # a plain `str` leaves the values open
    "open_declaration": ("""
        def export(fmt: str) -> str:
            if fmt == "csv":
                return "a,b"
            elif fmt == "json":
                return "{}"
            raise ValueError(f"Unsupported format: {fmt}")
    """, 7),
    # the Choice belongs to another option
    "choice_on_another_option": (CLICK.format(options='@click.option("--level", type=click.Choice(["debug", "info"]))\n'
                                              '@click.option("--transport", default="stdio")', params="level, transport"), 13),
}


@pytest.mark.parametrize("name", sorted(STILL_JUDGED))
def test_a_reachable_else_is_still_judged(name):
    code, row = STILL_JUDGED[name]
    assert part_rows(code) == [row]


def test_an_alias_defined_in_another_module(tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "kinds.py").write_text('from typing import Literal, TypeAlias\n\nObjectType: TypeAlias = Literal[\n    "table",\n    "view",\n]\n')
    (tmp_path / "pkg" / "parse.py").write_text(textwrap.dedent("""\
        from fastmcp import FastMCP
        from pkg.kinds import ObjectType

        mcp = FastMCP("x")
        @mcp.tool()
        def parse(kind: ObjectType, other: str) -> str:
            if kind == "table":
                return "T"
            elif kind == "view":
                return "V"
            raise ValueError(f"Invalid object type: {kind}")


        def parse_other(other: str) -> str:
            if other == "table":
                return "T"
            raise ValueError(f"Invalid object type: {other}")
    """))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--preview", "--select", ",".join(PARTS), "--output-format", "json", "."])
    rows = sorted({(d["filename"].replace("\\", "/"), d["location"]["row"]) for d in json.loads(result.output)})
    assert rows == [("pkg/parse.py", 17)]


def test_the_alias_scan_reads_literals_and_drops_clashing_names():
    assert scan_literal_aliases('Mode = Literal["r", \'w\']\nSize = typing.Literal[1, 2]\nMixed = Literal["a", b]\n') == {
        "Mode": frozenset({"r", "w"}), "Size": frozenset({"1", "2"})}
    aliases = LiteralAliases()
    aliases.add('Kind = Literal["a", "b"]\nMode = Literal["r"]\n')
    aliases.add('Kind = Literal["x"]\n')
    assert aliases.aliases() == (("Mode", ("r",)),)
