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
