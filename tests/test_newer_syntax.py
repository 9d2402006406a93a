"""A file in a newer Python's grammar that libcst parses is checked, not reported as AEM001.

CPython 3.11 rejects PEP 701 f-strings (a backslash, a comment or the same quotes inside a
replacement field) and reports the error near the f-string rather than on it. On 3.12+ these files
compile; either way errlint must check them and report their messages.
"""
from __future__ import annotations

import pytest

from errlint.engine import check_file
from errlint.api import run_context

SHAPES = {
    "backslash in a call's argument, error reported at the closing parenthesis": (
        "import logging\nlogger = logging.getLogger(__name__)\n\ndef warn(errors):\n"
        "    logger.warning(\n"
        "        f\"Disabled:\\n    {'\\n    '.join(errors)}.\"\n"
        "    )\n"
        "    raise ValueError('Something went wrong')\n"
    ),
    "same quotes nested": (
        "def f(row):\n    msg = f\"{row[\"name\"]} bad\"\n    raise ValueError('Something went wrong')\n"
    ),
    "multi-line replacement field with a comment": (
        "def f(x):\n    s = f'''{\n        x  # the value\n    }'''\n    raise ValueError('Something went wrong')\n"
    ),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_newer_fstring_files_are_checked(name):
    result = check_file("newer.py", SHAPES[name].encode(), run_context(select=["AEM001", "AEM101"]))
    codes = [d.code for d in result.diagnostics]
    assert "AEM001" not in codes
    assert codes.count("AEM101") == 1


def test_a_real_syntax_error_near_an_fstring_is_still_reported():
    source = "def f(x):\n    s = f'{x}'\n    return (\n"
    result = check_file("broken.py", source.encode(), run_context(select=["AEM001"]))
    assert [d.code for d in result.diagnostics] == ["AEM001"]
