"""Regenerate docs/rules.md and the rule table in README.md from the rule metadata.

Run `python scripts/gen_docs.py`; `tests/test_docs.py` fails when either file is stale.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from errlint.docs import rules_markdown, rules_table  # noqa: E402
from errlint.registry import rule_catalog  # noqa: E402

START, END = "<!-- rules-table:start -->", "<!-- rules-table:end -->"


def rendered() -> dict:
    rules = list(rule_catalog().values())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = f"{START}\n{rules_table(rules)}{END}"
    new_readme = re.sub(re.escape(START) + ".*?" + re.escape(END), lambda _: table, readme, flags=re.S)
    return {ROOT / "docs" / "rules.md": rules_markdown(rules), ROOT / "README.md": new_readme}


def main() -> int:
    for path, text in rendered().items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
