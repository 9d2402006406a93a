"""Guards a fresh hunter's cases showed errlint did not take apart, each with inputs of my own:

- a count tested against a set (`len(argv) not in (3, 4)`) is stated by what to pass
  ("expected HOST and PORT"): no "one of: 3, 4";
- a value that failed a pattern still owes its echo when a length bound is stated beside it;
- a time zone looked up by name is parsed: `ZoneInfo(tz)` in a `try` catching ZoneInfoNotFoundError;
- a parser's argument read from an argument dict by key (`int(args["count"])`) is that field, not
  the whole dict;
- a message a zero-argument helper of the file returns (`raise ValueError(_tag_rule())`) is read.
"""
from __future__ import annotations

from conftest import at, lint


def test_a_count_set_is_stated_by_what_to_pass():
    code = '''
    import sys

    USAGE = "usage: probe.py HOST PORT [TIMEOUT]"


    def main(argv):
        if len(argv) not in (3, 4):
            sys.exit(f"expected HOST and PORT, got {len(argv) - 1} argument(s).\\n{USAGE}")
        if len(argv) not in (2, 5):
            sys.exit(f"got {len(argv) - 1} argument(s)")


    if __name__ == "__main__":
        main(sys.argv)
    '''
    assert at(code, select=["AEM204"]) == [(11, "AEM204")]


def test_a_pattern_failure_owes_the_echo_beside_a_stated_length():
    code = '''
    import re

    TAG_RE = re.compile(r"[a-z0-9][a-z0-9-]*")


    def normalize(tags: list) -> list:
        for tag in tags:
            t = tag.strip().lower()
            if len(t) > 39 or not TAG_RE.fullmatch(t):
                raise ValueError("Tags may only hold lowercase letters, digits and hyphens, at most 39 characters.")
            if len(t) > 80:
                raise ValueError("A tag is at most 80 characters; shorten it.")
        return tags
    '''
    assert at(code, select=["AEM202"]) == [(11, "AEM202")]


def test_a_zone_name_is_parsed_and_a_keyed_field_is_the_subject():
    code = '''
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    from mcp.server import Server

    server = Server("calendar")


    def _create(args: dict) -> str:
        try:
            tz = ZoneInfo(args.get("timezone", "UTC"))
        except ZoneInfoNotFoundError:
            raise ValueError("Unknown timezone.")
        try:
            count = int(args["count"])
        except ValueError:
            raise ValueError("Bad count.")
        return f"{tz} {count}"


    @server.call_tool()
    async def call_tool(name: str, arguments: dict):
        return _create(arguments)
    '''
    found = {(d.location.row, d.code): d.message for d in lint(code, select=["AEM202", "AEM204"])}
    assert set(found) == {(13, "AEM202"), (13, "AEM204"), (17, "AEM202"), (17, "AEM204")}
    assert "`timezone`" in found[(13, "AEM202")] and "IANA time zone" in found[(13, "AEM204")]
    assert "`count`" in found[(17, "AEM202")] and "args['count'] must be an integer" in found[(17, "AEM204")]


def test_a_zero_argument_helpers_text_is_the_message():
    code = '''
    import re

    MAX_TAG_LEN = 39


    def _tag_rule() -> str:
        """The rule, said once."""
        return f"Tags hold lowercase letters and hyphens, at most {MAX_TAG_LEN} characters."


    def _generic() -> str:
        return "Something went wrong."


    def check(tag: str) -> str:
        if not re.fullmatch(r"[a-z-]+", tag):
            raise ValueError(_tag_rule())
        if len(tag) > 100:
            raise ValueError(_generic())
        return tag
    '''
    assert at(code, select=["AEM101", "AEM202"]) == [(18, "AEM202"), (20, "AEM101"), (20, "AEM202")]
