"""Guard forms beyond a plain `if` comparison, taken apart into `GuardFacts`.

- A validating `try`/`except` is a guard: `try: Decimal(text) except InvalidOperation:` checks that
  `text` is in the parser's form (an integer, a decimal number, JSON, a date, an enum member). The
  handler's sink then owes the reader the same echo, input name and allowed form as under an `if`.
- A lookup through a local, `v = TABLE.get(key); if v is None:`, tests `key` against `TABLE`.
- A bound that is an expression (`right > image.width`, `n > len(items)`) is a bound all the same.
- Quantifiers (`any(b in name for b in BAD)`, `not all(p.isdigit() for p in parts)`) test each
  element of the collection: the collection is the subject.
- A deny rule (`".." in path`, `name.startswith(RESERVED)`) states a form by its complement.
"""
from __future__ import annotations

import re
from typing import Callable, Optional, Tuple

import libcst as cst

from ..model import EXCEPTION
from . import nodes
from .provenance import is_outcome

# Parsers and the form they check: (callee pattern, form, words that state the form in a message).
PARSE_FORMS: Tuple[Tuple[re.Pattern, str, str], ...] = tuple(
    (re.compile(pattern), form, words)
    for pattern, form, words in (
        (r"^(builtins\.)?int$", "an integer", r"integer|whole number|number|numeric|digits|int"),
        (r"^(builtins\.)?(float|complex)$", "a number", r"number|numeric|decimal|float"),
        (r"(^|\.)Decimal$", "a decimal number", r"number|numeric|decimal|amount"),
        (r"(^|\.)(json|orjson|ujson|simplejson)\.loads?$", "JSON", r"json"),
        (r"(^|\.)(yaml\.(safe_)?load|tomllib\.loads?|tomli\.loads?|toml\.loads?)$", "YAML/TOML", r"yaml|toml"),
        (r"(^|\.)(strptime|fromisoformat|fromtimestamp|parse_date\w*|parse_datetime|isoparse)$|^dateutil\.parser\.parse$",
         "a date", r"iso ?8601|yyyy|[dm]{2}[/.-][dm]{2}|hh:mm|%[ymdhsHMS]|\d{4}-\d\d"),
        (r"(^|\.)UUID$", "a UUID", r"uuid"),
        (r"(^|\.)(ZoneInfo|timezone|gettz)$", "an IANA time zone name (e.g. Europe/Paris)", r"iana|europe/|america/|asia/|utc|tz database|zoneinfo"),
        (r"(^|\.)(ip_address|ip_network|ip_interface|IPv4Address|IPv6Address)$", "an IP address", r"ip|address"),
        (r"^re\.compile$", "a regular expression", r"regex|regular expression|pattern"),
        (r"(^|\.)(b64decode|urlsafe_b64decode|b32decode|unhexlify|fromhex)$", "base64/hex text", r"base64|hex"),
        (r"(^|\.)(Version|parse_version)$|^packaging\.version\.parse$", "a version", r"version|pep ?440"),
        (r"(^|\.)(Path|PurePath)$|^(urlparse|urlsplit)$", "", ""),
    )
)
# What a parser raises on text that is not in its form.
PARSE_ERRORS = re.compile(
    r"(^|\.)(ValueError|TypeError|KeyError|InvalidOperation|DecimalException|ArithmeticError|JSONDecodeError|"
    r"\w*DecodeError|\w*ParseError|\w*ParserError|YAMLError|ScannerError|InvalidVersion|AddressValueError|"
    r"error|Error|binascii\.Error|OverflowError|InvalidSpecifier|"
    # a name looked up in a fixed database: an IANA time zone, a codec, a locale
    r"ZoneInfoNotFoundError|UnknownTimeZoneError|LookupError)$"
)
GENERIC_PARSER = re.compile(r"^(parse\w*|\w+_parse|decode\w*|loads|from_?str\w*|validate\w*|to_(int|float|date|decimal)\w*)$")
BROAD = ("", "Exception", "BaseException", "builtins.Exception")
DOCUMENT_FORMS = ("JSON", "YAML/TOML")


class ParseGuard:
    """`try: parser(subject) except <parse error>:` seen from a sink in the handler."""

    def __init__(self, subject: str, callee: str, form: str, words: str, enum: str = "", attribute: str = "", argument=None):
        self.subject = subject
        self.attribute = attribute  # `args.port` for `int(args.port)`: the field parsed, read off `subject`
        self.argument = argument  # the parsed expression (`args["count"]`, `args.get("timezone", "UTC")`)
        self.callee = callee
        self.form = form
        self.words = words
        self.enum = enum
        # a JSON/YAML/TOML document: its reader needs the parser's position, not the document echoed
        self.document = form in DOCUMENT_FORMS


