"""AEM203 asks a message to name the input that failed its check. A parameter a CLI option declares
as an on/off switch (`is_flag=True`, `count=True`, `"--x/--no-x"`, `type=bool`) only decides whether
the failure is reported (`if not ignore: raise ...`): it is not that input, whatever it is called.
A switch tested together with a value (`if multi and len(columns) > 1`) and named by the message
names the failing combination. And a framework that prefixes the parameter's name to the text
(click's BadParameter, argparse's ArgumentTypeError from a `type=` converter) names it already."""
from __future__ import annotations

import textwrap

from conftest import lint

from errlint.config import Settings

PREVIEW = Settings(preview=True)


def aem203(code: str) -> list:
    return sorted(d.location.row for d in lint(textwrap.dedent(code), select=["AEM203"], settings=PREVIEW))


def test_ignore_switch_around_a_missing_table():
    code = '''
        import click

        @click.command()
        @click.argument("table")
        @click.option("--ignore", is_flag=True, help="Do nothing if the table does not exist")
        def drop(table, ignore):
            try:
                drop_table(table)
            except LookupError:
                if not ignore:
                    raise click.ClickException(f'Table "{table}" does not exist')
    '''
    assert aem203(code) == []


def test_create_switch_else_branch_names_the_files_argument():
    code = '''
        import click
        import pathlib

        @click.command()
        @click.argument("files", nargs=-1)
        @click.option("--create", is_flag=True)
        def serve(files, create):
            for file in files:
                if not pathlib.Path(file).exists():
                    if create:
                        pathlib.Path(file).touch()
                    else:
                        raise click.ClickException(f"Path {file!r} given in FILES does not exist.")
    '''
    assert aem203(code) == []


def test_on_off_pair_and_count_switches():
    code = '''
        import click

        @click.command()
        @click.option("--strict-mode/--lenient-mode", default=False)
        @click.option("-v", "--loudness", count=True)
        @click.option("--limit", type=int)
        def run(strict_mode, loudness, limit):
            if strict_mode and loudness > 2:
                raise click.ClickException("That is too loud for this setting")
    '''
    # only switches are tested: no input failed a check, so there is none to name
    assert aem203(code) == []


def test_switch_named_with_the_value_it_is_tested_with():
    code = '''
        import click

        @click.command()
        @click.argument("columns", nargs=-1)
        @click.option("--multi", is_flag=True)
        @click.option("--output")
        def convert(columns, multi, output):
            if multi and len(columns) > 1:
                raise click.ClickException("Cannot use --multi with more than one column")
    '''
    assert aem203(code) == []


def test_value_still_named_when_only_the_switch_is_mentioned_elsewhere():
    # `limit` failed its own check, and nothing in the message names it
    code = '''
        import click

        @click.command()
        @click.option("--force", is_flag=True)
        @click.option("--limit", type=int)
        @click.option("--name")
        def run(force, limit, name):
            if limit > 50 and not force:
                raise click.ClickException("That is too many at once")
    '''
    assert aem203(code) == [10]


def test_argparse_type_converter_is_named_by_argparse():
    code = '''
        import argparse

        def whole_days(value: str) -> int:
            try:
                number = int(value)
            except ValueError as exc:
                raise argparse.ArgumentTypeError("must be a whole number of days") from exc
            return number

        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--cooldown", type=whole_days)
            parser.add_argument("--retries", type=whole_days)
            return parser.parse_args()

        if __name__ == "__main__":
            main()
    '''
    assert aem203(code) == []


def test_a_plain_exception_in_a_click_command_still_needs_the_name():
    code = '''
        import click

        @click.command()
        @click.option("--width", type=int)
        @click.option("--height", type=int)
        def resize(width, height):
            if width > 4096:
                raise click.ClickException("must be 4096 or less")
    '''
    assert aem203(code) == [9]


def test_bad_parameter_in_a_command_body_names_nothing():
    # click knows no parameter here: it prints "Error: Invalid value: must be a positive number"
    code = '''
        import click

        @click.command()
        @click.option("--width", type=int)
        @click.option("--height", type=int)
        def resize(width, height):
            if width <= 0:
                raise click.BadParameter("must be a positive number")
    '''
    assert aem203(code) == [9]


def test_bad_parameter_with_a_param_hint_or_in_a_callback_is_named_by_click():
    code = '''
        import click

        def positive(ctx, param, value):
            if value <= 0:
                raise click.BadParameter("must be a positive number")
            return value

        @click.command()
        @click.option("--width", type=int, callback=positive)
        @click.option("--height", type=int)
        def resize(width, height):
            if height <= 0:
                raise click.BadParameter("must be a positive number", param_hint="--height")
    '''
    assert aem203(code) == []
