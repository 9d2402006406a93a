"""Regenerate docs/rules.md, and the rule table and the sample output in README.md, from the rule
metadata and a run of `errlint examples/` with the default rule set (which rules are on by default
follows their measured precision, so the sample changes when that does).

Run `python scripts/gen_docs.py`; `tests/test_docs.py` fails when either file is stale.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from errlint.docs import rules_markdown, rules_table  # noqa: E402
from errlint.registry import rule_catalog  # noqa: E402

START, END = "<!-- rules-table:start -->", "<!-- rules-table:end -->"
SAMPLE_START, SAMPLE_END = "<!-- sample-output:start -->", "<!-- sample-output:end -->"


def sample_output() -> str:
    """`errlint examples/` as a new user sees it in a fresh checkout: the default set, no cache
    written, and no `.venv` of this checkout (an mcp installed there would change what AEM603 says),
    so the examples and pyproject.toml are copied to a scratch directory and checked there."""
    from click.testing import CliRunner

    from errlint.cli import main as cli

    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copytree(ROOT / "examples", Path(scratch) / "examples")
        shutil.copy2(ROOT / "pyproject.toml", Path(scratch) / "pyproject.toml")
        os.chdir(scratch)
        try:
            result = CliRunner().invoke(cli, ["--no-cache", "examples/"], env={"ERRLINT_PREVIEW": "0", "NO_COLOR": "1"})
        finally:
            os.chdir(cwd)
    return f"```text\n$ errlint examples/\n{result.output}```\n"


def rendered() -> dict:
    rules = list(rule_catalog().values())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = f"{START}\n{rules_table(rules)}{END}"
    new_readme = re.sub(re.escape(START) + ".*?" + re.escape(END), lambda _: table, readme, flags=re.S)
    sample = f"{SAMPLE_START}\n{sample_output()}{SAMPLE_END}"
    new_readme = re.sub(re.escape(SAMPLE_START) + ".*?" + re.escape(SAMPLE_END), lambda _: sample, new_readme, flags=re.S)
    return {ROOT / "docs" / "rules.md": rules_markdown(rules), ROOT / "README.md": new_readme}


def main() -> int:
    for path, text in rendered().items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
