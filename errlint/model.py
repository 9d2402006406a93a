"""The data that flows through errlint: templates, messages, diagnostics and fixes.

Everything here is a plain (mostly frozen) dataclass or an enum. `extract/` builds `Message`s from the
CST, `checks/` turns them into `Finding`s, and the engine turns findings into located `Diagnostic`s.
Offsets are character offsets into the decoded source text; rows are 1-based; columns are 1-based
character columns (ruff's convention for human output and JSON).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, Optional, Tuple, Union

PROFILES = ("agent", "cli", "http", "exc", "log")
"""Audience profiles: who reads a message. `agent`: a model reading an MCP tool's error; `cli`: a person
reading a command's stderr; `http`: an API client reading an error body; `exc`: the caller of a
library that raises; `log`: whoever reads the logs."""


class Level(str, enum.Enum):
    """How serious a diagnostic is; only `error` and `warning` fail a run by default."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Applicability(str, enum.Enum):
    """Fix safety, as ruff's `Applicability` and rustc's MachineApplicable/MaybeIncorrect.

    `safe` fixes are applied by `--fix`; `unsafe` ones need `--unsafe-fixes` (rewording a message can
    break `pytest.raises(match=...)`); `display-only` fixes are shown, never applied.
    """

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


# Placeholder kinds: what an interpolated value is (bounded, a secret, a home path, a traceback, ...),
# which the leak, size and missing-part rules read instead of running the code. A placeholder may carry several.
BOUNDED = "bounded"
EXCEPTION = "exception"
UNBOUNDED = "unbounded"
SCHEMA = "schema"
VALIDATION = "validation"
TRACEBACK = "traceback"
SECRET = "secret"
# named like a secret by a word that is as often something else (`token`, `session_id`, `signature`),
# with no origin or qualifier to confirm it: a secret only where the message speaks of authentication
MAYBE_SECRET = "maybe-secret"
SECRETS = frozenset({SECRET, MAYBE_SECRET})
URL = "url"
HOME_PATH = "home-path"
ENV_DUMP = "env-dump"
RETRY_AFTER = "retry-after"
UNKNOWN = "unknown"
COLLECTION = "collection"
HINT = "hint"  # a validator's own requirement text (jsonschema `e.message`, pydantic `err["msg"]`)
RELAYED = "relayed"  # an upstream's own error text (`result.get("error")`), carried with EXCEPTION


@dataclass(frozen=True, eq=False)
class Placeholder:
    """One interpolated value in a template.

    `expr` is the expression's source text; `kinds` the classes above; `names` the dotted names it
    reads (`e`, `e.message`); `quoted` whether the template marks it off (quotes, backticks, `!r`, `=`);
    `detail` a short reason used in messages (for example the secret-like name).
    """

    expr: str
    kinds: FrozenSet[str]
    names: Tuple[str, ...] = ()
    quoted: bool = False
    detail: str = ""
    node: Any = field(default=None, repr=False)

    def has(self, kind: str) -> bool:
        return kind in self.kinds


@dataclass(frozen=True, eq=False)
class Piece:
    """A literal run of message text and the string node it was written in.

    `style` is how the surrounding template is formatted: "plain", "f", "percent" or "format"; text
    inserted into the piece by a fix must be escaped for that style. `container` is the f-string a
    literal run belongs to.
    """

    text: str
    node: Any = field(repr=False)
    style: str = "plain"
    container: Any = field(default=None, repr=False)  # the whole string literal a run of an f-string is in

    @property
    def literal(self) -> Any:
        """The string literal node this piece was written in (where findings are reported)."""
        return self.container if self.container is not None else self.node


Part = Union[str, Placeholder]


