"""`errlint probe` against real MCP servers started as stdio subprocesses (and one over HTTP).

The sample servers live in tests/probe_servers/. Needs the `mcp` SDK (mcp 2.x for the MCPServer
servers) and `fastmcp` for the FastMCP ones; each test skips cleanly without them.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("mcp")

from errlint import tokens  # noqa: E402
from errlint.probe.calls import OUTSIDE_ROOT  # noqa: E402
from errlint.probe.command import probe  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SERVERS = Path(__file__).resolve().parent / "probe_servers"


def needs_mcpserver():
    pytest.importorskip("mcp.server.mcpserver", reason="the MCPServer sample servers need mcp 2.x")


def needs_fastmcp():
    pytest.importorskip("fastmcp")


@pytest.fixture
def hooks(tmp_path, monkeypatch):
    """Point the sample servers' test hooks at tmp_path: the pid file and the folder of called tools."""
    called = tmp_path / "called"
    called.mkdir()
    pidfile = tmp_path / "server.pid"
    monkeypatch.setenv("ERRLINT_PROBE_CALLED", str(called))
    monkeypatch.setenv("ERRLINT_PROBE_PIDFILE", str(pidfile))
    monkeypatch.chdir(tmp_path)  # no project config applies
    return called, pidfile


def run_probe(tmp_path, server, *options, fmt="json"):
    """(exit code, diagnostics as dicts, summary text) of `errlint probe` on a sample server."""
    out = tmp_path / f"out.{fmt}"
    args = ["--output-format", fmt, "-o", str(out), *options, "--", sys.executable, str(SERVERS / server)]
    result = CliRunner().invoke(probe, args, catch_exceptions=False)
    text = out.read_text(encoding="utf-8") if out.exists() else ""
    found = json.loads(text) if fmt == "json" and text else []
    return result.exit_code, found, result.output


def tool_codes(found):
    """(tool, code) for each finding and each tool it stands for (a framework finding lists several)."""
    return {(tool, d["code"]) for d in found for tool in d["probe"]["tools"]}


def assert_gone(pidfile, wait=10.0):
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    pytest.fail(f"server process {pid} is still running after the probe")


BAD_SERVER_DEFECTS = {
    ("get_issue", "AEM404"),      # framework validation dump (pydantic)
    ("get_issue", "AEM101"),      # "Something went wrong."
    ("get_issue", "AEM201"),
    ("export_issue", "AEM601"),   # "Error: ..." returned as a success
    ("set_priority", "AEM602"),   # MCPError: a protocol error
    ("sync_issue", "AEM301"),     # API key in the text
    ("sync_issue", "AEM501"),     # "contact your administrator"
    ("search_issues", "AEM403"),  # schema dump
    ("search_issues", "AEM401"),  # over 120 tokens
    ("rename_issue", "AEM603"),   # ValueError masked by mcp >= 2.1
    ("close_issue", "AEM601"),    # value outside the enum accepted as a success
}


