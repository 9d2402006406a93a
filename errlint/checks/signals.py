"""Reading a template's prose: next steps, allowed-values clauses, tool references, identifiers.

All matching runs on `Template.prose`, where each placeholder is the private-use mark U+E000, so a
phrase never matches inside an interpolated value. Code spans are kept: they are next steps.
"""
from __future__ import annotations

import re
from typing import Iterable, List, Optional, Sequence, Set, Tuple

from ..model import BOUNDED, EXCEPTION, PLACEHOLDER_MARK, Placeholder, Template
from ..packs import Lexicon, Packs
from ..prose import SENTENCES, concrete_object, measures_failure, negated_retry, outside, prescriptive, statements

NOT_A_VERB_NEXT = (  # a noun, not a verb: "Follow-up failed", "Set-up of {x}", "the run's log", "Run failed",
    # and the subject of a failure a few words on ("Call to backend failed", "Export to CSV timed out")
    r"(?!-\w|'s\b|\s+(?:of|failed|fails|is|was|were|are|has|have|had|not|error|errors|timed|returned|aborted|succeeded|"
    r"completed|cannot|could|did|does|already|limit|quota|exceeded|rejected|denied|refused|\w+ed\b)"
    r"|\s+(?:to|for|from|on|in|of|with|into)\s+(?:\S+\s+){0,2}(?:failed|fails|timed out|errored|was rejected|did not)\b"
    # a noun named with its value or judged: "limit={n} is above ...", "Limit {n} is ...", "Update too large"
    r"|\s*=|\s+too\b|\s+\S+\s+(?:is|are|was|were|exceeds|exceeded)\b)"
)
CLAUSE_START = r"(?:^|(?<=[.;:!?\u2014\u2013(])\s*|(?<=\s-)\s+|(?<=\s--)\s+|(?<=,)\s*(?:then\s+|or\s+|and\s+)?|\b(?:then|or|and|instead|please|to fix(?: this)?,?|otherwise,?)\s+)"
CONCRETE_STATE = re.compile(r"\b(?:is|are) (?:properly |correctly )?(?:installed|set|exported|running|reachable|configured|defined|on (?:your )?PATH)\b", re.I)
# an object a number makes specific: "read the current 6-digit code", "check the last 30 days"
COUNTED_OBJECT = re.compile(r"^\W*(?:the |a |an |your )?(?:\w+ ){0,2}\d+(?:-\w+)?\b")
YOU_CAN = re.compile(r"\byou (?:can|may|must|should|need to|have to|'ll need to|will need to|might want to) \w+", re.I)
IDENTIFIER = re.compile(
    r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[A-Z]{2,}[-_][A-Z0-9-]+\b|\b[A-Za-z]+-\d+\b|'[^'\s]{1,40}'|\"[^\"\s]{1,40}\"|`[^`]+`"
    r"|\b\d+(?:\.\d+)*\b|\b[a-z]+[A-Z]\w*\b|\b\w+\.\w{2,4}\b"
    # a name with a leading underscore (`_facet`), a long flag (`--limit`), a `key=` parameter (`page=`)
    r"|(?<![\w-])_+[a-z][a-z0-9_]*|(?<![\w-])--[a-z][a-z0-9-]*|(?<![\w-])[a-z_][a-z0-9_]*=(?![=\w])"
)
TOOL_REF = re.compile(
    r"(?:\b(?i:call(?:ing)?)\s+|\b(?i:use)\s+(?:the\s+)?|\b(?i:via)\s+|\b(?i:with)\s+|`)([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?:\(\))?`?"
    r"|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?:\(\)|\s+tool\b)",
)
WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
STOP_WORDS = frozenset(
    "a an the this that these those it its is are was were be been being am do does did has have had of to in "
    "on at by for with from as and or but if then so than into onto over under about your you our we i my me "
    "he she they them their there here which who whom what when where why how all any some each no nor only "
    "own same too very can will just should would could may might must shall also again once while up out off "
    "per via yet not".split()
)


def _gerunds(verb: str) -> Set[str]:
    """`simplify` -> simplifying, `increase` -> increasing, `split` -> splitting (and the plain +ing)."""
    out = {verb + "ing"}
    if verb.endswith("e") and not verb.endswith("ee"):
        out.add(verb[:-1] + "ing")
    if re.search(r"[^aeiou][aeiou][bdgmnprt]$", verb):
        out.add(verb + verb[-1] + "ing")
    return out


