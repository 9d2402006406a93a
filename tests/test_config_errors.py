"""Messages about the user's config name the file and the key, offer the close match, come all in
one run, and `--show-settings` still works while the config is broken."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from errlint.cli import main

BAD = 'raise RuntimeError("An unexpected error occurred.")\n'


def run(args):
    return CliRunner().invoke(main, args, catch_exceptions=False)


def separate() -> CliRunner:
    """A runner that keeps stderr apart from stdout (click 8.2 always does; 8.1 needs asking)."""
    try:
        return CliRunner(mix_stderr=False)
    except TypeError:
        return CliRunner()


@pytest.fixture
def proj(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(BAD)
    return tmp_path


@pytest.mark.parametrize("table, line", [
    ('ignore = ["vague-advise"]', "`ignore` in pyproject.toml: 'vague-advise' matches no rule; did you mean 'vague-advice'?"),
    ('select = ["generic-failure-mesage"]', "`select` in pyproject.toml: 'generic-failure-mesage' matches no rule; did you mean 'generic-failure-message'?"),
    ('max-mesage-tokens = 50', "`max-mesage-tokens` in pyproject.toml: unknown key 'max-mesage-tokens' in [tool.errlint]; did you mean 'max-message-tokens'?"),
    ('per-file-ignores = { "x.py" = ["vague-advise"] }', "`per-file-ignores.'x.py'` in pyproject.toml: 'vague-advise' matches no rule; did you mean 'vague-advice'?"),
    ('[tool.errlint.rules.AEM101x]\nfoo = 1', "`rules.AEM101x` in pyproject.toml: no rule has the code or name 'AEM101x'; did you mean 'AEM101'?"),
    ('respect-gitignore = "yes"', "`respect-gitignore` in pyproject.toml: 'yes' is not allowed; use true or false"),
])
def test_one_problem_names_the_key_the_file_and_the_close_match(proj, table, line):
    (proj / "pyproject.toml").write_text(f"[tool.errlint]\n{table}\n")
    result = run(["a.py"])
    assert result.exit_code == 2
    # a question ends its sentence: the hint starts a new one ("...'vague-advice'? Run `errlint ...`")
    hint = " Run" if line.endswith("?") else "; run"
    assert result.output == f"errlint: {line}{hint} `errlint --show-settings PATH` to see the resolved settings\n"


def test_every_problem_in_one_run(proj):
    (proj / "errlint.toml").write_text(
        'selct = ["AEM1"]\nignore = ["vague-advise"]\nmax-message-tokens = 0\necho-width = "wide"\n'
    )
    result = run(["a.py"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "errlint: 4 problems in errlint.toml:",
        "  `selct` in errlint.toml: unknown key 'selct'; did you mean 'select'?",
        "  `max-message-tokens` in errlint.toml: 0 is not allowed; use a positive integer (default 120)",
        "  `echo-width` in errlint.toml: 'wide' is not allowed; use a positive integer (default 80)",
        "  `ignore` in errlint.toml: 'vague-advise' matches no rule; did you mean 'vague-advice'?",
        "Fix them, then run `errlint --show-settings PATH` to see the resolved settings",
    ]


def test_a_config_in_a_parent_folder_is_named_by_its_path(proj, monkeypatch):
    (proj / "pyproject.toml").write_text('[tool.errlint]\nignore = ["vague-advise"]\n')
    (proj / "sub").mkdir()
    monkeypatch.chdir(proj / "sub")
    result = run(["."])
    assert f"`ignore` in {proj / 'pyproject.toml'}: 'vague-advise'" in result.output


def test_show_settings_works_while_the_config_is_broken(proj):
    (proj / "pyproject.toml").write_text('[tool.errlint]\nignore = ["vague-advise"]\nselect = [\n')
    result = separate().invoke(main, ["--show-settings"])
    assert result.exit_code == 2
    assert result.stderr.startswith("errlint: config pyproject.toml is not valid TOML (")
    assert "errlint: showing the defaults instead of the invalid config; fix the problems above" in result.stderr
    assert "config: pyproject.toml (invalid: defaults shown)\n" in result.stdout
    assert "select = None\n" in result.stdout
    assert "AEM601 on   on by default" in result.stdout


def test_show_settings_lists_every_problem_then_the_defaults(proj):
    (proj / "pyproject.toml").write_text('[tool.errlint]\nignore = ["vague-advise"]\nselct = ["AEM1"]\n')
    result = separate().invoke(main, ["--show-settings"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[:2] == [
        "errlint: `selct` in pyproject.toml: unknown key 'selct' in [tool.errlint]; did you mean 'select'?",
        "errlint: `ignore` in pyproject.toml: 'vague-advise' matches no rule; did you mean 'vague-advice'?",
    ]
    assert "ignore = ()\n" in result.stdout


def test_a_cli_selector_gets_the_close_match_too(proj):
    result = run(["a.py", "--ignore", "vague-advise"])
    assert result.exit_code == 2
    assert "selector 'vague-advise' matches no rule; did you mean 'vague-advice'?" in result.output


def test_a_tool_errlint_header_in_errlint_toml_is_explained(proj):
    (proj / "errlint.toml").write_text('[tool.errlint]\nignore = ["AEM101"]\n')
    result = run(["a.py"])
    assert result.exit_code == 2
    assert result.output.startswith(
        "errlint: `[tool.errlint]` in errlint.toml: errlint.toml holds the settings at its top level; "
        "remove the `[tool.errlint]` header (that table belongs in pyproject.toml)")


def test_a_pack_that_does_not_load_leaves_show_settings_working(proj):
    (proj / "errlint.toml").write_text('packs = ["missing-pack"]\n')
    result = separate().invoke(main, ["--show-settings"])
    assert result.exit_code == 2
    assert "missing-pack" in result.stderr
    assert "AEM601 on   on by default" in result.stdout


@pytest.mark.parametrize("args, config", [
    (["--select", "AEM9", "a.py"], ""),
    (["a.py"], "[tool.errlint.rules.AEM401]\nmax-mesage-tokens = 5\n"),
    (["a.py"], 'select = ["vague-advise"]\n'),
])
def test_a_close_match_and_the_advice_after_it_read_as_two_sentences(proj, args, config):
    if config:
        (proj / "pyproject.toml").write_text(config if config.startswith("[tool.errlint.") else f"[tool.errlint]\n{config}")
    result = run(args)
    assert result.exit_code == 2
    assert "did you mean" in result.output and "?;" not in result.output, result.output


def test_an_unknown_option_with_a_close_match_ends_its_sentence_once(proj):
    (proj / "pyproject.toml").write_text("[tool.errlint.rules.AEM401]\nmax-message-tokenz = 5\n")
    result = run(["a.py"])
    assert result.exit_code == 2
    assert "Run `errlint rule AEM401`. Run `errlint --show-settings PATH`" in result.output and ".;" not in result.output


def test_errlint_under_tool_that_is_no_table_is_a_config_error(proj):
    (proj / "pyproject.toml").write_text("[tool]\nerrlint = 5\n")
    result = run(["a.py"])
    assert result.exit_code == 2 and "[tool.errlint] in pyproject.toml must be a table (got int)" in result.output


def test_a_directory_or_a_file_given_where_the_other_belongs(proj):
    result = run(["--config", str(proj), "a.py"])
    assert result.exit_code == 2 and "is a directory; pass the pyproject.toml or errlint.toml file in it" in result.output
    result = run(["--cache-dir", "a.py", "a.py"])
    assert result.exit_code == 2 and "--cache-dir 'a.py' is a file, not a directory" in result.output
    assert (proj / "a.py").read_text() == BAD
