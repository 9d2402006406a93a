"""Findings sit at their sink's line, and `# noqa` / `--add-noqa` work there on every Python.

A message built from a module constant or a variable is reported where it is emitted (the sink),
so that a `# noqa` there silences it and no other message sharing the constant. A multi-line
f-string is one noqa group on Python 3.12+ (where it is tokenized piece by piece) as before 3.12
(one STRING token), and `--add-noqa` never writes a comment inside an f-string's replacement field.
"""
from __future__ import annotations

import ast
import json
import textwrap

import libcst as cst
import pytest
from click.testing import CliRunner

from conftest import at, codes

from errlint.cli import main
from errlint.noqa import Suppressions, add_noqa


def run(args, **kw):
    return CliRunner().invoke(main, args, catch_exceptions=False, **kw)


CONSTANT_PREFIX = '''\
import sys

PREFIX = "app: "


def main():
    sys.exit(f"{PREFIX}failed")


def other():
    sys.exit(f"{PREFIX}something went wrong")
'''


def test_message_starting_with_a_module_constant_is_reported_at_the_sink():
    assert at(CONSTANT_PREFIX) == [(7, "AEM101"), (11, "AEM101")]  # AEM101 names the missing step: one verdict


def test_whole_message_in_a_constant_or_variable_is_reported_at_each_sink():
    code = '''\
    ERR = "Something went wrong"


    def a():
        raise RuntimeError(ERR)


    def b():
        msg = "An unexpected error occurred"
        x = 1
        raise RuntimeError(
            msg
        )
    '''
    assert at(code) == [(5, "AEM101"), (12, "AEM101")]


def test_concatenated_constant_and_literal_across_lines_keeps_the_literal_line():
    code = '''\
    import sys

    PREFIX = "app: "


    def main():
        sys.exit(
            PREFIX
            + "failed"
        )
    '''
    # the literal inside the sink is where the text is written: its line, not the constant's
    assert at(code) == [(9, "AEM101")]


def test_noqa_at_one_sink_does_not_silence_another_sharing_the_constant():
    code = CONSTANT_PREFIX.replace('sys.exit(f"{PREFIX}failed")', 'sys.exit(f"{PREFIX}failed")  # noqa: AEM101, AEM201')
    assert at(code) == [(11, "AEM101")]
    # a noqa on the constant's line silences nothing any more
    assert at(CONSTANT_PREFIX.replace('PREFIX = "app: "', 'PREFIX = "app: "  # noqa')) == at(CONSTANT_PREFIX)


def test_add_noqa_writes_at_each_sink_not_at_the_constant(tmp_project):
    path = tmp_project / "a.py"
    path.write_text(CONSTANT_PREFIX)
    result = run(["--add-noqa", "a.py"])
    assert result.exit_code == 0, result.output
    lines = path.read_text().splitlines()
    assert lines[2] == 'PREFIX = "app: "'
    assert lines[6] == '    sys.exit(f"{PREFIX}failed")  # noqa: AEM101'
    assert lines[10] == '    sys.exit(f"{PREFIX}something went wrong")  # noqa: AEM101'
    assert run(["a.py"]).exit_code == 0


# f-strings whose literal spans lines; the finding is reported on the first line, the noqa written
# after the closing quote. (name, source before the noqa, source after it)
MULTILINE_FSTRINGS = [
    ("triple-quoted, field broken across lines", 'import sys\n\n\ndef main(name):\n    sys.exit(f"""failed {\n        name} now\n    """)', "\n"),
    ("triple-quoted, format spec field across lines", 'import sys\n\n\ndef main(name, w):\n    sys.exit(f"""failed {name:>{\n        w}} now\n    """)', "\n"),
    ("triple-quoted, plain lines", 'import sys\n\n\ndef main(name):\n    sys.exit(f"""failed\n    for {name}""")', "\n"),
]


def test_noqa_after_a_multiline_fstring_covers_its_first_line():
    for label, code, tail in MULTILINE_FSTRINGS:
        assert codes(code + tail) == ["AEM201"], label
        assert codes(code + "  # noqa: AEM201" + tail) == [], label


def test_multiline_fstring_is_one_noqa_group_on_every_python():
    text = 'x = f"""a {\n    y} b\n"""\nz = 1\n'
    groups = Suppressions(text + "# noqa\n")
    assert [groups.group(row) for row in (1, 2, 3, 4)] == [(1, 3), (1, 3), (1, 3), (4, 4)]


PEP701_FIELD = 'import sys\n\n\ndef main(name):\n    sys.exit(f"failed for {\n        name}")\n'


