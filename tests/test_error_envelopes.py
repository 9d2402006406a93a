"""Error envelopes (`extract/error_envelopes.py`): a returned dict that reports a failure in its own
fields. AEM601 reports the envelope as a success the client cannot tell from data, and the prose
rules read its text field as they read a raised message. A field of an ordinary reply that happens to
be called `message` (a chat completion's) is data, not an upstream's error text.
"""
from __future__ import annotations

import pytest

from conftest import at, codes

TOOL = """
from fastmcp import FastMCP
mcp = FastMCP("x")


@mcp.tool()
def send(to: str) -> dict:
    try:
        deliver(to)
    except OSError as e:
        return {body}
    return {{"success": True}}
"""


@pytest.mark.parametrize("body", [
    '{"success": False, "message": f"Could not send mail to {to}: {e}"}',
    '{"ok": False, "error": str(e), "retry": False}',
    '{"status": "error", "detail": f"delivery failed: {e}"}',
    '{"succeeded": False, "reason": str(e)}',
])
def test_an_envelope_in_a_handler_is_a_success_to_the_client(body):
    assert at(TOOL.format(body=body), select=["AEM601"]) == [(11, "AEM601")]


@pytest.mark.parametrize("body", [
    '{"success": True, "message": "Sent."}',  # the flag says it worked
    '{"isError": True, "content": [{"type": "text", "text": str(e)}]}',  # the protocol's own flag
    '{"error": None, "sent": 0}',  # no error text
])
def test_a_dict_that_says_it_worked_or_flags_itself_is_not_an_envelope(body):
    assert at(TOOL.format(body=body), select=["AEM601"]) == []


def test_a_failed_status_outside_a_handler_is_the_state_of_what_the_tool_reports():
    code = """
    from fastmcp import FastMCP
    mcp = FastMCP("x")

    @mcp.tool()
    def job(job_id: str) -> dict:
        found = JOBS[job_id]
        if found.broken:
            return {"status": "failed", "message": found.last_error}
        return {"status": "running"}
    """
    assert at(code, select=["AEM601"]) == []


def test_the_prose_rules_read_the_envelope_text():
    code = """
    from fastmcp import FastMCP
    mcp = FastMCP("x")
    MANAGED = {"prod", "dev"}

    @mcp.tool()
    def scale(namespace: str, replicas: int) -> dict:
        if namespace not in MANAGED:
            return {"error": f"Namespace {namespace} is not one we manage. Escalate this to the platform team."}
        if replicas > 50:
            return {"ok": False, "message": f"replicas={replicas} is too many. Please reach out to your admin."}
        return {"ok": True}
    """
    assert at(code, select=["AEM501", "AEM601"]) == [(9, "AEM501"), (9, "AEM601"), (11, "AEM501"), (11, "AEM601")]


def test_a_helpers_envelope_returned_by_a_tool(tmp_path):
    # the helper path (a helper's error reply that a tool returns) reads envelopes the same way
    from errlint.extract.error_envelopes import envelope_text
    import libcst as cst

    for source, text in [('{"success": False, "message": "m"}', '"m"'), ('{"error": "e", "message": "m"}', '"e"'),
                         ('{"status": "failed", "reason": "r"}', '"r"'), ('{"ok": True, "error": "e"}', None),
                         ('{"message": "hello"}', None)]:
        found = envelope_text(cst.parse_expression(source))
        assert (cst.Module([]).code_for_node(found) if found is not None else None) == text, source


@pytest.mark.parametrize("reply", [
    'r.json()["choices"][0]["message"]["content"]',  # OpenAI chat completion
    'r.json()["message"]["content"]',  # Ollama chat
    'data["messages"][-1]["message"]',  # the last record of a list
])
def test_a_chat_reply_field_named_message_is_data(reply):
    code = f"""
    import httpx
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")

    @mcp.tool()
    def ask(prompt: str) -> str:
        r = httpx.post("http://localhost:11434/api/chat", json={{"prompt": prompt}})
        data = r.json()
        if r.status_code == 404:
            raise ToolError("The model is not pulled; run `ollama pull llama3`.")
        return {reply}
    """
    assert codes(code, select=["AEM601"]) == []


