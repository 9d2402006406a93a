"""AEM204 counts the allowed value as stated when the message shows it through a name an enclosing
guard fixes (`if tag == "VCALENDAR": ... % tag`), or names the kind of value a closed set holds
("not a boolean" for `BOOLEAN_STATES`). A set named after the input itself, or a name fixed to
another value, still needs the values."""
from __future__ import annotations

from conftest import preview_rows


def rows(code: str) -> list:
    return preview_rows(code, ["AEM204"])


def test_collection_tag_fixed_by_the_enclosing_guard():
    code = ("def check(tag, item):\n    if tag == 'VCALENDAR':\n        if item.name != 'VCALENDAR':\n"
            "            raise ValueError('Item type %r not supported in %r collection' % (item.name, tag))\n    return item\n")
    assert rows(code) == []


def test_kind_fixed_by_the_enclosing_guard_in_an_fstring():
    code = ("def load(kind, record):\n    if kind == 'card':\n        if record.get('type') != 'card':\n"
            "            raise ValueError(f'expected a {kind} record')\n    return record\n")
    assert rows(code) == []


def test_name_fixed_to_another_value_still_asks():
    code = ("def load(kind, record):\n    if kind == 'deck':\n        if record.get('type') != 'card':\n"
            "            raise ValueError(f'record does not belong in a {kind}')\n    return record\n")
    assert rows(code) == [4]


def test_not_a_boolean_for_a_boolean_states_set():
    code = ("from configparser import RawConfigParser\ndef to_bool(value):\n    if value.lower() not in RawConfigParser.BOOLEAN_STATES:\n"
            "        raise ValueError('not a boolean: %r' % value)\n")
    assert rows(code) == []


def test_a_time_unit_for_a_time_units_set():
    code = ("from config import TIME_UNITS\ndef parse(unit):\n    if unit not in TIME_UNITS:\n"
            "        raise ValueError(f'{unit!r} is not a time unit')\n")
    assert rows(code) == []


def test_a_set_named_after_the_input_still_asks():
    code = ("SETTINGS = {'themes': ['dark', 'light']}\ndef pick(theme):\n    if theme not in SETTINGS['themes']:\n"
            "        raise ValueError(f'{theme!r} is not a valid theme')\n")
    assert rows(code) == [4]
