"""Fixes: building text edits on exact source ranges, and applying them safely.

Edits change the original source text in place (never re-rendered from the CST: ruff #6988): the
string prefix, quote style, escapes, the exact text of every `{...}` field, indentation, line endings
and encoding are kept. Text inserted into a literal is escaped for its quote and for its template
style (`{{` in f-strings and `.format`, `%%` in %-templates).

Applying: all fixes of a file in one pass, sorted by position; a fix that overlaps one already taken
waits for the next run. The result must parse (libcst) and compile, or the file is left untouched.
Files are written atomically (a temp file in the same directory, then `os.replace`), keeping the mode.
"""
from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import warnings
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import libcst as cst

from .model import Applicability, Diagnostic, Edit, Fix, Template, escaped_char, unprintable

STRING_START = re.compile(r"^(?P<prefix>[A-Za-z]*)(?P<quote>'''|\"\"\"|'|\")")


# ---------------------------------------------------------------------- building edits


def string_layout(code: str) -> Optional[Tuple[str, str, int, int]]:
    """(prefix, quote, body start, body end) of a string literal's source text, or None."""
    found = STRING_START.match(code)
    if not found:
        return None
    quote = found.group("quote")
    if not code.endswith(quote) or len(code) < found.end() + len(quote):
        return None
    return found.group("prefix"), quote, found.end(), len(code) - len(quote)


def escape(text: str, quote: str, prefix: str, style: str) -> Optional[str]:
    """`text` as it must be written inside a literal, or None when it cannot be (raw strings)."""
    if style in ("f", "format"):
        text = text.replace("{", "{{").replace("}", "}}")
    elif style == "percent":
        text = text.replace("%", "%%")
    if "b" in prefix.lower() and not text.isascii():
        return None  # a bytes literal holds ASCII characters only
    raw = "r" in prefix.lower()
    needs = "\\" in text or "\n" in text or (quote[0] in text) or any(unprintable(ch) for ch in text)
    if raw and needs:
        return None
    if not raw:
        text = text.replace("\\", "\\\\").replace("\n", "\\n")
        # a carriage return (or any other control character) written raw would end or corrupt the
        # literal: write it as an escape sequence, as repr() does
        text = "".join(escaped_char(ch) if unprintable(ch) else ch for ch in text)
        if len(quote) == 1:
            text = text.replace(quote, "\\" + quote)
        else:
            text = text.replace(quote, "\\" + quote[0] * 3)
    return text


@dataclass
class _Tail:
    """Where text can be appended to a message: its last literal, that literal's source text and
    layout, and the offset just before its closing quote (or before a final `.`/`!`)."""

    node: cst.CSTNode
    code: str
    prefix: str
    quote: str
    body_start: int
    insert_at: int
    before: str = ""  # the message's text just before `insert_at` ("" for an empty message)


def _joined(addition: str, before: str) -> str:
    """`addition` fitted to what it follows: no leading space in an empty message, and no second
    separator after a message that ends in one (`"Invalid status {s!r};"` + "; expected ...")."""
    if not before.strip():
        return addition.lstrip("; ")
    if before.rstrip()[-1:] in (";", ":", ",") and addition.startswith("; "):
        return addition[1:]
    return addition


def _sentence_end(body: str, raw: bool) -> int:
    """The length of a literal's source body without its trailing whitespace, written or escaped
    (`\\n`, `\\t`, `\\r` in a non-raw literal; an escaped backslash before `n` is text)."""
    end = len(body)
    while end:
        if body[end - 1].isspace():
            end -= 1
        elif not raw and end >= 2 and body[end - 1] in "ntr" and body[end - 2] == "\\":
            slashes = len(body[:end - 1]) - len(body[:end - 1].rstrip("\\"))
            if slashes % 2 == 0:
                break
            end -= 2
        else:
            break
    return end


def _tail(template: Template, code_of) -> Optional[_Tail]:
    node = template.tail
    if node is None or not isinstance(node, (cst.SimpleString, cst.FormattedString)):
        return None
    code = _bare_code(node, code_of)
    layout = string_layout(code)
    if layout is None:
        return None
    prefix, quote, body_start, body_end = layout
    if "b" in prefix.lower():
        return None
    body = code[body_start:body_end]
    # a message ending in a newline (`"""Unknown profile.\n"""`, `"Bad row.\\n"`) keeps it last: the
    # addition goes before the trailing whitespace, and before a final `.`/`!` there
    end = _sentence_end(body, raw="r" in prefix.lower())
    at = body_start + end - 1 if re.search(r"(?<![.])[.!]\Z", body[:end]) else body_start + end
    before = code[body_start:at] or template.text.strip()
    return _Tail(node, code, prefix, quote, body_start, at, before)


