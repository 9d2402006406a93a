"""One file: bytes -> pre-filter -> parse -> messages -> rules -> noqa -> diagnostics.

Many files: `check_paths` runs `check_file` over each, in order; results are independent of which
other files are in the run except through the project's tool registry, which is built from the whole
project tree (not from the files passed in), so pre-commit's batching cannot change a result.
"""
from __future__ import annotations

import ast
import bisect
import builtins
import codecs
import io
import re
import sys
import tokenize
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState  # libcst exports no public name for it

from .checks.base import FileContext, Rule
from .checks.verdict import one_verdict
from .config import Settings, detect_versions
from . import project_model
from .extract.walker import extract
from .model import Applicability, Diagnostic, Edit, Finding, Fix, Level, Location
from .noqa import Suppressions
from .packs import Packs
from .registry import ignored_for, is_ignored

SINK_BYTES = (
    b"raise", b"print", b"exit", b"quit", b"write", b"echo", b"log", b"warn", b"error", b"exception",
    b"fail", b"abort", b"result", b"jsonrpc", b"iserror", b"is_error", b"validator", b"parameter",
    b"option", b"usage", b"info", b"debug", b"critical", b"fatal", b"modelretry", b"failure", b"fault",
    b"mcp", b"tool", b"response", b"jsonify",
)
LEAK_ONLY_ROLES = {"dunder"}
# Exception classes whose name declares an internal invariant ("this should be unreachable"): their
# messages are for the library's developers, so only leak rules apply (design: AssertionError trap).
INTERNAL_CLASS = re.compile(r"(Logic|Internal|Assertion|Unreachable|Invariant|Programming|Bug)(Error|Exception)?$")


@dataclass
class RunContext:
    """What every file of a run shares: settings, packs, enabled rules, tool registry, versions."""

    settings: Settings
    packs: Packs
    rules: List[Rule]
    registry: frozenset = frozenset()
    mcp_versions: Dict[str, str] = field(default_factory=dict)
    ignore_noqa: bool = False
    caught: frozenset = frozenset()  # exception classes the project catches by name (scan_caught_names)
    audiences: frozenset = frozenset()  # entry-point audiences the project may have (entry_points.audience_hints)
    scripts: Tuple[str, ...] = ()  # [project.scripts] targets
    locate_all: bool = False  # keep every audience-dependent message with its row (for --show-audience)
    reach: object = None  # the run's project model and reachability, once every file is extracted


@dataclass
class FileResult:
    """Diagnostics for one file, plus its text and the findings' fixes (for `--fix`)."""

    path: str
    diagnostics: List[Diagnostic]
    text: Optional[str] = None
    encoding: str = "utf-8"
    parsed: bool = True
    internal_error: bool = False
    # for the project pass: audience-independent diagnostics, audience-dependent variants
    # (project_audience), and the file's project facts (project_model.summarize)
    base: Optional[List[Diagnostic]] = None
    variants: List[dict] = field(default_factory=list)
    summary: Optional[dict] = None


# An HTTP error status in code (`return "Unknown widget", 404`, `abort(409)`, `status_code=422`) makes a
# sink with none of the words above: a route's error reply is known by its status.
ERROR_STATUS_BYTES = re.compile(rb"(?<![\w.])[45]\d\d(?![\w.])|status")


def may_contain_sink(data: bytes) -> bool:
    """Cheap pre-filter: a file with none of these words, and no HTTP error status, cannot hold a sink
    (tested on the stdlib and on each framework's error surface)."""
    lowered = data.lower()
    return any(token in lowered for token in SINK_BYTES) or ERROR_STATUS_BYTES.search(lowered) is not None


# Over this size a file is tokenized before libcst sees it: a data module (pydoc_data/topics.py,
# 0.75 MB of help text keyed by 'raise', 'print', ...) names sinks only inside its strings, and
# parsing it needs ~200 MB.
HUGE_FILE_BYTES = 256_000
# The only sinks a plain string literal can make are dict keys: {"isError": True}, {"jsonrpc": ...,
# "error": ...}, a tool's {"error": ...}; every other sink is named by code.
SINK_KEY = re.compile(r"^[rRbBuU]*(['\"])(?:iserror|is_error|jsonrpc|error)\1$", re.I)


def code_may_contain_sink(data: bytes) -> bool:
    """The pre-filter applied to the code with plain string literals left out, except sink keys
    (f-strings and comments kept). Unreadable tokens: True (let the full path decide)."""
    kept: List[str] = []
    try:
        for token in tokenize.tokenize(io.BytesIO(data).readline):
            if token.type == tokenize.ERRORTOKEN:
                return True
            if token.type == tokenize.STRING and "f" not in token.string.split("'")[0].split('"')[0].lower() and not SINK_KEY.match(token.string):
                continue
            kept.append(token.string)
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError, ValueError):
        return True
    return may_contain_sink(" ".join(kept).encode("utf-8", "surrogatepass"))


# Larger files get AEM001 without being parsed: libcst needs about 7 s and 400 MB per MB of dense
# code, so a 20 MB generated file would take minutes and gigabytes (the largest stdlib file is 0.8 MB).
MAX_FILE_BYTES = 5_000_000


