"""The article's four before/after pairs (design/source-article.md, "Before and after"), written as
Python MCP tools in tests/article/: every "before" is flagged with the right family, every "after"
is clean with the default rules."""
from __future__ import annotations

from pathlib import Path

import pytest

from errlint.api import check_source

ARTICLE = Path(__file__).parent / "article"
PAIRS = {
    "enum": {"AEM4"},             # 15 lines of schema-library output
    "field": {"AEM4", "AEM5"},    # schema dump, plus "do not repeat" over a wrong field name
    "id": {"AEM4", "AEM5"},       # the whole input specification, plus "ask the user"
    "stale": {"AEM5"},            # "do not repeat the change" over a routine retry
}


def families(path: Path):
    return {d.code[:4] for d in check_source(path.read_text(), path="server.py")}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_before_is_flagged_with_the_right_family(name):
    found = families(ARTICLE / f"before_{name}.py")
    assert PAIRS[name] <= found, found


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_after_is_clean(name):
    diagnostics = check_source((ARTICLE / f"after_{name}.py").read_text(), path="server.py")
    assert [(d.code, d.message) for d in diagnostics] == []
