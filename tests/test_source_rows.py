"""Rows as errlint counts them (line breaks \\n, \\r\\n and \\r only), everywhere a row is shown:
the `full` format's source line and caret, and `noqa_row`, the line where a `# noqa` comment for the
finding has to go (after a multi-line string or a backslash continuation, even in a file that has no
noqa comment yet)."""
from __future__ import annotations

from conftest import PREVIEW, lint

from errlint.output import render

MESSAGE = 'raise ValueError("An error occurred")'


def full(code: str) -> str:
    diagnostics = lint(code, select=["AEM101"], settings=PREVIEW)
    return render("full", diagnostics, sources={"example.py": code})


def test_full_output_shows_the_reported_row_past_other_line_separators():
    for sep in ("\u2028", "\x1c", "\x85", "\x0c"):
        code = f"# a comment with {sep} inside\n\n{MESSAGE}\n"
        assert "3 | " + MESSAGE in full(code), repr(sep)


def test_full_output_caret_keeps_tabs_and_wide_characters():
    code = f"if True:\n\t{MESSAGE}\n"
    caret = [line for line in full(code).splitlines() if "^" in line][0]
    assert caret.startswith("  | \t" + " " * len("raise ValueError(") + "^")
    code = f"x = '表'; {MESSAGE}\n"
    caret = [line for line in full(code).splitlines() if "^" in line][0]
    assert caret.startswith("  | " + " " * (len("x = '") + 2 + len("'; raise ValueError(")) + "^")


def noqa_rows(code: str):
    return [(d.location.row, d.noqa_row) for d in lint(code, select=["AEM101"], settings=PREVIEW)]


def test_noqa_row_is_where_the_comment_can_go():
    assert noqa_rows('raise ValueError("""An error\noccurred\n""")\n') == [(1, 3)]
    assert noqa_rows('raise ValueError("An error occurred") \\\n    from None\n') == [(1, 2)]
    assert noqa_rows('raise ValueError("An error "\n                 "occurred")\n') == [(1, 1)]
    assert noqa_rows(MESSAGE + "\n") == [(1, 1)]


def test_an_implicit_concatenation_is_reported_whole():
    code = 'def load(path):\n    if not path:\n        raise ValueError("Something went wrong. "\n                         "Please check your input.")\n'
    found = lint(code, select=["AEM102"], settings=PREVIEW)
    assert [(d.location.row, d.location.column, d.end_location.row, d.end_location.column) for d in found] == [(3, 26, 4, 52)]
    parenthesised = 'import sys\nsys.exit(\n    "Something went wrong. "  # the first piece\n    "Please check your input."\n)\n'
    found = lint(parenthesised, select=["AEM102"], settings=PREVIEW)
    assert [(d.location.row, d.location.column, d.end_location.row, d.end_location.column) for d in found] == [(3, 5, 4, 31)]
    one_piece = 'raise ValueError("Something went wrong. Please check your input.")\n'
    found = lint(one_piece, select=["AEM102"], settings=PREVIEW)
    assert [(d.location.row, d.location.column, d.end_location.row, d.end_location.column) for d in found] == [(1, 18, 1, 66)]


def _fixed(code: str, select):
    found = [d for d in lint(code, select=list(select), settings=PREVIEW) if d.fix is not None]
    text = code
    for edit in sorted((e for d in found for e in d.fix.edits), key=lambda e: e.start, reverse=True):
        text = text[:edit.start] + edit.content + text[edit.end:]
    return len(found), text


def test_a_fix_on_a_multi_line_call_in_an_indented_block():
    code = ('import sys\n\n\ndef main(argv):\n    if not argv:\n        print(\n            "Error: no input given; run `tool init` first",\n'
            '        )\n        sys.exit(2)\n    if len(argv) > 3:\n        print("Error: too many arguments; run `tool --help` for the usage",\n'
            '              "and pass fewer")\n        sys.exit(2)\n\n\nif __name__ == "__main__":\n    main(sys.argv[1:])\n')
    count, fixed = _fixed(code, ["AEM606"])
    assert count == 2
    assert '            "Error: no input given; run `tool init` first", file=sys.stderr,\n        )\n' in fixed  # the trailing comma stays last
    assert '              "and pass fewer", file=sys.stderr)\n' in fixed
    compile(fixed, "fixed.py", "exec")
