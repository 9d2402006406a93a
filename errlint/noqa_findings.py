"""noqa outside the per-line check: AEM002 for noqa codes that suppressed nothing (with a fix that
removes them), and file-level noqa for files errlint could not parse.
"""
from __future__ import annotations

from typing import List, Sequence

from .checks.base import Rule
from .families import PREFIX
from .locator import Locator
from .model import Applicability, Diagnostic, Edit, Fix, Location
from .noqa import Suppressions

def _file_noqa(data: bytes, diagnostics: List[Diagnostic]) -> List[Diagnostic]:
    """A file errlint could not parse still honours a file-level noqa: flake8 skips a file with a
    `# flake8: noqa` line before it tokenizes it (a Jinja template named `.py`, say), and
    `# errlint: noqa: AEM001` turns the code off for the file."""
    if b"noqa" not in data.lower():
        return diagnostics
    suppressions = Suppressions(data.decode("utf-8", errors="replace"))
    return [d for d in diagnostics if not suppressions.file_suppresses(d.code)]


def unused_noqa(name: str, suppressions: Suppressions, locator: "Locator", rule: Rule, enabled: Sequence[str],
                known: frozenset = frozenset()) -> List[Diagnostic]:
    """AEM002: AEM codes listed in a `# noqa:` comment that suppressed nothing, with a safe fix that
    removes them (or the whole comment when nothing else is listed). An AEM code that names no rule
    at all (`AEM999`, a typo) is reported too, as unknown, like ruff's RUF100. Bare `# noqa` and other
    tools' codes are left alone: errlint cannot know what they are for."""
    out: List[Diagnostic] = []
    for row, start, end, listed in suppressions.comments():
        if not listed:
            continue
        used = suppressions.used.get(row, set())
        unknown = sorted(c for c in listed if c.startswith(PREFIX) and known and not any(k.startswith(c) for k in known))
        unused = sorted(c for c in listed if c.startswith(PREFIX) and c not in used and (c in unknown or any(e.startswith(c) for e in enabled)))
        if not unused:
            continue
        line_start = locator.starts[row - 1]
        line = suppressions.lines[row - 1]
        body_end = len(line.rstrip("\r\n"))
        end = start + len(line[start:min(end, body_end)].rstrip(" \t"))  # the codes, not the space after them
        rest = line[end:body_end].strip()
        keep = [c for c in sorted(listed) if c not in unused]
        if keep:
            codes_at = line.index(":", start) + 1
            edit = Edit(line_start + codes_at, line_start + end, " " + ", ".join(keep))
            title = f"Remove unused {', '.join(unused)} from the noqa comment"
        elif rest and not rest.startswith("#"):
            # `# noqa: AEM103 kept for the flake8 run`: the explanation stays a comment
            edit = Edit(line_start + start, line_start + end, "#")
            title = "Remove the unused noqa codes"
        else:
            lead = len(line[:start]) - len(line[:start].rstrip(" \t"))
            edit = Edit(line_start + start - lead, line_start + end, "")
            title = "Remove the unused noqa comment"
        r1, c1 = locator.position(edit.start)
        r2, c2 = locator.position(edit.end)
        edit = Edit(edit.start, edit.end, edit.content, Location(r1, c1), Location(r2, c2))
        where = Location(row, start + 1)
        out.append(Diagnostic(
            code="AEM002", name=rule.name, message=f"unused noqa code{'s' if len(unused) > 1 else ''} {', '.join(unused)}: nothing on this line is reported"
            + (f" (unknown: {', '.join(unknown)} names no rule; `errlint rule --all` lists them)" if unknown else ""),
            filename=name, location=where, end_location=Location(row, end + 1), level=rule.LEVEL,
            suggestion=f"Remove {', '.join(unused)} from the comment.", fix=Fix(Applicability.SAFE, title, (edit,)), url=rule.url, noqa_row=row,
        ))
    return out