@dataclass(frozen=True, eq=False)
class Template:
    """A message as literal text plus typed placeholders (the placeholder kinds above).

    `parts` alternate freely between `str` and `Placeholder`. `pieces` are the literal source pieces,
    in order, for positions and fixes. `complete` is False when part of the message's prose is not
    known (a parameter, an attribute, an opaque call): rules that judge what is *missing* then stay
    silent, since the missing part may be in the text errlint cannot see. `tail` is the string
    literal node the message ends in (None when it ends with an opaque value), `tail_style` how that
    literal is formatted: text appended by a fix goes just before its closing quote. `fallback`
    marks the variant built from the default of `result.get("error", "Unknown error")`: the text
    the reader sees only when the upstream says nothing.
    """

    parts: Tuple[Part, ...]
    pieces: Tuple[Piece, ...] = ()
    complete: bool = True
    tail: Any = field(default=None, repr=False, compare=False)
    tail_style: str = "plain"
    fallback: bool = False  # built from a default used only when an upstream gives no error text

    @property
    def placeholders(self) -> Tuple[Placeholder, ...]:
        return tuple(p for p in self.parts if isinstance(p, Placeholder))

    @property
    def literal(self) -> str:
        """Only the literal text, placeholders dropped."""
        return "".join(p for p in self.parts if isinstance(p, str))

    @property
    def text(self) -> str:
        """Literal text with each placeholder shown as `{expr}`, for humans and for size estimates."""
        return "".join(p if isinstance(p, str) else "{" + p.expr + "}" for p in self.parts)

    @property
    def prose(self) -> str:
        """Literal text with each placeholder replaced by the private-use mark U+E000.

        Phrase rules match on this: a mark is neither a word character nor whitespace, so patterns
        never match across or inside an interpolated value.
        """
        return "".join(p if isinstance(p, str) else PLACEHOLDER_MARK for p in self.parts)


PLACEHOLDER_MARK = "\ue000"


@dataclass(frozen=True)
class Param:
    """A function parameter: name, annotation source text ("" when absent), default source text, and
    whether its declaration says it carries a credential (`extract.definitions.credential_param`)."""

    name: str
    annotation: str = ""
    default: str = ""
    credential: bool = False


@dataclass(frozen=True)
class Location:
    """A 1-based row and 1-based character column."""

    row: int
    column: int


@dataclass(frozen=True)
class Edit:
    """Replace the source text between two character offsets with `content`.

    `start`/`end` index the decoded source text. A rule that only knows a node gives `node` and
    offsets relative to the start of that node's source text instead; the engine resolves them
    (and drops the fix if the node's text is not where it should be). `location`/`end_location`
    are filled in by the engine for output.
    """

    start: int
    end: int
    content: str
    location: Optional[Location] = None
    end_location: Optional[Location] = None
    node: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Fix:
    """A set of edits applied together, with ruff's applicability and an imperative title."""

    applicability: Applicability
    title: str
    edits: Tuple[Edit, ...] = ()


@dataclass(frozen=True, eq=False)
class Finding:
    """What a rule reports: a message, a suggestion, the node to locate it at, and an optional fix.

    `anchor` is a libcst node (or an (start, end) offset pair) whose start is the reported position;
    `subject` is the `Message` it is about (used to let the most specific finding win).
    """

    code: str
    message: str
    suggestion: str
    anchor: Any = field(repr=False)
    fix: Optional[Fix] = None
    subject: Any = field(default=None, repr=False)


def unprintable(ch: str) -> bool:
    """A character a terminal acts on or no UTF-8 writer accepts: control and format characters
    (a NUL, a right-to-left override), lone surrogates, separators other than space and newline."""
    return ch not in (" ", "\n") and not ch.isprintable()


def escaped_char(ch: str) -> str:
    return {"\r": "\\r", "\t": "\\t"}.get(ch) or repr(ch)[1:-1]


def printable(text: str, keep: str = "") -> str:
    """`text` with its unprintable characters written as escapes (`\\x00`, `\\u202e`, `\\ud800`),
    those in `keep` left as they are: a diagnostic quotes message text, which must neither move the
    terminal's cursor nor crash the writer."""
    if text.isprintable():
        return text
    return "".join(escaped_char(ch) if unprintable(ch) and ch not in keep else ch for ch in text)


