"""AEM204: whether a message raised when a value fails a closed set, a range or bound, a pattern, a
required form, a deny rule or a validating parser says what is allowed: the choices, the bound, the
form, an example, or the collection interpolated at run time. Open sets are left to AEM205.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterable

from ..extract.context import GuardFacts
from ..extract.guards import FORMAT_NAMED, deny_stated, parse_form_stated
from ..extract.provenance import provenance
from ..extract.value_names import snake
from ..extract.value_sets import describe as describe_set
from ..fixes import append_edit
from ..model import COLLECTION, HINT, Applicability, Finding, Fix, Message, Template
from .base import FileContext, Option as RuleOption, complete_templates, quote
from .inputs import reports_missing_input
from .signals import tool_references
from .part_rule import PART_SINKS, VALUE_SOURCE, PartRule, _contains, _root
from .vague import signals

RANGE_TEXT = re.compile(r"\b(at least|at most|no more than|up to|between|minimum|maximum|max|min|limit|exceeds?|above|below|greater|less|fewer|more than|range|positive|negative|non-negative|non-zero|whole number|single|only one|exactly)\b|[<>]=?|\u2264|\u2265", re.I)
EXAMPLE_TEXT = re.compile(r"\b(e\.g\.|for example|such as|like|formatted as|must (?:match|be|look|start|end|contain)|expected|should (?:be|look|match)|in the form)\b", re.I)
# the order of two values the caller sent ("end before start", "min_size is larger than max_size")
RELATION_TEXT = re.compile(r"\b(before|after|earlier|later|precedes?|follows?|past|beyond|overlaps?|greater|larger|bigger|higher|less|smaller|lower|exceeds?|than)\b", re.I)
ZERO_WORDS = re.compile(r"\b(positive|negative|non-negative|nonnegative|non-zero|nonzero|empty|whole number)\b", re.I)


def requirements(message: Message, ctx: FileContext, limit: int = 20):
    """What the guard in front of `message` requires of caller input: (facts, choices, dynamic sets,
    formats, patterns, ranges), or None when it requires nothing a message could state."""
    if message.extra.get("silent"):
        return None
    facts = ctx.guard(message)
    if not facts.has_guard:
        return None
    derived = {_root(n) for n in provenance(message).inputs(facts.subjects | facts.value_subjects)}  # `request` for `request.content_type`
    if not derived:
        return None  # the object's own state, not a value the caller passed
    choices = [v for m in facts.memberships if m.allowed and m.values and _root(m.subject) in derived for v in m.values]
    dynamic = [m for m in facts.memberships if m.allowed and m.dynamic and _root(m.subject) in derived and not m.closed]
    closed = [m for m in facts.memberships if m.allowed and m.dynamic and _root(m.subject) in derived and m.closed]
    formats = [f for f in facts.formats if (f[3] or f[2]) and _root(f[0]) in derived]  # required forms and deny rules
    formats += [(subject, "parse", (form,), True) for subject, form, _ in facts.parse_forms if _root(subject) in derived]
    patterns = [p for p in facts.patterns if p[2] and _root(p[0]) in derived]
    ranges = [b for b in facts.bounds if _root(b[0]) in derived]
    if len(choices) > limit:
        # too many to list: a set written in the code is still closed; its values are interpolated
        # at run time (as for a set errlint cannot read), not listed in the text
        choices = []
        listed = {id(m) for m in facts.memberships if m.allowed and m.values and _root(m.subject) in derived and m.node is not None}
        facts = replace(facts, memberships=[replace(m, values=None, dynamic=True, closed=True) if id(m) in listed else m for m in facts.memberships])
        closed += [m for m in facts.memberships if m.closed and m.values is None and m.node is not None and _root(m.subject) in derived]
    if not (choices or formats or patterns or ranges or closed or facts.enum_lookup):
        return None
    if dynamic and not choices and not ranges and not closed:
        return None
    return facts, choices, dynamic, formats, patterns, ranges


def states_requirement(message: Message, template: Template, ctx: FileContext) -> bool:
    """The message states what its guard requires in words of its own (see
    `_requirement_in_other_words`): an allowed-values clause, which is itself a way forward."""
    required = requirements(message, ctx)
    if required is None:
        return False
    facts, choices, _, _, _, ranges = required
    return _requirement_in_other_words(template, facts, choices, ranges, message)


class MissingAllowedValues(PartRule):
    """## What it does
    Flags a message raised when a value is not in a closed set (a literal, an enum, a constant, a
    configured allow-list such as `SETTINGS["themes"]`), fails a range or a bound (`right >
    image.width`), a regular expression, a prefix/suffix check, a deny rule (`bad in x`) or a
    parser in a validating `try` (`int(x)`, `json.loads(x)`, `Decimal(x)`), when the message neither
    lists the allowed values (at least one), nor interpolates the collection or bound, nor gives an
    example or a tool that lists them. Open sets (records from storage or an API) and collections
    longer than `max-listed-values` are left to AEM205 and AEM405. A guard against an attack (path
    traversal, a NUL byte, a request from a foreign `Origin`/`Host`) refuses tersely by design and is
    exempt, as is a check of the project's own code (its parameters get fixed values at every call).
    So is the final `else` of a chain that handles every value the parameter is declared to take,
    where something enforces the declaration first: a `Literal[...]` (also through an alias from
    another module) on an MCP tool or a pydantic `validate_call` function, without `None`; a
    `click.Choice` that always has a value; a pydantic model's `Literal` field read on an instance
    whose class an annotation gives (`field.field_type` with `fields: dict[str, FilterableField]`).
    No reader gets there (the same holds for every AEM2xx rule).

    ## Why is this bad?
    The agent cannot guess the accepted values; naming them turns a retry loop into one correct call.

    ## Example
    ```python
    FORMATS = {"wheel", "sdist"}
    if kind not in FORMATS:
        raise click.ClickException(f"Invalid kind: {kind}")
    ```

    Use instead:
    ```python
        raise click.ClickException(f"Invalid --kind {kind!r}; expected one of: sdist, wheel.")
    ```

    ## Fix safety
    Unsafe: appending "; expected one of: a, b" changes the message text.

    ## Options
    `max-listed-values` (int, 20): collections longer than this are not expected to be listed.
    """

    CODE = "AEM204"
    SINKS = PART_SINKS
    NAME = "missing-allowed-values"
    SUMMARY = "What is allowed is not said"
    PROFILES = ("agent", "cli", "http", "exc")
    OPTIONS = {"max-listed-values": RuleOption(20, "int", "Longest literal collection a message is expected to list.")}
    FIX = Applicability.UNSAFE
    VALID = (
        "SIZES = {'s', 'm'}\ndef f(size):\n    if size not in SIZES:\n        raise ValueError(f'size={size!r} is invalid; expected one of s, m')\n",
        "def f(page_size):\n    if page_size > 200:\n        raise ValueError(f'page_size={page_size} exceeds the limit of 200')\n",
        "TICKETS = {'T-1': 'open'}\ndef f(ticket_id):\n    if ticket_id not in TICKETS:\n        raise ValueError(f'Unknown ticket {ticket_id!r}. Call list_tickets to see valid ticket IDs.')\n",
        "def f(x, items):\n    if x not in items:\n        raise ValueError(f'{x!r} is not an item')\n",
    )
    INVALID = (
        "FORMATS = {'wheel', 'sdist'}\ndef f(kind):\n    if kind not in FORMATS:\n        raise ValueError(f'Invalid kind: {kind}')\n",
        "def f(kind):\n    if kind == 'fresh':\n        return 1\n    if kind == 'clone':\n        return 2\n    raise ValueError('Unrecognised creation mode {}'.format(kind))\n",
        "import re\ndef f(ref):\n    if not re.fullmatch(r'[A-Z]{1,3}[0-9]+', ref):\n        raise ValueError(f'Cell address {ref} is malformed')\n",
        "def f(patterns):\n    if len(patterns) > 1:\n        raise ValueError('Too many patterns supplied')\n",
    )

    def check_part(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        required = requirements(message, ctx, self.options["max-listed-values"])
        if required is None:
            return
        facts, choices, dynamic, formats, patterns, ranges = required
        sig = signals(ctx)
        for template in complete_templates(message):
            if _satisfied(template, facts, choices, formats, patterns, ranges, ctx, message, sig):
                continue
            what, suggestion = self._describe(choices, formats, patterns, ranges, facts)
            yield self.finding(message, f"the message does not say what is allowed ({what})", suggestion, fix=self._fix(message, template, ctx, choices, dynamic, ranges, facts))
            return

    def _fix(self, message: Message, template: Template, ctx: FileContext, choices, dynamic, ranges, facts: GuardFacts):
        """Append the literal choices or the literal bound (unsafe: the message text changes)."""
        if len(message.templates) != 1 or dynamic:
            return None
        if choices:
            addition = "; expected one of: " + ", ".join(dict.fromkeys(choices))
        elif ranges and facts.bound_values and len(ranges) == 1:
            subject, op, _ = ranges[0]
            addition = f"; {_shown(subject, facts)} must be {_sides(subject, [(subject, op, facts.bound_values[0])], facts)}"
        else:
            return None
        edit = append_edit(template, ctx.code, addition)
        return Fix(Applicability.UNSAFE, f"Append \"{addition.lstrip('; ')}\"", (edit,)) if edit else None

    def _describe(self, choices, formats, patterns, ranges, facts) -> tuple:
        if choices:
            unique = list(dict.fromkeys(choices))
            listed = ", ".join(unique)
            if len(unique) == 1:  # `if kind != "VCARD"`: one accepted value, not a list of one
                subject = next((m.subject for m in facts.memberships if m.allowed and m.values), "")
                which = f"{subject} must be " if subject else "the accepted value is "
                return f"{which}{quote(listed, 60)}", f"Say the accepted value: \"; expected {quote(listed, 80)}\"."
            return f"one of: {quote(listed, 60)}", f"Append the choices: \"; expected one of: {quote(listed, 80)}\"."
        closed = [m for m in facts.memberships if m.allowed and m.closed and m.values is None and m.node is not None]
        if closed and not (ranges or formats or patterns):
            shown = describe_set(closed[0].node)
            return f"one of the values of {quote(shown, 40)}", f"Interpolate them at run time, e.g. f\"; expected one of: {{', '.join(sorted({shown}))}}\"."
        if ranges:
            subject = ranges[0][0]
            sides = _sides(subject, ranges, facts)
            shown = _shown(subject, facts)
            return f"{shown} must be {sides}", f"State the accepted range, e.g. \"{shown} must be {sides}\"."
        if formats:
            subject, method, lits, required = formats[0]
            subject = facts.field_of(subject)
            if method == "parse":
                return f"{subject} must be {lits[0]}", f"Say the accepted form of {subject} ({lits[0]}) and give an example value."
            if not required:
                return f"{subject} must not {_verb(method)} {' or '.join(lits)}", f"Say what {subject} may not {_verb(method)}, e.g. \"{subject} must not {_verb(method)} {' or '.join(repr(x) for x in lits)}\"."
            if lits:
                return f"{subject} must {_verb(method)} {' or '.join(lits)}", f"Say the required form, e.g. \"{subject} must {_verb(method)} {' or '.join(repr(x) for x in lits)}\"."
            return f"{subject} must pass {method}()", f"Say the accepted form of {subject} and give an example."
        if patterns:
            subject, pattern, _ = patterns[0]
            subject = facts.field_of(subject)
            return f"{subject} must match {quote(pattern, 40)}", f"Describe the format in words and give an example value for {subject}."
        return "valid enum values", "List the enum's values or point to the tool that lists them."


def _shown(subject: str, facts: GuardFacts) -> str:
    """How a bound's subject is named: a count as one (`len(columns)`), a field by its path (`args.port`)."""
    return f"len({subject})" if subject in facts.counted else facts.field_of(subject)


