"""A raise that reaches a CLI user only as the traceback of a crash.

click, typer and argparse print their own error classes as messages; any other exception raised out
of a command stops the program with a traceback. When the user's input did not cause the failure
(no guard, validator or handler on the caller's values), the traceback's reader is whoever debugs
the crash: the raise is `exc`, and AEM201 (agent/cli/http by default) does not apply. A failure the
user's input caused, a class the framework reports, or a raise that a handler on the way reports
keeps the `cli` audience.
"""
from __future__ import annotations

import textwrap

from click.testing import CliRunner

from errlint.cli import main
from test_audience import make_project, run_json

STATE_CHECK = """
class Store:
    def __init__(self):
        self.conn = None

    def rows(self, table):
        if self.conn is None:
            raise RuntimeError("Store used before it was opened")
        return self.conn.execute(table)
"""


def audiences(root, monkeypatch, *codes: str) -> set:
    diagnostics = run_json(root, monkeypatch, "--select", ",".join(codes or ("AEM101", "AEM201", "AEM202", "AEM204")))
    return {(d["filename"], d["location"]["row"], d["code"], d["audience"]) for d in diagnostics}


def test_an_own_state_check_a_click_command_reaches_is_a_crash(tmp_path, monkeypatch):
    cli = """
        import click
        from store import Store

        @click.command()
        @click.argument("table")
        def dump(table):
            for row in Store().rows(table):
                click.echo(row)
        """
    root = make_project(tmp_path, {"cli.py": cli, "store.py": STATE_CHECK})
    assert audiences(root, monkeypatch) == set()
    shown = CliRunner().invoke(main, ["check", "--show-audience", "store.py:8", "."])
    assert "audience exc: only CLI commands reach store.Store.rows" in shown.output
    assert "call chain: cli.dump -> store.Store.rows" in shown.output


def test_the_same_check_reported_by_the_command_is_cli(tmp_path, monkeypatch):
    cli = """
        import sys
        import click
        from store import Store

        @click.command()
        @click.argument("table")
        def dump(table):
            try:
                rows = Store().rows(table)
            except RuntimeError as exc:
                sys.exit(f"dump: {exc}")
            for row in rows:
                click.echo(row)
        """
    root = make_project(tmp_path, {"cli.py": cli, "store.py": STATE_CHECK})
    assert audiences(root, monkeypatch, "AEM201") == {("store.py", 8, "AEM201", "cli")}


def test_an_argparse_value_the_user_typed_keeps_cli(tmp_path, monkeypatch):
    cli = """
        import argparse
        import units

        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("interval")
            args = parser.parse_args()
            print(units.seconds(args.interval))

        if __name__ == "__main__":
            main()
        """
    helper = """
        FACTORS = {"ms": 0.001, "s": 1, "min": 60}

        def seconds(text):
            number, _, unit = text.partition(" ")
            if unit not in FACTORS:
                raise ValueError("Unknown unit in the polling interval")
            return float(number) * FACTORS[unit]
        """
    root = make_project(tmp_path, {"cli.py": cli, "units.py": helper})
    found = audiences(root, monkeypatch)
    assert {audience for *_, audience in found} == {"cli"}
    assert {code for _, _, code, _ in found} == {"AEM202", "AEM204"}


def shown_audience(root, where: str) -> str:
    """The audience line `--show-audience` prints for FILE (its first raise) or FILE:LINE."""
    if ":" not in where:
        lines = (root / where).read_text().splitlines()
        where = f"{where}:{next(n for n, line in enumerate(lines, 1) if line.lstrip().startswith('raise '))}"
    out = CliRunner().invoke(main, ["check", "--show-audience", where, str(root)]).output
    return next(line.strip() for line in out.splitlines() if line.strip().startswith("audience "))


OPENED = """
        import click

        class StoreError(click.ClickException):
            pass

        _opened = []

        def current():
            if not _opened:
                raise StoreError("No store is open")
            return _opened[-1]
        """
CLI_SYNC = "import click\nimport stores\n\n\n@click.command()\ndef sync():\n    print(stores.current())\n"


def test_a_framework_error_class_is_reported_by_the_framework(tmp_path, monkeypatch):
    cli = """
        import typer
        import stores

        app = typer.Typer()

        @app.command()
        def sync():
            print(stores.current())
        """
    root = make_project(tmp_path, {"cli.py": cli, "stores.py": OPENED})
    monkeypatch.chdir(root)
    # the same raise of a builtin class stops the program with a traceback
    cli_until_replaced(root, "stores.py", "click.ClickException", "LookupError", "stores.current")


def cli_until_replaced(root, path: str, old: str, new: str, function: str) -> None:
    """The first raise in `path` is `cli`; once `old` is replaced by `new` there, it is a crash in
    `function` that only CLI commands reach (`exc`)."""
    assert shown_audience(root, path).startswith("audience cli: reached from cli.sync")
    (root / path).write_text((root / path).read_text().replace(old, new))
    assert shown_audience(root, path).startswith(f"audience exc: only CLI commands reach {function}")


