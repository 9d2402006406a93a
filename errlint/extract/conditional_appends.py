"""Text appended to a message under a condition: `if c: msg += a` (with `elif`/`else` branches).

A message built that way is one of several texts, not their concatenation: the branches of one `if`
exclude each other, and so do sibling `if`s that test one subject against different constants
(`if source == "PATH": ...` then `if source == "launcher": ...`). `Choice` records one such
`if` (or a run of sibling ones) as an addition of the name's reaching definition, and the template
builder turns it into the message's variants (no branch, or one of them), so a size rule measures a
text the program can print.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple, Union

import libcst as cst

from . import nodes


@dataclass(frozen=True, eq=False)
class Choice:
    """One of `branches` is appended (each a sequence of additions), or none unless `exhaustive`.
    `subject` is the expression each branch's test compares with `==`/`in` ("" when the tests are
    anything else): sibling choices on the same subject exclude each other."""

    branches: Tuple[Tuple["Addition", ...], ...]
    exhaustive: bool
    subject: str = ""
    values: frozenset = frozenset()  # the constants the branches' tests compare `subject` with


Addition = Union[cst.CSTNode, Choice]

_BINDS = frozenset({cst.Assign, cst.AnnAssign, cst.AugAssign, cst.For, cst.With, cst.NamedExpr, cst.ExceptHandler, cst.Del})


def appended_choice(stmt: cst.If, name: str) -> Optional[Choice]:
    """The `Choice` an `if` statement makes for `name`, when every binding of `name` in it is a
    `name += value` (directly in a branch, or in an `if` nested there the same way); else None."""
    branches: List[Tuple[Addition, ...]] = []
    subjects: List[str] = []
    values: set = set()
    node: cst.If = stmt
    while True:
        items = _appends(node.body, name)
        if items is None:
            return None
        branches.append(items)
        subject, constants = _compared(node.test)
        if subject and any(_binds(s, subject.split(".", 1)[0]) for s in _statements(node.body)):
            subject = ""  # the branch changes what the next test reads: `if mode == "a": mode = "b"`
        subjects.append(subject)
        values |= constants
        orelse = node.orelse
        if orelse is None:
            exhaustive = False
            break
        if isinstance(orelse, cst.If):
            node = orelse
            continue
        items = _appends(orelse.body, name)
        if items is None:
            return None
        branches.append(items)
        exhaustive = True
        break
    if not any(branches):
        return None
    subject = subjects[0] if len(set(subjects)) == 1 else ""
    return Choice(tuple(branches), exhaustive, subject, frozenset(values) if subject else frozenset())


def extend(additions: Tuple[Addition, ...], choice: Choice) -> Tuple[Addition, ...]:
    """`additions` followed by `choice`, merged with the choice before it when both test one subject
    against constants and neither is exhaustive: at most one of their branches runs."""
    last = additions[-1] if additions else None
    if (isinstance(last, Choice) and choice.subject and last.subject == choice.subject
            and not last.exhaustive and not choice.exhaustive and not last.values & choice.values):
        return additions[:-1] + (Choice(last.branches + choice.branches, False, choice.subject, last.values | choice.values),)
    return additions + (choice,)


def rebound(additions: Tuple[Addition, ...], names) -> Tuple[Addition, ...]:
    """`additions` after a statement that binds `names`: a last choice testing one of them no longer
    excludes the next `if` on it (`if mode == "a": ...` then `mode = x` then `if mode == "b": ...`)."""
    last = additions[-1] if additions else None
    if isinstance(last, Choice) and last.subject and last.subject.split(".", 1)[0] in names:
        return additions[:-1] + (Choice(last.branches, last.exhaustive),)
    return additions


def flatten(additions: Tuple[Addition, ...]) -> List[cst.CSTNode]:
    """Every appended expression, whatever branch it is in (for readers of all bindings)."""
    out: List[cst.CSTNode] = []
    for item in additions:
        if isinstance(item, Choice):
            for branch in item.branches:
                out.extend(flatten(branch))
        else:
            out.append(item)
    return out


def _appends(body: cst.BaseSuite, name: str) -> Optional[Tuple[Addition, ...]]:
    out: List[Addition] = []
    for stmt in _statements(body):
        if (isinstance(stmt, cst.AugAssign) and isinstance(stmt.operator, cst.AddAssign)
                and isinstance(stmt.target, cst.Name) and stmt.target.value == name):
            out.append(stmt.value)
        elif isinstance(stmt, cst.If) and _binds(stmt, name):
            nested = appended_choice(stmt, name)
            if nested is None:
                return None
            out.append(nested)
        elif _binds(stmt, name):
            return None
    return tuple(out)


def _statements(body: cst.BaseSuite) -> List[cst.CSTNode]:
    out: List[cst.CSTNode] = []
    for stmt in getattr(body, "body", ()):
        if isinstance(stmt, cst.SimpleStatementLine):
            out.extend(stmt.body)
        else:
            out.append(stmt)
    return out


def _binds(stmt: cst.CSTNode, name: str) -> bool:
    """Whether `stmt` binds `name` anywhere (nested functions and classes bind their own names)."""
    for node in nodes.iter_expr(stmt, stop=(cst.FunctionDef, cst.ClassDef, cst.Lambda)):
        if node.__class__ in _BINDS and name in _target_names(node):  # exact class test: see `nodes`
            return True
    return False


def _target_names(node: cst.CSTNode) -> List[str]:
    if isinstance(node, cst.Assign):
        targets = [t.target for t in node.targets]
    elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr, cst.Del)):
        targets = [node.target]
    elif isinstance(node, cst.With):
        targets = [item.asname.name for item in node.items if item.asname is not None]
    else:  # ExceptHandler
        targets = [node.name.name] if node.name is not None else []
    names: List[str] = []
    for target in targets:
        names.extend(n.value for n in nodes.iter_expr(target) if isinstance(n, cst.Name))
    return names


def _compared(test: cst.BaseExpression) -> Tuple[str, frozenset]:
    """`x == "a"` or `x in ("a", "b")`: ("x", the constants); anything else: ("", {})."""
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        comparison = test.comparisons[0]
        if isinstance(comparison.operator, cst.Equal):
            value = nodes.string_value(comparison.comparator)
            value = value if value is not None else nodes.number_text(comparison.comparator)
            constants = [value] if value is not None else None
        elif isinstance(comparison.operator, cst.In):
            constants = nodes.literal_values(comparison.comparator)
        else:
            constants = None
        subject = nodes.dotted(test.left) or ""
        if subject and constants:
            return subject, frozenset(str(c) for c in constants)
    return "", frozenset()


def extended_by_if(stmt: cst.If, bound, before: dict) -> dict:
    """The reaching definitions an `if` leaves for the names it binds only by `+=` in its branches:
    the definition that reached it (in `before`), extended by the `Choice` of its branches."""
    out = {}
    for name in bound:
        prior = before.get(name)
        choice = appended_choice(stmt, name) if prior is not None else None
        if choice is not None:
            out[name] = (prior[0], extend(prior[1], choice))
    return out


def forget_exclusion(defs: dict, bound) -> None:
    """After a statement that binds `bound`, a definition whose last addition is a `Choice` on one of
    them no longer excludes the next `if` on it (see `rebound`)."""
    for name, (value, adds) in list(defs.items()):
        if adds and isinstance(adds[-1], Choice):
            defs[name] = (value, rebound(adds, bound))