def check_file(path: str, data: bytes, run: RunContext, display: Optional[str] = None) -> FileResult:
    """Check one file's bytes. Never raises: bad input becomes AEM001, a bug in errlint AEM000.

    The result keeps `path` (fixes are written there); diagnostics carry `display`, by default
    `path` with the bytes of a non-UTF-8 file name escaped, so every output format can print it.
    Literal secrets in any diagnostic's text are masked, whichever rule quoted them.
    """
    name = display or display_name(path)
    try:
        result = _check_bytes(name, data, run)
    except (KeyboardInterrupt, SystemExit):
        raise
    except RecursionError:
        result = FileResult(name, [_with_filename(_nested_diagnostic(), name)], None, parsed=False)
    except BaseException as exc:  # a bug outside the rules (extraction, locating): this file only
        result = FileResult(name, [_crash(name, exc)], None, parsed=False, internal_error=True)
    result.path = path
    if not result.parsed and result.diagnostics and not run.ignore_noqa:
        result.diagnostics = _file_noqa(data, result.diagnostics)
    result.diagnostics = [_redact(d) for d in result.diagnostics]
    if result.base is not None:  # the project pass picks among these: mask them too
        result.base = [_redact(d) for d in result.base]
        for record in result.variants:
            record["by"] = {key: [_redact(d) for d in found] for key, found in record["by"].items()}
    return result


def _file_noqa(data: bytes, diagnostics: List[Diagnostic]) -> List[Diagnostic]:
    """A file errlint could not parse still honours a file-level noqa: flake8 skips a file with a
    `# flake8: noqa` line before it tokenizes it (a Jinja template named `.py`, say), and
    `# errlint: noqa: AEM001` turns the code off for the file."""
    if b"noqa" not in data.lower():
        return diagnostics
    suppressions = Suppressions(data.decode("utf-8", errors="replace"))
    return [d for d in diagnostics if not suppressions.file_suppresses(d.code)]


def _check_bytes(name: str, data: bytes, run: RunContext) -> FileResult:
    if len(data) > MAX_FILE_BYTES:
        return FileResult(name, [_with_filename(too_large(len(data)), name)], None, parsed=False)
    # CPython decides what is a broken file, before libcst sees it: compile() also rejects what only
    # its compiler checks (`return` outside a function), and input nested deeper than CPython
    # allows can overflow the stack of libcst's native parser, which kills the process.
    problem = _compile_problem(data)
    if problem is not None:
        broken, grammar_only = problem
        parsed = parse(data) if grammar_only else broken
        if isinstance(parsed, Diagnostic) or not _newer_syntax_on(parsed[0], broken.location.row):
            return FileResult(name, [_with_filename(broken, name)], None, parsed=False)
        # Only this Python's grammar rejects the file, at a construct of a newer Python that libcst
        # parses (a PEP 701 f-string checked on 3.11): the file targets that Python; check it.
        return analyse(name, parsed[0], parsed[1], run)
    noqa_check = b"noqa" in data.lower() and any(r.code == "AEM002" for r in run.rules)
    if not noqa_check and (not may_contain_sink(data) or len(data) > HUGE_FILE_BYTES and not code_may_contain_sink(data)):
        if len(data) <= HUGE_FILE_BYTES and (b"def " in data or b"import" in data):
            return _facts_only(name, data, run)  # no message here, but its calls and imports link the project
        return FileResult(name, [], None)  # no sink can be here: skip libcst
    parsed = parse(data)
    if isinstance(parsed, Diagnostic):
        return FileResult(name, [_with_filename(parsed, name)], None, parsed=False)
    module, text = parsed
    return analyse(name, module, text, run)


def _facts_only(name: str, data: bytes, run: RunContext) -> FileResult:
    """A file that holds no message: only its project facts (functions, calls, imports, tables)."""
    parsed = parse(data)
    if isinstance(parsed, Diagnostic):
        return FileResult(name, [_with_filename(parsed, name)], None, parsed=False)
    try:
        facts = extract(parsed[0], run.settings.logger_objects)
    except RecursionError:
        return FileResult(name, [], None)
    return FileResult(name, [], None, base=[], summary=project_model.summarize(facts))


def display_name(path: str) -> str:
    """`path` with the undecodable bytes of a non-UTF-8 file name (lone surrogates in Python, which
    no UTF-8 writer accepts) shown as `\\xNN`."""
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        try:
            return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        except UnicodeEncodeError:
            return path.encode("utf-8", "backslashreplace").decode("utf-8")


def _redact(d: Diagnostic) -> Diagnostic:
    from dataclasses import replace

    from .checks.leaks import LITERAL_SECRETS, mask

    message = LITERAL_SECRETS.sub(lambda m: mask(m.group(0)), d.message)
    suggestion = LITERAL_SECRETS.sub(lambda m: mask(m.group(0)), d.suggestion)
    if message == d.message and suggestion == d.suggestion:
        return d
    return replace(d, message=message, suggestion=suggestion)


