"""What the sentences of a message do, read from their structure: state a failure, give advice,
hand the reader to a human, tell it to stop, prescribe a step, or only report status.

Phrase lists fitted to known wordings miss the next project's wording, so this module reads shapes:
"<could not|unable to|cannot> <verb>", "not (a) valid <noun>", "<noun> failed" and passives are
failure statements; a check/verify/ensure verb is vague advice when its object is not a concrete
thing; a directive to contact/email/ask a human role or a support address is escalation. The word
classes (advice verbs, escalation verbs, human roles) are data in `rules/*.toml` lexicons; the shapes
are here. AEM101, AEM102, AEM201, AEM501 and AEM502 read the results.

All matching runs on `Template.prose`, where each placeholder is the mark U+E000.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, List, Optional, Tuple

from .model import PLACEHOLDER_MARK

if TYPE_CHECKING:  # pragma: no cover
    from .packs import Packs

Span = Tuple[int, int]

# A concrete thing: a code span, a placeholder, a flag, an env var, a URL or path, a file name, a
# quoted value, a number, a snake_case/dotted/camelCase identifier or a call.
CONCRETE = re.compile(
    r"`[^`]+`|" + PLACEHOLDER_MARK + r"|(?<![\w-])--?[A-Za-z][\w-]*|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|https?://\S+|"
    r"(?:^|\s)(?:~|\.{1,2})?/[\w.-]+|\b\w+\.(?:toml|ya?ml|json|ini|cfg|env|conf|py|txt|csv|md|lock|xml)\b|"
    r"'[^'\s][^']{0,60}'|\"[^\"\s][^\"]{0,60}\"|\b\d+(?:\.\d+)*\b|\b[a-z][a-z0-9]*_[a-z0-9_]+\b|"
    r"\b[a-z]+[A-Z]\w*\b|\b\w+\.\w+\(|\b\w+\(\)|\b[a-z_]+(?:\.[a-z_]+){1,}\b"
)
PRONOUN = re.compile(r"^\s*(?:it|its|them|their|this|that|these|those|they|the)\b", re.I)
# A proper noun or product name ("Tesseract", "FastMCP") and a stated constraint ("only letters") name
# something concrete too.
NAMED = re.compile(r"(?<![.!?]\s)(?<!^)\b(?!I\b)[A-Z][A-Za-z0-9]+\b|\bonly\b")
NOT_A_VERB = re.compile(r"^\s*(?:must|is|are|was|were|should|has|have|had|can|cannot|could|will|would|failed|=|:)(?!\w)", re.I)
CLAUSE_END = re.compile(r"[.;!?](?=\s|$)|\s[\u2014\u2013]\s|$")
# Where a directive can start: a sentence or clause start, after "please"/"then", or after a modal
# addressed to the reader ("you should", "you may need to").
DIRECTIVE = (
    r"(?:^|(?<=[.;:!?\u2014\u2013(,])\s*|\b(?:please|kindly|then|and|or|so|to fix(?: this)?,?|otherwise,?|instead,?)\s+"
    r"|\byou(?:'ll| will)? (?:should|must|may|can|could|need to|have to|might (?:want|need) to|may (?:want|need) to|want to)\s+(?:also\s+|first\s+)?)"
)

# Failure statements (item 8 of issue 14), by shape.
JUDGED = r"invalid|incorrect|wrong|bad|malformed|corrupt(?:ed)?|unsupported|unacceptable|unusable|illegal|improper|broken"
APPROVED = r"valid|acceptable|usable|supported|allowed|permitted|correct|right|recogni[sz]ed|possible"
TROUBLE = r"problem|issue|error|trouble|hiccup|snag"
FAILURE_SHAPES = re.compile(
    r"\b(?:could ?not|couldn't|unable to|cannot|can't|can not|failed to|fails to|did not|didn't|not able to|"
    r"was unable to|were unable to)\s+(?:be\s+)?[a-z]+"
    r"|\b(?:is |are |was |were )?not (?:a |an )?(?:valid|proper|correct|acceptable|usable|recogni[sz]ed|supported) [a-z]+"
    r"|\b(?:invalid|bad|wrong|incorrect|malformed|improper|illegal|unacceptable|unsupported|unrecogni[sz]ed) [a-z]+"
    r"|(?:\b[a-z]+|" + PLACEHOLDER_MARK + r") (?:has |have )?(?:failed|errored|was unsuccessful|were unsuccessful|did not succeed|didn't succeed)\b"
    r"|\b(?:was|were|has been|have been|got|is|are) (?:rejected|refused|denied|aborted|interrupted|cancell?ed)\b"
    # a headline's passive ("Request rejected.", "Upload refused") and a judgment denied ("the data
    # provided is not acceptable", "this is not supported")
    r"|(?:\b[a-z]+|" + PLACEHOLDER_MARK + r") (?:rejected|refused|declined)\b"
    r"|\b(?:is|are|was|were|seems?|seemed|appears?|appeared|looks?|looked)(?: to be)? not (?:" + APPROVED + r")\b"
    r"|\b(?:was|were|has been|have been) not [a-z]+ed\b"
    # a judgment stated of the subject: "the request is invalid", "the file appears to be corrupt",
    # "the value you entered is not valid", "this doesn't look right", "that didn't work"
    r"|\b(?:is|are|was|were|seems?|seemed|appears?|appeared|looks?|looked)(?: to be)? (?:" + JUDGED + r")\b"
    r"|\b(?:is|are|was|were) not (?:" + APPROVED + r")\b|\b(?:isn't|aren't|wasn't|weren't) (?:" + APPROVED + r")\b"
    r"|\b(?:does not|doesn't|did not|didn't|do not|don't) (?:look|seem) (?:right|correct|valid)\b"
    r"|\b(?:did not|didn't|does not|doesn't|will not|won't) work\b"
    # trouble reported as a noun: "there was a problem with ...", "an issue occurred", "we hit a
    # snag", "error processing request", "something's off"
    r"|\bthere (?:was|were|is|are|has been) (?:a|an|some) (?:" + TROUBLE + r")s?\b"
    r"|\b(?:a|an|some) (?:" + TROUBLE + r")s? (?:occurred|happened|arose|came up)\b"
    r"|\b(?:hit|ran into|run into|encountered|had) (?:a|an|some) (?:" + TROUBLE + r")s?\b"
    r"|\berror (?:processing|handling|reading|parsing|loading|saving|while)\b"
    r"|\bsomething(?:'s| is| was) (?:off|wrong|not right)\b",
    re.I,
)

# Descriptions that look like requirements (item 10): "<X> cannot be <participle>" at a clause end
# is a failure ("cannot be handled"), not a rule; "one of" with no list after it names nothing.
CANNOT_BE = re.compile(r"\b(?:cannot|can't|can not|could not|couldn't) be (\w+)", re.I)
PARTICIPLE = re.compile(r"^(?:\w+(?:ed|en)|found|read|run|made|built|sent|set|put|done|got|kept|shown|understood|bound|held|split|cast|fed|led)$", re.I)
COMPLEMENT = re.compile(r"^\s+(?:with|together|than|in|when|after|before|both|for|by|as|more|less|at|on|to|from|into|unless|without|alongside|while|if|under|over|outside|inside|within|beyond|below|above)\b", re.I)
ONE_OF = re.compile(r"\bone of\b", re.I)
LISTED = re.compile(r"^\s*(?:the following|these)?\s*(?::|" + PLACEHOLDER_MARK + r"|`|'|\"|\(|\[|\{|[\w-]+\s*(?:,|\bor\b|/|\|))", re.I)
NEGATED_RETRY = re.compile(r"^(?:do not|don't|no|never) (?:retry|try again)|^not retryable", re.I)

# Status output (second half of item 12): a negated failure or an idle notice.
NEGATED_FAILURE = re.compile(
    r"^\W*(?:found\s+)?(?:no|0|zero|none)\s+(?:[a-z-]+\s+){0,2}(?:errors?|failures?|failed|issues?|problems?|warnings?|"
    r"violations?|findings?|diagnostics?|conflicts?|mismatch(?:es)?|vulnerabilit(?:y|ies))\b"
    r"(?:\s+(?:were\s+|was\s+)?(?:found|detected|reported|occurred|remaining|left|so far))?"
    r"(?:\s*(?:,|and)\s*(?:no|0|zero)\s+\w+(?:\s+\w+)?)*\W*$"
    r"|^\W*(?:all|every)\s+(?:[\w-]+\s+){0,2}(?:checks?|tests?|files?)\s+(?:passed|ok|succeeded|are (?:ok|valid|clean))\W*$"
    r"|^\W*(?:completed|finished|done|passed|succeeded)\s+(?:with(?:out)?\s+)?(?:no|0|zero|any)?\s*(?:errors?|failures?|issues?|problems?)\W*$"
    r"|^\W*(?:everything|all)\s+(?:is|looks|seems)\s+(?:ok|good|fine|clean|valid)\W*$",
    re.I,
)
IDLE_NOTICE = re.compile(
    r"^\W*(?:nothing to (?:do|commit|update|report|clean|sync|change|fix|format|check)|no (?:changes?|updates?|new [a-z]+)"
    r"(?: (?:to [a-z]+|detected|found|available|made|needed|pending))?|(?:already |is |are |all )?up[- ]to[- ]date|"
    r"(?:still )?waiting (?:for|on|until) .*|idle|watching (?:for )?.*|(?:no|0) [a-z]+ (?:changed|modified))\W*(?:\.{3}|\u2026)?\W*$",
    re.I,
)
SENTENCES = re.compile(r"(?<=[.;!?])\s+|\n+")


def _clause(prose: str, start: int) -> str:
    end = CLAUSE_END.search(prose, start)
    return prose[start:end.start() if end else len(prose)]


def _refers_back(obj: str, before: str) -> bool:
    """The object repeats a noun of the earlier text ("... from spec {x}. Check package spec ...")."""
    earlier = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", before)}
    return any(w.lower() in earlier for w in re.findall(r"[A-Za-z]{4,}", obj))


def concrete(text: str) -> bool:
    """True when `text` names a concrete thing (see CONCRETE)."""
    return bool(CONCRETE.search(text))


# A checkable state of a thing named bare, with no article: "pip is installed", "docker is running",
# "git is available in the container", "node is on your PATH". A named program or service, unlike
# "the service is available", "your connection is stable" or "everything is set up".
NAMED_STATE = re.compile(
    r"^\s*(?:that\s+)?(?!(?:it|this|that|these|those|they|everything|something|anything|all|nothing|none)\b)"
    r"[a-z][\w.+-]*\s+(?:(?:is|are)\s+(?:\w+ly\s+)?(?:installed|available|running|started|reachable|accessible|enabled|"
    r"configured|set|exported|writable|readable|on (?:your |the )?PATH|in (?:your |the )?PATH)|exists)\b",
    re.I,
)


def concrete_object(obj: str, before: str) -> bool:
    """The object of a check/ensure directive names something the reader can act on: a concrete
    thing (`concrete`), a proper noun or a stated constraint (`NAMED`), a named thing's state
    (`NAMED_STATE`), or the concrete thing the message already showed ("Could not read `a.toml`;
    check it"). One model for both readers: vague advice (AEM102) and a next step (AEM201)."""
    if concrete(obj) or NAMED.search(obj) or NAMED_STATE.match(obj):
        return True
    return concrete(before) and bool(PRONOUN.match(obj) or _refers_back(obj, before))


def outside(prose: str, spans: List[Span]) -> str:
    """The prose with the `spans` (in order, not overlapping) cut out, the pieces joined by a blank."""
    kept, at = [], 0
    for start, end in spans:
        kept.append(prose[at:start])
        at = end
    return " ".join(kept + [prose[at:]])


def failure_statements(prose: str) -> List[Span]:
    """Spans of the failure statements in `prose` (shapes, not listed phrases)."""
    return [m.span() for m in FAILURE_SHAPES.finditer(prose)]


def prescriptive(prose: str, match: "re.Match") -> bool:
    """False for an allowed-values match that only describes: "cannot be handled" at a clause end,
    "one of the known values" with no list after it."""
    text = match.group(0)
    if ONE_OF.search(text):
        rest = prose[match.end():]
        if not LISTED.match(rest) and not re.match(r"^\s*(?:\w+\s*){0,3}(?:\b(?:are|is|include)\b|:)", rest):
            return False
        if re.match(r"^\s*(?:the\s+)?(?:\w+\s+)?(?:values?|options?|choices?|types?|kinds?|formats?|names?|ids?|modes?|items?)\s*(?:[.;!?]|$)", rest, re.I):
            return False
    found = CANNOT_BE.match(prose, match.start())
    if found:
        tail = prose[found.end():]
        if PARTICIPLE.match(found.group(1)) and not COMPLEMENT.match(tail):
            return False
    return True


# A duration can measure the failure instead of the wait: "timed out after 10s", "no response in 30 s",
# "took more than 5 minutes". It is retry timing only in a clause that looks forward (retry, wait, back,
# available, resets); a clause that reports how long the failed work ran tells the reader nothing to do.
RAN_FOR = re.compile(
    r"\b(?:timed? ?out|took|taking|ran|running|run(?:s)? (?:for|longer)|exceed(?:ed|s|ing)?|fail(?:ed|s|ing)|gave up|giving up|"
    r"abort(?:ed|ing)|cancell?(?:ed|ing)|stopped|stalled|hung|waited|elapsed|expired|killed|terminated|"
    r"(?:did(?: not|n't)|could(?: not|n't)|unable to) (?:finish|complete|respond|return|answer|reply|connect|start)|"
    r"no (?:response|reply|answer|data|output|progress)|without (?:a |any )?(?:response|reply|answer|output|progress))\b",
    re.I,
)
LOOKS_FORWARD = re.compile(r"\b(?:retry|retrying|try|wait|waiting|back|available|again|later|resets?|reopens?|expires? in)\b", re.I)
RETRY_LEAD = re.compile(r"^\s*(?:retry|retrying|try again|wait|waiting)\b", re.I)
CLAUSE_BREAK = re.compile(r"[.;!?:,](?=\s|$)|\s[\u2014\u2013-]\s|\b(?:and|but|so|then)\s", re.I)


def measures_failure(prose: str, start: int, text: str) -> bool:
    """True when the duration found at `start` says how long the failed work ran ("timed out after 10s"),
    not when to retry. A duration led by a retry or wait verb is always timing."""
    if RETRY_LEAD.match(text):
        return False
    clause = CLAUSE_BREAK.split(prose[:start])[-1]
    return bool(RAN_FOR.search(clause)) and not LOOKS_FORWARD.search(clause)


def negated_retry(text: str) -> bool:
    """"do not retry": a step only together with a fix (the caller learns what not to do, not what to do)."""
    return bool(NEGATED_RETRY.match(text.strip()))


def status_only(prose: str) -> bool:
    """True when every sentence is a negated failure ("No errors found", "0 failures") or an idle
    notice ("Nothing to do", "Waiting for changes..."): status output, not an error report."""
    sentences = [s for s in SENTENCES.split(prose.strip()) if s.strip(" .\t")]
    return bool(sentences) and all(NEGATED_FAILURE.match(s) or IDLE_NOTICE.match(s) for s in sentences)


class Statements:
    """Shape readers built from the packs' word classes; one instance per pack set."""

    def __init__(self, packs: "Packs"):
        advice = _alternation(packs, "advice-verb")
        escalate = _alternation(packs, "escalation-verb")
        roles = _alternation(packs, "human-role")
        self.advice = re.compile(DIRECTIVE + r"(?P<verb>" + advice + r")\b", re.I)
        self.escalation = re.compile(
            DIRECTIVE + r"(?P<verb>" + escalate + r")\s+(?:(?:your|the|an?|our|their|this|that|a)\s+)?(?:[\w-]+\s+){0,3}"
            r"(?:(?:" + roles + r")\b|[\w.+-]+@[\w-]+\.[\w.]+)"
            # a person made to act for the reader: "have your workspace owner verify the billing details"
            r"|" + DIRECTIVE + r"(?P<made>(?:have|let|get))\s+(?:(?:your|the|an?|our|their)\s+)?(?:[\w-]+\s+){0,2}(?:" + roles + r")\s+(?:to\s+)?[a-z]+"
            # the same hand-off stated, not ordered: "your administrator can help with this"
            r"|(?P<role>\b(?:your|the|an?|our)\s+(?:[\w-]+\s+){0,2}(?:" + roles + r"))\s+(?:can|could|will|may|should be able to|is able to)\s+"
            r"(?:help|assist|resolve|fix|sort (?:this|it) out|look into)\b",
            re.I,
        )
        # advice whose doer is a person, not the reader: "let the user review the request", "your admin
        # should check the settings" (a hand-off, judged by the escalation and stop shapes)
        self.delegate = re.compile(
            r"(?:\b(?:let|have|ask|get|tell|allow|wait for)\s+(?:(?:your|the|an?|our|their)\s+)?(?:[\w-]+\s+)?(?:" + roles + r")\s+(?:to\s+)?"
            r"|\b(?:" + roles + r")\s+(?:should|must|can|could|will|may|needs? to|has to|have to)\s+)$",
            re.I,
        )
        self.stop = re.compile(
            r"(?<![\w-])(?<!\bto )(?<!\bnot )(?<!n't )(?<!\bnever )(?<!\bthe )(?<!\ba )(?<!\bwill )(?<!\bcan )(?<!\bwould )(?<!\bdid )(?<!\bdoes )"
            r"(?:stop|abort|halt)(?![\w-])(?=\s*(?:[.;:!?,)]|$)|\s+(?:and|here|now|immediately|there|at once|\w+ing)\b"
            # giving up one's own work: "abort the task", "stop this workflow" (not "stop the server")
            r"|\s+(?:the|this|your)\s+(?:task|attempt|conversation|plan)s?\b(?![^.;!?]*\b[a-z_][a-z0-9_]*\())",
            re.I,
        )

    def vague_advice(self, prose: str) -> List[Span]:
        """A check/verify/ensure directive whose object is not a concrete thing ("review what you
        entered", "double-check them" after "your credentials might be wrong")."""
        out = []
        for match in self.advice.finditer(prose):
            obj = _clause(prose, match.end("verb"))
            if not obj.strip() or re.search(r"\b(?:logs?|console|traceback|stack ?trace|output)\b", obj, re.I):
                continue  # intransitive, specific, or pointing at logs (AEM503's concern)
            if re.match(r"\s+with\b", obj, re.I):
                continue  # "check with your admin" hands the reader to a person (the escalation shape)
            if prose[match.start("verb"):match.end("verb")].isupper() or NOT_A_VERB.match(obj):
                continue  # "CHECK must be followed by ...", "confirm must be true": a keyword or a name, not advice
            if concrete_object(obj, prose[:match.start()]):
                continue  # "check the Tesseract installation", "make sure docker is running", "Could not read `a.toml`; check it"
            start = match.start("verb")
            out.append((start, min(match.end("verb") + len(obj.rstrip()), start + 80)))
        return out

    def delegated(self, prose: str, start: int) -> bool:
        """The advice at `start` is addressed to a person the message names, not to its reader."""
        clause = re.split(r"[.;!?:,](?=\s|$)", prose[:start])[-1]
        return bool(self.delegate.search(clause[-160:]))

    def escalations(self, prose: str) -> List[Span]:
        """A directive to contact, email, get in touch with or ask a human role or a support address."""
        return [(m.start("verb") if m.group("verb") else m.start("made") if m.group("made") else m.start("role"), m.end()) for m in self.escalation.finditer(prose)]

    def stops(self, prose: str) -> List[Span]:
        """"stop"/"abort" as an instruction to give up, anywhere in a sentence (not "stop the server")."""
        return [m.span() for m in self.stop.finditer(prose)]

    def shape(self, name: str, prose: str) -> List[Span]:
        return SHAPES[name](self, prose)


SHAPES = {"vague-advice": Statements.vague_advice, "escalation": Statements.escalations, "stop": Statements.stops}


def _alternation(packs: "Packs", name: str) -> str:
    lexicon = packs.lexicons.get(name)
    tokens = sorted(lexicon.tokens, key=len, reverse=True) if lexicon is not None else []
    return "|".join(f"(?:{t})" for t in tokens) or "(?!x)x"


def statements(packs: "Packs") -> Statements:
    """The run's `Statements` (built once per pack set and cached on the packs object)."""
    cached: Optional[Statements] = getattr(packs, "_statements", None)
    if cached is None:
        cached = Statements(packs)
        packs._statements = cached  # type: ignore[attr-defined]
    return cached