def parse_guard(message, is_enum: Callable[[str], bool]) -> Optional[ParseGuard]:
    """The validating `try` whose handler holds the sink, when the handler is the innermost guard."""
    handlers = message.context.handlers
    if not handlers:
        return None
    handler = handlers[0]
    calls = getattr(handler, "try_call_nodes", ())
    if not calls or not handler.types:
        return None
    broad = all(t in BROAD for t in handler.types)
    if not broad and not all(PARSE_ERRORS.search(t) for t in handler.types):
        return None
    if broad and len(calls) > 2:
        return None  # a catch-all around a block of work, not around one parse
    if _if_inside(message, handler):
        return None
    for callee, call in calls:
        args = nodes.positional_args(call)
        if not args:
            continue
        subject = nodes.root_name(args[0])
        if not subject or isinstance(args[0], (cst.SimpleString, cst.Integer)):
            continue
        short = callee or nodes.dotted(call.func)
        field = nodes.dotted(args[0]) if args[0].__class__ is cst.Attribute and args[0].value.__class__ is cst.Name else ""
        for pattern, form, words in PARSE_FORMS:
            if pattern.search(short):
                return ParseGuard(subject, short, _layout(call, short) or form, words, attribute=field, argument=args[0])
        last = short.rsplit(".", 1)[-1]
        if last[:1].isupper() and is_enum(last):
            return ParseGuard(subject, short, f"a {last} member", "", enum=last, attribute=field, argument=args[0])
        if GENERIC_PARSER.match(last) or not broad and len(calls) == 1 and len(args) == 1:
            # a parser errlint does not know (`croniter(cron)`) is still one when the handler catches
            # only what rejected text raises: the input failed its form, which errlint cannot state.
            # A call that takes more (`import_rows(path, table, ...)`) is an operation, not a parse
            return ParseGuard(subject, short, "", "", attribute=field, argument=args[0])
    return None


KEY_ERRORS = re.compile(r"(^|\.)(KeyError|LookupError)$")


def key_lookup(message) -> Optional[Tuple[cst.CSTNode, cst.CSTNode]]:
    """`try: return CODECS[name.lower()] except KeyError: raise ...`: the one subscript of the `try`
    whose key is not a literal, as (key, collection), when the innermost guard is a handler that
    catches only a failed lookup. The handler runs when the key is not in the collection."""
    handlers = message.context.handlers
    if not handlers:
        return None
    handler = handlers[0]
    if not handler.types or not all(KEY_ERRORS.search(t) for t in handler.types) or _if_inside(message, handler):
        return None
    found = {}
    for sub in getattr(handler, "try_lookups", ()):
        if len(sub.slice) != 1 or not isinstance(sub.slice[0].slice, cst.Index):
            continue
        key = sub.slice[0].slice.value
        if isinstance(key, (cst.SimpleString, cst.Integer, cst.ConcatenatedString)) or not nodes.root_name(key):
            continue  # `config["url"]`: a required entry is missing, not a value outside a set
        found.setdefault(cst.Module([]).code_for_node(sub), (key, sub.value))
    return next(iter(found.values())) if len(found) == 1 else None


def _layout(call: cst.Call, callee: str) -> str:
    """`strptime(day, "%Y-%m-%d")`: the date form its literal layout requires."""
    args = nodes.positional_args(call)
    layout = nodes.string_value(args[1]) if callee.rsplit(".", 1)[-1] == "strptime" and len(args) >= 2 else None
    return f"a date in the form {layout}" if layout else ""


def _if_inside(message, handler) -> bool:
    """True when the innermost `if` guard sits inside the handler (then the `if` is the guard)."""
    real = [g for g in message.context.guards if g.kind != "fallthrough"]
    if not real or handler.node is None:
        return False
    test = real[0].test
    return any(n is test for n in nodes.iter_expr(handler.node))


