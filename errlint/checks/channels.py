"""Channel misuse: CLI errors on stdout (AEM606) and stdout in a stdio MCP server (AEM607).

Both are about where a line goes, not what it says: stderr is for diagnostics, and over stdio an MCP
server's stdout is the JSON-RPC stream."""
from __future__ import annotations

import re
from typing import Iterable, Optional

import libcst as cst

from ..extract import nodes
from ..fixes import call_arg_edit, imports_for, rebound
from ..model import EXCEPTION, Applicability, Finding, Fix, Level, Message
from ..prose import failure_statements
from .base import FileContext, Rule, run_lines
from .mcp import ERROR_TEXT, RICH_MARKUP


class CliErrorChannel(Rule):
    """## What it does
    In command-line code, flags (a) an error printed to stdout (`print("Error ...")`, `click.echo(e)`
    of the caught exception, `click.echo(...)` without `err=True`, rich's `print` or a `Console()`
    built without `stderr=True`) right before a non-zero exit, and (b) a non-zero exit in an `except`
    handler that printed nothing at all (any call that looks like output, such as `show_error(e)` or
    `log.error(...)`, counts as printing). Consecutive output lines are one report: it is reported
    once, at its first line, and the fix moves every line. A function that talks with a person at
    the terminal (`input()`, `click.prompt`/`confirm`, rich's `Prompt.ask`, questionary) is left
    alone: its stdout is the conversation, and so are lines printed right before a debugger session
    (`pdb.post_mortem`, `breakpoint()`). So is `os._exit(n)` after an `os.fork()` in its function:
    that is what `os._exit` is for, a forked process (a daemon with its stdio detached) leaving at once.

    ## Why is this bad?
    Agents and pipes read stdout as the command's data and stderr as its diagnostics (clig.dev); a
    silent exit 1 leaves the reader nothing to act on.

    ## Example
    ```python
    print("Error: config not found")
    sys.exit(1)
    ```

    Use instead:
    ```python
    print("Error: config.toml not found; run `tool init` to create it.", file=sys.stderr)
    sys.exit(1)
    ```

    ## Fix safety
    Safe for (a): `file=sys.stderr` (adding `import sys` when needed) or `err=True` is added.
    Display-only for (b).

    ## Options
    None.
    """

    CODE = "AEM606"
    NAME = "cli-error-channel"
    SUMMARY = "CLI error on stdout, or a silent non-zero exit"
    PROFILES = ("cli",)
    SINKS = frozenset({"stdout", "exit"})
    PROSE = False
    FIX = Applicability.SAFE
    VALID = (
        "import sys\nprint('Error: config not found; run `tool init`.', file=sys.stderr)\nsys.exit(1)\n",
        "import sys\nprint('Done.')\nsys.exit(0)\n",
        "import sys\ntry:\n    run()\nexcept KeyError as e:\n    print(f'missing key {e}; add it to config.toml', file=sys.stderr)\n    sys.exit(1)\n",
    )
    INVALID = (
        "import sys\nprint('Error: config not found')\nsys.exit(1)\n",
        "import click, sys\nclick.echo('Failed to connect to the server')\nsys.exit(2)\n",
        "import sys\ntry:\n    run()\nexcept KeyError:\n    sys.exit(1)\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if message.sink == "exit":
            if message.extra.get("silent"):
                yield self.finding(message, "the command exits non-zero without printing why", "Print what failed and the next step to stderr before exiting.", anchor=message.node)
            return
        # The consecutive lines printed before the exit are one report: judged, reported and fixed
        # together, at its first stdout line (not at whichever line happens to say "error").
        report = [message] + [m for m in run_lines(message, ctx) if m.sink == "stdout"]
        report.sort(key=lambda m: m.extra.get("run", (0, 0, 0))[1])
        if report[0] is not message or interactive(message, ctx) or any(m.extra.get("before_debugger") for m in report):
            return  # another line reports it; or a wizard or a debugger session talking to the person at the terminal
        if not any(_reads_as_error(t) for m in report for t in m.templates):
            return
        if message.callee.startswith("rich.console."):
            yield self.finding(message, "an error is printed to stdout (a rich Console without stderr=True) before a non-zero exit", "Print errors with a `Console(stderr=True)` (e.g. `err_console = Console(stderr=True)`).", anchor=message.node)
            return
        echo = message.callee.rsplit(".", 1)[-1] in ("echo", "secho")
        target = "err=True" if echo else "file=sys.stderr"
        lines = f" ({len(report)} lines)" if len(report) > 1 else ""
        yield self.finding(message, f"an error is printed to stdout{lines} before a non-zero exit", f"Print it to stderr: add `{target}`.", anchor=message.node, fix=self._fix(report, ctx))

    def _fix(self, report, ctx: FileContext) -> Optional[Fix]:
        edits, needs_sys = [], False
        for message in report:
            if message.callee.startswith("rich.console.") or not isinstance(message.node, cst.Call) or nodes.keyword_arg(message.node, "file", "err") is not None:
                return None
            if rebound(ctx.module, nodes.root_name(message.node.func)):
                return None  # `print = sys.stdout.write`: the call is not the one the keyword belongs to
            echo = message.callee.rsplit(".", 1)[-1] in ("echo", "secho")
            try:
                edit = call_arg_edit(message.node, ctx.code, "err=True" if echo else "file=sys.stderr")
            except RecursionError:  # a print of hundreds of joined pieces: report without a fix
                return None
            if edit is None:
                return None
            edits.append(edit)
            needs_sys = needs_sys or not echo
        extra = imports_for(ctx.module, ctx.text, "import sys", "sys") if needs_sys else []
        if extra is None:
            return None
        targets = sorted({"err=True" if m.callee.rsplit(".", 1)[-1] in ("echo", "secho") else "file=sys.stderr" for m in report})
        return Fix(Applicability.SAFE, f"Add `{'` / `'.join(targets)}`", (*edits, *extra))


class StdoutInStdioServer(Rule):
    """## What it does
    In a module that runs an MCP server over stdio (`mcp.run()`, whose default transport is stdio,
    `mcp.run(transport="stdio")`, `run_stdio_async()`, `stdio_server()`), flags `print()` to stdout and
    `sys.stdout.write()` in a tool, a resource, a low-level handler or a function they call, and a
    `print()` in the block that starts the server, before the call that starts it. Also a logging
    set-up that sends records to stdout in the server's process (`logging.basicConfig(stream=sys.stdout)`,
    `logging.StreamHandler(sys.stdout)`, loguru's `logger.add(sys.stdout)`) at module level, in the
    block that starts the server or in a tool.

    ## Why is this bad?
    Over stdio, stdout *is* the JSON-RPC channel: the client parses every line as a protocol message.
    A stray "Processing..." line is a parse error on the client, which drops the message or the
    connection; the model sees a failed call instead of the tool's answer. Logs and diagnostics belong
    on stderr (the MCP spec: servers MAY write UTF-8 strings to stderr for logging, and MUST NOT write
    anything to stdout that is not a valid MCP message).

    ## Example
    ```python
    @mcp.tool()
    def sync(repo: str) -> str:
        print(f"Syncing {repo}...")
        return do_sync(repo)
    ```

    Use instead:
    ```python
        logger.info("Syncing %s", repo)  # logging writes to stderr
    ```

    ## Fix safety
    Safe for `print()`: `file=sys.stderr` is added (with `import sys` when needed); the text is
    unchanged, only where it goes. `sys.stdout.write` gets a display-only suggestion.

    ## Options
    None.
    """

    CODE = "AEM607"
    NAME = "stdout-in-stdio-server"
    SUMMARY = "print() to stdout in an MCP server that speaks JSON-RPC over stdio"
    PROFILES = ("agent",)
    SINKS = frozenset({"stdio-print"})
    LEVEL = Level.ERROR
    PROSE = False
    FIX = Applicability.SAFE
    VALID = (
        "import sys\nfrom fastmcp import FastMCP\nmcp = FastMCP('x')\n@mcp.tool()\ndef sync(repo: str) -> str:\n    print(f'Syncing {repo}', file=sys.stderr)\n    return repo\nmcp.run()\n",
        "from fastmcp import FastMCP\nmcp = FastMCP('x')\n@mcp.tool()\ndef sync(repo: str) -> str:\n    print(f'Syncing {repo}')\n    return repo\nmcp.run(transport='http', port=8000)\n",
        "from fastmcp import FastMCP\nmcp = FastMCP('x')\ndef main():\n    mcp.run()\n    print('Server stopped.')\n",
    )
    INVALID = (
        "from fastmcp import FastMCP\nmcp = FastMCP('x')\n@mcp.tool()\ndef sync(repo: str) -> str:\n    print(f'Syncing {repo}')\n    return repo\nif __name__ == '__main__':\n    mcp.run()\n",
        "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\ndef main():\n    print('Starting the notes server...')\n    mcp.run(transport='stdio')\n",
        "import sys\nfrom mcp.server.mcpserver import MCPServer\nmcp = MCPServer('x')\ndef fetch(url):\n    sys.stdout.write(f'GET {url}\\n')\n    return url\n@mcp.tool()\ndef get(url: str) -> str:\n    return fetch(url)\nmcp.run()\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if not ctx.facts.stdio:
            return
        function = message.context.function
        serving = function is not None and (function.role in ("tool", "lowlevel", "resource") or function.reachable_from_tool)
        if message.extra.get("log_config"):
            if function is None or serving or message.extra.get("before_stdio_run"):  # runs in the server's process
                yield self.finding(
                    message,
                    f"`{message.callee}` sends log records to stdout in this stdio MCP server: stdout is the JSON-RPC "
                    "stream, and the client cannot parse a log line",
                    "Log to stderr: pass `sys.stderr` (or leave the stream out; logging's default is stderr).",
                    anchor=message.node,
                )
            return
        if not (serving or message.extra.get("before_stdio_run")):
            return
        when = "while it serves" if serving else "before it starts"
        fix = None
        if message.callee == "print" and isinstance(message.node, cst.Call) and nodes.keyword_arg(message.node, "file") is None \
                and not rebound(ctx.module, "print"):
            try:
                edit = call_arg_edit(message.node, ctx.code, "file=sys.stderr")
            except RecursionError:
                edit = None
            extra = imports_for(ctx.module, ctx.text, "import sys", "sys") if edit is not None else None
            if edit is not None and extra is not None:
                fix = Fix(Applicability.SAFE, "Add `file=sys.stderr`", (edit, *extra))
        yield self.finding(
            message,
            f"`{message.callee}` writes to stdout {when} this stdio MCP server: stdout is the JSON-RPC stream, and the client cannot parse the line",
            "Log it (logging writes to stderr) or print to stderr: add `file=sys.stderr`.",
            anchor=message.node,
            fix=fix,
        )


INTERACTIVE_CALLS = re.compile(r"^(input|getpass|prompt|confirm|ask|select|checkbox|text|password|raw_input|edit|pause)$")
INTERACTIVE_MODULES = ("click.", "typer.", "questionary.", "inquirer.", "getpass.", "rich.prompt.", "prompt_toolkit.", "InquirerPy.")


def interactive(message: Message, ctx: FileContext) -> bool:
    """The function talks with a person at the terminal (`input()`, `click.prompt`, `Prompt.ask`,
    questionary): its stdout is the conversation, not data another program reads."""
    function = message.context.function
    if function is None or function.node is None:
        return False
    cache = getattr(ctx, "_interactive", None)
    if cache is None:
        cache = ctx._interactive = {}  # type: ignore[attr-defined]
    key = id(function.node)
    if key not in cache:
        found = False
        for node in nodes.iter_expr(function.node.body, stop=(cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            if isinstance(node, cst.Call):
                head, _, rest = nodes.dotted(node.func).partition(".")
                qualified = ctx.facts.imports.get(head, head) + ("." + rest if rest else "")
                if qualified in ("input", "raw_input", "builtins.input") or INTERACTIVE_CALLS.match(nodes.last_name(node.func)) and qualified.startswith(INTERACTIVE_MODULES):
                    found = True
                    break
        cache[key] = found
    return cache[key]


# a rule the input broke, stated: "PORT must be between 1 and 65535, got 70000."
BROKEN_RULE = re.compile(r"\b(?:must(?: not)?|should(?: not)?|needs? to|has to|have to) (?:be|have|contain|match|start|end|exist|not)\b|\b(?:is|are) required\b", re.I)


def _reads_as_error(template) -> bool:
    """Error words, a failure statement ("could not read X", "X is not valid"), a broken rule stated
    ("PORT must be between 1 and 65535"), or the caught exception's own text (`click.echo(e)` before
    `sys.exit(1)`)."""
    prose = RICH_MARKUP.sub("", template.prose)
    return bool(ERROR_TEXT.search(prose) or failure_statements(prose) or BROKEN_RULE.search(prose)) or any(h.has(EXCEPTION) for h in template.placeholders)