def append_edit(template: Template, code_of, addition: str) -> Optional[Edit]:
    """An edit that appends `addition` to the message, before its final `.`/`!` if it has one.

    `code_of(node)` returns a node's source text. None when the message does not end in a literal.
    """
    tail = _tail(template, code_of)
    if tail is None or template.parts and not isinstance(template.parts[-1], str) and template.tail_style != "f":
        return None
    text = escape(_joined(addition, tail.before), tail.quote, tail.prefix, template.tail_style)
    return None if text is None else Edit(tail.insert_at, tail.insert_at, text, node=tail.node)


def insert_in_fstring(template: Template, code_of, addition_fstring_body: str) -> Optional[List[Edit]]:
    """Append an f-string body (`' (got {x!r:.80})'`) to the message, turning a plain tail literal
    into an f-string when needed (its braces are doubled). None when that is not possible."""
    tail = _tail(template, code_of)
    if tail is None or "u" in tail.prefix.lower() or template.tail_style in ("percent", "format"):
        return None
    if "\\" in addition_fstring_body or tail.quote[0] in addition_fstring_body:
        return None
    addition_fstring_body = _joined(addition_fstring_body, tail.before)
    at = tail.insert_at
    if isinstance(tail.node, cst.FormattedString):
        return [Edit(at, at, addition_fstring_body, node=tail.node)]
    edits = [Edit(0, 0, "f", node=tail.node)]
    for match in re.finditer(r"[{}]", tail.code[tail.body_start:at]):
        pos = tail.body_start + match.start()
        edits.append(Edit(pos, pos, match.group(0), node=tail.node))
    edits.append(Edit(at, at, addition_fstring_body, node=tail.node))
    return edits


def replace_in_literal(node: cst.CSTNode, code_of, old: str, new: str, style: str = "plain") -> Optional[Edit]:
    """Replace the first raw occurrence of `old` inside a string literal's body with `new`."""
    code = _bare_code(node, code_of)
    layout = string_layout(code)
    if layout is None:
        return None
    prefix, quote, body_start, body_end = layout
    body = code[body_start:body_end]
    found = body.find(old)
    if found < 0:
        return None
    text = escape(new, quote, prefix, style if not isinstance(node, cst.FormattedString) else "f")
    if text is None:
        return None
    start = body_start + found
    return Edit(start, start + len(old), text, node=node)


def replace_in_piece(node: cst.CSTNode, code_of, old: str, new: str, style: str = "plain") -> Optional[Edit]:
    """Like `replace_in_literal`, also for an f-string's literal run (a FormattedStringText)."""
    if isinstance(node, cst.FormattedStringText):
        found = node.value.find(old)
        if found < 0 or any(c in new for c in "'\"\\\n"):
            return None
        return Edit(found, found + len(old), new.replace("{", "{{").replace("}", "}}"), node=node)
    return replace_in_literal(node, code_of, old, new, style)


def replace_with_fbody(node: cst.CSTNode, code_of, old: str, fbody: str) -> Optional[List[Edit]]:
    """Replace `old` in a literal with f-string source `fbody` (which may hold `{name}` fields),
    turning a plain literal into an f-string (its braces doubled). None when not possible."""
    if any(c in fbody for c in "'\"\\\n"):
        return None
    if isinstance(node, cst.FormattedStringText):
        found = node.value.find(old)
        return None if found < 0 else [Edit(found, found + len(old), fbody, node=node)]
    if not isinstance(node, cst.SimpleString):
        return None
    code = _bare_code(node, code_of)
    layout = string_layout(code)
    if layout is None:
        return None
    prefix, quote, body_start, body_end = layout
    if set(prefix.lower()) & {"b", "u", "f"}:
        return None
    body = code[body_start:body_end]
    found = body.find(old)
    if found < 0:
        return None
    edits = [Edit(0, 0, "f", node=node)]
    for match in re.finditer(r"[{}]", body):
        pos = body_start + match.start()
        if not found <= match.start() < found + len(old):
            edits.append(Edit(pos, pos, match.group(0), node=node))
    edits.append(Edit(body_start + found, body_start + found + len(old), fbody, node=node))
    return edits


