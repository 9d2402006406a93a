"""The behaviour tied to code prefixes comes from one table, `errlint.families` (issue 14, shape of
the code): its real values, and each place that used to hard-code them reading it."""
from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from conftest import lint

from errlint.families import FAMILIES, PREFIX, family_of, prefixes, whole_file_code

ERRLINT = Path(__file__).resolve().parent.parent / "errlint"


def test_the_table_holds_these_families():
    rows = [(f.prefix, f.name, f.own, f.prose, f.leak, f.ignored_in_tests, f.whole_file_codes) for f in FAMILIES]
    assert PREFIX == "AEM"
    assert rows == [
        ("AEM0", "errlint", True, False, False, False, ("AEM000", "AEM001")),
        ("AEM1", "vague", False, True, False, True, ()),
        ("AEM2", "parts", False, True, False, True, ()),
        ("AEM3", "leak", False, True, True, False, ()),
        ("AEM4", "size", False, True, False, False, ()),
        ("AEM5", "guidance", False, True, False, False, ()),
        ("AEM6", "channel", False, False, False, False, ()),
    ]
    assert prefixes("prose") == ("AEM1", "AEM2", "AEM3", "AEM4", "AEM5")
    assert prefixes("ignored_in_tests") == ("AEM1", "AEM2")
    assert prefixes("leak") == ("AEM3",)


def test_a_code_is_in_the_family_of_its_hundreds_digit():
    assert family_of("AEM301").name == "leak"
    assert family_of("AEM101").name == "vague"
    assert family_of("AEM607").name == "channel"
    assert family_of("AEM002").own
    assert family_of("AEM901") is None  # no such family
    assert family_of("AE") is None  # a short pack code has no hundreds digit
    assert whole_file_code("AEM000") and whole_file_code("AEM001")
    assert not whole_file_code("AEM002") and not whole_file_code("AEM101")


def test_each_place_reads_the_table():
    from errlint.api import PROSE_FAMILIES
    from errlint.checks.verdict import family
    from errlint.config import DEFAULT_PER_FILE_IGNORES
    from errlint.probe.report import LEAK_PREFIXES, PROSE_PREFIXES

    assert PROSE_FAMILIES == PROSE_PREFIXES == prefixes("prose")
    assert LEAK_PREFIXES == ("AEM3",)
    assert {codes for _, codes in DEFAULT_PER_FILE_IGNORES} == {("AEM1", "AEM2")}
    assert ("tests/**", ("AEM1", "AEM2")) in DEFAULT_PER_FILE_IGNORES
    # the one-verdict cap: a family name, the 2xx family split by part, errlint's own codes alone
    assert [family(c) for c in ("AEM301", "AEM302", "AEM401", "AEM201", "AEM202", "AEM204", "AEM001", "AEM901")] == [
        "leak", "leak", "size", "next-step", "value", "allowed", "AEM001", "AEM901"]


def test_test_files_skip_the_families_the_table_marks():
    bad = ('def f(x):\n    if x < 0:\n        raise ValueError("Invalid input")\n'
           "def g(path):\n    if not path.endswith('.md'):\n        raise ValueError('Only Markdown files; pass a .md path.')\n")
    assert {d.code[:4] for d in lint(bad, path="pkg/core.py")} >= {"AEM1", "AEM2"}
    for name in ("tests/test_core.py", "test_core.py", "core_test.py", "conftest.py"):
        assert [d.code for d in lint(bad, path=name) if d.code.startswith(prefixes("ignored_in_tests"))] == [], name


def test_no_module_hard_codes_a_family_prefix():
    """A string literal that is a bare family prefix ("AEM3") or the code prefix ("AEM") belongs in
    `errlint/families.py`; so does indexing a code's hundreds digit."""
    found = []
    for path in sorted(ERRLINT.rglob("*.py")):
        if path.name == "families.py":
            continue
        text = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING and re.fullmatch(r"[rRbBuU]?(['\"])AEM\d?\1", token.string):
                found.append(f"{path.relative_to(ERRLINT)}:{token.start[0]}: {token.string}")
        for row, line in enumerate(text.splitlines(), 1):
            if re.search(r"\bcode\[3\]|\bcode\[3:4\]", line):
                found.append(f"{path.relative_to(ERRLINT)}:{row}: {line.strip()}")
    assert found == []
