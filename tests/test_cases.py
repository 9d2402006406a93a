"""The labelled dev cases (copied from the shared cases file), scored per family as the project is
judged; the table is printed (run with -s to see it)."""
from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from errlint.config import Settings
from errlint.runner import Selection, check_paths

DATA = Path(__file__).parent / "data" / "dev_cases.jsonl"
CASES = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
FAMILY = [("AEM1", "vague"), ("AEM201", "no-next-step"), ("AEM205", "no-next-step"), ("AEM206", "no-next-step"),
          ("AEM207", "no-next-step"), ("AEM209", "no-next-step"), ("AEM202", "no-value"), ("AEM203", "no-value"),
          ("AEM204", "no-allowed"), ("AEM3", "leak"), ("AEM4", "oversized"), ("AEM5", "escalation"), ("AEM6", "protocol-misuse")]
IMPLIED = {"AEM204": {"no-next-step"}}


def family(code):
    for prefix, fam in FAMILY:
        if code.startswith(prefix):
            return fam
    return None


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    root = tmp_path_factory.mktemp("cases")
    for case in CASES:
        (root / f"{case['id']}.py").write_text(case["code"])
    result = check_paths([str(root)], Settings(project_root=str(root)), Selection())
    got = collections.defaultdict(set)
    sat = collections.defaultdict(set)
    for d in result.diagnostics:
        cid = Path(d.filename).stem
        fam = family(d.code)
        if fam:
            got[cid].add(fam)
            sat[cid] |= {fam} | IMPLIED.get(d.code, set())
    return got, sat


def table(got, sat):
    fams = sorted({x for c in CASES for x in c["expect"]} - {"good", "none"})
    tp, fp, fn = collections.Counter(), collections.Counter(), collections.Counter()
    clean_fp = 0
    for c in CASES:
        exp = set(c["expect"]) - {"good", "none"}
        maybe = set(c.get("maybe", ()))
        g = got[c["id"]] - maybe
        if not exp and g:
            clean_fp += 1
        for fam in fams:
            if fam in maybe:
                continue
            if fam in exp and fam in sat[c["id"]]:
                tp[fam] += 1
            elif fam in exp:
                fn[fam] += 1
            elif fam in g:
                fp[fam] += 1
    rows = {}
    for fam in fams:
        prec = tp[fam] / (tp[fam] + fp[fam]) if tp[fam] + fp[fam] else 1.0
        rec = tp[fam] / (tp[fam] + fn[fam]) if tp[fam] + fn[fam] else 1.0
        rows[fam] = (tp[fam], fp[fam], fn[fam], prec, rec)
    return rows, clean_fp


def test_families_meet_the_bars(scored):
    rows, clean_fp = table(*scored)
    print(f"\n{'family':16} {'tp':>4} {'fp':>4} {'fn':>4} {'prec':>6} {'recall':>6}")
    for fam, (tp, fp, fn, prec, rec) in rows.items():
        print(f"{fam:16} {tp:4} {fp:4} {fn:4} {prec:6.2f} {rec:6.2f}")
    print(f"findings on good/none cases: {clean_fp}")
    for fam, (_, _, _, prec, rec) in rows.items():
        assert prec >= 0.90, f"{fam} precision {prec:.2f}"
        assert rec >= 0.85, f"{fam} recall {rec:.2f}"
    assert clean_fp <= 1


def test_good_and_none_cases_are_clean_of_core_families(scored):
    got, _ = scored
    core = {"vague", "no-next-step", "leak", "oversized"}
    dirty = [c["id"] for c in CASES if set(c["expect"]) & {"good", "none"} and got[c["id"]] & core]
    assert dirty == []
