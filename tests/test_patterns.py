"""Path patterns (exclude, extend-exclude, per-file-ignores) follow gitignore semantics, and a folder
the user names is checked even when a .gitignore above it ignores it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from errlint.cli import main

BAD = 'raise RuntimeError("An unexpected error occurred.")\n'


def run(args):
    return CliRunner().invoke(main, args, catch_exceptions=False)


def make(root: Path, names, text: str = BAD) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def checked(args) -> list:
    return run(["--show-files", *args]).output.split()


def reported(args) -> list:
    out = run(["--output-format", "json", *args]).output
    return sorted({d["filename"] for d in json.loads(out)})


@pytest.fixture
def repo(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


TREE = ["scripts/a.py", "scripts/sub/b.py", "src/gen_x.py", "src/gen_api/v2/client.py", "src/app.py",
        "lib/build/keep.py", "build/drop.py", "docs/conf.py", "a/docs/conf.py"]


@pytest.mark.parametrize("pattern, excluded", [
    ("scripts/*.py", ["scripts/a.py"]),                                   # `*` stays in its folder
    ("scripts/**/*.py", ["scripts/a.py", "scripts/sub/b.py"]),            # `**` crosses folders
    ("src/gen_*.py", ["src/gen_x.py"]),                                   # not src/gen_api/v2/client.py
    ("src/gen_*", ["src/gen_api/v2/client.py", "src/gen_x.py"]),          # a matching folder takes its files
    ("/build", ["build/drop.py"]),                                        # a leading slash anchors at the root
    ("build", ["build/drop.py", "lib/build/keep.py"]),                    # no slash: any depth
    ("docs/conf.py", ["docs/conf.py"]),                                   # a middle slash anchors too
    ("conf.py", ["a/docs/conf.py", "docs/conf.py"]),
    ("app.py/", []),                                                      # a trailing slash: folders only
])
def test_exclude_patterns_have_gitignore_semantics(repo, pattern, excluded):
    make(repo, TREE)
    files = checked([".", "--exclude", pattern])
    assert sorted(set(TREE) - set(files)) == sorted(excluded)


def test_exclude_in_config_has_the_same_semantics(repo):
    make(repo, TREE)
    (repo / "pyproject.toml").write_text('[tool.errlint]\nextend-exclude = ["scripts/*.py", "src/gen_*.py"]\n')
    files = checked(["."])
    assert "scripts/sub/b.py" in files and "src/gen_api/v2/client.py" in files
    assert "scripts/a.py" not in files and "src/gen_x.py" not in files


@pytest.mark.parametrize("pattern, silenced", [
    ("scripts/*.py", ["scripts/a.py"]),
    ("scripts/**", ["scripts/a.py", "scripts/sub/b.py"]),
    ("src/gen_*.py", ["src/gen_x.py"]),
    ("gen_*.py", ["src/gen_x.py"]),
    ("src/", ["src/app.py", "src/gen_api/v2/client.py", "src/gen_x.py"]),
    ("!src/**", ["a/docs/conf.py", "build/drop.py", "docs/conf.py", "lib/build/keep.py", "scripts/a.py", "scripts/sub/b.py"]),
])
def test_per_file_ignores_have_gitignore_semantics(repo, pattern, silenced):
    make(repo, TREE)
    (repo / "pyproject.toml").write_text(f'[tool.errlint]\nexclude = []\nextend-per-file-ignores = {{ "{pattern}" = ["AEM101"] }}\n')
    assert reported(["."]) == sorted(set(TREE) - set(silenced))


def test_force_exclude_on_a_file_inside_an_excluded_folder(repo):
    make(repo, ["src/gen_api/v2/client.py", "src/gen_x.py"])
    args = ["--force-exclude", "--extend-exclude", "src/gen_*.py"]
    assert checked([*args, "src/gen_api/v2/client.py", "src/gen_x.py"]) == ["src/gen_api/v2/client.py"]
    assert checked(["--force-exclude", "--extend-exclude", "src/gen_api", "src/gen_api/v2/client.py"]) == []


def test_an_invalid_pattern_is_a_config_error(repo):
    make(repo, ["a.py"])
    (repo / "pyproject.toml").write_text('[tool.errlint]\nextend-exclude = ["", "ok/"]\n')
    result = run(["."])
    assert result.exit_code == 2
    assert "`extend-exclude` in pyproject.toml: '' matches no path" in result.output
    assert run([".", "--isolated", "--extend-exclude", "!"]).exit_code == 2


def test_a_named_folder_inside_a_gitignored_folder_is_checked(repo):
    (repo / ".gitignore").write_text(".venv/\n*.generated.py\nlib\n")
    site = ".venv/lib/python3.11/site-packages/pkg"
    make(repo, [f"{site}/mod.py", f"{site}/out.generated.py", f"{site}/sub/deep.py"])
    assert checked([site]) == [f"{site}/mod.py", f"{site}/sub/deep.py"]
    assert run([site]).exit_code == 1
    # what is found below still follows the .gitignore files: the named folder's own, and the repo's
    (repo / site / ".gitignore").write_text("sub/\n")
    assert checked([site]) == [f"{site}/mod.py"]
    assert checked(["."]) == []  # from the top, the ignored folder is skipped as before


def test_a_named_folder_under_an_ignored_tool_folder_of_a_parent_repo(repo, monkeypatch):
    (repo / ".gitignore").write_text("/tools/\n")
    make(repo, ["tools/python/lib/python3.12/json/decoder.py"])
    monkeypatch.chdir(repo / "tools")
    assert checked(["python/lib"]) == ["python/lib/python3.12/json/decoder.py"]


def test_vendored_code_is_excluded_by_default_and_checked_when_named(repo):
    make(repo, ["app/views.py", "app/vendor/six.py", "app/_vendor/attr.py", "pkg/vendored/pint/reg.py",
                "pkg/_vendored/x.py", "vendoring/tool.py"])
    assert checked(["."]) == ["app/views.py", "vendoring/tool.py"]  # a similar name is not vendored code
    assert checked(["pkg/vendored"]) == ["pkg/vendored/pint/reg.py"]  # a folder the user names is checked
    assert checked(["--exclude", "build", "."]) == sorted(  # replacing the default drops it
        ["app/views.py", "app/vendor/six.py", "app/_vendor/attr.py", "pkg/vendored/pint/reg.py", "pkg/_vendored/x.py", "vendoring/tool.py"])


def test_a_single_file_library_copied_into_a_package_is_skipped_and_checked_when_named(repo):
    copied = '"""Bottle is a fast and simple micro-framework."""\n__author__ = "Marcel Hellkamp"\n__version__ = "0.12.25"\n' + BAD
    make(repo, ["pkg/__init__.py", "pkg/views.py"])
    make(repo, ["pkg/__init__.py"], '__author__ = "Us"\n__version__ = "1.0"\n' + BAD)  # the package's own metadata
    make(repo, ["pkg/_version.py"], '__author__ = "Us"\n__version__ = "1.0"\n')
    make(repo, ["pkg/bottle_wrapper/__init__.py"], "from .bottle import *\n")
    make(repo, ["pkg/bottle_wrapper/bottle.py", "pkg/six.py"], copied)
    make(repo, ["pkg/versioned.py"], '__version__ = "2"\n' + BAD)  # a version alone is not a copy's header
    make(repo, ["tool.py"], copied)  # a module at the top, in no package, is the project itself
    assert checked(["."]) == ["pkg/__init__.py", "pkg/_version.py", "pkg/bottle_wrapper/__init__.py", "pkg/versioned.py", "pkg/views.py", "tool.py"]
    assert checked(["pkg/six.py"]) == ["pkg/six.py"]  # a file the user names is checked
    assert reported(["pkg/bottle_wrapper"]) == []  # a folder walked skips the copy in it
    assert reported(["pkg/bottle_wrapper/bottle.py"]) == ["pkg/bottle_wrapper/bottle.py"]
