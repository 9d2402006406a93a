"""The allowed members written in brackets after the class they belong to are an allowed-values
clause, so they are a next step: "Only range comparisons (>, >=, <, <=) are supported", "only raster
formats (PNG, JPEG, WebP) are accepted", "the accepted units (ms, s or min)", "valid values
(true/false)". The members are single literal tokens: a bracket that holds a value, a count, a path
or a remark ("not a valid date ({when})", "(got {n}, {m})", "(see docs, section 2)") lists nothing,
and neither does a bracket after no allowed-class noun ("unknown (checked the sheet header)")."""
from __future__ import annotations

import pytest

from conftest import preview_rows


def aem201(code: str) -> list:
    return preview_rows(code, ["AEM201"])


LISTED = {
    "operators_of_a_filter_in_an_mcp_tool": """
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool()
        def find(field: str, condition: str) -> str:
            if condition not in (">", ">=", "<", "<="):
                raise ToolError(f"Invalid condition {condition} for float field {field}. "
                                "Only range comparisons (>, >=, <, <=) are supported for float values.")
            return field
        """,
    "image_formats_in_a_cli": """
        import sys
        from pathlib import Path

        def main():
            image = Path(sys.argv[1])
            if image.suffix.lower() not in (".png", ".jpg", ".webp"):
                sys.exit(f"Image {image} was refused: only raster formats (PNG, JPEG, WebP) are accepted.")

        if __name__ == "__main__":
            main()
        """,
    "units_joined_by_or_in_a_route": """
        from fastapi import FastAPI, HTTPException
        app = FastAPI()

        @app.get("/poll")
        def poll(unit: str):
            if unit not in ("ms", "s", "min"):
                raise HTTPException(400, detail=f"Unit {unit} is unknown; the poller takes the accepted units (ms, s or min).")
            return {"unit": unit}
        """,
    "a_switch_with_a_slash_in_an_mcp_tool": """
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool()
        def set_flag(name: str, value: str) -> str:
            if value.lower() not in ("true", "false"):
                raise ToolError(f"Flag {name} got {value}; it takes the valid values (true/false).")
            return name
        """,
    "operators_named_after_the_failure_in_a_click_command": """
        import click

        @click.command()
        @click.option("--op")
        def query(op):
            if op not in ("=", "!=", "IN"):
                raise click.ClickException(f"Operator {op} was rejected; the valid operators (=, !=, IN) apply to text fields.")
        """,
}

NOT_LISTED = {
    "a_bracket_that_says_where_it_looked": ("""
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool()
        def cell(name: str) -> str:
            if name != "total":
                raise ToolError(f"Column {name} is unknown (checked the sheet header).")
            return name
        """, 9),
    "a_bracket_that_holds_the_rejected_value": ("""
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool()
        def schedule(when: str) -> str:
            if not when[:4].isdigit():
                raise ToolError(f"Not a valid date ({when}).")
            return when
        """, 9),
    "a_bracket_that_holds_two_counts": ("""
        import sys

        def main():
            rows = open(sys.argv[1]).read().splitlines()
            kept = [r for r in rows if r.strip()]
            if len(kept) < 2:
                sys.exit(f"Too few valid rows found (got {len(kept)}, skipped {len(rows) - len(kept)}).")

        if __name__ == "__main__":
            main()
        """, 8),
    "a_bracket_that_holds_a_remark_with_a_comma": ("""
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool()
        def fetch(host: str) -> str:
            if host.endswith(".internal"):
                raise ToolError(f"Host {host} failed the allowed hosts check (see docs, section 2).")
            return host
        """, 9),
    "a_bracket_that_points_at_a_log": ("""
        import click

        @click.command()
        @click.argument("value")
        def check(value):
            if not value.isdigit():
                raise click.ClickException(f"Value {value} failed the check (see the server log).")
        """, 8),
}


@pytest.mark.parametrize("name", sorted(LISTED))
def test_members_in_brackets_are_the_step(name):
    assert aem201(LISTED[name]) == []


@pytest.mark.parametrize("name", sorted(NOT_LISTED))
def test_a_bracket_that_lists_nothing_is_no_step(name):
    code, row = NOT_LISTED[name]
    assert aem201(code) == [row]
