"""The facts a guard's test gives about the value it checks (`GuardFacts`), and one `Membership`
test among them. `context.guard_facts` fills them; the 2xx and 5xx rules read them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple


@dataclass
class Membership:
    """`subject in/not in collection`: `values` are the literal members when known; `allowed` is True
    when the sink fires because the subject is *outside* the collection (so the members are the
    allowed values), False when it fires because the subject is inside (a deny list)."""

    subject: str
    collection: str
    values: Optional[Tuple[str, ...]]
    dynamic: bool = False
    allowed: bool = True
    closed: Optional[bool] = None  # closed (an enum, constant, allow-list) or open (records): value_sets.py
    node: Any = field(default=None, repr=False, compare=False)
    tested: str = ""  # the dotted value tested when it is more than `subject` (`field.field_type`)


@dataclass
class GuardFacts:
    """Facts about the conditions that lead to a sink."""

    names: Set[str] = field(default_factory=set)
    subjects: Set[str] = field(default_factory=set)
    value_subjects: Set[str] = field(default_factory=set)  # values that failed an allowed-values check
    emptiness: bool = False
    empty_subjects: Set[str] = field(default_factory=set)  # inputs tested for being absent (`x is None`, `not x`)
    pinned: Dict[str, str] = field(default_factory=dict)  # names an enclosing `if tag == "VCALENDAR":` fixes to a literal
    memberships: List[Membership] = field(default_factory=list)
    bounds: List[Tuple[str, str, str]] = field(default_factory=list)  # (subject, op, bound text)
    bound_values: List[str] = field(default_factory=list)  # literal/constant bound values
    patterns: List[Tuple[str, str, bool]] = field(default_factory=list)  # (subject, regex, must match)
    formats: List[Tuple[str, str, Tuple[str, ...], bool]] = field(default_factory=list)  # (subject, method, literals, required)
    equalities: List[Tuple[str, str]] = field(default_factory=list)  # (subject, literal) for `x == lit` failures
    statuses: Set[int] = field(default_factory=set)  # HTTP statuses the response can have where the sink runs
    status_tested: bool = False  # the guard compares an outcome's status (`status_code`, `returncode`)
    zero_bounds: List[str] = field(default_factory=list)  # subjects compared against 0 or 1 (`n <= 0`)
    zero_sides: List[Tuple[str, str, str]] = field(default_factory=list)  # (subject, failing op, 0 or 1) of those tests
    counted: Set[str] = field(default_factory=set)  # subjects only measured with len() against a bound
    type_check: bool = False
    enum_lookup: bool = False
    has_guard: bool = False
    keys: Dict[str, List[str]] = field(default_factory=dict)  # `args["amount"]`, `args.get("amount")`: args -> [amount]
    parse_forms: List[Tuple[str, str, str]] = field(default_factory=list)  # (subject, form, words) of a validating try
    expr_bounds: Set[str] = field(default_factory=set)  # bound labels that are expressions (`image.width`)
    attributes: Set[str] = field(default_factory=set)  # `name.attr` reads in the test (`args.workers`)

    def field_of(self, subject: str) -> str:
        """`args.port` when the test read one attribute of `subject` (an argparse namespace, a request
        model, an options object) and no other: the value that failed is that field, not the whole
        object; `subject` itself otherwise."""
        fields = {a for a in self.attributes if a.split(".", 1)[0] == subject}
        if len(fields) == 1 and subject not in ("self", "cls"):
            return fields.pop()
        keys = self.keys.get(subject, [])
        return f"{subject}[{keys[0]!r}]" if len(keys) == 1 and not fields else subject  # `args['count']`
