"""A small command-line tool whose error paths show good and bad messages (click and sys.exit)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

FORMATS = {"csv", "json"}


@click.command()
@click.argument("config", type=click.Path())
@click.option("--format", "fmt", default="csv", help="Output format: csv or json.")
@click.option("--limit", type=int, default=100, help="Rows to export (1-1000).")
def export(config: str, fmt: str, limit: int) -> None:
    """Export rows described by CONFIG."""
    if not Path(config).is_file():
        # good: echoes the path and names the command that creates one
        sys.exit(f"Config file '{config}' not found; create it with `export-tool init` or pass another path.")
    if fmt not in FORMATS:
        # bad: no allowed values, no next step (AEM204)
        raise click.ClickException(f"Unsupported format {fmt}")
    if limit > 1000:
        # good: says the range and the flag to change
        raise click.BadParameter(f"--limit {limit} is above 1000; pass --limit 1000 or less.")
    if limit < 1:
        # bad: error on stdout before a non-zero exit (AEM606), and vague (AEM101)
        print("Error: invalid input")
        sys.exit(2)
    try:
        _connect()
    except ConnectionError:
        # bad: vague advice and retry without timing (AEM102, AEM103)
        click.echo("Connection failed. Please check your network and try again later.", err=True)
        sys.exit(1)


def _connect() -> None:
    raise ConnectionError("unreachable")


if __name__ == "__main__":
    export()
