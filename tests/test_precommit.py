"""The real pre-commit runs errlint's hook (`pre-commit try-repo` against this checkout)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from errlint.cli import main

ROOT = Path(__file__).resolve().parent.parent
BAD = 'raise RuntimeError("An unexpected error occurred.")\n'
GOOD = 'raise ValueError("size must be one of s, m, l; pass --size s")\n'


def git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs git and a git checkout of errlint")
def test_try_repo_flags_the_bad_file_only(tmp_path):
    pytest.importorskip("pre_commit")
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "migrations").mkdir()
    (tmp_path / "migrations" / "0001_initial.py").write_text(BAD)
    (tmp_path / "pyproject.toml").write_text('[tool.errlint]\nextend-exclude = ["migrations/"]\n')
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / ".pre-commit-home"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "errlint", "--verbose",
         "--files", "bad.py", "good.py", "migrations/0001_initial.py"],
        cwd=tmp_path, capture_output=True, text=True, env=env, timeout=900,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "bad.py:1:20: AEM101" in out
    assert "good.py:" not in out and "migrations/0001_initial.py:" not in out
    assert "Traceback" not in out


def test_force_exclude_with_only_excluded_files_exits_0(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "migrations").mkdir()
    (tmp_path / "migrations" / "0001_initial.py").write_text(BAD)
    (tmp_path / "pyproject.toml").write_text('[tool.errlint]\nextend-exclude = ["migrations/"]\n')
    result = CliRunner().invoke(main, ["check", "--force-exclude", "migrations/0001_initial.py"])
    assert result.exit_code == 0, result.output


def test_results_do_not_depend_on_batching(tmp_path, monkeypatch):
    """pre-commit splits files into batches; the tool registry comes from the whole project."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    tools = "from fastmcp import FastMCP\nmcp = FastMCP('x')\n" + "".join(f"@mcp.tool()\ndef t{i}() -> str:\n    return ''\n" for i in range(3)) + "@mcp.tool()\ndef list_projects() -> list:\n    return []\n"
    (tmp_path / "tools.py").write_text(tools)
    (tmp_path / "handler.py").write_text("from fastmcp.exceptions import ToolError\nraise ToolError('Unknown project. Call list_project to see ids.')\n")
    alone = CliRunner().invoke(main, ["handler.py", "--output-format", "json"]).output
    together = CliRunner().invoke(main, ["handler.py", "tools.py", "--output-format", "json"]).output
    assert '"AEM209"' in alone
    assert [l for l in alone.splitlines() if "handler.py" in l] == [l for l in together.splitlines() if "handler.py" in l]
