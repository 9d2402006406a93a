"""Issue 14 items 1-4: caller input as data flow (extract/provenance.py), guards in every form,
a validating try/except among them (extract/guards.py), and closed vs open value sets
(extract/value_sets.py). Each case asserts the exact (row, code) pairs errlint reports, so nothing
else is reported either; the `neg_` cases are close shapes that must stay as they are. Most snippets are
library code (no entry point), so they opt in to AEM201 on plain raises (`EXC_STEPS`), as an SDK author
would: a close shape then shows the one finding it keeps, not silence that could hide a wrong verdict.
Where a message misses more than two parts, the one-verdict cap (checks/verdict.py) keeps the first two."""
from __future__ import annotations

import textwrap

import libcst as cst
import pytest
from conftest import EXC_STEPS, at, lint

from errlint.checks.base import FileContext
from errlint.extract.provenance import provenance
from errlint.extract.walker import extract

# Item 1: caller input through sys.argv, request objects, argparse, env, re-binding, unpacking, loops, receivers.
ITEM1 = {
    'example': ('''
import sys

def main():
    unit = sys.argv[1].split(":")[-1]
    if unit not in {"ms", "s", "min"}:
        sys.exit("Unknown unit in the polling interval.")
''', [(7, 'AEM202'), (7, 'AEM204')]),
    'module_argv': ('''
import sys

if __name__ == "__main__":
    raw = sys.argv[1]
    level = raw.strip().lower()
    if level not in ("debug", "info", "warning"):
        sys.exit("Unsupported log level.")
''', [(8, 'AEM101'), (8, 'AEM202'), (8, 'AEM204')]),
    'flask_request': ('''
from flask import Flask, abort, jsonify, request

app = Flask(__name__)

@app.route("/export")
def export():
    fmt = request.args.get("format", "csv")
    if fmt not in ("csv", "json"):
        raise ValueError("Export format is not supported")
    return jsonify([])
''', [(10, 'AEM202'), (10, 'AEM204')]),  # the message names ?format= but says neither what it got nor what passes (test_named_input_echo)
    'argparse_loop': ('''
import argparse

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cols")
    args = parser.parse_args()
    for col in args.cols.split(","):
        name, _, kind = col.partition(":")
        if kind not in ("int", "str"):
            raise SystemExit("A column has an unsupported type.")
''', [(11, 'AEM101'), (11, 'AEM202'), (11, 'AEM204')]),
    'env_rebind': ('''
import os

def load_timeout():
    value = os.environ.get("APP_TIMEOUT")
    if value is None:
        value = "30"
    seconds = int(value)
    if seconds > 600:
        raise ValueError("The request timeout is too long.")
    return seconds
''', [(10, 'AEM101'), (10, 'AEM202'), (10, 'AEM204')]),
    'click_unpacking': ('''
import click

@click.command()
@click.argument("spec")
def pin(spec):
    name, version = spec.split("==", 1)
    major, _, _ = version.partition(".")
    if not major.isdigit():
        raise click.ClickException("The requirement could not be pinned.")
''', [(10, 'AEM101'), (10, 'AEM202'), (10, 'AEM204')]),  # a failure shape with nothing named: AEM101 first
    'mcp_rebinding': ('''
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("img")

@mcp.tool()
def resize(size: str = "") -> str:
    mode = "fit"
    if size.endswith("!"):
        mode = size[:-1]
    if mode not in ("fit", "fill", "crop"):
        raise ToolError("Resize mode is not understood.")
    return mode
''', [(13, 'AEM202'), (13, 'AEM204')]),
    'neg_returncode': ('''
import subprocess

def build(target):
    proc = subprocess.run(["make", target])
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"make {target!r} crashed; rerun with V=1 to see the failing step.")
''', []),
    'neg_state': ('''
class Pool:
    SIZES = ("s", "m")

    def grow(self):
        if self.size not in self.SIZES:
            raise RuntimeError("The pool is in an invalid state")
''', []),
}

