"""Issue 14 items 8, 9, 10 and 12 (second half): message prose judged by its structure
(errlint/prose.py), each kind with the issue's example and inputs of other shapes and frameworks.
Expected codes are after the one-verdict step (checks/verdict.py): one finding per family, at most
two about wording, and AEM201 dropped where AEM101/AEM102/AEM204 already carries the step.
"""
from __future__ import annotations

import re

import pytest

from conftest import at, codes

from errlint.packs import bundled
from errlint.prose import failure_statements, prescriptive, statements, status_only


def exact(src):
    return sorted(codes(src))



def test_item8_issue_example_click_unable_to_use_this_bundle():
    """The issue's example: '<unable to> <verb>' names nothing else, so it is generic."""
    src = '''
import click
@click.command()
@click.argument("bundle")
def main(bundle):
    if not bundle.endswith(".zip"):
        raise click.ClickException("Unable to use this bundle.")
'''
    # the message names the bundle but says neither which one nor what passes (.zip): both are owed
    assert exact(src) == ['AEM101', 'AEM202', 'AEM204']


def test_item8_fastapi_passive_could_not_be_processed():
    """A passive failure ('could not be processed') on an HTTP body."""
    src = '''
from fastapi import FastAPI, HTTPException, UploadFile
app = FastAPI()
@app.post("/upload")
async def upload(file: UploadFile):
    data = await file.read()
    if not data:
        raise HTTPException(status_code=400, detail="The upload could not be processed.")
    return {"ok": True}
'''
    assert exact(src) == ['AEM101']


def test_item8_library_noun_has_failed():
    """'<noun> has failed' in plain library code the caller can fix."""
    src = '''
def sync_all(store, since):
    if not store.sync(since):
        raise RuntimeError("The nightly sync has failed.")
'''
    assert exact(src) == ['AEM101']


def test_item8_fastmcp_was_rejected():
    """'was rejected' on an MCP tool error."""
    src = '''
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("docs")
@mcp.tool()
def publish(doc_id: str) -> str:
    if not doc_id.startswith("D"):
        raise ToolError("The document was rejected.")
    return doc_id
'''
    assert exact(src) == ['AEM101', 'AEM202']


def test_item8_argparse_not_a_valid_noun():
    """'not a valid <noun>' on a CLI exit message."""
    src = '''
import argparse, sys
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("when")
    args = ap.parse_args()
    if "T" not in args.when:
        sys.exit("Not a valid timestamp.")
'''
    assert exact(src) == ['AEM101', 'AEM202']


def test_item8_failure_that_names_value_object_or_step_is_not_generic():
    """Close shapes that name the value, a file, a command or the accepted form stay clear of AEM101."""
    src = '''
import click
@click.command()
@click.argument("bundle")
def main(bundle):
    if not bundle.endswith(".zip"):
        raise click.ClickException(f"Unable to use bundle {bundle!r}: it has no manifest.json; pass a .zip built by `tool pack`.")
    if bundle == "x":
        raise click.ClickException("Cannot parse 'abc' as a date; use YYYY-MM-DD.")
'''
    assert at(src) == [(9, 'AEM203')]


def test_item9_advice_fastapi_double_check_them():
    """The issue's second advice example: a pronoun object that refers to nothing concrete."""
    src = '''
from fastapi import FastAPI, HTTPException
app = FastAPI()
@app.post("/login")
def login(user: str, password: str):
    if not check(user, password):
        raise HTTPException(status_code=400, detail="Login failed: your credentials might be wrong; please double-check them.")
'''
    assert exact(src) == ['AEM102']


def test_item9_advice_click_review_what_you_entered():
    """'review what you entered': a review verb with no concrete object."""
    src = '''
import click
@click.command()
@click.option("--rows", type=int)
def main(rows):
    if rows < 0:
        raise click.ClickException("The import did not finish. Review what you entered.")
'''
    assert exact(src) == ['AEM102', 'AEM203']


def test_item9_advice_drf_make_sure_everything():
    """'make sure everything you typed is right' in a DRF validator."""
    src = '''
from rest_framework import serializers
class SignupSerializer(serializers.Serializer):
    email = serializers.CharField()
    def validate_email(self, value):
        if "@" not in value:
            raise serializers.ValidationError("Please make sure everything you typed is right.")
        return value
'''
    assert exact(src) == ['AEM102', 'AEM202', 'AEM204']


def test_item9_advice_cli_ensure_your_command_line():
    """'Ensure your command line is correct' on sys.exit."""
    src = '''
import sys
def main(argv):
    if len(argv) > 3:
        sys.exit("Too many paths. Ensure your command line is correct.")
'''
    assert exact(src) == ['AEM102', 'AEM202', 'AEM204']


