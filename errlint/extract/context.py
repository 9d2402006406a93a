"""What the guard in front of a sink checks (whether the caller could fix the failure is in
`fixability.py`, which reads these facts).

`guard_facts(message)` reads the innermost `if`/`assert`/fall-through guard (and the enclosing except
handler) and reports the names it tests, literal collections it compares against, numeric bounds,
regular expressions and format checks. Rules in the 2xx and 5xx families use these facts.
"""
from __future__ import annotations

import re
from typing import Callable, List, Optional, Tuple

import libcst as cst

from ..model import Message
from . import nodes
from . import guards, value_sets
from . import guard_operands as ops
from .guard_facts import GuardFacts, Membership
from .provenance import provenance

__all__ = ["GuardFacts", "Membership", "guard_facts"]


def guard_facts(message: Message, resolve: Callable[[str], Optional[cst.CSTNode]]) -> GuardFacts:
    """Analyse the innermost guards of `message` (and fall-through chains) into `GuardFacts`.

    `resolve(name)` returns the single assigned value of a module/function name (for `X not in
    ALLOWED` where `ALLOWED = {...}`), or None.
    """
    facts = GuardFacts()
    context = message.context
    is_enum = _enum_test(message)
    parsed = guards.parse_guard(message, is_enum)
    if parsed is not None and not provenance(message).inputs({parsed.subject}):
        parsed = None  # `json.loads(resp.text)` after `resp = client.get(url)`: the world's answer, no input
    if parsed is not None:
        _parse_facts(parsed, facts)
        caught = context.handlers[0].name
        if caught and any(n.split(".", 1)[0] == caught for t in message.templates for h in t.placeholders for n in h.names):
            facts.value_subjects.discard(parsed.subject)  # the parser's own text ("invalid literal ... 'x'") shows it
    elif context.handlers:
        lookup = guards.key_lookup(message)
        if lookup is not None and provenance(message).inputs({ops.subject(lookup[0])}):
            facts.has_guard = True  # `except KeyError` after `TABLE[key]`: `key not in TABLE`
            facts.names.add(ops.subject(lookup[0]))
            _lookup_membership(lookup, facts, resolve)
    leading = context.guards
    if context.handlers and parsed is None:
        # in an `except` handler the failure is the `try` body's operation: a guard around the whole
        # `try` chose that branch (`if v.startswith("@"): try: open(v[1:]) except OSError: ...`); it is
        # not the rule the input broke. Only guards inside the handler lead to the message.
        leading = leading[:max(0, len(leading) - context.handlers[0].guard_depth)]
    for guard in leading if parsed is None else ():
        if guard.kind == "fallthrough":
            facts.has_guard = True
            facts.subjects.add(guard.subject.split(".", 1)[0])
            facts.names.add(guard.subject.split(".", 1)[0])
            facts.memberships.append(Membership(guard.subject, "", guard.values))
            facts.value_subjects.add(guard.subject.split(".", 1)[0])
            continue
        facts.has_guard = True
        chain = _else_chain(context.guards, guard, resolve) if guard.negated else [guard]
        for link in reversed(chain):  # in source order: `if` first, the last `elif` last
            _analyse(link.test, facts, resolve, link.negated)
        for outer in leading[leading.index(guard) + 1:]:
            # an enclosing `if other is None:` makes an absent input part of the failure; an enclosing
            # `if tag == "VCALENDAR":` fixes what `tag` shows
            if outer.kind != "fallthrough" and not outer.negated:
                around = GuardFacts()
                _analyse(outer.test, around, resolve, False)
                facts.empty_subjects |= around.empty_subjects
                for subject, literal in around.equalities:
                    facts.pinned.setdefault(subject, literal)
        break  # the innermost real guard is the one that leads to the sink
    for handler in context.handlers[:1]:
        for t in handler.types:
            if t.endswith(("ValueError",)) and any(c.split(".")[-1][:1].isupper() for c in handler.try_calls):
                facts.enum_lookup = facts.enum_lookup or any(_is_enum_call(c) for c in handler.try_calls)
    for m in facts.memberships:
        if m.closed is None:
            m.closed = True if m.values is not None else value_sets.closed_set(m.node, resolve, is_enum)
    return facts


