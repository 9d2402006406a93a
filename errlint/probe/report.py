"""Replies from a live MCP server -> errlint findings (the catalogue's codes) and a per-tool summary.

For each reply (see `client.Reply`):

- AEM601 error-returned-as-success: a success result (isError=false) to a call that breaks the
  tool's inputSchema, or a success result whose text reads as an error ("Error: ...", a traceback,
  `{"error": ...}`);
- AEM602 protocol-error-for-fixable-failure: a JSON-RPC error instead of an isError result;
- AEM603 message-masked-by-framework: the text is only the framework's generic wrapper
  ("Error executing tool X", "Error calling tool 'X'");
- AEM404 validation-error-dump / AEM403 schema-dump: pydantic or jsonschema error text, or a JSON
  schema, in the reply;
- AEM401 message-too-long: more than `max-message-tokens` (default 120) o200k_base tokens, counted
  with `errlint.tokens.count` (exact with a cached tiktoken encoding, else estimated);
- every default-on prose, leak and guidance rule (AEM1xx-AEM5xx) through `errlint.api.check_text`, on
  the text after the framework's own prefix. The probe's calls are caller mistakes by construction,
  so the rules that only fire on caller-fixable errors (AEM501 escalation, AEM502 stop) are run with
  that context too, and AEM209 (unknown tool reference) with the server's full tool list.

Findings become `Diagnostic`s with filename `mcp://<server>/<tool>`, row and column 1, and the call
(`kind argument=value`) at the start of the message, so `errlint.output.render` prints them in every
format. The same problem seen on several calls of one tool is reported once, naming the other calls.
"""
from __future__ import annotations

import json
import re
import statistics
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from .. import tokens
from ..config import Settings
from ..model import Diagnostic, Level, Location
from .calls import ProbeCall
from .client import ProbeRun, Reply

PROSE_PREFIXES = ("AEM1", "AEM2", "AEM3", "AEM4", "AEM5")
STRUCTURAL = ("AEM401", "AEM403", "AEM404", "AEM601", "AEM602", "AEM603")
"""Codes reported once per tool whatever the reply text (the same defect on every call)."""

FRAMEWORK_PREFIX = re.compile(r"^(?:Error executing tool [\w.\-]+: |Error calling tool '[^'\n]*': |Input validation error: )")
MASKED = re.compile(r"^(?:Error executing tool [\w.\-]+|Error calling tool '[^'\n]*')\.?$")
PYDANTIC_DUMP = re.compile(
    r"\d+ validation errors? for \w+|\binput_value=|errors\.pydantic\.dev/|\[type=[a-z_]+, input_", re.I
)
JSONSCHEMA_DUMP = re.compile(
    r"Failed validating '?\w+'? in (?:meta)?schema|\bOn instance\[|is not valid under any of the given schemas", re.I
)
SCHEMA_DUMP = re.compile(
    r"""["'](?:properties|\$defs|definitions|additionalProperties|inputSchema|\$schema)["']\s*:"""
)
ERRORISH = re.compile(
    r"^\W{0,3}(?:errors?|failed|failure|fail|invalid|unknown|cannot|can't|could not|couldn't|unable to|not found|"
    r"no such|exception|denied|forbidden|unauthori[sz]ed|traceback)\b",
    re.I,
)
TRACEBACK = re.compile(r"Traceback \(most recent call last\)")


@dataclass
class Problem:
    """One finding on one reply, before it becomes a Diagnostic: code, message (without the call
    label), suggestion."""

    code: str
    message: str
    suggestion: str


@dataclass
class Analysis:
    """A reply with its token count (o200k_base) and the problems found in it."""

    reply: Reply
    tokens: int
    problems: List[Problem] = field(default_factory=list)


def quote(text: str, width: int = 80) -> str:
    """`text` on one line (newlines shown as \\n), cut to about `width` characters, in double quotes."""
    flat = text.strip().replace("\r", "").replace("\n", "\\n")
    if len(flat) > width:
        flat = flat[: width - 1].rstrip() + "…"
    return '"' + flat + '"'


def looks_like_error(text: str) -> bool:
    """True when a success reply's text reads as an error: it starts with an error word, holds a
    Python traceback, or is a JSON object with an "error"/"errors" key."""
    stripped = text.strip()
    if not stripped:
        return False
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except ValueError:
            data = None
        if isinstance(data, dict):
            return any(data.get(k) for k in ("error", "errors"))
    return bool(ERRORISH.match(stripped.splitlines()[0]) or TRACEBACK.search(stripped))


