"""A line that ends with a colon and is followed, in its block, by more output (a loop printing the
captured errors, a later print or log) is a header: the missing-part rules judge it with the lines it
introduces, which are not known statically, so they do not report it. The same line with nothing
printed after it is a message of its own and is still judged."""
from __future__ import annotations


import pytest
from conftest import preview_rows


PARTS = ["AEM201", "AEM202", "AEM204"]


def rows(code: str):
    return preview_rows(code, PARTS)


HEADERS = {
    "loop_over_captured_lines": """
        import sys
        import click

        @click.command()
        def install():
            errors = run_pip()
            if errors:
                print("\\nSome possibly relevant errors from pip install:", file=sys.stderr)
                for line in errors:
                    print(f"    {line}", file=sys.stderr)
                sys.exit(1)
        """,
    "echo_header_then_a_later_echo_in_a_branch": """
        import click

        @click.command()
        def build():
            failures = compile_all()
            if failures:
                click.echo("The build failed for these targets:", err=True)
                count = len(failures)
                if count:
                    for name in failures:
                        click.echo(f"  {name}", err=True)
                raise SystemExit(1)
        """,
    "fstring_header_with_a_value_then_try_finally_output": """
        import sys
        import click

        @click.command()
        @click.argument("path")
        def check(path):
            problems = lint_file(path)
            if problems:
                sys.stderr.write(f"Problems in {path}:\\n")
                try:
                    pass
                finally:
                    sys.stderr.write("\\n".join(problems))
                sys.exit(1)
        """,
}


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_a_header_is_judged_with_the_lines_it_introduces(name):
    assert rows(HEADERS[name]) == []


def test_a_colon_line_with_nothing_printed_after_it_is_still_judged():
    code = """
        import sys
        import click

        @click.command()
        def install():
            errors = run_pip()
            if errors:
                print("Installation failed with errors:", file=sys.stderr)
                sys.exit(1)
        """
    assert rows(code) == [9]


def test_a_line_without_a_colon_before_more_output_is_still_judged():
    code = HEADERS["loop_over_captured_lines"].replace("errors from pip install:", "errors from pip install.")
    assert rows(code) == [9]
