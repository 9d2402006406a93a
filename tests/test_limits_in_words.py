"""A count limit stated in the reader's own unit is an allowed-values clause, even when the number in
the code is not the one in the words: "You can supply at most one expression." for
`len(entry) > 3` over `["Rscript", "-e", expr]` (pre-commit). So is an allowed clause that shows the
valid forms as code ("The only valid syntax is `Rscript -e {expr}`"). A limit the message does not
state is still reported."""
from __future__ import annotations

import pytest

from conftest import PREVIEW, lint


def aem204(guard: str, text: str) -> list:
    code = f"def check(entry, names):\n    if {guard}:\n        raise ValueError({text!r})\n"
    return [d.location.row for d in lint(code, select=["AEM204"], settings=PREVIEW)]


@pytest.mark.parametrize("guard, text", [
    ("len(entry) > 3", "You can supply at most one expression."),
    ("len(names) > 1", "Only one name may be given at a time."),
    ("len(entry) > 4", "Pass no more than two file arguments after the flag."),
    ("len(entry) > 2", "The only valid syntax is `Rscript -e {expr}` or `Rscript path/to/script`"),
    ("len(names) < 2", "Expected syntax: `merge A B`, with at least two names."),
])
def test_a_limit_stated_in_words_or_shown_as_code(guard, text):
    assert aem204(guard, text) == []


@pytest.mark.parametrize("guard, text", [
    ("len(entry) > 3", "Too many expressions were supplied."),
    ("len(names) > 1", "The names could not be combined."),
    ("len(entry) > 2", "Unsupported `Rscript` invocation."),
])
def test_a_limit_left_unstated_is_still_reported(guard, text):
    assert aem204(guard, text) == [3]
