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
