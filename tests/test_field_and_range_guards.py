"""What a guard tested, stated as the guard tested it.

- A field read off a namespace or record (`args.port`, `body.limit`, `opts.retries`) is the value that
  failed, not the whole object: AEM202 asks to show that field and AEM204 says what the field allows.
  A method called on the input (`task_id.lower()`) is no field.
- A range whose lower end is a test against 0 or 1 (`limit < 1 or limit > MAX_LIMIT`,
  `not 0 < port < 65536`) is stated with both ends, in the finding and in its fix.
"""
from __future__ import annotations

import pytest
from conftest import PREVIEW, lint


def messages(code: str, select):
    return {d.code: d.message for d in lint(code, select=select, settings=PREVIEW)}


def allowed(code: str) -> str:
    found = lint(code, select=["AEM204"], settings=PREVIEW)
    assert len(found) == 1, found
    return found[0].message.split("(", 1)[1].rsplit(")", 1)[0]


# ---------------------------------------------------------------------- fields of a namespace
ARGPARSE_PORT = '''\
import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="portprobe")
    parser.add_argument("port")
    args = parser.parse_args(argv)
    try:
        port = int(args.port)
    except ValueError:
        parser.error("invalid port")
    return port


if __name__ == "__main__":
    raise SystemExit(main())
'''


def test_a_parsed_namespace_field_is_what_failed():
    found = messages(ARGPARSE_PORT, ["AEM202", "AEM204"])
    assert found["AEM204"] == "the message does not say what is allowed (args.port must be an integer)"
    assert found["AEM202"].startswith("the message does not show the rejected value of `args.port`; append \" (got {args.port!r:.80})\"")


def test_a_compared_namespace_field_is_what_failed():
    code = '''\
import argparse


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--retries", type=int, default=3)
    args = parser.parse_args(argv)
    if args.retries < 0 or args.retries > 9:
        parser.error("retries out of range")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
'''
    found = messages(code, ["AEM202", "AEM204"])
    assert found["AEM204"] == "the message does not say what is allowed (args.retries must be >= 0 and <= 9)"
    assert "rejected value of `args.retries`" in found["AEM202"]


def test_a_request_model_field_in_a_route():
    code = '''\
from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

app = FastAPI()


class Page(BaseModel):
    limit: int


@app.post("/items")
def items(body: Page):
    if body.limit > 100:
        raise HTTPException(status_code=422, detail="Page too large")
    return []
'''
    assert allowed(code) == "body.limit must be <= 100"


def test_a_field_of_a_parameter_gets_no_fix_that_echoes_the_whole_object():
    code = '''\
from fastmcp import FastMCP

mcp = FastMCP("x")


@mcp.tool()
def sync(opts: dict, name: str) -> str:
    if opts.retries > 5:
        raise ValueError("Too many retries requested")
    return name
'''
    found = lint(code, select=["AEM202"], settings=PREVIEW)
    assert [d.message.split(";")[0] for d in found] == ["the message does not show the rejected value of `opts.retries`"]
    assert found[0].fix is None  # appending {opts!r} would echo every option, not the one that failed


def test_a_method_called_on_the_input_is_no_field():
    code = '''\
import re

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("tasks")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


@mcp.tool
def set_status(task_id: str) -> dict:
    if not UUID.match(task_id.lower()):
        raise ToolError("We could not process this request.")
    return {}
'''
    found = messages(code, ["AEM202", "AEM204"])
    assert "rejected value of `task_id`;" in found["AEM202"]
    assert found["AEM204"] == "the message does not say what is allowed (task_id must match UUID)"


def test_two_fields_of_one_object_keep_the_object():
    code = "def f(req):\n    if req.width > req.height:\n        raise ValueError('Bad crop')\n"
    found = lint(code, select=["AEM202"], settings=PREVIEW)
    assert all("`req.width`" not in d.message and "`req.height`" not in d.message for d in found)


# ---------------------------------------------------------------------- both ends of a range
@pytest.mark.parametrize("test, expected", [
    ("limit < 1 or limit > 500", "limit must be >= 1 and <= 500"),
    ("not 0 < limit < 65536", "limit must be > 0 and < 65536"),
    ("limit <= 0 or limit > MAX_LIMIT", "limit must be > 0 and <= MAX_LIMIT"),
    ("limit < 0 or limit >= 10", "limit must be >= 0 and < 10"),
    ("limit > 500 or limit < 1", "limit must be >= 1 and <= 500"),
])
def test_a_range_keeps_its_lower_end(test, expected):
    code = f"MAX_LIMIT = 500\n\n\ndef page(limit):\n    if {test}:\n        raise ValueError('Invalid page size.')\n"
    assert allowed(code) == expected


def test_a_positivity_test_alone_is_no_range():
    code = "def page(limit):\n    if limit <= 0:\n        raise ValueError('Invalid page size.')\n"
    assert lint(code, select=["AEM204"], settings=PREVIEW) == []


def test_the_fix_states_both_ends():
    code = "def page(limit):\n    if limit < 1 or limit > 500:\n        raise ValueError('Invalid page size.')\n"
    found = lint(code, select=["AEM204"], settings=PREVIEW)
    assert len(found) == 1 and found[0].fix is not None
    assert found[0].fix.title == 'Append "limit must be >= 1 and <= 500"'
