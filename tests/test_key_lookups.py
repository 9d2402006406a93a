"""`try: TABLE[key] except KeyError:` is a membership test that failed (#14 kinds 2 and 3).

The handler runs when `key` is not in `TABLE`: the message owes the allowed keys (AEM204) as it
would under `if key not in TABLE`. Only for one subscript whose key comes from the caller, and a
handler that catches only a failed lookup (KeyError, LookupError). A literal key (`body["name"]`)
is a required entry that is missing, not a value outside a set; two lookups in one `try` leave
open which failed; an environment lookup is an open set.
"""
from __future__ import annotations

from conftest import at

SELECT = ["AEM202", "AEM204"]


def test_a_dict_constant_lookup_owes_its_keys():
    code = '''
    CODECS = {"zlib": 1, "bz2": 2, "xz": 3}


    def codec(name: str):
        try:
            return CODECS[name.lower()]
        except KeyError:
            raise LookupError(f"unknown codec: {name}") from None
    '''
    assert at(code, select=SELECT) == [(9, "AEM204")]


def test_a_lookup_through_a_local_in_a_cli():
    code = '''
    import sys

    UNITS = {"ms": 0.001, "s": 1, "min": 60}


    def main():
        unit = sys.argv[1].split(":")[-1]
        try:
            factor = UNITS[unit]
        except KeyError as exc:
            sys.exit(f"Unknown unit {unit!r} in the polling interval.")
        print(factor)


    if __name__ == "__main__":
        main()
    '''
    assert at(code, select=SELECT) == [(12, "AEM204")]


def test_an_enum_member_by_name_in_a_tool():
    code = '''
    from enum import Enum
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")


    class Color(Enum):
        RED = 1
        BLUE = 2


    @mcp.tool()
    def paint(color: str) -> str:
        try:
            chosen = Color[color.upper()]
        except KeyError:
            raise ToolError(f"Unknown color {color!r}.")
        return chosen.name
    '''
    assert at(code, select=SELECT) == [(18, "AEM204")]


def test_a_message_that_lists_the_keys_is_complete():
    code = '''
    UNITS = {"ms": 0.001, "s": 1, "min": 60}


    def scale(value: float, unit: str) -> float:
        try:
            return value * UNITS[unit]
        except KeyError:
            raise ValueError(f"unknown unit {unit!r}; use one of {sorted(UNITS)}") from None
    '''
    assert at(code, select=SELECT) == []


def test_a_literal_key_an_environment_and_two_lookups_are_no_membership():
    code = '''
    import os

    UNITS = {"ms": 0.001, "s": 1, "min": 60}


    def name_of(body: dict) -> str:
        try:
            return body["name"]
        except KeyError:
            raise ValueError("the body has no name; send a name field") from None


    def env_value(name: str) -> str:
        try:
            return os.environ[name]
        except KeyError:
            raise RuntimeError(f"{name} is not set; export it first") from None


    def ratio(a: str, b: str) -> float:
        try:
            return UNITS[a] / UNITS[b]
        except KeyError:
            raise ValueError("unknown unit") from None
    '''
    assert at(code, select=SELECT) == []


def test_a_broad_handler_is_not_a_lookup_guard():
    code = '''
    UNITS = {"ms": 0.001, "s": 1, "min": 60}


    def scale(value: float, unit: str) -> float:
        try:
            return value * UNITS[unit]
        except Exception:
            raise ValueError("could not scale the value") from None
    '''
    assert "AEM204" not in [c for _, c in at(code, select=SELECT)]