def _enum_test(message: Message) -> Callable[[str], bool]:
    """Is `name` an enum class here: a class deriving from an Enum in this file, or named like one."""
    scope = message.scope

    def is_enum(name: str) -> bool:
        if not name or not name[:1].isupper():
            return False
        for binding in scope.lookup(name) if scope is not None else ():
            if binding.kind == "class" and isinstance(binding.value, cst.ClassDef):
                return any("Enum" in nodes.dotted(b.value) or "Choices" in nodes.dotted(b.value) for b in binding.value.bases)
        return bool(value_sets.ENUM_NAME.search(name))

    return is_enum


def _parse_facts(parsed: "guards.ParseGuard", facts: GuardFacts) -> None:
    facts.has_guard = True
    facts.subjects.add(parsed.subject)
    facts.names.add(parsed.subject)
    facts.value_subjects.add(parsed.subject)
    if parsed.attribute:
        facts.attributes.add(parsed.attribute)
    key, container = ops.keyed_read(parsed.argument) if parsed.argument is not None else ("", "")
    if key and container == parsed.subject and key not in facts.keys.get(container, []):
        facts.keys.setdefault(container, []).append(key)  # `int(args["count"])`: the field parsed
    if parsed.enum:
        facts.enum_lookup = True
        facts.memberships.append(Membership(parsed.subject, parsed.enum, None, True, True, True))
    elif parsed.form:
        facts.parse_forms.append((parsed.subject, parsed.form, parsed.words))


def _lookup_membership(lookup, facts: GuardFacts, resolve) -> bool:
    """`TABLE.get(key) is None` (directly or through a local): `key` was not in `TABLE`."""
    key, collection = lookup
    subject = ops.subject(key)
    if not subject or isinstance(key, (cst.SimpleString, cst.Integer)):
        return False  # `kwargs.get("value") is None`: a required entry is missing, an emptiness check
    field, container = ops.keyed_read(key)
    if field and container and field not in facts.keys.get(container, []):
        facts.keys.setdefault(container, []).append(field)  # `TICKETS.get(arguments["ticket_id"])`: the field looked up
    facts.subjects.add(subject)
    facts.value_subjects.add(subject)
    if collection is None:  # `find_user(user_id) is None`: a record looked up in storage
        facts.memberships.append(Membership(subject, "", None, True, True, False))
        return True
    values, dynamic = ops.collection_values(collection, resolve)
    facts.memberships.append(Membership(subject, value_sets.collection_name(collection) or nodes.dotted(collection), values, dynamic, True, node=collection))
    return True


def _else_chain(guards, innermost, resolve) -> list:
    """The `else:` of `if t == "http": ... elif t == "sse": ... else: raise` failed every branch of
    the chain: the innermost guard plus the earlier branches that test the same subject."""
    subjects = GuardFacts()
    _analyse(innermost.test, subjects, resolve, True)
    chain = [innermost]
    for guard in guards[guards.index(innermost) + 1:]:
        if guard.kind == "fallthrough" or not guard.negated:
            break
        earlier = GuardFacts()
        _analyse(guard.test, earlier, resolve, True)
        if not earlier.subjects & subjects.subjects:
            break
        chain.append(guard)
    return chain


def _is_enum_call(callee: str) -> bool:
    last = callee.rsplit(".", 1)[-1]
    return last.endswith(("Enum", "Kind", "Type", "Mode", "Status", "State", "Level", "Format"))


