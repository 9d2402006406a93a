"""Which listing tool lists the value an input names (AEM205, `checks.nouns`).

A listing tool's noun is the plural at the end of its name, spelled as English spells it:
`list_people` lists persons, `list_indices` indexes, `list_analyses` analyses, `list_aliases`
aliases. A value rejected because it is already there ("Project 'x' already exists") is a conflict,
not a value to look up: the list of taken names is no way out. A low-level server's tool reads its
input from the arguments dict (`arguments["ticket_id"]`), and the tools it lists come from its
`list_tools` handler.
"""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import lint
from errlint.checks.nouns import lists_noun, plurals, singular
from errlint.cli import main

HEAD = "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\nSTORE = {}\n\n"


def _tool(name: str) -> str:
    return f"@mcp.tool()\ndef {name}() -> list:\n    return []\n\n"


def _aem205(code):
    return [(d.location.row, d.code) for d in lint(code, select=["AEM205"])]


@pytest.mark.parametrize("word, noun", [
    ("people", "person"), ("indices", "index"), ("indexes", "index"), ("analyses", "analysis"), ("aliases", "alias"),
    ("categories", "category"), ("children", "child"), ("statuses", "status"), ("boxes", "box"), ("issues", "issue"),
    ("shelves", "shelf"), ("data", "datum"),
])
def test_a_plural_lists_its_noun(word, noun):
    assert lists_noun(word, noun)


@pytest.mark.parametrize("word, noun", [
    ("person", "person"),  # `find_person` finds one: it lists nothing
    ("status", "status"),  # a singular that ends in s
    ("people", "project"),
    ("issues", "issuer"),
])
def test_a_singular_or_another_noun_is_not_listed(word, noun):
    assert not lists_noun(word, noun)


def test_singular_and_plurals_round_trip():
    for noun in ("person", "index", "analysis", "category", "child", "box", "shelf", "knife", "key", "process"):
        assert any(singular(p) == noun for p in plurals(noun)), noun


@pytest.mark.parametrize("lister, param, text", [
    ("list_people", "person_id", "f'No person with id {person_id}'"),
    ("list_indices", "index_name", "f'Index {index_name!r} does not exist'"),
    ("list_analyses", "analysis_id", "f'Unknown analysis {analysis_id}'"),
    ("list_aliases", "alias", "f'Alias {alias!r} not found'"),
    ("search_children", "child_id", "f'No child {child_id} in this family'"),
])
def test_an_irregular_plural_names_the_listing_tool(lister, param, text):
    code = (HEAD + _tool(lister) + f"@mcp.tool()\ndef fetch_one({param}: str, verbose: bool = False) -> dict:\n"
            f"    if {param} not in STORE:\n        raise ToolError({text})\n    return STORE[{param}]\n")
    assert _aem205(code) == [(13, "AEM205")]


@pytest.mark.parametrize("guard, text", [
    ("if project_name in STORE:", "f'Project {project_name!r} already exists'"),
    ("if project_name in STORE:", "f'A project named {project_name!r} is there; pick another name'"),
    ("if store.has(project_name):", "f'Duplicate project name {project_name!r}'"),
    ("if project_name.lower() in {p.lower() for p in STORE}:", "f'Project name {project_name!r} is already taken'"),
])
def test_a_value_that_is_already_there_is_a_conflict_not_a_lookup(guard, text):
    code = (HEAD + _tool("list_projects") + "@mcp.tool()\ndef create_project(project_name: str, owner: str) -> str:\n"
            f"    {guard}\n        raise ToolError({text})\n    return 'ok'\n")
    assert _aem205(code) == []


def test_a_missing_value_next_to_the_conflict_still_names_the_listing_tool():
    code = (HEAD + _tool("list_projects") + "@mcp.tool()\ndef rename_project(project_name: str, new_name: str) -> str:\n"
            "    if project_name not in STORE:\n        raise ToolError(f'Project {project_name!r} not found')\n"
            "    if new_name in STORE:\n        raise ToolError(f'Project {new_name!r} already exists')\n    return 'ok'\n")
    assert _aem205(code) == [(13, "AEM205")]