def call_arg_edit(call: cst.Call, code_of, argument: str) -> Optional[Edit]:
    """Add `argument` (e.g. "file=sys.stderr") right after the value of the call's last argument,
    keeping its layout: before its trailing comma, and before a comment after it (`"Error"  # why`)."""
    if call.args:
        value = call.args[-1].value
        end = len(code_of(value))
        return Edit(end, end, ", " + argument, node=value)
    code = _bare_code(call, code_of)
    if not code.endswith(")"):
        return None
    inner_end = len(code[:-1].rstrip())
    return Edit(inner_end, inner_end, argument, node=call)


def node_edit(node: cst.CSTNode, code_of, content: str) -> Edit:
    """Replace a whole node's source text."""
    return Edit(0, len(_bare_code(node, code_of)), content, node=node)


def _bare_code(node: cst.CSTNode, code_of) -> str:
    """A node's source text without its own parentheses (the engine locates nodes the same way)."""
    lpar = getattr(node, "lpar", ())
    rpar = getattr(node, "rpar", ())
    if lpar or rpar:
        node = node.with_changes(lpar=[], rpar=[])
    return code_of(node)


def import_line(module: cst.Module, source: str, statement: str, name: str) -> Optional[Edit]:
    """An edit adding `statement` (e.g. "import sys") unless `name` is already imported or bound at
    module level; after the docstring and `from __future__` imports, with the file's newline."""
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)):
                    for alias in small.names if not isinstance(small.names, cst.ImportStar) else ():
                        bound = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else cst.Module([]).code_for_node(alias.name).split(".")[0]
                        if bound == name:
                            return None if _same_import(small, statement) else _conflict()
    newline = "\r\n" if "\r\n" in source else "\r" if "\r" in source and "\n" not in source else "\n"
    offset = _after_header(source)
    return Edit(offset, offset, statement + newline)


class _Conflict(Exception):
    pass


def _conflict():
    raise _Conflict()


def _same_import(small: cst.CSTNode, statement: str) -> bool:
    return cst.Module([]).code_for_node(small).strip() == statement or statement.startswith("import ") and isinstance(small, cst.Import)


HEADER = re.compile(
    r"\A(?:\ufeff)?(?:[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n))*"  # comments, blank lines, shebang, coding cookie
    # the docstring's line, with whatever follows it on that line (`"""Doc."""; import os`)
    r"(?:(?:[rRuU]?(?:\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|\"[^\"\r\n]*\"|'[^'\r\n]*'))[ \t]*(?:[;#][^\r\n]*)?(?:\r\n|\r|\n))?"
    # `from __future__` imports, with the blank lines and comments before them (not those after the last)
    r"(?:(?:[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n))*from[ \t]+__future__[ \t]+import[^\r\n]*(?:\r\n|\r|\n))*"
)


def _after_header(source: str) -> int:
    found = HEADER.match(source)
    return found.end() if found else 0