def _analyse(test: cst.CSTNode, facts: GuardFacts, resolve: Callable[[str], Optional[cst.CSTNode]], negated: bool) -> None:
    """Walk the test's boolean structure; `negated` is True where the sink runs when the node is false."""
    called = set()  # methods called in the test (`task_id.lower()`): no field of the value
    for node in nodes.iter_expr(test):
        if isinstance(node, cst.Name):
            facts.names.add(node.value)
        elif isinstance(node, cst.Call):
            called.add(id(node.func))
        elif isinstance(node, cst.Attribute):
            root = nodes.root_name(node)
            if root:
                facts.names.add(root)
            if node.value.__class__ is cst.Name and id(node) not in called:
                facts.attributes.add(f"{node.value.value}.{node.attr.value}")
        key, container = ops.keyed_read(node)
        if key and container and key not in facts.keys.get(container, []):
            facts.keys.setdefault(container, []).append(key)
    stack: List[Tuple[cst.CSTNode, bool, bool]] = [(test, negated, False)]
    while stack:
        node, neg, weak = stack.pop()
        if isinstance(node, cst.BooleanOperation):
            # In `a != "x" and other_check(b)` the literal comparison is a side condition, not the
            # constraint the message is about: comparisons on one subject among several are weak.
            conjunction = isinstance(node.operator, cst.And) != neg
            side = weak or conjunction and len({_conjunct_subject(c) for c in _flatten_bool(node)} - {""}) > 1
            stack.extend([(node.left, neg, side), (node.right, neg, side)])
        elif isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            inner = node.expression
            lookup = guards.lookup_of(inner, resolve) if isinstance(inner, cst.Name) and not neg else None
            if lookup is not None and _lookup_membership(lookup, facts, resolve):
                pass
            elif isinstance(inner, (cst.Name, cst.Attribute, cst.Subscript)) and not neg:
                facts.emptiness = True
                facts.subjects.add(nodes.root_name(inner))
                facts.empty_subjects.add(nodes.root_name(inner))
            elif isinstance(inner, cst.Call) and nodes.last_name(inner.func) == "strip" and not neg:
                facts.emptiness = True
                facts.subjects.add(nodes.root_name(inner.func))
            else:
                stack.append((inner, not neg, weak))
        elif isinstance(node, cst.Await):
            stack.append((node.expression, neg, weak))  # `if not await db.ping():` tests what the call answers
        elif isinstance(node, cst.Comparison):
            _comparison(node, facts, resolve, neg, weak)
        elif isinstance(node, cst.Call):
            _call(node, facts, neg, resolve)
        elif isinstance(node, cst.BinaryOperation) or isinstance(node, (cst.Attribute, cst.Call)) and ops.computed_from_arithmetic(node):
            computed = ops.arithmetic_operands(node)  # `if minutes % 5:`: the value failed a test of its arithmetic
            facts.subjects |= computed
            if len(computed) == 1:
                facts.value_subjects |= computed
        elif isinstance(node, (cst.Name, cst.Attribute)):
            facts.subjects.add(nodes.root_name(node))
            if neg:
                facts.emptiness = True


def _flatten_bool(node: cst.CSTNode) -> List[cst.CSTNode]:
    out: List[cst.CSTNode] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, cst.BooleanOperation) and type(item.operator) is type(node.operator):
            stack.extend([item.right, item.left])
        else:
            out.append(item)
    return out


def _conjunct_subject(node: cst.CSTNode) -> str:
    while isinstance(node, cst.UnaryOperation):
        node = node.expression
    if isinstance(node, cst.Comparison):
        return ops.subject(node.left) if nodes.string_value(node.left) is None else ops.subject(node.comparisons[0].comparator)
    if isinstance(node, cst.Call):
        if isinstance(node.func, cst.Attribute) and not nodes.dotted(node.func).startswith(("re.", "os.")):
            return nodes.root_name(node.func.value)
        args = nodes.positional_args(node)
        return ops.subject(args[-1]) if args else nodes.root_name(node.func)
    return nodes.root_name(node)


