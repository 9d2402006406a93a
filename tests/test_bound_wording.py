"""AEM204 states the allowed side of a bound: under `not (...)` the comparison itself is the allowed
side, a chained range gives both ends, and a count is stated as one (`len(x)`)."""
from __future__ import annotations

import pytest
from conftest import lint

from errlint.config import Settings


def stated(code: str) -> str:
    found = lint(code, select=["AEM204"], settings=Settings(preview=True))
    assert len(found) == 1, found
    return found[0].message.split("(", 1)[1].rsplit(")", 1)[0]


@pytest.mark.parametrize("test, expected", [
    ("not 100 <= code <= 999", "code must be >= 100 and <= 999"),
    ("code < 100 or code > 999", "code must be >= 100 and <= 999"),
    ("not code <= 10", "code must be <= 10"),
    ("code > 10", "code must be <= 10"),
    ("10 < code", "code must be <= 10"),
    ("not (code < 10)", "code must be < 10"),
])
def test_allowed_side(test, expected):
    code = f"def status(code):\n    if {test}:\n        raise ValueError('Status code out of range.')\n"
    assert stated(code) == expected


def test_a_count_is_stated_as_a_count():
    code = "def fk(columns):\n    if len(columns) > 1:\n        raise ValueError('other_table must be specified for a compound foreign key')\n"
    assert stated(code) == "len(columns) must be <= 1"
