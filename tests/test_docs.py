"""Generated docs are fresh, and `errlint rule` prints them."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from click.testing import CliRunner

from errlint.cli import main

ROOT = Path(__file__).resolve().parent.parent


def load_generator():
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_and_readme_table_are_fresh():
    for path, text in load_generator().rendered().items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name} is stale: run `python scripts/gen_docs.py`"


def test_rule_command_prints_docs():
    result = CliRunner().invoke(main, ["rule", "AEM101"])
    assert result.exit_code == 0
    assert "# generic-failure-message (AEM101)" in result.output
    assert "## Why is this bad?" in result.output


def test_rule_command_accepts_names_and_json():
    result = CliRunner().invoke(main, ["rule", "vague-advice", "--output-format", "json"])
    data = json.loads(result.output)
    assert data["code"] == "AEM102" and data["fix"] == "display-only" and "agent" in data["profiles"]


def test_rule_command_unknown_code_exits_2():
    result = CliRunner().invoke(main, ["rule", "AEM999"])
    assert result.exit_code == 2
    assert "AEM999" in result.output and "errlint rule --all" in result.output


def test_rule_command_offers_the_close_match_for_a_misspelt_code_or_name():
    """Like the config's selector errors: the closest code or name, from the same helper, exit 2."""
    cases = {
        "vague-advise": "'vague-advice'",          # a misspelt name
        "Vague-Advise": "'vague-advice'",          # any case
        "missing-next-steps": "'missing-next-step'",
        "AEM1011": "'AEM101'",                     # a code with a digit too many
        "aem6o1": "'AEM601'",                      # lower case, a letter o for a zero
    }
    for given, expected in cases.items():
        result = CliRunner().invoke(main, ["rule", given])
        assert result.exit_code == 2, (given, result.output)
        assert result.output.startswith(f"errlint: no rule has the code or name {given!r}; did you mean {expected}?"), result.output
        assert "errlint rule --all" in result.output
        assert "Traceback" not in result.output


def test_rule_command_far_from_every_rule_names_no_match():
    result = CliRunner().invoke(main, ["rule", "zzzz"])
    assert result.exit_code == 2
    assert "did you mean" not in result.output
    from errlint.registry import rule_catalog

    rules = len(rule_catalog())
    assert result.output == f"errlint: no rule has the code or name 'zzzz'; run `errlint rule --all` to list the {rules} rules\n"
