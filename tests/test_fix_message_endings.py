"""A fix that appends to a message keeps the message's trailing whitespace last.

A message that ends in a newline, written (`\"\"\"...\\n\"\"\"`) or escaped (`"...\\\\n"`), keeps it at the
end: the appended clause goes before it, and before a final `.` there. An escaped backslash before
`n` is text, not a newline, and the clause goes after it.
"""
from __future__ import annotations

from test_fixes import fixed

GUARD = 'def f(mode):\n    if mode not in ("a", "b"):\n        raise ValueError({})\n'


def _fixed_message(literal: str, select=("AEM204",)) -> str:
    code = GUARD.format(literal)
    out = fixed(code, select=list(select))
    return out[out.index("ValueError(") + len("ValueError("):out.rindex(")")]


def test_a_triple_quoted_message_keeps_its_final_newline():
    assert _fixed_message('"""Unknown mode.\n"""') == '"""Unknown mode; expected one of: a, b.\n"""'


def test_an_escaped_final_newline_stays_last():
    assert _fixed_message('"Unknown mode.\\n"') == '"Unknown mode; expected one of: a, b.\\n"'


def test_trailing_spaces_and_escaped_tabs_stay_last():
    assert _fixed_message('"Unknown mode  "') == '"Unknown mode; expected one of: a, b  "'
    assert _fixed_message("'Unknown mode!\\t\\r\\n'") == "'Unknown mode; expected one of: a, b!\\t\\r\\n'"


def test_an_escaped_backslash_before_n_is_text():
    assert _fixed_message('"Unknown mode in C:\\\\n"') == '"Unknown mode in C:\\\\n; expected one of: a, b"'


def test_the_value_echo_goes_before_the_newline_too():
    """AEM202 turns the literal into an f-string; the echo and the allowed clause share the spot."""
    out = _fixed_message('"""Unknown mode.\n"""', select=("AEM202", "AEM204"))
    assert out == 'f"""Unknown mode (got {mode!r:.80}); expected one of: a, b.\n"""'


def test_a_message_without_trailing_whitespace_is_unchanged_in_shape():
    assert _fixed_message('"Unknown mode."') == '"Unknown mode; expected one of: a, b."'
    assert _fixed_message('"Unknown mode"') == '"Unknown mode; expected one of: a, b"'