class _Bindings(cst.CSTVisitor):
    """The names a module binds other than by import: assignment and loop targets, parameters,
    `def`/`class` names, `with ... as`, `except ... as`, walrus targets, `global`/`nonlocal` names."""

    def __init__(self) -> None:
        self.names: set = set()

    def _targets(self, node: Optional[cst.CSTNode]) -> None:
        from .extract.bindings import target_names  # deferred: extraction imports this module's users

        if node is not None:
            self.names.update(target_names(node))

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._targets(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._targets(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._targets(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._targets(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._targets(node.target)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._targets(node.target)

    def visit_Param(self, node: cst.Param) -> None:
        self._targets(node.name)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._targets(node.name)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._targets(node.name)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        self._targets(node.asname.name if node.asname is not None else None)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self._targets(node.name.name if node.name is not None else None)

    def visit_Global(self, node: cst.Global) -> None:
        for item in node.names:
            self._targets(item.name)

    visit_Nonlocal = visit_Global


def rebound(module: cst.Module, name: str) -> bool:
    """`name` is bound somewhere in the module other than by an import (`sys = argv`, `print =
    sys.stdout.write`, `ToolError = RuntimeError`): a fix that uses the name, or calls it as the
    builtin, may then mean something else."""
    if _LAST_BINDINGS[0] is not module:  # one walk per module: fixes are built for one file at a time
        visitor = _Bindings()
        module.visit(visitor)
        _LAST_BINDINGS[:] = [module, frozenset(visitor.names)]
    return name in _LAST_BINDINGS[1]


_LAST_BINDINGS: list = [None, frozenset()]


def imports_for(module: cst.Module, source: str, statement: str, name: str) -> Optional[List[Edit]]:
    """[] when nothing is needed, [edit] to add the import, None when `name` means something else
    (imported from elsewhere, or bound by the code)."""
    if rebound(module, name):
        return None
    try:
        edit = import_line(module, source, statement, name)
    except _Conflict:
        return None
    return [edit] if edit is not None else []


# ---------------------------------------------------------------------- applying fixes


@dataclass
class FixOutcome:
    """The new text (None when unchanged), the diagnostics whose fixes were applied, and why a file
    was left untouched (`error`)."""

    text: Optional[str]
    applied: List[Diagnostic]
    error: str = ""


def applicable(fix: Optional[Fix], unsafe: bool) -> bool:
    if fix is None or not fix.edits:
        return False
    if fix.applicability is Applicability.SAFE:
        return True
    return unsafe and fix.applicability is Applicability.UNSAFE


def apply_fixes(text: str, diagnostics: Sequence[Diagnostic], unsafe: bool, encoding: str = "utf-8") -> FixOutcome:
    """Apply every applicable, non-overlapping fix in one pass and verify the result parses."""
    chosen: List[Diagnostic] = []
    taken: List[Tuple[int, int]] = []
    for d in sorted((d for d in diagnostics if applicable(d.fix, unsafe)), key=lambda d: (min(e.start for e in d.fix.edits), d.code)):
        spans = [(e.start, e.end) for e in d.fix.edits]
        if any(_overlaps(s, t) for s in spans for t in taken):
            continue  # waits for the next run
        chosen.append(d)
        taken.extend(spans)
    if not chosen:
        return FixOutcome(None, [])
    edits = sorted((e for d in chosen for e in d.fix.edits), key=lambda e: (e.start, e.end), reverse=True)
    out = text
    for e in edits:
        out = out[: e.start] + e.content + out[e.end:]
    problem = verify(out, encoding, compiles=_compiles(text))
    if problem:
        return FixOutcome(None, [], problem)
    return FixOutcome(out, chosen)


def _overlaps(a: Tuple[int, int], b: Tuple[int, int]) -> bool:
    if a[0] == a[1] or b[0] == b[1]:
        return a[0] == b[0] or b[0] < a[0] < b[1] or a[0] < b[0] < a[1]
    return a[0] < b[1] and b[0] < a[1]


def _compiles(text) -> bool:
    """The file compiles for this Python (not one that uses newer grammar, `type X = int` on 3.11)."""
    return _compile_problem(text) is None


def _compile_problem(source) -> Optional[BaseException]:
    """What compiling `source` (text or bytes) for this Python raises, or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(source, "<fixed>", "exec", dont_inherit=True)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        return exc
    return None


def verify(text: str, encoding: str = "utf-8", compiles: bool = True) -> str:
    """"" when `text` parses with libcst and, when the file before the fix did (`compiles`), compiles
    for this Python; else the reason. A file in newer grammar than this Python's is judged by libcst
    alone, and so is its fixed text."""
    try:
        data = text.encode(_codec(encoding))
    except (UnicodeEncodeError, LookupError) as exc:
        return f"the fixed text cannot be written in {encoding} ({exc.reason if hasattr(exc, 'reason') else exc})"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cst.parse_module(data)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        problem: Optional[BaseException] = exc
    else:
        problem = _compile_problem(data) if compiles else None
    if problem is None:
        return ""
    return f"the fixed file would not parse ({type(problem).__name__}: {str(problem).splitlines()[0] if str(problem) else ''})"


def _codec(encoding: str) -> str:
    return "utf-8-sig" if encoding.lower().replace("_", "-") == "utf-8-sig" else encoding


def write_atomic(path: str, text: str, encoding: str = "utf-8") -> None:
    """Write `text` to `path` through a temp file in the same directory and `os.replace`, keeping
    the file's permission bits and owner. Raises OSError (read-only file or directory, permissions).

    A file without any write permission bit is refused even for root, who could replace it anyway.
    A symbolic link is written through, never replaced by a file. Killed at any point (SIGKILL,
    power loss), `path` holds the old or the new text, never a mix; what a kill can
    leave is the temp file `.errlint-*.tmp` beside it. errlint never reads it (not `*.py`) and does
    not delete it later, since another errlint run may be writing it: remove it by hand.
    """
    data = text.encode(_codec(encoding))
    target = os.path.realpath(path)
    info = os.stat(target)
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise PermissionError(errno.EACCES, "the file is read-only", path)
    fd, tmp = tempfile.mkstemp(prefix=".errlint-", suffix=".tmp", dir=os.path.dirname(target))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, stat.S_IMODE(info.st_mode))
        if hasattr(os, "chown") and (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
            try:
                os.chown(tmp, info.st_uid, info.st_gid)
            except OSError:
                pass  # not allowed to give the file away: it keeps the writer's owner
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
