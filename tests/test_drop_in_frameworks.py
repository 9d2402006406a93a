"""A drop-in replacement of a framework, imported in its place (`import rich_click as click`,
`asyncclick`), exports the framework's names: its commands are CLI entry points, `echo(err=True)` is
stderr, and its exceptions are click's, with the message where click puts it
(`BadOptionUsage(option_name, message)`)."""
from __future__ import annotations

import pytest
from conftest import PREVIEW, lint

BAD_OPTION = '''
import {imp}


@click.command()
@click.option("--to")
@click.option("--new-version")
def bump(to, new_version):
    if to is not None and new_version:
        raise click.BadOptionUsage("to", "--to cannot be used with --new-version.")
'''


@pytest.mark.parametrize("imp", ["click", "rich_click as click", "asyncclick as click"])
def test_the_message_of_bad_option_usage_is_its_second_argument(imp):
    found = lint(BAD_OPTION.format(imp=imp), settings=PREVIEW)
    assert [d.message for d in found if '"to"' in d.message] == []
    assert found == []  # click prints usage and a --help hint with it


ECHO = '''
import {imp}


@click.command()
@click.argument("path")
def main(path):
    if not path.endswith(".csv"):
        click.echo("Error: something went wrong", err=True)
'''


@pytest.mark.parametrize("imp", ["click", "rich_click as click", "asyncclick as click"])
def test_stderr_of_a_drop_in_is_read_by_a_cli_user(imp):
    found = lint(ECHO.format(imp=imp), select=["AEM101"], settings=PREVIEW)
    assert [(d.code, d.audience) for d in found] == [("AEM101", "cli")]


def test_a_plain_import_of_the_drop_in_binds_its_own_name():
    code = ECHO.format(imp="rich_click").replace("click.", "rich_click.")
    found = lint(code, select=["AEM101"], settings=PREVIEW)
    assert [(d.code, d.audience) for d in found] == [("AEM101", "cli")]


def test_from_import_of_a_drop_in_exception():
    code = "from asyncclick import ClickException\n\ndef load(path):\n    if not path:\n        raise ClickException('Something went wrong')\n"
    found = lint(code, select=["AEM101"], settings=PREVIEW)
    assert [(d.code, d.audience) for d in found] == [("AEM101", "cli")]
