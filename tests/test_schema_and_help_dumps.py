"""A schema or help text is known by what it is, however it reaches the message (AEM403), and a
long static text by its words, however it is assembled (AEM401).

A schema: a dict that holds JSON Schema keywords (`properties`, `$schema`, `"type": "object"` with
`required`) bound to any name (`CREATE_INPUT`, `toolspec`), the same serialized by any dumper
(`yaml.safe_dump`, `pprint.pformat`, `json.dumps`), and a function's docstring (`tool.__doc__`, its
help text). A short schema (a few tokens) states what is allowed; a record that only has a `type`
field is no schema.

A long text: lines joined with a separator (`"\\n".join([...])`), a `textwrap.dedent` block, an
entry of a module table of texts (`HELP["quota"]`).
"""
from __future__ import annotations

import pytest

from conftest import lint

SCHEMA = ('{"type": "object", "properties": {"name": {"type": "string", "maxLength": 64}, '
          '"severity": {"enum": ["low", "medium", "high"]}, "tags": {"type": "array", "items": {"type": "string"}}}, '
          '"required": ["name", "severity"]}')
HEAD = "import json\nimport pprint\nimport yaml\nfrom fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('rules')\n\n"


def _tool(constants: str, statement: str) -> str:
    return (HEAD + constants + "\n\n@mcp.tool()\ndef add_rule(rule: dict, note: str = '') -> str:\n"
            "    '''Add a rule. rule: {name, severity, tags}; note: free text.'''\n"
            "    toolspec = RULE_INPUT\n    if 'name' not in rule:\n        " + statement + "\n    return 'ok'\n")


def _rows(code, code_):
    return [d.location.row for d in lint(code, select=[code_])]


@pytest.mark.parametrize("statement", [
    "raise ToolError(f'Rule is invalid; it must match {RULE_INPUT}')",
    "raise ToolError(f'Rule is invalid, see {toolspec}')",
    "raise ToolError('Rule is invalid. Expected: ' + pprint.pformat(RULE_INPUT))",
    "raise ToolError(f'Rule is invalid. Expected:\\n{yaml.safe_dump(RULE_INPUT)}')",
    "raise ToolError(f'Missing name; the input must match {json.dumps(RULE_INPUT)}')",
    "raise ToolError(f'Bad call. Usage:\\n{add_rule.__doc__}')",
])
def test_a_schema_or_help_text_is_known_by_what_it_holds(statement):
    code = _tool("RULE_INPUT = " + SCHEMA, statement)
    assert _rows(code, "AEM403") == [15]


@pytest.mark.parametrize("constants, statement", [
    # a record with a `type` field, not a schema
    ("RULE_INPUT = {'type': 'rule', 'name': 'default', 'severity': 'low', 'owner': 'platform-team', 'tags': ['a', 'b'], 'notes': 'seeded at install time'}",
     "raise ToolError(f'Rule is invalid; the default is {RULE_INPUT}')"),
    # a short schema says what is allowed
    ("RULE_INPUT = {'type': 'array', 'items': {'type': 'string'}}", "raise ToolError(f'tags must match {RULE_INPUT}')"),
    # a dump of data, not of a schema (AEM402's concern, not AEM403's)
    ("RULE_INPUT = {}", "raise ToolError(f'Rule is invalid: {yaml.safe_dump(rule)}')"),
])
def test_data_and_short_schemas_are_no_schema_dump(constants, statement):
    assert _rows(_tool(constants, statement), "AEM403") == []


LINES = [f"Line {i}: every workspace on the free plan may run a limited number of jobs per day, counted in UTC." for i in range(12)]


@pytest.mark.parametrize("constant", [
    "HELP = '\\n'.join([\n" + "".join(f"    {line!r},\n" for line in LINES) + "])\n",
    "import textwrap\nHELP = textwrap.dedent('''\n" + "".join(f"    {line}\n" for line in LINES) + "''')\n",
    "TEXTS = {\n    'quota': (\n" + "".join(f"        {line!r}\n" for line in LINES) + "    ),\n    'short': 'Quota reached.',\n}\nHELP = TEXTS['quota']\n",
    # a class attribute, an Enum member's value
    "class Texts:\n    QUOTA = (\n" + "".join(f"        {line!r}\n" for line in LINES) + "    )\n    SHORT = 'Quota reached.'\nHELP = Texts.QUOTA\n",
    "import enum\nclass Texts(str, enum.Enum):\n    QUOTA = (\n" + "".join(f"        {line!r}\n" for line in LINES) + "    )\n    SHORT = 'Quota reached.'\nHELP = Texts.QUOTA.value\n",
])
def test_a_long_static_text_is_measured_however_it_is_assembled(constant):
    code = HEAD + constant + "\n\n@mcp.tool()\ndef run_job(name: str) -> str:\n    if name.startswith('-'):\n        raise ToolError(HELP)\n    return ''\n"
    found = [d for d in lint(code, select=["AEM401"])]
    assert len(found) == 1 and found[0].message.startswith("the message is about 2") and "tokens (limit 120)" in found[0].message


