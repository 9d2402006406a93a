"""Phrase rules: the `[[rule]]` entries of the phrase packs (`rules/*.toml`, Vale's existence and
substitution rules), their built-in fixers, and the statement shapes (`errlint/prose.py`) a rule may
name with `shapes = [...]`."""
from __future__ import annotations

import re
from typing import Iterable, List, Optional, Tuple

from ..fixes import replace_with_fbody
from ..model import Applicability, Finding, Fix, Level, Message, Template
from ..packs import MAX_MATCH_CHARS, PackError, PhraseRuleSpec
from ..prose import statements
from .base import FileContext, internal_fault, mostly_non_english
from .error_replies import ErrorReplyRule
from .inputs import first_failing_input
from .recovery import recoverable
from .signals import signals

SENTENCE_END = re.compile(r"[.;!?](?:\s|$)")


def sentence_start(prose: str, at: int) -> int:
    """Where the sentence holding `at` starts: after the last `.;!?` that ends a sentence (one
    followed by a space, so not the dot of "config.toml" or "2.5"), past the spaces."""
    start = 0
    for end in SENTENCE_END.finditer(prose, 0, at):
        start = end.end()
    while start < at and prose[start].isspace():
        start += 1
    return start


class PhraseRule(ErrorReplyRule):
    """A rule defined by a `[[rule]]` entry of a phrase pack (Vale's existence/substitution). It also
    reads a tool's plain `return` of an error reply (`error_replies.is_error_reply`: "Error: ...",
    `{"error": ...}`, `{"success": False, "message": ...}`): escalation or vague advice misleads the
    agent whichever channel carries it."""

    ENVELOPE_TEXT = True

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
            for start, end in self._matches(prose, ctx):
                text = prose[start:end]
                if text.lower() in spec.exceptions:
                    continue
                if spec.unless_after and self._specific_after(prose, end):
                    continue
                if any(p.search(prose) for p in spec.unless_message):
                    break
                if spec.unless_placeholder and any(h.kinds & set(spec.unless_placeholder) for h in template.placeholders):
                    break
                if spec.unless_self_service and self._self_service(template, prose, start, end, ctx):
                    continue
                if spec.unless_step_before and self._after_a_step(template, prose, start, end, ctx):
                    continue
                if spec.unless_delegated and statements(ctx.packs).delegated(prose, start):
                    continue  # "let the user review the request": a hand-off, not advice to the reader
                if spec.when == "fixable" and not recoverable(message, ctx):
                    return
                if spec.when == "foreseen" and internal_fault(message):
                    return  # "Unexpected error in {tool}; see server log": the operator's pointer
                replacement = spec.swap.get(text.lower(), "") if spec.swap else ""
                fmt = {"match": text.strip(), "replacement": replacement, "param": first_failing_input(message, ctx) or "<param>", "limit": _limit(message, ctx)}
                fixer = PHRASE_FIXERS.get(spec.code) if self.FIX is Applicability.UNSAFE else None
                fix = fixer(message, template, text, ctx) if fixer and len(message.templates) == 1 else None
                yield self.finding(message, _format(spec.message, fmt), _format(spec.suggestion, fmt), fix=fix)
                return

    def _matches(self, prose: str, ctx: FileContext) -> List[Tuple[int, int]]:
        """Spans of the rule's tokens and of the statement shapes it names, in text order."""
        spans = [m.span() for m in self.spec.lexicon.finditer(prose)]
        if self.spec.shapes:
            reader = statements(ctx.packs)
            for name in self.spec.shapes:
                spans += reader.shape(name, prose[:MAX_MATCH_CHARS])
        return sorted(set(spans))

    def _after_a_step(self, template: Template, prose: str, start: int, end: int, ctx: FileContext) -> bool:
        """True when the match follows a step in its own sentence, joined to it by "and" or "then"
        ("please correct your input and try again", "narrow the query, then retry"): what the
        match advises waits on that step, not on time. A vague step ("check the parameters and
        retry") counts too when the match names no time of its own ("... and try again later"
        waits on time as well): the retry waits on the step, and AEM102 reports the step."""
        sentence = sentence_start(prose, start)
        head = re.search(r"(?:,\s*|\s)(?:and|then|and then)\s*$|,\s*then\s*$", prose[sentence:start])
        if head is None:
            return False
        step = prose[sentence:sentence + head.start()]
        if signals(ctx).next_step(template, ctx.registry, step, action=True) is not None:
            return True
        return not UNTIMED_WAIT.search(prose[start:end]) and bool(statements(ctx.packs).vague_advice(step))

    def _self_service(self, template: Template, prose: str, start: int, end: int, ctx: FileContext) -> bool:
        """True when the message, without the matched clause, gives the caller a next step of its
        own ("call export_data after the reset, or ask a workspace owner ..."): the person is an
        alternative, not the only way forward."""
        clause_start = sentence_start(prose, start)
        tail = SENTENCE_END.search(prose, end)
        rest = prose[:clause_start] + " " + prose[tail.end() if tail else len(prose):]
        head = re.search(r"(?:,\s*|\s)(?:or|and)\s*$|,\s*$", prose[clause_start:start])
        if head is not None:  # "..., or ask X": the part before the "or" is its own clause
            rest = prose[:clause_start + head.start()] + ". " + rest
        after = re.search(r"[,;:]\s*(?:(?:but|instead|rather)\s*,?\s*)?", prose[end:tail.start() if tail else len(prose)])
        if after is not None:  # "do not retry this card, ask the customer for another one": the clause after it
            rest = prose[end + after.end():tail.start() if tail else len(prose)] + ". " + rest
        return signals(ctx).next_step(template, ctx.registry, rest.strip(), action=True) is not None

    def _specific_after(self, prose: str, start: int) -> bool:
        end = SENTENCE_END.search(prose, start)
        rest = prose[start:end.start() if end else len(prose)]
        return any(p.search(rest) for p in self.spec.unless_after)


# a retry that waits on time without saying how long ("later", "shortly", "in a bit")
UNTIMED_WAIT = re.compile(r"\b(?:later|shortly|soon|in a (?:while|bit|moment|few)|after a while)\b", re.I)


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