def test_pep701_single_quoted_fstring_across_lines_is_one_group_and_noqa_works():
    # new in Python 3.12; libcst reads it on every Python, so errlint must place and honour noqa alike
    assert Suppressions(PEP701_FIELD).group(5) == (5, 6)
    assert codes(PEP701_FIELD) == ["AEM201"]
    assert codes(PEP701_FIELD.replace('name}")\n', 'name}")  # noqa: AEM201\n')) == []


def _literals(text):
    """Source of every string literal, read by libcst (which knows PEP 701 on every Python)."""
    module = cst.parse_module(text)
    found = []

    class Visit(cst.CSTVisitor):
        def visit_SimpleString(self, node):
            found.append(module.code_for_node(node))

        def visit_FormattedString(self, node):
            found.append(module.code_for_node(node))

    module.visit(Visit())
    return found


def test_add_noqa_never_writes_inside_a_replacement_field():
    cases = [PEP701_FIELD] + [code + tail for _, code, tail in MULTILINE_FSTRINGS]
    cases.append('x = f"""a {f"""\nq""" } b\n"""\n')  # nested triple quotes (3.12+)
    cases.append('def f(name):\n    return f"""{name!r:{\n        10}}\n    text"""\n')
    for text in cases:
        rows = {row: ["AEM201"] for row in range(1, text.count("\n") + 1)}
        new, changed = add_noqa(text, rows)
        assert changed >= 1
        # every comment is outside the literals: each literal reads exactly as before
        assert _literals(new) == _literals(text), (text, new)
        assert new.count("# noqa") == changed


def test_add_noqa_on_pep701_fstring_writes_after_its_last_line(tmp_project):
    path = tmp_project / "a.py"
    path.write_text(PEP701_FIELD)
    assert run(["--add-noqa", "a.py"]).exit_code == 0
    assert path.read_text() == PEP701_FIELD.replace('name}")\n', 'name}")  # noqa: AEM201\n')
    assert run(["a.py"]).exit_code == 0


def test_add_noqa_on_triple_quoted_field_is_valid_python_and_idempotent(tmp_project):
    path = tmp_project / "a.py"
    code = MULTILINE_FSTRINGS[0][1] + "\n"
    path.write_text(code)
    assert run(["--add-noqa", "a.py"]).exit_code == 0
    new = path.read_text()
    assert new == code.replace('    """)\n', '    """)  # noqa: AEM201\n')
    ast.parse(new)
    assert run(["a.py"]).exit_code == 0
    assert run(["--add-noqa", "a.py"]).output.strip().startswith("Added 0 noqa")


def test_plain_text_block_is_unchanged():
    text = textwrap.dedent('''\
        raise RuntimeError(
            "An unexpected error occurred."
        )
    ''')
    new, changed = add_noqa(text, {2: ["AEM101"]})
    assert changed == 1
    assert new.splitlines()[1] == '    "An unexpected error occurred."  # noqa: AEM101'


IMPLICIT_CONCATENATIONS = {
    "three literals": 'import sys\n\n\ndef main(token):\n    sys.exit(\n        f"Unknown reference {token!r}. Only ref:// tokens "\n        "from a search can be expanded, and they are "\n        "forgotten on restart. An unexpected error occurred."\n    )\n',
    "f-string then literal": 'import sys\n\n\ndef main(name):\n    sys.exit(f"An unexpected error occurred for {name}; "\n             "something went wrong")\n',
    "raise with literals": 'def main(name):\n    raise RuntimeError(\n        "An unexpected error "\n        "occurred."\n    )\n',
}


@pytest.mark.parametrize("name", sorted(IMPLICIT_CONCATENATIONS))
def test_add_noqa_on_an_implicit_concatenation_silences_the_finding(name, tmp_project):
    """Adjacent literals are separate tokens, each its own noqa line: the comment goes on the line the
    finding is reported at, where it works, and a second --add-noqa adds nothing."""
    path = tmp_project / "a.py"
    path.write_text(IMPLICIT_CONCATENATIONS[name])
    before = json.loads(run(["--output-format", "json", "--select", "ALL", "a.py"]).output)
    assert before, name
    added = run(["--add-noqa", "--select", "ALL", "a.py"])
    assert added.exit_code == 0, added.output
    lines = path.read_text().splitlines()
    assert {d["noqa_row"] for d in before} == {i + 1 for i, line in enumerate(lines) if "# noqa" in line}
    assert run(["--select", "ALL", "a.py"]).exit_code == 0
    assert "Added 0" in run(["--add-noqa", "--select", "ALL", "a.py"]).output
