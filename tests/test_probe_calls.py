"""`errlint probe` without a server: call planning from schemas, tool selection, reply analysis.

None of these need the `mcp` SDK.
"""
from __future__ import annotations

import re
import sys

import pytest
from click.testing import CliRunner

from errlint import tokens
from errlint.config import Settings
from errlint.probe.calls import (
    KINDS,
    OUTSIDE_ROOT,
    UNKNOWN_ARGUMENT,
    ProbeCall,
    base_arguments,
    documented_values,
    given_values,
    near_miss,
    pattern_example,
    plan_calls,
    select_tools,
    unknown_names,
    valid_value,
)
from errlint.probe.client import ProbeError, ProbeRun, Reply, check_url, describe_targets
from errlint.probe.findings import build, server_uri
from errlint.probe.report import Analyzer, diagnostics, enabled_codes, looks_like_error, summary

ISSUE_SCHEMA = {
    "type": "object",
    "properties": {
        "issue_id": {"type": "string", "pattern": "^ISS-[0-9]+$"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
        "status": {"type": "string", "enum": ["open", "closed", "needs_review"]},
        "due": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}], "default": None},
        "title": {"type": "string", "maxLength": 80},
        "path": {"type": "string"},
        "order": {"type": "string", "description": "Sort order: `asc` or `desc`."},
    },
    "required": ["issue_id"],
    "additionalProperties": False,
}


def by_kind(calls):
    return {c.kind: c for c in calls}


READ_ONLY = {"readOnlyHint": True}


def ro(name, schema):
    """A tool listing entry annotated readOnlyHint: true (the probe makes every kind of call to those)."""
    return {"name": name, "inputSchema": schema, "annotations": READ_ONLY}


def test_every_kind_planned_once_in_order():
    calls = plan_calls(ro("get_issue", ISSUE_SCHEMA))
    assert [c.kind for c in calls] == list(KINDS)
    assert all(c.tool == "get_issue" for c in calls)


def test_malformed_calls_break_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    calls = plan_calls(ro("get_issue", ISSUE_SCHEMA))
    validator = jsonschema.Draft202012Validator(ISSUE_SCHEMA, format_checker=jsonschema.FormatChecker())
    for call in calls:
        errors = list(validator.iter_errors(call.arguments))
        if call.malformed:
            assert errors, f"{call.kind} should break the schema: {call.arguments}"
        else:
            assert not errors, f"{call.kind} should be schema-valid: {call.arguments} ({errors[0].message if errors else ''})"


def test_values_per_kind():
    kinds = by_kind(plan_calls(ro("get_issue", ISSUE_SCHEMA)))
    assert kinds["wrong-type"].arguments == {"issue_id": 12345}
    assert kinds["enum"].arguments["status"] == "Open"
    assert kinds["format"].argument == "issue_id" and not re.search("^ISS-[0-9]+$", kinds["format"].arguments["issue_id"])
    assert kinds["range"].arguments["limit"] == 51
    assert "issue_id" not in kinds["missing-required"].arguments
    assert kinds["unknown-argument"].arguments[UNKNOWN_ARGUMENT] == "x" and kinds["unknown-argument"].malformed
    assert len(kinds["max-length"].arguments["title"]) == 81
    assert kinds["unknown-id"].arguments["issue_id"] == "ISS-999999999"
    assert kinds["near-miss"].arguments["order"] == "Asc" and not kinds["near-miss"].malformed
    assert kinds["empty-string"].arguments[kinds["empty-string"].argument] == ""
    assert kinds["outside-root"].arguments["path"] == OUTSIDE_ROOT
    # every call but missing-required keeps a valid value for each required argument
    for call in kinds.values():
        if call.kind not in ("missing-required",) and call.argument != "issue_id":
            assert re.search("^ISS-[0-9]+$", call.arguments["issue_id"])


def test_tool_without_arguments_gets_only_the_unknown_argument_call():
    calls = plan_calls(ro("list_projects", {"type": "object", "properties": {}}))
    assert [(c.kind, c.malformed) for c in calls] == [("unknown-argument", False)]
    assert calls[0].arguments == {UNKNOWN_ARGUMENT: "x"}