LOWLEVEL = '''import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("tickets")
TICKETS = {}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name="list_tickets", description="List tickets", inputSchema={"type": "object"}),
        types.Tool(name="get_ticket", description="Get one", inputSchema={"type": "object"}),
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "get_ticket":
        ticket_id = READ
        if ticket_id not in TICKETS:
            raise ValueError(TEXT)
        return [types.TextContent(type="text", text=str(TICKETS[ticket_id]))]
    return []
'''


@pytest.mark.parametrize("read, text, rows", [
    ('arguments["ticket_id"]', 'f"Ticket {ticket_id} not found"', [(21, "AEM205")]),
    ('arguments.get("ticket_id", "")', 'f"No ticket {ticket_id!r}"', [(21, "AEM205")]),
    ('arguments["ticket_id"]', 'f"Ticket {ticket_id} not found; call list_tickets for open ones"', []),
])
def test_a_low_level_tool_names_its_listing_tool(tmp_project, read, text, rows):
    # the project run: the low-level server's tools come from its `list_tools` handler
    (tmp_project / "server.py").write_text(LOWLEVEL.replace("READ", read).replace("TEXT", text))
    result = CliRunner().invoke(main, ["--select", "AEM205", "--output-format", "json", "server.py"])
    assert result.exit_code == (1 if rows else 0), result.output
    assert [(d["location"]["row"], d["code"]) for d in json.loads(result.output)] == rows


@pytest.mark.parametrize("lister, param, text", [
    ("list_users", "username", "f'No such user: {username}'"),  # the noun before a glued `name`
    ("get_tags", "tag", "f'Unknown tag {tag!r}'"),  # `get_` with a plural lists
])
def test_glued_suffixes_and_get_listings(lister, param, text):
    code = (HEAD + _tool(lister) + f"@mcp.tool()\ndef fetch_one({param}: str, verbose: bool = False) -> dict:\n"
            f"    if {param} not in STORE:\n        raise ToolError({text})\n    return STORE[{param}]\n")
    assert _aem205(code) == [(13, "AEM205")]


def test_get_with_a_singular_lists_nothing():
    code = (HEAD + _tool("get_tag") + "@mcp.tool()\ndef fetch_one(tag: str, verbose: bool = False) -> dict:\n"
            "    if tag not in STORE:\n        raise ToolError(f'Unknown tag {tag!r}')\n    return STORE[tag]\n")
    assert _aem205(code) == []


def test_a_low_level_lookup_keyed_by_an_argument_field_inline(tmp_project):
    code = LOWLEVEL.replace("        ticket_id = READ\n        if ticket_id not in TICKETS:\n", "        found = TICKETS.get(arguments[\"ticket_id\"])\n        if found is None:\n")
    (tmp_project / "server.py").write_text(code.replace("TEXT", 'f"Ticket {arguments[\'ticket_id\']} not found"'))
    result = CliRunner().invoke(main, ["--select", "AEM205", "--output-format", "json", "server.py"])
    assert [(d["location"]["row"], d["code"]) for d in json.loads(result.output)] == [(21, "AEM205")]


@pytest.mark.parametrize("guard, text, rows", [
    # the user exists: a relation or state of it failed, a listing of users is no way out
    ("if OWNERS.get(workspace_id) == user_id:", "f'User {user_id} owns workspace {workspace_id}; transfer ownership first'", []),
    ("if user_id in SUSPENDED:", "f'User {user_id} is suspended'", []),
    # looked up and missing: name the listing tool
    ("if user_id not in STORE:", "f'User {user_id} is not known here'", [13]),
])
def test_a_state_check_on_an_existing_value_is_no_lookup(guard, text, rows):
    code = (HEAD + "OWNERS = {}\nSUSPENDED = set()\n" + _tool("list_users") + "@mcp.tool()\ndef remove_user(user_id: str, workspace_id: str) -> str:\n"
            f"    {guard}\n        raise ToolError({text})\n    return 'ok'\n")
    assert [r - 2 for r, _ in _aem205(code)] == rows