def test_item9_advice_with_a_concrete_object_is_specific():
    """An env var, a file the pronoun refers to, a flag: each is a concrete object, so no AEM102."""
    src = '''
import sys
def main(argv, path):
    if not argv:
        sys.exit("Missing token. Check that `GITHUB_TOKEN` is set.")
    if len(argv) > 9:
        sys.exit("Could not read `settings.toml`; check it.")
    if argv[0] == "-":
        sys.exit("Verify --region is one of us-east-1, eu-west-1.")
'''
    assert at(src) == [(7, 'AEM202'), (7, 'AEM204')]


def test_item9_escalation_issue_example_get_in_touch_with_owner():
    """The issue's example: 'get in touch with your workspace owner' on a fixable input."""
    src = '''
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("ws")
@mcp.tool()
def invite(email: str) -> str:
    if "@" not in email:
        raise ToolError("Please get in touch with your workspace owner.")
    return email
'''
    assert exact(src) == ['AEM101', 'AEM202', 'AEM204', 'AEM501']


def test_item9_escalation_fastapi_email_a_support_address():
    """A directive to email a support address."""
    src = '''
from fastapi import FastAPI, HTTPException
app = FastAPI()
@app.post("/projects")
def create(name: str):
    if len(name) > 40:
        raise HTTPException(status_code=422, detail=f"Name {name!r} is too long. Email support@example.com for help.")
'''
    assert exact(src) == ['AEM204', 'AEM501']


def test_item9_escalation_click_talk_to_an_administrator():
    """'talk to your cluster administrator' on a click option the caller can change."""
    src = '''
import click
@click.command()
@click.option("--workers", type=int)
def main(workers):
    if workers > 10:
        raise click.ClickException(f"{workers} workers requested; talk to your cluster administrator.")
'''
    assert exact(src) == ['AEM204', 'AEM501']


def test_item9_escalation_on_a_transient_state_the_caller_can_wait_out():
    """The gate is 'the caller can recover': a timeout can be waited out."""
    src = '''
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("s")
@mcp.tool()
def search(q: str) -> str:
    try:
        return httpx.get("https://x.example/s", params={"q": q}).text
    except httpx.TimeoutException:
        raise ToolError("The search timed out. You should reach out to the maintainers.")
'''
    assert exact(src) == ['AEM101', 'AEM206', 'AEM501']


def test_item9_escalation_as_alternative_or_for_auth_is_not_flagged():
    """A person offered beside a step the caller can take, and an auth failure only a person can solve, get no AEM501 (and the directive to a person is the auth message's step, so no AEM201)."""
    src = '''
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("ws")
@mcp.tool()
def page(rows: list, page_size: int) -> list:
    if page_size > 200:
        raise ToolError(f"page_size={page_size} exceeds 200. Pass page_size <= 200, or ask a workspace owner to raise the limit.")
    try:
        return fetch(rows)
    except PermissionError:
        raise ToolError("Your role cannot read these rows; contact your administrator.")
'''
    assert at(src) == []


def test_item9_stop_mid_sentence_fastmcp():
    """'stop' anywhere in a sentence ('..., so stop here')."""
    src = '''
import re
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("p")
@mcp.tool()
def get_project(pid: str) -> str:
    if not re.fullmatch(r"[0-9a-f-]{36}", pid):
        raise ToolError(f"Project id {pid!r} is malformed, so stop here.")
    return pid
'''
    assert exact(src) == ['AEM204', 'AEM502']


def test_item9_stop_please_stop_and_click():
    """'Please stop and ...' in a click command."""
    src = '''
import click
@click.command()
@click.option("--format", "fmt")
def main(fmt):
    if fmt not in ("json", "csv"):
        raise click.ClickException(f"Unknown --format {fmt!r}. Please stop and use json or csv next time.")
'''
    assert exact(src) == ['AEM502']


def test_item9_stop_abort_now_typer_stderr():
    """'you must abort now' printed to stderr before typer.Exit."""
    src = '''
import typer
app = typer.Typer()
@app.command()
def run(limit: int):
    if limit > 99:
        typer.echo(f"limit {limit} is above 99; you must abort now.", err=True)
        raise typer.Exit(2)
'''
    assert exact(src) == ['AEM502']


def test_item9_stop_with_an_object_or_as_a_failure_is_not_giving_up():
    """'stop the server before ...' is a step; 'Failed to stop X' is a failure statement."""
    src = '''
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("p")
@mcp.tool()
def migrate(name: str) -> str:
    if name == "live":
        raise ToolError(f"Server {name!r} is running; stop the server before migrating, then call migrate again.")
    if name == "x":
        raise ToolError(f"Failed to stop {name!r}: it has no pid file. Call start_server first.")
    return name
'''
    assert exact(src) == []


