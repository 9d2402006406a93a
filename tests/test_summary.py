"""Summary and progress like ruff's: "Found N errors.", the most frequent code's hint, --add-noqa's
and --diff's counts, silence for an empty folder, progress only at a terminal."""
from __future__ import annotations

import io
import subprocess
import sys

import pytest
from click.testing import CliRunner

from errlint.cli import main
from errlint.progress import Progress

GENERIC = 'raise RuntimeError("An unexpected error occurred.")\n'  # AEM101
TO_STDOUT = 'def main():\n    print("Error: config not found; run `tool init`")\n    raise SystemExit(1)\n'  # AEM606, fixable


def separate() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)
    except TypeError:
        return CliRunner()


def run(args):
    return separate().invoke(main, args, catch_exceptions=False)


@pytest.fixture
def proj(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_found_counts_errors_not_files(proj):
    (proj / "bad.py").write_text(GENERIC + GENERIC)
    for n in range(3):
        (proj / f"ok{n}.py").write_text("x = 1\n")
    result = run(["."])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[2:] == ["Found 2 errors.", "Run `errlint rule AEM101` to see why and how to fix it, or add `# noqa: AEM101` to accept one."]


def test_the_hint_names_the_most_frequent_code(proj):
    (proj / "a.py").write_text(GENERIC)
    (proj / "b.py").write_text(TO_STDOUT)
    (proj / "c.py").write_text(TO_STDOUT)
    out = run(["."]).stdout
    assert "AEM606 is the most frequent (2): run `errlint rule AEM606` to see why and how to fix it, or add `# noqa: AEM606` to accept one." in out


def test_add_noqa_says_how_many_and_where(proj):
    (proj / "a.py").write_text(GENERIC + GENERIC)
    (proj / "b.py").write_text(GENERIC)
    (proj / "c.py").write_text("x = 1\n")
    result = run(["--add-noqa", "."])
    assert result.stdout == "a.py: added 2 noqa directives\nb.py: added 1 noqa directive\nAdded 3 noqa directives to 2 files.\n"
    assert run(["--add-noqa", "."]).stdout == "Added 0 noqa directives.\n"


def test_diff_ends_with_a_summary_on_stderr(proj):
    (proj / "b.py").write_text(TO_STDOUT)
    (proj / "c.py").write_text(TO_STDOUT)
    result = run(["--diff", "."])
    assert result.exit_code == 1
    assert result.stdout.startswith("--- a/b.py\n")
    assert result.stderr == "Would fix 2 errors in 2 files.\n"
    (proj / "b.py").write_text("x = 1\n")
    (proj / "c.py").write_text(GENERIC)
    result = run(["--diff", "."])
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == "No errors would be fixed.\n"


def test_an_empty_folder_prints_nothing_on_stdout(proj):
    (proj / "empty").mkdir()
    result = run(["empty"])
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr.startswith("errlint: no Python files to check")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_counts_files_once_the_run_is_slow():
    clock = iter([0.0, 0.5, 1.0, 2.5, 3.0, 3.5])
    stream = Terminal()
    progress = Progress(stream, delay=2.0, clock=lambda: next(clock))
    progress.start(4)
    for _ in range(4):
        progress.advance()
    progress.finish()
    shown = stream.getvalue()
    assert "1/4" not in shown  # the first second: nothing
    assert "errlint: checking" in shown and "2/4" in shown and "4/4" in shown


def test_a_quick_run_shows_no_progress():
    stream = Terminal()
    progress = Progress(stream, delay=2.0, clock=lambda: 0.0)
    progress.start(3)
    for _ in range(3):
        progress.advance()
    progress.finish()
    assert stream.getvalue() == ""


def test_the_cli_reports_progress_at_a_terminal_only(proj, monkeypatch):
    for n in range(3):
        (proj / f"m{n}.py").write_text(GENERIC)
    stream = Terminal()
    monkeypatch.setattr(Progress, "for_terminal", classmethod(lambda cls: cls(stream, delay=0.0)))
    run(["--no-cache", "."])
    assert "3/3" in stream.getvalue()
    stream.truncate(0)
    run(["--no-cache", "-q", "."])
    assert stream.getvalue() == ""


def test_no_progress_when_stderr_is_not_a_terminal(proj):
    for n in range(30):
        (proj / f"m{n}.py").write_text(GENERIC)
    out = subprocess.run([sys.executable, "-m", "errlint", "--no-cache", "."], cwd=str(proj),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    assert out.stderr == b""
    assert out.stdout.decode().endswith("Found 30 errors.\nRun `errlint rule AEM101` to see why and how to fix it, or add `# noqa: AEM101` to accept one.\n")
