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
    return {(d["filename"].rsplit("/", 1)[-1], d["code"]) for d in found}


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
    code, found, output = run_probe(tmp_path, "bad_server.py")
    assert code == 1, output
    assert BAD_SERVER_DEFECTS <= tool_codes(found), output
    assert all(d["filename"].startswith("mcp://bad-issues/") for d in found)
    assert all(d["location"] == {"row": 1, "column": 1} for d in found)
    [schema_dump] = [d for d in found if d["code"] == "AEM403"]
    assert schema_dump["message"].startswith("[empty-string query=''] the reply dumps a JSON schema")
    [oversized] = [d for d in found if d["code"] == "AEM401"]
    assert "o200k_base tokens" in oversized["message"] and "max-message-tokens = 120" in oversized["message"]
    # the destructive tool is skipped and never called; the server is stopped
    assert "delete_issue" not in {t for t, _c in tool_codes(found)}
    assert not (called / "delete_issue").exists()
    assert "skipped delete_issue: annotated destructiveHint: true" in output
    assert_gone(pidfile)


def test_good_fastmcp_server_has_no_findings(tmp_path, hooks):
    needs_fastmcp()
    called, pidfile = hooks
    code, found, output = run_probe(tmp_path, "good_server.py")
    assert (code, found) == (0, []), output
    assert "All replies passed!" in output
    assert (called / "get_issue").exists() and not (called / "delete_issue").exists()
    assert_gone(pidfile)


def test_bad_fastmcp_server(tmp_path, hooks):
    needs_fastmcp()
    code, found, output = run_probe(tmp_path, "bad_fastmcp_server.py")
    assert code == 1
    assert {("lookup_user", "AEM404"), ("lookup_user", "AEM101"), ("user_report", "AEM601"),
            ("refresh_cache", "AEM603")} <= tool_codes(found), output


def test_include_destructive_and_tool_filters(tmp_path, hooks):
    needs_fastmcp()
    called, _pidfile = hooks
    code, found, output = run_probe(tmp_path, "good_server.py", "--tools", "delete_issue,get_issue", "--exclude-tools", "get_issue",
                                    "--include-destructive")
    assert (code, found) == (0, []), output
    assert sorted(p.name for p in called.iterdir()) == ["delete_issue"]


def test_read_only_only(tmp_path, hooks):
    needs_mcpserver()
    called, _pidfile = hooks
    code, found, output = run_probe(tmp_path, "bad_server.py", "--read-only-only")
    assert code == 1
    assert {p.name for p in called.iterdir()} <= {"get_issue", "export_issue", "search_issues"}
    assert {t for t, _c in tool_codes(found)} == {"get_issue", "export_issue", "search_issues"}
    assert "skipped set_priority: not annotated readOnlyHint: true" in output


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
    # the budget also bounds the server's start, which takes several seconds on a loaded CI machine
    code, _found, output = run_probe(tmp_path, "misc_server.py", "--tools", "hang,echo", "--timeout", "60", "--budget", "25")
    assert "the total budget of 25 s ran out" in output
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
    result = CliRunner().invoke(probe, ["--output-format", "json", "-o", str(tmp_path / "o.json"), "--", sys.executable, "examples/mcp_server.py"])
    assert result.exit_code == 1, result.output
    found = tool_codes(json.loads((tmp_path / "o.json").read_text()))
    assert {("set_status", "AEM602"), ("get_project", "AEM404"), ("sync_tracker", "AEM302"), ("sync_tracker", "AEM501")} <= found
    assert "list_projects" in result.output and "worst reply per tool:" in result.output


def test_concise_and_sarif_output(tmp_path, hooks):
    needs_mcpserver()
    code, _found, output = run_probe(tmp_path, "bad_server.py", "--tools", "export_issue", fmt="concise")
    lines = (tmp_path / "out.concise").read_text().splitlines()
    assert code == 1 and any(line.startswith("mcp://bad-issues/export_issue:1:1: AEM601 [") for line in lines)
    try:
        code, _found, _output = run_probe(tmp_path, "bad_server.py", "--tools", "export_issue", fmt="sarif")
    except NotImplementedError:
        pytest.skip("the SARIF renderer is not written yet")
    results = json.loads((tmp_path / "out.sarif").read_text())["runs"][0]["results"]
    assert code == 1 and "AEM601" in {r["ruleId"] for r in results}
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for r in results for loc in r["locations"]}
    assert uris and all(uri.endswith("bad-issues/export_issue") for uri in uris)  # mcp://bad-issues/export_issue


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
                                            "--tools", "set_priority,export_issue"])
        assert result.exit_code == 1, result.output
        assert {("set_priority", "AEM602"), ("export_issue", "AEM601")} <= tool_codes(json.loads(out.read_text()))
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
