"""A message about an input the guard found absent ("other_table must be specified") needs no echo of,
and no bound for, the other values the guard tests: they are the circumstance, not what was rejected.
When the message does not name the absent input, or the same input is also checked against a bound,
AEM202/AEM204 still ask."""
from __future__ import annotations

from conftest import lint

from errlint.config import Settings

PREVIEW = Settings(preview=True)


def codes(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, select=["AEM202", "AEM204"], settings=PREVIEW))


def test_nested_absent_input_named_as_required():
    code = ("def add_foreign_key(columns, other_table=None):\n    if other_table is None:\n        if len(columns) > 1:\n"
            "            raise ValueError('other_table must be specified for a compound foreign key')\n    return other_table\n")
    assert codes(code) == []


def test_conjunction_with_a_falsy_input_named_as_required():
    code = ("def connect(hosts, api_key=''):\n    if not api_key and len(hosts) > 1:\n"
            "        raise ValueError('api_key is required when more than one host is given')\n")
    assert codes(code) == []


def test_absent_option_in_a_mode_named_with_provide():
    code = ("MODES = ('local', 'remote')\ndef start(mode, url=None, retries=3):\n    if url is None:\n        if retries > 5:\n"
            "            raise ValueError('provide url when retrying more than five times')\n")
    assert codes(code) == []


def test_absent_input_not_named_still_asks():
    code = ("def add_foreign_key(columns, other_table=None):\n    if other_table is None:\n        if len(columns) > 1:\n"
            "            raise ValueError('too many columns')\n    return other_table\n")
    assert codes(code) == [(4, "AEM202"), (4, "AEM204")]


def test_the_same_input_under_a_bound_still_asks():
    code = ("def page(limit=None):\n    if limit is None or limit > 100:\n"
            "        raise ValueError('limit is required')\n")
    assert codes(code) == [(3, "AEM202"), (3, "AEM204")]