def strip_prefix(text: str) -> str:
    """The reply text without the framework's own prefix ("Error executing tool X: ")."""
    return FRAMEWORK_PREFIX.sub("", text.strip(), count=1)


class Analyzer:
    """Applies the probe checks and the catalogue's text rules to replies.

    `enabled` is the set of enabled rule codes (from the usual selection: config, --select, --ignore);
    `tools` the listed tool names (for AEM205/AEM209); `settings` gives `max-message-tokens` and the
    other rule options.
    """

    def __init__(self, settings: Settings, enabled: Iterable[str], tools: Sequence[str] = ()) -> None:
        self.settings = settings
        self.enabled = set(enabled)
        self.tools = tuple(tools)
        self.prose_codes = sorted(c for c in self.enabled if c.startswith(PROSE_PREFIXES) and c != "AEM401")
        options = settings.options_for("AEM401")
        self.max_tokens = int(options.get("max-message-tokens") or 120)
        self.max_chars = options.get("max-message-length")

    def analyze(self, reply: Reply) -> Analysis:
        """The problems of one reply (timeouts and SDK errors have none: there is no reply text)."""
        count = tokens.count(reply.text) if reply.outcome in ("result", "protocol-error") else 0
        out = Analysis(reply, count)
        if reply.outcome not in ("result", "protocol-error"):
            return out
        call = reply.call
        text = reply.text
        errorish = reply.outcome == "protocol-error" or reply.is_error or looks_like_error(text)
        add = out.problems.append
        if reply.outcome == "result" and not reply.is_error:
            if looks_like_error(text):
                add(Problem("AEM601", f"the reply reads as an error but is a success result (isError=false), so clients treat it as data: {quote(text)}",
                            "Raise ToolError (MCPServer/FastMCP) or return CallToolResult with isError=true instead of returning the error text."))
            elif call.malformed:
                add(Problem("AEM601", f"the tool accepted a call that breaks its inputSchema and answered isError=false: {quote(text)}",
                            f"Validate `{call.argument}` and answer with a tool error (isError=true) naming the argument, the value sent and what is allowed."))
        if reply.outcome == "protocol-error":
            add(Problem("AEM602", f"the server answered with a JSON-RPC error (code {reply.code}) instead of an isError result; "
                        f"clients may never show it to the model: {quote(text)}",
                        "Raise ToolError (MCPServer/FastMCP) or return CallToolResult(isError=true) for bad arguments and business errors; "
                        "keep JSON-RPC errors for unknown tools and malformed requests."))
        if not errorish:
            out.problems = [p for p in out.problems if p.code in self.enabled]
            return out
        body = strip_prefix(text)
        masked = bool(MASKED.match(text.strip()))
        if masked:
            add(Problem("AEM603", f"the framework replaced the tool's message with a generic one: {quote(text)}",
                        "Raise the framework's ToolError with the message (mcp >= 2.1 masks every other exception), or turn off error masking (FastMCP mask_error_details)."))
        dump = ""
        if PYDANTIC_DUMP.search(text):
            dump = "pydantic"
        elif JSONSCHEMA_DUMP.search(text):
            dump = "jsonschema"
        if dump:
            add(Problem("AEM404", f"the reply dumps a {dump} validation error ({count} tokens): {quote(text)}",
                        "Answer with one line per error, `<argument>: <problem>; allowed: <values>` (pydantic: e.errors(include_url=False)); "
                        "with FastMCP a middleware can rewrite ValidationError."))
        elif SCHEMA_DUMP.search(text):
            add(Problem("AEM403", f"the reply dumps a JSON schema ({count} tokens): {quote(text)}",
                        "Name the argument and what is allowed instead of the schema; the client already has the inputSchema from tools/list."))
        limit_hit = self._size(count, text)
        if limit_hit:
            add(Problem("AEM401", limit_hit,
                        "Keep what failed, what is allowed and the next step; move background to a docs URL or a describe_* tool."))
        only_leaks = masked or bool(dump) or any(p.code == "AEM403" for p in out.problems)
        for problem in self._text_rules(body, call):
            if only_leaks and not problem.code.startswith("AEM3"):
                continue
            if all(p.code != problem.code for p in out.problems):
                add(problem)
        out.problems = [p for p in out.problems if p.code in self.enabled]
        return out

    def _size(self, count: int, text: str) -> str:
        if self.max_chars is not None:
            if len(text) > int(self.max_chars):
                return f"the reply is {len(text)} characters; the limit is max-message-length = {self.max_chars}"
            return ""
        if count > self.max_tokens:
            how = "counted with tiktoken" if tokens.backend() == "tiktoken" else "estimated"
            return f"the reply is {count} o200k_base tokens ({how}); the limit is max-message-tokens = {self.max_tokens}"
        return ""

    def _text_rules(self, body: str, call: ProbeCall) -> List[Problem]:
        from ..api import check_text

        if not body.strip() or not self.prose_codes:
            return []
        found = [Problem(f.code, f.message, f.suggestion) for f in check_text(body, select=self.prose_codes, tools=self.tools, settings=self.settings)]
        seen = {p.code for p in found}
        found += [p for p in _context_findings(body, call, self.settings, self.prose_codes, self.tools) if p.code not in seen]
        return found


