"""Each diagnostic with its source line, a caret under the range, the suggestion and any fix."""
from __future__ import annotations

import unicodedata
from typing import Dict, List, Optional

from ..checks.leaks import LITERAL_SECRETS, mask
from ..model import Diagnostic, printable
from ..noqa import physical_lines
from .style import Style


def render(diagnostics: List[Diagnostic], color: bool = False, sources: Optional[Dict[str, str]] = None, **_: object) -> str:
    style = Style(color)
    sources = sources or {}
    blocks = []
    for d in diagnostics:
        lines = [f"{style.bold(d.filename)}:{d.location.row}:{d.location.column}: {style.red(d.code)} {d.message}"]
        text = sources.get(d.filename)
        if text is not None:
            source_lines = [line.rstrip("\r\n") for line in physical_lines(text)]  # rows as errlint counts them
            if 0 < d.location.row <= len(source_lines):
                line = LITERAL_SECRETS.sub(lambda m: mask(m.group(0)), source_lines[d.location.row - 1])
                width = len(str(d.location.row))
                lines.append(f"{' ' * width} |")
                lines.append(f"{d.location.row} | {_shown(line)}")
                span = (d.end_location.column - d.location.column) if d.end_location.row == d.location.row else len(line) - d.location.column + 1
                start = d.location.column - 1
                carets = len(_shown(line[start:start + max(1, span)]))
                lines.append(f"{' ' * width} | {_pad(_shown(line[:start]))}{style.red('^' * max(1, carets))}")
        lines.append(f"  = help: {d.suggestion}")
        if d.fix is not None:
            note = {"safe": "safe fix", "unsafe": "unsafe fix (--unsafe-fixes)", "display-only": "suggestion"}[d.fix.applicability.value]
            lines.append(f"  = {note}: {d.fix.title}")
        lines.append(f"  = rule: {d.name} ({d.url})" if d.url else f"  = rule: {d.name}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def _shown(text: str) -> str:
    """A source line as printed: a NUL or a right-to-left override becomes its escape (a tab stays)."""
    return printable(text, keep="\t")


def _pad(before: str) -> str:
    """Blanks as wide on screen as `before`: a tab stays a tab, a wide character (CJK, emoji) takes two."""
    return "".join("\t" if c == "\t" else "  " if unicodedata.east_asian_width(c) in ("W", "F") else " " for c in before)
