"""errlint's parse skips libcst's per-node checks only while the parser builds a tree."""
from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from errlint import unvalidated_parse
from errlint.unvalidated_parse import parse_module

SOURCES = [
    "x = 1\n",
    "async def f(a, *, b=2, **kw):\n    return [i async for i in a if i] or {k: v for k, v in kw.items()}\n",
    "@deco(1)\nclass A(B, metaclass=M):\n    '''doc'''\n    def m(self): raise ValueError(f'bad {self!r:>{10}}') from None\n",
    "match x:\n    case {'k': [1, *rest]} if rest:\n        pass\n    case _:\n        y = lambda q=1: q\n",
    "try:\n    pass\nexcept* (A, B) as e:\n    raise\n",
]


@pytest.mark.parametrize("source", SOURCES)
def test_same_tree_as_libcst(source):
    ours, theirs = parse_module(source), cst.parse_module(source)
    assert ours.code == source
    assert ours.deep_equals(theirs)


def test_errlint_sources_parse_the_same():
    for path in sorted(Path(unvalidated_parse.__file__).parent.glob("*.py"))[:15]:
        data = path.read_bytes()
        assert parse_module(data).deep_equals(cst.parse_module(data)), path


def test_nodes_made_outside_the_parse_are_still_checked():
    parse_module("x = 1\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("1x")


def test_checks_come_back_when_the_parse_fails():
    with pytest.raises(cst.ParserSyntaxError):
        parse_module("def f(:\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")


def test_a_libcst_whose_post_init_does_more_is_left_alone(monkeypatch):
    monkeypatch.setattr(unvalidated_parse, "_ONLY_VALIDATES", False)
    seen = []
    original = cst.Name._validate

    def counting(self):
        seen.append(self)
        return original(self)

    monkeypatch.setattr(cst.Name, "_validate", counting)
    parse_module("x = y\n")
    assert len(seen) == 2  # `x` and `y`, each checked as libcst checks it
