"""Which input failed, when the guard tests a value computed from it (`extract/input_origins`).

The reader of a message knows the inputs it sent: a tool's or command's parameter (`start_date`,
`limit`), or a command-line option (`--workers`). The guard often tests a local computed from one
(`start = date.fromisoformat(start_date)`, `n = int(limit)`) or a field of argparse's namespace
(`args.workers`, `n = opts.jobs`). AEM203 asks the message to name that input, as it does when the
guard tests the parameter itself. A value computed from several inputs, an element of a collection,
a record looked up with the input, or an on/off switch is no one input to name. A message that shows
the value the reader sent for the input ("Issue 42 not found") lets it tell which input failed.
"""
from __future__ import annotations

import pytest

from conftest import at, lint

FASTMCP = "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n\n"
ARGPARSE_MAIN = "\n\nif __name__ == '__main__':\n    main()\n"


def _aem203(code):
    return [(d.location.row, d.message) for d in lint(code, select=["AEM203"])]


@pytest.mark.parametrize("code, row, name", [
    (FASTMCP + "from datetime import date\n\n@mcp.tool()\ndef list_events(start_date: str, calendar: str) -> list:\n"
     "    start = date.fromisoformat(start_date)\n    if start < date(2020, 1, 1):\n"
     "        raise ToolError('Events before 2020 are archived and cannot be listed.')\n    return []\n", 11, "start_date"),
    ("import click\n\n@click.command()\n@click.option('--limit', default='10')\n@click.option('--name')\ndef main(limit, name):\n"
     "    n = int(limit)\n    if n > 500:\n        raise click.ClickException('At most 500 rows can be fetched at once.')\n", 9, "--limit"),
    ("import typer\napp = typer.Typer()\n\n@app.command()\ndef export(out: str = typer.Option(..., '--out'), fmt: str = 'csv'):\n"
     "    suffix = out.rsplit('.', 1)[-1].lower()\n    if suffix not in ('csv', 'json'):\n"
     "        raise typer.BadParameter('Only .csv and .json files can be written.')\n", 8, "--out"),
    # two steps from the parameter, through a re-binding
    (FASTMCP + "@mcp.tool()\ndef tail_log(lines: str, service: str) -> str:\n    count = lines.strip()\n    count = int(count)\n"
     "    if count > 1000:\n        raise ToolError('The tail is limited to 1000 entries.')\n    return ''\n", 10, "lines"),
])
def test_a_guard_on_a_value_computed_from_one_parameter_names_that_parameter(code, row, name):
    assert _aem203(code) == [(row, f"the message does not name the input `{name}` that failed the check")]


@pytest.mark.parametrize("body, row, name", [
    ("    parser = argparse.ArgumentParser()\n    parser.add_argument('--workers', type=int, default=4)\n    parser.add_argument('--out')\n"
     "    args = parser.parse_args()\n    if args.workers > 64:\n        sys.exit('Too many parallel jobs requested; the maximum is 64.')\n", 11, "--workers"),
    # the option's own flag, not its dest
    ("    p = argparse.ArgumentParser()\n    p.add_argument('-j', '--jobs', dest='workers', type=int)\n    p.add_argument('host')\n"
     "    opts, rest = p.parse_known_args()\n    n = opts.workers\n    if n < 1:\n        p.error('At least one parallel job is needed.')\n", 12, "--jobs"),
    ("    ns = build_parser().parse_args()\n    unit = ns.unit.split(':')[-1]\n    if unit not in {'ms', 's', 'min'}:\n"
     "        sys.exit('The polling interval has an unknown suffix.')\n", 9, "--unit"),
])
def test_a_field_of_the_argparse_namespace_is_named_by_its_option(body, row, name):
    code = "import argparse\nimport sys\n\n\ndef main():\n" + body + ARGPARSE_MAIN
    assert _aem203(code) == [(row, f"the message does not name the input `{name}` that failed the check")]


@pytest.mark.parametrize("body", [
    "    parser = argparse.ArgumentParser()\n    parser.add_argument('--port', type=int)\n    args = parser.parse_args()\n"
    "    if not 1 <= args.port <= 65535:\n        parser.error('Port out of range.')\n",  # named by its word
    "    parser = argparse.ArgumentParser()\n    parser.add_argument('-j', '--jobs', dest='workers', type=int)\n    args = parser.parse_args()\n"
    "    if args.workers < 1:\n        parser.error('--jobs must be 1 or more.')\n",  # named by its declared flag
    "    parser = argparse.ArgumentParser()\n    parser.add_argument('--dry-run', action='store_true')\n    parser.add_argument('--target')\n"
    "    args = parser.parse_args()\n    if args.dry_run:\n        sys.exit('Nothing was written.')\n",  # a switch, not a failing value
    "    parser = argparse.ArgumentParser()\n    args = parser.parse_args()\n    if args.start > args.end:\n"
    "        sys.exit('The range is empty.')\n",  # two options: which one is wrong is not one input
])
def test_namespace_fields_that_are_named_or_are_no_one_input(body):
    code = "import argparse\nimport sys\n\n\ndef main():\n" + body + ARGPARSE_MAIN
    assert _aem203(code) == []


