"""`path:line:col: CODE message`, one line per diagnostic (1-based columns, like ruff and flake8)."""
from __future__ import annotations

from typing import List

from ..model import Diagnostic
from .style import Style


def render(diagnostics: List[Diagnostic], color: bool = False, show_fixes: bool = False, **_: object) -> str:
    style = Style(color)
    lines = []
    for d in diagnostics:
        marker = " [*]" if d.fix is not None and d.fix.applicability.value == "safe" else ""
        lines.append(
            f"{style.bold(d.filename)}{style.dim(':')}{d.location.row}{style.dim(':')}{d.location.column}{style.dim(':')} "
            f"{style.red(d.code)}{marker} {d.message}"
        )
    return "\n".join(lines) + ("\n" if lines else "")
