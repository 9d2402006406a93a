"""1xx: vague prose. AEM101 is Python; AEM102-AEM105 are phrase rules from `rules/vague.toml`."""
from __future__ import annotations

import re
from typing import Iterable, List, Optional

from ..extract.context import caller_fixable
from ..extract.provenance import provenance
from ..fixes import replace_with_fbody
from ..model import EXCEPTION, RELAYED, Applicability, Finding, Fix, Level, Message, Template
from ..packs import PackError, PhraseRuleSpec
from .base import FileContext, Rule, caught_locally, complete_templates, internal_signal, later_lines, mostly_non_english, quote, traceback_attached, translator
from .inputs import first_failing_input
from .no_message import control_flow, without_text
from .signals import Signals, identifiers, value_placeholders

JSONRPC_STANDARD = re.compile(r"^\s*(Parse error|Invalid Request|Method not found|Invalid params|Internal error)\.?\s*$", re.I)
SHORT_FAILURE = re.compile(r"^\W*(?:[A-Za-z][\w-]*\W+){0,2}(?:failed|error|failure|exception|problem)\W*$", re.I)
SENTENCE_END = re.compile(r"[.;!?](?:\s|$)")


def signals(ctx: FileContext) -> Signals:
    """The run's `Signals` (built once per pack set and cached on the packs object)."""
    cached = getattr(ctx.packs, "_signals", None)
    if cached is None or cached[0] != ctx.extra_next_step_verbs:
        cached = (ctx.extra_next_step_verbs, Signals(ctx.packs, ctx.extra_next_step_verbs))
        ctx.packs._signals = cached  # type: ignore[attr-defined]
    return cached[1]


NOT_FIXABLE_TEXT = re.compile(
    r"\b(no (?:tool )?call can fix|cannot be fixed by (?:the )?(?:agent|caller|a call)|not caused by your|"
    r"only (?:a person|a human|the user|an? (?:admin|administrator|owner)) can|nothing (?:you|the agent) can do)\b",
    re.I,
)


AUTH_TYPES = re.compile(r"(Permission|Forbidden|Unauthori[sz]ed|Auth\w*|AccessDenied|NotAuthenticated)(Error|Exception)?$")
AUTH_TEXT = re.compile(r"\b(permission|access denied|not authori[sz]ed|unauthori[sz]ed|forbidden|not allowed to|lacks? (?:the )?\w+ (?:scope|role|permission))\b", re.I)


def _needs_a_person(message: Message, ctx: FileContext) -> bool:
    """Auth and permission failures can genuinely need a human (design: state `needs_user`)."""
    for handler in message.context.handlers[:1]:
        if any(AUTH_TYPES.search(t.rsplit(".", 1)[-1]) for t in handler.types):
            return True
    if ctx.guard(message).statuses & {401, 403}:
        return True
    return any(AUTH_TEXT.search(t.prose) for t in message.templates)


def fixable(message: Message, ctx: FileContext, strict: bool = False) -> bool:
    """Caller-fixable context, excluding catch-all crash handlers (AEM501/AEM502/AEM201 on exc).

    `strict` requires a guard, validator or handler (not just an echoed argument), and a message that
    says the caller cannot fix it is taken at its word.
    """
    handlers = message.context.handlers
    if handlers and all(t in ("", "Exception", "BaseException", "builtins.Exception") for t in handlers[0].types):
        guard = ctx.guard(message)
        if not guard.has_guard and not parses_caller_input(message, ctx):
            return False
    if strict and any(NOT_FIXABLE_TEXT.search(t.prose) for t in message.templates):
        return False
    if strict and _needs_a_person(message, ctx):
        return False
    return caller_fixable(message, ctx.guard(message), lambda name: ctx.origin(message, name), strict)


# Calls that parse or convert a value: when they fail, the value was malformed.
PARSE_CALLS = re.compile(
    r"^(?:json\.loads?|(?:yaml\.)?(?:safe_)?load|tomllib\.loads|tomli\.loads|toml\.loads|ast\.literal_eval|literal_eval|"
    r"int|float|complex|Decimal|decimal\.Decimal|Fraction|fractions\.Fraction|"
    r"(?:datetime\.)?(?:datetime|date|time)\.(?:fromisoformat|strptime)|fromisoformat|strptime|"
    r"uuid\.UUID|UUID|ipaddress\.ip_\w+|ip_address|ip_network|re\.compile|base64\.\w*b64decode|b64decode|bytes\.fromhex|"
    r"(?:zoneinfo\.)?ZoneInfo|dateutil\.parser\.parse|shlex\.split|urllib\.parse\.\w+|"
    r"[\w.]*\.(?:model_validate|model_validate_json|parse_obj|parse_raw|validate_python|validate_json)|(?:jsonschema\.)?validate)$"
)
HARMLESS_CALLS = re.compile(r"(?:^|\.)(?:str|len|isinstance|strip|lstrip|rstrip|lower|upper|encode|decode|split|replace|bool|dict|list|tuple)$")


