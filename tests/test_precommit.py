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


# ---------------------------------------------------------------------- the README's snippet (issue 15 item 1)

README = (ROOT / "README.md").read_text(encoding="utf-8")
PLACEHOLDER = "COMMIT-SHA"


def readme_snippet() -> str:
    """The `.pre-commit-config.yaml` block of the README's pre-commit section."""
    section = README[README.index("**pre-commit**"):]
    start = section.index("```yaml\n") + len("```yaml\n")
    return section[start:section.index("```", start)]


def git_out(cwd, *args) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True).stdout.strip()


def test_readme_snippet_hook_ids_are_the_repositorys_hooks():
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load(readme_snippet())
    hooks = {h["id"] for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    used = [h["id"] for repo in config["repos"] for h in repo["hooks"]]
    assert used and set(used) <= hooks, (used, hooks)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs git and a git checkout of errlint")
def test_readme_snippet_rev_exists_or_is_the_documented_placeholder():
    """`rev: v0.1.0` named a tag this repository does not have; pre-commit then fails to clone it."""
    yaml = pytest.importorskip("yaml")
    rev = str(yaml.safe_load(readme_snippet())["repos"][0]["rev"])
    if rev == PLACEHOLDER:
        assert "pre-commit autoupdate --freeze" in README  # the step that fills it in
    else:
        assert git_out(ROOT, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"), f"rev {rev!r} is not a tag or commit of this repository"


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs git and a git checkout of errlint")
def test_readme_snippet_then_autoupdate_freeze_pins_a_commit(tmp_path):
    """Follow the README: paste the snippet (pointed at this checkout), run the command it names."""
    pytest.importorskip("pre_commit")
    yaml = pytest.importorskip("yaml")
    assert "pre-commit autoupdate --freeze" in README
    snippet = readme_snippet()
    url = yaml.safe_load(snippet)["repos"][0]["repo"]
    (tmp_path / ".pre-commit-config.yaml").write_text(snippet.replace(url, str(ROOT)))
    git(tmp_path, "init", "-q")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / ".pre-commit-home")}
    run = subprocess.run([sys.executable, "-m", "pre_commit", "autoupdate", "--freeze"], cwd=tmp_path,
                         capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    config = yaml.safe_load((tmp_path / ".pre-commit-config.yaml").read_text())
    rev = str(config["repos"][0]["rev"])
    assert len(rev) == 40 and all(c in "0123456789abcdef" for c in rev), rev
    if not git_out(ROOT, "tag", "--list"):
        assert rev == git_out(ROOT, "rev-parse", "HEAD")  # no tag: the newest commit
    assert [h["id"] for h in config["repos"][0]["hooks"]] == ["errlint"]
    check = subprocess.run([sys.executable, "-m", "pre_commit", "validate-config", ".pre-commit-config.yaml"],
                           cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