# Item 2: a validating try/except is a guard (Decimal, JSON, int, date, enum member).
ITEM2 = {
    'example': ('''
from decimal import Decimal, InvalidOperation

def parse_price(text):
    try:
        return Decimal(text)
    except InvalidOperation:
        raise ValueError("Price could not be read")
''', [(8, 'AEM101'), (8, 'AEM202'), (8, 'AEM204')]),  # a failure shape with nothing named: AEM101 first (one-verdict cap of two)
    'fastapi_json': ('''
import json
from fastapi import FastAPI, HTTPException

app = FastAPI()

@app.post("/rules")
def add_rule(payload: str):
    try:
        rule = json.loads(payload)
    except json.JSONDecodeError:
        raise HTTPException(status_code=400, detail="The rule could not be parsed.")
    return rule
''', [(12, 'AEM101'), (12, 'AEM202'), (12, 'AEM204')]),  # a failure shape with nothing named: AEM101 first (one-verdict cap of two)
    'click_int': ('''
import click

@click.command()
@click.option("--workers")
def run(workers):
    try:
        count = int(workers)
    except ValueError:
        raise click.ClickException("Bad worker setting.")
    click.echo(count)
''', [(10, 'AEM101'), (10, 'AEM202'), (10, 'AEM204')]),
    'mcp_date': ('''
from datetime import datetime
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("cal")

@mcp.tool()
def book(day: str, room: str) -> str:
    try:
        when = datetime.strptime(day, "%Y-%m-%d")
    except ValueError:
        raise ToolError("Could not book the room.")
    return str(when)
''', [(13, 'AEM101'), (13, 'AEM202'), (13, 'AEM204')]),  # a failure shape with nothing named: AEM101 first (one-verdict cap of two)
    'enum': ('''
import enum

class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"

def paint(name):
    try:
        color = Color(name)
    except ValueError:
        raise ValueError("That colour is not offered")
    return color
''', [(12, 'AEM202'), (12, 'AEM204')]),
    'neg_good': ('''
from decimal import Decimal, InvalidOperation

def parse_price(text):
    try:
        return Decimal(text)
    except InvalidOperation:
        raise ValueError(f"price {text!r} is not a decimal number; write it like 12.50")
''', [(8, 'AEM201')]),
    'neg_not_parse': ('''
def save(path, data):
    try:
        with open(path, "w") as fh:
            fh.write(data)
    except OSError as e:
        raise RuntimeError(f"Could not save {path!r}: {e.strerror}. Check the folder exists.")
''', []),  # an OSError is no parse: no echo or allowed form owed; "check the folder exists" of the path shown is a step
}

# Item 3: expression bounds, lookups through a local, deny rules, quantifiers; call outcomes are not inputs.
ITEM3 = {
    'example': ('''
def crop(image, left, top, right, bottom):
    if right > image.width:
        raise ValueError(f"Crop box ({right}, {bottom}) falls outside the picture")
''', [(4, 'AEM204')]),
    'len_bound_aiohttp': ('''
from aiohttp import web

async def pick(request):
    data = await request.json()
    index = int(data["index"])
    choices = data["choices"]
    if index >= len(choices):
        raise web.HTTPBadRequest(text=f"Choice {index} was not offered")
    return web.json_response({})
''', [(9, 'AEM204')]),
    'lookup_local': ('''
HANDLERS = {"csv": print, "json": print}

def export(kind):
    handler = HANDLERS.get(kind)
    if handler is None:
        raise ValueError("No exporter is registered for this request")
    return handler
''', [(7, 'AEM202'), (7, 'AEM204')]),
    'deny_prefix_drf': ('''
from rest_framework import serializers

FORBIDDEN = ("admin", "root")

def check_username(username):
    if username.startswith(FORBIDDEN):
        raise serializers.ValidationError("This username cannot be used.")
''', [(8, 'AEM101'), (8, 'AEM204')]),  # a failure shape with nothing named: AEM101 first (one-verdict cap of two)
    'quantifier': ('''
def set_tags(tags):
    if not all(t.isidentifier() for t in tags):
        raise ValueError(f"Tags {tags!r} were rejected")
''', [(4, 'AEM204')]),
    'deny_contains': ('''
def open_note(name):
    if "/" in name:
        raise PermissionError(f"Note {name!r} was refused")
''', [(4, 'AEM204')]),  # (a traversal deny rule, `".." in name`, is an attack guard: tests/test_security_rejections.py)
    'neg_status': ('''
import httpx

def fetch(url):
    resp = httpx.get(url)
    if resp.status_code not in (200, 204):
        raise RuntimeError(f"Fetching {url} failed with status {resp.status_code}; retry after 60 s.")
''', []),
    'neg_bound_stated': ('''
def crop(image, right):
    if right > image.width:
        raise ValueError(f"right={right} exceeds the image width {image.width}")
''', []),  # the bound stated is the requirement, and the requirement is the step (test_plain_steps)
}

