"""The wheel ships every subpackage and the phrase packs, and works from outside the checkout."""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "errlint").rglob("__init__.py")}
    assert found | {"errlint.rules"} == listed


def test_wheel_contains_packs_and_runs_outside_the_repo(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    wheel = next(tmp_path.glob("errlint-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "errlint/rules/vague.toml" in names and "errlint/rules/credentials.toml" in names
    assert "errlint/probe/command.py" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "bad.py").write_text('raise RuntimeError("An unexpected error occurred.")\n')
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run([sys.executable, "-m", "errlint", "check", "--no-cache", "bad.py"], cwd=elsewhere, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    assert "bad.py:1:20: AEM101" in run.stdout
    where = subprocess.run([sys.executable, "-c", "import errlint; print(errlint.__file__)"], cwd=elsewhere, env=env,
                           capture_output=True, text=True)
    assert where.stdout.startswith(str(site))
