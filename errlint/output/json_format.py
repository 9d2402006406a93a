"""JSON (a list) and JSON Lines (one object per line), with ruff's field names plus level/suggestion."""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from ..model import Diagnostic, Fix, Location


def _location(loc: Optional[Location]) -> Optional[Dict[str, int]]:
    return None if loc is None else {"row": loc.row, "column": loc.column}


def fix_object(fix: Optional[Fix]) -> Optional[Dict[str, Any]]:
    if fix is None:
        return None
    return {
        "applicability": fix.applicability.value,
        "message": fix.title,
        "edits": [{"content": e.content, "location": _location(e.location), "end_location": _location(e.end_location)} for e in fix.edits],
    }


def diagnostic_object(d: Diagnostic) -> Dict[str, Any]:
    return {
        "code": d.code,
        "name": d.name,
        "message": d.message,
        "filename": d.filename,
        "location": _location(d.location),
        "end_location": _location(d.end_location),
        "fix": fix_object(d.fix),
        "noqa_row": d.noqa_row,
        "url": d.url,
        "level": d.level.value,
        "suggestion": d.suggestion,
        "audience": d.audience,
        "entry_points": list(d.entry_points),
    }


def render(diagnostics: List[Diagnostic], **_: object) -> str:
    return json.dumps([diagnostic_object(d) for d in diagnostics], indent=2, ensure_ascii=False) + "\n"


def render_lines(diagnostics: List[Diagnostic], **_: object) -> str:
    return "".join(json.dumps(diagnostic_object(d), ensure_ascii=False) + "\n" for d in diagnostics)
