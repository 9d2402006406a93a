"""`LinePattern` finds what `re.compile("^" + body, re.M)` finds, at the same offsets."""
from __future__ import annotations

import re

import pytest

from errlint.line_patterns import LinePattern

TEXTS = [
    "",
    "FOO = 1\n",  # a match on the first line
    "x\nFOO = 1\nBAR = 2\nBAZ = 3",  # consecutive lines, the last with no line break
    "a\r\nFOO = 1\r\n\r\nBAR = 2\r\n",  # CRLF
    "  FOO = 1\n\tBAR = 2\n",  # indented: no match at column 0
    "FOO = (\n  1,\n)\nBAR = 2\n",  # a match that spans lines
    "one\rFOO = 1\rtwo\n",  # CR alone is no line start for `^` either
]
BODIES = [
    r"([A-Z]+)[ \t]*=[ \t]*(\(?)",
    r"[ \t]*([A-Z]+)(?:[ \t]*=[ \t]*(\d))?",
    r"([A-Z]+) = (\d)$",
    r"\s*(BAR)",  # `\s*` may cross blank lines, as after `^`
]


def _seen(matches):
    return [(m.group(), m.span(), m.span(1), m.group(1), m.span(2) if m.re.groups >= 2 else None)
            for m in matches]


def _ours(pattern, text):
    out = []
    for m in pattern.finditer(text):
        groups = pattern.pattern.groups - 1
        out.append((m.group(), m.span(), m.span(1), m.group(1), m.span(2) if groups >= 2 else None))
    return out


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("text", TEXTS)
def test_same_matches_as_a_multiline_caret(body, text):
    expected = _seen(re.compile("^" + body, re.M).finditer(text))
    assert _ours(LinePattern(body), text) == expected


@pytest.mark.parametrize("text", [t.encode() for t in TEXTS])
def test_bytes_patterns_too(text):
    body = rb"([A-Z]+)[ \t]*="
    expected = [(m.span(), m.group(1)) for m in re.compile(b"^" + body, re.M).finditer(text)]
    assert [(m.span(), m.group(1)) for m in LinePattern(body).finditer(text)] == expected


def test_search_gives_the_first_match_or_none():
    pattern = LinePattern(r"([A-Z]+) =")
    assert pattern.search("x\nFOO =\nBAR =").span() == (2, 7)
    assert pattern.search("x = FOO =") is None


def test_a_group_that_did_not_take_part_is_none_at_minus_one():
    found = next(LinePattern(r"([A-Z]+)(?: (\d))?").finditer("FOO\n"))
    assert (found.group(2), found.span(2)) == (None, (-1, -1))