def test_an_upstream_error_field_is_still_error_text():
    code = """
    import httpx
    from fastmcp import FastMCP
    mcp = FastMCP("x")

    @mcp.tool()
    def ask(prompt: str) -> str:
        r = httpx.post("https://api.example.com/v1/ask", json={"prompt": prompt})
        if r.status_code != 200:
            return f"Failed: {r.json()['error']['message']}"
        return r.text
    """
    assert at(code, select=["AEM601"]) == [(10, "AEM601")]


@pytest.mark.parametrize("body, expected", [
    # in a handler it reports the exception caught there, whatever payload stands beside the flag
    # (CloudWatch's query tool: two of three blind reviewers called it a TP)
    ('{"queryId": qid, "status": "Error", "message": f"Error while polling: {e}", "results": []}', [(11, "AEM601")]),
    ('{"success": False, "message": str(e), "items": [], "next_page": None}', [(11, "AEM601")]),
    # only what describes the error beside the flag: an envelope
    ('{"status": "failed", "message": str(e), "code": "POLL_FAILED", "hint": "call get_query again"}', [(11, "AEM601")]),
    # an `error` field is error text whatever stands beside it
    ('{"queryId": qid, "error": str(e), "results": []}', [(11, "AEM601")]),
])
def test_a_flagged_result_in_a_handler(body, expected):
    code = TOOL.replace("def send(to: str) -> dict:", "def send(to: str, qid: str = '') -> dict:").format(body=body)
    assert at(code, select=["AEM601"]) == expected


@pytest.mark.parametrize("body, in_handler", [
    ('{"valid": False, "error": str(e)}', True),  # a validating tool's verdict
    ('{"job_id": to, "status": "failed", "error": e.reason, "log_url": LOGS}', False),  # a job's state
    ('{"passed": False, "message": f"{to} is not an address"}', True),
])
def test_a_verdict_or_a_things_state_is_the_answer(body, in_handler):
    code = TOOL.format(body=body)
    if not in_handler:
        code = code.replace("    try:\n        deliver(to)\n    except OSError as e:\n        return", "    e = JOBS[to]\n    if e.failed:\n        return")
    assert at(code, select=["AEM601"]) == []


def test_a_flagged_result_that_carries_its_payload_outside_a_handler_is_the_tools_schema():
    # aws-pricing's analyzer: `{"status": "error", "services": [], "message": ...}` under a check of the
    # path; the tool's result always has this shape, and its reader is told to read `status`
    code = """
    from fastmcp import FastMCP
    mcp = FastMCP("x")

    @mcp.tool()
    def analyze(path: str) -> dict:
        if not exists(path):
            return {"status": "error", "services": [], "message": f"Project path does not exist: {path}"}
        if not readable(path):
            return {"status": "error", "message": f"Project path is not readable: {path}"}
        return {"status": "success", "services": scan(path), "message": "ok"}
    """
    assert at(code, select=["AEM601"]) == []


@pytest.mark.parametrize("where, expected", [("handler", [(9, "AEM601")]), ("guard", [])])
def test_a_helpers_flagged_result_with_its_payload(where, expected):
    # CloudWatch's polling helper returns the query's result shape from its except handler, and the tool
    # returns the helper's value: in a handler it reports the caught exception
    failing = ("    try:\n        return poll(qid)\n    except Exception as e:\n" if where == "handler"
               else "    if not qid:\n        e = 'no id'\n")
    code = ("from fastmcp import FastMCP\nmcp = FastMCP('x')\n\n\ndef wait_for(qid):\n" + failing +
            "        return {'queryId': qid, 'status': 'Error', 'message': f'Error while polling: {e}', 'results': []}\n"
            "    return poll(qid)\n\n\n@mcp.tool()\ndef query(qid: str) -> dict:\n    return wait_for(qid)\n")
    assert at(code, select=["AEM601"]) == expected  # reported at the helper's literal
