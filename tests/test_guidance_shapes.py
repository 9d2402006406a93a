"""Agent guidance judged by structure (#14 kind 9), with inputs a hunter wrote against the rule docs:

- a hand-off to a person, ordered ("loop in your manager") or stated ("your administrator can help");
- giving up one's own work ("abort the task", "there is no point retrying", "don't run this again");
- a place only a person at the server can look ("the server console", "the Grafana dashboard");
- an auth failure (by its wording or by the 401/403 the sink answers with) needs a person: no AEM501;
- "if this persists" is a condition, not advice: the advice after it is judged on its own;
- a fatal error's text that denies a retry helps does not say to retry (AEM504);
- a noun that opens a message ("Limit too large.", "limit=5000 is ...") is no imperative step.
"""
from __future__ import annotations

import pytest

from conftest import at

GUARDED = """
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("x")


@mcp.tool()
def book(minutes: int) -> str:
    if minutes > 240:
        raise ToolError({text!r})
    return "ok"
"""


def codes_for(text: str, select) -> list:
    return [code for _, code in at(GUARDED.format(text=text), select=select)]


@pytest.mark.parametrize("text, expected", [
    ("A booking that long needs approval. Loop in your manager.", ["AEM501"]),
    ("Bookings over 4 hours are not allowed. Your administrator can help with this.", ["AEM501"]),
    ("Too long for one room. The facilities team will sort it out, so bring in the office manager.", ["AEM501"]),
    ("minutes must be at most 240; your manager can see the booking in the calendar.", []),  # no hand-off
])
def test_a_hand_off_to_a_person(text, expected):
    assert codes_for(text, ["AEM501"]) == expected


@pytest.mark.parametrize("text, expected", [
    ("A booking of that length is too long. There is no point retrying; abort the task.", ["AEM502"]),
    ("minutes is too large. Please don't run this tool again.", ["AEM502"]),
    ("minutes is too large. Don't bother retrying.", ["AEM502"]),
    ("minutes must be at most 240; stop the timer first if one is running.", []),  # an object: an action, not giving up
])
def test_giving_up_ones_own_work(text, expected):
    assert codes_for(text, ["AEM502"]) == expected


@pytest.mark.parametrize("text, expected", [
    ("Booking failed. Look at the server console to find out why.", ["AEM503"]),
    ("Booking failed; view the Grafana dashboard for details.", ["AEM503"]),
    ("Booking failed; the details are in the server log.", ["AEM503"]),
    ("Booking failed; call list_rooms to see which rooms are free.", []),
])
def test_a_place_only_a_person_at_the_server_sees(text, expected):
    assert codes_for(text, ["AEM503"]) == expected


@pytest.mark.parametrize("status, detail, expected", [
    (401, "Invalid API key. Contact your administrator for a new key.", []),
    (403, "This workspace is read-only for you. Ask your admin for write access.", []),
    (400, "Invalid date format. Contact your administrator.", [(9, "AEM501")]),
])
def test_an_auth_failure_needs_a_person(status, detail, expected):
    code = f"""
    from fastapi import FastAPI, Header, HTTPException
    app = FastAPI()
    KEYS = {{"k1"}}

    @app.get("/data")
    def data(day: str, x_api_key: str = Header()):
        if x_api_key not in KEYS or len(day) != 10:
            raise HTTPException(status_code={status}, detail={detail!r})
        return {{}}
    """
    assert at(code, select=["AEM501"]) == expected


@pytest.mark.parametrize("text", [
    "Authentication failed for this account; ask your workspace admin to re-enable it.",
    "Invalid credentials: please contact your administrator.",
    "The token has expired. Contact support to get a new one.",
    # by what failed and how, in either order
    "Your API key was revoked; ask your administrator for a new one.",
    "Incorrect password. Contact your administrator.",
    "Credentials rejected by the server; ask your admin to re-issue them.",
    "Insufficient scopes on the token: ask the workspace owner to grant repo access.",
])
def test_auth_wording_needs_a_person(text):
    code = f"""
    import click

    @click.command()
    @click.argument("user")
    def login(user):
        if user not in USERS:
            raise click.ClickException({text!r})
    """
    assert at(code, select=["AEM501"]) == []


@pytest.mark.parametrize("text, expected", [
    ("Unexpected server failure; our team has been notified. Contact support if this persists.", []),
    ("Export failed. If the problem persists, restart the worker with `make restart`.", []),
    ("Export failed. If the problem persists, see the documentation.", ["AEM102"]),  # the advice itself is vague
])
def test_a_condition_is_not_advice(text, expected):
    code = f"def export():\n    raise RuntimeError({text!r})\n"
    assert [c for _, c in at(code, select=["AEM102"])] == expected


