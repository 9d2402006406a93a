"""Phrase packs: bundled data ships in the package; user packs are validated up front."""
from __future__ import annotations

import pytest

from errlint.packs import PackError, bundled, bundled_pack_files, check_regex, load


def test_bundled_packs_load_from_the_package():
    names = [n for n, _ in bundled_pack_files()]
    assert "errlint.rules/vague.toml" in names and "errlint.rules/credentials.toml" in names
    packs = bundled()
    assert {"generic-outcome", "imperative", "allowed-values"} <= set(packs.lexicons)
    assert {r.code for r in packs.rules} >= {"AEM102", "AEM103", "AEM501", "AEM502", "AEM503"}


def test_nested_repeats_are_refused():
    with pytest.raises(PackError, match="nests an unbounded repeat"):
        check_regex("(a+)+b", "pack x")
    with pytest.raises(PackError, match="invalid regular expression"):
        check_regex("(unclosed", "pack x")
    assert check_regex("try again(?: later)?", "pack x").search("Please TRY AGAIN later")


def test_user_rule_validation_names_file_entry_and_key():
    bad = b'[[rule]]\ncode = "AEM901"\nname = "no-foo"\ntokens = ["foo"]\ncolour = "red"\n'
    with pytest.raises(PackError, match=r"my.toml: rule #1: unknown key\(s\) \['colour'\]"):
        load([("my.toml", bad)])
    with pytest.raises(PackError, match="code 'X1234'"):
        load([("my.toml", b'[[rule]]\ncode = "X1234"\nname = "n"\ntokens = ["a"]\n')])


def test_user_rule_runs(tmp_path):
    from errlint.api import run_context
    from errlint.engine import check_file

    extra = load(bundled_pack_files() + [("mine.toml", b'[[rule]]\ncode = "AEM901"\nname = "no-kaboom"\ntokens = ["kaboom"]\nprofiles = ["exc"]\nmessage = "say what failed instead of \\"{match}\\""\n')])
    run = run_context(packs=extra, select=["AEM901"])
    found = check_file("x.py", b'raise ValueError("Kaboom while saving")\n', run).diagnostics
    assert [(d.code, d.message) for d in found] == [("AEM901", 'say what failed instead of "Kaboom"')]


def test_unsafe_fix_needs_a_builtin_fixer(tmp_project):
    from click.testing import CliRunner

    from errlint.cli import main

    (tmp_project / "mine.toml").write_text('[[rule]]\ncode = "AEM901"\nname = "no-kaboom"\ntokens = ["kaboom"]\nfix = "unsafe"\n')
    (tmp_project / "pyproject.toml").write_text('[tool.errlint]\npacks = ["mine.toml"]\n')
    (tmp_project / "a.py").write_text('raise ValueError("Kaboom")\n')
    result = CliRunner().invoke(main, ["a.py"])
    assert result.exit_code == 2
    assert 'rule AEM901 says fix = "unsafe" but errlint has no fixer for it (only AEM103); set fix = "display-only"' in result.output
    with pytest.raises(PackError, match="allowed: display-only, unsafe"):
        load([("my.toml", b'[[rule]]\ncode = "AEM901"\nname = "n"\ntokens = ["a"]\nfix = "safe"\n')])


def test_the_packs_come_from_the_checkout_whose_engine_runs(tmp_path):
    # a second checkout on PYTHONPATH (the ecosystem check runs an older commit that way) reads its
    # own rules/, not those of the checkout the environment's editable install points at
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    import errlint

    source = Path(errlint.__file__).resolve().parent.parent
    other = tmp_path / "checkout"
    shutil.copytree(source / "errlint", other / "errlint", ignore=shutil.ignore_patterns("__pycache__"))
    packs = source / "rules" if (source / "rules" / "__init__.py").is_file() else source / "errlint" / "rules"
    shutil.copytree(packs, other / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    vague = other / "rules" / "vague.toml"
    vague.write_text(vague.read_text() + "\n# a marker only this checkout has\n")
    probe = "from errlint.packs import bundled_pack_files; print(dict(bundled_pack_files())['errlint.rules/vague.toml'].decode()[-40:])"
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env={"PYTHONPATH": str(other), "PATH": ""},
                         capture_output=True, text=True, check=True).stdout
    assert "a marker only this checkout has" in out


@pytest.mark.parametrize("toml, key", [
    (b'[lexicon.foo]\ntokens = [1]\n', "tokens must be a list of strings"),
    (b'[lexicon.foo]\nwords = "abc"\n', "words must be a list of strings"),
    (b'lexicon = 5\n', "lexicon must be a table"),
    (b'[[rule]]\ncode = "AEM901"\nname = "n"\ntokens = "abc"\n', "tokens must be a list of strings"),
    (b'[[rule]]\ncode = "AEM901"\nname = "n"\ntokens = ["a"]\nshapes = 5\n', "shapes must be a list of strings"),
    (b'[[rule]]\ncode = "AEM901"\nname = "n"\ntokens = ["a"]\nprofiles = "agent"\n', "profiles must be a list of strings"),
    (b'[[rule]]\ncode = "AEM901"\nname = "n"\nextends = "substitution"\nswap = 5\n', "swap must be a table"),
    (b'[[rule]]\ncode = "AEM901"\nname = "n"\nextends = "substitution"\nswap = { later = 5 }\n', "swap must map each phrase"),
    (b'[[rule]]\ncode = "AEM901"\nname = "n"\ntokens = ["a"]\nexamples = 5\n', "examples must be a table"),
    (b'[[rule]]\ncode = "AEM901"\nname = "n"\ntokens = ["a"]\nmessage = 5\n', "message must be a string"),
    (b'[[rule]]\ncode = "AEM901"\nname = "n"\ntokens = ["a"]\ndefault = "yes"\n', "default must be true or false"),
    (b'rule = 5\n', "rule must be a list of tables"),
    (b'[[credential]]\npattern = "k-[0-9]+"\ninstead = 3\n', "instead must be a string"),
])
def test_a_wrong_type_in_a_pack_names_the_key(toml, key):
    """A pack author's wrong type is a clear error naming the key (exit 2 in the CLI), never a crash
    or a string read one character at a time."""
    with pytest.raises(PackError, match=key):
        load([("my.toml", toml)])


def test_a_wrong_type_in_a_pack_exits_2(tmp_project):
    from click.testing import CliRunner

    from errlint.cli import main

    (tmp_project / "pack.toml").write_text('[lexicon.foo]\ntokens = [1]\n')
    (tmp_project / "pyproject.toml").write_text('[tool.errlint]\npacks = ["./pack.toml"]\n')
    (tmp_project / "a.py").write_text('x = 1\n')
    result = CliRunner().invoke(main, ["check", "a.py"])
    assert result.exit_code == 2 and "tokens must be a list of strings" in result.output
    assert "Traceback" not in result.output