@pytest.mark.parametrize("code", [
    # computed from two parameters: no one input to name
    FASTMCP + "@mcp.tool()\ndef resize(width: int, height: int, path: str) -> str:\n    area = width * height\n"
    "    if area > 40_000_000:\n        raise ToolError('The requested size exceeds 40 megapixels.')\n    return 'ok'\n",
    # an element of a collection the tool received
    FASTMCP + "ALLOWED = {'bug', 'docs'}\n\n@mcp.tool()\ndef label(issue: int, tags: list) -> str:\n    for tag in tags:\n"
    "        if tag not in ALLOWED:\n            raise ToolError('Unknown label.')\n    return 'ok'\n",
    # a record the tool looked up with its input: the world's answer, not a value the caller sent
    FASTMCP + "@mcp.tool()\ndef suspend(user_id: str, reason: str) -> str:\n    user = db.get_user(user_id)\n"
    "    if user.suspended:\n        raise ToolError('That account is already suspended.')\n    return 'ok'\n",
    # a handle made with the input (a database, a client's bucket) is not the input
    "import click\n\n@click.command()\n@click.argument('db_path')\n@click.argument('table')\ndef vacuum(db_path, table):\n"
    "    db = open_db(db_path)\n    if db.page_count > 10_000:\n        raise click.ClickException('The file is too large to vacuum in place.')\n",
    # the derived value is shown: the reader sees the number it sent
    "import click\n\n@click.command()\n@click.option('--limit')\n@click.option('--name')\ndef main(limit, name):\n"
    "    n = int(limit)\n    if n > 500:\n        raise click.ClickException(f'{n} rows requested; at most 500 can be fetched at once.')\n",
    # a helper's parameter: the caller of the tool may not know it
    "def _check(count):\n    n = int(count)\n    if n > 5:\n        raise ValueError('too many')\n",
])
def test_values_that_stand_for_no_one_input_get_no_finding(code):
    assert _aem203(code) == []


@pytest.mark.parametrize("message", [
    "f'Issue {issue_id} not found; call list_issues to see open issues.'",
    "f'No issue {issue_id!r} in {repo}; call list_issues.'",
])
def test_a_message_that_shows_the_value_sent_identifies_the_input(message):
    code = (FASTMCP + "ISSUES = {}\n\n@mcp.tool()\ndef close_issue(repo: str, issue_id: int, comment: str = '') -> str:\n"
            "    if issue_id not in ISSUES:\n        raise ToolError(" + message + ")\n    return 'closed'\n")
    assert _aem203(code) == []


def test_a_measure_of_the_input_does_not_identify_it():
    code = (FASTMCP + "@mcp.tool()\ndef tag(names: list, note: str) -> str:\n    if len(names) > 5:\n"
            "        raise ToolError(f'{len(names)} is too many; pass 5 or fewer.')\n    return ''\n")
    assert _aem203(code) == [(8, "the message does not name the input `names` that failed the check")]


@pytest.mark.parametrize("declaration", [
    "output: str = typer.Option('out.csv', '--out', '-o')",
    "output: Annotated[str, typer.Option('--out')] = 'out.csv'",
])
def test_a_typer_option_is_named_by_its_declared_flag(declaration):
    code = ("from typing import Annotated\nimport typer\napp = typer.Typer()\n\n@app.command()\ndef export(" + declaration + ", fmt: str = 'csv'):\n"
            "    if not output.endswith(('.csv', '.json')):\n        raise typer.BadParameter('--out must end in .csv or .json')\n")
    assert _aem203(code) == []


@pytest.mark.parametrize("params, guard, text, rows", [
    # a word only this input's name has names it
    ("input_data: str, pages: str = ''", "input_data.startswith(('http', '/'))", "'Invalid input: pass a PDF URL or file path.'", []),
    ("columns: list, table: str", "len(columns) <= 10", "'Too many columns; pass at most 10.'", []),
    ("columns: list, table: str", "len(columns) <= 10", "'At most 10 can be read; pass fewer.'", [8]),
    # a word two inputs share names neither, unless both failed
    ("start_date: str, end_date: str", "start_date >= '2020'", "'The date is too early.'", [8]),
    ("start_date: str, end_date: str", "start_date < end_date", "'The date range is empty.'", []),
    # a plural of the name, or of a word only it has
    ("label: str, item_id: str", "label.islower()", "'Labels must be lowercase.'", []),
    ("repo_url: str, branch: str = 'main'", "repo_url.startswith('https://')", "'Only https URLs are accepted.'", []),
    ("customer_email: str, order_id: str", "'@' in customer_email", "'That does not look like an email address.'", []),
])
def test_an_input_is_named_by_a_word_only_its_name_has(params, guard, text, rows):
    code = FASTMCP + "@mcp.tool()\ndef tool_a(" + params + ") -> str:\n    if not " + guard + ":\n        raise ToolError(" + text + ")\n    return ''\n"
    assert [r for r, _ in _aem203(code)] == rows


