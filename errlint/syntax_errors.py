"""AEM001: whether a file can be parsed, and where and why not.

`parse` turns bytes into a libcst module and its text, or an AEM001 diagnostic at Python's own
position; `_compile_problem` asks the running interpreter whether it compiles the file and tells a
grammar-only rejection (a newer Python's construct, which libcst may still parse) from a decoding,
nesting or compiler-stage one. Files over `MAX_FILE_BYTES` get AEM001 without being parsed.
"""
from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
import warnings
from typing import Optional, Tuple

import libcst as cst

from .model import Diagnostic, Level, Location
from .source_decoding import _decode, _position, _Unreadable, source_text
from .unvalidated_parse import parse_module

# Larger files get AEM001 without being parsed: libcst needs about 7 s and 400 MB per MB of dense
# code, so a 20 MB generated file would take minutes and gigabytes (the largest stdlib file is 0.8 MB).
MAX_FILE_BYTES = 5_000_000


def parse(data: bytes):
    """(module, text) or an AEM001 `Diagnostic` (filename left empty) at Python's position.

    `text` is the file decoded with the encoding libcst detected (BOM removed). It is not
    `module.code`: libcst drops form feeds and a CR-only file's last newline, and positions and
    fixes must refer to the file as it is on disk.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = parse_module(data)
        return module, _decode(data, module.encoding)
    except RecursionError:
        return _syntax_diagnostic(data, "expression too deeply nested for errlint's parser")
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # libcst raises ParserSyntaxError, SyntaxError, UnicodeError, and Rust panics
        return _syntax_diagnostic(data, _libcst_reason(exc), _libcst_position(exc))


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
    except (SyntaxError, ValueError, SystemError):  # 3.13: SystemError on a NUL byte
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


def _nested_diagnostic() -> Diagnostic:
    where = Location(1, 1)
    return Diagnostic("AEM001", "syntax-error", "expression too deeply nested for errlint to analyse; errlint skipped this file", "", where, where, Level.ERROR, "Split the expression into smaller statements.")
