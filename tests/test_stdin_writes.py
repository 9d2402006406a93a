"""Nothing is written that the user did not ask for: piped input with --add-noqa or --fix never
touches the file named by --stdin-filename; stdout carries only the source; --fix with --add-noqa
applies the fixes first."""
from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from errlint.cli import main

# One safe fix (AEM606: the error goes to stderr) and one finding without a fix (AEM101).
SOURCE = (
    'def main():\n'
    '    print("Error: config not found; run `tool init`")\n'
    '    raise SystemExit(1)\n'
    '\n'
    'def other():\n'
    '    raise RuntimeError("Something went wrong.")\n'
)
FIXED = 'import sys\n' + SOURCE.replace('`tool init`")', '`tool init`", file=sys.stderr)')
ON_DISK = 'raise ValueError("the file on disk, which must stay as it is")\n'


def errlint(args, stdin: str, cwd) -> subprocess.CompletedProcess:
    """errlint in a subprocess, so stdout and stderr are the real, separate streams."""
    return subprocess.run([sys.executable, "-m", "errlint", *args], input=stdin.encode(), cwd=str(cwd),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


def test_add_noqa_on_stdin_prints_the_annotated_source_and_leaves_the_named_file(tmp_path):
    target = tmp_path / "app.py"
    target.write_text(ON_DISK)
    out = errlint(["-", "--stdin-filename", "app.py", "--add-noqa"], SOURCE, tmp_path)
    assert target.read_text() == ON_DISK
    assert out.returncode == 0
    assert out.stdout.decode() == SOURCE.replace(
        '`tool init`")', '`tool init`")  # noqa: AEM606').replace('wrong.")', 'wrong.")  # noqa: AEM101')
    assert out.stderr.decode() == "Added 2 noqa directives.\n"


def test_add_noqa_on_stdin_with_nothing_to_add_prints_the_input_unchanged(tmp_path):
    target = tmp_path / "clean.py"
    target.write_text(ON_DISK)
    text = "x = 1\r\ny = 2\r\n"  # no sink at all, CRLF kept byte for byte
    out = errlint(["-", "--stdin-filename", "clean.py", "--add-noqa"], text, tmp_path)
    assert out.stdout == text.encode()
    assert target.read_text() == ON_DISK


def test_fix_on_stdin_prints_exactly_the_fixed_source(tmp_path):
    target = tmp_path / "app.py"
    target.write_text(ON_DISK)
    out = errlint(["-", "--stdin-filename", "app.py", "--fix"], SOURCE, tmp_path)
    assert out.stdout.decode() == FIXED
    err = out.stderr.decode()
    assert err.startswith('app.py:7:24: AEM101 generic message "Something went wrong."')
    assert "Found 2 errors (1 fixed, 1 remaining)." in err
    assert "AEM000" not in err
    assert out.returncode == 1  # a finding remains
    assert target.read_text() == ON_DISK


def test_fix_on_stdin_without_a_sink_echoes_the_input(tmp_path):
    # a file errlint skips (no sink) must come back whole: an editor replaces its buffer with stdout
    text = "import os\n\nSEP = os.sep\n"
    out = errlint(["-", "--fix"], text, tmp_path)
    assert out.stdout.decode() == text
    assert out.returncode == 0


def test_fix_only_on_stdin_keeps_stdout_for_the_source(tmp_path):
    out = errlint(["-", "--fix-only"], SOURCE, tmp_path)
    assert out.stdout.decode() == FIXED
    assert out.stderr.decode() == "Fixed 1 error in 1 file.\n"


def test_fix_with_add_noqa_fixes_first_then_marks_what_remains(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "app.py"
    path.write_text(SOURCE)
    result = CliRunner().invoke(main, ["app.py", "--fix", "--add-noqa"], catch_exceptions=False)
    assert result.exit_code == 0
    assert path.read_text() == FIXED.replace('wrong.")', 'wrong.")  # noqa: AEM101')
    assert result.output == "Fixed 1 error in 1 file.\napp.py: added 1 noqa directive\nAdded 1 noqa directive to 1 file.\n"
    assert CliRunner().invoke(main, ["app.py"]).exit_code == 0


def test_fix_with_add_noqa_on_stdin(tmp_path):
    out = errlint(["-", "--stdin-filename", "app.py", "--fix", "--add-noqa"], SOURCE, tmp_path)
    assert out.stdout.decode() == FIXED.replace('wrong.")', 'wrong.")  # noqa: AEM101')
    assert not (tmp_path / "app.py").exists()


def test_diff_with_add_noqa_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "app.py"
    path.write_text(SOURCE)
    result = CliRunner().invoke(main, ["app.py", "--diff", "--add-noqa"])
    assert result.exit_code == 2
    assert "--add-noqa writes files and --diff writes nothing" in result.output
    assert path.read_text() == SOURCE