def test_tools_that_are_not_read_only_get_no_call_that_could_really_run_them_outside_the_sandbox():
    # no outside-root path (it could create it), no unknown-argument call an open schema lets through
    for hints in (None, {"readOnlyHint": False, "destructiveHint": False}, {"destructiveHint": True}):
        tool = {"name": "save", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}
        if hints:
            tool["annotations"] = hints
        kinds = [c.kind for c in plan_calls(tool)]
        assert kinds == ["wrong-type", "missing-required", "empty-string"], kinds
        assert not plan_calls({"name": "reindex", "inputSchema": {"type": "object", "properties": {}}})
    closed = {"type": "object", "properties": {}, "additionalProperties": False}
    assert [(c.kind, c.malformed) for c in plan_calls({"name": "reindex", "inputSchema": closed})] == [("unknown-argument", True)]
    assert [c.kind for c in plan_calls(ro("read", {"type": "object", "properties": {"path": {"type": "string"}}}))][-1] == "outside-root"


def test_given_values_fill_the_other_arguments():
    schema = {"type": "object", "properties": {"project_id": {"type": "string"}, "limit": {"type": "integer", "maximum": 50},
                                               "tags": {"type": "array"}}, "required": ["project_id", "limit"]}
    tool = ro("list", schema)
    given = given_values(tool, {"project_id": "123", "limit": "7", "tags": '["a"]', "other": "x"})
    assert given == {"project_id": "123", "limit": 7, "tags": ["a"]}
    assert base_arguments(schema, given) == {"project_id": "123", "limit": 7, "tags": ["a"]}
    kinds = by_kind(plan_calls(tool, given))
    assert kinds["range"].arguments == {"project_id": "123", "limit": 51, "tags": ["a"]}
    assert kinds["wrong-type"].arguments == {"project_id": 12345, "limit": 7, "tags": ["a"]}


def test_valid_values_come_from_the_schema_first():
    assert valid_value({"type": "string", "description": "A path inside the workspace, e.g. 'docs/intro.md'."}, {}) == "docs/intro.md"
    assert valid_value({"type": "string", "examples": ["PRJ-7"]}, {}) == "PRJ-7"
    assert valid_value({"type": "string", "enum": ["low", "high"]}, {}) == "low"
    assert valid_value({"type": "string", "default": "main"}, {}) == "main"
    assert valid_value({"type": "string", "pattern": "^u-[0-9]+$", "description": "e.g. 'bob'"}, {}) == "u-0"  # 'bob' breaks the pattern
    assert valid_value({"type": "string", "format": "date", "description": "e.g. 'tomorrow'"}, {}) == "2025-01-15"


def test_kinds_that_do_not_apply_are_left_out():
    schema = {"type": "object", "properties": {"note": {"type": "string"}}, "required": ["note"]}
    assert [c.kind for c in plan_calls(ro("t", schema))] == [
        "wrong-type", "missing-required", "unknown-argument", "empty-string"]


def test_refs_optional_and_formats():
    schema = {
        "type": "object",
        "$defs": {"Status": {"type": "string", "enum": ["a", "b"]}},
        "properties": {
            "status": {"$ref": "#/$defs/Status"},
            "owner_email": {"type": "string", "format": "email"},
            "ticket_uuid": {"anyOf": [{"type": "string", "format": "uuid"}, {"type": "null"}]},
            "count": {"type": "integer", "exclusiveMaximum": 10},
        },
        "required": ["status", "owner_email"],
    }
    kinds = by_kind(plan_calls({"name": "t", "inputSchema": schema}))
    assert base_arguments(schema) == {"status": "a", "owner_email": "probe@example.com"}
    assert kinds["enum"].arguments["status"] == "A"
    assert kinds["format"].arguments == {"status": "a", "owner_email": "not-an-email"}
    assert kinds["range"].arguments["count"] == 10
    assert kinds["unknown-id"].arguments["ticket_uuid"] == "ffffffff-ffff-4fff-bfff-ffffffffffff"


def test_wrong_type_picks_a_type_the_schema_does_not_allow():
    for prop, bad in (({"type": "integer"}, "not-a-number"), ({"type": "boolean"}, "not-a-boolean"),
                      ({"type": "array"}, "not-a-list"), ({"type": ["string", "integer"]}, True)):
        calls = plan_calls({"name": "t", "inputSchema": {"type": "object", "properties": {"x": prop}}})
        assert by_kind(calls)["wrong-type"].arguments["x"] == bad


