"""`errlint probe` reading replies without a server: disguised errors, whose text it is, where the
server runs and where its tools are defined."""
from __future__ import annotations

import os
import sys

import pytest

from errlint.probe.disguise import disguised_error
from errlint.probe.origin import reply_origin
from errlint.probe.sandbox import Sandbox, absolute_command
from errlint.probe.source import ServerSource, inspect_server, interpreter

DISGUISED = [
    # JSON: error or status fields at any depth, JSON inside a text item, success flags
    ('{"error": "user not found", "code": 404}', "json-error-field"),
    ('{"status": "error", "message": "job 7 is unknown"}', "json-status-field"),
    ('{"state": "FAILED", "id": 3}', "json-status-field"),
    ('{"success": false, "error": "flag x is not defined"}', "json-status-field"),
    ('{"ok": false}', "json-status-field"),
    ('{"data": {"result": null, "errors": [{"message": "record r-9 is missing"}]}}', "json-error-field"),
    ('[{"type": "text", "text": "{\\"error\\": \\"batch b-9 not found\\"}"}]', "json-error-field"),
    ('{"result": "Document d-9 does not exist"}', "statement"),
    # statements, headed or not
    ("Document example does not exist", "statement"),
    ("# Move Failed - item 7 is not in the inbox\n\nNothing was moved.", "statement"),
    ("Database error: no such table: users", "statement"),
    ("Error: issue ISS-9 not found", "statement"),
    ("ERROR - quota exceeded", "statement"),
    ("Project 'x' not found.", "statement"),
    ("Failed to open README: permission denied.", "statement"),
    ("**Export failed.** Try again later.", "statement"),
    ("Invalid path: /x", "statement"),
    ("The value 'abc' is not a valid date.", "statement"),
    ("No such file or directory: 'a.txt'", "statement"),
    ("Could not find a workspace named 'demo'.", "statement"),
    ("Summary\n\n## Error\nThe index is locked.", "statement"),
    # Python exception text
    ("'NoneType' object has no attribute 'get'", "python-exception"),
    ("Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nKeyError: 'base'", "python-exception"),
    ("ValueError: invalid literal for int() with base 10: 'x'", "python-exception"),
    ("[Errno 2] No such file or directory: 'x'", "python-exception"),
    ("list index out of range", "python-exception"),
]

REAL_SUCCESS = [
    "Login fails on Safari",
    "Found 3 issues.\nISS-1: Login fails\nISS-2: Export failed",
    "No results found for 'zzz'.",
    "No matching documents.",
    '{"items": [{"status": "failed"}, {"status": "passed"}], "errors": []}',
    '{"error": null, "items": []}',
    '{"jobs": [{"id": 1, "status": "failed"}], "summary": "1 failed"}',
    "# Report\nAll 3 checks passed, 0 errors.",
    "The error handling guide explains retries.",
    "Errata are listed below",
    "Build log:\nstep 1 ok\nstep 2 failed: retried and passed",
    '["a.txt", "b.txt"]',
    "",
]


@pytest.mark.parametrize("text, shape", DISGUISED)
def test_disguised_error_shapes(text, shape):
    found = disguised_error(text)
    assert found is not None and found.shape == shape, (text, found)


@pytest.mark.parametrize("text", REAL_SUCCESS)
def test_real_success_is_not_an_error(text):
    assert disguised_error(text) is None


def test_disguise_quotes_the_whole_statement():
    assert disguised_error("Document d-9 does not exist. Create it with new_document first.").evidence == "Document d-9 does not exist."
    found = disguised_error("Traceback (most recent call last):\n  File \"x.py\", line 3\nAttributeError: 'NoneType' object has no attribute 'id'")
    assert found.evidence == "AttributeError: 'NoneType' object has no attribute 'id'"
    # one text item holding JSON among several content items
    assert disguised_error("hello\n{\"error\": \"x\"}", ["hello", '{"error": "x"}']).shape == "json-error-field"


