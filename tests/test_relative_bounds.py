"""A bound that is another value the caller sent (`start > end`, `min_size > max_size`) is an order
between two inputs: a message that states the order ("end before start") says what is allowed.
A constant bound, or a message that states no order, still gets AEM204."""
from __future__ import annotations

from conftest import lint

from errlint.config import Settings

PREVIEW = Settings(preview=True)


def rows(code: str) -> list:
    return sorted(d.location.row for d in lint(code, select=["AEM204"], settings=PREVIEW))


def test_period_end_before_start():
    code = ("def check(periods):\n    for period in periods:\n        if period[0] > period[1]:\n"
            "            raise ValueError('invalid PERIOD (end before start)')\n")
    assert rows(code) == []


def test_min_larger_than_max():
    code = ("def resize(min_size: int, max_size: int):\n    if min_size > max_size:\n"
            "        raise ValueError(f'min_size {min_size} is larger than max_size {max_size}')\n")
    assert rows(code) == []


def test_slice_past_the_end_of_the_data():
    code = ("def read(data: bytes, offset: int):\n    if offset >= len(data):\n"
            "        raise ValueError('offset points past the end of data')\n    return data[offset]\n")
    assert rows(code) == []


def test_deadline_after_start_on_a_request():
    code = ("def book(request):\n    start = request.json['start']\n    end = request.json['end']\n    if end <= start:\n"
            "        raise ValueError('end must come after start')\n")
    assert rows(code) == []


def test_constant_bound_still_asks():
    code = ("LIMIT = 100\ndef page(end: int):\n    if end > LIMIT:\n        raise ValueError('end is later than it should be')\n")
    assert rows(code) == [4]


def test_order_not_stated_still_asks():
    code = ("def check(periods):\n    for period in periods:\n        if period[0] > period[1]:\n"
            "            raise ValueError('invalid PERIOD in this object')\n")
    assert rows(code) == [4]