def test_pattern_example():
    assert pattern_example(r"^ISS-[0-9]+$") == "ISS-0"
    assert pattern_example(r"^ISS-[0-9]+$", high=True) == "ISS-999999999"
    assert re.search(r"^[a-z]{3}-\d{4}$", pattern_example(r"^[a-z]{3}-\d{4}$"))
    assert re.search(r"^(foo|bar)_[A-Z0-9]{2,}$", pattern_example(r"^(foo|bar)_[A-Z0-9]{2,}$", high=True))
    assert pattern_example(r"(a)\1") is None  # back-references are not generated


def test_documented_values_and_near_miss():
    assert documented_values({"description": "One of `low`, `medium`, `high`."}) == ["low", "medium", "high"]
    assert documented_values({"description": "Pick one of: asc, desc"}) == ["asc", "desc"]
    assert documented_values({"default": "open"}) == ["open"]
    assert near_miss("needs_review") == "needs-review"
    assert near_miss("open") == "Open"
    assert near_miss("Open", ["Open", "open"]) == "OPEN"


def test_valid_value_respects_bounds_and_lengths():
    assert valid_value({"type": "integer", "minimum": 5}, {}) == 5
    assert valid_value({"type": "integer", "maximum": -3}, {}) == -3
    assert valid_value({"type": "string", "minLength": 10}, {}) == "examplexxx"
    assert valid_value({"type": "array", "minItems": 2, "items": {"type": "boolean"}}, {}) == [False, False]


def test_select_tools_is_safe_by_default():
    tools = [
        {"name": "read", "annotations": {"readOnlyHint": True, "destructiveHint": True}},  # read-only wins: nothing to destroy
        {"name": "write", "annotations": {"readOnlyHint": False, "destructiveHint": False}},
        {"name": "bare"},  # MCP defaults: not read-only, destructive
        {"name": "drop", "annotations": {"destructiveHint": True}},
    ]
    keep, skipped = select_tools(tools)
    assert [t["name"] for t in keep] == ["read"]
    assert all("pass --allow-writes or name it in --tools" in skipped[n] for n in ("write", "bare", "drop"))
    keep, skipped = select_tools(tools, allow_writes=True)
    assert [t["name"] for t in keep] == ["read", "write"]
    assert skipped == {"bare": "not annotated destructiveHint: false (the MCP default is true); pass --allow-destructive to call it",
                       "drop": "annotated destructiveHint: true; pass --allow-destructive to call it"}
    keep, _ = select_tools(tools, allow_writes=True, allow_destructive=True)
    assert [t["name"] for t in keep] == ["read", "write", "bare", "drop"]
    keep, skipped = select_tools(tools, only=["write", "drop"])  # naming a tool is consent to call it, not to destroy
    assert [t["name"] for t in keep] == ["write"] and "--allow-destructive" in skipped["drop"]
    keep, _ = select_tools(tools, allow_destructive=True)  # --allow-destructive alone does not allow writes
    assert [t["name"] for t in keep] == ["read"]
    keep, skipped = select_tools(tools, only=["read", "drop"], exclude=["read"])
    assert keep == [] and skipped == {"read": "in --exclude-tools", "write": "not in --tools", "bare": "not in --tools", "drop": skipped["drop"]}
    assert unknown_names(tools, ["read", "nope"]) == ["nope"]


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/mcp", "http://localhost:3000/mcp", "http://[::1]:8000/mcp", "https://127.5.0.1/mcp"])
def test_loopback_urls_are_accepted(url):
    assert check_url(url) == url


@pytest.mark.parametrize("url", ["https://example.com/mcp", "http://10.0.0.5:8000/mcp", "http://0.0.0.0:8000/mcp", "ftp://127.0.0.1/x", "127.0.0.1:8000"])
def test_other_urls_are_refused(url):
    with pytest.raises(ProbeError) as info:
        check_url(url)
    assert "127.0.0.1" in str(info.value)


def test_targets():
    assert describe_targets(("python", "s.py"), None).command == ("python", "s.py")
    for command, url in (((), None), (("python",), "http://127.0.0.1/mcp")):
        with pytest.raises(ProbeError):
            describe_targets(command, url)


def call(kind="wrong-type", malformed=True, tool="get_issue", argument="issue_id"):
    return ProbeCall(tool, kind, argument, {argument: 12345}, malformed, f"{argument}=12345")