MCP1 = ("Error executing tool count_notes: 1 validation error for count_notesArguments\nlimit\n  Input should be a valid integer, "
        "unable to parse string as an integer [type=int_parsing, input_value='x', input_type=str]")
FASTMCP = ("1 validation error for call[lookup_user]\nuser_id\n  Input should be a valid string [type=string_type, input_value=12345, "
           "input_type=int]")


def test_origin_of_framework_validation_replies():
    origin = reply_origin(MCP1, {"mcp": "1.30.0"})
    assert origin.label == "framework: mcp 1.30.0 FastMCP (pydantic argument validation)"
    assert "has no middleware" in origin.fix and "override `async def call_tool(self, name, arguments)`" in origin.fix
    assert reply_origin(MCP1, {}, server_version="1.9.4").framework == "mcp 1.9.4 FastMCP"  # FastMCP 1.x reports the SDK version
    origin = reply_origin(MCP1, {"mcp": "2.3.0"})
    assert origin.framework == "mcp 2.3.0 MCPServer" and "subclass MCPServer" in origin.fix
    origin = reply_origin(FASTMCP, {"fastmcp": "4.2.3", "mcp": "2.3.0"})
    assert origin.label == "framework: fastmcp 4.2.3 (pydantic argument validation)" and "Middleware" in origin.fix
    assert "Middleware" in reply_origin(FASTMCP, {"fastmcp": "2.9.0"}).fix
    old = reply_origin(FASTMCP, {"fastmcp": "2.3.4"})
    assert old.fix.startswith("fastmcp 2.3.4 has no middleware (it came in 2.9)")
    low = reply_origin("Input validation error: 'limit' is a required property", {"mcp": "1.30.0"})
    assert low.label == "framework: mcp 1.30.0 low-level Server (jsonschema argument validation)" and "validate_input=False" in low.fix
    for text in ("Something went wrong.", "1 validation error for Settings\nx\n  Field required", "Error executing tool t: boom"):
        assert reply_origin(text, {"mcp": "2.3.0"}).kind == "server", text


def test_sandbox_points_home_and_tmpdir_into_a_fresh_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "srv").mkdir()
    (tmp_path / "srv" / "server.py").write_text("")
    (tmp_path / "config.json").write_text("{}")
    box = Sandbox.create(["python", "srv/server.py", "--config", "config.json", "--name", "demo", "uvx"])
    try:
        assert box.command == ("python", str(tmp_path / "srv" / "server.py"), "--config", str(tmp_path / "config.json"), "--name", "demo", "uvx")
        assert box.cwd == os.path.join(box.root, "cwd") and os.path.isdir(box.cwd)
        assert box.env["HOME"] == os.path.join(box.root, "home") and box.env["TMPDIR"] == os.path.join(box.root, "tmp")
        assert box.env["XDG_CONFIG_HOME"].startswith(box.root) and box.env["XDG_CACHE_HOME"].startswith(box.root)
        assert box.env["GIT_OPTIONAL_LOCKS"] == "0"
        assert box.created() == []
        (tmp_path / "x").write_text("")  # outside the sandbox: not its business
        with open(os.path.join(box.env["HOME"], ".tool.json"), "w") as handle:
            handle.write("{}")
        assert box.created() == ["home/.tool.json"]
    finally:
        box.remove()
    assert not os.path.exists(box.root)
    given = Sandbox.given(str(tmp_path), ["python", "s.py"])
    assert (given.cwd, given.env, given.root) == (str(tmp_path), None, "")
    assert absolute_command(["node", "-e", "x"]) == ("node", "-e", "x")


