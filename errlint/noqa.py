"""`# noqa` with exactly flake8's semantics, so the CLI and the flake8 plugin always agree.

flake8 (src/flake8/defaults.py, processor.py, style_guide.py, 7.x): the inline regex below is searched
in the text of the reported line's *noqa group*. Groups are the runs of physical lines between NL and
NEWLINE tokens, so a triple-quoted string spanning lines 3-5 forms one group (a `# noqa` after its
closing quotes covers a finding reported on line 3), while inside brackets every line stands alone
(a `# noqa` on a closing `)` does not cover the lines above it). Codes match by prefix
(`# noqa: AEM1` covers AEM101). One deliberate difference: a multi-line f-string is one group on
every Python (flake8 on 3.12+ splits it at line breaks inside replacement fields, since 3.12 tokenizes
f-strings piece by piece), so a `# noqa` after it works as it does on 3.11.
A line starting with `# flake8: noqa` skips the whole file; errlint adds `# errlint: noqa` (whole
file) and `# errlint: noqa: AEM101,AEM2` (those codes, whole file).

Only comments count, as in ruff: `# noqa` written inside a string literal ("add '# noqa: AEM101'
to accept it", a docstring's example) is message text, so it suppresses nothing, AEM002 never
reports it, and `--add-noqa` writes a real comment after the string instead of editing it. (flake8
searches the whole line, strings included; in that rare case the plugin follows flake8.) When the
running Python cannot tokenize the file, whole lines are read, as flake8 does.
"""
from __future__ import annotations

import io
import re
import tokenize
from typing import Dict, FrozenSet, List, Optional, Tuple

NOQA_INLINE = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
NOQA_FILE_FLAKE8 = re.compile(r"\s*# flake8[:=]\s*noqa", re.IGNORECASE)
NOQA_FILE_ERRLINT = re.compile(r"\s*#\s*errlint:\s*noqa(?::\s*(?P<codes>[A-Z0-9,\s]+))?\s*$", re.IGNORECASE)
SPLIT = re.compile(r"[,\s]+")

ALL = "ALL"