def test_a_check_that_calls_out_keeps_cli(tmp_path, monkeypatch):
    # the test calls a project function, which may read the world (a lock file, a socket): the
    # reader may be able to act, so the crash is still the user's message
    helper = textwrap.dedent(OPENED).replace("if not _opened:", "if not _opened or not ready():") + "\n\ndef ready():\n    return True\n"
    root = make_project(tmp_path, {"cli.py": CLI_SYNC, "stores.py": helper.replace("click.ClickException", "LookupError")})
    monkeypatch.chdir(root)
    assert shown_audience(root, "stores.py").startswith("audience cli: reached from cli.sync")


def test_a_guard_on_values_every_call_fixes_is_a_crash(tmp_path, monkeypatch):
    helper = """
        def pad(width):
            if width < 0:
                raise ValueError("Negative padding")
            return " " * width
        """
    cli = """
        import click
        import layout

        @click.command()
        def show():
            click.echo(layout.pad(4) + "done")
        """
    root = make_project(tmp_path, {"cli.py": cli, "layout.py": helper})
    assert audiences(root, monkeypatch, "AEM101", "AEM201", "AEM202") == set()
    # the same helper called with the user's value: their input caused it
    cli_input = """
        import click
        import layout

        @click.command()
        @click.argument("width", type=int)
        def show(width):
            click.echo(layout.pad(width) + "done")
        """
    root = make_project(tmp_path / "input", {"cli.py": cli_input, "layout.py": helper})
    assert {(f, line, audience) for f, line, _, audience in audiences(root, monkeypatch, "AEM201", "AEM202")} == {("layout.py", 4, "cli")}


def test_a_tool_that_reaches_the_same_check_keeps_agent(tmp_path, monkeypatch):
    server = """
        from fastmcp import FastMCP
        from store import Store

        mcp = FastMCP("rows")

        @mcp.tool()
        def rows(table: str) -> list:
            return Store().rows(table)
        """
    cli = """
        import click
        from store import Store

        @click.command()
        def dump():
            print(Store().rows("t"))
        """
    root = make_project(tmp_path, {"server.py": server, "cli.py": cli, "store.py": STATE_CHECK})
    assert audiences(root, monkeypatch, "AEM201") == {("store.py", 8, "AEM201", "agent")}


def test_a_class_errlint_cannot_place_keeps_cli(tmp_path, monkeypatch):
    helper = OPENED.replace("class StoreError(click.ClickException):\n            pass\n", "").replace("StoreError", "ReportedError")
    root = make_project(tmp_path, {"cli.py": CLI_SYNC, "stores.py": helper})
    monkeypatch.chdir(root)
    # a class of another package (not a command-line framework's) is known to crash the command
    cli_until_replaced(root, "stores.py", "import click", "from somewhere import ReportedError", "stores.current")


def test_a_type_check_on_the_programs_own_object_under_argparse(tmp_path, monkeypatch):
    # httpx's shape: the test reads `self` and an imported class, read as a type
    streams = """
        from transport import SyncStream

        class Response:
            def __init__(self, stream):
                self.stream = stream

            def read(self):
                if not isinstance(self.stream, SyncStream):
                    raise RuntimeError("Attempted to read an async stream synchronously.")
                return b"".join(self.stream)
        """
    cli = """
        import argparse
        from streams import Response
        from transport import SyncStream

        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("url")
            args = parser.parse_args()
            print(Response(SyncStream(args.url)).read())
        """
    pyproject = '[project]\nname = "demo"\nversion = "0.1.0"\n\n[project.scripts]\ndemo = "cli:main"\n\n[tool.errlint]\n'
    root = make_project(tmp_path, {"cli.py": cli, "streams.py": streams, "transport.py": "class SyncStream(list):\n    pass\n"}, pyproject)
    monkeypatch.chdir(root)
    assert audiences(root, monkeypatch) == set()
    assert shown_audience(root, "streams.py").startswith("audience exc: only CLI commands reach streams.Response.read")


def test_a_project_exception_class_from_a_main_module(tmp_path, monkeypatch):
    index = """
        class CorruptIndex(Exception):
            pass

        _ENTRIES = {}

        def entry(key):
            if len(_ENTRIES) > 0 and "" not in _ENTRIES:
                raise CorruptIndex("The index lost its root entry")
            return _ENTRIES.get(key)
        """
    main_module = "from pkg.index import entry\n\nprint(entry('a'))\n"
    root = make_project(tmp_path, {"pkg/__init__.py": "", "pkg/__main__.py": main_module, "pkg/index.py": index})
    monkeypatch.chdir(root)
    assert shown_audience(root, "pkg/index.py").startswith("audience exc: only CLI commands reach pkg.index.entry")
    # the main module reports whatever it catches: the user reads the message, not a traceback
    (root / "pkg/__main__.py").write_text("import sys\nfrom pkg.index import entry\n\n\ndef main():\n    try:\n        print(entry('a'))\n"
                                          "    except Exception as exc:\n        sys.exit(f'index: {exc}')\n\n\nmain()\n")
    assert shown_audience(root, "pkg/index.py").startswith("audience cli")