def test_source_locates_tools_and_framework_versions(tmp_path):
    server = tmp_path / "server.py"
    server.write_text("from x import FastMCP\n\nmcp = FastMCP('demo')\n\n@mcp.tool()\nasync def get_item(item_id: str) -> str:\n    return ''\n"
                      "\nmcp.add_tool(fn, name=\"renamed_tool\")\n")
    helper = tmp_path / "aaa_helpers.py"  # a same-named helper method is not the tool
    helper.write_text("class Store:\n    def get_item(self, item_id):\n        return None\n")
    assert interpreter([sys.executable, str(server)]) == sys.executable
    assert interpreter(["errlint-no-such-program"]) is None
    source = inspect_server([sys.executable, str(server)])
    assert source.files == [str(server)]
    source = ServerSource(files=[str(helper), str(server)])
    assert source.locate("get_item") == (str(server), 6)
    assert source.locate("renamed_tool") == (str(server), 9)
    assert source.locate("missing") is None
    assert source.locate_framework() == (str(server), 3)
    assert ServerSource().locate("x") is None
    from importlib.metadata import PackageNotFoundError, version

    try:
        installed = version("mcp")
    except PackageNotFoundError:  # Python 3.9: the test extras leave mcp out (it needs 3.10+)
        installed = None
    assert inspect_server([sys.executable, str(server)]).versions.get("mcp") == installed


def test_source_locates_the_literal_a_reply_comes_from(tmp_path):
    code = tmp_path / "tools.py"
    code.write_text("def check(repo_path, allowed):\n    if bad:\n"
                    "        raise ValueError(f\"Repository path '{repo_path}' is outside the allowed repository '{allowed}'\")\n"
                    "    return json.dumps({'status': 'error', 'message': f'Language {name!r} is not available'})\n")
    source = ServerSource(files=[str(code)])
    assert source.locate_text("Repository path '.' is outside the allowed repository '/srv/repo'") == (str(code), 3)
    assert source.locate_text('{"status": "error", "message": "Language \'\' is not available"}') == (str(code), 4)
    assert source.locate_text("Ref 'x' did not resolve") is None  # the library's text, not the server's
    assert source.locate_text("Repository path /srv/x is outside the allowed repository /srv/repo", ["/srv/x"]) == (str(code), 3)
    code.write_text('"""Says "Something went wrong." when it fails."""\nraise ToolError("Something went wrong.")\n')
    from errlint.probe import source as source_module

    source_module._read.cache_clear()
    source_module._literals.cache_clear()
    assert ServerSource(files=[str(code)]).locate_text("Something went wrong.") == (str(code), 2)  # not the docstring
    assert source.locate_text("ok") is None


def test_known_values_from_listing_replies():
    from errlint.probe.calls import ProbeCall
    from errlint.probe.client import Reply
    from errlint.probe.known import known_value, learn, listing_calls

    tools = [{"name": "list_projects", "annotations": {"readOnlyHint": True}, "inputSchema": {"type": "object", "properties": {}}},
             {"name": "users_list", "annotations": {"readOnlyHint": True}},
             {"name": "list_files", "annotations": {"readOnlyHint": True}, "inputSchema": {"required": ["folder"]}},  # needs an argument
             {"name": "list_jobs"},  # not read-only
             {"name": "get_project", "annotations": {"readOnlyHint": True}}]
    assert [c.tool for c in listing_calls(tools)] == ["list_projects", "users_list"]

    def reply(tool, text, error=False):
        return Reply(ProbeCall(tool, "listing", "", {}, False, ""), "result", error, text, items=[text])

    known = learn([reply("list_projects", '{"projects": [{"id": "PRJ-7", "name": "Web"}, {"id": "PRJ-9"}]}'),
                   reply("users_list", '["ada", "grace"]'),
                   reply("list_tags", '{"error": "x"}', error=True),
                   reply("list_regions", "eu-west, us-east")])
    assert known_value("project_id", known) == "PRJ-7"
    assert known_value("projectId", known) == "PRJ-7"
    assert known_value("project_name", known) == "Web"
    assert known_value("user", known) == "ada"
    assert known_value("tag_id", known) is None and known_value("region", known) is None
    assert known_value("project_id", known, {"type": "string", "pattern": "^PRJ-9$"}) == "PRJ-9"
    assert known_value("project_id", known, {"type": "integer"}) is None
    assert known_value("count", {"count": ["12"]}, {"type": "integer"}) == 12
