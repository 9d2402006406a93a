"""The ecosystem check measures a default rule on what it reports in the default run too: there a
message that a preview rule's more specific finding took in the designed run falls to the default
rule. A rule precise in the designed run but wrong in the default run loses its place."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench" / "ecosystem"))
import review  # noqa: E402


def finding(key: str, code: str) -> dict:
    return {"key": key, "code": code, "package": "p@1"}


def votes(*pairs):
    """verdicts_by_key's shape: key -> two reviewers' votes."""
    return {key: [{"reviewer": "a", "verdict": v}, {"reviewer": "b", "verdict": v}] for key, v in pairs}


DEFAULTS = {"AEM102": True, "AEM201": True, "AEM104": False}


def row(rows, code):
    return next(r for r in rows if r["code"] == code)


def test_a_default_rule_shadowed_in_the_designed_run_is_judged_on_the_default_run():
    designed = [finding("k1", "AEM102"), finding("k2", "AEM102"), finding("k3", "AEM201"), finding("k4", "AEM201"), finding("k5", "AEM201")]
    default_run = [finding("k1", "AEM102"), finding("k2", "AEM102"), finding("d1", "AEM102"), finding("d2", "AEM102"), finding("d3", "AEM102")]
    verdicts = votes(("k1", "TP"), ("k2", "TP"), ("d1", "FP"), ("d2", "FP"), ("d3", "FP"))
    alone = row(review.precision_table(designed, verdicts, DEFAULTS), "AEM102")
    assert (alone["findings"], alone["tp"], alone["agreed"], alone["status"]) == (2, 2, 2, "unmeasured")
    both = row(review.precision_table(designed, verdicts, DEFAULTS, default_run), "AEM102")
    assert (both["findings"], both["tp"], both["agreed"], both["status"]) == (5, 2, 5, "below bar")


def test_a_finding_in_both_runs_counts_once():
    designed = [finding(f"k{i}", "AEM102") for i in range(5)]
    verdicts = votes(*((f"k{i}", "TP") for i in range(5)))
    r = row(review.precision_table(designed, verdicts, DEFAULTS, list(designed)), "AEM102")
    assert (r["findings"], r["agreed"], r["tp"]) == (5, 5, 5)


def test_an_opt_in_rule_is_judged_on_the_designed_run_only():
    designed = [finding("k1", "AEM104")]
    default_run = [finding("d1", "AEM104"), finding("d2", "AEM104")]
    r = row(review.precision_table(designed, {}, DEFAULTS, default_run), "AEM104")
    assert r["findings"] == 1


@pytest.mark.parametrize("tp, candidates", [(5, ["AEM102", "AEM201"]), (0, ["AEM201"])])
def test_the_default_candidates_are_the_default_rules_the_designed_run_keeps(tp, candidates):
    designed = [finding(f"k{i}", "AEM102") for i in range(5)]
    verdicts = votes(*((f"k{i}", "TP" if i < tp else "FP") for i in range(5)))
    assert review.default_candidates(designed, verdicts, DEFAULTS) == candidates