def test_item10_issue_example_rather_than_is_a_description():
    """The issue's example: 'X rather than Y' describes the state, it prescribes nothing."""
    src = '''
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("x")
DRAFTS = {}
@mcp.tool()
def publish(draft_id: str) -> str:
    draft = DRAFTS[draft_id]
    if draft.state != "approved":
        raise ToolError(f"Draft {draft_id} is in review rather than approved")
    return "ok"
'''
    assert exact(src) == ['AEM201']


def test_item10_cannot_be_handled_is_a_description():
    """'Y cannot be handled' is a failure, not a requirement."""
    src = '''
import click
@click.command()
@click.argument("profile")
def main(profile):
    if profile.startswith("legacy-"):
        raise click.ClickException(f"Profile {profile!r} cannot be handled.")
'''
    assert exact(src) == ['AEM204']


def test_item10_one_of_the_known_values_lists_nothing():
    """'one of the known values' with no list after it."""
    src = '''
from fastapi import FastAPI, HTTPException
app = FastAPI()
@app.get("/weather")
def weather(region: str):
    data = lookup(region)
    if data is None:
        raise HTTPException(status_code=404, detail=f"Region {region!r} is not one of the known values")
    return data
'''
    assert exact(src) == ['AEM201']


def test_item10_do_not_retry_alone_is_not_a_step():
    """'Do not retry' with no fix is no next step (and tells the agent to give up on a fixable error)."""
    src = '''
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("x")
@mcp.tool()
def run_job(job_id: str) -> str:
    job = load(job_id)
    if job.locked:
        raise ToolError(f"Job {job_id} is locked by another run. Do not retry.")
    return job_id
'''
    assert exact(src) == ['AEM201', 'AEM502']


def test_item10_message_attribute_of_an_unknown_exception_is_not_a_requirement():
    """`e.message` counts as a requirement only from validators known to phrase one."""
    src = '''
import boto3
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("x")
@mcp.tool()
def put(key: str) -> str:
    try:
        boto3.client("s3").put_object(Bucket="b", Key=key)
    except ClientFailure as e:
        raise ToolError(f"Upload of {key!r} failed: {e.message}")
    return key
'''
    assert exact(src) == ['AEM201']


def test_item10_prescriptive_forms_still_count():
    """A jsonschema `.message`, 'use X rather than Y', 'not one of: a, b', 'cannot be negative' are steps."""
    src = '''
import jsonschema
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("x")
@mcp.tool()
def save(doc: dict) -> str:
    try:
        jsonschema.validate(doc, SCHEMA)
    except jsonschema.ValidationError as e:
        raise ToolError(f"Document rejected: {e.message}")
    if doc.get("kind") == "x":
        raise ToolError("Use 'report' rather than 'x' for kind.")
    if doc.get("mode") == "y":
        raise ToolError(f"mode {doc['mode']!r} is not one of: fast, safe.")
    if doc.get("n", 0) < 0:
        raise ToolError(f"n cannot be negative (got {doc['n']}).")
    return "ok"
'''
    assert at(src) == []


def test_item12_no_errors_found_on_stderr_is_status():
    """A negated failure printed to stderr is status output."""
    src = '''
import sys
def main(paths):
    if not lint(paths):
        print("No errors found.", file=sys.stderr)
'''
    assert exact(src) == []


def test_item12_zero_errors_typer_is_status():
    """'0 errors, 0 warnings' via typer.echo(err=True)."""
    src = '''
import typer
app = typer.Typer()
@app.command()
def check(path: str):
    if run(path) == 0:
        typer.echo("0 errors, 0 warnings", err=True)
'''
    assert exact(src) == []


def test_item12_no_changes_click_is_an_idle_notice():
    """An idle notice via click.echo(err=True)."""
    src = '''
import click
@click.command()
def sync():
    if not pending():
        click.echo("No changes to apply.", err=True)
        return
'''
    assert exact(src) == []


def test_item12_negated_failure_then_idle_notice_on_stderr():
    """A watcher's idle notice written to sys.stderr."""
    src = '''
import sys
def watch(root):
    while True:
        sys.stderr.write("No problems found; waiting for changes...\\n")
        wait(root)
'''
    assert exact(src) == []