def parses_caller_input(message: Message, ctx: FileContext) -> bool:
    """A broad `except Exception:` around `json.loads(user_value)`: the try block only parses or
    converts values computed from the caller's arguments, so what fails is the caller's input."""
    handler = message.context.handlers[0]
    calls = [c for c in handler.try_calls if c]
    if not calls or not any(PARSE_CALLS.match(c) for c in calls) or not all(PARSE_CALLS.match(c) or HARMLESS_CALLS.search(c) for c in calls):
        return False
    return bool(provenance(message).inputs(set(handler.try_reads)))


def messageless_matters(message: Message, ctx: FileContext) -> bool:
    """An error without a message (see `no_message`) is a defect in agent/CLI/HTTP code, or where the
    caller could fix the failure; bare control-flow exceptions (EOFError, KeyError, ...) and a raise
    the enclosing `try` catches by name are signals."""
    if not without_text(message) or control_flow(message) or caught_locally(message):
        return False
    return message.profile in ("agent", "cli", "http") or fixable(message, ctx)


def operation_hint(message: Message, ctx: FileContext) -> str:
    """`<function> failed for <input>={<input>!r}`, naming the input the guard tested (never an
    unrelated parameter such as `verbose` or `ctx`)."""
    function = message.context.function
    if function is None:
        return "<operation>"
    p = first_failing_input(message, ctx)
    if p.isidentifier() and p in function.param_names:
        return f"{function.name} failed for {p}={{{p}!r}}"
    if p:
        return f"{function.name} failed for {p}"
    return f"{function.name} failed"


def missing_parts(message: Message, ctx: FileContext) -> str:
    """"input (`limit`), value or next step": the parts a generic message lacks, with the input the
    guard tested named when there is one."""
    p = first_failing_input(message, ctx)
    return f"input (`{p}`), value or next step" if p else "input, value or next step"