def _context_findings(text: str, call: ProbeCall, settings: Settings, codes: Sequence[str],
                      tools: Sequence[str]) -> List[Problem]:
    """The rules that need context `check_text` does not give, run with what the probe knows.

    - the phrase rules that only fire on caller-fixable errors (`when = "fixable"`: AEM501, AEM502):
      a probe call is a caller mistake by construction, so the reply is judged as the tool's argument
      validation answer (a validator context);
    - AEM209 unknown-tool-reference: the server's whole tool list is known from tools/list, so a
      reference to any other tool name is reported even without a near miss.
    """
    import libcst as cst

    from ..checks.base import FileContext
    from ..checks.phrases import PhraseRule
    from ..extract.walker import FileFacts
    from ..model import Context, FunctionInfo, Message, Param, Piece, Template, ToolInfo
    from ..packs import bundled
    from ..registry import select_rules

    packs = bundled()
    rules, _ = select_rules(settings, packs, list(codes))
    wanted = [r for r in rules if (isinstance(r, PhraseRule) and r.spec.when == "fixable") or r.code == "AEM209"]
    if not wanted:
        return []
    node = cst.SimpleString(repr(text))
    template = Template((text,), (Piece(text, node, "plain"),), True)
    params = (Param(call.argument),) if call.argument else ()
    function = FunctionInfo(call.tool or "tool", params, role="validator")
    message = Message("tool-result", "reply", "agent", (template,), node, node, Context(function=function), {"is_error": True})
    listed = [ToolInfo(name, name) for name in tools]
    facts = FileFacts(cst.parse_module(""), [message], listed, [function], set(), {})
    ctx = FileContext("<reply>", facts, packs, frozenset(tools))
    out: List[Problem] = []
    for rule in wanted:
        if rule.applies(message):
            out.extend(Problem(f.code, f.message, f.suggestion) for f in rule.check(message, ctx))
    return out


def _signature(code: str, reply: Reply) -> str:
    """What makes two findings of one code on one tool the same problem: nothing for the structural
    codes, else the reply's first line without the values the call sent, quoted text and numbers."""
    if code in STRUCTURAL:
        return ""
    text = strip_prefix(reply.text)
    first = text.splitlines()[0] if text.strip() else ""
    for value in reply.call.arguments.values():
        if isinstance(value, str) and len(value) >= 3:
            first = re.sub(r"(?<!\w)" + re.escape(value) + r"(?!\w)", "", first)
    first = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`|\d+", "", first)
    return " ".join(first.split())[:80]


def server_uri(server: str, tool: str) -> str:
    """The filename of a probe diagnostic: `mcp://<server>/<tool>` (spaces and slashes replaced)."""
    clean = re.sub(r"[\s/]+", "-", server.strip()) or "server"
    return f"mcp://{clean}/{tool}"


def diagnostics(server: str, analyses: Sequence[Analysis]) -> List[Diagnostic]:
    """One Diagnostic per (tool, code, kind of text), sorted; later calls with the same problem are
    named in the first one's message ("also on: range limit=51, ...")."""
    from ..registry import rule_catalog

    catalog = rule_catalog()
    groups: Dict[Tuple[str, str, str], List[Tuple[Analysis, Problem]]] = {}
    for analysis in analyses:
        for problem in analysis.problems:
            key = (analysis.reply.call.tool, problem.code, _signature(problem.code, analysis.reply))
            groups.setdefault(key, []).append((analysis, problem))
    out: List[Diagnostic] = []
    for (tool, code, _sig), items in groups.items():
        analysis, problem = items[0]
        message = f"[{analysis.reply.call.label()}] {problem.message}"
        if len(items) > 1:
            others = ", ".join(a.reply.call.label() for a, _p in items[1:4])
            more = f" and {len(items) - 4} more" if len(items) > 4 else ""
            message += f" (also on: {others}{more})"
        rule = catalog.get(code)
        where = Location(1, 1)
        out.append(Diagnostic(
            code=code,
            name=rule.name if rule else code,
            message=message,
            filename=server_uri(server, tool),
            location=where,
            end_location=where,
            level=getattr(rule, "LEVEL", Level.WARNING) if rule else Level.WARNING,
            suggestion=problem.suggestion,
            url=rule.url if rule else "",
            noqa_row=1,
        ))
    return sorted(out, key=Diagnostic.sort_key)


