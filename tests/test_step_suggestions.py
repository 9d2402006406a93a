"""AEM201's suggested step fits the message: a listing tool is offered only for the noun of the input
that failed (`image_id` -> `list_images`), never the server's first listing tool for another noun
(`list_presentations` for a missing image file). Without a matching tool the suggestion is a different
value of the failed input, or the kinds of step. AEM205 picks its tool the same way."""
from __future__ import annotations

import pytest
from conftest import PREVIEW, lint

HEAD = "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n\n"


def tools(*names: str) -> str:
    return "".join(f"@mcp.tool()\ndef {n}() -> list:\n    return []\n\n" for n in names)


def suggestion(code: str, rule: str = "AEM201") -> str:
    found = [d for d in lint(code, select=[rule], settings=PREVIEW) if d.code == rule]
    assert len(found) == 1, found
    return found[0].suggestion or ""


IMAGE_PATH = "@mcp.tool()\ndef add_image(image_path: str) -> str:\n    if not image_path.endswith('.png'):\n        raise ToolError(f'Image file not usable: {image_path}')\n    return image_path\n"
SLIDE_ID = "@mcp.tool()\ndef show(slide_id: str) -> str:\n    if not slide_id.isdigit():\n        raise ToolError(f'Slide {slide_id} cannot be shown')\n    return slide_id\n"
VERSION = "STATE = {}\n\n@mcp.tool()\ndef version() -> str:\n    if not STATE.get('connected'):\n        raise ToolError('The database is not connected')\n    return '1'\n"


@pytest.mark.parametrize("code, wrong", [
    (HEAD + tools("list_presentations") + IMAGE_PATH, "list_presentations"),  # a listing tool for another noun
    (HEAD + tools("list_objects", "list_schemas") + VERSION, "list_objects"),  # no input failed at all
    (HEAD + tools("list_decks") + SLIDE_ID, "list_decks"),
])
def test_a_listing_tool_for_another_noun_is_not_offered(code, wrong):
    text = suggestion(code)
    assert wrong not in text
    assert "Call " not in text


def test_the_failed_input_is_offered_without_a_matching_tool():
    assert suggestion(HEAD + tools("list_presentations") + IMAGE_PATH) == 'End with the step, e.g. "Pass a different `image_path`: <what is valid>."'


def test_no_failed_input_gets_the_kinds_of_step():
    assert suggestion(HEAD + tools("list_objects") + VERSION) == "End with the step: the command to run, the argument to change, or when to retry."


@pytest.mark.parametrize("listing", [("list_slides",), ("list_decks", "list_slides"), ("search_slides", "list_presentations")])
def test_the_listing_tool_for_the_failed_inputs_noun_is_offered(listing):
    assert suggestion(HEAD + tools(*listing) + SLIDE_ID) == f'End with the step, e.g. "Call {[t for t in listing if "slide" in t][0]} to see valid values."'


def test_two_tools_for_the_noun_offer_neither():
    text = suggestion(HEAD + tools("list_slides", "search_slides") + SLIDE_ID)
    assert "Call " not in text and "`slide_id`" in text


def test_a_noun_inside_another_word_does_not_match():
    # `id` is no noun, and "providers" holds "id" only inside a word
    code = HEAD + tools("list_providers") + "@mcp.tool()\ndef get(id: str) -> str:\n    if not id.isdigit():\n        raise ToolError(f'Record {id} cannot be read')\n    return id\n"
    assert "list_providers" not in suggestion(code)


def test_aem205_names_the_matching_tool_and_fixes_only_then():
    code = HEAD + tools("list_decks", "list_issues") + "ISSUES = {}\n\n@mcp.tool()\ndef get_issue(issue_id: str) -> dict:\n    if issue_id not in ISSUES:\n        raise ToolError(f'Issue {issue_id} not found')\n    return ISSUES[issue_id]\n"
    found = [d for d in lint(code, select=["AEM205"], settings=PREVIEW)]
    assert [d.suggestion for d in found] == ['Append "; call list_issues to see valid values".']
    assert found[0].fix is not None


@pytest.mark.parametrize("param, listing, offered", [
    ("name", ("list_namespaces",), None),  # a bare name names no noun, and the tool is get_thing
    ("user_id", ("list_user_roles",), None),  # lists roles, not users
    ("team_id", ("list_teammates",), None),
    ("key", ("list_keyboards",), None),
    ("widget_path", ("list_pathways",), None),
    ("category_id", ("list_categories",), "list_categories"),
    ("entry_id", ("list_entries",), "list_entries"),
    ("process_id", ("list_processes", "list_procedures"), "list_processes"),
    ("issue_id", ("list_issues", "list_issue_comments"), "list_issues"),
    ("issue_id", ("find_issue",), None),  # finds one issue; lists nothing
    ("status", ("list_statuses",), "list_statuses"),
])
def test_the_listed_noun_is_the_whole_last_word(param, listing, offered):
    code = HEAD + tools(*listing) + (
        f"KNOWN = set()\n\n@mcp.tool()\ndef get_thing({param}: str) -> str:\n"
        f"    if {param} not in KNOWN:\n        raise ToolError(f'Thing {{{param}}} cannot be used')\n    return {param}\n")
    text = suggestion(code)
    if offered:
        assert text == f'End with the step, e.g. "Call {offered} to see valid values."'
    else:
        assert "Call " not in text


def test_the_failing_tool_is_not_its_own_source():
    code = HEAD + ("KNOWN = set()\n\n@mcp.tool()\ndef search_issues(issue_id: str) -> list:\n"
                   "    if issue_id not in KNOWN:\n        raise ToolError(f'Issue {issue_id} cannot be searched')\n    return []\n")
    assert "search_issues" not in suggestion(code)


def aem205(code):
    return [(d.suggestion, d.fix is not None) for d in lint(code, select=["AEM205"], settings=PREVIEW)]


def test_aem205_is_silent_when_no_tool_lists_the_value():
    code = HEAD + tools("list_issues", "list_presentations") + (
        "IMAGES = {}\n\n@mcp.tool()\ndef add_image(image_id: str) -> str:\n"
        "    if image_id not in IMAGES:\n        raise ToolError(f'Image {image_id} not found')\n    return image_id\n")
    assert aem205(code) == []


@pytest.mark.parametrize("body, tool", [
    ("def get_issue(key: str) -> dict:\n    if key not in ISSUES:\n        raise ToolError(f'No match for {key}')\n    return ISSUES[key]\n", "list_issues"),
    ("def read(path: str) -> str:\n    raise ToolError(f'No such file: {path}')\n", "list_files"),
    ("def get_issue(issue_id: str) -> dict:\n    raise ToolError(f'Issue {issue_id} not found')\n", "list_issues"),
])
def test_aem205_finds_the_noun_from_the_tool_or_the_message(body, tool):
    code = HEAD + tools("list_issues", "list_files", "list_decks") + "ISSUES = {}\n\n@mcp.tool()\n" + body
    assert aem205(code) == [(f'Append "; call {tool} to see valid values".', True)]


def test_an_input_that_names_its_noun_is_not_matched_by_other_words_of_the_message():
    code = HEAD + tools("list_decks") + (
        "IMAGES = {}\n\n@mcp.tool()\ndef add_image(deck: str, image_id: str) -> str:\n"
        "    if image_id not in IMAGES:\n        raise ToolError(f'Image {image_id} not found in the deck')\n    return image_id\n")
    assert aem205(code) == []
    assert "list_decks" not in suggestion(code)
