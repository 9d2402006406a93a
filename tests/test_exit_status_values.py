"""The exit status a command ends with when it is not written as a literal
(`extract/statement_shapes.status_value`): a module constant (`EXIT_USAGE = 2`), a sysexits name
(`os.EX_CONFIG`), an errno; and the argparse sub-command handler whose return value `main` returns
into `sys.exit` (`return args.func(args)` with `set_defaults(func=...)`). AEM606 reads them as it
reads `sys.exit(2)`; a constant that spells success, or a computed status, is not a failure.
"""
from __future__ import annotations

import pytest

from conftest import at

MAIN = "\n\nif __name__ == '__main__':\n    main()\n"


@pytest.mark.parametrize("prelude, status", [
    ("EXIT_USAGE = 2\n", "EXIT_USAGE"),
    ("", "os.EX_CONFIG"),
    ("import errno\n", "errno.ENOENT"),
    ("from os import EX_NOINPUT\n", "EX_NOINPUT"),
])
def test_a_named_failure_status_after_an_error_on_stdout(prelude, status):
    code = ("import os\nimport sys\n" + prelude + "\n\ndef main():\n    if not os.path.exists('app.toml'):\n"
            "        print('error: app.toml not found; run `app init` first')\n        sys.exit(" + status + ")\n    run()\n" + MAIN)
    row = 7 + prelude.count("\n")
    assert at(code, select=["AEM606"]) == [(row, "AEM606")]


@pytest.mark.parametrize("prelude, status", [
    ("EXIT_OK = 0\n", "EXIT_OK"),  # a constant that spells success
    ("", "os.EX_OK"),
    ("", "compute_status()"),  # computed: not known to fail
])
def test_a_status_that_is_success_or_unknown_is_not_a_failure(prelude, status):
    code = ("import os\nimport sys\n" + prelude + "\n\ndef main():\n    if not os.path.exists('app.toml'):\n"
            "        print('nothing to do: app.toml not found')\n        sys.exit(" + status + ")\n    run()\n" + MAIN)
    assert at(code, select=["AEM606"]) == []


SUBCOMMANDS = """import argparse
import sys


def cmd_sync(args):
    if not args.remote:
        print("error: no remote configured; run `tool remote add NAME URL` first")
        return {status}
    print("synced")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tool")
    sub = parser.add_subparsers(required=True)
    sync = sub.add_parser("sync")
    sync.add_argument("--remote")
    sync.set_defaults({keyword}=cmd_sync)
    args = parser.parse_args(argv)
    return args.{keyword}(args)
{tail}"""


@pytest.mark.parametrize("keyword, tail", [
    ("func", "\n\nif __name__ == '__main__':\n    sys.exit(main())\n"),
    ("handler", "\n\nif __name__ == '__main__':\n    raise SystemExit(main(sys.argv[1:]))\n"),
])
def test_a_sub_command_handler_returns_the_exit_status(keyword, tail):
    code = SUBCOMMANDS.format(status=1, keyword=keyword, tail=tail)
    assert at(code, select=["AEM606"]) == [(7, "AEM606")]


def test_a_sub_command_handler_whose_main_exits_with_nothing_returns_a_value():
    code = SUBCOMMANDS.format(status=1, keyword="func", tail="\n\nif __name__ == '__main__':\n    main()\n")
    assert at(code, select=["AEM606"]) == []