def test_a_word_of_the_name_mentioned_otherwise_does_not_name_the_input():
    # "column" here is what to add, not the input that failed (the user may have mistyped `column_name`)
    code = ("import click\n\n@click.command()\n@click.argument('table')\n@click.argument('column_name')\ndef index(table, column_name):\n"
            "    if column_name not in COLUMNS:\n        raise click.ClickException('You must add a geometry column before creating a spatial index')\n")
    assert _aem203(code) == [(8, "the message does not name the input `column_name` that failed the check")]


def test_a_field_of_an_input_model_names_it():
    code = (FASTMCP + "from pydantic import BaseModel\n\nclass OrderIn(BaseModel):\n    sku: str\n    quantity: int\n\n\n"
            "@mcp.tool()\ndef place_order(order: OrderIn, note: str = '') -> dict:\n    if order.quantity <= 0:\n"
            "        raise ToolError('quantity must be positive')\n    if order.quantity > 999:\n        raise ToolError('must be at most 999')\n    return {}\n")
    assert _aem203(code) == [(17, "the message does not name the input `quantity` that failed the check")]


def test_a_relation_of_two_inputs_asks_for_both():
    code = (FASTMCP + "@mcp.tool()\ndef report(start: int, end: int, tags: str = '') -> list:\n    if end < start:\n"
            "        raise ToolError('The range is reversed; swap the bounds')\n    return []\n")
    assert _aem203(code) == [(8, "the message does not name the inputs `start` and `end` that failed the check")]


SUBCOMMAND = '''import argparse
import datetime as dt
import sys


def cmd_fetch(args: argparse.Namespace) -> int:
    BODY
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    fetch = sub.add_parser("fetch")
    fetch.add_argument("--since")
    fetch.add_argument("infile", metavar="FILE")
    fetch.set_defaults(func=cmd_fetch)
    args = parser.parse_args()
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
'''


@pytest.mark.parametrize("body, row, name", [
    ("since = dt.date.fromisoformat(args.since)\n    if since > dt.date.today():\n        sys.exit('error: cannot be in the future')", 9, "--since"),
    ("if not args.infile.endswith('.csv'):\n        sys.exit('error: only .csv can be read')", 8, "FILE"),  # a positional, by its metavar
])
def test_a_sub_command_handler_reads_the_namespace_argparse_passes_it(body, row, name):
    assert _aem203(SUBCOMMAND.replace("BODY", body)) == [(row, f"the message does not name the input `{name}` that failed the check")]


def test_a_positional_named_by_its_metavar_is_named():
    assert _aem203(SUBCOMMAND.replace("BODY", "if not args.infile.endswith('.csv'):\n        sys.exit('error: FILE must be a .csv file')")) == []


@pytest.mark.parametrize("lines, text", [
    # a regular expression's match of the input
    ("m = SEMVER.fullmatch(version)\n    if m is None:", "'expected MAJOR.MINOR.PATCH'"),
    # a value computed from the input, found in a deny list
    ("ext = version.rsplit('.', 1)[-1].lower()\n    if ext in {'exe', 'bat'}:", "'Executable files are not allowed.'"),
    # the parsed document of a text parameter named like a container
    ("payload = json.loads(body)\n    if not isinstance(payload, dict):", "'expected a JSON object at the top level'"),
])
def test_other_tests_of_a_value_computed_from_one_input(lines, text):
    code = (FASTMCP + "import json\nimport re\nSEMVER = re.compile(r'\\d+\\.\\d+\\.\\d+')\n\n@mcp.tool()\n"
            "def check(version: str = '', body: str = '', channel: str = 'stable') -> str:\n    " + lines + "\n        raise ToolError(" + text + ")\n    return ''\n")
    assert [r for r, _ in _aem203(code)] == [13]


@pytest.mark.parametrize("exc", ["ValueError", "argparse.ArgumentTypeError", "TypeError"])
def test_argparse_names_the_argument_of_a_type_converter(exc):
    code = ("import argparse\n\n\ndef auth_arg(arg: str) -> list:\n    items = sorted(set(i.strip() for i in arg.split(',')))\n"
            "    if any(i not in ('download', 'list') for i in items):\n        raise " + exc + "('Invalid option; valid values are download and list.')\n    return items\n\n\n"
            "def main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--auth', type=auth_arg)\n    parser.parse_args()\n" + ARGPARSE_MAIN)
    assert _aem203(code) == []


def test_a_failure_said_of_an_abbreviated_input():
    code = (FASTMCP + "import os\n\n@mcp.tool()\ndef copy_file(src_path: str, dest_path: str, overwrite: bool = False) -> str:\n"
            "    if os.path.exists(dest_path) and not overwrite:\n        raise ToolError('Destination already exists; pass overwrite=true.')\n    return ''\n")
    assert _aem203(code) == []