def test_bad_mcpserver_reports_every_planted_defect(tmp_path, hooks):
    needs_mcpserver()
    called, pidfile = hooks
    code, found, output = run_probe(tmp_path, "bad_server.py", "--allow-writes", "--allow-destructive", "--exclude-tools", "delete_issue")
    assert code == 1, output
    assert BAD_SERVER_DEFECTS <= tool_codes(found), output
    source = str(SERVERS / "bad_server.py")
    lines = (SERVERS / "bad_server.py").read_text().splitlines()
    # each finding sits in the server's source: where the tool writes the reply's text, else at the
    # tool's definition; the framework finding where the server object is made
    defs = {line[4:].split("(")[0]: row for row, line in enumerate(lines, 1) if line.startswith("def ")}
    for d in found:
        assert d["filename"] == source
        row = d["location"]["row"]
        if d["probe"]["origin"] == "server":
            start = defs[d["probe"]["tool"]]
            end = min([r for r in defs.values() if r > start] or [len(lines) + 1])
            assert start <= row < end, (d["message"], lines[row - 1])
        else:
            assert lines[row - 1].startswith("mcp = MCPServer("), lines[row - 1]
    [vague] = [d for d in found if d["code"] == "AEM101" and d["probe"]["tool"] == "get_issue"]
    assert lines[vague["location"]["row"] - 1].strip() == 'raise ToolError("Something went wrong.")'
    [returned] = [d for d in found if d["code"] == "AEM601" and d["probe"]["tool"] == "export_issue"]
    assert lines[returned["location"]["row"] - 1].strip() == 'return f"Error: issue {issue_id} not found"'
    [schema_dump] = [d for d in found if d["code"] == "AEM403"]
    assert schema_dump["message"].startswith("[search_issues empty-string query=''] the reply dumps a JSON schema")
    [oversized] = [d for d in found if d["code"] == "AEM401"]
    assert "o200k_base tokens" in oversized["message"] and "max-message-tokens = 120" in oversized["message"]
    # the framework's pydantic replies are one finding for the whole server, not one per tool
    [framework] = [d for d in found if d["probe"]["origin"] != "server"]
    assert framework["probe"]["origin"] == "framework: mcp 2.3.0 MCPServer (pydantic argument validation)".replace("2.3.0", mcp_version())
    assert framework["code"] == "AEM404" and {"get_issue", "close_issue"} <= set(framework["probe"]["tools"])
    assert "Subclass MCPServer and override `async def call_tool(self, name, arguments, context=None)`" in framework["suggestion"]
    # the excluded destructive tool is never called; the server is stopped
    assert "delete_issue" not in {t for t, _c in tool_codes(found)}
    assert not (called / "delete_issue").exists()
    assert "state-changing tools called (not annotated readOnlyHint: true): set_priority" in output
    assert_gone(pidfile)


def mcp_version():
    from importlib.metadata import version

    return version("mcp")


def test_safe_by_default_only_read_only_tools_are_called(tmp_path, hooks):
    needs_mcpserver()
    code, found, output = run_probe(tmp_path, "bad_server.py")
    assert {t for t, _c in tool_codes(found)} == {"get_issue", "export_issue", "search_issues"}
    assert "skipped delete_issue: annotated destructiveHint: true; pass --allow-destructive" not in output
    assert "skipped set_priority: not annotated readOnlyHint: true, so it may change state; pass --allow-writes" in output
    assert "state-changing tools called" not in output


def test_good_fastmcp_server_has_no_findings(tmp_path, hooks):
    needs_fastmcp()
    called, pidfile = hooks
    code, found, output = run_probe(tmp_path, "good_server.py")
    assert (code, found) == (0, []), output
    assert "All replies passed!" in output
    assert (called / "get_issue").exists() and not (called / "delete_issue").exists()
    assert_gone(pidfile)
    code, found, output = run_probe(tmp_path, "good_server.py", "--allow-writes", "--allow-destructive")
    assert (code, found) == (0, []), output


def test_bad_fastmcp_server(tmp_path, hooks):
    needs_fastmcp()
    code, found, output = run_probe(tmp_path, "bad_fastmcp_server.py")
    assert code == 1
    assert {("lookup_user", "AEM101"), ("user_report", "AEM601")} <= tool_codes(found), output
    assert "refresh_cache" not in {t for t, _c in tool_codes(found)}  # not read-only: not called by default
    code, found, output = run_probe(tmp_path, "bad_fastmcp_server.py", "--tools", "refresh_cache,lookup_user,user_report", "--allow-destructive")
    assert ("refresh_cache", "AEM603") in tool_codes(found), output
    # fastmcp's pydantic replies: one framework finding for the server, with the fix fastmcp 4.x has
    [framework] = [d for d in found if d["probe"]["origin"] != "server"]
    from importlib.metadata import version

    assert framework["probe"]["origin"] == f"framework: fastmcp {version('fastmcp')} (pydantic argument validation)"
    assert set(framework["probe"]["tools"]) == {"lookup_user", "user_report", "refresh_cache"}
    assert framework["code"] == "AEM404" and "Middleware" in framework["suggestion"] and "on_call_tool" in framework["suggestion"]
    assert not [d for d in found if d["probe"]["origin"] == "server" and d["code"] == "AEM404"]


