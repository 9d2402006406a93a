"""A message that points at the place in the reader's own file or settings where the fault is, as a
compiler does (a line number, a section, an entry named inside a file or section the message shows),
makes the step plain: edit it there. AEM201 is not reported on it. A message that says the thing is
absent, or that names no place in a file or settings, keeps AEM201."""
from __future__ import annotations

import pytest

from conftest import preview_rows


def aem201(code: str) -> list:
    return preview_rows(code, ["AEM201"])


LOCATED = {
    "an_option_in_a_section_of_an_ini_file_in_a_click_command": """
        import configparser
        import click

        @click.command()
        @click.argument("config_path")
        def serve(config_path):
            parser = configparser.ConfigParser()
            parser.read(config_path)
            raw = parser.get("server", "port")
            if not raw.isdigit():
                raise click.ClickException(f"Invalid port {raw!r} for option 'port' in section [server] of {config_path}")
        """,
    "a_line_of_csv_text_an_agent_sent": """
        from datetime import date
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool()
        def import_rows(csv_text: str) -> int:
            for lineno, line in enumerate(csv_text.splitlines(), start=1):
                try:
                    date.fromisoformat(line.split(",")[0])
                except ValueError as exc:
                    raise ToolError(f"Bad date on line {lineno}: {exc}")
            return 0
        """,
    "an_entry_of_a_manifest_in_a_fastapi_route": """
        import yaml
        from fastapi import FastAPI, HTTPException
        app = FastAPI()

        @app.post("/deploy")
        async def deploy(manifest_path: str):
            data = yaml.safe_load(open(manifest_path))
            for name, svc in data["services"].items():
                if "image" in svc and "build" in svc:
                    raise HTTPException(status_code=422, detail=f"Entry {name!r} in {manifest_path} sets both an image and a build")
            return data
        """,
    "a_setting_in_a_toml_file_an_argparse_main_read": """
        import argparse
        import sys
        import tomllib

        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("settings_file")
            args = parser.parse_args()
            data = tomllib.load(open(args.settings_file, "rb"))
            try:
                float(data["tool"]["timeout"])
            except (TypeError, ValueError):
                sys.exit(f"Setting 'timeout' in {args.settings_file} could not be read as seconds")

        if __name__ == "__main__":
            main()
        """,
}


@pytest.mark.parametrize("name", sorted(LOCATED))
def test_a_located_fault_makes_the_step_plain(name):
    assert aem201(LOCATED[name]) == []


NOT_LOCATED = {
    # absent: the reader needs where to find the valid ones, not where to edit
    "a_column_not_found_in_a_table": ("""
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")
        COLUMNS = {"orders": ["id", "total"]}

        @mcp.tool()
        def total(table: str, column: str) -> float:
            if column not in load_columns(table):
                raise ToolError(f"Column {column} not found in table {table}")
            return 0.0

        def load_columns(table):
            return COLUMNS[table]
        """, 10),
    "an_unknown_option_in_a_section": ("""
        import configparser
        import sys

        def main():
            parser = configparser.ConfigParser()
            parser.read(sys.argv[1])
            for option in parser["server"]:
                if option not in load_known():
                    sys.exit(f"Unknown option {option} in section [server]")

        def load_known():
            return set()

        if __name__ == "__main__":
            main()
        """, 10),
    # "pipeline" is not a line number
    "a_pipeline_that_failed": ("""
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool()
        def run(pipeline: str) -> str:
            if not start(pipeline):
                raise ToolError(f"Pipeline {pipeline} failed to start")
            return "ok"

        def start(name):
            return False
        """, 9),
    # a value inside a request body is no place in the reader's file or settings
    "a_value_in_a_payload": ("""
        import httpx
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool()
        def send(payload: dict) -> str:
            reply = httpx.post("https://api.example.com/items", json=payload)
            if reply.status_code == 409:
                raise ToolError(f"Value {payload['id']} in {payload} was refused by the service")
            return reply.text
        """, 11),
}


@pytest.mark.parametrize("name", sorted(NOT_LOCATED))
def test_no_place_to_edit_keeps_the_rule(name):
    code, row = NOT_LOCATED[name]
    assert aem201(code) == [row]
