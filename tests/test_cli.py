"""The command line: golden output, exit codes, selection, stdin, config errors (click's CliRunner)."""
from __future__ import annotations

import json
import re
import textwrap

from click.testing import CliRunner

from errlint.cli import main

BAD = 'raise RuntimeError("An unexpected error occurred.")\n'
GOOD = 'raise ValueError("size must be one of s, m, l; pass --size s")\n'


def run(args, **kw):
    return CliRunner().invoke(main, args, catch_exceptions=False, **kw)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_concise_output_and_exit_1(tmp_project):
    write(tmp_project, "bad.py", BAD)
    result = run(["bad.py"])
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert first == 'bad.py:1:20: AEM101 generic message "An unexpected error occurred." names no input, value or next step'
    assert "Found 1 error.\n" in result.output
    assert "errlint rule AEM101" in result.output


def test_check_subcommand_is_the_default(tmp_project):
    write(tmp_project, "bad.py", BAD)
    assert run(["check", "bad.py"]).output == run(["bad.py"]).output


def test_clean_file_exits_0(tmp_project):
    write(tmp_project, "good.py", GOOD)
    result = run(["good.py"])
    assert result.exit_code == 0
    assert "All checks passed!" in result.output


def test_json_fields_follow_ruff(tmp_project):
    write(tmp_project, "bad.py", BAD)
    result = run(["bad.py", "--output-format", "json"])
    data = json.loads(result.output)
    assert len(data) == 1
    item = data[0]
    assert set(item) >= {"code", "name", "message", "filename", "location", "end_location", "fix", "url", "level", "suggestion", "noqa_row"}
    assert item["location"] == {"row": 1, "column": 20}
    assert item["end_location"] == {"row": 1, "column": 51}
    assert item["code"] == "AEM101" and item["name"] == "generic-failure-message"
    assert item["fix"] is None and item["suggestion"]


def test_exit_zero_and_statistics(tmp_project):
    write(tmp_project, "bad.py", BAD + BAD)
    assert run(["bad.py", "--exit-zero"]).exit_code == 0
    stats = run(["bad.py", "--statistics"])
    assert stats.output.splitlines()[0] == "2\tAEM101\tgeneric-failure-message"


def test_select_ignore_by_code_prefix_and_name(tmp_project):
    write(tmp_project, "bad.py", BAD)
    assert run(["bad.py", "--ignore", "AEM1"]).exit_code == 0
    assert run(["bad.py", "--ignore", "generic-failure-message"]).exit_code == 0
    assert run(["bad.py", "--select", "AEM3"]).exit_code == 0
    assert run(["bad.py", "--select", "AEM3", "--extend-select", "AEM101"]).exit_code == 1


def test_unknown_selector_exits_2_with_next_step(tmp_project):
    write(tmp_project, "bad.py", BAD)
    result = run(["bad.py", "--select", "AEM999"])
    assert result.exit_code == 2
    assert "'AEM999'" in result.output and "errlint rule --all" in result.output


def test_missing_path_exits_2_and_names_it(tmp_project):
    result = run(["nope.py"])
    assert result.exit_code == 2
    assert "'nope.py' does not exist" in result.output


def test_stdin_with_filename(tmp_project):
    result = run(["-", "--stdin-filename", "src/app.py"], input=BAD)
    assert result.exit_code == 1
    assert result.output.startswith("src/app.py:1:20: AEM101")


def test_noqa_suppresses(tmp_project):
    write(tmp_project, "bad.py", BAD.rstrip("\n") + "  # noqa: AEM101\n")
    assert run(["bad.py"]).exit_code == 0
    assert run(["bad.py", "--ignore-noqa"]).exit_code == 1


def test_config_is_read_and_validated(tmp_project):
    write(tmp_project, "bad.py", BAD)
    write(tmp_project, "pyproject.toml", '[tool.errlint]\nignore = ["AEM101"]\n')
    assert run(["bad.py"]).exit_code == 0
    write(tmp_project, "pyproject.toml", '[tool.errlint]\nmax-message-token = 5\n')
    result = run(["bad.py"])
    assert result.exit_code == 2
    assert "unknown key 'max-message-token'" in result.output and "errlint --show-settings" in result.output
    write(tmp_project, "pyproject.toml", '[tool.errlint]\nmax-message-tokens = "many"\n')
    result = run(["bad.py"])
    assert result.exit_code == 2 and "a positive integer" in result.output


def test_show_settings_explains_rules(tmp_project):
    write(tmp_project, "pyproject.toml", '[tool.errlint]\nextend-select = ["AEM104"]\nignore = ["AEM203"]\n')
    result = run(["--show-settings", "."])
    assert result.exit_code == 0
    assert "AEM104 on   selected by extend-select 'AEM104'" in result.output
    assert "AEM203 off  ignored by 'AEM203'" in result.output
    assert "AEM105 off  off by default (opt-in)" in result.output


def test_gitignore_and_excludes(tmp_project):
    write(tmp_project, ".gitignore", "ignored.py\n")
    (tmp_project / ".git").mkdir()
    write(tmp_project, "ignored.py", BAD)
    (tmp_project / "build").mkdir()
    write(tmp_project, "build/gen.py", BAD)
    (tmp_project / "pkg").mkdir()
    write(tmp_project, "pkg/mod.py", BAD)
    files = run(["--show-files", "."]).output.split()
    assert files == ["pkg/mod.py"]
    assert run(["ignored.py"]).exit_code == 1
    assert run(["ignored.py", "--force-exclude"]).exit_code == 0
    assert run([".", "--extend-exclude", "pkg"]).exit_code == 0


def test_syntax_error_is_reported_and_other_files_still_checked(tmp_project):
    write(tmp_project, "broken.py", "def f(:\n    pass\n")
    write(tmp_project, "ok.py", 'raise ValueError("Bad.")\n')
    result = run(["broken.py", "ok.py"])
    assert result.exit_code == 1
    assert result.output.startswith("broken.py:1:7: AEM001")
    assert "ok.py:1:" in result.output


def test_no_python_files_is_a_note_not_a_pass(tmp_project):
    (tmp_project / "x.py").mkdir()
    result = run(["x.py"])
    assert result.exit_code == 0
    assert "no Python files to check under the given paths; pass .py/.pyi files or a directory that contains them" in result.output
    assert "All checks passed" not in result.output


def test_summary_when_only_unsafe_fixes_exist(tmp_project):
    write(tmp_project, "a.py", """
        def f(limit):
            if limit not in (10, 20):
                raise ValueError(f"Bad limit {limit!r}")
    """)
    result = run(["--select", "AEM204", "a.py"])
    assert "No fixes available with `--fix` (1 hidden fix can be enabled with `--unsafe-fixes`)." in result.output


def test_python2_syntax_message_reads_cleanly(tmp_project):
    write(tmp_project, "old.py", "print 'hello'\n")
    result = run(["old.py"])
    # Python 3.9 says "Did you mean print('hello')?", 3.10+ "Did you mean print(...)?"
    assert re.search(r"Did you mean print\(.*\)\? errlint skipped this file", result.output), result.output