# Item 4: closed sets (config allow-lists, enums, class allow-lists) vs open sets (records from storage).
ITEM4 = {
    'example': ('''
SETTINGS = {"themes": ["dark", "light"]}

def set_theme(theme):
    if theme not in SETTINGS["themes"]:
        raise ValueError(f"Theme {theme!r} is not available")
''', [(6, 'AEM204')]),
    'django_settings': ('''
from django.conf import settings
from django.http import JsonResponse

def switch_language(request, code):
    if code not in settings.LANGUAGES_ENABLED:
        raise ValueError(f"Language {code!r} cannot be selected")
    return JsonResponse({})
''', [(7, 'AEM204')]),
    'enum_members': ('''
import enum

class Priority(enum.Enum):
    LOW = 1
    HIGH = 2

def triage(level):
    if level not in Priority.__members__:
        raise ValueError(f"Priority {level!r} is not recognised")
''', [(10, 'AEM204')]),
    'class_allowlist': ('''
import click

class Exporter:
    supported_formats = ("csv", "xlsx")

    def export(self, fmt):
        if fmt not in self.supported_formats:
            raise click.ClickException(f"Cannot export as {fmt!r}")
''', [(9, 'AEM204')]),
    'open_db': ('''
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("crm")

@mcp.tool()
def list_customers() -> list:
    return []

@mcp.tool()
def get_customer(customer: str, db=None) -> dict:
    known = db.query("select name from customers")
    if customer not in known:
        raise ToolError(f"Customer {customer!r} is not on file")
    return {}
''', [(15, 'AEM205')]),
    'neg_open_no_204': ('''
import os

def open_project(name, root):
    projects = os.listdir(root)
    if name not in projects:
        raise ValueError(f"Project {name!r} is not there; run `tool projects` to list them.")
''', []),
    'neg_interpolated': ('''
SETTINGS = {"themes": ["dark", "light"]}

def set_theme(theme):
    if theme not in SETTINGS["themes"]:
        raise ValueError(f"Theme {theme!r} is not available; pick one of {', '.join(SETTINGS['themes'])}")
''', []),
}


@pytest.mark.parametrize("name", sorted(ITEM1))
def test_item1(name):
    code, expected = ITEM1[name]
    assert at(code, settings=EXC_STEPS) == expected


@pytest.mark.parametrize("name", sorted(ITEM2))
def test_item2(name):
    code, expected = ITEM2[name]
    assert at(code, settings=EXC_STEPS) == expected


@pytest.mark.parametrize("name", sorted(ITEM3))
def test_item3(name):
    code, expected = ITEM3[name]
    assert at(code, settings=EXC_STEPS) == expected


@pytest.mark.parametrize("name", sorted(ITEM4))
def test_item4(name):
    code, expected = ITEM4[name]
    assert at(code, settings=EXC_STEPS) == expected


def _messages(code):
    facts = extract(cst.parse_module(textwrap.dedent(code)))
    return facts, facts.messages