def parse(data: bytes):
    """(module, text) or an AEM001 `Diagnostic` (filename left empty) at Python's position.

    `text` is the file decoded with the encoding libcst detected (BOM removed). It is not
    `module.code`: libcst drops form feeds and a CR-only file's last newline, and positions and
    fixes must refer to the file as it is on disk.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = cst.parse_module(data)
        return module, _decode(data, module.encoding)
    except RecursionError:
        return _syntax_diagnostic(data, "expression too deeply nested for errlint's parser")
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # libcst raises ParserSyntaxError, SyntaxError, UnicodeError, and Rust panics
        return _syntax_diagnostic(data, _libcst_reason(exc), _libcst_position(exc))


def _decode(data: bytes, encoding: str) -> str:
    name = encoding.lower().replace("_", "-")
    try:
        return data.decode("utf-8-sig" if name in ("utf-8", "utf8", "utf-8-sig") else encoding)
    except (LookupError, UnicodeDecodeError):
        return data.decode("utf-8", errors="replace")


def _libcst_position(exc: BaseException) -> Tuple[int, int]:
    """Where libcst's parser stopped: its message's "error at LINE:COL" (COL 0-based) is nearer the
    problem than `raw_line`, which can point at the next statement (LibCST #1112)."""
    found = re.search(r"error at (\d+):(\d+)", str(exc))
    if found:
        return int(found.group(1)), int(found.group(2)) + 1
    if isinstance(exc, cst.ParserSyntaxError):
        return exc.raw_line, exc.raw_column + 1
    return 1, 1


def _libcst_reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    detail = next((line for line in text if line.startswith("parser error:")), None)
    if detail:  # "parser error: error at 3:8: expected one of ..." (the position is reported apart)
        return re.sub(r"^parser error: (error at \d+:\d+: )?", "", detail)[:200]
    first = text[0] if text else type(exc).__name__
    return first[:200]


_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*(?P<name>[-\w.]+)")


class _Unreadable(Exception):
    """The source cannot be decoded: the reason and Python's (row, column) for it."""

    def __init__(self, reason: str, row: int, col: int):
        super().__init__(reason)
        self.reason, self.row, self.col = reason, row, col


def source_text(data: bytes) -> str:
    """`data` decoded as CPython decodes a source file (BOM, else a PEP 263 cookie on line 1 or 2,
    else UTF-8), BOM removed. Raises _Unreadable at the first undecodable byte or at the cookie."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if "encoding declaration" not in exc.msg:  # an unknown cookie, or one contradicting the BOM
            row, col = _cookie_position(data)
            if exc.msg.startswith("encoding problem"):
                reason = "the file starts with a UTF-8 byte order mark but its coding cookie names another encoding"
            else:
                reason = f"the coding cookie names an {exc.msg}"  # "unknown encoding: klingon"
            raise _Unreadable(reason, row, col) from None
        # bytes tokenize cannot decode in the first two lines; CPython reads the cookie from bytes
        encoding = _cookie(data) or "utf-8"
    codec = "utf-8-sig" if encoding in ("utf-8", "utf-8-sig") else encoding
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        row, col = _position(data[: exc.start].decode(codec, errors="replace"))
        if codec == "utf-8-sig":
            reason = f"byte 0x{data[exc.start]:02x} is not valid UTF-8 and no coding cookie (PEP 263) names another encoding"
        else:
            reason = f"byte 0x{data[exc.start]:02x} is not valid {encoding}, the encoding its coding cookie names"
        raise _Unreadable(reason, row, col) from None
    except LookupError as exc:
        row, col = _cookie_position(data)
        raise _Unreadable(f"the coding cookie names no text encoding ({exc})", row, col) from None


def _cookie(data: bytes) -> Optional[str]:
    for line in data[3:].splitlines()[:2] if data.startswith(codecs.BOM_UTF8) else data.splitlines()[:2]:
        found = _COOKIE.match(line)
        if found:
            try:
                return codecs.lookup(found.group("name").decode("ascii")).name
            except (LookupError, UnicodeDecodeError):
                return None
        if line.strip() and not line.lstrip().startswith(b"#"):
            break
    return None


def _cookie_position(data: bytes) -> Tuple[int, int]:
    for row, line in enumerate((data[3:] if data.startswith(codecs.BOM_UTF8) else data).splitlines()[:2], 1):
        found = _COOKIE.match(line)
        if found:
            return row, found.start("name") + 1
    return 1, 1


def _position(before: str) -> Tuple[int, int]:
    """1-based (row, column) just after `before`, counting \\r\\n, \\r and \\n as line ends."""
    lines = re.split(r"\r\n|\r|\n", before)
    return len(lines), len(lines[-1]) + 1


def python_syntax_error(data: bytes) -> Optional[Diagnostic]:
    """AEM001 at Python's position when the running interpreter cannot compile `data`, else None."""
    problem = _compile_problem(data)
    return problem[0] if problem is not None else None


_NESTING_LIMITS = ("too many nested parentheses", "too many levels of indentation", "too complex")


def _compile_problem(data: bytes) -> Optional[Tuple[Diagnostic, bool]]:
    """None when the running interpreter compiles `data`, else (AEM001, grammar_only): whether only
    the parser refused it (a plain syntax error, not a decoding, nesting or compiler-stage one).

    The bytes decide, exactly as for `python FILE` (CPython 3.11 lets undecodable bytes pass in a
    comment, for one). The position comes from compiling the decoded text: for bytes CPython 3.11
    reports columns as UTF-8 byte offsets, unless the file has a BOM.
    """
    try:
        _compile(data)
        return None
    except (KeyboardInterrupt, SystemExit):
        raise
    except (RecursionError, MemoryError):  # also CPython's "too complex" parser stack overflow
        return _aem001("expressions nested too deeply for Python's compiler", 1, 1), False
    except BaseException as exc:
        first = exc
    try:
        text = source_text(data)
    except _Unreadable as exc:
        if isinstance(first, SyntaxError) and (first.lineno or 0) < 1 or "decode" in str(first):
            return _aem001(f"cannot decode the file: {exc.reason}", exc.row, exc.col), False
        text = data.decode("utf-8", errors="replace")  # Python's error is elsewhere: find it
    try:
        _compile(text)
    except (KeyboardInterrupt, SystemExit):
        raise
    except SyntaxError as exc:
        first = exc
    except BaseException:
        pass
    if "\0" in text and (getattr(first, "lineno", None) is None or "null bytes" in str(first)):  # no position before 3.12
        row, col = _position(text[: text.index("\0")])
        return _aem001("the file contains a NUL byte", row, col), False
    if not isinstance(first, SyntaxError):  # pragma: no cover - any other compiler failure still becomes AEM001
        return _aem001(f"Python cannot compile the file ({type(first).__name__}: {first})"[:200], 1, 1), False
    reason = first.msg or "invalid syntax"
    row, col = first.lineno or 1, first.offset or 1
    if reason.startswith("EOF while scanning triple-quoted"):  # Python 3.9 reports the end of the file
        row, col, reason = _unterminated_string(text, row, col, reason)
    elif reason.startswith("Missing parentheses in call to "):  # 3.9 points past the statement, 3.10+ at its name
        line = re.split(r"\r\n|\r|\n", text)[row - 1] if row <= text.count("\n") + 1 else ""
        name = re.search(r"\b(?:print|exec)\b", line)
        if name is not None and name.start() < col:
            col = name.start() + 1
    grammar_only = (type(first) is SyntaxError and not any(s in reason for s in _NESTING_LIMITS)
                    and _newer_hint(text, row) and not _parses(text))
    return _aem001(reason, row, col), grammar_only


def _unterminated_string(text: str, row: int, col: int, reason: str) -> Tuple[int, int, str]:
    """Where an unterminated triple-quoted string starts, in Python 3.10+'s words: 3.9 places the
    error past the end of the file, where no editor can jump to."""
    try:
        for _ in tokenize.generate_tokens(io.StringIO(text).readline):
            pass
    except tokenize.TokenError as exc:
        if len(exc.args) > 1 and "string" in str(exc.args[0]):
            start_row, start_col = exc.args[1]
            return start_row, start_col + 1, f"unterminated triple-quoted string literal (detected at line {row})"
    except (SyntaxError, ValueError):
        pass
    return row, col, reason


# Text of the constructs `_newer_syntax_on` looks for (f/t-strings, `type X =`, `def f[T]`, `match`,
# `except*`, `except A, B:`), near Python's error: only then is libcst asked to parse a file Python rejects.
_NEWER_TEXT = re.compile(r"""(?i:\b[rb]?[ft][rb]?["'])|^\s*type\s+\w|\b(?:def|class)\s+\w+\s*\[|^\s*(?:match|case)\b|\bexcept\s*\*|^\s*except\s+[\w.]+\s*,""", re.M)


def _newer_hint(text: str, row: int) -> bool:
    lines = re.split(r"\r\n|\r|\n", text, maxsplit=row)[max(row - 6, 0):row]
    return bool(_NEWER_TEXT.search("\n".join(lines)))


def _compile(source) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile(source, "<errlint>", "exec", dont_inherit=True)


def _newer_syntax_on(module: cst.Module, row: int) -> bool:
    """Whether line `row` lies in a construct the running Python's grammar does not have."""
    from libcst.metadata import PositionProvider

    newer = [(3, 10, "Match"), (3, 11, "TryStar"), (3, 12, "FormattedString"), (3, 12, "TypeAlias"),
             (3, 12, "TypeParameters"), (3, 14, "TemplatedString")]
    kinds = tuple(getattr(cst, n) for major, minor, n in newer if sys.version_info < (major, minor) and hasattr(cst, n))
    bare_except_tuples = sys.version_info < (3, 14)
    if not kinds and not bare_except_tuples:
        return False
    try:
        positions = cst.MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    except RecursionError:
        return False
    # CPython before 3.12 reports an f-string's error at a line near it, not on it (the closing
    # parenthesis of the call that holds it, say), so a construct within two lines counts.
    return any((isinstance(node, kinds) or bare_except_tuples and _pep758_except(node))
               and where.start.line - 2 <= row <= where.end.line + 2
               for node, where in positions.items())


def _pep758_except(node: cst.CSTNode) -> bool:
    """`except A, B:` without brackets (PEP 758, Python 3.14). Python 2's `except E, e:` (a class and
    a lower-case name to bind) is not: it is old code, not new."""
    if not isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)) or node.name is not None:
        return False
    types = node.type
    if not isinstance(types, cst.Tuple) or types.lpar:
        return False
    values = [el.value for el in types.elements]
    return not (len(values) == 2 and isinstance(values[1], cst.Name) and values[1].value[:1].islower())