class Signals:
    """Lexicon-backed readers of message prose; one instance per run."""

    def __init__(self, packs: Packs, extra_verbs: Sequence[str] = ()):
        imperative = packs.lexicon("imperative")
        verbs = [v for v in imperative.tokens] + [re.escape(v) for v in extra_verbs]
        needs = set(imperative.needs_object)
        free = sorted((v for v in verbs if v not in needs), key=len, reverse=True)
        bound = sorted((v for v in verbs if v in needs), key=len, reverse=True)
        self.imperative = re.compile(CLAUSE_START + r"(?:" + "|".join(free) + r")\b" + NOT_A_VERB_NEXT, re.I)
        # a step put as a suggestion: "Consider simplifying your query", "try narrowing the range"
        gerunds = sorted({g for v in free if re.fullmatch(r"[a-z]+", v) for g in _gerunds(v)}, key=len, reverse=True)
        self.suggested = re.compile(CLAUSE_START + r"(?:consider|try|suggest|recommend)\s+(?:" + "|".join(gerunds) + r")\b", re.I)
        self.needs_object = re.compile(CLAUSE_START + r"(?:" + "|".join(bound) + r")\b(?!-\w)(?P<rest>.*?)(?=[.;!?](?:\s|$)|$)", re.I)
        self.allowed: Lexicon = packs.lexicon("allowed-values")
        self.retry: Lexicon = packs.lexicon("retry-statement")
        self.retry_advice: Lexicon = packs.lexicon("retry-advice")
        self.code: Lexicon = packs.lexicon("code")
        self.generic: Lexicon = packs.lexicon("generic-outcome")
        self.stand_ins: Lexicon = packs.lexicon("stand-in-words")
        self.statements = statements(packs)

    def next_step(self, template: Template, tools: Iterable[str] = (), prose: Optional[str] = None, action: bool = False) -> Optional[str]:
        """The first next-step signal in the template (an imperative, a code span, a flag, a tool, allowed
        values, retry timing), or None.
        `prose` reads a part of the template's prose instead of all of it; `action` keeps only what
        the caller can do (an instruction, a command, a tool, retry timing), not a stated requirement."""
        prose = template.prose if prose is None else prose
        found = self.imperative.search(prose) or self.suggested.search(prose)
        if found:
            return found.group(0).strip()
        for match in self.needs_object.finditer(prose):
            rest = match.group("rest")
            if self.code.search(rest) or PLACEHOLDER_MARK in rest or re.search(r"['\"][^'\"]+['\"]", rest) or _mentions_tool(rest, tools) or CONCRETE_STATE.search(rest) \
                    or COUNTED_OBJECT.search(rest) or concrete_object(rest, prose[:match.start()]):
                return match.group(0).strip()
        found = None if action else self.code.search(prose)
        if found:
            return found.group(0)
        for found in () if action else self.allowed.finditer(prose):
            if prescriptive(prose, found):  # "rather than", "cannot be handled", "one of the known values" describe
                return found.group(0)
        found = self.retry_statement(prose, steps_only=True)
        if found:
            return found
        if not action and self.statements.escalations(prose):
            return "escalation"  # "contact your administrator" prescribes a step (AEM501 judges whether it fits)
        found = YOU_CAN.search(prose)
        if found:
            return found.group(0)
        if not action and _mentions_tool(prose, tools):
            return "tool name"
        for holder in () if action else template.placeholders:
            if holder.has("hint") or holder.has("validation"):
                return holder.expr  # the validator's own text states what is required
        return None

    def retry_statement(self, prose: str, steps_only: bool = False) -> Optional[str]:
        """The first statement of retry timing or retryability in the prose, or None. A duration that
        measures the failure ("timed out after 10s") is not one. With `steps_only`, "do not retry" is
        left out: it is a step only together with a fix."""
        for found in self.retry.finditer(prose):
            if measures_failure(prose, found.start(), found.group(0)):
                continue
            if steps_only and negated_retry(found.group(0)):
                continue
            return found.group(0)
        return None

    def allowed_clause(self, template: Template) -> Optional[str]:
        prose = template.prose
        found = next((m for m in self.allowed.finditer(prose) if prescriptive(prose, m)), None)
        return found.group(0) if found else None

    def without_escalations(self, prose: str) -> str:
        """The prose without the sentences that hand the failure to a person ("If the problem
        persists, please reach out to your workspace administrator."): what is left is what the
        message tells its reader itself."""
        spans = self.statements.escalations(prose)
        kept, start = [], 0
        for end in [m.start() for m in SENTENCES.finditer(prose)] + [len(prose)]:
            if not any(a < end and b > start for a, b in spans):
                kept.append(prose[start:end])
            start = end
        return " ".join(kept)

    def generic_hits(self, prose: str) -> List[Tuple[int, int]]:
        return [m.span() for m in self.generic.finditer(prose)]

    def content_words(self, template: Template, prose: Optional[str] = None) -> List[str]:
        """Words that carry information: not stop words, not generic-outcome words or phrases.
        `prose` reads a part of the template's prose instead of all of it."""
        prose = template.prose if prose is None else prose
        text = outside(prose, self.generic_hits(prose))
        generic_words = set(self.generic.words)
        return [w for w in WORD.findall(text) if w.lower() not in STOP_WORDS and w.lower() not in generic_words and len(w) > 1]


