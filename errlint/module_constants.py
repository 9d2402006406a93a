"""Module constants that other modules of the project import, read without parsing (like the rest
of `project_scan`).

A message often takes its text from a constant another module defines: `from .texts import USAGE`,
`from .schemas import ORDER_SCHEMA`. Read in the importing module alone, that text is unknown, so a
500-token usage text or a whole JSON Schema in the message goes unmeasured. The scan keeps the source
of each ALL_CAPS module-level constant written as a literal (a string, a dict, a list, a tuple or a
set) whose name some `from ... import` of the project names; the importing module binds the name to
that value (`extract.imported_constants`), as if the constant were its own.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, Set, Tuple

from .line_patterns import LinePattern

# `NAME = "..."`, `NAME: dict = {...}`: an ALL_CAPS name at column 0 given a literal
_CONSTANT = LinePattern(rb"([A-Z][A-Z0-9_]*)[ \t]*(?::[^=\n]*)?=[ \t]*(?=[\"'({\[]|[rRbBuUfF]{1,2}[\"'])", re.M)
_TRIPLE = re.compile(rb"[rRbBuUfF]{0,2}(\"\"\"|''')")
_TOP_LEVEL = re.compile(rb"^(?=[^\s#)\]}])", re.M)  # a line that ends the value before it
_FROM_IMPORT = LinePattern(rb"[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_CAPS_NAME = re.compile(rb"\b[A-Z][A-Z0-9_]*\b")
MAX_CONSTANT_TEXT = 50_000
MAX_CONSTANTS = 5_000


class ModuleConstants:
    """`constants()`: ("texts.USAGE", its source `USAGE = "..."`) for each constant some module of
    the project imports by name (the defining module's last name, as `project_scan.ServerObjects`)."""

    def __init__(self) -> None:
        self.found: Dict[str, bytes] = {}
        self.imported: Set[bytes] = set()

    def add(self, path: Path, data: bytes) -> None:
        for match in _FROM_IMPORT.finditer(data):
            self.imported.update(_CAPS_NAME.findall(match.group(1)))
        if len(self.found) >= MAX_CONSTANTS:
            return
        module = path.parent.name if path.stem == "__init__" else path.stem
        for match in _CONSTANT.finditer(data):
            end = _value_end(data, match.end())
            if end is not None and end - match.start() <= MAX_CONSTANT_TEXT:
                self.found[f"{module}.{match.group(1).decode('ascii')}"] = data[match.start():end]

    def constants(self) -> Tuple[Tuple[str, str], ...]:
        return tuple(sorted((key, text.decode("utf-8", "replace")) for key, text in self.found.items()
                            if key.rsplit(".", 1)[1].encode("ascii") in self.imported))


def _value_end(data: bytes, start: int):
    """Where the literal that starts at `start` ends: after its closing triple quote for a
    triple-quoted string (whose lines may start at column 0), else before the next line at column 0."""
    triple = _TRIPLE.match(data, start)
    if triple is not None:
        close = data.find(triple.group(1), triple.end())
        return None if close < 0 else close + 3
    newline = data.find(b"\n", start)
    following = _TOP_LEVEL.search(data, newline + 1) if newline >= 0 else None
    return following.start() if following else len(data)
