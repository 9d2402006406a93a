"""libcst's parser, without the check each node runs on itself as it is built.

Every libcst node validates its fields when it is made (`CSTNode.__post_init__` calls `_validate`),
which catches a tree built by hand wrongly: a `Name` holding "1x", an `Attribute` without its dot.
A tree the parser built from source is valid by construction, and those checks cost about a tenth
of the parse (libcst says as much where it runs them). `parse_module` turns them off while the
parser builds the tree, and only if `__post_init__` still does nothing but validate: a libcst that
does more there is left alone. Nodes made any other time (errlint's own rewrites) are validated as
usual.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Union

import libcst as cst
from libcst._nodes.base import CSTNode  # the base of every node: where libcst's check is called

_VALIDATING = CSTNode.__post_init__
# (only `self._validate()`: the names the function's code reads are just that method's)
_ONLY_VALIDATES = getattr(_VALIDATING, "__code__", None) is not None and _VALIDATING.__code__.co_names == ("_validate",)


def _built_by_parser(self) -> None:
    """Nothing: the parser's nodes are valid by construction."""


@contextmanager
def _unchecked() -> Iterator[None]:
    if not _ONLY_VALIDATES:
        yield
        return
    CSTNode.__post_init__ = _built_by_parser  # type: ignore[method-assign]
    try:
        yield
    finally:
        CSTNode.__post_init__ = _VALIDATING  # type: ignore[method-assign]


def parse_module(source: Union[str, bytes]) -> cst.Module:
    """`libcst.parse_module(source)`, with the per-node checks off while the parser builds it."""
    with _unchecked():
        return cst.parse_module(source)