def analyzer(**kw):
    settings = Settings(**kw)
    return Analyzer(settings, enabled_codes(settings), ["get_issue", "list_issues", "set_status"])


PYDANTIC = ("Error executing tool get_issue: 1 validation error for get_issueArguments\nissue_id\n"
            "  Input should be a valid string [type=string_type, input_value=12345, input_type=int]\n"
            "    For further information visit https://errors.pydantic.dev/2.14/v/string_type")
JSONSCHEMA = ("12345 is not of type 'string'\n\nFailed validating 'type' in schema['properties']['issue_id']:\n"
              "    {'type': 'string'}\n\nOn instance['issue_id']:\n    12345")


@pytest.mark.parametrize("reply, expected", [
    (Reply(call(), "result", True, PYDANTIC), {"AEM404"}),
    (Reply(call(), "result", True, "Input validation error: " + JSONSCHEMA), {"AEM404"}),
    (Reply(call(), "result", True, 'Bad input. Schema: {"type": "object", "properties": {"issue_id": {"type": "string"}}}'), {"AEM403"}),
    (Reply(call(), "result", False, "ISS-1: Login fails"), {"AEM601"}),
    (Reply(call("unknown-id", False), "result", False, "Error: issue ISS-9 not found"), {"AEM601", "AEM201"}),
    (Reply(call("unknown-id", False), "result", False, "ISS-1: Login fails"), set()),
    (Reply(call("unknown-id", False), "protocol-error", True, "Invalid priority 'x'", code=-32602), {"AEM602", "AEM201"}),
    (Reply(call("unknown-id", False), "result", True, "Error executing tool get_issue"), {"AEM603"}),
    (Reply(call("unknown-id", False), "result", True, "Error calling tool 'get_issue'"), {"AEM603"}),
    (Reply(call("unknown-id", False), "result", True, "Error executing tool get_issue: Something went wrong."), {"AEM101", "AEM201"}),
    (Reply(call("unknown-id", False), "result", True, "Unknown issue_id 'ISS-9'. Do not retry; contact your administrator."), {"AEM501", "AEM502"}),
    (Reply(call("unknown-id", False), "result", True, "Unknown issue_id 'ISS-9'. Call list_issues to see valid ids."), set()),
    (Reply(call("unknown-id", False), "result", True, "Unknown issue_id 'ISS-9'. Call find_issues to see valid ids."), {"AEM209"}),
    (Reply(call("unknown-id", False), "timeout", False, "no reply within 10 s"), set()),
])
def test_reply_analysis(reply, expected):
    assert {p.code for p in analyzer().analyze(reply).problems} == expected


@pytest.mark.parametrize("text, expected", [
    ("Project '' not found", {"AEM201"}),                      # names the empty value it was sent: not generic
    ('Name "" is not valid', {"AEM201"}),
    ("Path '' does not exist; pass a path from list_files.", set()),
    ("Project not found", {"AEM101", "AEM201"}),                # a real generic message still is one
])
def test_an_echoed_empty_value_is_a_value(text, expected):
    reply = Reply(ProbeCall("get_issue", "empty-string", "issue_id", {"issue_id": ""}, False, "issue_id=''"), "result", True, text)
    problems = analyzer().analyze(reply).problems
    assert {p.code for p in problems} == expected
    assert all("(empty)" not in p.message for p in problems)


def test_rule_quotes_keep_the_whole_sentence():
    text = "Repository path '.' is outside the allowed repository '/srv/repos/errlint-project-main'. See the docs."
    reply = Reply(ProbeCall("git_status", "empty-string", "repo_path", {"repo_path": ""}, False, "repo_path=''"), "result", True, text)
    [problem] = [p for p in analyzer().analyze(reply).problems if p.code == "AEM201"]
    assert problem.message.startswith('"Repository path \'.\' is outside the allowed repository \'/srv/repos/errlint-project-main\'." gives no next step')


def test_oversized_reply_uses_the_real_token_count():
    text = "Unknown issue_id 'ISS-9'. Call list_issues to see valid ids. " + "The tracker keeps every issue for ninety days. " * 30
    analysis = analyzer().analyze(Reply(call("unknown-id", False), "result", True, text))
    assert analysis.tokens == tokens.count(text) > 120
    [problem] = [p for p in analysis.problems if p.code == "AEM401"]
    assert f"is {tokens.count(text)} o200k_base tokens" in problem.message and "max-message-tokens = 120" in problem.message
    assert "AEM401" not in {p.code for p in analyzer(max_message_tokens=10000).analyze(Reply(call("unknown-id", False), "result", True, text)).problems}


