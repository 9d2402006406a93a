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
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Sequence, Tuple

from .. import tokens
from ..config import Settings
from ..families import prefixes
from ..model import Diagnostic
from .calls import ID_NAME, PATH_NAME, ProbeCall, is_read_only
from .client import ProbeRun, Reply
from .disguise import Disguise, disguised_error
from .origin import SERVER_ORIGIN, Origin, reply_origin

if TYPE_CHECKING:  # pragma: no cover
    from .findings import Finding

PROSE_PREFIXES = prefixes("prose")
LEAK_PREFIXES = prefixes("leak")
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


@dataclass
class Problem:
    """One finding on one reply, before it becomes a Diagnostic: code, message (without the call
    label), suggestion."""

    code: str
    message: str
    suggestion: str


@dataclass
class Analysis:
    """A reply with its token count (o200k_base), the problems found in it, whose text it is
    (`origin`), the argument the reply is about (`subject`, see `subject_argument`) and, for a success
    reply that states an error, what says so (`disguise`)."""

    reply: Reply
    tokens: int
    problems: List[Problem] = field(default_factory=list)
    origin: Origin = SERVER_ORIGIN
    subject: str = ""
    disguise: Optional[Disguise] = None


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")


def quote(text: str, width: int = 80, limit: int = 600) -> str:
    """`text` on one line (newlines shown as \\n) in double quotes, kept up to the end of the sentence
    that runs past `width` characters (so the sentence holding the problem stays whole), and cut only
    past `limit` characters."""
    flat = text.strip().replace("\r", "")
    if len(flat) > width:
        end = _SENTENCE_END.search(flat, width)
        cut = end.end() if end else len(flat)
        if cut < len(flat):
            flat = flat[:cut].rstrip() + " …"
        if len(flat) > limit:
            flat = flat[: limit - 1].rstrip() + "…"
    return '"' + flat.replace("\n", "\\n") + '"'


def looks_like_error(text: str) -> bool:
    """True when a success reply's text states an error (see `disguise.disguised_error`)."""
    return disguised_error(text) is not None


_EMPTY_DATA = re.compile(r"^(?:\[\s*\]|\{\s*\}|null|none|\"\"|''|)$", re.I)
_ZERO_RESULTS = re.compile(r"^\W*(?:no|0|zero)\s+(?:\w+\s+){0,3}(?:results?|matches|items|entries|records|rows|found)\b|\bnot? (?:any )?(?:results?|matches)\b", re.I)


