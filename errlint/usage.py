"""Helpers shared by errlint's commands: comma-separated option values and usage errors (exit 2)."""
from __future__ import annotations

import sys
from typing import List, NoReturn, Sequence

import click


def split_list(values: Sequence[str]) -> List[str]:
    """`("AEM1,AEM2", "AEM3")` -> `["AEM1", "AEM2", "AEM3"]` (repeatable, comma-separated options)."""
    out: List[str] = []
    for value in values:
        out.extend(v.strip() for v in value.split(",") if v.strip())
    return out


def fail(message: str) -> NoReturn:
    """Print an errlint usage, configuration or start-up error to stderr and exit with status 2.

    `message` must itself be a good error: the failing input, what is allowed, the next command.
    """
    click.echo(f"errlint: {message}", err=True)
    sys.exit(2)
