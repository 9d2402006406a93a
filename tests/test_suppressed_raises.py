"""`with contextlib.suppress(X):` swallows X like a `try` whose handler does nothing, and the loop
variable of `for caster in (boolify, int):` (or `for parse, kind in [(int, "n"), ...]`) calls each
function listed. A raise that every caller
swallows this way is read by nobody, so no missing-part rule judges it; a raise some caller lets
through is still judged (`extract.walker.st_With`/`st_For`, `reachability.replaced_by_callers`)."""
from __future__ import annotations

import textwrap

import pytest

from conftest import lint

from errlint.config import Settings

# AEM201 on `exc` opted in, so the helper raises are judged whoever reaches them
SETTINGS = Settings(preview=True, profiles=(("AEM201", ("agent", "cli", "http", "exc", "log")),))
PARTS = ["AEM201", "AEM202", "AEM203", "AEM204", "AEM205"]

CLI = """
import contextlib
from contextlib import suppress
import click

{helpers}

@click.command()
@click.argument("value")
def main(value):
    click.echo(convert(value))
"""

BOOLIFY = """
def boolify(s):
    if s in ("True", "true"):
        return True
    if s in ("False", "false"):
        return False
    raise ValueError("Not Boolean Value!")
"""


def rows(helpers: str) -> list:
    code = CLI.format(helpers=textwrap.dedent(BOOLIFY) + textwrap.dedent(helpers))
    return sorted({d.location.row for d in lint(code, select=PARTS, settings=SETTINGS)})


SWALLOWED = {
    "casters_tried_in_a_loop": """
        def convert(var):
            for caster in (boolify, int, float):
                with contextlib.suppress(ValueError):
                    return caster(var)
            return var
    """,
    "one_call_under_suppress_imported_by_name": """
        def convert(var):
            with suppress(ValueError, TypeError):
                return boolify(var)
            return var
    """,
    "pairs_unpacked_in_a_loop_under_try": """
        def convert(var):
            for parse, kind in [(int, "number"), (boolify, "flag")]:
                try:
                    return kind, parse(var)
                except ValueError:
                    continue
            return "text", var
    """,
    "casters_listed_in_a_module_constant": """
        CASTERS = (boolify, int)

        def convert(var):
            for caster in CASTERS:
                with suppress(ValueError):
                    return caster(var)
            return var
    """,
    "suppress_of_a_base_class": """
        def convert(var):
            with suppress(Exception):
                return boolify(var)
            return var
    """,
}


@pytest.mark.parametrize("name", sorted(SWALLOWED))
def test_a_raise_every_caller_swallows_is_not_judged(name):
    assert rows(SWALLOWED[name]) == []


LET_THROUGH = {
    "another_class_suppressed": """
        def convert(var):
            with suppress(KeyError):
                return boolify(var)
    """,
    "one_caller_lets_it_through": """
        def convert(var):
            with suppress(ValueError):
                return boolify(var)
            return boolify(var.strip())
    """,
    "casters_tried_without_suppress": """
        def convert(var):
            for caster in (boolify, int):
                return caster(var)
    """,
}


@pytest.mark.parametrize("name", sorted(LET_THROUGH))
def test_a_raise_some_caller_lets_through_is_judged(name):
    assert rows(LET_THROUGH[name]) == [12]