def test_item12_missing_file_and_a_failing_exit_are_still_errors():
    """'No config file found' reports a failure; 'No errors found' followed by exit(1) is an error report."""
    src = '''
import sys
def main(paths):
    if not paths:
        print("No config file found.", file=sys.stderr)
    if bad(paths):
        print("No errors found.", file=sys.stderr)
        sys.exit(1)
'''
    assert at(src) == [(5, 'AEM201'), (7, 'AEM201')]


@pytest.mark.parametrize("text", [
    "Unable to use this bundle.", "Could not load the profile.", "The job has failed.", "Not a valid timestamp.",
    "The request was rejected.", "Cannot open the archive.",
])
def test_failure_statements_are_found_by_shape(text):
    assert failure_statements(text)


@pytest.mark.parametrize("text", ["Loaded 3 profiles.", "Use --force to overwrite.", "The archive is 12 MB."])
def test_non_failures_have_no_failure_statement(text):
    assert failure_statements(text) == []


@pytest.mark.parametrize("text, shape, found", [
    ("Please get in touch with your workspace owner.", "escalation", "get in touch with your workspace owner"),
    ("If it persists, contact your IT department.", "escalation", "contact your IT department"),
    ("You may need to ask an organization admin.", "escalation", "ask an organization admin"),
    ("Invalid id, so stop.", "stop", "stop"),
    ("The agent should stop retrying this call.", "stop", "stop"),
    ("Your credentials might be wrong; please double-check them.", "vague-advice", "double-check them"),
])
def test_shapes(text, shape, found):
    spans = statements(bundled()).shape(shape, text)
    assert [text[a:b] for a, b in spans] == [found]


@pytest.mark.parametrize("text, shape", [
    ("Failed to contact the server at db.internal.", "escalation"),
    ("Ask for a smaller page_size.", "escalation"),
    ("Run `svc stop` first.", "stop"),
    ("Failed to stop the worker.", "stop"),
    ("The bus stop is closed.", "stop"),
    ("Check that `GITHUB_TOKEN` is set.", "vague-advice"),
    ("Check with your administrator.", "vague-advice"),
])
def test_close_shapes_do_not_match(text, shape):
    assert statements(bundled()).shape(shape, text) == []


@pytest.mark.parametrize("text, expected", [
    ("No errors found.", True), ("0 failures", True), ("Found 0 errors.", True), ("All 12 checks passed.", True),
    ("Nothing to do.", True), ("Already up to date.", True), ("Waiting for changes...", True),
    ("No config file found.", False), ("3 errors found.", False), ("No errors allowed in strict mode; 2 found.", False),
])
def test_status_only(text, expected):
    assert status_only(text) is expected


@pytest.mark.parametrize("text", [
    "Failed; validate the FastMCP version.",  # a named product
    "Tesseract missing; check Tesseract installation.",
    "confirm must be set to true to delete a file",  # a parameter name, not a verb
    "CHECK must be followed by a parenthesized expression",  # an SQL keyword
    "Cannot determine package name from spec \ue000. Check package spec for errors.",  # points back at the shown spec
    "Invalid path. Make sure that it contains only letters and hyphens.",  # a stated constraint
])
def test_advice_found_on_real_code_that_is_specific(text):
    assert statements(bundled()).shape("vague-advice", text) == []


def test_item8_form_field_validators_library_internals_and_templates_are_not_generic():
    """WTForms shows a field validator's message beside the field; a library-internal raise is read
    by code; a loguru template and a None name values."""
    src = '''
from loguru import logger
from wtforms import ValidationError
class PhoneValidator:
    def __call__(self, form, field):
        if not field.data.isdigit():
            raise ValidationError("Not a valid phone number.")
def _compile(code):
    raise SyntaxError("Could not compile code")
def load(name):
    try:
        return fetch(name)
    except Exception as exc:
        logger.warning("Failed to load industry {}: {}", name, exc)
def check(outcome):
    if outcome.failed:
        raise RuntimeError("outcome failed but the exception is None")
'''
    assert "AEM101" not in codes(src)


@pytest.mark.parametrize("text, expected", [
    ("Profile \ue000 cannot be handled.", False), ("n cannot be negative (got \ue000).", True),
    ("--a cannot be combined with --b", True), ("Region \ue000 is not one of the known values", False),
    ("mode \ue000 is not one of: fast, safe.", True), ("Must provide one of these attributes: \ue000", True),
])
def test_prescriptive(text, expected):
    from errlint.checks.signals import Signals

    found = next(Signals(bundled()).allowed.finditer(text))
    assert prescriptive(text, found) is expected


