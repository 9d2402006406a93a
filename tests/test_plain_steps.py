"""AEM201 does not ask for a step the message already makes plain: it names the required inputs the
call left out, states a requirement ("must exist in the schema file"), shows the missing file a CLI
user or HTTP client named, says that the file the reader named is broken, or says the program is
waiting. The same shapes without the named object still get AEM201."""
from __future__ import annotations

import pytest
from conftest import PREVIEW, lint, preview_rows


TOOL = "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n\n@mcp.tool()\ndef t(path: str) -> str:\n    if path == 'x':\n        raise ToolError({text})\n    return path\n"
CLI = "import click\n\n@click.command()\n@click.option('--code')\ndef run(code):\n    if code:\n        raise click.ClickException({text})\n"


def flagged(template: str, text: str) -> bool:
    return bool(preview_rows(template.format(text=text), ["AEM201"]))


@pytest.mark.parametrize("text", [
    "'filepath and content arguments required'",
    "'`start` and `end` parameters are required'",
    "'name and email fields missing'",
])
def test_named_missing_inputs_state_the_step(text):
    assert not flagged(TOOL, text)


def test_unnamed_missing_arguments_still_flagged():
    assert flagged(TOOL, "'arguments required'")


@pytest.mark.parametrize("text", [
    "f'File not found: {code}'",
    "f'No such directory: {code}'",
    "f'Config file {code} does not exist'",
])
def test_missing_file_shown_to_a_cli_user(text):
    assert not flagged(CLI, text)


def test_missing_file_for_an_agent_still_asks_where_to_get_one():
    assert flagged(TOOL, "f'File not found: {path}'")


@pytest.mark.parametrize("text", [
    "f'{path} is a damaged zip file.'",
    "'PDF file appears to be corrupted or unreadable'",
    "f'Archive {path} is truncated'",
    "f'A part of the workbook is not well-formed XML ({path}).'",
    # what the reader handed over, named by the kind of content, with no value shown
    "'A part of the workbook is not well-formed XML.'",
    '"The workbook\'s VBA project contains a truncated stream."',
    "'The uploaded archive is malformed.'",
    "'xl/metadata.xml has an unexpected layout.'",
    "'The document uses an unsupported encoding.'",
    "'The attachment is not a valid PDF file.'",
])
def test_broken_file_the_reader_named(text):
    assert not flagged(TOOL, text)


@pytest.mark.parametrize("text", [
    "'Internal state is corrupted'", "'The server is broken.'",
    # broken, but not content the reader handed over
    "'The upstream sent a malformed response.'", "'Port is not a valid integer.'",
    "f'{code} is not a valid project name.'", "f'{code!r} is not a valid project.'",
    # broken, but not content the reader handed over
    "'The project has an unexpected layout.'", "'The export stream was truncated.'",
    # a prerequisite named only by a generic noun
    "'This command requires GitLab credentials to be set'",
    "'Exporting requires storage to be configured'",
    "'The PDF backend requires optional dependencies to be installed'",
])
def test_broken_without_a_named_object_still_flagged(text):
    assert flagged(TOOL, text)


@pytest.mark.parametrize("text", [
    "f'A column named {code} must exist in the schema file.'",
    "f'Table {code} must already be defined before it is referenced'",
    "'No input file or piped data provided. Waiting for standard input.'",
    # a stated prerequisite: make it so
    "'Publishing requires docker to be installed and configured'",
    """'The package command requires "docker" to be installed and configured'""",
    "'This command needs the ssh-agent to be running'",
    "f'--sign requires gpg to be on PATH (got {code})'",
    "'This export requires Node.js 18+ to be installed'",
])
def test_requirement_or_waiting_notice(text):
    assert not flagged(CLI, text)


@pytest.mark.parametrize("body", [
    # the order of two inputs stated
    "def check(periods):\n    for period in periods:\n        if period[0] > period[1]:\n            raise ToolError(f'invalid period (end before start) in {period}')\n",
    # the accepted value shown through a name an enclosing guard fixes
    "def check(tag, item):\n    if tag == 'VCALENDAR':\n        if item.name != 'VCALENDAR':\n            raise ToolError('Item type %r not supported in %r collection' % (item.name, tag))\n",
    # the kind of value a closed set holds
    "from configparser import RawConfigParser\ndef to_bool(value):\n    if value not in RawConfigParser.BOOLEAN_STATES:\n        raise ToolError('not a boolean: %r' % value)\n",
])
def test_a_stated_requirement_is_the_step(body):
    code = "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n\n@mcp.tool()\n" + body
    assert not any(d.code in ("AEM201", "AEM204") for d in lint(code, select=["AEM201", "AEM204"], settings=PREVIEW))


# a step after a spaced dash, a requirement whose object is a value, and "follow <concrete object>"
@pytest.mark.parametrize("text", [
    "f'\"{code}\" is a view, not a table - use drop-view to drop it'",
    "f'{code} is locked -- run `unlock {code}` first'",
    "f'Publishing to heroku requires {code} to be installed and configured'",
    "f'Follow the instructions at {code}'",
    "f\"'{code}' is not a valid column definition - options are INTEGER, TEXT, FLOAT, BLOB\"",
])
def test_a_step_in_these_shapes_is_seen(text):
    assert not flagged(CLI, text)


@pytest.mark.parametrize("text", [
    "f'Publishing {code} failed - the server said no'",
    "f'Follow-up for {code} failed'",
    "f'Set-up of {code} failed'",
    "'Follow the rules'",
])
def test_close_shapes_without_a_step_are_still_flagged(text):
    assert flagged(CLI, text)


def test_a_step_on_the_next_stderr_line_after_a_requirement():
    code = (
        "import click, shutil\n\n@click.command()\n@click.option('--binary')\ndef publish(binary):\n"
        "    if not shutil.which(binary):\n"
        "        click.secho(f'Publishing failed: {binary} is missing', err=True)\n"
        "        click.echo(f'Follow the instructions at https://example.com/install/{binary}', err=True)\n"
    )
    assert preview_rows(code, ["AEM201"]) == []


@pytest.mark.parametrize("text", [
    "f'{code} - call to backend failed'",
    "f'{code} - export to CSV failed'",
    "f'Call to backend failed for {code}'",
    "f'Request to upstream timed out for {code}'",
    "f'Unknown mode {code}; options are limited'",
    "f'Unknown mode {code}; your options are exhausted'",
    "f'Mode {code} is invalid since options are frozen'",
])
def test_a_noun_that_reads_like_a_verb_or_a_list_word_without_a_list_is_no_step(text):
    assert flagged(CLI, text)


@pytest.mark.parametrize("text", [
    "f'Unknown mode {code}; options include fast and slow'",
    "f'Unknown mode {code}; the options are: fast, slow'",
    "f'Converting {code} requires ffmpeg on PATH'",
    "f'Converting requires {code} installed'",
    "f'{code} failed - run `tool doctor` to see why'",
])
def test_steps_in_these_shapes_are_seen_too(text):
    assert not flagged(CLI, text)