def _sides(subject: str, ranges, facts: GuardFacts) -> str:
    """The allowed side of each failing test of `subject` (never the failing test itself), lower end
    first: `limit < 1 or limit > MAX_LIMIT` allows ">= 1 and <= MAX_LIMIT"; a test against 0 or 1
    (`port <= 0`, kept apart as a positivity test) is the lower end of a range with an upper one."""
    tests = [(op, b) for s, op, b in facts.zero_sides if s == subject] + [(op, b) for s, op, b in ranges if s == subject]
    ordered = sorted(tests, key=lambda t: _inverse(t[0]).startswith("<"))
    return " and ".join(dict.fromkeys(f"{_inverse(op)} {bound or 'the bound'}" for op, bound in ordered))


def _requirement_in_other_words(template: Template, facts: GuardFacts, choices, ranges, message) -> bool:
    """The requirement stated without listing it: the kind of value a closed set holds ("not a
    boolean" for `BOOLEAN_STATES`), the accepted value shown through a name an enclosing guard fixes
    (`if tag == "VCALENDAR": ... % tag`), or the order of two inputs ("end before start")."""
    if _names_kind(template, facts):
        return True
    if choices and any(facts.pinned.get(n.split(".", 1)[0]) in choices for h in template.placeholders for n in h.names):
        return True
    relative = [bound for _, _, bound in ranges if bound and not bound.isupper() and provenance(message).inputs(_bound_names(bound))]
    return bool(relative) and len(relative) == len(ranges) and bool(RELATION_TEXT.search(template.prose))


