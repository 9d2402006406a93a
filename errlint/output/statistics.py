"""`--statistics`: diagnostics counted per rule, as ruff counts them.

The text formats (`concise`, `full`) print flake8's table, `COUNT<TAB>CODE<TAB>NAME`, with ruff's
`[*]`/`[ ]` fix marks when some rule is fixable; `json` prints a list of {code, name, count, fixable}
objects (an empty list when nothing was found, so the output always parses). The other formats have
no statistics form: ruff refuses them, and so does errlint (`STATISTICS_FORMATS`).
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Any, Dict, List, Sequence

from ..model import Diagnostic

STATISTICS_FORMATS = ("concise", "full", "json")


def count(diagnostics: Sequence[Diagnostic], unsafe_fixes: bool = False) -> List[Dict[str, Any]]:
    """One entry per code, the most frequent first (then by code). A code is `fixable` when every
    finding of it carries a fix the run's settings would apply (safe, or unsafe with --unsafe-fixes)."""
    applies = ("safe", "unsafe") if unsafe_fixes else ("safe",)
    counts = Counter((d.code, d.name) for d in diagnostics)
    fixable = {code: True for code, _ in counts}
    for d in diagnostics:
        if d.fix is None or d.fix.applicability.value not in applies:
            fixable[d.code] = False
    return [{"code": code, "name": name, "count": n, "fixable": fixable[code]}
            for (code, name), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def render(fmt: str, diagnostics: Sequence[Diagnostic], unsafe_fixes: bool = False) -> str:
    """The statistics in `fmt` (one of STATISTICS_FORMATS)."""
    stats = count(diagnostics, unsafe_fixes)
    if fmt == "json":
        return json.dumps(stats, indent=2) + "\n"
    width = max((len(str(s["count"])) for s in stats), default=1)
    code_width = max((len(s["code"]) for s in stats), default=1)
    marked = any(s["fixable"] for s in stats)
    return "".join(f"{s['count']:>{width}}\t{s['code']:<{code_width}}\t{('[*] ' if s['fixable'] else '[ ] ') if marked else ''}{s['name']}\n"
                   for s in stats)
