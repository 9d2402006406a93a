"""The rule model: a rule is a class with its code, name, docs, profiles and VALID/INVALID examples.

Like Fixit's `LintRule`, each rule carries its own examples, which `tests/test_rules.py` runs for every
rule; unlike Fixit, options declared in `OPTIONS` really reach the rule (`self.options`). Rules read
`Message`s built by `extract/`, never raw modules.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

import libcst as cst

from ..extract import nodes
from ..extract.catching import GENERIC_CATCH, catches, class_key, raised_class
from ..extract.context import GuardFacts, guard_facts
from ..extract.guards import parse_guard
from ..extract.input_origins import argparse_options, subcommand_handlers, type_converters
from ..extract.provenance import Provenance, provenance
from ..extract.file_facts import FileFacts
from ..extract.transient import deadline_passed
from ..model import EXCEPTION, RELAYED, Applicability, Finding, Fix, Level, Message, Template
from ..packs import Packs
from ..prose import status_only

DOC_HEADINGS = ("## What it does", "## Why is this bad?", "## Example", "Use instead", "## Fix safety", "## Options")
CONTENT_SINKS = frozenset(
    {"raise", "tool-error", "protocol-error", "tool-result", "agent-error", "notify", "cli-error", "exit",
     "stderr", "stdout", "log", "warn", "http", "class-default", "validator"}
)
ERROR_LEVELS = {"warning", "warn", "error", "exception", "critical", "fatal"}
# What makes a stderr print an error report rather than progress output ("Codemodding a.py").
FAILURE_TEXT = re.compile(
    r"^\W*no\b|\b(error|errors|fail(?:s|ed|ure|ing)?|cannot|can't|could ?not|couldn't|unable|invalid|unknown|not found|"
    r"missing|no such|denied|refused|forbidden|not (?:allowed|permitted|supported|installed|a|an)|unsupported|"
    r"must|required|requires|expected|too (?:many|long|large|big|few)|exceed(?:s|ed)?|(?:does|did|do) not|doesn't|"
    r"aborted|aborting|timed out|timeout|conflict|mismatch|wrong|bad|illegal|malformed|corrupt(?:ed)?|usage:|"
    r"busy|in use|(?:un|not )available|unreachable|already (?:exists?|running|in use|taken)|empty|no \w+ (?:found|given|specified))\b",
    re.I,
)


@dataclass(frozen=True)
class Option:
    """A rule option: default value, a type name for validation ("int", "str", "list[str]", "bool"), docs."""

    default: Any
    kind: str
    doc: str


EMPTY_STORE = cst.Dict([])  # what an imported store is made as (`FileContext.resolve`)


@dataclass
class FileContext:
    """What rules may read about the file being checked, besides the message itself."""

    path: str
    facts: FileFacts
    packs: Packs
    registry: frozenset
    mcp_versions: Dict[str, str] = field(default_factory=dict)
    extra_next_step_verbs: Tuple[str, ...] = ()
    text: str = ""
    caught: frozenset = frozenset()  # exception classes the project catches by name
    pass_through: frozenset = frozenset()  # project classes derived from a stack's ToolError, across modules
    literal_aliases: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # `Literal` aliases across modules
    _guards: Dict[int, GuardFacts] = field(default_factory=dict)
    _argparse: Optional[Dict[str, Tuple[Tuple[str, ...], bool]]] = None
    _handlers: Optional[frozenset] = None
    _converters: Optional[frozenset] = None

    @property
    def module(self) -> cst.Module:
        return self.facts.module

    def code(self, node: cst.CSTNode) -> str:
        return self.facts.module.code_for_node(node)

    def guard(self, message: Message) -> GuardFacts:
        """Guard facts of a message, computed once."""
        found = message.guard_facts
        if found is None:
            found = guard_facts(message, lambda name: self.resolve(message, name))
            message.guard_facts = found
        return found

    def argparse_options(self) -> Dict[str, Tuple[Tuple[str, ...], bool]]:
        """The file's argparse options: dest -> (flags, is a switch), read once (`input_origins`)."""
        if self._argparse is None:
            self._argparse = argparse_options(self.facts.argparse_calls)
        return self._argparse

    def type_converter(self, message: Message) -> bool:
        """The message's function is an argparse `type=` converter of this module."""
        if self._converters is None:
            self._converters = type_converters(self.facts.argparse_calls)
        function = message.context.function
        return function is not None and function.name in self._converters

    def namespace_params(self, message: Message) -> frozenset:
        """The parameter that holds argparse's namespace when the message's function is a
        sub-command handler (`set_defaults(func=cmd_fetch)`, `def cmd_fetch(args):`)."""
        if self._handlers is None:
            self._handlers = subcommand_handlers(self.facts.argparse_calls)
        function = message.context.function
        if function is None or function.name not in self._handlers or not function.param_names:
            return frozenset()
        return frozenset(function.param_names[:1])

    def resolve(self, message: Message, name: str) -> Optional[cst.CSTNode]:
        """The single assigned value of `name` where the message is, or None. A container another
        project module makes empty (`from .store import NOTES`, `project_scan.ModuleObjects`)
        resolves to the empty dict it is made as there."""
        scope = message.scope
        if scope is None:
            return None
        value = scope.value(name)
        if value is None:
            found = scope.lookup(name)
            if len(found) == 1 and found[0].kind == "import" and found[0].origin == "store":
                return EMPTY_STORE
        return value

    def origin(self, message: Message, name: str) -> Optional[cst.CSTNode]:
        """What `name` was computed from: its assigned value, or the iterable of a `for` loop that
        binds it, or the context expression of a `with ... as name`."""
        scope = message.scope
        if scope is None:
            return None
        binding = scope.first(name)
        if binding is not None and binding.kind in ("assign", "loop", "other", "with") and binding.value is not None:
            return binding.value
        return scope.value(name)

    @property
    def file_tools(self) -> frozenset:
        return frozenset(t.name for t in self.facts.tools)