@pytest.mark.parametrize("text, expected", [
    ("Document {d} was deleted by its owner; retrying will not bring it back.", []),
    ("Document {d} is gone; there is no use retrying.", []),
    ("Document {d} is gone for good, and a retry cannot succeed.", []),
    ("Document {d} is locked; retry in a few minutes.", ["AEM504"]),
    ("Document {d} is locked; do not retry now, but try again tomorrow.", ["AEM504"]),
])
def test_a_fatal_errors_text_that_denies_a_retry(text, expected):
    code = f"from arcade_tdk.errors import FatalToolError\n\n\ndef open_doc(d):\n    raise FatalToolError(f{text!r})\n"
    assert [c for _, c in at(code, select=["AEM504"])] == expected


@pytest.mark.parametrize("opening", ["limit={limit} is above the maximum page size.", "Limit too large.", "Update too large.",
                                     "Limit {limit} is above the maximum."])
def test_a_noun_opening_is_no_step_beside_a_hand_off(opening):
    code = f"""
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")

    @mcp.tool()
    def notes(limit: int = 20) -> list:
        if limit > 100:
            raise ToolError(f"{opening} Please reach out to the workspace owner.")
        return []
    """
    assert at(code, select=["AEM501"]) == [(9, "AEM501")]


def test_an_imperative_opening_is_a_step_beside_a_hand_off():
    code = """
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")

    @mcp.tool()
    def notes(limit: int = 20) -> list:
        if limit > 100:
            raise ToolError("Limit the page to 100 notes, or ask the workspace owner to raise the cap.")
        return []
    """
    assert at(code, select=["AEM501"]) == []


@pytest.mark.parametrize("step", ["Sort by 'relevance' or 'date'", "Filter by status=open", "Refine the terms",
                                  "Page through the results with cursor=", "Cancel the export with cancel_export()"])
def test_a_step_beside_a_hand_off_is_self_service(step):
    code = f"""
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")

    @mcp.tool()
    def search(query: str, limit: int = 50) -> list:
        if limit > 100:
            raise ToolError(f"limit={{limit}} is not allowed. {step}, or contact support.")
        return []
    """
    assert at(code, select=["AEM501"]) == []


@pytest.mark.parametrize("text, expected", [
    ("There is no point retrying with the same id; call list_projects and pass one of its ids.", []),
    ("Don't bother retrying with this id: call list_projects and pass one of its ids.", []),
    ("Don't abort the task: call list_workflows and pass one of its ids.", []),
    ("Halt the workflow run with cancel_run(run_id), then call again.", []),
    ("No project with that id. Abandon ship and stop here.", ["AEM502"]),
])
def test_a_denial_of_the_same_call_or_a_negated_stop_is_not_giving_up(text, expected):
    code = f"""
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")

    @mcp.tool()
    def get(pid: str) -> str:
        if pid not in PROJECTS:
            raise ToolError({text!r})
        return "ok"
    """
    assert [c for _, c in at(code, select=["AEM502"])] == expected


@pytest.mark.parametrize("text", ["Booking failed; view the server console with server_log(tail=100).",
                                  "Booking failed; check the Grafana dashboard with `get_dashboard`."])
def test_a_tool_beside_the_place_is_its_equivalent(text):
    assert codes_for(text, ["AEM503"]) == []


@pytest.mark.parametrize("status", ["status.HTTP_403_FORBIDDEN", "HTTPStatus.FORBIDDEN", "status.HTTP_401_UNAUTHORIZED"])
def test_an_auth_status_written_as_a_constant(status):
    code = f"""
    from http import HTTPStatus
    from fastapi import FastAPI, HTTPException, status
    app = FastAPI()

    @app.get("/data")
    def data(day: str):
        if len(day) != 10:
            raise HTTPException(status_code={status}, detail="Ask your admin for access to this dataset.")
        return {{}}
    """
    assert at(code, select=["AEM501"]) == []


@pytest.mark.parametrize("text", ["It makes no sense to retry.", "Even if you retry, it will fail the same way.",
                                  "No retry can recover the deleted file."])
def test_more_denied_retries(text):
    code = f"from arcade_tdk.errors import FatalToolError\n\n\ndef open_doc(d):\n    raise FatalToolError({text!r})\n"
    assert at(code, select=["AEM504"]) == []