def test_selection_applies_to_probe_codes():
    settings = Settings()
    narrow = Analyzer(settings, enabled_codes(settings, ignore=["AEM404"]), [])
    assert not narrow.analyze(Reply(call(), "result", True, PYDANTIC)).problems


def test_looks_like_error():
    for text in ("Error: boom", "error - not found", "Failed to export", '{"error": "nope"}', "Traceback (most recent call last):\n  x",
                 "Invalid id", "Could not open the file"):
        assert looks_like_error(text), text
    for text in ("ISS-1, ISS-2", '{"error": null, "items": []}', "No errors found in 3 files", "", "Errata are listed below"):
        assert not looks_like_error(text), text


def test_findings_group_the_same_problem_per_tool_and_framework_replies_per_server():
    a = analyzer()
    replies = [
        Reply(call(), "result", True, PYDANTIC),
        Reply(ProbeCall("get_issue", "range", "limit", {"limit": 51}, True, "limit=51"), "result", True, PYDANTIC.replace("issue_id", "limit")),
        Reply(ProbeCall("get_issue", "unknown-id", "issue_id", {"issue_id": "ISS-9"}, False, "issue_id='ISS-9'"), "result", True, "Issue ISS-9 not found."),
        Reply(ProbeCall("get_issue", "empty-string", "issue_id", {"issue_id": ""}, False, "issue_id=''"), "result", True, "Issue  not found."),
        Reply(ProbeCall("other", "wrong-type", "x", {"x": 1}, True, "x=1"), "result", True, PYDANTIC.replace("get_issue", "other")),
    ]
    findings = build("my server", [a.analyze(r) for r in replies], command=("python", "s.py"))
    assert [(f.diagnostic.filename, f.code, f.origin.kind, f.tools) for f in findings] == [
        ("mcp://my-server/", "AEM404", "framework", ["get_issue", "other"]),
        ("mcp://my-server/get_issue", "AEM101", "server", ["get_issue"]),
        ("mcp://my-server/get_issue", "AEM201", "server", ["get_issue"]),
    ]
    framework = findings[0]
    assert framework.diagnostic.message.startswith(
        "[framework: mcp SDK FastMCP (1.x) or MCPServer (2.x) (pydantic argument validation)] 2 tools answer bad arguments with the "
        "framework's own validation text, not the server's (AEM404): get_issue, other; e.g. [get_issue wrong-type issue_id=12345]:")
    assert "override `async def call_tool" in framework.diagnostic.suggestion
    assert framework.details["count"] == 3 and framework.details["tools"] == ["get_issue", "other"]
    d = findings[2].diagnostic
    assert (d.location.row, d.location.column, d.code) == (1, 1, "AEM201")
    assert d.message.startswith("[get_issue unknown-id issue_id='ISS-9']") and "(also on: empty-string issue_id='')" in d.message
    details = findings[2].details
    assert details["reproduce"]["jsonrpc"] == ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", '
                                               '"params": {"name": "get_issue", "arguments": {"issue_id": "ISS-9"}}}')
    assert details["reproduce"]["command"] == "errlint probe --tools get_issue -- python s.py"
    assert (details["kind"], details["argument"], details["isError"], details["origin"]) == ("unknown-id", "issue_id", True, "server")
    assert server_uri("x/y z", "t") == "mcp://x-y-z/t"
    assert [d.code for d in diagnostics("s", [a.analyze(r) for r in replies])] == ["AEM404", "AEM101", "AEM201"]


def test_the_same_reply_on_several_tools_is_one_finding():
    a = analyzer()
    text = "Request failed."
    replies = [Reply(ProbeCall(tool, "unknown-id", "item_id", {"item_id": "x-9", "mode": "fast"}, False, "item_id='x-9'"), "result", True, text)
               for tool in ("get_a", "get_b", "get_c")]
    findings = build("s", [a.analyze(r) for r in replies], command=("srv",))
    assert {f.code for f in findings} == {"AEM101", "AEM201"}
    for f in findings:
        assert f.tools == ["get_a", "get_b", "get_c"] and f.details["count"] == 3
        assert "(the same reply from 3 tools: get_a, get_b, get_c)" in f.diagnostic.message
    assert findings[0].details["reproduce"]["command"] == "errlint probe --tools get_a --arg mode=fast -- srv"


