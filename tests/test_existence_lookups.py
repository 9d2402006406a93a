"""An existence check looks up a key: in `db[table].exists()`, `client.bucket(name).exists()` and
`Path(p).exists()` the value the guard rejects is the key (`table`, `name`, `p`), not the container
it is looked up in (`guard_operands.looked_up`). A failed check rejects that value, so the message
owes its echo (AEM202); a literal key (`db["_stats"]`) looks up no input."""
from __future__ import annotations

from conftest import PREVIEW, lint


def found(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, settings=PREVIEW))


def test_a_table_looked_up_by_subscript_in_a_cli_command():
    code = '''import click


@click.command()
@click.argument("db_path")
@click.argument("table")
def vacuum(db_path, table):
    db = open_db(db_path)
    if not db[table].exists():
        raise click.ClickException("Nothing to vacuum; run `tool tables DB` to list them.")
'''
    assert found(code) == [(10, "AEM202")]


def test_a_bucket_looked_up_through_a_factory_call_in_a_tool():
    code = '''from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("store")


@mcp.tool()
def drop_bucket(client_id: str, bucket: str) -> str:
    client = connect(client_id)
    if not client.bucket(bucket).exists():
        raise ToolError("Nothing to drop. Call list_buckets.")
    client.bucket(bucket).delete()
    return "dropped"
'''
    assert found(code) == [(11, "AEM202")]


def test_a_literal_key_looks_up_no_input():
    code = '''import click


@click.command()
@click.argument("db_path")
def stats(db_path):
    db = open_db(db_path)
    if not db["_stats"].exists():
        raise click.ClickException("Statistics are off; run `tool enable-stats DB` first.")
'''
    assert found(code) == []


def test_a_path_built_from_the_argument_and_a_plain_exists_call():
    code = '''import os
from pathlib import Path

from mcp.server.fastmcp import FastMCP

server = FastMCP("docs")


@server.tool()
def outline(doc: str) -> str:
    if not Path(doc).exists():
        raise ValueError("Nothing to outline. Call list_docs.")
    return Path(doc).read_text()[:200]


@server.tool()
def size(path: str) -> int:
    if not os.path.exists(path):
        raise ValueError("Nothing to measure. Call list_docs.")
    return os.path.getsize(path)
'''
    assert found(code) == [(12, "AEM202"), (19, "AEM202")]
