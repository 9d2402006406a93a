"""Which rules have earned their place in the default set, from their precision on real code.

A rule is on by default only when its designers made it so (`Rule.DEFAULT`) and the ecosystem check
(bench/ecosystem) has not shown it to be wrong too often: its measured status (errlint/measured.py)
is `earned` (agreed precision >= 0.90 on at least 25 judged real findings, or all of them) or
`unmeasured` (fewer than 5 findings in the whole corpus, and no verdicts that already put its
precision below 0.90 with 95% confidence). A rule `below bar` (measured below 0.90, or shown below it
by the 95% interval of the verdicts it has) or still `under review` is in preview, like ruff's preview rules: `--preview` (or `preview = true`, or ERRLINT_PREVIEW=1)
runs it with the default set, and selecting it by code, prefix or name runs it too.
"""
from __future__ import annotations

from typing import Optional

from .measured import CORPUS, MEASURED

KEEPS_DEFAULT = ("earned", "unmeasured")


def status(code: str) -> Optional[str]:
    entry = MEASURED.get(code)
    return entry["status"] if entry else None


def on_by_default(rule) -> bool:
    state = status(rule.code)
    return bool(rule.DEFAULT) and (state is None or state in KEEPS_DEFAULT)


def precision_cell(code: str) -> str:
    """The README table's cell: agreed precision and sample size, or why there is none."""
    entry = MEASURED.get(code)
    if not entry:
        return "-"
    if entry["status"] == "unmeasured":
        return f"unmeasured ({entry['findings']} found)"
    if not entry["agreed"]:
        return "under review"
    return f"{entry['precision']:.2f} ({entry['tp']}/{entry['agreed']})"


def measured_text(rule) -> str:
    """`errlint rule`'s sentence on real-code precision and what it means for the default."""
    entry = MEASURED.get(rule.code)
    corpus = f"{CORPUS['packages']} real packages"
    if not entry:
        return "Not measured on real code."
    if entry["status"] == "unmeasured":
        return (f"Unmeasured: {entry['findings']} finding(s) in the {corpus} of the ecosystem check (fewer "
                "than 5), so it keeps its designed default.")
    if not entry["agreed"]:
        head = f"Under review: none of its {entry['findings']} findings on {corpus} has two agreeing verdicts yet"
    else:
        head = (f"Agreed precision on real code {entry['precision']:.2f} ({entry['tp']} of {entry['agreed']} "
                f"judged findings; 95% CI {entry['low']:.2f}-{entry['high']:.2f}) on {corpus}")
    if not rule.DEFAULT:
        return head + "."
    if entry["status"] == "earned":
        return head + ": on by default."
    return head + "; in preview until it reaches 0.90 (run it with --preview)."
