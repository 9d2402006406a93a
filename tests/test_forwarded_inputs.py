"""A helper's parameter that receives an entry point's input stands for that input (#14, item 1:
caller input through callees; `parameter_inputs.forwarded_params`).

A tool or command that hands one of its inputs to a validating helper (`_check_limit(limit)`,
`require_positive(offset)`, `_parse_window(int(window))`) reads the helper's message as its own: with
several inputs, "Out of range." does not say which one failed (AEM203), wherever the helper lives.
The input must reach the helper as sent, or converted (`int(x)`, `x.strip()`); a value built from it
(a query around it, a record found with it) stands for something else. Silent: a helper told the
input's name (`require("timezone", tz)`), a message that names the entry point's input, an entry point
with one input (its reader knows which failed), and a helper that only fixed values reach.
"""
from __future__ import annotations

import json
import textwrap

from click.testing import CliRunner

from errlint.cli import main


def _check(tmp_path, monkeypatch, files, select=("AEM203",)):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--preview", "--select", ",".join(select), "--output-format", "json", "."])
    assert result.exit_code in (0, 1), result.output
    return sorted((d["filename"].replace("\\", "/"), d["location"]["row"], d["code"], d["message"], d["audience"]) for d in json.loads(result.output))


def test_fastmcp_tool_passes_one_of_its_inputs_to_a_helper_in_the_same_module(tmp_path, monkeypatch):
    found = _check(tmp_path, monkeypatch, {"server.py": """\
        from fastmcp import FastMCP

        mcp = FastMCP("catalog")
        ITEMS = []

        def _check_limit(limit: int) -> None:
            if limit < 1 or limit > 100:
                raise ValueError("Out of range.")

        @mcp.tool()
        def search(query: str, limit: int = 10) -> list:
            _check_limit(limit)
            return [i for i in ITEMS if query in i][:limit]
        """})
    assert found == [("server.py", 8, "AEM203", "the message does not name the input `limit` that failed the check "
                      "(an input of MCP tool `search`, passed on here)", "agent")]


def test_helper_in_another_module_names_the_input_the_tool_passes_under_another_name(tmp_path, monkeypatch):
    found = _check(tmp_path, monkeypatch, {
        "pkg/__init__.py": "",
        "pkg/validation.py": """\
            def require_positive(value: int) -> int:
                if value <= 0:
                    raise ValueError("must be greater than zero")
                return value
            """,
        "pkg/server.py": """\
            from mcp.server.fastmcp import FastMCP
            from .validation import require_positive

            mcp = FastMCP("pager")

            @mcp.tool()
            def page(cursor: str, page_size: int = 20) -> dict:
                require_positive(page_size)
                return {"cursor": cursor}
            """})
    assert found == [("pkg/validation.py", 3, "AEM203", "the message does not name the input `value` that failed the check "
                      "(`value` receives the input `page_size` of MCP tool `page`)", "agent")]


def test_click_command_converts_the_option_before_the_helper_checks_it(tmp_path, monkeypatch):
    found = _check(tmp_path, monkeypatch, {"cli.py": """\
        import click

        def _parse_window(minutes):
            if minutes % 5:
                raise click.ClickException("Use a multiple of five.")
            return minutes

        @click.command()
        @click.option("--window", default="15")
        @click.option("--region")
        def report(window, region):
            span = _parse_window(int(window.strip()))
            click.echo(f"{region}: {span}")
        """})
    assert [(f, r, c, a) for f, r, c, _, a in found] == [("cli.py", 5, "AEM203", "cli")]
    assert "`minutes` receives the input `window` of command `report`" in found[0][3]


def test_input_passed_on_through_two_helpers(tmp_path, monkeypatch):
    found = _check(tmp_path, monkeypatch, {"tools.py": """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("geo")

        def _check_latitude(lat: float) -> None:
            if not -90 <= lat <= 90:
                raise ValueError("Coordinate out of bounds.")

        def _validate(lat: float, lon: float) -> None:
            _check_latitude(lat)

        @mcp.tool()
        def weather(latitude: float, longitude: float, units: str = "metric") -> str:
            _validate(float(latitude), longitude)
            return units
        """})
    assert [(f, r, c) for f, r, c, _, _ in found] == [("tools.py", 7, "AEM203")]
    assert "`lat` receives the input `latitude` of MCP tool `weather`" in found[0][3]


def test_silent_when_the_helper_is_told_the_name_or_the_message_names_the_input(tmp_path, monkeypatch):
    found = _check(tmp_path, monkeypatch, {"server.py": """\
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("clock")

        def require(name: str, value: str) -> None:
            if not value:
                raise ToolError(f"Missing required argument: {name}")

        def _check_offset(value: int) -> None:
            if value < 0:
                raise ToolError("offset must not be negative")

        @mcp.tool()
        def convert(source_timezone: str, target_timezone: str, offset: int = 0) -> str:
            require("source_timezone", source_timezone)
            _check_offset(offset)
            return target_timezone
        """})
    assert found == []


def test_silent_for_a_value_built_from_the_input_a_one_input_tool_and_fixed_values(tmp_path, monkeypatch):
    found = _check(tmp_path, monkeypatch, {"server.py": """\
        from fastmcp import FastMCP

        mcp = FastMCP("db")

        def _validate_sql(query: str) -> None:
            if not query.lstrip().upper().startswith("SELECT"):
                raise ValueError("Only read-only statements are allowed.")

        def _check_size(size: int) -> None:
            if size > 500:
                raise ValueError("Too large.")

        @mcp.tool()
        def top_queries(sort_by: str, limit: int = 10) -> str:
            sql = f"SELECT query FROM stats ORDER BY {sort_by} LIMIT {limit}"
            _validate_sql(sql)
            _check_size(500)
            return sql

        @mcp.tool()
        def sample(size: int) -> list:
            _check_size(size)
            return []
        """})
    assert found == []


def test_request_verbs_name_the_input_they_ask_for(tmp_path, monkeypatch):
    """"Please specify a database + schema" asks for `database_name` and `schema_name` by their own
    words: the message names them (on the tool itself too)."""
    found = _check(tmp_path, monkeypatch, {"server.py": """\
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("warehouse")

        @mcp.tool()
        def describe_view(view_name: str, database_name: str = "", schema_name: str = "") -> dict:
            if not database_name and not schema_name:
                raise ToolError("Please specify a database + schema.")
            if not view_name:
                raise ToolError("Provide the view you want described.")
            if len(view_name) > 255:
                raise ToolError("Too long.")
            return {}
        """})
    assert [(r, c) for _, r, c, _, _ in found] == [(13, "AEM203")]
