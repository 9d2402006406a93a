"""`errlint probe -- COMMAND [ARGS...]`: probe a live MCP server's error replies.

Exit status: 0 no findings, 1 findings, 2 bad usage, bad configuration, a missing `mcp` SDK or a
server that cannot be started or listed. Loads nothing heavy at import time: the `mcp` SDK is
imported only when the command runs.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Dict, List, Optional, Tuple

import click

from ..usage import fail as _fail, split_list as _split

PROBE_FORMATS = ("concise", "json", "sarif")


@click.command(
    "probe",
    context_settings={"allow_interspersed_args": False, "ignore_unknown_options": True, "help_option_names": ["-h", "--help"]},
)
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@click.option("--url", type=str, help="Probe a streamable-HTTP server at this loopback URL (e.g. http://127.0.0.1:8000/mcp) instead of starting COMMAND.")
@click.option("--tools", "only", multiple=True, help="Probe only these tools (comma-separated).")
@click.option("--exclude-tools", multiple=True, help="Do not call these tools (comma-separated).")
@click.option("--include-destructive", is_flag=True, help="Also call tools annotated destructiveHint: true (and, with --read-only-only, tools not annotated readOnlyHint: true).")
@click.option("--read-only-only", is_flag=True, help="Call only tools annotated readOnlyHint: true.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True, help="Seconds to wait for each call's reply.")
@click.option("--budget", type=click.FloatRange(min=1.0), default=120.0, show_default=True,
              help="Seconds for the whole probe, start-up included; calls left when it runs out are reported as not made.")
@click.option("--startup-timeout", type=click.FloatRange(min=0.1), default=30.0, show_default=True, help="Seconds for the server to start and list its tools.")
@click.option("--output-format", type=click.Choice(PROBE_FORMATS), default="concise", show_default=True)
@click.option("-o", "--output-file", type=click.Path(dir_okay=False), help="Write the diagnostics to this file instead of stdout.")
@click.option("--select", multiple=True, help="Rules to enable: codes, prefixes, names or ALL (comma-separated).")
@click.option("--extend-select", multiple=True, help="Rules to enable on top of `select`.")
@click.option("--ignore", multiple=True, help="Rules to disable.")
@click.option("--config", "config_path", type=str, help="Use this pyproject.toml or errlint.toml (for max-message-tokens, select, ...).")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings remain (errors still exit 2).")
@click.option("--color/--no-color", default=None, help="Colour the output (default: on a terminal, unless NO_COLOR is set).")
@click.option("-q", "--quiet", is_flag=True, help="Print diagnostics only, no summary table.")
def probe(command: Tuple[str, ...], url: Optional[str], only, exclude_tools, include_destructive: bool, read_only_only: bool,
          timeout: float, budget: float, startup_timeout: float, output_format: str, output_file: Optional[str],
          select, extend_select, ignore, config_path: Optional[str], isolated: bool, exit_zero: bool,
          color: Optional[bool], quiet: bool) -> None:
    """Start an MCP server, call its tools with wrong arguments, and lint the error replies.

    COMMAND starts the server over stdio: `errlint probe -- python server.py`. Each tool gets one
    call per kind of mistake its inputSchema allows (wrong type, value outside an enum, malformed
    format, number out of range, missing or unknown argument, string over maxLength) plus type-valid
    wrong values (an id that does not exist, a near-miss of a documented value, an empty string, a
    path outside any root). Replies are checked with the same rules as `errlint check`. Tools
    annotated destructiveHint: true are skipped unless --include-destructive. Needs
    `pip install 'errlint[probe]'`.
    """
    from ..config import ConfigError
    from ..output import render
    from ..runner import resolve_settings
    from .calls import plan_calls, select_tools, unknown_names
    from .client import ProbeError, describe_targets, mcp_sdk, probe as run_probe
    from .report import Analyzer, diagnostics, enabled_codes, summary

    command = tuple(command)
    if command and command[0] == "--":
        command = command[1:]
    if command and command[0].startswith("-"):
        _fail(f"unknown option {command[0]!r} for errlint probe; run `errlint probe --help` for the options, and put the server command after `--` (errlint probe -- python server.py)")
    only_names, excluded = _split(only), _split(exclude_tools)
    try:
        target = describe_targets(command, url)
        mcp_sdk()
    except ProbeError as exc:
        _fail(str(exc))
    try:
        settings = resolve_settings([os.getcwd()], config_path, isolated, {})
        enabled = enabled_codes(settings, _split(select) or None, _split(extend_select), _split(ignore))
    except ConfigError as exc:
        _fail(str(exc))

    def plan(tools: List[Dict[str, Any]]):
        names = ", ".join(t.get("name", "") for t in tools) or "(none)"
        for option, given in (("--tools", only_names), ("--exclude-tools", excluded)):
            missing = unknown_names(tools, given)
            if missing:
                raise ProbeError(
                    f"{option} names {', '.join(repr(m) for m in missing)}, which the server does not list; "
                    f"its tools are: {names}. Pass names from that list"
                )
        keep, skipped = select_tools(tools, only_names, excluded, include_destructive, read_only_only)
        return [call for tool in keep for call in plan_calls(tool)], skipped

    try:
        run = run_probe(target, plan, timeout=timeout, budget=budget, startup_timeout=startup_timeout)
    except ProbeError as exc:
        _fail(str(exc))
    analyzer = Analyzer(settings, enabled, [str(t.get("name", "")) for t in run.tools])
    analyses = [analyzer.analyze(reply) for reply in run.replies]
    found = diagnostics(run.server, analyses)
    use_color = color if color is not None else (not output_file and not os.environ.get("NO_COLOR") and sys.stdout.isatty())
    text = render(output_format, found, color=use_color, sources={}, files=sorted({d.filename for d in found}))
    if output_file:
        try:
            with open(output_file, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as exc:
            _fail(f"cannot write --output-file {output_file!r} ({exc.strerror}); pass a writable path")
    elif text:
        click.echo(text, nl=False)
    if not quiet:
        table = summary(run, analyses, found)
        if not run.tools:
            table = f"the server {run.server!r} lists no tools; nothing to probe\n"
        elif not run.replies and not run.stopped:
            table += "no tool was called: every listed tool was skipped (see above); pass --tools or --include-destructive to choose tools\n"
        machine = output_format != "concise" and not output_file
        click.echo(table, nl=False, err=machine)
    if found and not exit_zero:
        sys.exit(1)
