"""A handler that re-raises what it caught only past a first `if test:` whose body replaces it and
always leaves (`catching.try_frame`) replaces a raise the `try` makes under that same test: the
bare `raise` is on the other branch. The raise is then control flow (in its own function) or read by
nobody (in a function the `try` calls), like one any replacing handler catches."""
from __future__ import annotations

from conftest import PREVIEW, lint
from test_passed_functions import audiences

BUDGET = '''import asyncio

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("x")


@mcp.tool()
async def search(query: str, budget: float = None) -> str:
    try:
        if budget is not None:
            if budget <= 0:
                raise asyncio.TimeoutError("Budget exhausted")
            return await asyncio.wait_for(run(query), timeout=budget)
        return await run(query)
    except asyncio.TimeoutError as e:
        if budget is not None:
            raise ToolError("The search timed out; retry in 30 s with a narrower query.") from e
        raise
'''


def rows(code: str) -> set:
    return {d.location.row for d in lint(code, settings=PREVIEW)}


def test_a_raise_under_the_test_the_handler_replaces_under(tmp_path):
    assert 14 not in rows(BUDGET)


def test_a_raise_on_the_branch_that_re_raises_is_still_read():
    code = BUDGET.replace("        if budget is not None:\n            if budget <= 0:\n                raise", "        if budget is None:\n            if query:\n                raise", 1)
    assert "if budget is None:" in code and 14 in rows(code)


def test_a_handler_that_uses_the_text_under_the_test_does_not_replace_it():
    code = BUDGET.replace('raise ToolError("The search timed out; retry in 30 s with a narrower query.") from e',
                          'raise ToolError(f"The search timed out: {e}; retry in 30 s.")')
    assert 14 in rows(code)


def test_a_command_that_returns_a_default_under_the_test():
    code = ('import sys\n\n\ndef read(path, strict):\n    try:\n        if strict:\n            if not path.endswith(".toml"):\n'
            '                raise ValueError("Something went wrong.")\n        return open(path).read()\n'
            '    except ValueError:\n        if strict:\n            return ""\n        raise\n\n\n'
            'if __name__ == "__main__":\n    print(read(sys.argv[1], True))\n')
    assert 8 not in rows(code)
    assert 8 in rows(code.replace("        if strict:\n            return", "        if not strict:\n            return"))


def test_a_helper_the_try_calls_under_the_test_is_read_by_nobody(tmp_path, monkeypatch):
    cache = 'ENTRIES = {}\n\n\ndef load(path):\n    if path not in ENTRIES:\n        raise KeyError("Something went wrong.")\n    return ENTRIES[path]\n'
    server = ("from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nimport cache\nmcp = FastMCP('x')\n\n"
              "@mcp.tool()\ndef read(path: str, cached: bool = True) -> str:\n    try:\n        if cached:\n"
              "            return cache.load(path)\n        return path\n    except KeyError:\n        if cached:\n"
              "            raise ToolError('The file is not cached; call read with cached=false.')\n        raise\n")
    assert audiences(tmp_path, monkeypatch, {"cache.py": cache, "server.py": server}, "cache.py") == set()
    uncached = server.replace("        if cached:\n            raise ToolError", "        if not cached:\n            raise ToolError")
    assert {a for _, _, a in audiences(tmp_path / "again", monkeypatch, {"cache.py": cache, "server.py": uncached}, "cache.py")} == {"agent"}


def test_a_try_that_changes_the_tested_name_keeps_the_raise():
    # `budget = None` before the raise: the handler's `if budget is not None:` is then false, and
    # its bare `raise` hands the text on
    code = BUDGET.replace("            if budget <= 0:\n", "            if budget <= 0:\n                budget = None\n", 1)
    assert "budget = None" in code and 15 in rows(code)