def _comparison(node: cst.Comparison, facts: GuardFacts, resolve: Callable[[str], Optional[cst.CSTNode]], neg: bool, weak: bool = False) -> None:
    left = node.left
    for target in node.comparisons:
        op = target.operator
        right = target.comparator
        subject = ops.subject(left)
        if ops.computed_from_arithmetic(left) and not isinstance(op, (cst.In, cst.NotIn, cst.Is, cst.IsNot)):
            computed = ops.arithmetic_operands(left)
            if computed:
                # `width % 8 != 0`, `offset + 2 > len(data)`: the values the arithmetic is done on
                # failed; the bound is on what was computed, not on any one of them. Computed from
                # several (`width * height > MAX_PIXELS`, `nl + csv + tsv >= 2`), no one value failed.
                other = ops.arithmetic_operands(right) if nodes.number_text(right) is None else set()
                facts.subjects |= computed | other
                if ops.is_len(right):
                    facts.counted.add(ops.subject(right))  # `position + 2 > len(data)`: a count of the input's items
                if len(computed) == 1:
                    facts.value_subjects |= computed | other
                left = right
                continue
        if weak and isinstance(op, (cst.In, cst.NotIn, cst.Equal, cst.NotEqual)):
            facts.subjects.add(subject if nodes.string_value(left) is None else ops.subject(right))
            left = right
            continue
        if guards.outcome_read(left) and not isinstance(op, (cst.Equal, cst.NotEqual)):
            # `proc.returncode not in (0, 1)`, `resp.status_code >= 400`: the world's answer, not an input
            facts.subjects.add(subject)
            facts.status_tested = True
            if ops.status_within(op, neg):
                facts.statuses.update(v for v in (nodes.int_value(x) for x in ops.elements(right)) if v is not None and 100 <= v <= 599)
            left = right
            continue
        if isinstance(op, (cst.In, cst.NotIn)):
            fails_outside = isinstance(op, cst.NotIn) != neg
            if isinstance(left, cst.SimpleString) and nodes.literal_values(right) is None:
                # `"=" not in raw`: a format check on `raw`
                facts.formats.append((ops.subject(right), "contains", (nodes.string_value(left) or "",), fails_outside))
                facts.subjects.add(ops.subject(right))
                if fails_outside:
                    facts.value_subjects.add(ops.subject(right))
                left = right
                continue
            values, dynamic = ops.collection_values(right, resolve)
            name = nodes.dotted(right)
            if isinstance(right, cst.Attribute) and right.attr.value == "__members__":
                facts.enum_lookup = True
            facts.memberships.append(Membership(ops.subject(left), name or value_sets.collection_name(right), values, dynamic, fails_outside, node=right,
                                                tested=ops.tested(left, ops.subject(left))))
            facts.subjects.add(ops.subject(left))
            if ops.is_len(left):
                facts.counted.add(ops.subject(left))  # `len(argv) not in (3, 4)`: a count of the input's items
            if fails_outside:
                facts.value_subjects.add(ops.subject(left))
        elif isinstance(op, (cst.Is, cst.IsNot)) and nodes.dotted(right) == "None":
            lookup = guards.lookup_of(left, resolve) if isinstance(left, (cst.Call, cst.Name)) else None
            if lookup is not None and _lookup_membership(lookup, facts, resolve):
                pass
            else:
                facts.emptiness = True
                facts.subjects.add(subject)
                if isinstance(op, cst.Is) != neg:
                    facts.empty_subjects.add(subject)
        elif isinstance(op, (cst.Equal, cst.NotEqual)):
            status = nodes.int_value(right)
            if status is not None and 100 <= status <= 599 and re.search(r"status|code", nodes.last_name(left) or "", re.I):
                facts.status_tested = True
                if isinstance(op, cst.Equal) != neg:  # `== 429`, or the else branch of `!= 429`
                    facts.statuses.add(status)
            elif guards.outcome_read(left):
                facts.subjects.add(subject)  # `result.returncode != 0`: an outcome, no allowed value to state
            elif nodes.string_value(right) == "" or status == 0 and ops.is_len(left):
                facts.emptiness = True
                facts.subjects.add(subject)
            elif ops.is_len(left):
                facts.subjects.add(subject)  # a count, not a value from a set of allowed ones
            else:
                facts.subjects.add(subject)
                literal = nodes.string_value(right)
                if literal is None:
                    literal = nodes.number_text(right)
                if literal is not None:
                    fails_unequal = isinstance(op, cst.NotEqual) != neg
                    if fails_unequal:
                        facts.memberships.append(Membership(subject, "", (literal,), False, True, tested=ops.tested(left, subject)))
                        facts.value_subjects.add(subject)
                    else:
                        facts.equalities.append((subject, literal))
                        if literal in ("0", "0.0"):
                            facts.emptiness = True
        elif isinstance(op, (cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual)):
            bound, measured, flipped = right, left, False
            if nodes.number_text(left) is not None or ops.is_constant(left):
                bound, measured, flipped = left, right, True
            subject = ops.subject(measured)
            facts.subjects.add(subject)
            text = nodes.number_text(bound)
            label = text or ""
            if text is None and ops.is_constant(bound):
                resolved = resolve(bound.value) if isinstance(bound, cst.Name) else None
                text = nodes.number_text(resolved) if resolved is not None else None
                label = nodes.dotted(bound)
            if not label:
                # comparing two inputs (`free < needed`): no fixed bound to state, but both values matter
                facts.value_subjects.update({subject, ops.subject(bound)} - {""})
                label = guards.bound_label(bound)
                if label:  # `right > image.width`, `n > len(items)`: the bound is an expression
                    facts.bounds.append((subject, ops.failing(ops.op_text(op) if not flipped else ops.flip(ops.op_text(op)), neg), label))
                    facts.expr_bounds.add(label)
                left = right
                continue
            # the failing side of the test: under `not (...)` the comparison states the allowed side
            op_text = ops.failing(ops.op_text(op) if not flipped else ops.flip(ops.op_text(op)), neg)
            if text in ("0", "1") and not ops.is_len(measured) and (op_text, text) in (("<=", "0"), ("<", "1"), ("<", "0")):
                facts.zero_bounds.append(subject)
                facts.zero_sides.append((subject, op_text, text))
            else:
                facts.bounds.append((subject, op_text, label))
                facts.value_subjects.add(subject)
                if ops.is_len(measured):
                    facts.counted.add(subject)
                if text is not None:
                    facts.bound_values.append(text)
        left = right


