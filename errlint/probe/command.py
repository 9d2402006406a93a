"""`errlint probe -- COMMAND [ARGS...]`: probe a live MCP server's error replies.

Exit status: 0 no findings, 1 findings, 2 bad usage, bad configuration, a missing `mcp` SDK or a
server that cannot be started or listed. Loads nothing heavy at import time: the `mcp` SDK is
imported only when the command runs.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

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
@click.option("--allow-writes", is_flag=True, help="Also call tools not annotated readOnlyHint: true (they may change state); by default only read-only tools are called.")
@click.option("--allow-destructive", is_flag=True, help="Also call tools that may be destructive (destructiveHint: true, the MCP default for tools that are not read-only); needs --allow-writes or --tools.")
@click.option("--include-destructive", is_flag=True, hidden=True, help="Old name: --allow-writes --allow-destructive.")
@click.option("--read-only-only", is_flag=True, hidden=True, help="Old flag: only read-only tools are called by default now.")
@click.option("--arg", "given", multiple=True, metavar="NAME=VALUE", help="Use this value for argument NAME in every call that is not probing NAME (repeatable; JSON unless NAME is a string).")
@click.option("--cwd", type=click.Path(file_okay=False, exists=True), help="Run the server in this folder with your environment, instead of a fresh temporary folder with HOME and TMPDIR inside it.")
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
def probe(command: Tuple[str, ...], url: Optional[str], only, exclude_tools, allow_writes: bool, allow_destructive: bool,
          include_destructive: bool, read_only_only: bool, given, cwd: Optional[str], timeout: float, budget: float, startup_timeout: float, output_format: str, output_file: Optional[str],
          select, extend_select, ignore, config_path: Optional[str], isolated: bool, exit_zero: bool,
          color: Optional[bool], quiet: bool) -> None:
    """Start an MCP server, call its tools with wrong arguments, and lint the error replies.

    COMMAND starts the server over stdio: `errlint probe -- python server.py`. Each tool gets one
    call per kind of mistake its inputSchema allows (wrong type, value outside an enum, malformed
    format, number out of range, missing or unknown argument, string over maxLength) plus type-valid
    wrong values (an id that does not exist, a near-miss of a documented value, an empty string, a
    path outside any root, never sent to a tool that is not read-only). Replies are checked with the
    same rules as `errlint check`, and success replies that state an error are reported.

    Safe by default: only tools annotated readOnlyHint: true are called; others need --allow-writes
    (or their name in --tools), and destructive ones --allow-destructive too. The server runs in a
    fresh temporary folder with HOME and TMPDIR inside it (removed afterwards) unless --cwd. Needs
    `pip install 'errlint[probe]'`.
    """
    from ..config import ConfigError
    from ..output import render
    from ..runner import resolve_settings
    from .calls import given_values, is_read_only, plan_calls, select_tools, unknown_names
    from .client import ProbeError, Target, describe_targets, mcp_sdk, probe as run_probe
    from .findings import build, render_json
    from .known import known_value, learn, listing_calls
    from .report import Analyzer, enabled_codes, summary
    from .sandbox import Sandbox
    from .source import ServerSource, inspect_server

    command = tuple(command)
    if command and command[0] == "--":
        command = command[1:]
    if command and command[0].startswith("-"):
        _fail(f"unknown option {command[0]!r} for errlint probe; run `errlint probe --help` for the options, and put the server command after `--` (errlint probe -- python server.py)")
    only_names, excluded = _split(only), _split(exclude_tools)
    if include_destructive:
        allow_writes = allow_destructive = True
    raw_args: Dict[str, str] = {}
    for item in given:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            _fail(f"--arg {item!r} is not NAME=VALUE; pass e.g. --arg project_id=PRJ-1 (the value is JSON unless the argument is a string)")
        raw_args[name.strip()] = value
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

    def check_names(tools: List[Dict[str, Any]]) -> None:
        names = ", ".join(t.get("name", "") for t in tools) or "(none)"
        for option, given in (("--tools", only_names), ("--exclude-tools", excluded)):
            missing = unknown_names(tools, given)
            if missing:
                raise ProbeError(
                    f"{option} names {', '.join(repr(m) for m in missing)}, which the server does not list; "
                    f"its tools are: {names}. Pass names from that list"
                )

    def plan(tools: List[Dict[str, Any]], listing: Sequence[Any] = ()):
        check_names(tools)
        keep, skipped = select_tools(tools, only_names, excluded, allow_writes, allow_destructive)
        writes = [str(t.get("name", "")) for t in keep if not is_read_only(t)]
        if writes:
            why = "--allow-writes" if allow_writes else "--tools"
            click.echo(f"warning: {why}: calling {len(writes)} tool{'s' if len(writes) != 1 else ''} not annotated readOnlyHint: true, "
                       f"which may change state: {', '.join(writes)}", err=True)
        known = learn(listing)
        calls = []
        for tool in keep:
            given = given_values(tool, raw_args)
            schema = tool.get("inputSchema") if isinstance(tool.get("inputSchema"), dict) else {}
            for name in schema.get("required") or []:
                value = known_value(name, known, (schema.get("properties") or {}).get(name)) if name not in given else None
                if value is not None:
                    given[name] = value
            calls.extend(plan_calls(tool, given))
        return calls, skipped

    def discover(tools: List[Dict[str, Any]]):
        check_names(tools)
        return [c for c in listing_calls(tools) if c.tool not in excluded and (not only_names or c.tool in only_names)]

    box: Optional[Sandbox] = None
    source = ServerSource()
    notes: List[str] = []
    try:
        if target.command:
            box = Sandbox.given(cwd, target.command) if cwd else Sandbox.create(target.command)
            target = Target(command=box.command)
            source = inspect_server(box.command, box.env, box.cwd)
        run = run_probe(target, plan, timeout=timeout, budget=budget, startup_timeout=startup_timeout,
                        env=box.env if box else None, cwd=box.cwd if box else None, discover=discover)
        if run.listing:
            learned = sorted({r.call.tool for r in run.listing if r.outcome == "result" and not r.is_error})
            if learned:
                notes.append(f"note: valid values for the other arguments came from {', '.join(learned)} "
                             f"({len(run.listing)} argument-free call{'s' if len(run.listing) != 1 else ''} to read-only listing tools)")
        if box is not None and box.root:
            created = box.created()
            if created:
                shown = ", ".join(created[:8]) + (f" and {len(created) - 8} more" if len(created) > 8 else "")
                notes.append(f"note: the server created {len(created)} file{'s' if len(created) != 1 else ''} in its temporary folder "
                             f"(HOME and TMPDIR point there; removed afterwards): {shown}")
    except ProbeError as exc:
        _fail(str(exc))
    finally:
        if box is not None:
            box.remove()
    analyzer = Analyzer(settings, enabled, [str(t.get("name", "")) for t in run.tools], run.tools, source.versions, run.server_version)
    analyses = [analyzer.analyze(reply) for reply in run.replies]
    findings = build(run.server, analyses, source, target.command, run.tools)
    found = [f.diagnostic for f in findings]
    use_color = color if color is not None else (not output_file and not os.environ.get("NO_COLOR") and sys.stdout.isatty())
    if output_format == "json":
        text = render_json(findings)
    else:
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
        table = summary(run, analyses, findings, notes)
        if not run.tools:
            table = f"the server {run.server!r} lists no tools; nothing to probe\n"
        elif not run.replies and not run.stopped:
            table += "no tool was called: every listed tool was skipped (see above); name tools in --tools, or pass --allow-writes (and --allow-destructive) to call tools that may change state\n"
        machine = output_format != "concise" and not output_file
        click.echo(table, nl=False, err=machine)
    if found and not exit_zero:
        sys.exit(1)