class Suppressions:
    """noqa comments of one file.

    `codes_for(row)` returns None (no noqa), ALL (bare noqa), or the set of codes/prefixes listed.
    `file_codes` is ALL when the whole file is skipped, else the codes a file-level comment lists.
    """

    def __init__(self, text: str):
        self.text = text
        self._lines: Optional[List[str]] = None
        self.has_noqa = "noqa" in text.lower()
        self.file_codes: Optional[object] = None
        self._groups: Optional[Dict[int, Tuple[int, int]]] = None
        self._comments: Optional[Dict[int, Tuple[int, str]]] = None
        self.used: Dict[int, set] = {}  # comment row -> the listed codes (or ALL) that suppressed something
        if self.has_noqa:
            self._file_level()

    @property
    def lines(self) -> List[str]:
        """The file's physical lines (split when first needed: most files have no noqa comment)."""
        if self._lines is None:
            self._lines = physical_lines(self.text)
        return self._lines

    def comment(self, row: int) -> Tuple[int, str]:
        """(column, text) of the comment on physical line `row`, (0, "") when it has none; the whole
        line when the file cannot be tokenized here."""
        if self._comments is None:
            self._groups, self._comments = _read_tokens(self.text, len(self.lines))
        if self._comments is _UNTOKENIZED:
            return 0, self.lines[row - 1] if 0 < row <= len(self.lines) else ""
        return self._comments.get(row, (0, ""))

    def _file_level(self) -> None:
        codes: List[str] = []
        for row, line in enumerate(self.lines, 1):
            if "noqa" not in line.lower():
                continue
            column, text = self.comment(row)
            if line[:column].strip():
                continue  # a comment after code, or none: no file-level comment
            line = text
            if NOQA_FILE_FLAKE8.match(line):
                self.file_codes = ALL
                return
            found = NOQA_FILE_ERRLINT.match(line)
            if found:
                if not found.group("codes"):
                    self.file_codes = ALL
                    return
                codes.extend(c for c in SPLIT.split(found.group("codes").strip().upper()) if c)
        if codes:
            self.file_codes = frozenset(codes)

    def file_suppresses(self, code: str) -> bool:
        if self.file_codes is ALL:
            return True
        if isinstance(self.file_codes, frozenset):
            return _covered(code, self.file_codes)
        return False

    def group(self, row: int) -> Tuple[int, int]:
        """First and last physical line of the noqa group containing `row` (1-based)."""
        if self._groups is None:
            self._groups, self._comments = _read_tokens(self.text, len(self.lines))
        return self._groups.get(row, (row, row))

    def continues(self, row: int) -> bool:
        """Line `row` ends with a backslash continuation: its statement goes on below, where the
        comment has to go."""
        return 0 < row <= len(self.lines) and self.lines[row - 1].rstrip("\r\n").endswith("\\")

    def group_text(self, row: int) -> str:
        """The comments of the noqa group of `row`, one per line."""
        first, last = self.group(row)
        return "\n".join(self.comment(r)[1] for r in range(first, last + 1))

    def codes_for(self, row: int) -> Optional[object]:
        if not self.has_noqa:
            return None
        found = NOQA_INLINE.search(self.group_text(row))
        if found is None:
            return None
        codes = found.group("codes")
        if not codes:
            return ALL
        return frozenset(c for c in SPLIT.split(codes.strip().upper()) if c)

    def suppresses(self, code: str, row: int) -> bool:
        """True when a noqa comment covers `code` on `row`; records which listed code was used."""
        codes = self.codes_for(row)
        if codes is None:
            return False
        comment_row = self.comment_row(row)
        if codes is ALL:
            self.used.setdefault(comment_row, set()).add(ALL)
            return True
        matched = [c for c in codes if code == c or code.startswith(c)]  # type: ignore[union-attr]
        if matched:
            self.used.setdefault(comment_row, set()).update(matched)
            return True
        return False

    def comment_row(self, row: int) -> int:
        """The physical line of the group's noqa comment."""
        first, last = self.group(row)
        for r in range(first, last + 1):
            if NOQA_INLINE.search(self.comment(r)[1]):
                return r
        return row

    def comments(self) -> List[Tuple[int, int, int, Optional[FrozenSet[str]]]]:
        """Every inline noqa comment: (row, start column 0-based, end column, codes or None for bare)."""
        out = []
        if not self.has_noqa:
            return out
        for index, line in enumerate(self.lines):
            if "noqa" not in line.lower():
                continue
            column, text = self.comment(index + 1)
            found = NOQA_INLINE.search(text)
            if found:
                codes = found.group("codes")
                listed = frozenset(c for c in SPLIT.split(codes.strip().upper()) if c) if codes else None
                out.append((index + 1, column + found.start(), column + found.end(), listed))
        return out


_UNTOKENIZED: Dict[int, Tuple[int, str]] = {}  # comments when this Python cannot tokenize the file


def physical_lines(text: str) -> List[str]:
    """Lines split at \\r\\n, \\r and \\n only, with their endings, as flake8 and tokenize count
    them (`str.splitlines` also splits at form feeds and U+2028, which would shift every row)."""
    return io.StringIO(text, newline="").readlines()


def _covered(code: str, codes: FrozenSet[str]) -> bool:
    return code in codes or code.startswith(tuple(codes))


# Python 3.12+ tokenizes an f-string (3.14+ a t-string) as START, middles and fields, END, with an NL
# token after each line break inside a replacement field; before 3.12 the whole literal is one STRING.
_STRING_STARTS = frozenset(getattr(tokenize, n) for n in ("FSTRING_START", "TSTRING_START") if hasattr(tokenize, n))
_STRING_ENDS = frozenset(getattr(tokenize, n) for n in ("FSTRING_END", "TSTRING_END") if hasattr(tokenize, n))


