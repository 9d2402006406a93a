"""Three more kinds the condition models missed.

- A parser errlint does not know (`croniter(cron)`, `shlex.split(cmd)`, `Fraction(text)`) is still a
  validating `try` when its handler catches only what rejected text raises: the echo expectation
  (AEM202) applies. A broad `except Exception` around an unknown call stays no guard.
- A failure is also stated by an adjective that judges the noun ("Bad schedule", "Wrong format",
  "Malformed header", "Unsupported file"): with nothing else named, AEM101.
- A hand-off to a person is no step of the reader's own: "We couldn't process this request. If the
  problem persists, please reach out to your workspace administrator." is generic (AEM101) as well as
  an escalation (AEM501).
- Lines and rows read from a file, listed or filtered (`list(csv.DictReader(fh))`, `[r for r in rows
  if ...]`, `[line for line in fh]`), are as many as the file has: AEM402.
"""
from __future__ import annotations

import pytest
from conftest import PREVIEW, lint


def found(code: str, select):
    return sorted((d.location.row, d.code) for d in lint(code, select=select, settings=PREVIEW))


# ---------------------------------------------------------------------- unknown parsers
@pytest.mark.parametrize("setup, call, caught, subject", [
    ("from croniter import croniter", "croniter(cron)", "(ValueError, KeyError)", "cron"),
    ("import shlex", "shlex.split(cron)", "ValueError", "cron"),
    ("from fractions import Fraction", "Fraction(cron)", "(ValueError, TypeError)", "cron"),
])
def test_an_unknown_parser_is_a_validating_try(setup, call, caught, subject):
    code = (f"{setup}\nfrom fastmcp import FastMCP\n\nmcp = FastMCP('jobs')\n\n\n@mcp.tool()\ndef schedule(cron: str) -> str:\n"
            f"    try:\n        value = {call}\n    except {caught}:\n        raise ValueError('That schedule is not usable.')\n    return str(value)\n")
    diagnostics = lint(code, select=["AEM202"], settings=PREVIEW)
    assert [(d.location.row, d.message.split(";")[0]) for d in diagnostics] == [(12, f"the message does not show the rejected value of `{subject}`")]


def test_a_broad_handler_around_an_unknown_call_is_no_guard():
    code = ("from fastmcp import FastMCP\n\nmcp = FastMCP('jobs')\n\n\n@mcp.tool()\ndef sync(repo: str) -> str:\n"
            "    try:\n        pull(repo)\n    except Exception:\n        raise ValueError('That repository is not usable.')\n    return 'ok'\n")
    assert found(code, ["AEM202"]) == []


# ---------------------------------------------------------------------- judging adjectives
@pytest.mark.parametrize("text", ["Bad schedule", "Wrong format.", "Malformed header", "Unsupported file", "Incorrect value"])
def test_a_judging_adjective_states_a_failure(text):
    code = f"import click\n\n\n@click.command()\n@click.argument('spec')\ndef main(spec):\n    if ':' not in spec:\n        raise click.UsageError({text!r})\n"
    assert found(code, ["AEM101"]) == [(8, "AEM101")]


@pytest.mark.parametrize("text", [
    "The request is invalid.", "The file appears to be corrupt.", "This doesn't look right.", "That value won't work.",
    "The value you entered is not valid.", "There was a problem with your request.", "An issue occurred while handling the file.",
    "We hit a snag.", "Error processing request",
])
def test_a_judgment_or_trouble_stated_by_shape(text):
    code = f"import click\n\n\n@click.command()\n@click.argument('spec')\ndef main(spec):\n    if ':' not in spec:\n        raise click.UsageError({text!r})\n"
    assert found(code, ["AEM101"]) == [(8, "AEM101")]


@pytest.mark.parametrize("text", [
    "'Failed to load the configuration file'",
    "'The export file appears to be corrupt at byte 12'",
    "'There was a problem with the proxy certificate chain'",
    "f'Unknown zone {spec!r}; use an IANA name such as Europe/Oslo'",
    "'Unsupported spec: pass NAME:VERSION, e.g. requests:2.31'",
    "'Bad spec: the version after the colon is missing in requests:'",
])
def test_a_judging_adjective_with_specifics_is_not_generic(text):
    code = f"import click\n\n\n@click.command()\n@click.argument('spec')\ndef main(spec):\n    if ':' not in spec:\n        raise click.UsageError({text})\n"
    assert found(code, ["AEM101"]) == []


# ---------------------------------------------------------------------- hand-offs are no steps
@pytest.mark.parametrize("text, generic, escalation", [
    ("We couldn't process this request. If the problem persists, please reach out to your workspace administrator.", True, True),
    ("Unable to process your request; contact your administrator.", True, True),
    ("Could not save the draft. Please contact support.", True, True),
    ("Draft 12 could not be saved because the folder is locked. Contact the folder owner.", False, True),
    ("Could not save the draft. Contact support, or pass overwrite=True to replace the copy.", False, False),
])
def test_a_hand_off_is_no_step_of_the_readers_own(text, generic, escalation):
    code = ("from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n\nmcp = FastMCP('d')\n\n\n@mcp.tool()\n"
            f"def save(draft_id: str) -> str:\n    if not draft_id.startswith('d-'):\n        raise ToolError({text!r})\n    return 'ok'\n")
    assert found(code, ["AEM101"]) == ([(10, "AEM101")] if generic else [])
    assert found(code, ["AEM501"]) == ([(10, "AEM501")] if escalation else [])