def summary(run: ProbeRun, analyses: Sequence[Analysis], found: Sequence[Diagnostic]) -> str:
    """The per-tool table (calls, isError rate, protocol errors, timeouts, median and max reply
    tokens, findings), skipped tools, the worst reply of each tool with findings, and a closing line."""
    by_tool: Dict[str, List[Analysis]] = {}
    for analysis in analyses:
        by_tool.setdefault(analysis.reply.call.tool, []).append(analysis)
    per_tool_findings: Dict[str, int] = {}
    for d in found:
        tool = d.filename.rsplit("/", 1)[-1]
        per_tool_findings[tool] = per_tool_findings.get(tool, 0) + 1
    header = ("tool", "calls", "isError", "protocol", "timeout", "median tok", "max tok", "findings")
    rows: List[Tuple[str, ...]] = []
    for tool, items in by_tool.items():
        results = [a for a in items if a.reply.outcome == "result"]
        sized = [a.tokens for a in items if a.reply.outcome in ("result", "protocol-error")]
        rows.append((
            tool,
            str(len(items)),
            f"{sum(1 for a in results if a.reply.is_error)}/{len(results)}",
            str(sum(1 for a in items if a.reply.outcome == "protocol-error")),
            str(sum(1 for a in items if a.reply.outcome == "timeout")),
            f"{statistics.median(sized):g}" if sized else "-",
            str(max(sized)) if sized else "-",
            str(per_tool_findings.get(tool, 0)),
        ))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [_row(header, widths)] + [_row(r, widths) for r in rows]
    for tool, reason in run.skipped.items():
        lines.append(f"skipped {tool}: {reason}")
    worst = [(tool, _worst(items)) for tool, items in by_tool.items() if per_tool_findings.get(tool)]
    if worst:
        lines.append("worst reply per tool:")
        for tool, analysis in worst:
            reply = analysis.reply
            state = "protocol error" if reply.outcome == "protocol-error" else ("isError" if reply.is_error else "success")
            lines.append(f"  {tool} [{reply.call.label()}] {state}, {analysis.tokens} tokens: {quote(reply.text, 160)}")
    for analysis in analyses:
        if analysis.reply.outcome == "client-error":
            lines.append(f"note: {analysis.reply.call.tool} [{analysis.reply.call.label()}]: the client SDK rejected the reply ({analysis.reply.text})")
    if run.stopped:
        lines.append(f"note: {run.stopped}")
    calls = len(analyses)
    counter = "exact, tiktoken" if tokens.backend() == "tiktoken" else "estimated; install errlint[tiktoken] with a cached encoding for exact counts"
    if found:
        codes = sorted({d.code for d in found})
        lines.append(
            f"Found {len(found)} finding{'s' if len(found) != 1 else ''} on {len(per_tool_findings)} of {len(by_tool)} tools "
            f"({calls} calls to {run.server}; reply sizes in o200k_base tokens, {counter}). "
            f"Run `errlint rule {codes[0]}` to see why and how to fix."
        )
    else:
        lines.append(f"All replies passed! ({calls} calls to {len(by_tool)} tools of {run.server}; reply sizes in o200k_base tokens, {counter})")
    return "\n".join(lines) + "\n"


def _row(cells: Sequence[str], widths: Sequence[int]) -> str:
    first = cells[0].ljust(widths[0])
    rest = "  ".join(c.rjust(w) for c, w in zip(cells[1:], widths[1:]))
    return f"{first}  {rest}".rstrip()


def _worst(items: Sequence[Analysis]) -> Analysis:
    return max(items, key=lambda a: (len(a.problems), a.tokens))


def enabled_codes(settings: Settings, select: Optional[Sequence[str]] = None, extend_select: Sequence[str] = (),
                  ignore: Sequence[str] = ()) -> List[str]:
    """Codes enabled by the config and the CLI selection (raises ConfigError on an unknown selector)."""
    from ..packs import bundled
    from ..registry import select_rules

    rules, _ = select_rules(settings, bundled(), select, extend_select, ignore)
    return [r.code for r in rules]