def _read_tokens(text: str, line_count: int) -> Tuple[Dict[int, Tuple[int, int]], Dict[int, Tuple[int, str]]]:
    """One tokenize pass: flake8's `_noqa_line_mapping` (line -> (first, last) of its group) and each
    line's comment token (line -> (column, text)).

    A line break inside an f-string's replacement field does not end a group, so a multi-line
    f-string is one group on every Python, as its single STRING token makes it before 3.12. When
    the running Python cannot tokenize the file (newer syntax: PEP 701 f-strings before 3.12), the
    groups come from libcst's string literals instead (`_literal_groups`) and the comments are
    `_UNTOKENIZED` (whole lines are read, as flake8 does).
    """
    out: Dict[int, Tuple[int, int]] = {}
    comments: Dict[int, Tuple[int, str]] = {}
    lo, hi = line_count + 2, -1
    depth = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            if tok.type == tokenize.ERRORTOKEN:  # this Python's tokenizer does not know the syntax
                return _literal_groups(text), _UNTOKENIZED
            if tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = (tok.start[1], tok.string)
            elif tok.type in _STRING_STARTS:
                depth += 1
            elif tok.type in _STRING_ENDS:
                depth -= 1
            lo = min(lo, tok.start[0])
            hi = max(hi, tok.end[0])
            if tok.type in (tokenize.NL, tokenize.NEWLINE) and depth == 0:
                for row in range(lo, hi + 1):
                    out[row] = (lo, hi)
                lo, hi = line_count + 2, -1
    except (tokenize.TokenError, SyntaxError, IndentationError, SystemError):  # 3.13 raises SystemError on a NUL byte
        return _literal_groups(text), _UNTOKENIZED
    return out, comments


def string_spans(text: str) -> List[Tuple[int, int]]:
    """(first, last) physical lines of every string literal that spans lines (one token: a triple-quoted
    string or an f-string with a line break in a field), outermost first,
    from libcst (which reads PEP 701 f-strings on any Python); [] when libcst cannot parse `text`."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    try:
        wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
        positions = wrapper.resolve(PositionProvider)
    except Exception:  # not parseable or too deeply nested: no spans known
        return []
    # an implicit concatenation ("a "\n "b") is several literals, each on its own lines: a comment fits
    # after any of them, and flake8 reads each line of it as its own noqa line
    kinds = (cst.SimpleString, cst.FormattedString) + tuple(
        getattr(cst, n) for n in ("TemplatedString",) if hasattr(cst, n))
    spans = [(p.start.line, p.end.line) for node, p in positions.items() if isinstance(node, kinds) and p.end.line > p.start.line]
    return sorted(set(spans), key=lambda s: (s[0], -s[1]))


def _literal_groups(text: str) -> Dict[int, Tuple[int, int]]:
    """Groups when tokenize fails: each multi-line string literal is one group, other lines stand alone."""
    out: Dict[int, Tuple[int, int]] = {}
    for first, last in string_spans(text):
        for row in range(first, last + 1):
            lo, hi = out.get(row, (first, last))
            out[row] = (min(lo, first), max(hi, last))
    return out


def _outside_literals(row: int, spans: List[Tuple[int, int]]) -> int:
    """The first line at or after `row` whose end is not inside a string literal (an f-string's
    replacement field included): a comment written there is a comment on every Python."""
    moved = True
    while moved:
        moved = False
        for first, last in spans:
            if first <= row < last:
                row, moved = last, True
    return row


def add_noqa(text: str, rows_codes: Dict[int, List[str]]) -> Tuple[str, int]:
    """Add `# noqa: CODES` to each row (merging into an existing coded noqa, keeping its codes).

    `rows_codes` maps a reported row to its codes; each goes on the last line of the row's noqa
    group, where flake8 looks. Returns the new text and how many comments were added or extended.
    """
    suppressions = Suppressions(text)
    spans = string_spans(text) if rows_codes else []
    targets: Dict[int, set] = {}
    for row, codes in rows_codes.items():
        targets.setdefault(_outside_literals(suppressions.group(row)[1], spans), set()).update(codes)
    lines = physical_lines(text)
    changed = 0
    for row, codes in sorted(targets.items()):
        if row > len(lines):
            continue
        line = lines[row - 1]
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        column, comment = suppressions.comment(row)
        found = NOQA_INLINE.search(comment)  # in the line's comment only: never in a string literal
        if found is None:
            lines[row - 1] = f"{body}  # noqa: {', '.join(sorted(codes))}{ending}"
            changed += 1
        elif found.group("codes"):
            existing = [c for c in SPLIT.split(found.group("codes").strip()) if c]
            merged = existing + sorted(set(codes) - {c.upper() for c in existing})
            if len(merged) != len(existing):
                start, end = column + found.start("codes"), column + found.end("codes")
                tail = body[end:]
                lines[row - 1] = body[:start] + ", ".join(merged) + (" " + tail.lstrip() if tail.strip() else "") + ending
                changed += 1
    return "".join(lines), changed