# ---------------------------------------------------------------------- rows read from a file
ROWS = '''\
import csv
import sys


def main(path):
    with open(path, newline="", encoding="utf-8") as fh:
        {read}
    if {test}:
        print(f"import: {{len(bad)}} rows of {{path}} are incomplete: {{{shown}}}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
'''


@pytest.mark.parametrize("read, test, shown", [
    ("rows = list(csv.DictReader(fh))\n    bad = [row for row in rows if not row.get('email')]", "bad", "bad"),
    ("rows = list(csv.reader(fh))\n    bad = [r for r in rows if len(r) < 3]", "bad", "bad"),
    ("bad = [line for line in fh if ',' not in line]", "bad", "bad"),
    ("rows = sorted(csv.DictReader(fh), key=len)\n    bad = rows", "len(rows) > 1000", "rows"),
    ("rows = list(csv.DictReader(fh))\n    bad = [(n, r) for n, r in enumerate(rows, start=2) if not r.get('email')]\n"
     "    listing = '\\n'.join(f'  line {n}: {r!r}' for n, r in bad)", "bad", "listing"),
])
def test_rows_read_from_a_file_are_unbounded(read, test, shown):
    code = ROWS.format(read=read, test=test, shown=shown)
    row = code.splitlines().index(next(line for line in code.splitlines() if "print(" in line)) + 1
    assert found(code, ["AEM402"]) == [(row, "AEM402")]


def test_a_count_of_the_rows_is_bounded():
    code = ROWS.format(read="rows = list(csv.DictReader(fh))\n    bad = [row for row in rows if not row.get('email')]", test="bad", shown="len(rows)")
    assert found(code, ["AEM402"]) == []


def test_a_file_object_itself_is_bounded():
    code = "import sys\n\n\ndef main(path):\n    fh = open(path)\n    if not fh.readable():\n        print(f'cannot read {fh}', file=sys.stderr)\n        return 1\n    return 0\n"
    assert found(code, ["AEM402"]) == []


def test_an_operation_on_several_inputs_is_no_parse():
    code = ("import click\n\n\n@click.command()\n@click.argument('path')\n@click.argument('table')\ndef main(path, table):\n"
            "    try:\n        import_rows(path, table, batch=100)\n    except UnicodeDecodeError:\n        raise click.ClickException('The file is not UTF-8.')\n")
    assert found(code, ["AEM202", "AEM203"]) == []


def test_a_form_field_validator_needs_no_echo():
    code = ("from wtforms import Form, Field, ValidationError\n\n\nclass CurrencyValidator:\n    def __call__(self, form: Form, field: Field) -> None:\n"
            "        try:\n            Currency(field.data)\n        except (TypeError, ValueError):\n            raise ValidationError('Not a valid ISO currency code.')\n")
    assert found(code, ["AEM202"]) == []


def test_a_form_field_document_still_needs_the_parsers_position():
    code = ("import json\n\n\nclass JSONField:\n    def process_formdata(self, valuelist):\n        if valuelist:\n"
            "            try:\n                self.data = json.loads(valuelist[0])\n            except ValueError:\n"
            "                raise ValueError('This field contains invalid JSON')\n")
    diagnostics = lint(code, select=["AEM202"], settings=PREVIEW)
    assert [d.message.split(";")[0] for d in diagnostics] == ["the message does not say where `valuelist` fails to parse as JSON"]


def test_an_unknown_name_is_a_lookup_miss_not_a_judgment():
    code = "import click\n\n\n@click.command()\n@click.argument('column')\ndef main(column):\n    if column not in load_columns():\n        raise click.UsageError('Unknown column.')\n"
    assert found(code, ["AEM101"]) == []


def test_the_default_text_of_a_silent_upstream_keeps_the_operations_words():
    code = ("from fastmcp import FastMCP\n\nmcp = FastMCP('s')\n\n\n@mcp.tool()\ndef sort(spec: str) -> str:\n"
            "    result = run(spec)\n    if not result.ok:\n        detail = result.stderr or 'Sort failed'\n"
            "        raise RuntimeError(f'Failed to sort the dataset: {detail}')\n    return 'ok'\n")
    assert found(code, ["AEM101"]) == []


# ---------------------------------------------------------------------- predicates errlint does not know
@pytest.mark.parametrize("setup, test, subject", [
    ("import os", "not os.path.isabs(location)", "location"),
    ("from uuid_utils import is_uuid", "not is_uuid(location)", "location"),
    ("", "not location.is_integer()", "location"),
    ("import validators", "not validators.is_url(location.strip())", "location"),
])
def test_the_value_a_predicate_tested_is_the_input_named(setup, test, subject):
    code = (f"{setup}\nimport click\n\n\n@click.command()\n@click.argument('location')\ndef resolve(location):\n"
            f"    if {test}:\n        raise click.UsageError('Unable to resolve this.')\n")
    diagnostics = lint(code, select=["AEM101"], settings=PREVIEW)
    assert [d.message for d in diagnostics] == [f'generic message "Unable to resolve this." names no input (`{subject}`), value or next step']


@pytest.mark.parametrize("test", ["not shutil.which('git')", "not os.path.exists(CONFIG)", "not self.client.ping()", "not os.path.isabs(location)"])
def test_a_predicate_asks_for_no_value(test):
    code = f"import os\nimport shutil\n\nCONFIG = '/etc/x'\n\n\nclass R:\n    def resolve(self, location):\n        if {test}:\n            raise ValueError('Refused by the resolver')\n        return location\n"
    assert found(code, ["AEM202"]) == []


def test_an_operation_that_failed_is_no_predicate():
    code = "def sync_all(store, since):\n    if not store.sync(since):\n        raise RuntimeError('Refused by the resolver')\n"
    assert found(code, ["AEM202"]) == []
