"""Output formats; each module renders a list of `Diagnostic`s to text.

`FORMATS` maps a format name to its renderer: `render(diagnostics, context) -> str`.
"""
from __future__ import annotations

from typing import Callable, Dict, List

from ..model import Diagnostic
from . import concise, full, github, json_format, junit, sarif

FORMATS: Dict[str, Callable[..., str]] = {
    "concise": concise.render,
    "full": full.render,
    "json": json_format.render,
    "json-lines": json_format.render_lines,
    "github": github.render,
    "sarif": sarif.render,
    "junit": junit.render,
}


def render(fmt: str, diagnostics: List[Diagnostic], **context: object) -> str:
    return FORMATS[fmt](diagnostics, **context)
