"""flake8's noqa semantics."""
from __future__ import annotations

from conftest import codes

from errlint.noqa import Suppressions

BAD = 'raise RuntimeError("An unexpected error occurred.")'


def test_bare_and_coded_noqa():
    assert codes(BAD + "  # noqa\n") == []
    assert codes(BAD + "  # noqa: AEM101\n") == []
    assert codes(BAD + "  # NOQA:AEM101,AEM201\n") == []
    assert codes(BAD + "  # noqa: AEM1\n") == []  # prefixes, as flake8's startswith
    assert codes(BAD + "  # noqa: AEM301\n") == ["AEM101"]


def test_multiline_string_token_shares_one_group():
    code = 'raise RuntimeError("""An unexpected\nerror occurred.""")  # noqa: AEM101\n'
    assert codes(code) == []


def test_closing_bracket_line_does_not_cover_inner_lines():
    code = 'raise RuntimeError(\n    "An unexpected error occurred."\n)  # noqa: AEM101\n'
    assert codes(code) == ["AEM101"]


def test_file_level_comments():
    assert codes("# flake8: noqa\n" + BAD + "\n") == []
    assert codes("# errlint: noqa\n" + BAD + "\n") == []
    assert codes("# errlint: noqa: AEM1\n" + BAD + "\n") == []
    assert codes("# errlint: noqa: AEM3\n" + BAD + "\n") == ["AEM101"]
    assert codes("x = 1  # flake8: noqa\n" + BAD + "\n") == ["AEM101"]  # not at line start: flake8 ignores it


def test_groups_follow_tokenize():
    s = Suppressions('x = """a\nb\nc"""  # noqa\ny = (1,\n     2)\n')
    assert s.group(1) == (1, 3) and s.group(3) == (1, 3)
    assert s.group(4) == (4, 4) and s.group(5) == (5, 5)


def test_rows_are_counted_like_flake8_not_str_splitlines():
    """A form feed or U+2028 must not shift rows (str.splitlines splits at both)."""
    assert codes('import sys\n\f\nsys.exit("Please try again later.")  # noqa: AEM103\n') == ["AEM201"]
    assert Suppressions('a = "x\u2028y"\nb = 1  # noqa\n').group(2) == (2, 2)
    assert Suppressions('a = "x\u2028y"\nb = 1  # noqa\n').codes_for(2) == "ALL"


def test_file_level_noqa_covers_files_errlint_cannot_parse():
    """flake8 skips a `# flake8: noqa` file before it tokenizes it: a Jinja template named `.py`
    gets no syntax error; `# errlint: noqa: AEM001` does the same for errlint alone."""
    template = "{% for name in names %}\ndef {{ name }}():\n    pass\n{% endfor %}\n"
    assert codes(template) == ["AEM001"]
    assert codes("# flake8: noqa\n" + template) == []
    assert codes("#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n# flake8: noqa\n" + template) == []
    assert codes("# errlint: noqa: AEM001\n" + template) == []
    assert codes("# errlint: noqa: AEM0\n" + template) == []  # a prefix, as for any code
    assert codes("# errlint: noqa: AEM3\n" + template) == ["AEM001"]
    assert codes("x = 1  # flake8: noqa\n" + template) == ["AEM001"]  # not at line start