class Rule:
    """Base class of every rule (Python rules subclass it; TOML phrase rules are `PhraseRule`s).

    Class attributes: CODE ("AEM101"), NAME (kebab-case), SUMMARY (one line), LEVEL, PROFILES (the
    audiences it applies to by default), DEFAULT (on unless selected), FIX (the strongest fix it may
    offer), OPTIONS, VALID and INVALID (code snippets; each INVALID must produce this rule's code, each
    VALID must not), SINKS (sink kinds it reads). The docstring is the user documentation, with ruff's
    headings.
    """

    CODE: ClassVar[str] = ""
    NAME: ClassVar[str] = ""
    SUMMARY: ClassVar[str] = ""
    LEVEL: ClassVar[Level] = Level.WARNING
    PROFILES: ClassVar[Tuple[str, ...]] = ("agent", "cli", "http", "exc", "log")
    DEFAULT: ClassVar[bool] = True
    FIX: ClassVar[Applicability] = Applicability.DISPLAY_ONLY
    OPTIONS: ClassVar[Dict[str, Option]] = {}
    VALID: ClassVar[Sequence[str]] = ()
    INVALID: ClassVar[Sequence[str]] = ()
    SINKS: ClassVar[frozenset] = CONTENT_SINKS
    PROSE: ClassVar[bool] = True  # judges wording: skipped for info/debug logs and non-English text
    registry: ClassVar[Dict[str, type]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.CODE:
            Rule.registry[cls.CODE] = cls

    def __init__(self, options: Optional[Dict[str, Any]] = None, profiles: Optional[Sequence[str]] = None):
        opts = dict(options or {})
        self.options = {name: opts.get(name, o.default) for name, o in self.OPTIONS.items()}
        self.profiles = tuple(profiles) if profiles is not None else tuple(self.PROFILES)

    # metadata, read through the instance so phrase rules can set them per entry
    @property
    def code(self) -> str:
        return self.CODE

    @property
    def name(self) -> str:
        return self.NAME

    @property
    def docs(self) -> str:
        return _dedent(self.__class__.__doc__ or "")

    @property
    def url(self) -> str:
        return f"https://github.com/errlint/errlint/blob/main/docs/rules.md#{self.code.lower()}"

    def applies(self, message: Message) -> bool:
        if message.sink not in self.SINKS or message.profile not in self.profiles:
            return False
        if self.PROSE and message.sink in ("log", "notify") and message.extra.get("level", "error") not in ERROR_LEVELS:
            return False
        if self.PROSE and message.sink == "stderr" and not reports_failure(message):
            return False
        return True

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        """Yield findings about one message. Override in subclasses."""
        return ()

    def check_file(self, ctx: FileContext) -> Iterable[Finding]:
        """Yield findings that are not about a single message. Override when needed."""
        return ()

    def finding(self, message: Optional[Message], text: str, suggestion: str, anchor: Any = None, fix: Optional[Fix] = None) -> Finding:
        if anchor is None and message is not None:
            anchor = message.anchor
        return Finding(self.code, text, suggestion, anchor, fix, message)


# A fault inside the program, which no caller can fix: no echo, allowed values or next step is owed.
INTERNAL_FAULT_TEXT = re.compile(
    r"\b(internal (?:server )?error|should (?:never|not) (?:happen|occur|be (?:reached|possible|called))|"
    r"this is a bug|(?:server|sdk|library|internal) bug|bug in (?:the )?\w+|"
    # code that should not run ("unreachable", "unreachable branch"), not a host the network cannot reach
    r"(?<![\w,] )(?<![\w,]  )unreachable(?! (?:host|server|service|network|endpoint))|unreachable (?:code|state|branch|case|path)|should (?:be|have been) unreachable|"
    r"invalid (?:parser|internal) state)\b",
    re.I,
)
# a catch-all's own words for a failure it did not foresee
UNEXPECTED_TEXT = re.compile(r"\b(?:unexpected|unhandled|unforeseen) (?:error|exception|failure|problem)\b", re.I)
# the program's own words for a failure whose cause it does not know
UNKNOWN_FAILURE_TEXT = re.compile(r"\b(?:unknown|unexpected|unhandled|unforeseen|unspecified|unidentified) (?:error|exception|failure|problem|fault)\b", re.I)
INTERNAL_FAULT_CODES = re.compile(r"^(?:[\w.]*INTERNAL_ERROR|-32603|500)$")


def internal_fault(message: Message) -> bool:
    """True for an internal fault: the text says so ("Internal error", "should never happen"), a
    catch-all handler says the failure was unexpected ("Unexpected error in {tool}"), or the error
    carries JSON-RPC's INTERNAL_ERROR (-32603) or HTTP 500."""
    if INTERNAL_FAULT_CODES.match(str(message.extra.get("code", "") or "").replace(" ", "")) or message.extra.get("status") == 500:
        # the code or status the code picked is no evidence when a check of the caller's input leads
        # here: `INTERNAL_ERROR` for a bad date is AEM602's misuse, and the text still owes its parts
        return not checks_caller_input(message)
    if any(INTERNAL_FAULT_TEXT.search(t.prose) for t in message.templates):
        return True
    handlers = message.context.handlers
    if not handlers or not any(t in GENERIC_CATCH for t in handlers[0].types) or not any(UNEXPECTED_TEXT.search(t.prose) for t in message.templates):
        return False
    status = message.extra.get("status")
    # a catch-all around one parse of an input (`date.fromisoformat(date)`), or one answered with a
    # client-error status, is about the reader's value, however it is worded
    return not (isinstance(status, int) and 400 <= status < 500) and parse_guard(message, lambda _: False) is None


def checks_caller_input(message: Message) -> bool:
    """A reader who sent input reads the message (an agent, a CLI user, an HTTP client; not a
    library's caller, whose arguments may be the library's own results), and the innermost check in
    front of it tests that input: an `if` on it, or a validating `try` that parses it."""
    function = message.context.function
    in_tool = function is not None and (function.role in ("tool", "lowlevel") or function.reachable_from_tool)
    if not (message.profile in ("cli", "http") or message.profile == "agent" and in_tool):
        return False  # (an SDK's `MCPError` in a function no tool is: the sink says agent, the code is the SDK's)
    handlers = message.context.handlers
    if handlers and parse_guard(message, lambda _: False) is not None:
        return True
    guards = message.context.guards
    if handlers:  # in an `except`, a guard around the whole `try` chose the branch; only those inside the handler check
        guards = guards[:max(0, len(guards) - handlers[0].guard_depth)]
    for guard in guards:
        if guard.kind == "fallthrough" or guard.test is None:
            continue
        names = {n.value for n in nodes.iter_expr(guard.test) if n.__class__ is cst.Name}
        return bool(provenance(message).inputs(names))
    return False


def states_unknown_failure(message: Message) -> bool:
    """Every text of the message says its failure's cause is unknown ("Unknown error calling API";
    not the default an upstream's missing error text falls back to)."""
    texts = [t for t in message.templates if not t.fallback and t.literal.strip()]
    return bool(texts) and all(UNKNOWN_FAILURE_TEXT.search(t.prose) for t in texts)


def internal_signal(message: Message, ctx: "FileContext") -> bool:
    """A library raising its own exception as a signal, not as a message for a reader: plain code
    (the exc profile) raising a private class (`_ArityError`), one the project catches by name
    (the handler then shows its own text, or none), or one the enclosing `try` itself catches."""
    if caught_locally(message) or internal_check(message, ctx) or security_rejection(message, ctx):
        return True
    if message.profile != "exc" or message.sink != "raise":
        return False
    cls = message.callee.rsplit(".", 1)[-1]
    return bool(cls) and (cls.startswith("_") or caught_by_name(message.callee, ctx.caught))


def caught_by_name(callee: str, caught) -> bool:
    """The raised class is one the project catches by name (`project_scan.scan_caught_names`): by its
    last name, or, for a class caught as imported from a package (`pydantic.ValidationError`), when
    the raise names it from the same package (not `django.forms.ValidationError`) or defines it."""
    cls = callee.rsplit(".", 1)[-1]
    if cls in caught:
        return True
    packages = _qualified_catches(caught if isinstance(caught, frozenset) else frozenset(caught)).get(cls)
    return bool(packages) and ("." not in callee or callee.split(".", 1)[0] in packages)


@lru_cache(maxsize=16)
def _qualified_catches(caught: frozenset) -> Dict[str, FrozenSet[str]]:
    """Last name -> the top-level packages it is caught from (`pydantic.ValidationError`)."""
    index: Dict[str, set] = {}
    for c in caught:
        if "." in c:
            index.setdefault(c.rsplit(".", 1)[-1], set()).add(c.split(".", 1)[0])
    return {k: frozenset(v) for k, v in index.items()}


# what a guard against an attack rejects: path traversal and NUL bytes (deny rules), and request
# headers a browser sets that say where the request came from (DNS rebinding, CSRF)
ATTACK_LITERALS = frozenset({"..", "../", "..\\", "/..", "\x00", "\0"})
ORIGIN_HEADERS = frozenset({"origin", "host", "referer", "referrer", "sec-fetch-site", "x-forwarded-host", "x-csrf-token", "x-xsrf-token"})


def security_rejection(message: Message, ctx: "FileContext") -> bool:
    """A rejection by a guard against an attack: the deny rule refuses path traversal or a NUL byte,
    or the guard tests where a browser request came from (`Origin`, `Host`, `Referer`). Its reader
    is a misbehaving client or an attacker; a terse refusal is the design, and stating the rule or
    echoing the value helps only the attacker."""
    facts = ctx.guard(message)
    if any(not required and ATTACK_LITERALS & set(literals) for _, _, literals, required in facts.formats):
        return True
    scope = message.scope
    for subject in facts.subjects:
        value = scope.value(subject) if scope is not None else None
        header = _header_key(value) if value is not None else ""
        if header.lower() in ORIGIN_HEADERS:
            return True
    return False


def _header_key(node: cst.CSTNode) -> str:
    """"origin" for `request.headers.get("origin")` / `request.headers["Origin"]`, else ""."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get" and node.args:
        base, key = node.func.value, node.args[0].value
    elif isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        base, key = node.value, node.slice[0].slice.value
    else:
        return ""
    if nodes.last_name(base) != "headers" or not isinstance(key, cst.SimpleString):
        return ""
    return key.evaluated_value if isinstance(key.evaluated_value, str) else ""


def internal_check(message: Message, ctx: "FileContext") -> bool:
    """A check of the project's own code: judged with its function's parameters carrying no caller
    input (every call in the project passes fixed values, `parameter_inputs`), the guard in front of
    the message tests values that only those parameters bring. Nobody who reads it can satisfy it.
    A deadline that passed (`extract.transient`) is not one."""
    if not message.extra.get("internal_params") or deadline_passed(message):
        return False  # a deadline that passed is the clock's doing, whatever the parameters carry
    facts = ctx.guard(message)
    subjects = facts.subjects or facts.names
    if not facts.has_guard or not subjects:
        return False
    return bool(Provenance(message.scope, outcomes=True).inputs(subjects)) and not provenance(message, outcomes=True).inputs(subjects)


def caught_locally(message: Message) -> bool:
    """A raise that the enclosing `try` catches (by name, a builtin superclass or a catch-all) and
    whose text nobody reads there: the handler replaces it, or it has no text. Control flow, not a
    message."""
    cls = raised_class(message)
    if cls is None or not message.context.catching:
        return False
    around = [class_key(t) for t in message.context.catching]
    if not catches(around, cls, {}):
        return False
    return catches(message.context.replacing, cls, {}) or not any(t.prose.strip() or t.placeholders for t in message.templates)


def translator(message: Message) -> bool:
    """True in an exception-to-error mapper: the message interpolates an exception that is a
    parameter of the enclosing function (`def to_mcp_error(error: Exception)`), so its text is the
    detail and the mapper cannot know more."""
    function = message.context.function
    if function is None:
        return False
    params = set(function.param_names)
    return any(h.has(EXCEPTION) and not h.has(RELAYED) and set(n.split(".", 1)[0] for n in h.names) & params for t in message.templates for h in t.placeholders)


def traceback_attached(message: Message) -> bool:
    """A log call that attaches the exception (`logger.exception`, `exc_info=`): the record
    carries the cause and the traceback, the text is only their heading."""
    return message.sink == "log" and bool(message.extra.get("exc_info"))


def reports_failure(message: Message) -> bool:
    """A stderr print is an error report when a non-zero exit follows it or its text reads as a
    failure (and is not only a negated failure or idle notice: "No errors found", "Nothing to do");
    otherwise it is progress or status output, which prose rules leave alone."""
    if message.sink != "stderr" or message.extra.get("exits_after"):
        return True
    return any(FAILURE_TEXT.search(t.prose) and not status_only(t.prose) for t in message.templates)


def run_lines(message: Message, ctx: "FileContext") -> List[Message]:
    """The messages printed or logged by the other statements of the run of consecutive output lines
    `message` belongs to, in order (the walker marks runs: `extra["run"]`)."""
    run = message.extra.get("run")
    if not run:
        return []
    index = getattr(ctx, "_runs", None)
    if index is None:
        index = {}
        for m in ctx.facts.messages:
            key = m.extra.get("run")
            if key:
                index.setdefault(key[0], []).append(m)
        ctx._runs = index  # type: ignore[attr-defined]
    return sorted((m for m in index.get(run[0], ()) if m is not message), key=lambda m: m.extra["run"][1])


def later_lines(message: Message, ctx: "FileContext") -> List[Message]:
    """The lines printed right after `message` in the same run ("Run `tool init` to create one.")."""
    position = message.extra.get("run", (0, 0, 0))[1]
    return [m for m in run_lines(message, ctx) if m.extra["run"][1] > position]


def _dedent(text: str) -> str:
    lines = text.expandtabs().splitlines()
    if not lines:
        return ""
    indent = min((len(l) - len(l.lstrip()) for l in lines[1:] if l.strip()), default=0)
    out = [lines[0].strip()] + [l[indent:] for l in lines[1:]]
    return "\n".join(out).strip()


def quote(text: str, limit: int = 60) -> str:
    """`text` trimmed to `limit` characters for a diagnostic, with placeholders shown as `{...}`."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def complete_templates(message: Message) -> List[Template]:
    """The message's variants whose whole prose is known (rules about missing parts need these).
    A fallback variant (`result.get("error", "Unknown error")` when the upstream says nothing) is
    not the message: the upstream's text is."""
    return [t for t in message.templates if t.complete and not t.fallback]


def mostly_non_english(text: str) -> bool:
    """True when most letters are outside ASCII: English lexicons do not apply (the phrase lists are English)."""
    if text.isascii():  # most messages: no letter to count
        return False
    letters = [c for c in text if c.isalpha()]
    if len(letters) < 8:
        return False
    return sum(1 for c in letters if ord(c) > 127) > len(letters) / 2


def all_rules() -> Dict[str, type]:
    """Every Python rule class by code (importing the rule modules registers them)."""
    from . import allowed_values, channels, guidance, interpolation, leaks, mcp, meta, next_step, passthrough, size, success_results, vague, value_echo, value_source  # noqa: F401  (registration)

    return dict(Rule.registry)