def test_a_finding_names_the_argument_the_reply_is_about():
    from errlint.probe.report import subject_argument

    probe_range = ProbeCall("read", "range", "limit", {"path": "example", "limit": 51}, True, "limit=51")
    assert subject_argument(probe_range, "File 'example' does not exist.") == "path"
    assert subject_argument(probe_range, "path: no such file") == "path"
    assert subject_argument(probe_range, "limit must be at most 50") == "limit"
    assert subject_argument(probe_range, "Nothing here.") == "limit"
    assert subject_argument(probe_range, "limit 51 is too big for path 'example'") == "limit"
    analysis = analyzer().analyze(Reply(probe_range, "result", False, "File 'example' does not exist."))
    [finding] = [f for f in build("s", [analysis]) if f.code == "AEM601"]
    assert finding.diagnostic.message.startswith("[read range call: reply about path='example'] the reply says the call failed")
    assert "limit" not in finding.diagnostic.message.split("]")[0]
    assert finding.details["argument"] == "path" and finding.details["probed_argument"] == "limit"


def test_quotes_keep_the_whole_sentence():
    from errlint.probe.report import quote

    text = ("Project 'errlint-missing-id-0000' was not found in the workspace index, so nothing could be loaded for it. "
            "Run list_projects. More text follows here.")
    assert quote(text, 60) == '"' + text.split(" Run")[0] + ' …"'
    assert quote("short", 60) == '"short"'
    assert quote("a\nb", 60) == '"a\\nb"'


def test_summary_table():
    a = analyzer()
    replies = [Reply(call(), "result", True, PYDANTIC), Reply(call("unknown-id", False), "protocol-error", True, "Invalid", code=-32602),
               Reply(call("range"), "timeout", False, "no reply within 1 s")]
    analyses = [a.analyze(r) for r in replies]
    run = ProbeRun(server="s", replies=replies, tools=[{"name": "get_issue"}],
                   skipped={"drop": "annotated destructiveHint: true; pass --allow-destructive to call it",
                            "a": "not in --tools", "b": "not in --tools"})
    found = build("s", analyses)
    text = summary(run, analyses, found, ["note: extra"])
    header, row = text.splitlines()[:2]
    assert header.split() == ["tool", "calls", "isError", "protocol", "timeout", "median", "tok", "max", "tok", "findings"]
    assert row.split() == ["get_issue", "3", "1/1", "1", "1", str((analyses[0].tokens + analyses[1].tokens) / 2).rstrip("0").rstrip("."),
                           str(analyses[0].tokens), str(len(found))]
    assert "skipped drop: annotated destructiveHint: true" in text
    assert "not selected by --tools: 2 tools (a, b)" in text and "skipped a" not in text
    assert "worst reply per tool:" in text and "get_issue [unknown-id issue_id=12345] protocol error" in text
    assert "state-changing tools called (not annotated readOnlyHint: true): get_issue (3 calls)" in text
    assert "note: extra" in text
    assert text.rstrip().splitlines()[-1].startswith(f"Found {len(found)} findings on 1 of 1 tools")


def test_without_the_mcp_sdk_the_command_says_what_to_install(monkeypatch):
    from errlint.probe.command import probe

    monkeypatch.setitem(sys.modules, "mcp", None)
    result = CliRunner().invoke(probe, ["--", "python", "server.py"])
    assert result.exit_code == 2
    assert "pip install 'errlint[probe]'" in result.output
    assert "errlint probe -- COMMAND" in result.output


def test_usage_errors_exit_2():
    from errlint.probe.command import probe

    runner = CliRunner()
    for args, needle in ((["--url", "https://example.com/mcp"], "not a loopback address"),
                         ([], "no server to probe"),
                         (["--timout", "3", "--", "python", "s.py"], "unknown option '--timout'"),
                         (["--arg", "project_id", "--", "python", "s.py"], "--arg 'project_id' is not NAME=VALUE"),
                         (["--arg", "=5", "--", "python", "s.py"], "--arg '=5' is not NAME=VALUE")):
        result = runner.invoke(probe, args)
        assert result.exit_code == 2, result.output
        assert needle in result.output
