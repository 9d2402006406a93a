"""Positions of sinks whose source text repeats in the file."""
from __future__ import annotations

import libcst as cst
from conftest import lint

from errlint.locator import Locator


def rows_cols(code, select=("AEM101",)):
    return sorted((d.location.row, d.location.column) for d in lint(code, select=list(select)))


def test_identical_raises_get_their_own_rows():
    found = rows_cols('''
        def a(x):
            if x:
                raise ValueError("Invalid input")

        def b(y):
            if y:
                raise ValueError("Invalid input")

        def c(z):
            if z:
                raise ValueError("Invalid input")
    ''')
    assert found == [(4, 26), (8, 26), (12, 26)]


def test_copy_in_a_comment_does_not_shift_the_position():
    # a third copy in a comment: counting copies is not enough, the slow path places them
    found = rows_cols('''
        # raise ValueError("Invalid input")
        def a(x):
            raise ValueError("Invalid input")

        def b(y):
                raise ValueError("Invalid input")
    ''')
    assert found == [(4, 22), (7, 26)]


def test_copy_inside_a_string_does_not_shift_the_position():
    found = rows_cols("""
        DOC = 'raise ValueError("Invalid input")'
        def a(x):
            raise ValueError("Invalid input")
        def b(x):
            raise ValueError("Invalid input")
    """)
    assert found == [(4, 22), (6, 22)]


def test_multi_line_raises_at_different_depths_get_their_own_rows():
    # generated without their block's indentation, the raises' text is found with it (each line
    # break may be followed by more indentation), then placed by order
    found = rows_cols('''
        def a(x):
            if x:
                raise ValueError(
                    "Invalid input")

        class B:
            def b(self, y):
                if y:
                    raise ValueError(
                        "Invalid input"
                    )
    ''')
    assert found == [(5, 13), (11, 17)]


def _node(module, kind):
    found = []

    class Finder(cst.CSTVisitor):
        def on_visit(self, node):
            if isinstance(node, kind):
                found.append(node)
            return True

    module.visit(Finder())
    return found


def test_multi_line_node_in_a_block_is_placed_by_its_text_without_a_codegen_pass():
    src = ("class A:\n    def f(self, x):\n        if x:\n            raise ValueError(\n"
           "                'bad value: '\n                f'{x}')\n")
    module = cst.parse_module(src)
    locator = Locator(src, module)
    call = _node(module, cst.Raise)[0].exc
    start, end = locator.span(call)
    assert src[start:end] == "ValueError(\n                'bad value: '\n                f'{x}')"
    assert locator._offsets is None


def test_multi_line_text_that_repeats_falls_back_to_the_codegen_pass():
    src = ("def f(x):\n    if x:\n        g(\n            1)\n    else:\n        g(\n            1)\n")
    module = cst.parse_module(src)
    locator = Locator(src, module)
    second = _node(module, cst.Call)[1]
    start, end = locator.span(second)
    assert (src[start:end], src[:start].count("\n") + 1) == ("g(\n            1)", 6)
    assert locator._offsets is not None


def test_node_the_walk_built_is_not_looked_for_in_a_codegen_pass():
    src = "def f(x):\n    raise ValueError(x)\n"
    module = cst.parse_module(src)
    locator = Locator(src, module)
    made = cst.SimpleString("'not in the file'")
    assert locator.span(made) == (0, len("'not in the file'"))
    assert locator._offsets is None