def test_provenance_follows_every_binding_and_stops_at_outcomes():
    facts, (message,) = _messages('''
        import os, subprocess, sys

        def run(target, flags):
            mode = "fast"
            if flags:
                mode = flags[0]
            first, *rest = sys.argv[1:]
            home = os.environ["HOME"]
            for item in target.split(","):
                pass
            proc = subprocess.run(["make", target])
            row = TABLE.get(target)
            fixed = "x"
            raise ValueError(f"{mode}{first}{home}{item}{proc}{row}{fixed}")
    ''')
    source = provenance(message)
    assert source.inputs(["mode", "first", "rest", "home", "item", "proc", "row", "fixed", "flags"]) == {"mode", "first", "rest", "home", "item", "flags"}
    # "can the caller fix it" counts the outcome of a call made with the input
    assert provenance(message, outcomes=True).inputs(["proc", "row", "fixed"]) == {"proc", "row"}
    assert message.provenance is not None  # the Message carries the model


def test_guard_facts_are_carried_by_the_message():
    code = '''
        SETTINGS = {"themes": ["dark"]}
        def f(theme):
            if theme not in SETTINGS["themes"]:
                raise ValueError("no")
    '''
    facts, (message,) = _messages(code)
    ctx = FileContext("x.py", facts, None, frozenset())
    found = ctx.guard(message)
    assert message.guard_facts is found
    (membership,) = found.memberships
    assert (membership.subject, membership.collection, membership.closed) == ("theme", "SETTINGS", True)


@pytest.mark.parametrize("collection, closed", [
    ("{\"a\", \"b\"}", True),
    ("Color.__members__", True),
    ("self.supported_formats", True),
    ("settings.LANGUAGES", True),
    ("db.query(\"select id from t\")", False),
    ("os.listdir(root)", False),
    ("client.list_projects()", False),
    ("items", None),
])
def test_value_sets_tell_closed_from_open(collection, closed):
    code = f'''
        import os
        def f(self, key, root, items, db, client, settings):
            if key not in {collection}:
                raise ValueError("no")
    '''
    facts, (message,) = _messages(code)
    ctx = FileContext("x.py", facts, None, frozenset())
    (membership,) = ctx.guard(message).memberships
    assert membership.closed is closed


# Close shapes found on real code (bump-my-version, datasette, excel-mcp-server, httpie, errlint's
# own runner) that must stay as they are: outcomes, deny rules stated in words, echoes of the
# value a subject came from, a parser's own text, a raise its own `try` catches.
CLOSE_SHAPES = {
    'returncode_from_helper': ('''
def run_hook(script, env):
    result = run_command(script, env)
    if result.returncode != 0:
        raise HookError(f"{script!r} exited with {result.returncode}; fix the hook and rerun.")
''', []),
    'deny_stated_in_words': ('''
import click

def validate_secret(ctx, param, value):
    for name, secret in value:
        if "'" in secret:
            raise click.BadParameter("--plugin-secret cannot contain single quotes")
    return value
''', []),
    'deny_unprintable': ('''
def resolve(raw_path):
    if "\\x00" in raw_path:
        raise ValueError("Path must be a non-empty file system path, e.g. data/report.xlsx.")
''', []),
    'ancestor_echoed': ('''
def parse_range(header):
    first, last = (int(x) for x in header.split("-"))
    if first > last:
        raise ValueError(f"Invalid range header {header!r}: the first byte comes after the last")
''', [(5, 'AEM201')]),
    'parser_text_shown': ('''
import argparse

def positive(text):
    try:
        return int(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"expected a whole number: {error}")
''', []),
    'raise_caught_by_own_try': ('''
def sizes(paths, limit):
    out = []
    for path in paths:
        try:
            info = path.stat()
            if info.st_size > limit:
                raise OSError("file too large")
            out.append(info.st_size)
        except OSError:
            out.append(None)
    return out
''', []),
    'bare_raise_caught_by_own_try': ('''
def page_size(raw):
    try:
        size = int(raw)
        if size < 0:
            raise ValueError
    except ValueError:
        raise ValueError(f"page size must be a whole number >= 0 (got {raw!r})") from None
    return size
''', []),
}


@pytest.mark.parametrize("name", sorted(CLOSE_SHAPES))
def test_close_shapes(name):
    code, expected = CLOSE_SHAPES[name]
    assert at(code, settings=EXC_STEPS) == expected