def test_include_destructive_and_tool_filters(tmp_path, hooks):
    needs_fastmcp()
    called, _pidfile = hooks
    code, found, output = run_probe(tmp_path, "good_server.py", "--tools", "delete_issue,get_issue", "--exclude-tools", "get_issue",
                                    "--allow-destructive")
    assert (code, found) == (0, []), output
    assert sorted(p.name for p in called.iterdir()) == ["delete_issue"]
    assert "not selected by --tools: " in output and "skipped list_issues" not in output
    # with --tools, listing tools it does not name are not called for values either
    assert not (called / "list_issues").exists()


def test_unknown_tool_names_are_refused(tmp_path, hooks):
    needs_mcpserver()
    called, pidfile = hooks
    for option in ("--tools", "--exclude-tools"):
        code, _found, output = run_probe(tmp_path, "misc_server.py", option, "echo,ecko")
        assert code == 2
        assert f"{option} names 'ecko', which the server does not list; its tools are: hang, crash, echo" in output
    assert not list(called.iterdir())
    assert_gone(pidfile)


def test_per_call_timeout_and_termination(tmp_path, hooks):
    needs_mcpserver()
    _called, pidfile = hooks
    started = time.monotonic()
    code, found, output = run_probe(tmp_path, "misc_server.py", "--tools", "hang", "--timeout", "1")
    assert time.monotonic() - started < 30
    row = next(line for line in output.splitlines() if line.startswith("hang "))
    assert row.split()[1:5] == ["2", "1/1", "0", "1"]  # calls, isError, protocol, timeout
    assert_gone(pidfile)


def test_total_budget(tmp_path, hooks):
    needs_mcpserver()
    called, pidfile = hooks
    # 25 s: enough for a slow start on a loaded machine, well short of the 60 s hang
    code, _found, output = run_probe(tmp_path, "misc_server.py", "--tools", "hang,echo", "--timeout", "60", "--budget", "25")
    assert "the total budget of 25 s ran out" in output, output
    assert not (called / "echo").exists()
    assert_gone(pidfile)


def test_server_that_dies_mid_run(tmp_path, hooks):
    needs_mcpserver()
    called, pidfile = hooks
    code, _found, output = run_probe(tmp_path, "misc_server.py", "--tools", "crash,echo")
    assert "the server closed the connection during the call to crash" in output
    assert not (called / "echo").exists()
    assert_gone(pidfile)


def test_server_that_does_not_start(tmp_path):
    result = CliRunner().invoke(probe, ["--", sys.executable, "-c", "import sys; sys.stderr.write('no config file\\n'); sys.exit(3)"])
    assert result.exit_code == 2
    assert "stopped or failed before listing its tools" in result.output and "no config file" in result.output
    result = CliRunner().invoke(probe, ["--", "errlint-no-such-program"])
    assert result.exit_code == 2 and "no such file or program" in result.output


def test_example_server_from_the_readme(tmp_path, monkeypatch):
    needs_mcpserver()
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(probe, ["--output-format", "json", "-o", str(tmp_path / "o.json"), "--allow-writes", "--allow-destructive",
                                        "--", sys.executable, "examples/mcp_server.py"])
    assert result.exit_code == 1, result.output
    found = tool_codes(json.loads((tmp_path / "o.json").read_text()))
    assert {("set_status", "AEM602"), ("get_project", "AEM404"), ("sync_tracker", "AEM302"), ("sync_tracker", "AEM501")} <= found
    assert "list_projects" in result.output and "worst reply per tool:" in result.output


