"""GitHub Actions workflow commands: one `::error`/`::warning`/`::notice` annotation per diagnostic.

Shape (ruff's `render/github.rs`, with GitHub's escaping added):

    ::warning title=errlint (AEM101),file=a.py,line=5,col=22,endLine=5,endColumn=41::a.py:5:22: AEM101 message

`col` and `endColumn` are left out when the range spans several lines: Actions drops or misplaces
annotations that give columns across lines (ruff #22074). Values are escaped as `@actions/core`'s
`escapeData`/`escapeProperty` do, so a `%`, newline, `:` or `,` cannot end a field early.
"""
from __future__ import annotations

import os
from typing import List

from ..model import Diagnostic, Level

COMMANDS = {Level.ERROR: "error", Level.WARNING: "warning", Level.INFO: "notice"}


def escape_data(text: str) -> str:
    """Escape a command's message (the part after `::`): `%`, CR and LF."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value (`file=`, `title=`): as `escape_data`, plus `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(d: Diagnostic) -> str:
    """The workflow command for one diagnostic (no trailing newline)."""
    path = d.filename.replace(os.sep, "/")
    start, end = d.location, d.end_location
    props = [("title", f"errlint ({d.code})"), ("file", path), ("line", str(start.row))]
    if start.row == end.row:
        props += [("col", str(start.column)), ("endLine", str(end.row)), ("endColumn", str(end.column))]
    else:
        props.append(("endLine", str(end.row)))
    head = ",".join(f"{key}={escape_property(value)}" for key, value in props)
    body = f"{path}:{start.row}:{start.column}: {d.code} {d.message}"
    return f"::{COMMANDS.get(d.level, 'error')} {head}::{escape_data(body)}"


def render(diagnostics: List[Diagnostic], **_: object) -> str:
    """One annotation line per diagnostic, in the order given; "" when there are none."""
    return "".join(annotation(d) + "\n" for d in diagnostics)
