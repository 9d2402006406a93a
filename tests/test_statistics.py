"""`--statistics` follows ruff (issue 15 item 2): the counts table for the text formats (concise,
full), a JSON list of {code, name, count, fixable} for `--output-format json`, and exit 2 for the
formats with no statistics form. Real files in a temp folder, through the CLI."""
from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from errlint.cli import main

GENERIC = 'raise RuntimeError("An unexpected error occurred.")\n'
# AEM606 (an error printed to stdout before a failing exit) carries a safe fix
STDOUT = "import sys\nprint('Error: config not found; run `app init` to create one')\nsys.exit(1)\n"


def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.errlint]\nselect = [\"AEM101\", \"AEM606\"]\n")
    (tmp_path / "bad.py").write_text(GENERIC * 3)
    (tmp_path / "cli.py").write_text(STDOUT)


def invoke(*args):
    return CliRunner().invoke(main, ["check", "--no-cache", *args], catch_exceptions=False)


def test_statistics_json_is_a_list_of_code_name_count_fixable(tmp_path, monkeypatch):
    project(tmp_path, monkeypatch)
    result = invoke("--statistics", "--output-format", "json", ".")
    assert result.exit_code == 1
    data = json.loads(result.output)  # the whole stdout is JSON: no table, no summary line
    assert data == [
        {"code": "AEM101", "name": "generic-failure-message", "count": 3, "fixable": False},
        {"code": "AEM606", "name": "cli-error-channel", "count": 1, "fixable": True},
    ]
    assert list(data[0]) == ["code", "name", "count", "fixable"]  # ruff's field order


def test_statistics_json_through_the_environment_and_to_a_file(tmp_path, monkeypatch):
    project(tmp_path, monkeypatch)
    monkeypatch.setenv("ERRLINT_OUTPUT_FORMAT", "json")
    result = invoke("--statistics", "-o", "stats.json", ".")
    assert result.exit_code == 1 and result.output == ""
    assert [(s["code"], s["count"]) for s in json.loads((tmp_path / "stats.json").read_text())] == [("AEM101", 3), ("AEM606", 1)]


def test_statistics_json_with_no_findings_is_an_empty_list(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.py").write_text('raise ValueError("size must be one of s, m, l; pass --size s")\n')
    result = invoke("--statistics", "--output-format", "json", ".")
    assert result.exit_code == 0
    assert json.loads(result.output) == []


def test_statistics_text_table_marks_fixable_codes_like_ruff(tmp_path, monkeypatch):
    project(tmp_path, monkeypatch)
    for fmt in ("concise", "full"):
        result = invoke("--statistics", "--output-format", fmt, ".")
        assert result.exit_code == 1
        lines = result.output.splitlines()
        assert lines[:2] == ["3\tAEM101\t[ ] generic-failure-message", "1\tAEM606\t[*] cli-error-channel"]
        assert "Found 4 errors." in lines


def test_statistics_fixable_follows_unsafe_fixes(tmp_path, monkeypatch):
    """An unsafe fix (AEM202's: append the rejected value) counts as fixable only with --unsafe-fixes,
    as ruff's `fixable` follows the applicability the run would apply."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.py").write_text("def f(size):\n    if size not in ('s', 'm'):\n        raise ValueError('size must be s or m')\n")
    plain = json.loads(invoke("--select", "AEM202", "--statistics", "--output-format", "json", ".").output)
    unsafe = json.loads(invoke("--select", "AEM202", "--statistics", "--output-format", "json", "--unsafe-fixes", ".").output)
    assert [s["code"] for s in plain] == ["AEM202"]
    assert plain[0]["fixable"] is False and unsafe[0]["fixable"] is True


def test_statistics_refuses_formats_without_a_statistics_form(tmp_path, monkeypatch):
    project(tmp_path, monkeypatch)
    for fmt in ("json-lines", "github", "sarif", "junit"):
        result = invoke("--statistics", "--output-format", fmt, ".")
        assert result.exit_code == 2, (fmt, result.output)
        assert result.output == (f"errlint: --statistics prints a table or JSON, not {fmt!r}; "
                                 "pass --output-format concise, full or json with --statistics\n")
        assert not (tmp_path / ".errlint_cache").exists()  # refused before checking anything


def test_statistics_json_in_a_subprocess(tmp_path):
    (tmp_path / "bad.py").write_text(GENERIC)
    run = subprocess.run([sys.executable, "-m", "errlint", "--statistics", "--output-format", "json", "--no-cache", "bad.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    assert json.loads(run.stdout) == [{"code": "AEM101", "name": "generic-failure-message", "count": 1, "fixable": False}]