def subject_argument(call: ProbeCall, text: str) -> str:
    """The argument a reply is about: the one the call got wrong, unless the reply names (or echoes
    the value of) exactly one other argument and not that one; e.g. a `range limit=51` call answered
    "path 'example' does not exist" is about `path`, and so is an unknown-argument call that the
    framework let through to the tool."""
    if not call.argument:
        return call.argument

    def mentioned(name: str, value: object) -> bool:
        if re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text):
            return True
        shown = value if isinstance(value, str) else (json.dumps(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else "")
        return len(shown) >= 3 and re.search(r"(?<![\w-])" + re.escape(shown) + r"(?![\w-])", text) is not None

    if mentioned(call.argument, call.arguments.get(call.argument)):
        return call.argument
    others = [n for n, v in call.arguments.items() if n != call.argument and mentioned(n, v)]
    return others[0] if len(others) == 1 else call.argument


def strip_prefix(text: str) -> str:
    """The reply text without the framework's own prefix ("Error executing tool X: ")."""
    return FRAMEWORK_PREFIX.sub("", text.strip(), count=1)


class Analyzer:
    """Applies the probe checks and the catalogue's text rules to replies.

    `enabled` is the set of enabled rule codes (from the usual selection: config, --select, --ignore);
    `tools` the listed tool names (for AEM205/AEM209); `settings` gives `max-message-tokens` and the
    other rule options.
    """

    def __init__(self, settings: Settings, enabled: Iterable[str], tools: Sequence[str] = (), listing: Sequence[Dict] = (),
                 frameworks: Optional[Dict[str, str]] = None, server_version: str = "") -> None:
        self.settings = settings
        self.enabled = set(enabled)
        self.tools = tuple(tools)
        self.read_only = {str(t.get("name", "")) for t in listing if is_read_only(t)}
        self.required = {str(t.get("name", "")): set((t.get("inputSchema") or {}).get("required") or []) for t in listing}
        self.frameworks = dict(frameworks or {})
        self.server_version = server_version
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
        success = reply.outcome == "result" and not reply.is_error
        out.disguise = disguised_error(text, reply.items) if success else None
        out.subject = subject_argument(call, text)
        errorish = reply.outcome == "protocol-error" or reply.is_error or out.disguise is not None
        if reply.outcome == "protocol-error" or reply.is_error:
            out.origin = reply_origin(text, self.frameworks, self.server_version)
        add = out.problems.append
        if success:
            accepted = self._accepted_wrong_value(call, text)
            if out.disguise is not None:
                shape = {"json-error-field": "a JSON error field", "json-status-field": "a JSON status field",
                         "python-exception": "Python exception text", "statement": "its text"}[out.disguise.shape]
                add(Problem("AEM601", f"the reply says the call failed ({shape}) but is a success result (isError=false), "
                                      f"so clients treat it as data: {quote(out.disguise.evidence, 400)}",
                            "Raise ToolError (MCPServer/FastMCP) or return CallToolResult with isError=true instead of returning the error as data."))
            elif call.malformed:
                add(Problem("AEM601", f"the tool accepted a call that breaks its inputSchema and answered isError=false: {quote(text)}",
                            f"Validate `{call.argument}` and answer with a tool error (isError=true) naming the argument, the value sent and what is allowed."))
            elif accepted:
                add(Problem("AEM601", f"{accepted} and answered with data as a success (isError=false), so an agent takes it as the answer: {quote(text)}",
                            f"Check `{call.argument}` and answer with a tool error (isError=true) that names the value sent and how to find a valid one."))
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
                        "Answer with one line per error, `<argument>: <problem>; allowed: <values>` (pydantic: e.errors(include_url=False))."))
        elif SCHEMA_DUMP.search(text):
            add(Problem("AEM403", f"the reply dumps a JSON schema ({count} tokens): {quote(text)}",
                        "Name the argument and what is allowed instead of the schema; the client already has the inputSchema from tools/list."))
        limit_hit = self._size(count, text)
        if limit_hit:
            add(Problem("AEM401", limit_hit,
                        "Keep what failed, what is allowed and the next step; move background to a docs URL or a describe_* tool."))
        only_leaks = masked or bool(dump) or any(p.code == "AEM403" for p in out.problems)
        for problem in self._text_rules(body, call):
            if only_leaks and not problem.code.startswith(LEAK_PREFIXES):
                continue
            if all(p.code != problem.code for p in out.problems):
                add(problem)
        out.problems = [p for p in out.problems if p.code in self.enabled]
        return out

    def _accepted_wrong_value(self, call: ProbeCall, text: str) -> str:
        """What was wrong with a call that should have failed but got data back ("" when nothing, or
        when the answer is empty or says there are no results): an id that does not exist, or an empty
        required id or path, sent to a read-only tool."""
        if call.tool not in self.read_only:
            return ""
        body = text.strip()
        if _EMPTY_DATA.match(body) or _ZERO_RESULTS.search(body.splitlines()[0] if body else ""):
            return ""
        if call.kind == "unknown-id":
            return f"the tool found something for an id that does not exist ({call.sent})"
        if (call.kind == "empty-string" and call.argument in self.required.get(call.tool, ())
                and (ID_NAME.search(call.argument) or PATH_NAME.search(call.argument))):
            return f"the tool accepted an empty required `{call.argument}`"
        return ""

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
        text = EMPTY_ECHO.sub(r"\1(empty)\1", body)  # "Project '' not found" names the (empty) value it was sent
        found = [Problem(f.code, f.message, f.suggestion) for f in check_text(text, select=self.prose_codes, tools=self.tools, settings=self.settings)]
        seen = {p.code for p in found}
        found += [p for p in _context_findings(text, call, self.settings, self.prose_codes, self.tools) if p.code not in seen]
        for problem in found:
            problem.message = whole_quotes(problem.message.replace("'(empty)'", "''").replace('"(empty)"', '""'), body)
        return found


