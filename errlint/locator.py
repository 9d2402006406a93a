"""Source positions (offsets, rows and columns) of libcst nodes, and of the edits of a fix.

`Locator` finds a node's text in the file when it occurs once, places repeated sink text by the
order the walker met the sinks, and only then falls back to one codegen pass that records every
node's offsets; it keeps a finding inside its sink's span, where `# noqa` goes.
"""
from __future__ import annotations

import bisect
import re
from typing import Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState  # libcst exports no public name for it

from .model import Edit, Fix, Location

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
        self._starts: Optional[List[int]] = None
        self.sinks = sinks
        self._ordinal: Optional[Dict[int, Tuple[int, int]]] = None
        self._offsets: Optional[Dict[int, Tuple[int, int]]] = None

    @property
    def starts(self) -> List[int]:
        """The offset each line starts at (computed when a position is first asked for: most files
        have no finding to place)."""
        if self._starts is None:
            self._starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", self.text)]
        return self._starts

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
        found = self._only(code)
        if found is None and within is not None:
            region = self._region(within)
            if region is not None:
                found = self._only(code, *region)
        if found is not None:
            return _trim_parens(anchor, found[0], found[1], self.module)
        if not self._occurrences(code, limit=1):  # not in the file: a node the walk built (a rewritten template)
            return (0, len(code))
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

    def _only(self, code: str, lo: int = 0, hi: Optional[int] = None) -> Optional[Tuple[int, int]]:
        """(start, end) of `code` when it occurs exactly once in text[lo:hi], else None."""
        found = self._occurrences(code, lo, hi, limit=2)
        return found[0] if len(found) == 1 else None

    def _occurrences(self, code: str, lo: int = 0, hi: Optional[int] = None, limit: int = 0) -> List[Tuple[int, int]]:
        """(start, end) of the copies of `code` in text[lo:hi], the first `limit` of them (0: all).

        A node on several lines inside an indented block is generated without the block's
        indentation (`code_for_node` starts at indent level 0), so when its text is not found as it
        is, each of its line breaks may be followed by more indentation than it shows."""
        hi = len(self.text) if hi is None else hi
        found: List[Tuple[int, int]] = []
        at = self.text.find(code, lo, hi)
        while at >= 0 and (not limit or len(found) < limit):
            found.append((at, at + len(code)))
            at = self.text.find(code, at + 1, hi)
        if found or "\n" not in code and "\r" not in code:
            return found
        for match in _deeper(code).finditer(self.text, lo, hi):
            found.append(match.span())
            if len(found) == limit:
                break
        return found

    def _indented(self, code: str, base: int):
        """For `code` found at `base` with deeper indentation after its line breaks (see
        `_occurrences`): a function from an offset in `code` to the offset in the file; None when the
        text there is not `code` so indented."""
        lines = LINE_BREAK.split(code)
        if len(lines) < 2:
            return None
        found = _deeper(code).match(self.text, base)
        if found is None:
            return None
        starts = [0] + [m.end() for m in LINE_BREAK.finditer(code)]  # where each line of `code` starts

        def place(offset: int) -> int:
            k = max(i for i, begin in enumerate(starts) if begin <= offset) if offset > 0 else 0
            column = offset - starts[k]
            return found.start(k + 1) + column if column <= len(lines[k]) else found.end(k + 1) + column - len(lines[k])
        return place

    def _code(self, node) -> Optional[str]:
        try:
            return self.module.code_for_node(node)
        except RecursionError:
            return None

    def _region(self, node) -> Optional[Tuple[int, int]]:
        code = self._code(node)
        if code is None:
            return None
        found = self._only(code)
        if found is not None:
            return found
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
                        self._ordinal[id(node)] = at
        return self._ordinal

    def _copies(self, code: str) -> List[Tuple[int, int]]:
        """(start, end) of the copies of `code` that are not the front of a longer expression
        (`raise E` inside `raise E(...)` or `raise E.x` is not a copy)."""
        text = self.text
        return [(at, end) for at, end in self._occurrences(code)
                if end >= len(text) or not (text[end].isalnum() or text[end] in "_(.[")]

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
                if self.text[base:base + len(expected)] == expected:
                    start, end = base + edit.start, base + edit.end
                else:  # a multi-line node in an indented block: its lines sit deeper than generated
                    place = self._indented(expected, base)
                    if place is None:
                        return None
                    start, end = place(edit.start), place(edit.end)
            r1, c1 = self.position(start)
            r2, c2 = self.position(end)
            edits.append(Edit(start, end, edit.content, Location(r1, c1), Location(r2, c2)))
        return Fix(fix.applicability, fix.title, tuple(edits))


LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _deeper(code: str) -> "re.Pattern":
    """`code` where each line break may be followed by more indentation than it shows, each line a
    group (`code_for_node` writes a node in an indented block without the block's indentation)."""
    return re.compile(r"(?:\r\n|\r|\n)[ \t]*".join(f"({re.escape(line)})" for line in LINE_BREAK.split(code)))


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
