"""One message, one clear verdict: which of the findings on one message are reported.

Rules judge a message independently, so one weak message can collect a pile of findings (a generic
"Invalid input" under `if limit > 50` is vague, names no input, shows no value, no allowed range and
no next step). The reader needs the few that say what to change. Three steps, in order:

1. Covered findings go: a general code is dropped where a more specific one on the same message
   supplies its part (`COVERED_BY`: an allowed-values clause is a next step; "retry later" is AEM103,
   not also AEM101 and AEM206; a generic message's AEM101 names the missing input and next step).
2. At most one finding per family and message, the most specific first (`FAMILIES`, `RANK`). The
   2xx family is split by the part that is missing (next step; input and value; allowed values),
   the article's parts and the labelled cases' families: a message can miss its value *and* what is
   allowed, two changes with two fixes.
3. At most `MAX_WORDING` findings per message about its wording (1xx vague prose, 2xx missing parts),
   ranked vague prose first, then the parts in the article's order (input and value, allowed values,
   next step). Findings that say the message harms its reader (a leak, a size cost, a misleading
   instruction, the wrong channel or a masked text) are never dropped by that cap: one per family.
"""
from __future__ import annotations

from typing import Dict, List, Sequence, Set, Tuple

from ..families import family_of

MAX_WORDING = 3

COVERED_BY: Dict[str, Set[str]] = {
    "AEM201": {"AEM101", "AEM102", "AEM204", "AEM205", "AEM206", "AEM207"},  # vague advice: the step is there, too vague
    "AEM203": {"AEM101"},
    "AEM101": {"AEM103"},
    "AEM206": {"AEM103"},
}

FAMILIES: Dict[str, str] = {
    "AEM201": "next-step", "AEM205": "next-step", "AEM206": "next-step", "AEM207": "next-step", "AEM209": "next-step",
    "AEM202": "value", "AEM203": "value", "AEM208": "value",
    "AEM204": "allowed",
}
WORDING_ORDER = ("vague", "value", "allowed", "next-step")

# Most specific first, within a family (codes not listed rank after, by code).
RANK: Tuple[str, ...] = (
    "AEM103", "AEM102", "AEM104", "AEM105", "AEM101",
    "AEM205", "AEM206", "AEM209", "AEM207", "AEM201",
    "AEM202", "AEM203", "AEM208",
    "AEM301", "AEM303", "AEM302", "AEM304", "AEM305",
    "AEM404", "AEM403", "AEM405", "AEM402", "AEM401",
    "AEM502", "AEM501", "AEM504", "AEM503", "AEM505", "AEM506",
    "AEM602", "AEM603", "AEM604", "AEM601", "AEM607", "AEM606", "AEM605",
)


def family(code: str) -> str:
    """The family a code counts in for "one finding per family": its hundreds digit (`families`),
    with the 2xx family split by the missing part; errlint's own codes and codes in no family each
    stand alone."""
    if code in FAMILIES:
        return FAMILIES[code]
    found = family_of(code)
    return found.name if found is not None and not found.own else code


def rank(code: str) -> Tuple[int, str]:
    return (RANK.index(code) if code in RANK else len(RANK), code)


def verdict(codes: Sequence[str], max_wording: int = MAX_WORDING) -> Set[str]:
    """The codes kept among the `codes` found on one message."""
    present = set(codes)

    def reported(code: str) -> bool:  # covered only by a finding that is itself reported
        return not any(reported(other) for other in COVERED_BY.get(code, set()) & present)

    kept = {c for c in present if reported(c)}
    best: Dict[str, str] = {}
    for code in sorted(kept, key=rank):
        best.setdefault(family(code), code)
    wording = sorted((f for f in best if f in WORDING_ORDER), key=WORDING_ORDER.index)
    for dropped in wording[max_wording:]:
        del best[dropped]
    return set(best.values())


def one_verdict(findings: List[Tuple[object, object]], max_wording: int = MAX_WORDING) -> List[Tuple[object, object]]:
    """`(rule, finding)` pairs with each message's findings reduced to its verdict (findings about no
    single message are kept as they are)."""
    by_message: Dict[int, List[str]] = {}
    for _, f in findings:
        subject = getattr(f, "subject", None)
        if subject is not None:
            by_message.setdefault(id(subject), []).append(f.code)  # type: ignore[attr-defined]
    keep = {key: verdict(codes, max_wording) for key, codes in by_message.items()}
    out = []
    for rule, f in findings:
        subject = getattr(f, "subject", None)
        if subject is None or f.code in keep[id(subject)]:  # type: ignore[attr-defined]
            out.append((rule, f))
    return out