def _call(node: cst.Call, facts: GuardFacts, neg: bool, resolve: Callable[[str], Optional[cst.CSTNode]]) -> None:
    name = nodes.dotted(node.func)
    last = nodes.last_name(node.func)
    args = nodes.positional_args(node)
    if last in ("match", "fullmatch", "search") and (name.startswith("re.") or isinstance(node.func, cst.Attribute)):
        target = args[1] if name.startswith("re.") and len(args) >= 2 else args[0] if args and not name.startswith("re.") else None
        if target is not None:
            pattern = nodes.string_value(args[0]) or nodes.dotted(args[0]) if name.startswith("re.") else nodes.dotted(node.func.value) if isinstance(node.func, cst.Attribute) else ""
            facts.patterns.append((ops.subject(target), pattern or "", neg))
            facts.subjects.add(ops.subject(target))
            if neg:
                facts.value_subjects.add(ops.subject(target))
    elif last in ("startswith", "endswith") and isinstance(node.func, cst.Attribute):
        lits: List[str] = []
        for arg in args:
            value = nodes.string_value(arg)
            if value is not None:
                lits.append(value)
            else:
                more = nodes.literal_values(arg)
                if more is None and isinstance(arg, cst.Name):  # `name.startswith(RESERVED_PREFIXES)`
                    more, _ = ops.collection_values(arg, resolve)
                if more:
                    lits.extend(more)
        facts.formats.append((ops.subject(node.func.value), last, tuple(lits), neg))
        facts.subjects.add(ops.subject(node.func.value))
        if neg:
            facts.value_subjects.add(ops.subject(node.func.value))
    elif last in ("isalnum", "isdigit", "isnumeric", "isidentifier", "isascii", "isalpha", "isdecimal", "islower", "isupper") and isinstance(node.func, cst.Attribute):
        facts.formats.append((ops.subject(node.func.value), last, (), neg))
        facts.subjects.add(ops.subject(node.func.value))
        if neg:
            facts.value_subjects.add(ops.subject(node.func.value))
    elif last in ("isinstance", "issubclass", "callable", "hasattr"):
        facts.type_check = True
        if args:
            facts.subjects.add(ops.subject(args[0]))
            if neg:
                facts.value_subjects.add(ops.subject(args[0]))
    elif guards.quantified(node) is not None:
        _quantifier(node, facts, neg, resolve)
    elif last in ("exists", "is_file", "is_dir", "isfile", "isdir", "access"):
        # `os.path.exists(p)`; `db[table].exists()`, `Path(p).exists()`: the key looked up, not the container
        receiver = node.func.value if isinstance(node.func, cst.Attribute) else None
        looked = ops.subject(args[0]) if args else (receiver is not None and ops.looked_up(receiver)) or ops.subject(node.func)
        facts.subjects.add(looked)
        if neg:  # `if not db[table].exists():` rejects the value looked up
            facts.value_subjects.add(looked)
    else:
        facts.subjects.add(ops.subject(node))
        _predicate(node, args, facts)


