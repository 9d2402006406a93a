"""`raise A(...) if c else B(...)` raises one of two messages: each branch is a sink of its own,
reported at its own literal, nested and parenthesised forms included."""
from __future__ import annotations

from conftest import PREVIEW, lint


def rows_cols(code: str, select=("AEM101",)):
    return sorted({(d.location.row, d.location.column) for d in lint(code, select=list(select), settings=PREVIEW)})


def test_each_branch_is_judged():
    code = 'def load(path, strict):\n    if not path:\n        raise ValueError("An error occurred") if strict else TypeError("Something went wrong")\n'
    assert rows_cols(code) == [(3, 26), (3, 72)]


def test_parenthesised_with_a_cause_and_nested():
    code = ('def load(path, strict, lax):\n    if not path:\n'
            '        raise (ValueError("An error occurred") if strict else TypeError("Something went wrong") if lax else KeyError) from None\n')
    assert rows_cols(code) == [(3, 27), (3, 73)]


def test_a_good_branch_stays_silent():
    code = ('def load(path, strict):\n    if not path:\n'
            '        raise ValueError("path is empty; pass a file such as data.json") if strict else TypeError("An error occurred")\n')
    assert rows_cols(code) == [(3, 99)]
