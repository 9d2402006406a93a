"""Positions of sinks whose source text repeats in the file."""
from __future__ import annotations

from conftest import lint


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