@dataclass(frozen=True)
class Diagnostic:
    """A located finding, ready for output. Field names follow ruff's JSON output."""

    code: str
    name: str
    message: str
    filename: str
    location: Location
    end_location: Location
    level: Level
    suggestion: str
    fix: Optional[Fix] = None
    url: str = ""
    noqa_row: int = 0
    audience: str = ""  # who reads the message (PROFILES); "" when the finding is not about one
    entry_points: Tuple[str, ...] = ()  # the entry points whose reach gave it that audience

    def sort_key(self) -> tuple:
        return (self.filename, self.location.row, self.location.column, self.code, self.message)


@dataclass(eq=False)
class FunctionInfo:
    """A function or method seen by the walk.

    `role` is "" or one of: tool (registered MCP tool), lowlevel (MCP low-level call_tool handler),
    validator (pydantic validator), cli (click/typer command or callback), resource (MCP resource),
    dunder (`__str__`/`__repr__`). `stack` names the MCP stack that registered it (see
    `extract.sinks.STACKS`). `calls` holds the simple names this function calls, for reachability.
    """

    name: str
    params: Tuple[Param, ...]
    decorators: Tuple[str, ...] = ()
    class_name: str = ""
    role: str = ""
    stack: str = ""
    tool_name: str = ""
    reachable_from_tool: bool = False
    is_async: bool = False
    calls: set = field(default_factory=set)
    aliases: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # param -> CLI flags (`fmt` -> `--format`)
    switches: FrozenSet[str] = frozenset()  # params a CLI option declares on/off (`is_flag=True`, `--x/--no-x`)
    node: Any = field(default=None, repr=False)
    parent: Optional["FunctionInfo"] = field(default=None, repr=False)
    # project-model facts (errlint.project_model): qualified callees, callees whose value the function
    # returns, and per callee the exception classes a `try` around every call of it catches and
    # replaces (`extract.catching`)
    qualname: str = ""
    qcalls: set = field(default_factory=set)
    rets: set = field(default_factory=set)
    caught: Dict[str, FrozenSet[str]] = field(default_factory=dict)
    # per callee, the classes a `try` around some call of it catches and re-raises or uses (its text
    # may go on in what the handler sends)
    relayed: Dict[str, FrozenSet[str]] = field(default_factory=dict)
    # calls that may reach a project function, while the function is walked; then what each call's
    # arguments carry (`extract.call_arguments`), by callee
    call_nodes: list = field(default_factory=list, repr=False)
    call_args: Dict[str, list] = field(default_factory=dict)
    refs: list = field(default_factory=list)  # [name, callee] for each name passed as an argument of those calls (functions passed on)
    # the exception classes every tool reaching this function converts to the stack's ToolError around
    # its whole body (`extract.tool_error_converters`), by last name ("" for a catch-all)
    converted: FrozenSet[str] = frozenset()

    @property
    def param_names(self) -> Tuple[str, ...]:
        return tuple(p.name for p in self.params if p.name not in ("self", "cls"))

    def param(self, name: str) -> Optional[Param]:
        for p in self.params:
            if p.name == name:
                return p
        return None


@dataclass(frozen=True, eq=False)
class Handler:
    """An enclosing `except` clause.

    `types` are the qualified names caught ("" entries for a bare `except:`), `name` the bound name,
    `try_calls` the qualified callee names in the `try` body, `try_reads` the names their arguments read.
    """

    types: Tuple[str, ...]
    name: str = ""
    try_calls: Tuple[str, ...] = ()
    try_reads: FrozenSet[str] = frozenset()
    node: Any = field(default=None, repr=False)
    try_call_nodes: Tuple[Tuple[str, Any], ...] = field(default=(), repr=False)  # (callee, call) in the `try`
    guard_depth: int = 0  # how many guards enclose the `try` statement (the handler's own guards come after)
    earlier: Tuple[str, ...] = ()  # what the handlers before this one of the same `try` catch (they take those first)
    binding: Any = field(default=None, repr=False)  # the scope binding of `name` this clause makes (a `scope.Binding`)
    try_lookups: Tuple[Any, ...] = field(default=(), repr=False)  # `TABLE[key]` subscripts read in the `try`