def _satisfied(template: Template, facts: GuardFacts, choices, formats, patterns, ranges, ctx, message, sig) -> bool:
    prose = template.prose
    if reports_missing_input(template, facts):
        return True  # "other_table must be specified": the step for an absent input is the message
    if re.search(r"did you mean", prose, re.I) or VALUE_SOURCE.search(prose) or tool_references(template):
        return True
    for holder in template.placeholders:
        if holder.has(COLLECTION) or holder.has(HINT):
            return True
        for m in facts.memberships:
            if m.collection and any(n == m.collection or n.startswith(m.collection + ".") for n in holder.names):
                return True
    literal = template.literal
    if _requirement_in_other_words(template, facts, choices, ranges, message):
        return True
    if choices and any(_contains(template, c) or c and len(c) > 2 and c.lower() in literal.lower() or c in NUMBER_WORDS and re.search(rf"\b{NUMBER_WORDS[c]}\b", literal, re.I) for c in choices):
        return True
    counts = [m for m in facts.memberships if m.allowed and m.values]
    if choices and counts and all(m.subject in facts.counted for m in counts) and sig.allowed_clause(template):
        return True  # `len(argv) not in (3, 4)` with "expected HOST and PORT": the count said as what to pass
    for subject, method, lits, required in formats:
        if method == "parse" and parse_form_stated(template, facts, subject, prose, sig):
            return True
        if lits and any(lit.strip() and lit.strip().lower() in literal.lower() for lit in lits):
            return True
        if lits and not required and deny_stated(template, lits):
            return True  # a deny rule stated in words ("cannot contain single quotes")
        if not lits and sig.allowed_clause(template):
            return True
    if patterns and (EXAMPLE_TEXT.search(prose) or FORMAT_NAMED.search(prose) or sig.allowed_clause(template)):
        return True
    if ranges:
        for _, _, bound in ranges:
            if bound and (bound in literal or any(shows_bound(h, bound) for h in template.placeholders)):
                return True
        if facts.bound_values and any(_near(v, literal) or v in NUMBER_WORDS and re.search(rf"\b{NUMBER_WORDS[v]}\b", literal, re.I) for v in facts.bound_values):
            return True
        # a limit in words of its own, in the unit the reader knows ("at most one expression" for
        # `len(entry) > 3` over `["Rscript", "-e", expr]`)
        if RANGE_TEXT.search(prose) and (re.search(r"\d", literal) or template.placeholders or ZERO_WORDS.search(prose) or COUNT_WORD.search(prose)):
            return True
        if CODE_SPAN.search(literal) and sig.allowed_clause(template):
            return True  # "The only valid syntax is `Rscript -e {expr}`": the allowed forms, shown
    if facts.enum_lookup and (sig.allowed_clause(template) or any(h.has(COLLECTION) for h in template.placeholders)):
        return True
    return False


