"""The value of a constant another module of the project defines (`module_constants`), parsed from
its source once per process, for the modules that import it.

Its nodes come from another file, so no finding may point into them and no fix may edit them: a
message whose text takes a literal from one is reported at its sink with no pieces (`foreign`), as a
message composed with an imported exception class is (`exception_templates.at_raise`).
"""
from __future__ import annotations

from typing import Dict, Optional, Set

import libcst as cst

from ..model import Template
from ..unvalidated_parse import parse_module
from . import nodes

_PARSED: Dict[str, Optional[cst.CSTNode]] = {}
_FOREIGN: Set[int] = set()  # ids of the string literals of the values in `_PARSED` (alive while it holds them)


def constant_value(text: str) -> Optional[cst.CSTNode]:
    """The value assigned by `text` (`USAGE = "..."`), parsed once per process; None when it
    does not parse alone as one assignment."""
    if text not in _PARSED:
        if len(_PARSED) > 2_000:
            _PARSED.clear()
            _FOREIGN.clear()
        value = None
        try:
            body = parse_module(text).body
            line = body[0] if len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) else None
            stmt = line.body[0] if line is not None and len(line.body) == 1 else None
            if isinstance(stmt, (cst.Assign, cst.AnnAssign)):
                value = stmt.value
        except (cst.ParserSyntaxError, RecursionError, ValueError):
            value = None
        _PARSED[text] = value
        if value is not None:
            _FOREIGN.update(id(n) for n in nodes.iter_expr(value) if isinstance(n, (cst.SimpleString, cst.FormattedStringText, cst.FormattedString, cst.ConcatenatedString)))
    return _PARSED[text]


def at_sink(template: Template) -> Template:
    """`template` with no pieces when a piece or its tail is a literal of an imported constant."""
    if any(id(p.literal) in _FOREIGN or id(p.node) in _FOREIGN for p in template.pieces) or template.tail is not None and id(template.tail) in _FOREIGN:
        return Template(template.parts, (), template.complete)
    return template
