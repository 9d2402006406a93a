""""The specified ID" names the one input whose name ends in `_id` (`checks.value_echo._own_words`).

A message names its failing input by a word of the input's name that no other input has: "Invalid
template" names `template_name` beside `slide_index`. The `id` of `presentation_id` is such a word when
it is the tool's or command's only id, even though other inputs share its other words
(`presentation_title`). With two ids, "ID not found" names neither.
"""
from __future__ import annotations

from conftest import PREVIEW, lint


def found(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, select=["AEM203"], settings=PREVIEW))


MCP = '''from typing import Optional

from fastmcp import FastMCP

mcp = FastMCP("slides")
PRESENTATIONS = {{}}


@mcp.tool()
def add_slide(presentation_title: str, {second}: Optional[str] = None) -> dict:
    if {second} not in PRESENTATIONS:
        return {{"error": "{text}"}}
    return {{"ok": True}}
'''


def test_the_only_id_input_is_named_by_id():
    assert found(MCP.format(second="presentation_id", text="No presentation is loaded or the specified ID is invalid")) == []
    assert found(MCP.format(second="presentation_id", text="Unknown ID; open a presentation first")) == []


def test_another_word_still_has_to_be_named():
    assert found(MCP.format(second="presentation_path", text="No presentation is loaded or the specified ID is invalid")) == [(12, "AEM203")]


def test_a_command_with_one_id_option():
    code = '''import click

PROJECTS = {}


@click.command()
@click.option("--project-name")
@click.option("--project-id")
def show(project_name, project_id):
    if project_id not in PROJECTS:
        raise click.ClickException("Invalid ID.")
'''
    assert found(code) == []


def test_two_ids_are_not_told_apart_by_id():
    code = '''from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("links")
NODES = {}


@mcp.tool()
def link(source_id: str, target_id: str) -> str:
    if source_id not in NODES:
        raise ToolError("ID not found.")
    return "ok"
'''
    assert found(code) == [(11, "AEM203")]