CODE_SPAN = re.compile(r"`[^`\n]+`")
NUMBER_WORDS = {"0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine", "10": "ten", "12": "twelve"}
COUNT_WORD = re.compile(r"\b(?:%s|a single|once|twice)\b" % "|".join(w for w in NUMBER_WORDS.values() if w != "zero"), re.I)


SET_WORDS = frozenset({"states", "values", "options", "choices", "names", "types", "items", "keys", "list", "dict",
                       "table", "allowed", "valid", "supported", "known", "available", "all", "map", "mapping"})


def shows_bound(holder, bound: str) -> bool:
    """The placeholder interpolates the bound: its name or an attribute of it (`{limit}`, `{limit.max}`),
    or the bound's own expression (`{date.today()}`, `{len(items)}`, `{limits['max']}`)."""
    if any(bound == n or n.startswith(bound + ".") for n in holder.names):
        return True
    # the bound itself or an offset of it: `{len(pres.slides) - 1}` shows the last index of `len(pres.slides)`
    shown, wanted = _expr_text(holder.expr), _expr_text(bound)
    if shown == wanted:
        return True
    at = shown.find(wanted)
    return at >= 0 and OFFSET.fullmatch(shown[:at] + "\0" + shown[at + len(wanted):]) is not None


OFFSET = re.compile(r"\(?\0\)?[-+]\d+|\d+[-+]\(?\0\)?|\(\0\)")


