"""Analysed replies -> findings for the server author: grouped, located, reproducible.

- The framework's own argument-validation replies (see `origin`) become one finding per framework
  pattern and server, listing the tools, with the fix that exists in that framework version.
- The server's own replies: the same problem on several calls of one tool is one finding naming the
  other calls; the same reply (tool names and sent values aside) on several tools is one finding
  with the count and the tools.
- Each finding sits where the server's source writes the reply's text (`source.locate_text`), else at
  the tool's definition (`source.locate`), when the source is known, else at `mcp://<server>/<tool>`; its label names the tool, the probe kind and the argument the reply
  is about (`report.subject_argument`), and `details` holds the JSON fields, with a reproduction.
"""
from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ..model import Diagnostic, Level, Location, printable
from .calls import ProbeCall, _short
from .origin import Origin
from .report import STRUCTURAL, Analysis, Problem, quote, strip_prefix
from .source import ServerSource


@dataclass
class Finding:
    """One reported problem: `items` the (analysis, problem) pairs it stands for (the first is the
    example), `tools` the tools they came from, `diagnostic` what the renderers print and `details`
    the probe's JSON fields."""

    code: str
    origin: Origin
    items: List[Tuple[Analysis, Problem]]
    tools: List[str]
    diagnostic: Optional[Diagnostic] = None
    details: Dict[str, Any] = field(default_factory=dict)


def server_uri(server: str, tool: str) -> str:
    """The filename of a probe diagnostic without known source: `mcp://<server>/<tool>` (spaces and slashes replaced)."""
    clean = re.sub(r"[\s/]+", "-", server.strip()) or "server"
    return f"mcp://{clean}/{tool}"


def label(analysis: Analysis) -> str:
    """`tool kind argument=value`, naming the argument the reply is about and only that one: when the
    reply is about another argument than the one the call got wrong, "tool kind call: reply about X=v"."""
    call = analysis.reply.call
    subject = analysis.subject or call.argument
    if subject and subject != call.argument and subject in call.arguments:
        return f"{call.tool} {call.kind} call: reply about {subject}={_short(call.arguments[subject])}"
    return f"{call.tool} {call.label()}"


def _signature(code: str, analysis: Analysis) -> str:
    """What makes two findings of one code on one tool the same problem: nothing for the structural
    codes, else the reply's first line without the values the call sent, quoted text and numbers."""
    if code in STRUCTURAL:
        return ""
    text = strip_prefix(analysis.reply.text)
    first = text.splitlines()[0] if text.strip() else ""
    return _normalise(first, analysis.reply.call)[:80]