@dataclass(frozen=True, eq=False)
class Guard:
    """A condition that leads to the sink: an `if` test (`negated` in its else branch), an `assert`,
    or a fall-through after `if x == "a": return ...` chains (`kind="fallthrough"`, `values` the
    literals already handled, `subject` the tested name)."""

    kind: str
    test: Any = field(default=None, repr=False)
    negated: bool = False
    subject: str = ""
    values: Tuple[str, ...] = ()


@dataclass(eq=False)
class Context:
    """Where a sink sits: enclosing function, handlers and guards (innermost first), and flags.

    `catching` lists the exception types caught by `try` blocks whose body holds the sink (in the
    same function); `replacing` the classes among them whose handler neither re-raises nor uses the
    exception, by last name ("" for a catch-all).
    """

    function: Optional[FunctionInfo] = None
    handlers: Tuple[Handler, ...] = ()
    guards: Tuple[Guard, ...] = ()
    class_name: str = ""
    in_debug_branch: bool = False
    exits_after: bool = False
    exit_code: Optional[int] = None
    catching: Tuple[str, ...] = ()
    replacing: FrozenSet[str] = frozenset()  # of those, the classes a handler replaces (`extract.catching`)
    after_retries: bool = False  # follows a loop that retried a transient failure (`transient.retry_loop`)


@dataclass(eq=False)
class Message:
    """One error message found in the code.

    `sink` is the sink kind (see `extract.sinks.SINK_KINDS`), `callee` the qualified name of what emits
    it, `profile` the audience, `templates` the text's variants (empty when the sink has no message;
    one opaque template when the text is unknown), `expr` the message expression, `node` the sink's
    call/raise/return node, `extra` sink-specific facts (is_error flag, status code, log level, ...).
    """

    sink: str
    callee: str
    profile: str
    templates: Tuple[Template, ...]
    expr: Any = field(default=None, repr=False)
    node: Any = field(default=None, repr=False)
    context: Context = field(default_factory=Context)
    extra: dict = field(default_factory=dict)
    scope: Any = field(default=None, repr=False)
    # Models computed once per message and read by the rules (see extract/provenance.py, guards.py)
    provenance: Any = field(default=None, repr=False)
    guard_facts: Any = field(default=None, repr=False)

    @property
    def template(self) -> Optional[Template]:
        return self.templates[0] if self.templates else None

    @property
    def anchor(self) -> Any:
        """The node a finding about this message is reported at: its first literal (the whole implicit
        concatenation it starts, `"Something went wrong. "\n"Please check your input."`), else the expr."""
        for template in self.templates:
            if template.pieces:
                return _concatenation_of(template.pieces[0].literal, self.expr) or template.pieces[0].literal
        return self.expr if self.expr is not None else self.node


@dataclass(frozen=True)
class ToolInfo:
    """A registered MCP tool: its name, function name, parameters and the stack that registered it."""

    name: str
    function: str
    params: Tuple[str, ...] = ()
    stack: str = ""
    server: str = ""


def _concatenation_of(literal: Any, expr: Any) -> Any:
    """The outermost implicit concatenation in `expr` that starts with `literal`, or None."""
    if expr is None or literal is None:
        return None
    from .extract import nodes
    import libcst as cst

    for node in nodes.iter_expr(expr):
        if node.__class__ is cst.ConcatenatedString:
            if node.left is not literal:  # libcst nests to the right: `left` is always one piece
                continue
            right, pieces = node.right, 2
            while right.__class__ is cst.ConcatenatedString and pieces <= MAX_PIECES:
                right, pieces = right.right, pieces + 1
            return node if pieces <= MAX_PIECES else None  # 1,000 pieces: reported at the first
    return None


MAX_PIECES = 64
