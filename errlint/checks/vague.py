"""1xx: vague prose. AEM101 is Python; AEM102-AEM105 are phrase rules from `rules/vague.toml`."""
from __future__ import annotations

import re
from typing import Iterable, List, Optional

from ..model import EXCEPTION, RELAYED, Finding, Message, Template
from ..prose import failure_statements, outside
from .base import CONTENT_SINKS, FileContext, caught_locally, complete_templates, internal_signal, later_lines, mostly_non_english, quote, traceback_attached, translator
from .error_replies import ErrorReplyRule
from .inputs import field_scoped, first_failing_input
from .no_message import control_flow, restates_status, without_text
from .phrases import PhraseRule  # noqa: F401  (re-exported: the phrase machinery lived here)
from .recovery import fixable, parses_caller_input  # noqa: F401  (parses_caller_input re-exported)
from .signals import Signals, identifiers, mentions, signals, value_placeholders  # noqa: F401  (signals re-exported)

JSONRPC_STANDARD = re.compile(r"^\s*(Parse error|Invalid Request|Method not found|Invalid params|Internal error)\.?\s*$", re.I)
TEMPLATE_MARKS = re.compile(r"\{\d*\}|\{[a-z_]\w*(?:![rsa])?(?::[^{}]*)?\}|%[-+ #0]*\d*(?:\.\d+)?[sdrifx]")
PY_LITERAL = re.compile(r"\b(?:None|True|False)\b")
SHORT_FAILURE = re.compile(r"^\W*(?:[A-Za-z][\w-]*\W+){0,2}(?:failed|error|failure|exception|problem)\W*$", re.I)


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


def missing_parts(message: Message, ctx: FileContext, template: Optional[Template] = None) -> str:
    """"names no input (`limit`), value or next step": the parts a generic message lacks, with the
    input the guard tested named when there is one ("names no value or next step for `limit`" when
    the text has the input's name only as a word: "Invalid limit.")."""
    p = first_failing_input(message, ctx)
    if p and template is not None and mentions(template, p):
        return f"names no value or next step for `{p}`"
    return f"names no input (`{p}`), value or next step" if p else "names no input, value or next step"


