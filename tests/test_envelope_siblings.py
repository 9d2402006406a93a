"""An error dict's other fields can carry what its text leaves out (`checks.part_rule.LISTING_FIELD`).

`{"error": "Template 'x' not found", "available_templates": [...]}` lists the values the reader may
send; `"suggestions"`, `"did_you_mean"`, `"hint"` hand it the step. The text field alone is judged as
the message, but the rules that ask for the allowed values, their source or a next step
(AEM204, AEM205, AEM201) are answered by such a field. A status code beside the text answers nothing.
"""
from __future__ import annotations

from conftest import PREVIEW, lint

PARTS = ["AEM201", "AEM204", "AEM205"]


def found(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, select=PARTS, settings=PREVIEW))


OPEN_SET = '''import json

from fastmcp import FastMCP

mcp = FastMCP("slides")


def load_templates() -> dict:
    with open("templates.json") as fh:
        return json.load(fh)


@mcp.tool()
def list_templates() -> list:
    return sorted(load_templates())


@mcp.tool()
def template_info(template_id: str) -> dict:
    templates = load_templates()
    if template_id not in templates:
        return {{"error": f"Template '{{template_id}}' not found", {extra}}}
    return templates[template_id]
'''

CLOSED_SET = '''from fastmcp import FastMCP

mcp = FastMCP("export")
FORMATS = {{"csv", "json", "parquet"}}


@mcp.tool()
def export(table: str, fmt: str) -> dict:
    if fmt not in FORMATS:
        return {{"success": False, "message": f"Unknown format {{fmt!r}}", {extra}}}
    return {{"success": True}}
'''


def test_a_field_that_lists_the_values():
    assert found(OPEN_SET.format(extra='"available_templates": sorted(templates)')) == []
    assert found(CLOSED_SET.format(extra='"supported_formats": sorted(FORMATS)')) == []


def test_a_field_that_gives_the_step():
    assert found(OPEN_SET.format(extra='"hint": "call list_templates for the ids"')) == []
    assert found(CLOSED_SET.format(extra='"did_you_mean": "csv"')) == []


def test_a_status_beside_the_text_answers_nothing():
    assert found(OPEN_SET.format(extra='"status": 404')) == [(22, "AEM205")]
    assert found(CLOSED_SET.format(extra='"code": 400')) == [(10, "AEM204")]
