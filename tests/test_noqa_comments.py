"""Only comments are noqa comments: `# noqa` written inside a string literal is text.

It suppresses nothing, AEM002 never reports it (so its safe fix never edits a string), and
`--add-noqa` adds a real comment after the string instead of merging into it.
"""
from __future__ import annotations

from conftest import codes, lint

from errlint.noqa import Suppressions, add_noqa

BAD = 'raise RuntimeError("An unexpected error occurred.'


def test_noqa_text_inside_a_string_suppresses_nothing():
    assert codes(BAD + ' # noqa: AEM101")\n') == ["AEM101"]
    assert codes('raise RuntimeError("""An unexpected error occurred.\n# noqa\n""")\n') == ["AEM101"]
    assert codes("raise RuntimeError(f'An unexpected error occurred. # noqa: AEM1')\n") == ["AEM101"]


def test_a_real_comment_after_a_string_with_noqa_text_is_read():
    code = 'raise RuntimeError("""An unexpected  # noqa: E501\nerror occurred.""")  # noqa: AEM101\n'
    assert codes(code) == []
    code = 'raise RuntimeError("""An unexpected  # noqa: AEM101\nerror occurred.""")  # noqa: E501\n'
    assert codes(code) == ["AEM101"]


def test_a_file_level_comment_inside_a_string_skips_nothing():
    assert codes('HELP = """\n# flake8: noqa\n"""\n' + BAD + '")\n') == ["AEM101"]
    assert codes('HELP = """\n# errlint: noqa\n"""\n' + BAD + '")\n') == ["AEM101"]


def test_unused_noqa_ignores_strings_and_its_fix_leaves_them():
    code = "HELP = \"Add '# noqa: AEM101' to silence a finding.\"\nUSAGE = \"\"\"\n    x = 1  # noqa: AEM102\n\"\"\"\n"
    assert [d for d in lint(code, extend_select=["AEM002"]) if d.code == "AEM002"] == []
    real = code + "y = 2  # noqa: AEM102\n"
    found = [d for d in lint(real, extend_select=["AEM002"]) if d.code == "AEM002"]
    assert [(d.location.row, d.location.column) for d in found] == [(5, 8)]


def test_comments_report_columns_of_the_comment():
    s = Suppressions('a = "# noqa: AEM1"  # noqa: AEM2\nb = 1\n')
    assert s.comments() == [(1, 20, 32, frozenset({"AEM2"}))]


def test_add_noqa_writes_a_comment_after_a_string_with_noqa_text():
    code = 'raise ValueError("Please check your input. # noqa: E501")\n'
    new, changed = add_noqa(code, {1: ["AEM102"]})
    assert (new, changed) == ('raise ValueError("Please check your input. # noqa: E501")  # noqa: AEM102\n', 1)
    merged, changed = add_noqa('raise ValueError("# noqa: X1")  # noqa: E501\n', {1: ["AEM102"]})
    assert (merged, changed) == ('raise ValueError("# noqa: X1")  # noqa: E501, AEM102\n', 1)


def test_a_file_python_cannot_tokenize_is_read_by_lines():
    template = "{% for name in names %}\ndef {{ name }}():\n    pass\n{% endfor %}\n"
    assert codes("# flake8: noqa\n" + template) == []
    assert Suppressions("x = (\n  # noqa\n").codes_for(2) == "ALL"  # unterminated: whole lines


def test_removing_unused_codes_keeps_an_explanation_and_a_following_comment():
    """The fix removes the codes, not what the author wrote beside them: an explanation stays a
    comment, a second comment keeps its spacing, and a code list's trailing comma goes too."""
    from test_fixes import fixed

    code = ("x = 1  # noqa: AEM103\n"
            "y = 2  # noqa:AEM103 kept for the flake8 run\n"
            "z = 3  # noqa: AEM103,E501  # trailing comment\n"
            "w = 4  # noqa: AEM103  # why\n"
            "v = 5  # noqa: AEM103,\n")
    assert fixed(code, extend_select=["AEM002"]) == (
        "x = 1\n"
        "y = 2  # kept for the flake8 run\n"
        "z = 3  # noqa: E501  # trailing comment\n"
        "w = 4  # why\n"
        "v = 5\n")