def _normalise(text: str, call: ProbeCall) -> str:
    for value in list(call.arguments.values()) + [call.tool]:
        if isinstance(value, str) and len(value) >= 3:
            text = re.sub(r"(?<!\w)" + re.escape(value) + r"(?!\w)", "", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`|\d+", "", text)
    return " ".join(text.split())


def group(analyses: Sequence[Analysis]) -> List[Finding]:
    """Framework findings (one per origin) and server findings (per tool, then merged across tools)."""
    framework: Dict[str, Finding] = {}
    per_tool: Dict[Tuple[str, str, str], Finding] = {}
    for analysis in analyses:
        tool = analysis.reply.call.tool
        for problem in analysis.problems:
            if analysis.origin.kind == "framework":
                found = framework.setdefault(analysis.origin.label, Finding(problem.code, analysis.origin, [], []))
            else:
                key = (tool, problem.code, _signature(problem.code, analysis))
                found = per_tool.setdefault(key, Finding(problem.code, analysis.origin, [], []))
            found.items.append((analysis, problem))
            if tool not in found.tools:
                found.tools.append(tool)
    merged: Dict[Tuple[str, str], Finding] = {}
    for finding in per_tool.values():
        first = finding.items[0][0]
        key = (finding.code, _normalise(strip_prefix(first.reply.text), first.reply.call))
        if key in merged and key[1]:
            target = merged[key]
            target.items.extend(finding.items)
            target.tools.extend(t for t in finding.tools if t not in target.tools)
        else:
            merged[key if key[1] else (finding.code, f"\0{id(finding)}")] = finding
    out = list(framework.values()) + list(merged.values())
    for finding in framework.values():
        codes = [p.code for _a, p in finding.items]
        finding.code = "AEM404" if "AEM404" in codes else max(set(codes), key=codes.count)
    return out


def build(server: str, analyses: Sequence[Analysis], source: Optional[ServerSource] = None, command: Sequence[str] = (),
          listing: Sequence[Dict[str, Any]] = ()) -> List[Finding]:
    """The findings of a probe run, each with its Diagnostic and JSON details, sorted."""
    from ..registry import rule_catalog

    catalog = rule_catalog()
    source = source or ServerSource()
    gated = {str(t.get("name", "")) for t in listing if (t.get("annotations") or {}).get("readOnlyHint") is not True}
    destructive = {str(t.get("name", "")) for t in listing
                   if str(t.get("name", "")) in gated and (t.get("annotations") or {}).get("destructiveHint") is not False}
    findings = group(analyses)
    for finding in findings:
        analysis, problem = finding.items[0]
        reply = analysis.reply
        if finding.origin.kind == "framework":
            codes = sorted({p.code for _a, p in finding.items})
            many = len(finding.tools)
            message = (f"[{finding.origin.label}] {many} tool{'s' if many != 1 else ''} answer bad arguments with the framework's own "
                       f"validation text, not the server's ({', '.join(codes)}): {', '.join(finding.tools)}; "
                       f"e.g. [{label(analysis)}]: {quote(reply.text, 200)}")
            suggestion = finding.origin.fix[0].upper() + finding.origin.fix[1:] + "."
            where = source.locate_framework()
            filename, row = where if where else (server_uri(server, ""), 1)
        else:
            message = f"[{label(analysis)}] {problem.message}"
            calls = [a for a, _p in finding.items[1:] if a.reply.call.tool == reply.call.tool]
            if calls:
                others = ", ".join(label(a).split(" ", 1)[1] for a in calls[:3])
                more = f" and {len(calls) - 3} more" if len(calls) > 3 else ""
                message += f" (also on: {others}{more})"
            if len(finding.tools) > 1:
                message += f" (the same reply from {len(finding.tools)} tools: {', '.join(finding.tools)})"
            suggestion = problem.suggestion
            said = analysis.disguise.evidence if analysis.disguise else strip_prefix(reply.text)
            sent = [v for v in reply.call.arguments.values() if isinstance(v, str)]
            where = source.locate_text(said, sent) or source.locate(reply.call.tool)
            filename, row = where if where else (server_uri(server, reply.call.tool), 1)
        rule = catalog.get(finding.code)
        at = Location(row, 1)
        finding.diagnostic = Diagnostic(
            code=finding.code, name=rule.name if rule else finding.code, message=printable(message), filename=filename,
            location=at, end_location=at, level=getattr(rule, "LEVEL", Level.WARNING) if rule else Level.WARNING,
            suggestion=printable(suggestion), url=rule.url if rule else "", noqa_row=row,
        )
        finding.details = details(finding, command, gated, destructive)
    return sorted(findings, key=lambda f: f.diagnostic.sort_key())


def details(finding: Finding, command: Sequence[str], gated: Set[str] = frozenset(), destructive: Set[str] = frozenset()) -> Dict[str, Any]:
    """The JSON fields of a finding: tool(s), probe kind, argument, arguments sent, isError, reply
    text, tokens, origin, count, and a reproduction (a JSON-RPC `tools/call` line and an
    `errlint probe` command with `--tools` and `--arg`)."""
    analysis, _problem = finding.items[0]
    reply = analysis.reply
    call = reply.call
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": call.tool, "arguments": call.arguments}}
    options = ["errlint", "probe", "--tools", call.tool]
    for name, value in call.arguments.items():
        if name != call.argument:
            options += ["--arg", f"{name}={value if isinstance(value, str) else json.dumps(value)}"]
    if call.tool in destructive:
        options.append("--allow-destructive")
    again = shlex.join(options + (["--", *command] if command else []))
    return {
        "tool": call.tool,
        "tools": list(finding.tools),
        "kind": call.kind,
        "argument": analysis.subject or call.argument,
        "probed_argument": call.argument,
        "arguments": call.arguments,
        "outcome": reply.outcome,
        "isError": reply.is_error,
        "reply": reply.text,
        "tokens": analysis.tokens,
        "origin": finding.origin.label,
        "count": len(finding.items),
        "state_changing": call.tool in gated,
        "reproduce": {"jsonrpc": json.dumps(request, ensure_ascii=False), "command": again},
    }


def render_json(findings: Sequence[Finding]) -> str:
    """errlint's JSON diagnostics, each with a `probe` object of `details`."""
    from ..output.json_format import diagnostic_object

    return json.dumps([{**diagnostic_object(f.diagnostic), "probe": f.details} for f in findings], indent=2, ensure_ascii=False) + "\n"