def test_item10_escalation_with_do_not_retry_is_a_step_where_only_a_person_can_act():
    """'Do not retry' alone is no step, but with 'contact your administrator' on an error the caller
    cannot fix (a server-side key) the message prescribes what to do: no AEM201, and no AEM501."""
    src = '''
import os
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("t")
@mcp.tool()
def sync(project_id: str) -> str:
    if not os.environ.get("TRACKER_API_KEY"):
        raise ToolError("The tracker key is not configured on the server. Do not retry; contact your administrator.")
    return project_id
'''
    assert exact(src) == []


PERMISSION_GUARDS = {
    "robots_can_fetch": '''
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("fetch")
@mcp.tool()
def fetch(url: str) -> str:
    robots = Protego.parse(httpx.get(url + "/robots.txt").text)
    if not robots.can_fetch(url, "agent"):
        raise ToolError(f"robots.txt forbids autonomous fetching of {url}; tell the user to open it themselves.")
    return url
''',
    "django_has_perm": '''
from django.http import HttpResponseForbidden
def delete_report(request, report_id):
    if not request.user.has_perm("reports.delete_report"):
        return HttpResponseForbidden(f"Deleting report {report_id} needs the delete permission; ask a workspace admin.")
    return None
''',
    "policy_is_allowed": '''
import click
@click.command()
@click.argument("region")
def deploy(region):
    policy = load_policy(region)
    if not policy.is_allowed(region):
        raise click.ClickException(f"Deploying to {region} is outside the org policy; contact the platform team.")
''',
}


@pytest.mark.parametrize("name", sorted(PERMISSION_GUARDS))
def test_escalation_after_a_permission_query_is_not_flagged(name):
    """A guard that asks a policy whether the action is permitted (robots.txt, a user's permission, an
    org policy): the caller cannot change the answer by changing its input, so a person is the step."""
    src = PERMISSION_GUARDS[name]
    assert at(src, select=["AEM501", "AEM502"]) == []
    # the same message under a check on the input's form still hands a fixable error to a person
    fixable = src.replace("robots.can_fetch(url, \"agent\")", "url.startswith('https://')")
    fixable = fixable.replace("policy.is_allowed(region)", "region.startswith('eu-')")
    if name != "django_has_perm":  # its text names a permission: an auth failure either way
        assert [code for _, code in at(fixable, select=["AEM501"])] == ["AEM501"]


def test_a_message_naming_the_missing_input_states_the_step():
    """'Missing insight argument' tells the caller what to pass; 'Missing arguments' names nothing."""
    named = '''
from mcp.server.lowlevel import Server
from mcp.types import TextContent
server = Server("x")
@server.call_tool()
async def call(name: str, arguments: dict):
    if not arguments or "insight" not in arguments:
        raise ValueError("Missing insight argument")
    return [TextContent(type="text", text="ok")]
'''
    step = lambda src: codes(src, select=["AEM201"])  # noqa: E731  (alone: the verdict cap may keep AEM204 instead)
    assert step(named) == []
    assert step(named.replace("Missing insight argument", "Missing arguments")) == ["AEM201"]
    assert step(named.replace("Missing insight argument", "`insight` is required")) == []
    assert step(named.replace("Missing insight argument", "insight argument missing in arguments")) == []
    assert step(named.replace("Missing insight argument", "The argument is missing")) == ["AEM201"]


@pytest.mark.parametrize("text, delegated", [
    ("Table 'x' is not part of the schema. Stop here and let the user review the request.", True),
    ("Access denied; have your administrator verify the permissions.", True),
    ("Quota reached: the workspace owner should check the billing settings.", True),
    ("Ask a maintainer to double-check the configuration.", True),
    ("Upload failed. Please check your credentials.", False),
    ("The user list is stale; review the request and retry.", False),
])
def test_advice_a_person_is_to_follow_is_delegated(text, delegated):
    reader = statements(bundled())
    spans = reader.vague_advice(text) or [m.span() for m in re.finditer(r"(?:review|verify|check|double-check) the \w+", text)]
    assert spans, text
    assert reader.delegated(text, spans[0][0]) is delegated


@pytest.mark.parametrize("code", [
    # the agent is handed to the user: a stop and a hand-off, not vague advice to the agent
    "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('crm')\nTABLES = ('a', 'b')\n"
    "@mcp.tool()\ndef get(table: str) -> str:\n    if table not in TABLES:\n"
    "        raise ToolError(f\"Table '{table}' is unknown. Stop here and let the user review the request.\")\n    return table\n",
    "import click\n@click.command()\n@click.argument('plan')\ndef main(plan):\n    if plan != 'pro':\n"
    "        raise click.ClickException('Plan change refused; have your workspace owner verify the billing details.')\n",
])
def test_delegated_advice_is_no_vague_advice(code):
    found = codes(code)
    assert "AEM102" not in found and {"AEM501", "AEM502"} & set(found)
