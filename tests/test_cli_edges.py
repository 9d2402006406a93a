"""The command line's contract at its edges, from a breaker's hunt (each a kind, with inputs of my own):

- a path pattern the pattern library refuses is a config error naming it (exit 2), not a
  traceback; a `.gitignore` line git accepts but the library refuses is skipped, as git skips it;
- a cache entry that is valid JSON but not what this build writes is a miss, never a crash;
- `clean` with a path that does not exist removes nothing (exit 2);
- `--show-settings` shows the settings in effect: the command line's selectors and cache flags;
- `--extend-exclude` adds to the config's patterns; `--force-exclude` applies to `--stdin-filename`;
- misleading texts: "use a positive integer", a `--config` that is no regular file, `-` with other
  paths, `errlint rule AEM000`;
- flake8's `--errlint-max-message-tokens` refuses 0 and negatives, as the config does.
"""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from errlint.cli import main

BAD = 'def f(mode):\n    if mode not in ("a", "b"):\n        raise ValueError("Something went wrong")\n'


def run(args, **kw):
    return CliRunner().invoke(main, args, catch_exceptions=False, **kw)


@pytest.mark.parametrize("where", [
    '[tool.errlint]\nextend-exclude = ["[z-a]"]\n',
    '[tool.errlint]\nexclude = ["a[b"]\n',
    '[tool.errlint.per-file-ignores]\n"[z-a]" = ["AEM101"]\n',
])
def test_a_bad_pattern_in_config_is_a_config_error(tmp_project, where):
    (tmp_project / "pyproject.toml").write_text(where)
    (tmp_project / "a.py").write_text(BAD)
    result = run(["a.py"])
    assert result.exit_code == 2 and "not a valid gitignore-style pattern" in result.output and "Traceback" not in result.output


def test_a_bad_pattern_on_the_command_line_and_in_gitignore(tmp_project):
    (tmp_project / "pyproject.toml").write_text("")
    (tmp_project / "a.py").write_text(BAD)
    result = run(["--extend-exclude", "[z-a]", "a.py"])
    assert result.exit_code == 2 and "--extend-exclude: '[z-a]' is not a valid gitignore-style pattern" in result.output
    (tmp_project / ".git").mkdir()
    (tmp_project / ".gitignore").write_text("[z-a]\nx\\\ngen/\n")
    (tmp_project / "gen").mkdir()
    (tmp_project / "gen" / "b.py").write_text(BAD)
    result = run(["--output-format", "json", "."])
    assert result.exit_code == 1 and {d["filename"] for d in json.loads(result.output)} == {"a.py"}


def _cached_run(project) -> str:
    """A project with one file, checked once without the cache and once with it: the cold output."""
    (project / "pyproject.toml").write_text("")
    (project / "a.py").write_text(BAD)
    cold = run(["--no-cache", "--output-format", "json", "a.py"]).output
    run(["--output-format", "json", "a.py"])
    return cold


@pytest.mark.parametrize("damage", [
    lambda e: e.update(location="abc"),
    lambda e: e.update(location=[1]),
    lambda e: e.update(code=5),
    lambda e: e.clear() or e.update(x=1),
])
def test_a_cache_entry_of_the_wrong_shape_is_a_miss(tmp_project, damage):
    cold = _cached_run(tmp_project)
    for path in (tmp_project / ".errlint_cache").rglob("*.json"):
        data = json.loads(path.read_text())
        for entry in data.values() if isinstance(data, dict) else ():
            for diagnostic in entry.get("diagnostics", []) if isinstance(entry, dict) else ():
                damage(diagnostic)
            if isinstance(entry, dict) and "results" in data:
                break
        if "results" in data:
            for _, entry in data["results"]:
                for diagnostic in entry["diagnostics"]:
                    damage(diagnostic)
        path.write_text(json.dumps(data))
    warm = run(["--output-format", "json", "a.py"])
    assert warm.exit_code == 1 and warm.output == cold


def test_a_file_entry_that_is_not_an_entry_is_a_miss(tmp_project):
    cold = _cached_run(tmp_project)
    for path in (tmp_project / ".errlint_cache").rglob("*.json"):
        data = json.loads(path.read_text())
        if "results" in data:
            path.unlink()
        else:
            path.write_text(json.dumps({k: 7 for k in data}))
    assert run(["--output-format", "json", "a.py"]).output == cold


