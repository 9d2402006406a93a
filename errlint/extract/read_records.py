"""Lines and rows something read, one entry each: as many as the file or query has.

`file_records` answers for an open file or a CSV reader over one; `read_records` for those listed,
sorted or filtered, for `readlines()`/`fetchall()`, and for names bound to any of them. A placeholder
that shows them is unbounded (AEM402) whatever the variable is called; the file object itself shows
a short repr.
"""
from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from . import nodes

FILE_OPENERS = re.compile(r"^(?:\w+\.)*(?:open|reader|DictReader)$")  # open, io.open, Path(p).open, csv.DictReader, ...


def file_records(builder, node: Optional[cst.CSTNode], depth: int = 0) -> bool:
    """True when `node` is an open file or a CSV reader over one (`open(p)`, `Path(p).open()`,
    `csv.DictReader(fh)`), directly or through names (`with open(p) as fh`, `reader = csv.reader(fh)`):
    its lines or rows, listed or filtered, are as many as the file has."""
    if node is None or depth > 4:
        return False
    if isinstance(node, cst.Call):
        qualified = builder.qualify(node.func) or nodes.dotted(node.func)
        return FILE_OPENERS.match(qualified) is not None
    if isinstance(node, cst.Name):
        return any(b.kind in ("assign", "with") and b.value is not None and file_records(builder, b.value, depth + 1)
                   for b in builder.scope.lookup(node.value)[:4])
    return False


RECORD_METHODS = {"readlines", "fetchall", "fetchmany"}
PASS_THROUGH = {"list", "sorted", "tuple", "set", "enumerate", "reversed", "filter"}


def read_records(builder, node: Optional[cst.CSTNode], depth: int = 0) -> bool:
    """True when `node` holds the lines or rows something read, one entry each, as many as were read:
    a file or CSV reader (`file_records`), `fh.readlines()`, `fh.read().splitlines()`, `cur.fetchall()`,
    listed, sorted or filtered (`list(reader)`, `[r for r in rows if ...]`), through names."""
    if node is None or depth > 8:
        return False
    cls = node.__class__
    if cls is cst.Call:
        func, short = node.func, nodes.last_name(node.func)
        if short in PASS_THROUGH and func.__class__ is cst.Name and node.args:
            return read_records(builder, node.args[-1 if short == "filter" else 0].value, depth + 1)
        if func.__class__ is cst.Attribute and short in RECORD_METHODS:
            return True
        if func.__class__ is cst.Attribute and short == "splitlines" and func.value.__class__ is cst.Call:
            return nodes.last_name(func.value.func) in ("read", "read_text")
        return file_records(builder, node)  # its own budget of name hops
    if cls in (cst.ListComp, cst.GeneratorExp, cst.SetComp):
        return read_records(builder, node.for_in.iter, depth + 1)
    if cls is cst.Name:  # `with open(p) as fh`, `rows = list(reader)`
        return any(b.kind in ("assign", "with") and b.value is not None and read_records(builder, b.value, depth + 1)
                   for b in builder.scope.lookup(node.value)[:4])
    return False
