"""A message that points at the place in the reader's own file or settings where the fault is, as a
compiler does (a line number, a section, an entry named inside a file or section the message shows),
makes the step plain: edit it there. AEM201 is not reported on it. A place counts only inside a
document the message names or shows. A message that says the thing is absent, or whose "line" or
"section" is no place in a document (an order line, a stadium section, an S3 key, a traceback's
line of the program's own code), keeps AEM201. Several inputs here come from a hunter's report."""
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
                    raise ToolError(f"Bad date on line {lineno} of the CSV text: {exc}")
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
    "a_compiler_style_path_and_line_number": """
        import argparse
        import sys

        def main():
            ap = argparse.ArgumentParser()
            ap.add_argument("paths", nargs="+")
            for path in ap.parse_args().paths:
                with open(path) as fh:
                    for lineno, text in enumerate(fh, start=1):
                        if text.startswith("\\t"):
                            sys.exit(f"{path}:{lineno}: indentation could not be parsed")

        if __name__ == "__main__":
            main()
        """,
    "a_character_position_in_the_script_an_agent_wrote": """
        import sqlite3
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool
        def apply_migration(script: str) -> str:
            conn = sqlite3.connect("app.db")
            offset = 0
            for stmt in script.split(";"):
                try:
                    conn.execute(stmt)
                except sqlite3.OperationalError:
                    raise ToolError(f"Syntax error in the statement at character {offset} of the script")
                offset += len(stmt) + 1
            return "applied"
        """,
    "a_key_in_a_toml_table_of_the_config": """
        import tomllib
        import click

        @click.command()
        @click.option("--config", "config_path", default="pyproject.toml")
        def build(config_path):
            with open(config_path, "rb") as fh:
                table = tomllib.load(fh).get("tool", {}).get("mybuild", {})
            for key, value in table.items():
                if isinstance(value, dict):
                    raise click.ClickException(f"Key {key!r} in the [tool.mybuild] table of {config_path} holds a nested table")
        """,
    "an_option_in_a_file_named_by_a_literal": """
        import configparser
        import click

        @click.command()
        def serve():
            parser = configparser.ConfigParser()
            parser.read("settings.ini")
            raw = parser.get("server", "workers", fallback="4")
            try:
                int(raw)
            except ValueError:
                raise click.ClickException(f"Option 'workers' in settings.ini could not be read as a count ({raw!r})")
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
    "no_field_found_in_a_file_named_by_a_literal": ("""
        import json
        import sys

        def main():
            data = json.load(open("server.json"))
            if "$schema" not in data:
                print("No $schema field found in server.json", file=sys.stderr)
                sys.exit(1)

        if __name__ == "__main__":
            main()
        """, 8),
    # a line, a section or a key outside any document the reader can edit
    "a_line_of_an_order": ("""
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool
        def refund_line(order_id: str, line: int) -> dict:
            item = fetch(order_id)[line - 1]
            if item["status"] == "fulfilled":
                raise ToolError(f"Order {order_id} line {line} has already shipped and cannot be refunded here")
            return item

        def fetch(order_id):
            return []
        """, 10),
    "a_section_of_a_stadium": ("""
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool
        def reserve(event_id: str, section: str, count: int) -> list:
            available = seats(event_id, section)
            if len(available) < count:
                raise ToolError(f"Only {len(available)} seats left in section {section} for event {event_id}")
            return available[:count]

        def seats(event_id, section):
            return []
        """, 10),
    "a_key_under_an_s3_prefix": ("""
        import boto3
        import click

        @click.command()
        @click.argument("bucket")
        @click.argument("s3_path")
        def download(bucket, s3_path):
            s3 = boto3.client("s3")
            for obj in s3.list_objects_v2(Bucket=bucket, Prefix=s3_path).get("Contents", []):
                if obj.get("StorageClass") in ("GLACIER", "DEEP_ARCHIVE"):
                    raise click.ClickException(f"Key {obj['Key']} in {s3_path} is archived in {obj['StorageClass']}")
        """, 12),
    "a_key_missing_from_the_config_file": ("""
        import argparse
        import sys
        import tomllib

        def main():
            ap = argparse.ArgumentParser()
            ap.add_argument("config_path")
            args = ap.parse_args()
            data = tomllib.load(open(args.config_path, "rb"))
            if "token" not in data.get("server", {}):
                sys.exit(f"Key 'token' in {args.config_path} is missing")

        if __name__ == "__main__":
            main()
        """, 12),
    "a_line_of_the_program_s_own_code_in_a_traceback": ("""
        import sys
        import traceback
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool
        def run_plugin(name: str, payload: dict) -> dict:
            try:
                return PLUGINS[name](payload)
            except Exception:
                tb = traceback.extract_tb(sys.exc_info()[2])[-1]
                raise ToolError(f"Plugin {name} crashed at line {tb.lineno} of {tb.filename}")

        PLUGINS = {}
        """, 14),
}


@pytest.mark.parametrize("name", sorted(NOT_LOCATED))
def test_no_place_to_edit_keeps_the_rule(name):
    code, row = NOT_LOCATED[name]
    assert aem201(code) == [row]
