"""What ends a command with a failure status (`extract/statement_shapes.exit_status`): an exit call,
`raise SystemExit`, click's `ctx.exit(n)`, and a `return n` from a function whose value is the exit
status (`sys.exit(main())`, as a `[project.scripts]` wrapper calls it). AEM606 reads them: an error
printed to stdout before one, or one in a handler that printed nothing. A handler of an interruption
the user made (Ctrl-C, a closed pipe) exits quietly by convention.
"""
from __future__ import annotations

import pytest

from conftest import at


@pytest.mark.parametrize("tail", [
    "\n\nif __name__ == '__main__':\n    sys.exit(main())\n",
    "\n\nif __name__ == '__main__':\n    raise SystemExit(main(sys.argv[1:]))\n",
    "\n\nsys.exit(main())\n",
])
def test_a_status_returned_into_an_exit_call(tail):
    code = ("import sys\nimport tomllib\n\n\ndef main(argv=None) -> int:\n    try:\n        data = tomllib.load(open('pyproject.toml', 'rb'))\n"
            "    except tomllib.TOMLDecodeError as e:\n        print(f'Error: pyproject.toml is not valid TOML: {e}')\n        return 1\n"
            "    print(data)\n    return 0\n" + tail)
    assert at(code, select=["AEM606"]) == [(9, "AEM606")]


def test_a_returned_status_nobody_exits_with_is_a_value():
    code = ("import tomllib\n\n\ndef main(argv=None) -> int:\n    try:\n        tomllib.load(open('pyproject.toml', 'rb'))\n"
            "    except tomllib.TOMLDecodeError as e:\n        print(f'Error: not valid TOML: {e}')\n        return 1\n    return 0\n")
    assert at(code, select=["AEM606"]) == []


def test_a_silent_status_return_in_a_handler():
    code = ("import sys\n\n\ndef main() -> int:\n    try:\n        run()\n    except ValueError:\n        return 2\n    return 0\n\n\n"
            "if __name__ == '__main__':\n    sys.exit(main())\n")
    assert at(code, select=["AEM606"]) == [(8, "AEM606")]


@pytest.mark.parametrize("ctx_exit", ["ctx.exit(1)", "click.get_current_context().exit(1)"])
def test_click_context_exit(ctx_exit):
    code = f"""
    import click

    @click.command()
    @click.pass_context
    def push(ctx):
        try:
            upload()
        except OSError as e:
            click.echo(f"push failed: {{e}}")
            {ctx_exit}
    """
    assert at(code, select=["AEM606"]) == [(10, "AEM606")]


@pytest.mark.parametrize("interruption", ["KeyboardInterrupt", "BrokenPipeError", "(KeyboardInterrupt, BrokenPipeError)"])
def test_a_quiet_exit_on_an_interruption_the_user_made(interruption):
    code = f"import sys\n\n\ndef main():\n    try:\n        run()\n    except {interruption}:\n        sys.exit(130)\n"
    assert at(code, select=["AEM606"]) == []


def test_a_quiet_exit_on_any_other_failure_is_still_silent():
    code = "import sys\n\n\ndef main():\n    try:\n        run()\n    except (KeyboardInterrupt, OSError):\n        sys.exit(1)\n"
    assert at(code, select=["AEM606"]) == [(8, "AEM606")]