def _mentions_tool(text: str, tools: Iterable[str]) -> bool:
    for tool in tools:
        if tool and re.search(rf"(?<![\w]){re.escape(tool)}(?![\w])", text):
            return True
    return False


STRONG_TOOL_REF = re.compile(
    # the whole name or none of it: `list_docs(folder)` is a call with arguments (code, not a tool
    # to call), never the reference `list_doc`
    r"(?:\b(?i:call(?:ing)?)\s+(?:the\s+)?|`)([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![a-z0-9_])(?:\(\))?`?(?!\s*\()"
    r"|\b(?i:the)\s+([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s+tool\b",
)


def tool_references(template: Template, strong: bool = False) -> List[str]:
    """snake_case names the message tells the reader to call (`Call list_projects`, `` `get_item` ``).

    `strong` keeps only unmistakable references ("call X", "the X tool", a backticked name), for
    AEM209, where a false reference costs a false finding.
    """
    out: List[str] = []
    for match in (STRONG_TOOL_REF if strong else TOOL_REF).finditer(template.prose):
        name = match.group(1) or match.group(2)
        if name and name not in out:
            out.append(name)
    return out


def identifiers(template: Template) -> List[str]:
    """Specific tokens: snake_case names, CODES-12, quoted values, numbers, code spans, file names."""
    return IDENTIFIER.findall(template.literal)


def value_placeholders(template: Template) -> List[Placeholder]:
    """Placeholders that echo a value (anything but the exception's own text)."""
    return [p for p in template.placeholders if not (p.kinds <= {EXCEPTION} or p.has(EXCEPTION) and not p.has(BOUNDED))]


def interpolates(template: Template, name: str) -> bool:
    """True when some placeholder reads `name` (or `name.attr`, `len(name)`, ...). A subject that
    is an expression (`request.headers.get("Accept")`) is read where a placeholder contains it."""
    expression = "(" in name or "[" in name
    for holder in template.placeholders:
        for read in holder.names:
            if read == name or read.startswith(name + "."):
                return True
        if expression and _code_form(name) in _code_form(holder.expr):
            return True
    return False


def _code_form(code: str) -> str:
    """`request.headers.get('Accept')` and `request.headers.get( "Accept" )` alike."""
    return code.replace(" ", "").replace("'", '"')


def mentions(template: Template, word: str) -> bool:
    """True when the literal text names `word` (case-insensitive, whole word, `_`/`-`/space agnostic)."""
    if not word:
        return False
    variants = {word, word.replace("_", " "), word.replace("_", "-"), word.replace("_", "")}
    camel = re.sub(r"_([a-z])", lambda m: m.group(1).upper(), word)
    variants.add(camel)
    text = template.literal
    lowered = text.lower()
    for v in variants:
        if v.lower() in lowered and re.search(rf"(?<![\w]){re.escape(v)}(?![\w])", text, re.I):
            return True
    return False


def signals(ctx) -> Signals:
    """The run's `Signals` for a `FileContext` (built once per pack set, cached on the packs object)."""
    cached = getattr(ctx.packs, "_signals", None)
    if cached is None or cached[0] != ctx.extra_next_step_verbs:
        cached = (ctx.extra_next_step_verbs, Signals(ctx.packs, ctx.extra_next_step_verbs))
        ctx.packs._signals = cached  # type: ignore[attr-defined]
    return cached[1]
