"""Which rules have earned their place in the default set, from their precision on real code.

A rule is on by default only when its designers made it so (`Rule.DEFAULT`) and the ecosystem check
(bench/ecosystem) has not shown it to be wrong too often: its measured status (errlint/measured.py)
is `earned` (agreed precision >= 0.90 on at least 25 judged real findings, or all of them) or
`unmeasured` (fewer than 5 findings in the whole corpus, and no verdicts that already put its
precision below 0.90 with 95% confidence). A rule `below bar` (measured below 0.90, or shown below it
by the 95% interval of the verdicts it has) or still `under review` is in preview, like ruff's preview rules: `--preview` (or `preview = true`, or ERRLINT_PREVIEW=1)
runs it with the default set, and selecting it by code, prefix or name runs it too.

A rule below the bar overall may have earned its place for one reader: the same measure, on its
findings for that audience alone (`audiences` in errlint/measured.py). It is then on by default for
the messages that audience reads, and in preview for the rest (`earned_profiles`).
"""
from __future__ import annotations

from typing import Optional, Tuple

from .measured import CORPUS, MEASURED

KEEPS_DEFAULT = ("earned", "unmeasured")


def status(code: str) -> Optional[str]:
    entry = MEASURED.get(code)
    return entry["status"] if entry else None


def on_by_default(rule) -> bool:
    state = status(rule.code)
    return bool(rule.DEFAULT) and (state is None or state in KEEPS_DEFAULT)


def earned_profiles(rule) -> Tuple[str, ...]:
    """The profiles a designed-default rule that is not on by default has earned its place for
    (empty when none, or when the whole rule is on)."""
    entry = MEASURED.get(rule.code)
    if not rule.DEFAULT or not entry or on_by_default(rule):
        return ()
    earned = entry.get("audiences", {})
    return tuple(p for p in rule.PROFILES if p in earned)


def default_state(rule) -> str:
    """`on`, `on for agent` (some audiences only), `preview` or `opt-in`."""
    if on_by_default(rule):
        return "on"
    earned = earned_profiles(rule)
    if earned:
        return "on for " + ", ".join(earned)
    return "preview" if rule.DEFAULT else "opt-in"


def precision_cell(code: str) -> str:
    """The README table's cell: agreed precision and sample size, or why there is none."""
    entry = MEASURED.get(code)
    if not entry:
        return "-"
    if entry["status"] == "unmeasured":
        return f"unmeasured ({entry['findings']} found)"
    if entry.get("audiences"):
        return f"{entry['precision']:.2f} ({entry['tp']}/{entry['agreed']}); " + "; ".join(
            f"{aud}: {sub['tp'] / sub['agreed']:.2f} ({sub['tp']}/{sub['agreed']})" for aud, sub in entry["audiences"].items())
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
    earned = earned_profiles(rule)
    if earned:
        parts = []
        for aud in earned:
            sub = entry["audiences"][aud]
            parts.append(f"{sub['tp']} of {sub['agreed']} judged findings for {READERS.get(aud, aud)} (95% CI {sub['low']:.2f}-{sub['high']:.2f})")
        return (head + f". It earned its place for the messages {_readers(earned)} reads ({'; '.join(parts)}): on by "
                "default there, and in preview for the rest (run it with --preview).")
    return head + "; in preview until it reaches 0.90 (run it with --preview)."


READERS = {"agent": "an agent", "cli": "a CLI user", "http": "an HTTP client", "exc": "a developer", "log": "an operator"}


def _readers(profiles) -> str:
    names = [READERS.get(p, p) for p in profiles]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