@pytest.mark.parametrize("entry", ["Texts.SHORT", "Kinds.SHORT.value", "Kinds.QUOTA"])
def test_a_short_class_text_or_an_enum_member_itself_is_not_too_long(entry):
    classes = ("import enum\nclass Texts:\n    QUOTA = '" + " ".join(LINES) + "'\n    SHORT = 'Quota reached.'\n"
               "class Kinds(enum.Enum):\n    QUOTA = '" + " ".join(LINES) + "'\n    SHORT = 'Quota reached.'\n")
    code = (HEAD + classes + "\n\n@mcp.tool()\ndef run_job(name: str) -> str:\n    if name.startswith('-'):\n        raise ToolError(" + entry + ")\n    return ''\n")
    assert _rows(code, "AEM401") == []


def test_a_short_table_entry_is_not_too_long():
    code = (HEAD + "TEXTS = {'quota': 'Quota reached; retry after 00:00 UTC.', 'long': '" + " ".join(LINES) + "'}\n\n"
            "@mcp.tool()\ndef run_job(name: str) -> str:\n    if name.startswith('-'):\n        raise ToolError(TEXTS['quota'])\n    return ''\n")
    assert _rows(code, "AEM401") == []


@pytest.mark.parametrize("constant", [
    # a GeoJSON Feature: `properties` holds data
    "RULE_INPUT = {'type': 'Feature', 'geometry': {'type': 'Point', 'coordinates': [10.7, 59.9]}, 'properties': {'name': 'Oslo harbour', 'depth_m': 12, 'operator': 'Port of Oslo'}}",
    # a page record whose `properties` hold typed values
    "RULE_INPUT = {'object': 'page', 'properties': {'Status': {'type': 'select', 'select': {'name': 'Done'}}, 'Owner': {'type': 'people', 'people': []}}, 'archived': False}",
    # an instance document that links its schema
    "RULE_INPUT = {'$schema': 'https://biomejs.dev/schemas/1.9.4/schema.json', 'formatter': {'enabled': True, 'indentStyle': 'space'}, 'linter': {'enabled': True, 'rules': {'recommended': True}}}",
])
def test_a_record_is_no_schema(constant):
    assert _rows(_tool(constant, "raise ToolError(f'Rule is invalid; an example: {RULE_INPUT}')"), "AEM403") == []


def test_inspect_getdoc_is_the_help_text():
    code = _tool("import inspect\nRULE_INPUT = {}", "raise ToolError(f'Bad call. Usage:\\n{inspect.getdoc(add_rule)}')")
    assert _rows(code, "AEM403") == [16]


@pytest.mark.parametrize("constant, message", [
    ("import os\nHELP = os.linesep.join([\n" + "".join(f"    {line!r},\n" for line in LINES) + "])\n", "HELP"),
    ("LINES = [\n" + "".join(f"    {line!r},\n" for line in LINES) + "]\n", "'\\n'.join(LINES)"),
    ("TEXTS = {'quota': '" + " ".join(LINES) + "', 'short': 'x'}\n", "TEXTS.get('quota')"),
    ("TEXTS = dict(quota='" + " ".join(LINES) + "', short='x')\n", "TEXTS['quota']"),
    ("TEXTS = {'quota': '" + " ".join(LINES) + "', 'short': 'x'}\nKEY = 'quota'\n", "TEXTS[KEY]"),
])
def test_more_ways_to_assemble_a_long_text(constant, message):
    code = HEAD + constant + "\n\n@mcp.tool()\ndef run_job(name: str) -> str:\n    if name.startswith('-'):\n        raise ToolError(" + message + ")\n    return ''\n"
    found = lint(code, select=["AEM401"])
    assert len(found) == 1 and "tokens (limit 120)" in found[0].message


def test_a_list_the_code_fills_later_is_not_read_as_written():
    code = (HEAD + "LINES = ['Quota reached.']\n\n\n@mcp.tool()\ndef run_job(name: str) -> str:\n"
            + "".join(f"    LINES.append({line!r})\n" for line in LINES) + "    if name.startswith('-'):\n        raise ToolError('\\n'.join(LINES))\n    return ''\n")
    assert _rows(code, "AEM401") == []


@pytest.mark.parametrize("statement, found", [
    # the whole exit text is a help text or a traceback: text, none of it known (no missing-part rule)
    ("sys.exit(sync.format_help())", [("AEM403",)]),
    ("sys.exit(inspect.getdoc(main))", [("AEM403",)]),
    ("raise SystemExit(sync.format_help())", [("AEM403",)]),
    # a call that returns a status, or text errlint cannot type: no message
    ("sys.exit(run(args))", []),
    ("sys.exit(describe(args))", []),
])
def test_an_exit_with_a_help_text_is_a_message(statement, found):
    code = ("import argparse\nimport inspect\nimport sys\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
            "    sub = parser.add_subparsers()\n    sync = sub.add_parser('sync')\n    sync.add_argument('--since')\n"
            "    args = parser.parse_args()\n    if args.since == '':\n        " + statement + "\n")
    codes = [(d.code,) for d in lint(code, select=["AEM201", "AEM202", "AEM204", "AEM403", "AEM101"])]
    assert codes == found
