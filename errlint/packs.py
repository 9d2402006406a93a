"""Phrase packs: TOML data in `rules/` (bundled as `errlint.packs`) plus the user's own packs.

A pack holds lexicons (`[lexicon.<name>]`, used by the Python rules), credential-path entries
(`[[credential]]`) and Vale-style phrase rules (`[[rule]]` with `extends = "existence"` or
`"substitution"`). Every regular expression is compiled and checked when the pack loads: patterns with
nested unbounded repeats (which can backtrack for ages) are refused, and matching only ever sees the
first MAX_MATCH_CHARS characters of a message.
"""
from __future__ import annotations

import hashlib
import re
import sys
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python < 3.11
    import tomli as tomllib

try:  # Python 3.11+
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_parse  # type: ignore[no-redef]

MAX_MATCH_CHARS = 8_000  # with the shapes check_regex refuses, matching stays well under a second

RULE_KEYS = {
    "code", "name", "extends", "summary", "level", "default", "profiles", "fix", "message", "suggestion",
    "tokens", "swap", "exceptions", "unless_after", "unless_message", "unless_placeholder", "when",
    "link", "docs", "examples", "ignorecase", "shapes", "unless_self_service", "unless_step_before", "unless_delegated",
}
LEXICON_KEYS = {"description", "tokens", "words", "needs_object", "examples"}
PACK_KEYS = {"pack", "lexicon", "rule", "credential"}
EXTENDS = ("existence", "substitution")
WHEN = ("fixable", "foreseen", "always")


class PackError(ValueError):
    """A pack file is unreadable or invalid; the message names the file, the entry and the key."""