class GenericFailureMessage(Rule):
    """## What it does
    Flags a message that only says that something failed: after removing generic phrases ("an error
    occurred", "operation failed", "invalid input", "not found"), stop words and the exception's own
    text, fewer than three content words remain, and it names no input, value, identifier or next
    step. An error with no message is flagged too, on every sink: raised or returned with no text
    (`raise Gone()`, `ToolError()`), with only a status (`abort(409)`, `HTTPException(400)`: the
    client reads the status phrase), or with only the value a guard rejected (`raise IndexError(row)`).
    The finding names the input the guard in front of the message tested ("names no input (`limit`),
    value or next step"), and covers AEM201 and AEM203 on the same message. The default of an
    upstream's error text (`result.get("error", "Unknown error")`) is judged only when the message has
    no words of its own.

    ## Why is this bad?
    "Something went wrong" gives an agent nothing to change, so it retries the same call or gives up.
    Public MCP servers raise `ToolError("An unexpected error occurred")` by the hundreds.

    ## Example
    ```python
    raise ToolError("An error occurred")
    ```

    Use instead:
    ```python
    raise ToolError(f"Export of report {report_id} failed: the CSV has 12,001 rows (limit 10,000). Pass a narrower `date_range`.")
    ```

    ## Fix safety
    Display-only: errlint proposes a template with the function's real parameter names.

    ## Options
    None.
    """

    CODE = "AEM101"
    NAME = "generic-failure-message"
    SUMMARY = "A message that says only that something failed"
    PROFILES = ("agent", "cli", "http", "exc", "log")
    VALID = (
        "raise ValueError(f\"Unknown zone {zone!r}; use an IANA name such as 'Europe/Oslo'\")\n",
        "raise RuntimeError('Something went wrong inside the server, not in your request. Retry once; if it fails again, stop.')\n",
        "raise KeyError(\"Unknown error_code 'E42'. List valid codes with `tool codes`.\")\n",
        "raise NotImplementedError\n",
        "raise ValueError('empty separator')\n",
        "from flask import abort\ndef view(draft_id):\n    if draft_id.startswith('pub-'):\n        abort(409, description=f'Draft {draft_id!r} is published; unpublish it first.')\n",
        "def run(proc):\n    if proc.returncode:\n        raise RuntimeError(proc.stderr)\n",
    )
    INVALID = (
        "raise RuntimeError('An unexpected error occurred.')\n",
        "raise RuntimeError('AN ERROR OCCURRED.')\n",
        "def f(x):\n    try:\n        g(x)\n    except OSError as exc:\n        raise RuntimeError(f'An error occurred: {exc}')\n",
        "def f(path):\n    if not path.endswith('.md'):\n        raise ValueError()\n",
        "import requests\ndef push(url, blob):\n    try:\n        requests.post(url, data=blob)\n    except requests.ConnectionError as exc:\n        raise OSError('Upload failed') from exc\n",
        "from flask import abort\ndef view(draft_id):\n    if draft_id.startswith('pub-'):\n        abort(409)\n",
        "def pick(rows, row):\n    if row not in rows:\n        raise IndexError(row)\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if traceback_attached(message) or internal_signal(message, ctx) or translator(message):
            return
        sig = signals(ctx)
        gets = without_text(message)
        if gets:
            if messageless_matters(message, ctx):
                name = message.callee.rsplit(".", 1)[-1] or "exception"
                p = first_failing_input(message, ctx)
                which = f"for which input (`{p}`) and value" if p else "for which input"
                yield self.finding(
                    message,
                    f"`{message.callee or 'exception'}` carries no message, the reader gets {gets}; say what failed, {which}, and what to do",
                    f'Pass a message, e.g. {name}(f"{operation_hint(message, ctx)}: <cause>. <next step>")' if message.sink != "http" else
                    f'Pass the text, e.g. {name}({message.extra.get("status") or "<status>"}, f"{operation_hint(message, ctx)}: <cause>. <next step>")',
                )
            return
        for template in self._judged(message, sig):
            phrase = self._generic(template, sig, message)
            if phrase is None:
                continue
            if any(sig.next_step(t, ctx.registry) is not None for m in later_lines(message, ctx) for t in m.templates if t.complete):
                return  # "Error: something went wrong." then "Run `tool doctor` to see why.": one message
            yield self.finding(
                message,
                f'generic message "{quote(template.text)}" names no {missing_parts(message, ctx)}',
                f'Say which operation failed and why, e.g. f"{operation_hint(message, ctx)}: <cause>. <next step>" instead of "{quote(phrase, 40)}".',
            )
            return

    def _judged(self, message: Message, sig: Signals) -> List[Template]:
        """The complete variants, plus the fallback ones when the message has no words of its own
        beside the upstream's text: `raise Exception(reply.get("message", "Unknown error"))` says
        only "Unknown error" whenever the upstream is silent, while "Search failed: {...}" still
        names the operation that failed."""
        main = complete_templates(message)
        if any(sig.content_words(t) for t in main if any(h.has(RELAYED) for h in t.placeholders)):
            return main
        return main + [t for t in message.templates if t.fallback and t.complete]

    def _generic(self, template: Template, sig: Signals, message: Optional[Message] = None) -> Optional[str]:
        prose = template.prose
        if message is not None and message.sink == "protocol-error" and JSONRPC_STANDARD.match(template.literal):
            return None  # the JSON-RPC spec's own message for the code; `data` carries the detail
        if not template.literal.strip() or mostly_non_english(prose):
            return None
        hits = sig.generic_hits(prose)
        generic_words = set(sig.generic.words)
        words = [w.lower() for w in re.findall(r"[A-Za-z']+", template.literal)]
        content = sig.content_words(template)
        short_failure = bool(SHORT_FAILURE.match(template.literal))
        only_generic = not content and any(w in generic_words for w in words)
        if not (hits or short_failure or only_generic):
            return None
        if sig.next_step(template) is not None:
            return None
        if len(content) >= 3:
            return None
        if identifiers(template) or value_placeholders(template):
            return None
        if content and any(h.has(EXCEPTION) for h in template.placeholders):
            return None  # "Session termination failed: {exc}": the operation and its cause are both there
        if hits:
            start, end = hits[0]
            return prose[start:end]
        return template.literal.strip()


class PhraseRule(Rule):
    """A rule defined by a `[[rule]]` entry of a phrase pack (Vale's existence/substitution)."""

    def __init__(self, spec: PhraseRuleSpec, options=None, profiles=None):
        self.spec = spec
        self.PROFILES = spec.profiles  # type: ignore[misc]
        super().__init__(options, profiles if profiles is not None else spec.profiles)
        self.LEVEL = Level(spec.level)  # type: ignore[misc]
        self.DEFAULT = spec.default  # type: ignore[misc]
        self.VALID = spec.valid  # type: ignore[misc]
        self.INVALID = spec.invalid  # type: ignore[misc]
        self.SUMMARY = spec.summary  # type: ignore[misc]
        self.FIX = Applicability(spec.fix)  # type: ignore[misc]
        if self.FIX is Applicability.UNSAFE and spec.code not in PHRASE_FIXERS:
            raise PackError(
                f"phrase pack {spec.source}: rule {spec.code} says fix = \"unsafe\" but errlint has no fixer for it "
                f"(only {', '.join(sorted(PHRASE_FIXERS))}); set fix = \"display-only\""
            )

    @property
    def code(self) -> str:
        return self.spec.code

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def docs(self) -> str:
        return self.spec.docs or f"## What it does\n{self.spec.summary}.\n\n## Why is this bad?\nSee the pack `{self.spec.source}`.\n\n## Example\n\nUse instead:\n\n## Fix safety\nDisplay-only.\n\n## Options\nNone."

    @property
    def url(self) -> str:
        return self.spec.link or super().url

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        spec = self.spec
        for template in message.templates:
            if template.fallback:
                continue  # the default of `result.get("error", ...)`: not the upstream's text
            prose = template.prose
            if not template.literal.strip() or mostly_non_english(prose):
                continue
            for match in spec.lexicon.finditer(prose):
                text = match.group(0)
                if text.lower() in spec.exceptions:
                    continue
                if spec.unless_after and self._specific_after(prose, match.end()):
                    continue
                if any(p.search(prose) for p in spec.unless_message):
                    break
                if spec.unless_placeholder and any(h.kinds & set(spec.unless_placeholder) for h in template.placeholders):
                    break
                if spec.when == "fixable" and not fixable(message, ctx, strict=True):
                    return
                replacement = spec.swap.get(text.lower(), "") if spec.swap else ""
                fmt = {"match": text.strip(), "replacement": replacement, "param": first_failing_input(message, ctx) or "<param>", "limit": _limit(message, ctx)}
                fixer = PHRASE_FIXERS.get(spec.code) if self.FIX is Applicability.UNSAFE else None
                fix = fixer(message, template, text, ctx) if fixer and len(message.templates) == 1 else None
                yield self.finding(message, _format(spec.message, fmt), _format(spec.suggestion, fmt), fix=fix)
                return

    def _specific_after(self, prose: str, start: int) -> bool:
        end = SENTENCE_END.search(prose, start)
        rest = prose[start:end.start() if end else len(prose)]
        return any(p.search(rest) for p in self.spec.unless_after)


def _limit(message: Message, ctx: FileContext) -> str:
    bounds = ctx.guard(message).bound_values
    return bounds[0] if bounds else "<limit>"


RETRY_AFTER_NAME = re.compile(r"retry_?after|retry_?in\b|retry_delay|backoff_s", re.I)


def retry_after_fix(message: Message, template: Template, phrase: str, ctx: FileContext) -> Optional[Fix]:
    """AEM103: with a `retry_after`-like value in scope, say "retry after {retry_after} s" instead
    of the vague phrase (unsafe: the message text changes)."""
    function = message.context.function
    names = list(function.param_names) if function is not None else []
    if message.scope is not None:
        names += [n for n, bs in message.scope.bindings.items() if any(b.kind == "assign" for b in bs)]
    found = next((n for n in names if RETRY_AFTER_NAME.search(n)), None)
    if found is None:
        return None
    words = "Retry after" if phrase[:1].isupper() else "retry after"
    for piece in template.pieces:
        if phrase in piece.text:
            edits = replace_with_fbody(piece.node, ctx.code, phrase, f"{words} {{{found}}} s")
            if edits:
                return Fix(Applicability.UNSAFE, f"Say when to retry with `{found}`", tuple(edits))
    return None


PHRASE_FIXERS = {"AEM103": retry_after_fix}


def _format(template: str, values: dict) -> str:
    out = template
    for key, value in values.items():
        out = out.replace("{" + key + "}", value)
    return out.replace("{{", "{").replace("}}", "}")