def _parses(text: str) -> bool:
    """Whether CPython's parser alone accepts `text` (then its compiler stage refused it)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
        return True
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:
        return False


def _syntax_diagnostic(data: bytes, fallback_reason: str, at: Tuple[int, int] = (1, 1)) -> Diagnostic:
    """AEM001 for a file libcst could not parse: at Python's position when Python rejects it too
    (libcst's position can be off, LibCST #1112), else at `at` naming the libcst limitation."""
    broken = python_syntax_error(data)
    if broken is not None:
        return broken
    return _aem001(f"libcst cannot parse this file although Python can ({fallback_reason})", *at)


def _aem001(reason: str, row: int, col: int) -> Diagnostic:
    where = Location(max(row, 1), max(col, 1))
    return Diagnostic(
        code="AEM001",
        name="syntax-error",
        message=f"{reason}{' ' if reason.endswith(('?', '!', '.')) else '; '}errlint skipped this file".replace("\x00", "\\x00"),
        filename="",
        location=where,
        end_location=where,
        level=Level.ERROR,
        suggestion=f"Fix the syntax error (`python -m py_compile FILE` shows it), then run errlint again; errlint "
                   f"checks with Python {sys.version_info[0]}.{sys.version_info[1]}, so run it with the Python the file needs.",
    )


def too_large(size: int) -> Diagnostic:
    """AEM001 for a file over MAX_FILE_BYTES (filename left empty)."""
    from dataclasses import replace

    diagnostic = _aem001(f"the file is {size / 1e6:.1f} MB, over errlint's {MAX_FILE_BYTES / 1e6:.1f} MB limit", 1, 1)
    return replace(diagnostic, suggestion="Exclude it (generated code, data) with --extend-exclude, or split it.")


def _crash(name: str, exc: BaseException) -> Diagnostic:
    where = Location(1, 1)
    return Diagnostic(
        "AEM000", "internal-error", f"internal error while checking this file: {type(exc).__name__}: {exc}"[:300], name,
        where, where, Level.ERROR,
        "Please report it with this file at https://github.com/errlint/errlint/issues; meanwhile exclude the file with --extend-exclude.",
    )


def _with_filename(diagnostic: Diagnostic, name: str) -> Diagnostic:
    from dataclasses import replace

    return replace(diagnostic, filename=name)


def analyse(name: str, module: cst.Module, text: str, run: RunContext) -> FileResult:
    """Run the enabled rules on a parsed module and locate their findings.

    A message whose audience depends on the rest of the project (a raise; error text a helper
    returns) is judged under each audience it can get; the variants are kept on the result, and its
    diagnostics are those the file alone gives (`project_audience.finish` re-judges with the whole
    project)."""
    from . import project_audience as finish
    from .project_audience import variant_kind

    suppressions = Suppressions(text)
    if suppressions.file_codes is not None and suppressions.file_codes == "ALL" and not run.ignore_noqa:
        return FileResult(name, [], text)
    ignored = ignored_for(name, run.settings)
    rules = [r for r in run.rules if not is_ignored(r.code, r.name, ignored)]
    if not rules:
        return FileResult(name, [], text)
    try:
        facts = extract(module, run.settings.logger_objects)
    except RecursionError:
        return FileResult(name, [_with_filename(_nested_diagnostic(), name)], None, parsed=False)
    registry = run.registry | frozenset(t.name for t in facts.tools)
    caught = run.caught | scan_caught_names(text)
    ctx = FileContext(name, facts, run.packs, registry, run.mcp_versions, run.settings.extra_next_step_verbs, text, caught=caught)
    summary = project_model.summarize(facts)
    local = None
    findings: Dict[object, List[Tuple[Rule, Finding]]] = {None: []}
    internal: List[Diagnostic] = []
    variants: List[dict] = []
    for index, message in enumerate(facts.messages):
        function = message.context.function
        leak_only = function is not None and function.role in LEAK_ONLY_ROLES or bool(INTERNAL_CLASS.search(message.callee))
        # a log line right before a raise or error return is judged with it, at the statement the
        # reader sees; only a leak in the log line itself is still its own finding
        leak_only = leak_only or bool(message.extra.get("paired")) and message.sink in ("log", "notify")
        kind = variant_kind(message)
        if kind is None:
            _run_rules(message, rules, ctx, leak_only, findings[None], internal, name)
            continue
        record = {"i": index, "fn": "<main>" if message.extra.get("main") else function.qualname if function is not None else "", "kind": kind, "by": {}}
        if kind == "reply":
            audiences: Sequence[str] = ("reply",)
        elif kind == "sink":
            record["fixed"], record["fallback"] = message.profile, finish.unreached_audience(message)
            audiences = (record["fixed"], record["fallback"])
        else:
            if local is None:
                local = finish.local_reach(name, summary, run)
            record["signal"] = finish.handled_signal(message, caught)
            record["local"] = finish.local_audience(local, name, record)
            audiences = sorted(set(run.audiences) | {"exc", record["local"]})
        original = message.profile
        for audience in audiences:
            message.profile = "agent" if audience == "reply" else audience
            group = findings.setdefault((index, audience), [])
            _run_rules(message, rules, ctx, leak_only, group, internal, name)
        message.profile = original
        record["node"] = message.node
        variants.append(record)
    for rule in rules:
        try:
            for finding in rule.check_file(ctx):
                findings[None].append((rule, finding))
        except Exception as exc:
            internal.append(_internal(name, rule, exc))
    locator = Locator(text, module, [m.node for m in facts.messages])
    base: List[Diagnostic] = []
    by_index: Dict[int, Dict[str, List[Diagnostic]]] = {}
    for group, found in findings.items():
        out = base if group is None else by_index.setdefault(group[0], {}).setdefault(group[1], [])
        audience = None if group is None else group[1]
        for rule, finding in most_specific(found):
            diagnostic = _locate(rule, finding, locator, suppressions, run, name, audience)
            if diagnostic is not None:
                out.append(diagnostic)
    kept = []
    for record in variants:
        record["by"] = by_index.get(record["i"], {})
        node = record.pop("node")
        if any(record["by"].values()) or run.locate_all:
            record["row"] = locator.position(locator.span(node)[0])[0] if run.locate_all else 0
            kept.append(record)
    base.extend(internal)
    if any(r.code == "AEM002" for r in rules) and not run.ignore_noqa:
        enabled = tuple(r.code for r in rules)
        base.extend(unused_noqa(name, suppressions, locator, next(r for r in rules if r.code == "AEM002"), enabled))
    result = FileResult(name, [], text, encoding=module.encoding, internal_error=bool(internal), base=base, variants=kept, summary=summary)
    result.diagnostics = dedupe(finish.judge_alone(result, run, local))
    return result


def _run_rules(message, rules: Sequence[Rule], ctx: FileContext, leak_only: bool, out: List[Tuple[Rule, Finding]], internal: List[Diagnostic], name: str) -> None:
    for rule in rules:
        if not rule.applies(message) or leak_only and rule.code[3] != "3":
            continue
        try:
            for finding in rule.check(message, ctx):
                out.append((rule, finding))
        except RecursionError:
            continue
        except Exception as exc:  # one rule's bug must not stop the others (issue: never crash)
            internal.append(_internal(name, rule, exc))


def _locate(rule: Rule, finding: Finding, locator: "Locator", suppressions: Suppressions, run: RunContext, name: str, audience: Optional[str]) -> Optional[Diagnostic]:
    subject = finding.subject
    sink = subject.node if subject is not None else None
    start, end = locator.within_sink(finding.anchor, subject)
    row, col = locator.position(start)
    end_row, end_col = locator.position(end)
    if not run.ignore_noqa and (suppressions.file_suppresses(finding.code) or suppressions.suppresses(finding.code, row)):
        return None
    if audience is None:
        audience = subject.profile if subject is not None else ""
    return Diagnostic(
        code=finding.code,
        name=rule.name,
        message=finding.message,
        filename=name,
        location=Location(row, col),
        end_location=Location(end_row, end_col),
        level=rule.LEVEL,
        suggestion=finding.suggestion,
        fix=locator.resolve_fix(finding.fix, sink),
        url=rule.url,
        noqa_row=suppressions.group(row)[1] if suppressions.has_noqa else row,
        audience=audience,
    )


def unused_noqa(name: str, suppressions: Suppressions, locator: "Locator", rule: Rule, enabled: Sequence[str]) -> List[Diagnostic]:
    """AEM002: AEM codes listed in a `# noqa:` comment that suppressed nothing, with a safe fix that
    removes them (or the whole comment when nothing else is listed). Bare `# noqa` and other tools'
    codes are left alone: errlint cannot know what they are for."""
    out: List[Diagnostic] = []
    for row, start, end, listed in suppressions.comments():
        if not listed:
            continue
        used = suppressions.used.get(row, set())
        unused = sorted(c for c in listed if c.startswith("AEM") and c not in used and any(e.startswith(c) for e in enabled))
        if not unused:
            continue
        line_start = locator.starts[row - 1]
        line = suppressions.lines[row - 1]
        body_end = len(line.rstrip("\r\n"))
        end = min(end, body_end)
        keep = [c for c in sorted(listed) if c not in unused]
        if keep:
            codes_at = line.index(":", start) + 1
            edit = Edit(line_start + codes_at, line_start + end, " " + ", ".join(keep))
            title = f"Remove unused {', '.join(unused)} from the noqa comment"
        else:
            lead = len(line[:start]) - len(line[:start].rstrip(" \t"))
            edit = Edit(line_start + start - lead, line_start + end, "")
            title = "Remove the unused noqa comment"
        r1, c1 = locator.position(edit.start)
        r2, c2 = locator.position(edit.end)
        edit = Edit(edit.start, edit.end, edit.content, Location(r1, c1), Location(r2, c2))
        where = Location(row, start + 1)
        out.append(Diagnostic(
            code="AEM002", name=rule.name, message=f"unused noqa code{'s' if len(unused) > 1 else ''} {', '.join(unused)}: nothing on this line is reported",
            filename=name, location=where, end_location=Location(row, end + 1), level=rule.LEVEL,
            suggestion=f"Remove {', '.join(unused)} from the comment.", fix=Fix(Applicability.SAFE, title, (edit,)), url=rule.url, noqa_row=row,
        ))
    return out


def _internal(name: str, rule: Rule, exc: Exception) -> Diagnostic:
    where = Location(1, 1)
    return Diagnostic(
        code="AEM000",
        name="internal-error",
        message=f"internal error in rule {rule.code} ({rule.name}) on this file: {type(exc).__name__}: {exc}"[:300],
        filename=name,
        location=where,
        end_location=where,
        level=Level.ERROR,
        suggestion=f"Please report it with this file at https://github.com/errlint/errlint/issues; meanwhile run with --ignore {rule.code}.",
    )


def _nested_diagnostic() -> Diagnostic:
    where = Location(1, 1)
    return Diagnostic("AEM001", "syntax-error", "expression too deeply nested for errlint to analyse; errlint skipped this file", "", where, where, Level.ERROR, "Split the expression into smaller statements.")


def most_specific(findings: List[Tuple[Rule, Finding]]) -> List[Tuple[Rule, Finding]]:
    """One message, one clear verdict: the findings each message keeps (`checks.verdict`)."""
    return one_verdict(findings)  # type: ignore[return-value]


def dedupe(diagnostics: List[Diagnostic]) -> List[Diagnostic]:
    seen = set()
    out = []
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        key = (d.code, d.location, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


class Locator:
    """Source positions of nodes, computed only for the nodes that need one.

    A node's source text is found in the file when it occurs exactly once. A sink whose text
    repeats (the same `raise ValueError("bad")` twice) is placed by order: when the file holds
    exactly as many copies as the walk met such sinks, the j-th one met is the j-th copy. Only
    when both fail does one codegen pass over the module record the offsets of every node
    (instead of libcst's PositionProvider, which costs about twice the parse).
    """

    def __init__(self, text: str, module: cst.Module, sinks: Sequence[cst.CSTNode] = ()):
        """`sinks`: the sink nodes in the order the walker met them (source order)."""
        self.text = text
        self.module = module
        self.starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
        self.sinks = sinks
        self._ordinal: Optional[Dict[int, Tuple[int, int]]] = None
        self._offsets: Optional[Dict[int, Tuple[int, int]]] = None

    def span(self, anchor, within=None) -> Tuple[int, int]:
        """(start, end) offsets of `anchor`. When its text is not unique in the file, it is looked
        for inside `within` (the sink's node) before falling back to one codegen pass."""
        if isinstance(anchor, tuple):
            return anchor
        if anchor is None:
            return (0, 0)
        code = self._code(anchor)
        if code is None:
            return (0, 0)
        start = self._only(code)
        if start is None and within is not None:
            region = self._region(within)
            if region is not None:
                start = self._only(code, *region)
        if start is not None:
            return _trim_parens(anchor, start, start + len(code), self.module)
        found = self._all_offsets(anchor).get(id(anchor))
        if found is None:
            first = max(self.text.find(code), 0)
            return (first, first + len(code))
        return _trim_parens(anchor, found[0], found[1], self.module)

    def within_sink(self, anchor, message=None) -> Tuple[int, int]:
        """(start, end) of `anchor`, kept inside the sink of `message` so that a finding sits at the
        sink's line (where `# noqa` goes), never at a module constant or variable its text came from:
        when the anchor lies outside the sink, the first of the message's literals inside it is used,
        else its message expression, else the sink itself."""
        sink = message.node if message is not None else None
        start, end = self.span(anchor, sink)
        if sink is None or isinstance(anchor, tuple):
            return start, end
        region = self.region(sink)
        if region is None or region[0] <= start and end <= region[1]:
            return start, end
        candidates = [p.literal for t in message.templates for p in t.pieces] + [message.expr, sink]
        for node in candidates:
            if node is None:
                continue
            at = self.span(node, sink)
            if region[0] <= at[0] and at[1] <= region[1]:
                return at
        return start, end

    def region(self, node) -> Optional[Tuple[int, int]]:
        """(start, end) of a sink node, or None when it cannot be placed."""
        found = self._region(node)
        if found is None:
            found = self._all_offsets(node).get(id(node))
        return found

    def _only(self, code: str, lo: int = 0, hi: Optional[int] = None) -> Optional[int]:
        """Where `code` starts when it occurs exactly once in text[lo:hi], else None."""
        hi = len(self.text) if hi is None else hi
        first = self.text.find(code, lo, hi)
        if first < 0 or self.text.find(code, first + 1, hi) >= 0:
            return None
        return first

    def _code(self, node) -> Optional[str]:
        try:
            return self.module.code_for_node(node)
        except RecursionError:
            return None

    def _region(self, node) -> Optional[Tuple[int, int]]:
        code = self._code(node)
        if code is None:
            return None
        first = self._only(code)
        if first is not None:
            return first, first + len(code)
        return self._ordinals().get(id(node))

    def _ordinals(self) -> Dict[int, Tuple[int, int]]:
        if self._ordinal is None:
            groups: Dict[str, List[cst.CSTNode]] = {}
            seen: Set[int] = set()
            for node in self.sinks:
                if id(node) not in seen:
                    seen.add(id(node))
                    code = self._code(node)
                    if code:
                        groups.setdefault(code, []).append(node)
            self._ordinal = {}
            for code, group in groups.items():
                # same type and as many copies as nodes: no copy is a comment, string or nested node
                copies = self._copies(code)
                if len(group) > 1 and len({type(n) for n in group}) == 1 and len(copies) == len(group):
                    for node, at in zip(group, copies):
                        self._ordinal[id(node)] = (at, at + len(code))
        return self._ordinal

    def _copies(self, code: str) -> List[int]:
        """Starts of the copies of `code` that are not the front of a longer expression (`raise E`
        inside `raise E(...)` or `raise E.x` is not a copy)."""
        found, at = [], self.text.find(code)
        while at >= 0:
            end = at + len(code)
            if end >= len(self.text) or not (self.text[end].isalnum() or self.text[end] in "_(.["):
                found.append(at)
            at = self.text.find(code, end)
        return found

    def _all_offsets(self, anchor) -> Dict[int, Tuple[int, int]]:
        if self._offsets is None:
            state = _OffsetState(default_indent=self.module.default_indent, default_newline=self.module.default_newline)
            try:
                self.module._codegen(state)
            except RecursionError:
                pass
            self._offsets = state.found
        return self._offsets

    def position(self, offset: int) -> Tuple[int, int]:
        row = bisect.bisect_right(self.starts, offset)
        col = offset - self.starts[row - 1] + 1
        return row, col

    def resolve_fix(self, fix: Optional[Fix], within=None) -> Optional[Fix]:
        """Absolute offsets and positions for a fix's edits (nodes looked for inside `within`, the
        sink); None when a node's text is not where the locator found it (then no edit can be
        trusted)."""
        if fix is None:
            return None
        edits = []
        for edit in fix.edits:
            start, end = edit.start, edit.end
            if edit.node is not None:
                base, _ = self.span(edit.node, within)
                expected = _bare(edit.node, self.module)
                if self.text[base:base + len(expected)] != expected:
                    return None
                start, end = base + edit.start, base + edit.end
            r1, c1 = self.position(start)
            r2, c2 = self.position(end)
            edits.append(Edit(start, end, edit.content, Location(r1, c1), Location(r2, c2)))
        return Fix(fix.applicability, fix.title, tuple(edits))


class _OffsetState(CodegenState):
    """Codegen that only counts characters and records where each node starts and ends."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.offset = 0
        self.found: Dict[int, Tuple[int, int]] = {}
        self._open: Dict[int, int] = {}

    def add_token(self, value: str) -> None:
        self.offset += len(value)

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.offset += len(token)

    def pop_trailing_newline(self) -> None:
        pass

    def before_codegen(self, node) -> None:
        self._open[id(node)] = self.offset

    def after_codegen(self, node) -> None:
        start = self._open.pop(id(node), self.offset)
        self.found[id(node)] = (start, self.offset)


def _bare(node, module: cst.Module) -> str:
    if getattr(node, "lpar", ()) or getattr(node, "rpar", ()):
        node = node.with_changes(lpar=[], rpar=[])
    return module.code_for_node(node)


def _trim_parens(node, start: int, end: int, module: cst.Module) -> Tuple[int, int]:
    """Report a parenthesized node at its own first character, not at its `(`."""
    lpar = getattr(node, "lpar", ())
    rpar = getattr(node, "rpar", ())
    if lpar:
        start += sum(len(module.code_for_node(p)) for p in lpar)
    if rpar:
        end -= sum(len(module.code_for_node(p)) for p in rpar)
    return start, max(start, end)


# ---------------------------------------------------------------------- project-wide facts

_TOOL_DECORATOR = re.compile(
    rb"@[\w.]+\.tool\b(?P<args>\([^)]*\))?[^\n]*\n(?:[ \t]*@[^\n]*\n)*[ \t]*(?:async[ \t]+)?def[ \t]+(?P<fn>\w+)"
)
_TOOL_CALL = re.compile(rb"(?:add_tool|Tool\.from_function)\(\s*(?P<fn>\w+)(?P<rest>[^)]*)\)")
_TOOL_DECL = re.compile(rb"\bTool\(\s*name\s*=\s*[\"'](?P<name>[\w.-]+)[\"']")
_NAME_KW = re.compile(rb"name\s*=\s*[\"'](?P<name>[\w.-]+)[\"']")


def scan_tool_names(data: bytes) -> List[str]:
    """Tool names registered in a file, found with regular expressions (no parse): `@x.tool` and
    `@x.tool(name=...)` decorators, `add_tool(fn, name=...)`, `Tool.from_function(fn)`, `Tool(name=...)`."""
    if b"tool" not in data.lower():
        return []
    out: List[str] = []
    for match in _TOOL_DECORATOR.finditer(data):
        named = _NAME_KW.search(match.group("args") or b"")
        out.append((named.group("name") if named else match.group("fn")).decode("ascii", "replace"))
    for match in _TOOL_CALL.finditer(data):
        named = _NAME_KW.search(match.group("rest"))
        out.append((named.group("name") if named else match.group("fn")).decode("ascii", "replace"))
    for match in _TOOL_DECL.finditer(data):
        out.append(match.group("name").decode("ascii", "replace"))
    return out


_EXCEPT = re.compile(r"^[ \t]*except\*?[ \t]*\(?[ \t]*([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*)", re.M)
_BUILTIN_NAMES = frozenset(dir(builtins))


def scan_caught_names(text: str) -> frozenset:
    """Exception classes caught by name in a file (`except X`, `except (X, Y) as e`), last name only,
    builtins left out; found with a regular expression (no parse)."""
    if "except" not in text:
        return frozenset()
    names = set()
    for match in _EXCEPT.finditer(text):
        for part in match.group(1).split(","):
            last = part.strip().rsplit(".", 1)[-1]
            if last and last not in _BUILTIN_NAMES:
                names.add(last)
    return frozenset(names)


def project_registry(files: Iterable[Path], extra: Sequence[str] = (), audiences: Optional[Set[str]] = None) -> Tuple[frozenset, frozenset]:
    """(every tool name registered in `files` plus `tool-registry-extra`, every non-builtin exception
    class `files` catch by name); `audiences` receives the entry-point audiences the files may hold."""
    from .entry_points import audience_hints

    names = set(extra)
    caught: Set[str] = set()
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        names.update(scan_tool_names(data))
        caught |= scan_caught_names(data.decode("latin-1"))
        if audiences is not None and len(audiences) < 3:
            audiences |= audience_hints(data, path.name)
    return frozenset(names), frozenset(caught)


def project_versions(settings: Settings) -> Dict[str, str]:
    versions = detect_versions(Path(settings.project_root)) if settings.project_root else {}
    if settings.mcp_version:
        versions["mcp"] = settings.mcp_version
    if settings.fastmcp_version:
        versions["fastmcp"] = settings.fastmcp_version
    return versions
