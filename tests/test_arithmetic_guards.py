"""A guard that tests arithmetic on an input tests that input (#14, item 3: guards are taken apart
in every form).

`if width % 8:`, `if minutes % 5 != 0:`, `if offset + limit > MAX_ROWS:`: the values the arithmetic
is done on are what failed. Computed from one input, that value failed (its name and value are owed);
computed from several (`width * height > MAX_PIXELS`), the inputs are named but no one value failed.
The bound is on what was computed, so no allowed range is derived for any one operand.
"""
from __future__ import annotations

from conftest import PREVIEW, lint


def _found(code, select=("AEM202", "AEM203", "AEM204")):
    return sorted((d.location.row, d.code, d.message) for d in lint(code, select=list(select), settings=PREVIEW))


TOOL = """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("images")
MAX_PIXELS = 4_000_000

@mcp.tool()
def resize(width: int, height: int, keep_ratio: bool = True) -> str:
    if width % 8:
        raise ToolError("Not aligned.")
    if width * height > MAX_PIXELS:
        raise ToolError("Too big.")
    return "ok"
"""


def test_remainder_and_product_on_tool_inputs():
    assert [(r, c) for r, c, _ in _found(TOOL, ("AEM203",))] == [(10, "AEM203"), (12, "AEM203")]
    found = _found(TOOL, ("AEM202",))
    # the remainder tests one value: show it; the product tests two: no one value failed
    assert [(r, c) for r, c, _ in found] == [(10, "AEM202")] and "`width`" in found[0][2]
    assert _found(TOOL, ("AEM204",)) == []  # no range for `width` alone follows from `width * height`


def test_comparison_of_a_remainder_in_a_click_command():
    code = ("import click\n\n@click.command()\n@click.option('--minutes', type=int)\n@click.option('--label')\n"
            "def schedule(minutes, label):\n    if minutes % 5 != 0:\n        raise click.ClickException('Use whole five-minute steps.')\n"
            "    click.echo(label)\n")
    assert [(r, c) for r, c, _ in _found(code, ("AEM203",))] == [(8, "AEM203")]
    assert [(r, c) for r, c, _ in _found(code, ("AEM202",))] == [(8, "AEM202")]


def test_sum_with_a_constant_bound_in_an_argparse_main():
    code = ("import argparse, sys\nMAX_ROWS = 10_000\n\ndef main():\n    p = argparse.ArgumentParser()\n"
            "    p.add_argument('--offset', type=int, default=0)\n    p.add_argument('--limit', type=int, default=100)\n"
            "    args = p.parse_args()\n    start = args.offset\n    if start + 100 > MAX_ROWS:\n        sys.exit('Window past the end.')\n")
    found = _found(code, ("AEM203",))
    assert [(r, c) for r, c, _ in found] == [(11, "AEM203")] and "`--offset`" in found[0][2]


def test_a_count_of_switches_set_shows_no_value():
    """`nl + csv + tsv >= 2`: several flags summed; the message that names them owes no value."""
    code = ("import click\n\n@click.command()\n@click.option('--nl', is_flag=True)\n@click.option('--csv', is_flag=True)\n"
            "@click.option('--tsv', is_flag=True)\ndef export(nl, csv, tsv):\n    if (nl + csv + tsv) >= 2:\n"
            "        raise click.ClickException('Use just one of --nl, --csv or --tsv')\n")
    assert _found(code) == []


def test_arithmetic_on_the_program_own_counter_against_the_input():
    """`position + 2 > len(data)` in a parser: the counter is the program's, the data is the input."""
    code = ("def decompress(data: bytes) -> bytes:\n    position = 1\n    while position < len(data):\n"
            "        if position + 2 > len(data):\n            raise ValueError('Truncated stream.')\n        position += 2\n    return data\n")
    found = _found(code, ("AEM202",))
    assert [(r, c) for r, c, _ in found] == [(5, "AEM202")] and "`data`" in found[0][2]


def test_a_difference_read_through_an_attribute_or_a_measure():
    """`(end - start).days > 90`, `abs(a - b) < 1`: the arithmetic is read through `.days` or
    `abs()`; its operands are the inputs tested."""
    code = ("from datetime import date\nfrom fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('r')\n\n"
            "@mcp.tool()\ndef usage(start_date: date, end_date: date, team: str = '') -> dict:\n"
            "    if (end_date - start_date).days > 90:\n        raise ToolError('Range too large.')\n"
            "    if abs((end_date - start_date).total_seconds()) < 3600:\n        raise ToolError('Range too short.')\n    return {}\n")
    found = _found(code, ("AEM203",))
    assert [(r, c) for r, c, _ in found] == [(9, "AEM203"), (11, "AEM203")]
    assert all("`end_date`" in m or "`start_date`" in m for _, _, m in found)