class GenericFailureMessage(ErrorReplyRule):
    """## What it does
    Flags a message that only says that something failed: it states a failure (a generic phrase such
    as "an error occurred", or a failure by its shape: "<could not|unable to|cannot> <verb>", "not (a)
    valid <noun>", an adjective that judges the noun ("invalid", "bad", "wrong", "malformed",
    "unsupported <noun>"; not "unknown <noun>", a lookup that missed, which AEM205 judges), "<noun>
    failed", a passive such as "was rejected"), and besides that it names no input, value,
    identifier, concrete object or next step (fewer than three content words remain). A hand-off to
    a person ("If the problem persists, contact your administrator.") is no step of the reader's own
    and names nothing about the failure: it is left out of that count, and AEM501 judges it.
    An MCP tool's returned error reply ("Error: request failed", `{"error": "..."}`) is read as a raised
    error is: the agent acts on that text either way.
    In plain library code a failure shape counts only where the caller can fix the failure. An error
    with no message is flagged too, on every sink: raised or returned with no text (`raise Gone()`,
    `ToolError()`), with only a status (`abort(409)`, `HTTPException(400)`: the client reads the status
    phrase), or with only the value a guard rejected (`raise IndexError(row)`). The finding names the
    input the guard in front of the message tested ("names no input (`limit`), value or next step"), and
    covers AEM201 and AEM203 on the same message. The default of an upstream's error text
    (`result.get("error", "Unknown error")`) is judged only when the message has no words of its own.
    A header is not judged alone: a line ending with a colon that the block follows with more output
    ("Validation error:" then the path and the validator's message) says what failed in those lines,
    and neither is a log line right before the traceback is printed or logged
    (`traceback.print_exc()`), as with `logger.exception`.

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
    SINKS = CONTENT_SINKS | {"tool-return"}  # a tool's returned error reply too ("Error: request failed")
    ENVELOPE_TEXT = True
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
        "import click\n@click.command()\n@click.argument('bundle')\ndef main(bundle):\n    if not bundle.endswith('.zip'):\n        raise click.ClickException('Unable to use this bundle.')\n",
        "def f(x):\n    try:\n        g(x)\n    except OSError as exc:\n        raise RuntimeError(f'An error occurred: {exc}')\n",
        "def f(path):\n    if not path.endswith('.md'):\n        raise ValueError()\n",
        "import requests\ndef push(url, blob):\n    try:\n        requests.post(url, data=blob)\n    except requests.ConnectionError as exc:\n        raise OSError('Upload failed') from exc\n",
        "from flask import abort\ndef view(draft_id):\n    if draft_id.startswith('pub-'):\n        abort(409)\n",
        "def pick(rows, row):\n    if row not in rows:\n        raise IndexError(row)\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if traceback_attached(message) or internal_signal(message, ctx) or translator(message):
            return
        if message.extra.get("header"):
            return  # "Validation error:" then the lines printed after it, which say what failed
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
            if restates_status(message, template):
                continue  # `HTTPException(403, detail="Forbidden")`: what a bare 403 says, and all there is
            phrase = self._generic(template, sig, message, ctx)
            if phrase is None:
                continue
            if any(sig.next_step(t, ctx.registry) is not None for m in later_lines(message, ctx) for t in m.templates if t.complete):
                return  # "Error: something went wrong." then "Run `tool doctor` to see why.": one message
            yield self.finding(
                message,
                f'generic message "{quote(template.text)}" {missing_parts(message, ctx, template)}',
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

    def _generic(self, template: Template, sig: Signals, message: Optional[Message] = None, ctx: Optional[FileContext] = None) -> Optional[str]:
        prose = template.prose
        if message is not None and message.sink == "protocol-error" and JSONRPC_STANDARD.match(template.literal):
            return None  # the JSON-RPC spec's own message for the code; `data` carries the detail
        if not template.literal.strip() or mostly_non_english(prose):
            return None
        hits = sig.generic_hits(prose)
        shaped = False
        if not hits and (message is None or ctx is None or message.profile != "exc" or fixable(message, ctx)):
            # a failure by its shape; in plain library code only where the caller can fix it (an
            # internal exception's reader is the calling code, which has the traceback)
            hits = failure_statements(prose)
            shaped = bool(hits)
            if shaped and field_scoped(message) and _names_something(sig, template, prose):
                return None  # beside its field, "Invalid JSON" and "Not a valid email address" name the form it expects
        if hits and TEMPLATE_MARKS.search(template.literal):
            return None  # "Failed to load {}: {}" with loguru/%-style arguments names its values
        generic_words = set(sig.generic.words)
        words = [w.lower() for w in re.findall(r"[A-Za-z']+", template.literal)]
        step = sig.next_step(template)
        own = prose
        if step == "escalation":
            # a hand-off to a person is no step the reader takes itself (AEM501 judges it), and the
            # sentence that makes it names nothing about the failure
            own = sig.without_escalations(prose)
            step = sig.next_step(template, prose=own)
        content = sig.content_words(template, prose=own)
        short_failure = bool(SHORT_FAILURE.match(template.literal))
        only_generic = not content and any(w in generic_words for w in words)
        if not (hits or short_failure or only_generic):
            return None
        if step is not None:
            return None
        if len(content) >= 3:
            # what the message names besides its failure statements: "The file appears to be
            # corrupt" names only "file"; "Failed to load the configuration file" names two words
            # (one statement: "Failed to sort the dataset: Sort failed", the default of a silent
            # upstream, repeats the operation the words name)
            statements = failure_statements(own) if shaped else []
            beside = outside(own, statements) if len(statements) == 1 else own
            if len(_naming_words(sig, template, beside)) >= 2:
                return None  # not "Hmm, that didn't work. Please try a different value."
        if identifiers(template) or value_placeholders(template) or PY_LITERAL.search(template.literal):
            return None
        if content and any(h.has(EXCEPTION) for h in template.placeholders):
            return None  # "Session termination failed: {exc}": the operation and its cause are both there
        if hits:
            start, end = hits[0]
            return prose[start:end]
        return template.literal.strip()


def _naming_words(sig: Signals, template: Template, prose: str) -> List[str]:
    """The content words of `prose` that name a thing: not fillers, and not stand-ins ("a different
    value", "the data provided") unless a naming word right before one makes it a compound ("image
    data", "header value")."""
    stand_ins = set(sig.stand_ins.words)
    content = {w.lower() for w in sig.content_words(template, prose=prose)}
    out: List[str] = []
    previous = ""
    for word in re.findall(r"[A-Za-z][\w'-]*", prose):
        low = word.lower()
        if low in content and (low not in stand_ins or previous):
            out.append(word)
        previous = low if low in content and low not in stand_ins else ""
    return out


def _names_something(sig: Signals, template: Template, prose: str) -> bool:
    return bool(_naming_words(sig, template, prose))