def test_concise_and_sarif_output(tmp_path, hooks):
    needs_mcpserver()
    code, _found, output = run_probe(tmp_path, "bad_server.py", "--tools", "export_issue", fmt="concise")
    lines = (tmp_path / "out.concise").read_text().splitlines()
    source = SERVERS / "bad_server.py"
    row = next(i for i, line in enumerate(source.read_text().splitlines(), 1) if 'return f"Error: issue {issue_id} not found"' in line)
    assert code == 1 and any(line.startswith(f"{source}:{row}:1: AEM601 [export_issue ") for line in lines), lines
    assert "not selected by --tools: 7 tools (get_issue, set_priority, sync_issue, search_issues, rename_issue, close_issue, delete_issue)" in output
    try:
        code, _found, _output = run_probe(tmp_path, "bad_server.py", "--tools", "export_issue", fmt="sarif")
    except NotImplementedError:
        pytest.skip("the SARIF renderer is not written yet")
    results = json.loads((tmp_path / "out.sarif").read_text())["runs"][0]["results"]
    assert code == 1 and "AEM601" in {r["ruleId"] for r in results}
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for r in results for loc in r["locations"]}
    assert uris and all(uri.endswith("bad_server.py") for uri in uris)


def test_reply_tokens_are_o200k_counts(tmp_path, hooks):
    needs_mcpserver()
    from errlint.config import Settings
    from errlint.probe.calls import plan_calls, select_tools
    from errlint.probe.client import Target, probe as run
    from errlint.probe.report import Analyzer, enabled_codes

    def plan(tools):
        keep, skipped = select_tools(tools, only=["search_issues", "get_issue"])
        return [c for t in keep for c in plan_calls(t)], skipped

    result = run(Target(command=(sys.executable, str(SERVERS / "bad_server.py"))), plan, timeout=10, budget=60)
    analyzer = Analyzer(Settings(), enabled_codes(Settings()), [t["name"] for t in result.tools])
    analyses = [analyzer.analyze(r) for r in result.replies]
    assert analyses and all(a.tokens == tokens.count(a.reply.text) for a in analyses)
    if tokens.backend() == "tiktoken":
        import tiktoken

        encoding = tiktoken.get_encoding("o200k_base")
        assert all(a.tokens == len(encoding.encode(a.reply.text, disallowed_special=())) for a in analyses)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_streamable_http_on_loopback(tmp_path, hooks):
    needs_mcpserver()
    port = free_port()
    server = subprocess.Popen([sys.executable, str(SERVERS / "bad_server.py"), "--http", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90  # importing mcp and starting uvicorn is slow on a loaded CI machine
        while time.monotonic() < deadline and server.poll() is None:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        out = tmp_path / "http.json"
        result = CliRunner().invoke(probe, ["--output-format", "json", "-o", str(out), "--url", f"http://127.0.0.1:{port}/mcp",
                                            "--tools", "set_priority,export_issue", "--allow-destructive"])
        assert result.exit_code == 1, result.output
        assert {("set_priority", "AEM602"), ("export_issue", "AEM601")} <= tool_codes(json.loads(out.read_text()))
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def state_log(tmp_path, monkeypatch):
    log = tmp_path / "calls.jsonl"
    monkeypatch.setenv("ERRLINT_PROBE_LOG", str(log))
    return log


def recorded(log):
    """The state server's own record of the calls it got: [(tool, arguments, cwd, home, tmpdir)]."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_state_server_by_default_only_the_read_only_tool_is_called(tmp_path, hooks, monkeypatch):
    needs_mcpserver()
    log = state_log(tmp_path, monkeypatch)
    before = sorted(p.name for p in tmp_path.iterdir())
    code, _found, output = run_probe(tmp_path, "state_server.py")
    calls = recorded(log)
    assert calls and {c["tool"] for c in calls} == {"read_note"}, output
    # the server ran in a fresh temporary folder, with HOME and TMPDIR inside it, removed afterwards
    root = os.path.dirname(calls[0]["cwd"])
    assert os.path.basename(root).startswith("errlint-probe-")
    assert {c["cwd"] for c in calls} == {os.path.join(root, "cwd")}
    assert {c["home"] for c in calls} == {os.path.join(root, "home")} and {c["tmpdir"] for c in calls} == {os.path.join(root, "tmp")}
    assert not os.path.exists(root)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(before + ["out.json", "calls.jsonl"])
    for tool in ("save_note", "wipe_notes", "touch_index"):
        assert f"skipped {tool}: not annotated readOnlyHint: true, so it may change state; pass --allow-writes or name it in --tools" in output
    assert "state-changing tools called" not in output


def test_state_server_allow_writes_calls_writes_but_not_destructive_tools(tmp_path, hooks, monkeypatch):
    needs_mcpserver()
    log = state_log(tmp_path, monkeypatch)
    code, _found, output = run_probe(tmp_path, "state_server.py", "--allow-writes")
    calls = recorded(log)
    assert {c["tool"] for c in calls} == {"read_note", "save_note"}, output
    assert "warning: --allow-writes: calling 1 tool not annotated readOnlyHint: true, which may change state: save_note" in output
    assert "skipped wipe_notes: annotated destructiveHint: true; pass --allow-destructive" in output
    assert "skipped touch_index: not annotated destructiveHint: false (the MCP default is true); pass --allow-destructive" in output
    # the outside-root path went to the read-only tool only, never to the write tool
    assert any(c["arguments"].get("path") == OUTSIDE_ROOT for c in calls if c["tool"] == "read_note")
    assert not any(OUTSIDE_ROOT in json.dumps(c["arguments"]) for c in calls if c["tool"] != "read_note")
    assert not os.path.exists(os.path.dirname(OUTSIDE_ROOT))
    # what it wrote stayed in the temporary folder, and the report says so
    assert "state-changing tools called (not annotated readOnlyHint: true): save_note (" in output
    assert "note: the server created" in output and "home/.notes-settings.json" in output
    assert not os.path.exists(os.path.expanduser("~/.notes-settings.json"))
    assert not list(tmp_path.glob("**/*.txt"))


def test_state_server_allow_destructive_and_tools_selection(tmp_path, hooks, monkeypatch):
    needs_mcpserver()
    log = state_log(tmp_path, monkeypatch)
    run_probe(tmp_path, "state_server.py", "--allow-writes", "--allow-destructive")
    assert {c["tool"] for c in recorded(log)} == {"read_note", "save_note", "wipe_notes", "touch_index"}
    log.unlink()
    run_probe(tmp_path, "state_server.py", "--include-destructive")  # the old flag: both
    assert {c["tool"] for c in recorded(log)} == {"read_note", "save_note", "wipe_notes", "touch_index"}
    log.unlink()
    # naming a write tool in --tools is consent for it; a destructive one still needs --allow-destructive
    code, _found, output = run_probe(tmp_path, "state_server.py", "--tools", "save_note,wipe_notes")
    assert {c["tool"] for c in recorded(log)} == {"save_note"}, output
    assert "warning: --tools: calling 1 tool not annotated readOnlyHint: true, which may change state: save_note" in output
    assert "skipped wipe_notes: annotated destructiveHint: true; pass --allow-destructive to call it" in output


def test_cwd_runs_the_server_in_the_given_folder(tmp_path, hooks, monkeypatch):
    needs_mcpserver()
    log = state_log(tmp_path, monkeypatch)
    work = tmp_path / "work"
    work.mkdir()
    run_probe(tmp_path, "state_server.py", "--cwd", str(work))
    calls = recorded(log)
    assert calls and {c["cwd"] for c in calls} == {str(work)} and {c["home"] for c in calls} == {os.environ["HOME"]}


DISGUISED = {"get_document": "Document example does not exist", "move_item": "Move Failed - item example is not in the inbox",
             "run_query": "Database error: no such table: example", "find_user": "User 'example' not found.",
             "check_token": "Invalid token format: 'example' should start with 'tok-'.",
             "open_file": "Failed to open example: no such file in the workspace.",
             "get_status": '{"status": "error", "message": "job errlint-missing-id-0000 is unknown"}',  # job_id='job-1' from list_jobs
             "get_record": '"error": {"code": 404, "message": "record example is missing"}',
             "get_batch": '{"error": "batch example not found"}', "save_flag": '{"success": false, "error": "flag example is not defined"}',
             "get_profile": "'NoneType' object has no attribute 'get'", "parse_config": "KeyError: 'example'",
             "lookup_order": "the tool found something for an id that does not exist (order_id='errlint-missing-id-0000')",
             "read_path": "the tool accepted an empty required `path`"}


def test_every_disguised_error_shape_is_reported_and_a_real_success_is_not(tmp_path, hooks):
    needs_mcpserver()
    code, found, output = run_probe(tmp_path, "disguise_server.py")
    assert code == 1
    success_as_error = {d["probe"]["tool"]: d for d in found if d["code"] == "AEM601"}
    assert set(success_as_error) == set(DISGUISED), output
    for tool, evidence in DISGUISED.items():
        d = success_as_error[tool]
        assert evidence in d["message"], d["message"]
        assert d["probe"]["origin"] == "server" and d["probe"]["isError"] is False
    # the whole sentence is quoted, and the finding names the argument the reply is about
    assert success_as_error["get_document"]["probe"]["argument"] == "document_id"
    assert success_as_error["get_document"]["probe"]["reproduce"]["jsonrpc"].startswith('{"jsonrpc": "2.0", "id": 1, "method": "tools/call"')
    assert "list_jobs" not in success_as_error
    assert not [d for d in found if d["probe"]["tool"] == "list_jobs" and d["probe"]["origin"] == "server"]


def test_valid_values_come_from_a_read_only_listing_tool(tmp_path, hooks, monkeypatch):
    needs_mcpserver()
    log = state_log(tmp_path, monkeypatch)
    code, found, output = run_probe(tmp_path, "listing_server.py")
    calls = recorded(log)
    assert calls[0] == {"tool": "list_projects", "arguments": {}}
    summaries = [c["arguments"] for c in calls if c["tool"] == "project_summary"]
    # every call that probes another argument sends a real project id
    assert summaries and all(a["project_id"] in ("PRJ-7", "", "errlint-missing-id-0000", "/errlint-probe-outside-roots/missing.txt")
                             for a in summaries), summaries
    assert any(a["project_id"] == "PRJ-7" for a in summaries)
    assert "note: valid values for the other arguments came from list_projects (1 argument-free call to read-only listing tools)" in output
    # --arg wins over a listed value
    log.unlink()
    run_probe(tmp_path, "listing_server.py", "--arg", "project_id=PRJ-9")
    assert {c["arguments"]["project_id"] for c in recorded(log) if c["tool"] == "project_summary"} >= {"PRJ-9"}
    assert "PRJ-7" not in {c["arguments"].get("project_id") for c in recorded(log)}


def test_mcp1_fastmcp_validation_is_one_framework_finding(tmp_path, hooks):
    """Needs an interpreter with `mcp<2` in ERRLINT_MCP1_PYTHON (e.g. a throwaway venv); skipped otherwise."""
    python = os.environ.get("ERRLINT_MCP1_PYTHON")
    if not python:
        pytest.skip("set ERRLINT_MCP1_PYTHON to a Python that has mcp<2 installed")
    out = tmp_path / "mcp1.json"
    result = CliRunner().invoke(probe, ["--output-format", "json", "-o", str(out), "--startup-timeout", "120", "--",
                                        python, str(SERVERS / "mcp1_server.py")], catch_exceptions=False)
    found = json.loads(out.read_text())
    [framework] = [d for d in found if d["probe"]["origin"] != "server"]
    assert framework["probe"]["origin"].startswith("framework: mcp 1.") and framework["probe"]["origin"].endswith(
        " FastMCP (pydantic argument validation)"), result.output
    assert set(framework["probe"]["tools"]) == {"count_notes", "note_title"} and framework["code"] == "AEM404"
    assert "override `async def call_tool(self, name, arguments)`" in framework["suggestion"]
