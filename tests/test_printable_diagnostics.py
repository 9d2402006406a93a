"""Diagnostics quote message text, which may hold characters a terminal acts on or no UTF-8 writer
accepts: a NUL, a right-to-left override (U+202E), a lone surrogate (`'\\ud800'`, valid Python).
They are written as escapes in every output format; nothing crashes and the exit code is 1."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from errlint.cli import main
from errlint.model import printable

SOURCE = "import sys\n\n\ndef main():\n    sys.exit('Failed {}. try again later')\n\n\nif __name__ == '__main__':\n    main()\n"


@pytest.mark.parametrize("escape, shown", [("\\ud800", "\\ud800"), ("\\x00", "\\x00"), ("\\u202e", "\\u202e"), ("\\x1b[2J", "\\x1b[2J")])
@pytest.mark.parametrize("fmt", ["concise", "full", "json", "sarif", "junit", "github"])
def test_unprintable_message_text_is_escaped(tmp_project, escape, shown, fmt):
    (tmp_project / "a.py").write_text(SOURCE.format(escape), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--preview", "--no-cache", "--output-format", fmt, "a.py"])
    assert result.exit_code == 1, result.output
    if fmt == "json":
        messages = [d["message"] for d in json.loads(result.output)]
        assert any(shown in m for m in messages)
        assert all(m.isprintable() for m in messages)
    elif fmt in ("concise", "full"):
        assert shown in result.output


def test_printable_keeps_text_and_escapes_the_rest():
    assert printable("plain text, é, 漢字") == "plain text, é, 漢字"
    assert printable("a\x00b\u202ec\ud800\td") == "a\\x00b\\u202ec\\ud800\\td"


def test_the_full_format_shows_a_source_line_with_escapes_and_carets_under_them(tmp_project):
    (tmp_project / "a.py").write_text("import sys\nsys.exit('Failed \u202e. try again later')\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "full", "--select", "AEM103", "a.py"])
    lines = result.output.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("2 | "))
    assert lines[row] == "2 | sys.exit('Failed \\u202e. try again later')"
    caret = lines[row + 1]
    assert lines[row][caret.index("^"):caret.rindex("^") + 1] == "'Failed \\u202e. try again later'"  # the whole literal, escape included


def test_a_file_errlint_cannot_parse_is_shown_in_its_declared_encoding(tmp_project):
    (tmp_project / "a.py").write_bytes(b'# -*- coding: latin-1 -*-\nx = "\xe9\xe9" $ 2\n')
    result = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "full", "a.py"])
    assert result.exit_code == 1 and '2 | x = "\u00e9\u00e9" $ 2' in result.output