EMPTY_ECHO = re.compile(r"(?<![\w'\"])(['\"])\1(?![\w'\"])")
"""An empty quoted value in a reply (`''`, `""`): the reply echoes an empty argument."""
_CUT_QUOTE = re.compile(r'"([^"\n]{8,}?)…"')


def whole_quotes(message: str, body: str) -> str:
    """`message` with each quote the rules cut short ("Repository path '.' is outside the…") replaced
    by the whole sentence of `body` it comes from."""
    from .disguise import sentence_at

    flat = body.strip()

    def whole(match: "re.Match[str]") -> str:
        start = flat.find(match.group(1).replace("\\n", "\n"))
        if start < 0:
            return match.group(0)
        return '"' + sentence_at(flat, start + len(match.group(1)) - 1, 600).replace("\n", "\\n") + '"'

    return _CUT_QUOTE.sub(whole, message)


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
    from ..extract.file_facts import FileFacts
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


def diagnostics(server: str, analyses: Sequence[Analysis]) -> List[Diagnostic]:
    """The Diagnostics of `findings.build` (grouped, sorted), for callers that need only those."""
    from .findings import build

    return [f.diagnostic for f in build(server, analyses)]


def summary(run: ProbeRun, analyses: Sequence[Analysis], found: Sequence["Finding"], notes: Sequence[str] = ()) -> str:
    """The per-tool table (calls, isError rate, protocol errors, timeouts, median and max reply
    tokens, findings), skipped tools (the tools --tools left out on one line), the worst reply of each
    tool with findings, the state-changing tools that were called, `notes`, and a closing line."""
    from .calls import NOT_SELECTED

    by_tool: Dict[str, List[Analysis]] = {}
    for analysis in analyses:
        by_tool.setdefault(analysis.reply.call.tool, []).append(analysis)
    per_tool_findings: Dict[str, int] = {}
    for finding in found:
        for tool in finding.tools:
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
    unselected = [tool for tool, reason in run.skipped.items() if reason == NOT_SELECTED]
    for tool, reason in run.skipped.items():
        if reason != NOT_SELECTED:
            lines.append(f"skipped {tool}: {reason}")
    if unselected:
        lines.append(f"not selected by --tools: {len(unselected)} tool{'s' if len(unselected) != 1 else ''} ({_names(unselected)})")
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
    listed = {str(t.get("name", "")): t for t in run.tools}
    changing = [tool for tool in by_tool if tool in listed and not is_read_only(listed[tool])]
    if changing:
        lines.append("state-changing tools called (not annotated readOnlyHint: true): "
                     + ", ".join(f"{tool} ({len(by_tool[tool])} calls)" for tool in changing))
    lines.extend(notes)
    if run.stopped:
        lines.append(f"note: {run.stopped}")
    calls = len(analyses)
    counter = "exact, tiktoken" if tokens.backend() == "tiktoken" else "estimated; install errlint[tiktoken] with a cached encoding for exact counts"
    if found:
        codes = sorted({f.code for f in found})
        lines.append(
            f"Found {len(found)} finding{'s' if len(found) != 1 else ''} on {len(per_tool_findings)} of {len(by_tool)} tools "
            f"({calls} calls to {run.server}; reply sizes in o200k_base tokens, {counter}). "
            f"Run `errlint rule {codes[0]}` to see why and how to fix."
        )
    elif calls:
        lines.append(f"All replies passed! ({calls} calls to {len(by_tool)} tools of {run.server}; reply sizes in o200k_base tokens, {counter})")
    return "\n".join(lines) + "\n"


def _names(names: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


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