@dataclass
class Lexicon:
    """Word-bounded, case-insensitive phrase list compiled into one regex (longest phrase first)."""

    name: str
    tokens: Tuple[str, ...]
    words: Tuple[str, ...] = ()
    needs_object: Tuple[str, ...] = ()
    regex: re.Pattern = field(default=None, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.regex is None:
            self.regex = compile_tokens(self.tokens)

    def finditer(self, text: str) -> Iterator[re.Match]:
        return self.regex.finditer(text[:MAX_MATCH_CHARS])

    def search(self, text: str) -> Optional[re.Match]:
        return self.regex.search(text[:MAX_MATCH_CHARS])


@dataclass
class Credential:
    pattern: re.Pattern
    instead: str


@dataclass
class PhraseRuleSpec:
    """One `[[rule]]` entry of a pack, validated."""

    code: str
    name: str
    extends: str
    summary: str
    level: str
    default: bool
    profiles: Tuple[str, ...]
    fix: str
    message: str
    suggestion: str
    tokens: Tuple[str, ...]
    swap: Dict[str, str]
    exceptions: Tuple[str, ...]
    unless_after: Tuple[re.Pattern, ...]
    unless_message: Tuple[re.Pattern, ...]
    unless_placeholder: Tuple[str, ...]
    when: str
    shapes: Tuple[str, ...]
    unless_self_service: bool
    unless_step_before: bool
    unless_delegated: bool
    link: str
    docs: str
    valid: Tuple[str, ...]
    invalid: Tuple[str, ...]
    source: str
    lexicon: Lexicon = field(repr=False, default=None)  # type: ignore[assignment]


@dataclass
class Packs:
    """Everything loaded from the bundled and user packs, plus a digest of their bytes for the cache."""

    lexicons: Dict[str, Lexicon]
    rules: List[PhraseRuleSpec]
    credentials: List[Credential]
    digest: str

    def lexicon(self, name: str) -> Lexicon:
        return self.lexicons[name]


def compile_tokens(tokens: Sequence[str], flags: int = re.IGNORECASE) -> re.Pattern:
    """`(?<!\\w)(?:t1|t2|...)(?!\\w)` with the longest token first, as Vale does."""
    ordered = sorted(tokens, key=len, reverse=True)
    body = "|".join(f"(?:{t})" for t in ordered) or "(?!x)x"
    return re.compile(rf"(?<![\w])(?:{body})(?![\w])", flags)


def check_regex(pattern: str, where: str) -> re.Pattern:
    """Compile a user-supplied regex, refusing syntax errors and nested unbounded repeats.

    Raises PackError naming `where` (file and entry) and the reason.
    """
    try:
        compiled = re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise PackError(f"{where}: invalid regular expression {pattern!r:.80}: {exc}; fix or remove the pattern") from None
    try:
        parsed = sre_parse.parse(pattern)
    except Exception as exc:  # pragma: no cover - re.compile succeeded, so this is unexpected
        raise PackError(f"{where}: cannot analyse regular expression {pattern!r}: {exc}") from None
    if _nested_repeat(parsed, False):
        raise PackError(
            f"{where}: regular expression {pattern!r} nests an unbounded repeat inside another "
            "(like `(a+)+`), which can take exponential time; rewrite it without the nested `+`/`*`"
        )
    if _repeated_branch(parsed, False):
        raise PackError(
            f"{where}: regular expression {pattern!r} repeats an alternation without bound (like `(a|b)*`), "
            "which can take exponential time; use a character class such as `[ab]*` or a bounded repeat `{0,5}`"
        )
    if _adjacent_repeats(parsed) >= 3:
        raise PackError(
            f"{where}: regular expression {pattern!r} has three or more unbounded repeats in a row (like `\\s*\\s*\\s*`), "
            "which can take polynomial time on long input; merge them into one"
        )
    return compiled


def _nested_repeat(parsed: object, inside: bool) -> bool:
    for op, av in parsed:  # type: ignore[union-attr]
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, sub = av
            unbounded = high == sre_parse.MAXREPEAT or (isinstance(high, int) and high > 100)
            if unbounded and inside:
                return True
            if _nested_repeat(sub, inside or unbounded):
                return True
        elif name == "SUBPATTERN":
            if _nested_repeat(av[-1], inside):
                return True
        elif name == "BRANCH":
            for alt in av[1]:
                if _nested_repeat(alt, inside):
                    return True
        elif name in ("ASSERT", "ASSERT_NOT"):
            if _nested_repeat(av[1], inside):
                return True
    return False


def _unbounded(high: object) -> bool:
    return high == sre_parse.MAXREPEAT or (isinstance(high, int) and high > 100)


def _repeated_branch(parsed: object, inside: bool) -> bool:
    """An alternation (`a|b`) under an unbounded repeat: the classic exponential backtracking shape."""
    for op, av in parsed:  # type: ignore[union-attr]
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if _repeated_branch(av[2], inside or _unbounded(av[1])):
                return True
        elif name == "SUBPATTERN":
            if _repeated_branch(av[-1], inside):
                return True
        elif name == "BRANCH":
            if inside and len(av[1]) > 1:
                return True
            if any(_repeated_branch(alt, inside) for alt in av[1]):
                return True
        elif name in ("ASSERT", "ASSERT_NOT") and _repeated_branch(av[1], inside):
            return True
    return False


def _adjacent_repeats(parsed: object) -> int:
    """The longest run of consecutive unbounded repeats whose items can match the same character
    (`\\s*\\s*`, `.*.*`): each extra one multiplies the backtracking. `\\s+\\d+` does not count."""
    best = run = 0
    previous: Optional[str] = None
    for op, av in parsed:  # type: ignore[union-attr]
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") and _unbounded(av[1]):
            kind = _item_kind(av[2])
            run = run + 1 if previous is not None and _overlap(previous, kind) else 1
            previous = kind
            best = max(best, run, _adjacent_repeats(av[2]))
            continue
        run, previous = 0, None
        if name == "SUBPATTERN":
            best = max(best, _adjacent_repeats(av[-1]))
        elif name == "BRANCH":
            best = max([best] + [_adjacent_repeats(alt) for alt in av[1]])
    return best


def _item_kind(item: object) -> str:
    """A coarse class of what a repeated item matches: "any", "category:<name>", "literal:<c>"."""
    items = list(item)  # type: ignore[call-overload]
    if len(items) != 1:
        return "any"
    op, av = items[0]
    name = str(op)
    if name == "LITERAL":
        return f"literal:{chr(av)}"
    if name == "IN" and len(av) == 1 and str(av[0][0]) == "CATEGORY":
        return f"category:{av[0][1]}"
    if name == "CATEGORY":
        return f"category:{av}"
    return "any"


def _overlap(a: str, b: str) -> bool:
    return a == "any" or b == "any" or a == b


def bundled_pack_files() -> List[Tuple[str, bytes]]:
    """(name, bytes) of every bundled pack, sorted by name.

    Installed from a wheel, the packs are the package `errlint.rules` (the folder `errlint/rules/`);
    run from a source checkout, they are the checkout's top-level `rules/` folder. Both are read
    beside the `errlint` package actually imported: an editable install maps `errlint.rules` to the
    checkout it was installed from, which need not be the one on PYTHONPATH (the ecosystem check
    runs an older commit that way), and the rules must come from the same code as the engine.
    """
    here = Path(__file__).resolve().parent
    root: object = next((p for p in (here / "rules", here.parent / "rules") if (p / "__init__.py").is_file()), None)
    if root is None:
        root = resources.files("errlint.rules")
    out = []
    for entry in root.iterdir():
        if entry.name.endswith(".toml"):
            out.append((f"errlint.rules/{entry.name}", entry.read_bytes()))
    return sorted(out)


def user_pack_files(paths: Iterable[Path]) -> List[Tuple[str, bytes]]:
    """(name, bytes) of the user's packs: each path is a .toml file or a folder of them."""
    out: List[Tuple[str, bytes]] = []
    for path in paths:
        files = sorted(path.glob("*.toml")) if path.is_dir() else [path]
        if not path.exists():
            raise PackError(f"phrase pack {str(path)!r} does not exist; fix the `packs` entry in [tool.errlint] (see `errlint --show-settings`)")
        for file in files:
            try:
                out.append((str(file), file.read_bytes()))
            except OSError as exc:
                raise PackError(f"phrase pack {str(file)!r} cannot be read ({exc.strerror}); check its permissions") from None
    return out


def load(files: Sequence[Tuple[str, bytes]]) -> Packs:
    """Parse and validate packs; later files may add lexicon tokens and rules. Raises PackError."""
    lexicons: Dict[str, Lexicon] = {}
    rules: List[PhraseRuleSpec] = []
    credentials: List[Credential] = []
    digest = hashlib.sha256()
    raw_lexicons: Dict[str, dict] = {}
    for name, data in files:
        digest.update(name.encode() + b"\0" + data)
        try:
            doc = tomllib.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise PackError(f"phrase pack {name}: not valid TOML ({exc}); fix the file or remove it from `packs`") from None
        unknown = set(doc) - PACK_KEYS
        if unknown:
            raise PackError(f"phrase pack {name}: unknown table(s) {sorted(unknown)}; allowed: {sorted(PACK_KEYS)}")
        for lex_name, body in _table(doc, "lexicon", f"phrase pack {name}").items():
            if not isinstance(body, dict):
                raise PackError(f"phrase pack {name}: lexicon {lex_name!r} must be a table ([lexicon.{lex_name}] with tokens = [...])")
            bad = set(body) - LEXICON_KEYS
            if bad:
                raise PackError(f"phrase pack {name}: lexicon {lex_name!r} has unknown key(s) {sorted(bad)}; allowed: {sorted(LEXICON_KEYS)}")
            merged = raw_lexicons.setdefault(lex_name, {"tokens": [], "words": [], "needs_object": []})
            for key in ("tokens", "words", "needs_object"):
                for token in _strings(body, key, f"phrase pack {name}: lexicon {lex_name!r}"):
                    if key == "tokens":
                        check_regex(token, f"phrase pack {name}: lexicon {lex_name!r}")
                    merged[key].append(token)
        for i, entry in enumerate(_tables(doc, "credential", f"phrase pack {name}")):
            where = f"phrase pack {name}: credential #{i + 1}"
            pattern = check_regex(_required(entry, "pattern", where), where)
            credentials.append(Credential(pattern, _text(entry, "instead", where, "the env var or login command")))
        for i, entry in enumerate(_tables(doc, "rule", f"phrase pack {name}")):
            rules.append(_rule(entry, f"phrase pack {name}: rule #{i + 1}", name))
    for lex_name, merged in raw_lexicons.items():
        lexicons[lex_name] = Lexicon(lex_name, tuple(merged["tokens"]), tuple(w.lower() for w in merged["words"]), tuple(merged["needs_object"]))
    return Packs(lexicons, rules, credentials, digest.hexdigest())


# Typed reads of a pack's TOML: a wrong type is the pack author's mistake, reported with the key
# and the expected form (exit 2), never a crash or a string read one character at a time.
def _strings(entry: dict, key: str, where: str, default: Sequence[str] = ()) -> Tuple[str, ...]:
    value = entry.get(key, list(default))
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PackError(f"{where}: {key} must be a list of strings (got {value!r:.40}); write {key} = [\"...\"]")
    return tuple(value)


def _table(entry: dict, key: str, where: str) -> dict:
    value = entry.get(key, {})
    if not isinstance(value, dict):
        raise PackError(f"{where}: {key} must be a table (got {value!r:.40}); write [{key}] or {key} = {{ ... }}")
    return value


def _tables(entry: dict, key: str, where: str) -> List[dict]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise PackError(f"{where}: {key} must be a list of tables (got {value!r:.40}); write each as [[{key}]]")
    return value


def _text(entry: dict, key: str, where: str, default: str) -> str:
    value = entry.get(key, default)
    if not isinstance(value, str):
        raise PackError(f"{where}: {key} must be a string (got {value!r:.40}); write {key} = \"...\"")
    return value


def _flag(entry: dict, key: str, where: str, default: bool) -> bool:
    value = entry.get(key, default)
    if not isinstance(value, bool):
        raise PackError(f"{where}: {key} must be true or false (got {value!r:.40})")
    return value


def _required(entry: dict, key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value:
        raise PackError(f"{where}: {key} must be a non-empty string (got {value!r:.40}); add {key} = \"...\" to the entry")
    return value


def _rule(entry: dict, where: str, source: str) -> PhraseRuleSpec:
    bad = set(entry) - RULE_KEYS
    if bad:
        raise PackError(f"{where}: unknown key(s) {sorted(bad)}; allowed: {sorted(RULE_KEYS)}")
    code = _required(entry, "code", where)
    if not re.fullmatch(r"[A-Z]{1,3}[0-9]{1,3}", code):
        raise PackError(f"{where}: code {code!r} must be 1-3 capital letters and 1-3 digits, like AEM901 (flake8's code format)")
    where = f"{where} ({code})"
    name = _required(entry, "name", where)
    if not re.fullmatch(r"[a-z][a-z0-9-]*", name):
        raise PackError(f"{where}: name {name!r} must be kebab-case, like vague-advice")
    extends = entry.get("extends", "existence")
    if extends not in EXTENDS:
        raise PackError(f"{where}: extends = {extends!r}; allowed: {list(EXTENDS)}")
    level = entry.get("level", "warning")
    if level not in ("error", "warning", "info"):
        raise PackError(f"{where}: level = {level!r}; allowed: error, warning, info")
    fix = entry.get("fix", "display-only")
    if fix not in ("display-only", "unsafe"):
        raise PackError(f"{where}: fix = {fix!r}; allowed: display-only, unsafe (unsafe only for codes with a built-in fixer)")
    when = entry.get("when", "always")
    if when not in WHEN:
        raise PackError(f"{where}: when = {when!r}; allowed: {list(WHEN)}")
    profiles = _strings(entry, "profiles", where, ("agent", "cli", "http", "exc"))
    for p in profiles:
        if p not in ("agent", "cli", "http", "exc", "log"):
            raise PackError(f"{where}: profile {p!r} unknown; allowed: agent, cli, http, exc, log")
    tokens = _strings(entry, "tokens", where)
    swap = _table(entry, "swap", where)
    if not all(isinstance(v, str) for v in swap.values()):
        raise PackError(f"{where}: swap must map each phrase to its guidance as a string, like swap = {{ \"later\" = \"in 30 s\" }}")
    shapes = _strings(entry, "shapes", where)
    from .prose import SHAPES  # the statement shapes a rule may name (structure, not phrases)

    unknown = [s for s in shapes if s not in SHAPES]
    if unknown:
        raise PackError(f"{where}: shapes {unknown} unknown; allowed: {sorted(SHAPES)}")
    if extends == "existence" and not tokens:
        raise PackError(f"{where}: an existence rule needs a non-empty `tokens` list")
    if extends == "substitution" and not swap:
        raise PackError(f"{where}: a substitution rule needs a `swap` table of phrase = guidance")
    for token in list(tokens) + list(swap):
        check_regex(token, where)
    examples = _table(entry, "examples", where)
    spec = PhraseRuleSpec(
        code=code,
        name=name,
        extends=extends,
        summary=_text(entry, "summary", where, name.replace("-", " ")),
        level=level,
        default=_flag(entry, "default", where, True),
        profiles=profiles,
        fix=fix,
        message=_text(entry, "message", where, "avoid \"{match}\""),
        suggestion=_text(entry, "suggestion", where, "Rewrite \"{match}\" with the concrete fix."),
        tokens=tokens,
        swap=swap,
        exceptions=tuple(e.lower() for e in _strings(entry, "exceptions", where)),
        unless_after=tuple(check_regex(p, where) for p in _strings(entry, "unless_after", where)),
        unless_message=tuple(check_regex(p, where) for p in _strings(entry, "unless_message", where)),
        unless_placeholder=_strings(entry, "unless_placeholder", where),
        when=when,
        shapes=shapes,
        unless_self_service=_flag(entry, "unless_self_service", where, False),
        unless_step_before=_flag(entry, "unless_step_before", where, False),
        unless_delegated=_flag(entry, "unless_delegated", where, False),
        link=_text(entry, "link", where, ""),
        docs=_text(entry, "docs", where, "").strip(),
        valid=_strings(examples, "valid", f"{where}: examples"),
        invalid=_strings(examples, "invalid", f"{where}: examples"),
        source=source,
    )
    spec.lexicon = Lexicon(name, tokens if extends == "existence" else tuple(swap))
    return spec


_BUNDLED: Optional[Packs] = None


def bundled() -> Packs:
    """The bundled packs alone (cached): what the Python rules' lexicons come from by default."""
    global _BUNDLED
    if _BUNDLED is None:
        _BUNDLED = load(bundled_pack_files())
    return _BUNDLED
