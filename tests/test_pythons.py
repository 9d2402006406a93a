"""Every supported Python: `.ci/run` picks the interpreters pyenv has (issue 15, item 9), and errlint
reads syntax newer than the Python running it (PEP 758 `except A, B:`)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest
from click.testing import CliRunner

from conftest import at, lint

from errlint.cli import main

ROOT = Path(__file__).resolve().parent.parent
CI = ROOT / ".ci" / "run"
MINOR = f"{sys.version_info[0]}.{sys.version_info[1]}"


def plan(tmp_path, pyenv_lines=None):
    """Output of `.ci/run` in plan-only mode, with a fake `pyenv` listing `pyenv_lines` (None: no pyenv)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    if pyenv_lines is not None:
        fake = bin_dir / "pyenv"
        fake.write_text("#!/bin/sh\ncat <<'EOF'\n" + "\n".join(pyenv_lines) + "\nEOF\n")
        fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin", "ERRLINT_CI_PLAN_ONLY": "1"}
    env.pop("PYENV_VERSION", None)
    if pyenv_lines is None and any(Path(d, "pyenv").exists() for d in ("/usr/bin", "/bin")):
        pytest.skip("a system-wide pyenv is installed")
    result = subprocess.run(["bash", str(CI)], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_ci_runs_the_newest_patch_of_each_present_python_and_skips_absent_ones_loudly(tmp_path):
    listed = ["system", "* 3.9.18 (set by /root/.pyenv/version)", "3.12.0", "3.12.1", "3.11.7/envs/tools", "3.13.0a1", "3.8.18", "2.7.18"]
    out = plan(tmp_path, listed)
    newest = {"3.9": "3.9.18", "3.12": "3.12.1"}
    expected_runs = [v for m, v in newest.items() if m != MINOR]
    default = subprocess.run([sys.executable, "-c", "import platform; print(platform.python_version())"], capture_output=True, text=True).stdout.strip()
    assert f"=== Plan: python {default} (default), then {' '.join(expected_runs)}\n" in out
    for minor in ("3.10", "3.11", "3.13"):
        if minor != MINOR:
            assert f"!!! SKIPPED: Python {minor} is not installed" in out
    assert "SKIPPED: Python 3.9 " not in out and "SKIPPED: Python 3.12 " not in out


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_ci_without_pyenv_says_so_and_still_runs_the_default_python(tmp_path):
    out = plan(tmp_path, None)
    assert "!!! pyenv is not installed: only the default interpreter" in out
    assert [m for m in ("3.9", "3.10", "3.11", "3.12", "3.13") if f"SKIPPED: Python {m} " in out] == [m for m in ("3.9", "3.10", "3.11", "3.12", "3.13") if m != MINOR]
    assert "(default)\n" in out


def test_ci_runs_the_readme_test_command_verbatim_and_ignores_its_venvs():
    readme_command = "pip install '.[test]' && python -m pytest"
    assert readme_command in (ROOT / "README.md").read_text()
    assert readme_command in CI.read_text()
    ignored = (ROOT / ".gitignore").read_text().split()
    assert {".ci-venv/", ".ci-venvs/", ".ci-logs/"} <= set(ignored)


# ------------------------------------------------------------------ PEP 758 (Python 3.14)

PEP758 = '''\
def f(x):
    try:
        return int(x)
    except ValueError, TypeError:
        raise RuntimeError("An unexpected error occurred")


def g(x):
    try:
        return int(x)
    except* ValueError, TypeError:
        raise RuntimeError("Something went wrong")
'''


def _libcst_reads_pep758() -> bool:
    try:
        handler = cst.parse_module(PEP758).body[0].body.body[0].handlers[0]
    except Exception:
        return False
    return isinstance(handler.type, cst.Tuple) and not handler.type.lpar


@pytest.mark.skipif(not _libcst_reads_pep758(), reason="this libcst's grammar has no PEP 758")
def test_pep758_except_without_brackets_is_read_on_every_python(tmp_project):
    (tmp_project / "new.py").write_text(PEP758)
    result = CliRunner().invoke(main, ["--no-cache", "new.py"], catch_exceptions=False)
    assert [line.split(" ")[:2] for line in result.output.splitlines() if line.startswith("new.py")] == [
        ["new.py:5:28:", "AEM101"], ["new.py:5:28:", "AEM202"], ["new.py:5:28:", "AEM204"],
        ["new.py:12:28:", "AEM101"], ["new.py:12:28:", "AEM202"], ["new.py:12:28:", "AEM204"],
    ]  # `int(x)` in the try is a validating guard on x (issue 14 item 2): the value is owed too
    assert "AEM001" not in result.output


@pytest.mark.skipif(not _libcst_reads_pep758(), reason="this libcst's grammar has no PEP 758")
def test_pep758_handler_types_are_the_caught_exceptions():
    code = textwrap.dedent('''\
    import json


    def load(text):
        try:
            return json.loads(text)
        except json.JSONDecodeError, UnicodeDecodeError:
            raise ValueError("The config is not valid JSON; fix the file and run `app check`.")
    ''')
    # both names are the handler's types: JSONDecodeError makes the try a JSON parse of `text`, and
    # the finding asks for the parser's error, not the document
    found = lint(code)
    assert [(d.location.row, d.code) for d in found] == [(8, "AEM202")]
    assert "where `text` fails to parse as JSON" in found[0].message


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="Python 3.14 reads `except E, e:` as PEP 758")
def test_python2_except_with_a_name_stays_a_syntax_error(tmp_project):
    (tmp_project / "old.py").write_text("try:\n    pass\nexcept Exception, e:\n    raise RuntimeError('Something went wrong')\n")
    result = CliRunner().invoke(main, ["--no-cache", "old.py"], catch_exceptions=False)
    assert result.output.splitlines()[0].split(" ")[1] == "AEM001"
    assert result.exit_code == 1