def _expr_text(expr: str) -> str:
    return re.sub(r"\s+", "", (expr or "").replace('"', "'"))


def _names_kind(template: Template, facts: GuardFacts) -> bool:
    """The message names the kind of value a closed set holds, a word of the set's name that is not
    the input's own name: "not a boolean" for `value not in BOOLEAN_STATES`."""
    for m in facts.memberships:
        if not m.allowed or not m.collection or m.values:
            continue
        own = {w.rstrip("s") for w in _words(m.subject)}
        kinds = {w for w in _words(m.collection) if len(w) >= 4 and w not in SET_WORDS and w.rstrip("s") not in own}
        if any(re.search(rf"\b(?:an?|valid|known)\s+{re.escape(w.rstrip('s'))}s?\b", template.literal, re.I) for w in kinds):
            return True
    return False


def _words(name: str) -> set:
    return {w for w in re.split(r"[^a-z]+", snake(name)) if w}


def _bound_names(bound: str) -> set:
    """The names a bound's label reads (`data` for "len(data)", `period` for "period[1]")."""
    return {n for n in re.findall(r"(?<![.\w])[A-Za-z_]\w*", bound) if n not in ("len", "abs", "min", "max", "int", "float", "round", "self", "cls")}


def _near(value: str, literal: str) -> bool:
    try:
        number = float(value.replace("_", ""))
    except ValueError:
        return False
    for found in re.findall(r"\d[\d_,]*(?:\.\d+)?", literal):
        try:
            other = float(found.replace("_", "").replace(",", ""))
        except ValueError:
            continue
        if abs(other - number) <= 1:
            return True
    return False


def _inverse(op: str) -> str:
    return {">": "<=", ">=": "<", "<": ">=", "<=": ">"}.get(op, "within")


def _verb(method: str) -> str:
    return {"startswith": "start with", "endswith": "end with", "contains": "contain"}.get(method, method)