def test_provenance_walks_a_long_concatenation_without_recursion():
    code = "def f(y):\n    x = " + " + ".join(f"'p{i}'" for i in range(1000)) + " + y\n    raise ValueError(x)\n"
    facts = extract(cst.parse_module(code))
    (message,) = facts.messages
    assert provenance(message).inputs(["x"]) == {"x"}


def test_the_environment_is_input_for_a_command_not_for_an_agent():
    tool = '''
        import os
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("t")

        @mcp.tool()
        def sync(project_id: str) -> str:
            key = os.environ.get("TRACKER_KEY", "")
            if not key:
                raise ToolError("The tracker key is not set. Do not retry; contact your administrator.")
            return "ok"
    '''
    assert at(tool) == []  # only an operator can set the key: AEM501/AEM502 stay silent
    command = '''
        import os
        import sys

        def main():
            level = os.environ.get("APP_LOG_LEVEL", "info").lower()
            if level not in ("debug", "info"):
                sys.exit("Unknown log level.")
    '''
    assert at(command) == [(8, "AEM202"), (8, "AEM204")]


def test_early_return_fall_through_is_a_guard():
    code = '''
        FORMATS = {"csv": 1, "json": 2}

        def export(fmt, rows):
            if fmt in FORMATS:
                return FORMATS[fmt]
            raise ValueError("Unsupported export format")
    '''
    assert at(code) == [(7, "AEM101"), (7, "AEM202"), (7, "AEM204")]
    unrelated = '''
        def load(key, cache):
            if cache.hit(key):
                return cache.get(key)
            raise RuntimeError("Cache miss; call warm() first.")
    '''
    assert at(unrelated) == []


def test_config_read_from_a_caller_path_is_input_and_a_response_is_not():
    config = '''
        import json

        def load(path):
            with open(path) as fh:
                cfg = json.load(fh)
            theme = cfg["theme"]
            if theme not in ("dark", "light"):
                raise ValueError("Unknown theme in the config file")
    '''
    assert at(config) == [(9, "AEM202"), (9, "AEM204")]
    response = '''
        import httpx

        MAX_BYTES = 10

        def download(paper_id, timeout):
            with httpx.Client(timeout=timeout) as client:
                with client.stream("GET", f"https://x/{paper_id}") as response:
                    declared = response.headers.get("content-length")
                    if int(declared) > MAX_BYTES:
                        raise ValueError("The archive exceeds the safety limit")
    '''
    assert at(response, settings=EXC_STEPS) == [(11, "AEM201")]  # the size is the server's answer: no echo, no allowed range


# An exit that reports an error is a failure branch: what follows it passed that check.
FAILED_EXIT = {
    'raise_then_raise': ('''
def resize(width):
    if width > 4000:
        raise ValueError(f"width {width} is above 4000; pass at most 4000")
    raise RuntimeError("Resizing is not available on this host")
''', []),
    'flask_error_return_then_error_return': ('''
from flask import Flask, jsonify, request
app = Flask(__name__)
@app.post("/tags")
def tag():
    name = request.json["name"]
    if len(name) > 40:
        return jsonify(error=f"Tag {name!r} is longer than 40 characters"), 400
    return jsonify(error="The tag store is read-only right now; retry in a minute"), 503
''', []),
    'success_exit_then_raise': ('''
CACHE = {}
def lookup(name):
    if name in CACHE:
        return CACHE[name]
    raise KeyError("Unknown name")
''', [(6, 'AEM202')]),  # the control: a success exit makes the sink its check's failure
}


@pytest.mark.parametrize("name", sorted(FAILED_EXIT))
def test_an_exit_that_reports_an_error_guards_nothing_after_it(name):
    code, expected = FAILED_EXIT[name]
    assert at(code, select=["AEM202", "AEM203", "AEM204"]) == expected  # no echo owed for the earlier check


