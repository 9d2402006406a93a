"""One message, one clear verdict (issue 12, Deliver 5): at most one finding per family and message,
at most three about its wording, a generic message gets one AEM101 that names every missing part, and
suggestions name the input that failed the check."""
from __future__ import annotations

import collections

from conftest import lint

from errlint.checks.verdict import verdict
from errlint.config import Settings


def per_message(code: str, **kw):
    """{row: [codes]} for a snippet (each snippet below has one message per row)."""
    out = collections.defaultdict(list)
    for d in lint(code, **kw):
        out[d.location.row].append(d.code)
    return {row: sorted(codes) for row, codes in out.items()}


def test_verdict_keeps_one_per_family_and_three_about_wording():
    assert verdict(["AEM101", "AEM201", "AEM203"]) == {"AEM101"}
    assert verdict(["AEM202", "AEM203"]) == {"AEM202"}
    assert verdict(["AEM501", "AEM502"]) == {"AEM502"}
    assert verdict(["AEM403", "AEM404"]) == {"AEM404"}
    assert verdict(["AEM101", "AEM202", "AEM204", "AEM201"]) == {"AEM101", "AEM202", "AEM204"}
    assert verdict(["AEM101", "AEM202", "AEM204", "AEM205"]) == {"AEM101", "AEM202", "AEM204"}  # the step is the fourth: dropped
    assert verdict(["AEM202", "AEM204", "AEM501"]) == {"AEM202", "AEM204", "AEM501"}  # a misdirection is not capped
    assert verdict(["AEM101", "AEM202", "AEM204", "AEM301", "AEM402"]) == {"AEM101", "AEM202", "AEM204", "AEM301", "AEM402"}
    # a covering finding that is itself dropped covers nothing: AEM103 wins over AEM101, AEM201 stays
    assert verdict(["AEM101", "AEM103", "AEM201"]) == {"AEM103", "AEM201"}
    assert verdict(["AEM201", "AEM204"]) == {"AEM204"}


GENERIC = '''
    from fastmcp import FastMCP, Context
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")

    @mcp.tool()
    def search(ctx: Context, query: str, limit: int = 10, verbose: bool = False) -> list:
        if limit > 50:
            raise ToolError("Invalid input")
        return []

    @mcp.tool()
    def get_page(ctx: Context, page: int, method: str = "GET") -> str:
        if page < 1 or page > 500:
            raise ToolError("Bad request")
        return ""

    @mcp.tool()
    def transfer(args: dict, verbose: bool = False) -> str:
        if args.get("amount", 0) <= 0:
            raise ToolError("Operation failed")
        return "ok"
'''


def test_a_generic_message_gets_one_aem101_naming_the_missing_parts():
    found = lint(GENERIC)
    by_row = collections.defaultdict(list)
    for d in found:
        by_row[d.location.row].append(d)
    assert sorted(by_row) == [9, 15, 21]
    for row, diagnostics in by_row.items():
        codes = [d.code for d in diagnostics]
        assert "AEM101" in codes and "AEM201" not in codes and "AEM203" not in codes, (row, codes)
        assert len(codes) <= 3, (row, codes)
    messages = {row: next(d.message for d in ds if d.code == "AEM101") for row, ds in by_row.items()}
    assert messages[9] == 'generic message "Invalid input" names no input (`limit`), value or next step'
    assert messages[15] == 'generic message "Bad request" names no input (`page`), value or next step'
    assert messages[21] == 'generic message "Operation failed" names no input (`amount`), value or next step'


def test_suggestions_name_the_input_that_failed_never_an_unrelated_parameter():
    found = lint(GENERIC)
    text = " ".join(d.message + " " + d.suggestion for d in found)
    for unrelated in ("`ctx`", "`verbose`", "`method`", "`args`", "ctx=", "verbose=", "method=", "query="):
        assert unrelated not in text, unrelated
    assert [d.suggestion for d in found if d.location.row == 9 and d.code == "AEM101"] == [
        'Say which operation failed and why, e.g. f"search failed for limit={limit!r}: <cause>. <next step>" instead of "Invalid input".'
    ]
    assert [d.message for d in found if d.location.row == 21 and d.code == "AEM202"] == [
        "the message does not show the rejected value of `amount`; append \" (got {args.get('amount')!r:.80})\""
    ]
    # AEM201's suggestion on a library raise: the guarded input, not the first parameter
    step = lint('''
        def connect(verbose, host, port):
            if port > 65535:
                raise ConnectionError("Port is not usable here.")
    ''', select=["AEM201"], settings=Settings(profiles=(("AEM201", ("agent", "cli", "http", "exc", "log")),)))
    assert [d.suggestion for d in step] == ['End with the step, e.g. "Pass a different `port`: <what is valid>."']
    # a raise without a message names the guarded input in AEM101
    bare = lint('''
        def append_note(ctx, dry_run: bool, path: str, text: str) -> str:
            if not path.endswith(".md"):
                raise ValueError()
            return "ok"
    ''', select=["AEM101"])
    assert [d.message for d in bare] == ["`ValueError` carries no message, the reader gets nothing; say what failed, for which input (`path`) and value, and what to do"]
    assert "append_note failed for path={path!r}" in bare[0].suggestion


def test_one_finding_per_family_on_real_shapes():
    # escalation and stop on one fixable message: one 5xx finding
    found = per_message('''
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")
        @mcp.tool()
        def set_limit(limit: int) -> str:
            if limit > 50:
                raise ToolError("limit must be at most 50. Do not retry; contact support.")
            return "ok"
    ''')
    assert [c for c in found[8] if c.startswith("AEM5")] == ["AEM502"]
    # input name and value both missing: one finding for the part
    found = per_message('''
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")
        @mcp.tool()
        def read_graph(statement: str, timeout: int = 5) -> list:
            if not statement.lstrip().upper().startswith("MATCH"):
                raise ToolError("Only MATCH statements are permitted by read_graph")
            return []
    ''')
    assert len([c for c in found[8] if c in ("AEM202", "AEM203")]) == 1
    # a leak is never dropped by the wording cap
    found = per_message('''
        def login(user, token, region):
            if region not in {"eu", "us"}:
                raise ValueError(f"Something went wrong for {token}")
    ''')
    assert "AEM301" in found[4] and len([c for c in found[4] if c[3] in "12"]) <= 2