def lookup_of(node: cst.CSTNode, resolve: Callable[[str], Optional[cst.CSTNode]]) -> Optional[Tuple[cst.CSTNode, Optional[cst.CSTNode]]]:
    """`TABLE.get(key)`, `getattr(obj, key, None)`, `find_user(user_id)` (directly or through a local
    bound to one): the key looked up and the collection it is looked up in (None when unknown)."""
    if isinstance(node, cst.Name):
        node = resolve(node.value)
    if not isinstance(node, cst.Call):
        return None
    func = node.func
    last = nodes.last_name(func)
    args = nodes.positional_args(node)
    if last == "get" and isinstance(func, cst.Attribute) and args:
        return args[0], func.value
    if last == "getattr" and len(args) >= 2:
        return args[1], args[0]
    if args and not isinstance(func, cst.Attribute) and is_outcome(node) and not isinstance(args[0], (cst.SimpleString, cst.Integer)):
        return args[0], None
    return None


def bound_label(node: cst.CSTNode) -> str:
    """The source text of a bound that is an expression (`image.width`, `len(items)`), "" otherwise."""
    if isinstance(node, (cst.Attribute, cst.Call, cst.Subscript, cst.BinaryOperation)):
        return cst.Module([]).code_for_node(node)
    return ""


def bound_words(label: str) -> Tuple[str, ...]:
    """Words of an expression bound a message may name it by (`image.width` -> width)."""
    names = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", label)
    return tuple(n for n in names[-1:] if n not in ("len", "self", "cls")) + tuple(n.replace("_", " ") for n in names[-1:] if "_" in n)


def quantified(node: cst.CSTNode) -> Optional[Tuple[cst.GeneratorExp, str, Tuple[str, ...]]]:
    """`any(...)`/`all(...)` over a generator: the generator, the iterated subject, the loop targets."""
    if not isinstance(node, cst.Call) or nodes.last_name(node.func) not in ("any", "all"):
        return None
    args = nodes.positional_args(node)
    if not args or not isinstance(args[0], (cst.GeneratorExp, cst.ListComp)):
        return None
    gen = args[0]
    targets = tuple(n.value for n in nodes.iter_expr(gen.for_in.target) if isinstance(n, cst.Name))
    return gen, nodes.root_name(gen.for_in.iter), targets


EXAMPLE_WORDS = re.compile(r"\b(e\.g\.|for example|such as|like|formatted as|in the form|looks? like|expected|must be|should be)\b", re.I)
# "format" states the form only with the form beside it: "format: YYYY-MM-DD", "in ISO 8601 format",
# "the format is {layout}", "JSON format"; "Date format not recognised" and "invalid format" name the
# check that failed, not what passes it
_FORM_TOKEN = r"(?:[\"'`%\ue000]|\d|(?-i:[A-Z]{2,}|[A-Z][a-z]*[A-Z0-9]))"
FORMAT_NAMED = re.compile(
    r"\bformat(?:\s+(?:is|must be|should be|of))?\s*[:=]?\s*" + _FORM_TOKEN +
    r"|" + _FORM_TOKEN + r"[^\s]*\s+format\b"
    r"|\bin (?:the )?(?!(?:a|an|valid|correct|right|proper|expected|wrong|invalid|supported|same|this|that|given|required|its|their|your|any)\b)[\w-]+(?: [\w-]+)? format\b",
    re.I,
)


def states_form(prose: str) -> bool:
    """The prose gives an example or the form itself (`EXAMPLE_WORDS`, `FORMAT_NAMED`)."""
    return bool(EXAMPLE_WORDS.search(prose) or FORMAT_NAMED.search(prose))


def parse_form_stated(template, facts, subject: str, prose: str, sig) -> bool:
    """A message states a parser's form when it names the form (`an integer`, `JSON`, `YYYY-MM-DD`;
    for a date its layout, not the word "date", which names the value), gives an example or an
    allowed clause, or shows the parser's own reason."""
    for name, _, words in facts.parse_forms:
        if name == subject and words and re.search(rf"(?<!\w)(?:{words})", template.literal, re.I):  # `%Y-%m-%d` starts with no word
            return True
    if any(h.has(EXCEPTION) for h in template.placeholders):
        return True  # the parser's own reason ("invalid literal for int() ...") states the form
    return states_form(prose) or bool(sig.allowed_clause(template))


OUTCOME_ATTRS = frozenset({"returncode", "status_code", "status", "exit_code", "exitcode", "ok", "errno", "winerror", "rowcount"})


def outcome_read(node: cst.CSTNode) -> bool:
    """`proc.returncode`, `resp.status_code`, `cursor.rowcount`: what a call answered, not an input
    (a field of an input namespace such as `args.status` stays an input)."""
    return isinstance(node, cst.Attribute) and node.attr.value in OUTCOME_ATTRS and \
        nodes.root_name(node) not in ("self", "cls", "args", "options", "opts", "params", "data", "payload", "body", "config")


