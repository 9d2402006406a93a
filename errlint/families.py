"""The rule families: one row per code prefix, with the behaviour errlint ties to each family.

A code's family is its hundreds digit (`AEM301` is in `AEM3`, the leaks). Every place whose
behaviour depends on the family reads this table: the one-verdict cap (`checks.verdict`), the
leak-only judging of internal and paired log messages (`engine`), the default per-file ignores of
test files (`config`), the prose rules of `api.check_text` and of `errlint probe`, the probe's
leak-only replies, and the CLI's handling of errlint's own whole-file codes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

PREFIX = "AEM"  # every built-in code starts with it; a noqa code without it belongs to another tool


@dataclass(frozen=True)
class Family:
    """One family of codes. The flags say which behaviour applies to its codes."""

    prefix: str  # the selector that picks the family: "AEM3"
    name: str  # the name the one-verdict cap counts in ("one finding per family and message")
    title: str  # what its rules are about, for people
    own: bool = False  # errlint's own diagnostics (syntax error, unused noqa, internal error), not a message's
    prose: bool = False  # judged from the message text alone: `api.check_text` and the probe's text rules
    leak: bool = False  # the only rules run on a message that is judged for leaks only
    ignored_in_tests: bool = False  # off by default in test files (`per-file-ignores`)
    whole_file_codes: Tuple[str, ...] = ()  # codes about a whole file: no line `# noqa` accepts them


FAMILIES: Tuple[Family, ...] = (
    Family(PREFIX + "0", "errlint", "errlint's own diagnostics", own=True, whole_file_codes=(PREFIX + "000", PREFIX + "001")),
    Family(PREFIX + "1", "vague", "vague or generic wording", prose=True, ignored_in_tests=True),
    Family(PREFIX + "2", "parts", "missing parts: input, value, what is allowed, next step", prose=True, ignored_in_tests=True),
    Family(PREFIX + "3", "leak", "leaks: secrets, paths, tracebacks, internals", prose=True, leak=True),
    Family(PREFIX + "4", "size", "oversized messages", prose=True),
    Family(PREFIX + "5", "guidance", "guidance that misleads: escalation, stop, unreachable advice, state", prose=True),
    Family(PREFIX + "6", "channel", "protocol and channel misuse"),
)

_BY_DIGIT = {f.prefix[len(PREFIX):]: f for f in FAMILIES}


def family_of(code: str) -> Optional[Family]:
    """The family of `code` by its hundreds digit (the character after a three-letter prefix), or
    None for a code in no family (`AEM9xx`, a phrase pack's own numbering)."""
    return _BY_DIGIT.get(code[3:4])


def prefixes(flag: str) -> Tuple[str, ...]:
    """The prefixes of the families whose `flag` (a `Family` field such as "prose") is set."""
    return tuple(f.prefix for f in FAMILIES if getattr(f, flag))


def whole_file_code(code: str) -> bool:
    """Whether `code` is about a whole file (an internal error, a file errlint could not parse)."""
    return any(code in f.whole_file_codes for f in FAMILIES)
