"""A log line right before the statement whose message the reader sees is judged with it (issue 13
item 5, issue 15 item 5): one finding, at that statement; the log line keeps only its own leaks.

Which next statements pair: a raise that makes an exception here (`raise X(...)`, `raise X`, `raise
err` bound to `X(...)` above), an exit or CLI error call with text (`sys.exit("...")`, `exit(...)`,
`parser.error(...)`, `ctx.fail(...)`, `abort(code, "...")`) and a return of text, a dict, a call's
value or a tuple of them (`return {"error": ...}, 500`). Which do not: a bare `raise` and a
re-raise of the caught exception (`raise exc`), an exit with a status only (`sys.exit(1)`) and a
return of a non-message (`return []`): the log line is then the only text, and it is judged alone.

Each case is a real project in a temp folder checked through the CLI."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from click.testing import CliRunner

from errlint.cli import main

VAGUE = "Something went wrong"


def rows(tmp_path: Path, monkeypatch, files: dict, select: str = "AEM101,AEM3") -> set:
    """{(file, row, code prefix)} of a `--select` run over a project made of `files`."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0.1.0"\n')
    for name, code in files.items():
        (root / name).write_text(textwrap.dedent(code))
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--preview", "--output-format", "json", "--select", select, "."])
    assert result.exit_code in (0, 1), result.output
    return {(d["filename"], d["location"]["row"], d["code"][:4]) for d in json.loads(result.output)}


CLI = f"""\
    import argparse
    import logging
    import sys

    import click

    logger = logging.getLogger(__name__)


    @click.command()
    @click.argument("path")
    @click.pass_context
    def main(ctx, path):
        if not path:
            logger.error("{VAGUE}")
            sys.exit("{VAGUE}")
        if path == "-":
            logger.error("{VAGUE}")
            exit("{VAGUE}.")
        if path == ".":
            logger.error("{VAGUE}")
            ctx.fail("{VAGUE}")
        if path == "..":
            logger.error("{VAGUE}")
            raise click.ClickException("{VAGUE}")
        if path == "~":
            logger.error("{VAGUE}")
            sys.exit(1)


    def legacy():
        parser = argparse.ArgumentParser()
        args = parser.parse_args()
        if not args:
            logger.error("{VAGUE}")
            parser.error("{VAGUE}")
    """


def test_log_then_exit_or_cli_error_with_text_is_one_finding_at_the_exit(tmp_path, monkeypatch):
    found = rows(tmp_path, monkeypatch, {"cli.py": CLI})
    # sys.exit("..."), exit(f"..."), ctx.fail("..."), raise ClickException, parser.error("..."): at the exit
    for log, sink in ((15, 16), (18, 19), (21, 22), (24, 25), (35, 36)):
        assert ("cli.py", sink, "AEM1") in found, (sink, found)
        assert ("cli.py", log, "AEM1") not in found, (log, found)
    # sys.exit(1) shows no text: the log line is all the user reads, so it is judged
    assert ("cli.py", 27, "AEM1") in found


HTTP = f"""\
    import logging

    from flask import Flask, abort, jsonify

    app = Flask(__name__)
    logger = logging.getLogger(__name__)


    @app.route("/a")
    def a():
        logger.error("{VAGUE}")
        return {{"error": "{VAGUE}"}}, 500


    @app.route("/b")
    def b():
        logger.error("{VAGUE}")
        return jsonify(error="{VAGUE}"), 400


    @app.route("/c")
    def c():
        logger.error("{VAGUE}")
        return [], 200


    @app.route("/d")
    def d():
        logger.error("{VAGUE}")
        abort(500, "{VAGUE}")
    """


def test_log_then_error_response_or_abort_is_one_finding_at_the_response(tmp_path, monkeypatch):
    found = rows(tmp_path, monkeypatch, {"app.py": HTTP})
    for log, sink in ((11, 12), (17, 18), (29, 30)):
        assert ("app.py", sink, "AEM1") in found, (sink, found)
        assert ("app.py", log, "AEM1") not in found, (log, found)
    # a 200 response with no error text: the log line is the only message, judged alone
    assert ("app.py", 23, "AEM1") in found


MCP = f"""\
    import logging

    from fastmcp import Context, FastMCP
    from fastmcp.exceptions import ToolError

    logger = logging.getLogger(__name__)
    mcp = FastMCP("x")


    @mcp.tool()
    async def fetch(url: str, ctx: Context) -> str:
        if not url:
            await ctx.error("{VAGUE}")
            raise ToolError("{VAGUE}")
        if url == "-":
            logger.error("{VAGUE}")
            raise ToolError("{VAGUE}") from None
        if url == ".":
            err = ToolError("{VAGUE}")
            logger.error("{VAGUE}")
            raise err
        if url == "~":
            await ctx.error(f"{VAGUE}; token {{ctx.session.token}}")
            raise ToolError("{VAGUE}")
        if url == "?":
            logger.error("{VAGUE}")
            return {{"error": "{VAGUE}"}}
        return url
    """


def test_ctx_error_or_log_then_tool_error_is_one_finding_at_the_raise(tmp_path, monkeypatch):
    found = rows(tmp_path, monkeypatch, {"server.py": MCP}, select="AEM101,AEM3,AEM601")
    # ctx.error + raise ToolError; log + raise ... from None; log + raise of the error made above
    # (reported where the ToolError's text is written)
    for log, sink in ((13, 14), (16, 17), (20, 19)):
        assert ("server.py", sink, "AEM1") in found, (sink, found)
        assert ("server.py", log, "AEM1") not in found, (log, found)
    # a leak in the paired log notification is still its own finding
    assert ("server.py", 23, "AEM3") in found and ("server.py", 23, "AEM1") not in found
    assert ("server.py", 24, "AEM1") in found
    # log + `return {"error": ...}` from a tool: one finding, at the return (AEM601: not isError)
    assert ("server.py", 27, "AEM6") in found and not {r for r in found if r[1] == 26}


REraise = f"""\
    import logging

    logger = logging.getLogger(__name__)


    def load(path):
        try:
            return open(path).read()
        except OSError:
            logger.error("{VAGUE}")
            raise


    def parse(path):
        try:
            return open(path).read()
        except OSError as exc:
            logger.error("{VAGUE}")
            raise exc


    def read(path):
        if not path:
            logger.error("{VAGUE}")
            raise ValueError("{VAGUE}")
        return path
    """


def test_log_then_reraise_is_judged_alone_like_a_bare_raise(tmp_path, monkeypatch):
    """A re-raise shows the caught exception's text, made elsewhere: the log line is the only text
    here, whether the re-raise is bare (`raise`) or names the caught exception (`raise exc`)."""
    found = rows(tmp_path, monkeypatch, {"lib.py": REraise})
    assert ("lib.py", 10, "AEM1") in found
    assert ("lib.py", 18, "AEM1") in found
    assert ("lib.py", 25, "AEM1") in found and ("lib.py", 24, "AEM1") not in found
    assert not {r for r in found if r[1] in (11, 19)}