PREDICATE_NAME = re.compile(r"^(?:is|has|can|valid|validate|looks_like|matches)(?:_|$)|^is[a-z]|^(?:valid|validate)_?\w*|\w+_valid$")


def _predicate(node: cst.Call, args, facts: GuardFacts) -> None:
    """`if not os.path.isabs(path)`, `if not is_uuid(ref)`, `if not ratio.is_integer()`: a value that
    failed a predicate errlint does not know. The subject is the value tested (the first argument,
    or the receiver of an argument-less method), not the module the predicate lives in (`os`). Only a
    call named as a predicate (`is*`, `has_*`, `valid*`): `if not store.sync(since)` is an operation
    that failed, not a value that did."""
    if not PREDICATE_NAME.match(nodes.last_name(node.func) or ""):
        return
    if args and nodes.string_value(args[0]) is None and nodes.number_text(args[0]) is None:
        tested = ops.subject(args[0])
    elif not args and node.func.__class__ is cst.Attribute:
        tested = ops.subject(node)
    else:
        return
    if tested:
        # the input the guard is about (AEM101 and AEM203 name it). Not a value to echo: on real
        # code the caller already had it every time (a tool's only file argument, a config
        # converter its loader wraps with the raw value; two reviewers, 2 of 2 false positives)
        facts.subjects.add(tested)


def _quantifier(node: cst.Call, facts: GuardFacts, neg: bool, resolve: Callable[[str], Optional[cst.CSTNode]]) -> None:
    """`any(...)`/`all(...)` over a generator: the element's test, with the loop target read as the
    iterated collection (`not all(t.isidentifier() for t in tags)` tests `tags`)."""
    gen, iterated, targets = guards.quantified(node)
    elt = gen.elt
    facts.subjects.add(iterated)
    if isinstance(elt, cst.Comparison) and len(elt.comparisons) == 1 and isinstance(elt.comparisons[0].operator, (cst.In, cst.NotIn)) \
            and ops.subject(elt.left) in targets and ops.subject(elt.comparisons[0].comparator) not in targets:
        # `any(b in name for b in BAD)` / `all(k in data for k in REQUIRED)`: fixed entries against the input
        comp = elt.comparisons[0]
        subject = ops.subject(comp.comparator)
        values, dynamic = ops.collection_values(gen.for_in.iter, resolve)
        facts.subjects.add(subject)
        if isinstance(comp.operator, cst.In) != neg and values:
            facts.formats.append((subject, "contains", tuple(values), False))  # a deny rule
            return
        facts.value_subjects.add(subject)
        facts.memberships.append(Membership(subject, nodes.dotted(gen.for_in.iter), values, dynamic, True, node=gen.for_in.iter))
        return
    inner = GuardFacts()
    _analyse(elt, inner, resolve, neg)

    def mapped(name: str) -> str:
        return iterated if name.split(".", 1)[0] in targets else name

    facts.names |= {mapped(n) for n in inner.names}
    facts.subjects |= {mapped(n) for n in inner.subjects}
    facts.value_subjects |= {mapped(n) for n in inner.value_subjects}
    facts.counted |= {mapped(n) for n in inner.counted}
    facts.zero_bounds += [mapped(n) for n in inner.zero_bounds]
    facts.zero_sides += [(mapped(a), op, b) for a, op, b in inner.zero_sides]
    for m in inner.memberships:
        m.subject = mapped(m.subject)
    facts.memberships += inner.memberships
    facts.bounds += [(mapped(a), op, b) for a, op, b in inner.bounds]
    facts.bound_values += inner.bound_values
    facts.expr_bounds |= inner.expr_bounds
    facts.patterns += [(mapped(a), p, m) for a, p, m in inner.patterns]
    facts.formats += [(mapped(a), m, lits, r) for a, m, lits, r in inner.formats]
    facts.equalities += [(mapped(a), lit) for a, lit in inner.equalities]
    facts.emptiness = facts.emptiness or inner.emptiness
    facts.type_check = facts.type_check or inner.type_check
    facts.enum_lookup = facts.enum_lookup or inner.enum_lookup


# ---------------------------------------------------------------------- caller-fixable context
