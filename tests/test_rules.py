"""Every rule's VALID/INVALID examples (Python rules and TOML phrase rules alike), run by one test."""
from __future__ import annotations

import pytest

from errlint.api import run_context
from errlint.checks.base import DOC_HEADINGS
from errlint.engine import check_file
from errlint.model import Applicability
from errlint.registry import rule_catalog

CATALOG = rule_catalog()
ENGINE_ONLY = {"AEM001", "AEM002"}  # emitted by the engine, tested in test_engine/test_noqa

EXAMPLES = [
    pytest.param(code, kind, i, example, id=f"{code}-{kind}-{i}")
    for code, rule in CATALOG.items()
    if code not in ENGINE_ONLY
    for kind, examples in (("valid", rule.VALID), ("invalid", rule.INVALID))
    for i, example in enumerate(examples)
]


@pytest.mark.parametrize("code, kind, index, example", EXAMPLES)
def test_example(code, kind, index, example):
    run = run_context(select=[code])
    found = [d.code for d in check_file("example.py", example.encode(), run).diagnostics]
    if kind == "invalid":
        assert code in found, f"{code} should flag:\n{example}"
    else:
        assert code not in found, f"{code} should not flag:\n{example}"


@pytest.mark.parametrize("code", [c for c in CATALOG if c not in ENGINE_ONLY])
def test_at_least_three_examples_each(code):
    rule = CATALOG[code]
    assert len(rule.VALID) >= 3 and len(rule.INVALID) >= 3


@pytest.mark.parametrize("code", list(CATALOG))
def test_docs_have_ruff_headings(code):
    docs = CATALOG[code].docs
    for heading in DOC_HEADINGS:
        assert heading in docs, f"{code} docs lack {heading!r}"


def test_codes_and_names_are_unique_and_well_formed():
    names = [r.name for r in CATALOG.values()]
    assert len(names) == len(set(names))
    for code, rule in CATALOG.items():
        assert code.startswith("AEM") and len(code) == 6 and code[3:].isdigit()
        assert rule.name == rule.name.lower() and " " not in rule.name


def test_default_set_matches_the_design():
    on = {c for c, r in CATALOG.items() if r.DEFAULT}
    assert {"AEM002", "AEM104", "AEM105", "AEM505", "AEM605"}.isdisjoint(on)
    for code in ("AEM001", "AEM101", "AEM201", "AEM301", "AEM401", "AEM501", "AEM601", "AEM606"):
        assert code in on


RANK = {Applicability.DISPLAY_ONLY: 0, Applicability.UNSAFE: 1, Applicability.SAFE: 2}


@pytest.mark.parametrize("code", [c for c in CATALOG if c not in ENGINE_ONLY])
def test_declared_fix_matches_the_fixes_offered(code):
    """A rule's FIX (shown by `errlint rule`, docs and SARIF) is the strongest fix its INVALID
    examples offer: never weaker (the docs would hide a fix), never stronger (a promise not kept)."""
    rule = CATALOG[code]
    offered = []
    for example in rule.INVALID:
        run = run_context(select=[code])
        offered += [d.fix.applicability for d in check_file("example.py", example.encode(), run).diagnostics if d.code == code and d.fix]
    strongest = max(offered, key=RANK.get, default=Applicability.DISPLAY_ONLY)
    assert strongest == rule.FIX, f"{code} declares {rule.FIX.value} but its examples offer {strongest.value}"
    first_line = rule.docs.split("## Fix safety")[1].strip().split(".")[0].lower()
    assert first_line.startswith(rule.FIX.value.split("-")[0]), f"{code}'s Fix safety section starts {first_line!r}"


def test_aem206_words_of_a_transient_state_in_a_validation_message_are_not_a_transient_failure():
    from conftest import at

    shapes = [
        'def f(strategy):\n    if strategy not in ("fixed", "sliding"):\n        raise ValueError(f"Unknown rate-limit strategy {strategy!r}; use fixed or sliding")\n',
        'def f(seconds):\n    if seconds > 60:\n        raise ValueError(f"timeout {seconds} is above 60; pass at most 60")\n',
        'import click\n@click.command()\n@click.option("--throttle")\ndef main(throttle):\n    if not throttle.isdigit():\n        raise click.BadParameter(f"throttling rate {throttle!r} must be a whole number")\n',
    ]
    for code in shapes:
        assert at(code, select=["AEM206"]) == [], code
    # the world's transient state still needs retry guidance
    tool = 'from fastmcp import FastMCP\nmcp = FastMCP("x")\n@mcp.tool()\ndef get(q: str) -> str:\n    raise RuntimeError("The search service is rate-limited")\n'
    assert at(tool, select=["AEM206"]) == [(5, "AEM206")]