DENY_STATED = re.compile(
    r"\b(?:cannot|can't|can ?not|must not|mustn't|may not|should not|shouldn't|not allowed to|never)\s+(?:contain|include|start|begin|end|have|hold)\b|"
    r"\b(?:reserved|forbidden|disallowed|illegal|invalid|unsafe|not allowed)\s+(?:\w+\s+)?(?:characters?|prefix(?:es)?|suffix(?:es)?|names?|words?|sequences?|quotes?)\b",
    re.I)


def deny_stated(template, lits) -> bool:
    """A deny rule is stated when the message names what is denied (`'..'`, "single quotes") with a
    prohibition, or the denied literal is not printable text (a NUL byte, a newline)."""
    printable = [lit for lit in lits if lit.strip() and lit.isprintable()]
    if not printable:
        return True
    literal = template.literal.lower()
    for lit in printable:
        core = lit.strip(" -_/:=").lower()  # `archived-` is named by "archived projects"
        if core and re.search(rf"(?<![\w]){re.escape(core)}(?![\w])", literal):
            return True
    return bool(DENY_STATED.search(template.prose))


def _last_statement(stmt: cst.If) -> Optional[cst.CSTNode]:
    """The last small statement of an `if`'s body (`return v` in `if k == x: return v`)."""
    body = stmt.body.body if isinstance(stmt.body, (cst.IndentedBlock, cst.SimpleStatementSuite)) else ()
    last = body[-1] if body else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1] if last.body else None
    return last


def early_exit(stmt: Optional[cst.CSTNode]) -> bool:
    """`if <check>: return/continue/break` with no `else`: the statement right after it runs only
    when the check failed (early-return fall-through). Only checks, not arbitrary calls; the walker
    also skips an exit that reports an error itself (`if bad: return error_reply`)."""
    if stmt.__class__ is not cst.If or stmt.orelse is not None:  # exact class test: see `nodes`
        return False
    if not isinstance(_last_statement(stmt), (cst.Return, cst.Continue, cst.Break)):
        return False  # a `raise` exits on failure: the statement after it is the path that passed
    test = stmt.test
    while isinstance(test, cst.UnaryOperation):
        test = test.expression
    if isinstance(test, cst.Comparison):
        return True
    return isinstance(test, cst.Call) and nodes.last_name(test.func) in (
        "startswith", "endswith", "match", "fullmatch", "search", "isdigit", "isidentifier", "isalnum", "isinstance")


def search_miss(loop: cst.CSTNode, exits=(cst.Return,)) -> Optional[cst.Comparison]:
    """`for name, cls in PROFILES.items(): if name == wanted: return cls`: after the loop (or in its
    `else:` when the exit is a `break`) `wanted` matched no element. The failed test, written as
    `wanted not in PROFILES` (the keys of `.items()`, the elements otherwise), or None when the loop
    is no such search (no `if <element> == <value>:` that exits, or the value is the element)."""
    if loop.__class__ is not cst.For or not isinstance(loop.body, cst.IndentedBlock):
        return None
    targets = loop.target.elements if isinstance(loop.target, cst.Tuple) else [cst.Element(loop.target)]
    names = [el.value.value if isinstance(el.value, cst.Name) else "" for el in targets]
    bound = set(names)
    iterable = loop.iter
    keyed = isinstance(iterable, cst.Call) and nodes.last_name(iterable.func) == "items" and isinstance(iterable.func, cst.Attribute) and len(names) == 2
    for stmt in loop.body.body:
        if stmt.__class__ is not cst.If or stmt.orelse is not None or not isinstance(stmt.test, cst.Comparison):
            continue
        test = stmt.test
        if not isinstance(_last_statement(stmt), exits) or len(test.comparisons) != 1 or not isinstance(test.comparisons[0].operator, cst.Equal):
            continue
        left, right = test.left, test.comparisons[0].comparator
        for element, value in ((left, right), (right, left)):
            name = element.value if isinstance(element, cst.Name) else ""
            if not name or name not in bound or nodes.root_name(value) in bound or not nodes.root_name(value):
                continue
            if keyed and name == names[0]:
                collection = iterable.func.value  # `for key, value in TABLE.items()`: the keys
            elif not keyed and (len(names) == 1 or not isinstance(iterable, (cst.List, cst.Tuple, cst.Set, cst.Dict))):
                collection = iterable  # `for name, cls, desc in iter_profiles()`: one field of each row, values unknown
            else:
                continue
            return cst.Comparison(value, [cst.ComparisonTarget(cst.NotIn(), collection)])
    return None
