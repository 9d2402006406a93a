"""Strings that match a JSON-Schema `pattern`, for `errlint probe`'s valid values and for ids that
do not exist (pure functions, no I/O)."""
from __future__ import annotations

import re
from typing import List, Optional, Set

try:  # Python 3.11+ keeps the regex parser here; `sre_parse` is a deprecated alias of it
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_parse as _sre_parse  # type: ignore[no-redef]


def _pattern_matches(pattern: str, value: str) -> Optional[bool]:
    try:
        return re.search(pattern, value) is not None
    except re.error:
        return None


def pattern_example(pattern: str, high: bool = False) -> Optional[str]:
    """A string that matches the JSON-Schema `pattern` (searched, as JSON Schema does), or None when
    the pattern uses constructs this generator does not handle. `high` picks the last character of
    each class and longer repeats ("ISS-999999999" for `^ISS-[0-9]+$`), for ids unlikely to exist."""
    try:
        parsed = _sre_parse.parse(pattern)
        text = _generate(list(parsed), high)
    except Exception:  # unsupported construct or a pattern Python cannot parse
        return None
    return text if _pattern_matches(pattern, text) else None


class _Unsupported(Exception):
    """A regex construct `pattern_example` does not generate (caught there; never leaves the module)."""


def _generate(items: list, high: bool) -> str:
    c = _sre_parse
    out: List[str] = []
    for op, av in items:
        if op is c.LITERAL:
            out.append(chr(av))
        elif op is c.NOT_LITERAL:
            out.append("x" if chr(av) != "x" else "y")
        elif op is c.ANY:
            out.append("x")
        elif op is c.IN:
            out.append(_pick_in(av, high))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT) or str(op) == "POSSESSIVE_REPEAT":
            lo, hi, sub = av
            n = (max(lo, 9) if hi == c.MAXREPEAT else min(hi, max(lo, 9))) if high else lo
            out.append(_generate(list(sub), high) * n)
        elif op is c.SUBPATTERN:
            out.append(_generate(list(av[-1]), high))
        elif str(op) == "ATOMIC_GROUP":
            out.append(_generate(list(av), high))
        elif op is c.BRANCH:
            out.append(_generate(list(av[1][0]), high))
        elif op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue
        else:
            raise _Unsupported(op)
    return "".join(out)


_CATEGORY_CHARS = {"CATEGORY_DIGIT": "19", "CATEGORY_WORD": "az", "CATEGORY_SPACE": "  ", "CATEGORY_NOT_DIGIT": "xx",
                   "CATEGORY_NOT_WORD": "--", "CATEGORY_NOT_SPACE": "xx"}


def _pick_in(items: list, high: bool) -> str:
    c = _sre_parse
    if items and items[0][0] is c.NEGATE:
        banned = _sre_parse_set(items[1:])
        for ch in "x0a-_Z9":
            if ch not in banned:
                return ch
        raise _Unsupported(items[:1])
    choices: List[str] = []
    for op, av in items:
        if op is c.LITERAL:
            choices.append(chr(av))
        elif op is c.RANGE:
            choices.append(chr(av[1] if high else av[0]))
        elif op is c.CATEGORY:
            pair = _CATEGORY_CHARS.get(str(av))
            if pair is None:
                raise _Unsupported(av)
            choices.append(pair[1] if high else pair[0])
        else:
            raise _Unsupported(op)
    if not choices:
        raise _Unsupported(items[:1])
    return choices[-1] if high else choices[0]


def _sre_parse_set(items: list) -> Set[str]:
    c = _sre_parse
    out: Set[str] = set()
    for op, av in items:
        if op is c.LITERAL:
            out.add(chr(av))
        elif op is c.RANGE:
            out.update(chr(i) for i in range(av[0], min(av[1], av[0] + 256) + 1))
        elif op is c.CATEGORY:
            name = str(av)
            if name == "CATEGORY_DIGIT":
                out.update("0123456789")
            elif name == "CATEGORY_WORD":
                out.update("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
            elif name == "CATEGORY_SPACE":
                out.update(" \t\n\r\f\v")
    return out