def test_clean_of_a_path_that_does_not_exist_removes_nothing(tmp_project):
    (tmp_project / "pyproject.toml").write_text("")
    (tmp_project / "a.py").write_text(BAD)
    run(["a.py"])
    result = run(["clean", "./no-such-dir"])
    assert result.exit_code == 2 and "does not exist, so no cache was removed" in result.output
    assert (tmp_project / ".errlint_cache").is_dir()


def test_show_settings_shows_the_settings_in_effect(tmp_project):
    (tmp_project / "pyproject.toml").write_text('[tool.errlint]\nselect = ["AEM1"]\nextend-exclude = ["gen/"]\n')
    out = run(["--show-settings", "--select", "AEM6", "--extend-select", "AEM103", "--ignore", "AEM601", "--cache-dir", "mine", "."]).output
    assert "select = ('AEM6',)" in out and "extend-select = ('AEM103',)" in out and "ignore = ('AEM601',)" in out
    assert "cache: mine\n" in out
    assert "cache: off (--no-cache)" in run(["--show-settings", "--no-cache", "."]).output
    both = run(["--show-settings", "--extend-exclude", "other/", "."]).output
    assert "extend-exclude = ('gen/', 'other/')" in both


def test_extend_exclude_adds_and_force_exclude_covers_stdin(tmp_project):
    (tmp_project / "pyproject.toml").write_text('[tool.errlint]\nextend-exclude = ["gen/"]\n')
    for folder in ("gen", "other", "src"):
        (tmp_project / folder).mkdir()
        (tmp_project / folder / "m.py").write_text(BAD)
    listed = run(["--show-files", "--extend-exclude", "other/", "."]).output.split()
    assert [p for p in listed if p.endswith("m.py")] == ["src/m.py"]
    piped = run(["--force-exclude", "-", "--stdin-filename", "gen/m.py"], input=BAD)
    assert piped.exit_code == 0 and piped.output == ""
    fixed = run(["--force-exclude", "--fix", "-", "--stdin-filename", "gen/m.py"], input=BAD)
    assert fixed.exit_code == 0 and fixed.output == BAD
    assert run(["-", "--stdin-filename", "gen/m.py"], input=BAD).exit_code == 1  # without the flag it is checked


def test_clear_texts_for_misused_inputs(tmp_project):
    (tmp_project / "a.py").write_text(BAD)
    (tmp_project / "pyproject.toml").write_text("[tool.errlint.rules.AEM401]\nmax-message-tokens = -1\n")
    assert "is not allowed; use a positive integer" in run(["a.py"]).output
    (tmp_project / "pyproject.toml").write_text("")
    result = run(["--config", "/dev/null", "a.py"])
    assert result.exit_code == 2 and "is not a regular file" in result.output
    result = run(["-", "a.py"], input=BAD)
    assert result.exit_code == 2 and "cannot be combined with other paths" in result.output
    result = run(["rule", "AEM000"])
    assert result.exit_code == 0 and "internal-error (AEM000)" in result.output


def test_flake8_refuses_a_token_limit_below_one(tmp_path):
    import subprocess
    import sys

    (tmp_path / "a.py").write_text('raise ValueError("x")\n')
    out = subprocess.run([sys.executable, "-m", "flake8", "--select", "AEM", "--errlint-max-message-tokens", "-3", "a.py"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert "AEM000 errlint configuration error: --errlint-max-message-tokens -3 is not allowed; use a positive integer" in out.stdout


def test_every_config_problem_at_once_a_broken_pack_included(tmp_project):
    (tmp_project / "a.py").write_text(BAD)
    (tmp_project / "pyproject.toml").write_text(
        '[tool.errlint]\nmax-message-tokens = 0\nignore = ["vague-advise"]\npacks = ["./missing.toml"]\n')
    result = run(["a.py"])
    assert result.exit_code == 2
    assert "3 problems in pyproject.toml" in result.output
    assert "max-message-tokens" in result.output and "'vague-advise' matches no rule" in result.output and "missing.toml" in result.output