# Parsing what a call to the world returned is not a validating guard on caller input.
OUTCOME_PARSE = {
    'inline_response': '''
import json, requests
def fetch(url: str) -> dict:
    try:
        return json.loads(requests.get(url).text)
    except Exception:
        raise RuntimeError("The server sent a page that is not JSON")
''',
    'bound_response': '''
import json, httpx
def fetch(url: str) -> dict:
    resp = httpx.get(url)
    try:
        return json.loads(resp.text)
    except ValueError:
        raise RuntimeError("The server sent a page that is not JSON")
''',
    'process_output': '''
import subprocess, yaml
def inventory(host: str) -> dict:
    proc = subprocess.run(["ssh", host, "cat", "/etc/inv.yml"], capture_output=True, text=True)
    try:
        return yaml.safe_load(proc.stdout)
    except Exception:
        raise RuntimeError("The inventory on the host is not valid YAML")
''',
}


@pytest.mark.parametrize("name", sorted(OUTCOME_PARSE))
def test_parsing_an_outcome_is_not_a_guard_on_input(name):
    # no echo and no allowed form; behind a catch-all, not caller-fixable either: no AEM201 even with
    # steps on plain raises (a narrow handler around a fetch of the caller's URL may be the caller's to
    # fix, as a 4xx for the URL it gave is: that is AEM201's call, not this test's)
    code = OUTCOME_PARSE[name]
    assert at(code, select=["AEM202", "AEM203", "AEM204"]) == []
    if "except Exception" in code:
        assert at(code, select=["AEM201"], settings=EXC_STEPS) == []


def test_a_document_parse_asks_for_the_parsers_error_not_the_document():
    plain = '''
        import json
        from fastmcp import FastMCP
        mcp = FastMCP("rules")
        @mcp.tool()
        def add_rule(payload: str) -> dict:
            try:
                return json.loads(payload)
            except json.JSONDecodeError as err:
                raise ValueError("The rule is not valid JSON; send one JSON object.")
    '''
    found = lint(plain, select=["AEM202"])
    assert [(d.location.row, d.code) for d in found] == [(10, "AEM202")]
    assert "where `payload` fails to parse as JSON" in found[0].message and '" ({err})"' in found[0].message
    unnamed = plain.replace(" as err:", ":")
    found = lint(unnamed, select=["AEM202"])
    assert '" ({e})"' in found[0].message and "catch it `as e`" in found[0].suggestion
    shown = plain.replace('send one JSON object."', 'send one JSON object ({err})."').replace('raise ValueError("', 'raise ValueError(f"')
    assert lint(shown, select=["AEM202"]) == []
    toml = plain.replace("import json", "import tomllib").replace("json.loads", "tomllib.loads").replace("json.JSONDecodeError", "tomllib.TOMLDecodeError")
    assert "fails to parse as YAML/TOML" in lint(toml, select=["AEM202"])[0].message


def test_aem204_states_the_allowed_side_never_the_failing_test():
    """The finding says what is allowed: the inverse of the failing comparison, and one accepted
    value as "must be X" (not "one of: X")."""
    cases = {
        "def f(size):\n    if size > 4096:\n        raise ValueError('The upload is too large')\n": "(size must be <= 4096)",
        "def f(n):\n    if n < 10:\n        raise ValueError('The count is too small')\n": "(n must be >= 10)",
        "def f(right, image):\n    if right > image.width:\n        raise ValueError('The crop box falls outside the picture')\n": "(right must be <= image.width)",
        "def f(kind):\n    if kind != 'VCARD':\n        raise ValueError('Unsupported component')\n": "(kind must be VCARD)",
    }
    for code, shown in cases.items():
        messages = [d.message for d in lint(code, select=["AEM204"])]
        assert len(messages) == 1 and messages[0].endswith(shown), (code, messages)


def test_a_value_with_a_literal_fallback_is_shown_in_every_variant():
    """`kind = args["type"] if "type" in args else "content"`: the template has one variant per value;
    the one with the literal fallback inlines it, so the message shows the value either way."""
    for binding in ('args["type"] if "type" in args else "content"', 'args.get("type") or "content"', '"content" if not args else args["type"]'):
        code = f'''
            def run_tool(self, args: dict):
                kind = {binding}
                valid = ["content", "metadata"]
                if kind not in valid:
                    raise RuntimeError(f"Invalid type: {{kind}}. Must be one of: {{', '.join(valid)}}")
        '''
        assert at(code, select=["AEM202"]) == [], binding
