"""The o200k_base estimator against 221 strings with exact counts."""
from __future__ import annotations

import json
import statistics
from pathlib import Path

from errlint import tokens

ROWS = [json.loads(line) for line in (Path(__file__).parent / "data" / "o200k_counts.jsonl").read_text().splitlines() if line.strip()]


def errors():
    return sorted(abs(tokens.estimate(r["text"]) - r["o200k_base"]) / r["o200k_base"] for r in ROWS)


def percentile(values, q):
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def test_median_relative_error_at_most_10_percent():
    assert statistics.median(errors()) <= 0.10


def test_p95_relative_error_at_most_25_percent():
    assert percentile(errors(), 0.95) <= 0.25


def test_large_dumps_are_close():
    big = [r for r in ROWS if r["o200k_base"] >= 200]
    assert big
    for r in big:
        assert abs(tokens.estimate(r["text"]) - r["o200k_base"]) / r["o200k_base"] <= 0.25, r["kind"]


def test_empty_text_is_zero_tokens():
    assert tokens.estimate("") == 0


def test_count_never_downloads(monkeypatch, tmp_path):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    tokens._tiktoken_counter.cache_clear()
    try:
        assert tokens.backend() == "estimate"
        assert tokens.count("An error occurred") == tokens.estimate("An error occurred")
    finally:
        tokens._tiktoken_counter.cache_clear()
