"""AEM202 asks for the rejected value only where the reader cannot tell it: a message that names the
input, about the one value the caller passed to the entry point as is, needs no echo. An element of a
collection, a count, a helper's parameter (one of many entries, maybe) and an unnamed input still do."""
from __future__ import annotations

from conftest import preview_rows


HEAD = "import argparse\nimport click\nfrom fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n"


def echo_rows(code: str) -> list:
    return preview_rows(HEAD + code, ["AEM202"])


def test_tool_argument_named_in_the_message():
    code = "@mcp.tool()\ndef read_doc(url: str) -> str:\n    url_str = str(url)\n    if not url_str.endswith('.html'):\n        raise ToolError('URL must end with .html')\n    return url_str\n"
    assert echo_rows(code) == []


def test_argparse_type_converter_naming_its_flag():
    code = ("def non_negative(value):\n    msg = '--cooldown must be a non-negative integer'\n    try:\n        n = int(value)\n"
            "    except ValueError as exc:\n        raise argparse.ArgumentTypeError(msg) from exc\n    if n < 0:\n"
            "        raise argparse.ArgumentTypeError(msg)\n    return n\n\n"
            "parser = argparse.ArgumentParser()\nparser.add_argument('--cooldown', type=non_negative)\n")
    assert echo_rows(code) == []
    # the same converter nothing registers is a helper: its value may be one of many
    assert echo_rows(code.replace(", type=non_negative", "")) == [11]


def test_click_option_value_named_by_its_flag():
    code = ("@click.command()\n@click.option('--level', 'lvl')\ndef run(lvl):\n    if lvl not in ('debug', 'info'):\n"
            "        raise click.ClickException('--level must be debug or info')\n")
    assert echo_rows(code) == []


def test_an_element_of_a_list_is_still_asked_for():
    code = ("@mcp.tool()\ndef search(columns: list) -> str:\n    for col in columns:\n        if col not in ('a', 'b'):\n"
            "            raise ToolError('Cannot search by that column; pass a or b')\n    return 'ok'\n")
    assert echo_rows(code) == [10]


def test_a_count_is_still_asked_for():
    code = ("@click.command()\n@click.argument('patterns', nargs=-1)\ndef purge(patterns):\n    if len(patterns) > 1:\n"
            "        raise click.UsageError('Too many patterns supplied')\n")
    assert echo_rows(code) == [10]


def test_an_input_the_message_does_not_name_is_still_asked_for():
    code = "@mcp.tool()\ndef crop(box: str) -> str:\n    if not box.startswith('('):\n        raise ToolError('Invalid value; pass a tuple like (1, 2)')\n    return box\n"
    assert echo_rows(code) == [9]


def test_a_helper_parameter_is_still_asked_for():
    code = ("import logging, sys\nlog = logging.getLogger('x')\n\ndef split_pair(raw: str):\n    if '=' not in raw:\n"
            "        log.error('Malformed --env entry. Expected NAME=VALUE')\n        sys.exit(1)\n    return raw.split('=', 1)\n")
    assert echo_rows(code) == [11]


# A field the reader sent, read by its literal key and named in the message: the reader holds the
# value (a query parameter it put in the URL, an argument of its own tool call). The same lookup in a
# loop, by a computed key, or under a message that names another field still needs the echo.

def test_query_parameter_read_by_key_and_named():
    code = ("def page(request):\n    size = request.args.get('_size') or 20\n    try:\n        n = int(size)\n"
            "    except ValueError:\n        raise ValueError('_size must be a positive integer')\n    return n\n")
    assert echo_rows(code) == []


def test_starlette_query_param_bound_named():
    code = ("def listing(request):\n    limit = int(request.query_params['limit'])\n    if limit > 500:\n"
            "        raise ValueError('limit must be at most 500')\n    return limit\n")
    assert echo_rows(code) == []


def test_lowlevel_argument_read_by_key_and_named():
    code = ("async def call_tool(name, arguments):\n    if arguments.get('amount', 0) <= 0:\n"
            "        raise ValueError('amount must be a positive number of cents')\n    return []\n")
    assert echo_rows(code) == []


def test_parsed_field_shape_named_but_parse_error_still_asks_for_the_position():
    code = ("import json\nclass Params:\n    def __init__(self, parameters):\n        text = parameters.get('filter', '')\n"
            "        try:\n            parsed = json.loads(text)\n        except ValueError:\n"
            "            raise ValueError(\"Invalid 'filter' parameter: must be valid JSON\")\n"
            "        if not isinstance(parsed, (list, dict)):\n"
            "            raise ValueError(\"Invalid 'filter' parameter: must be a JSON object or array\")\n        self.filter = parsed\n")
    # the parse failure (row 13) still needs the parser's position; the shape check (row 15) does not
    assert echo_rows(code) == [13]


def test_field_of_each_element_is_still_asked_for():
    code = ("def rows(payload):\n    for row in payload['rows']:\n        kind = row.get('kind')\n"
            "        if kind not in ('a', 'b'):\n            raise ValueError('kind must be a or b')\n")
    assert echo_rows(code) == [10]


def test_lookup_by_computed_key_is_still_asked_for():
    code = ("def read(args, field):\n    value = args[field]\n    if not value.isdigit():\n"
            "        raise ValueError('value must be digits only')\n    return value\n")
    assert echo_rows(code) == [9]


def test_field_the_message_does_not_name_is_still_asked_for():
    code = ("def page(request):\n    size = request.args.get('per_page')\n    if not size.isdigit():\n"
            "        raise ValueError('must be a whole number')\n    return size\n")
    assert echo_rows(code) == [9]


def test_environment_variable_is_not_the_readers_own_value():
    code = ("import os\ndef load_timeout():\n    seconds = int(os.environ.get('APP_TIMEOUT', '30'))\n    if seconds > 600:\n"
            "        raise ValueError('APP_TIMEOUT is too long')\n    return seconds\n")
    assert echo_rows(code) == [10]
