"""A message given as a structure is taken apart as the reader gets it (#14, item 5).

- `HTTPException(400, detail={...})`, `JSONResponse(content={"errors": [{"message": ...}]})`, aiohttp's
  `json_response({"error": {...}})`, Flask's `jsonify(errors=[...])`, `dict(error=...)`, a dict bound
  to a name first: the `message`/`detail`/`error`/`errors` fields are the text, lists are read item by
  item, and a status or error code (a literal, or a constant such as `ErrorCode.BAD_PASSWORD`) is
  metadata. A `**spread` hides fields: the text is then incomplete, and no rule asks for a missing part.
- A `ValidationError` of DRF, Django or marshmallow given a dict maps field names to texts: the reader
  sees each text beside its field's name (`{"quantity": ["Invalid value."]}`), so the message names
  the field. DRF's `serializers.ValidationError` is the same class as `exceptions.ValidationError`.
- A field a web client sent is an input, named by its key: `request.args.get("limit")`,
  `request.query["width"]`, `request.GET.get("page")`, DRF's `request.data["quantity"]`, or a field of
  the body read from the request (`body = request.get_json(); body.get("sort")`).
"""
from __future__ import annotations

import pytest

from conftest import PREVIEW, lint


def _found(code, select=None):
    return sorted((d.location.row, d.code) for d in lint(code, select=select, settings=PREVIEW))


def _texts(code):
    import libcst as cst

    from errlint.extract.walker import extract

    return [[t.text if t.complete else t.text + "<unknown>" for t in m.templates] for m in extract(cst.parse_module(code)).messages]


@pytest.mark.parametrize("code, row", [
    # a detail dict with an error field
    ('''from fastapi import FastAPI, HTTPException

app = FastAPI()


@app.get("/paint")
def paint(color: str):
    if color not in {"red", "green"}:
        raise HTTPException(status_code=422, detail={"error": "Something went wrong."})
    return {}
''', 9),
    # a list of error objects under `errors`
    ('''from fastapi import FastAPI
from fastapi.responses import JSONResponse

app = FastAPI()


@app.get("/items/{item_id}")
def item(item_id: str):
    if not item_id.isdigit():
        return JSONResponse(status_code=400, content={"errors": [{"message": "Invalid request."}]})
    return {}
''', 10),
    # aiohttp: a nested error object beside an error code
    ('''from aiohttp import web


async def resize(request):
    width = int(request.query["width"])
    if width > 4000:
        return web.json_response({"error": {"code": "too_wide", "message": "Operation failed."}}, status=400)
    return web.json_response({})
''', 7),
    # a dict built with dict(...) and bound to a name before the raise
    ('''from fastapi import FastAPI, HTTPException

app = FastAPI()


@app.post("/export")
def export(fmt: str):
    if fmt not in ("csv", "json"):
        body = dict(error="An error occurred.", code="bad_format")
        raise HTTPException(400, detail=body)
    return {}
''', 10),
])
def test_generic_text_inside_a_structure_is_judged(code, row):
    assert (row, "AEM101") in _found(code, select=["AEM101"])


def test_each_shape_gives_the_text_the_reader_gets():
    code = '''from fastapi import HTTPException
from fastapi.responses import JSONResponse


def f(x, extra):
    if x:
        raise HTTPException(400, detail={"code": ErrorCode.BAD_PASSWORD, "reason": "Password too short."})
    if x > 2:
        return JSONResponse(status_code=409, content={"errors": [{"message": "Name taken."}, {"message": "Try another name."}]})
    raise HTTPException(400, detail={"error": "Bad size.", **extra})
'''
    texts = _texts(code)
    assert texts[0] == ["Password too short."]  # the error code is metadata
    assert texts[1] == ["Name taken. Try another name."]  # list items one after the other
    assert texts[2] == ["Bad size. <unknown>"]  # the spread fields are unknown


def test_a_spread_leaves_the_text_incomplete():
    code = '''from fastapi import FastAPI, HTTPException

app = FastAPI()


@app.get("/paint")
def paint(color: str, extra: dict):
    if color not in {"red", "green"}:
        raise HTTPException(status_code=422, detail={"error": "Unsupported color.", **extra})
    return {}
'''
    assert _found(code, select=["AEM202", "AEM204"]) == []
    assert (9, "AEM204") in _found(code.replace(', **extra}', '}'), select=["AEM204"])


@pytest.mark.parametrize("code, text", [
    ('''from rest_framework.exceptions import ValidationError


def check(qty):
    raise ValidationError({"quantity": ["Must be at least 1."]})
''', '"quantity": Must be at least 1.'),
    ('''from rest_framework import serializers


def check(a, b):
    raise serializers.ValidationError({"start": "Not a date.", "end": ["Not a date.", "Before start."]})
''', '"start": Not a date. "end": Not a date. Before start.'),
    ('''from marshmallow import ValidationError


def check(email):
    raise ValidationError({"address": {"zip": ["Unknown zip code."]}})
''', '"address": "zip": Unknown zip code.'),
    ('''from django.core.exceptions import ValidationError


def check(x):
    raise ValidationError({"__all__": "Passwords differ."})
''', 'Passwords differ.'),
])
def test_validation_error_dicts_show_each_text_beside_its_field(code, text):
    assert _texts(code) == [[text]]


def test_a_field_keyed_text_names_the_field():
    code = '''from rest_framework import serializers
from rest_framework.views import APIView


class OrderView(APIView):
    def post(self, request):
        if request.data.get("coupon") == "":
            raise serializers.ValidationError({"coupon": "Invalid value."})
        if request.data.get("note") == "":
            raise serializers.ValidationError("Invalid value.")
        return None
'''
    assert _found(code, select=["AEM101"]) == [(10, "AEM101")]
    http = [d for d in lint(code, select=["AEM201"], settings=PREVIEW) if d.location.row == 8]
    assert [d.audience for d in http] == ["http"]  # `serializers.ValidationError` answers the HTTP client


# ---- a field of a web request is an input, named by its key (#14, item 1) ----------------------------

@pytest.mark.parametrize("code, field", [
    ('''from flask import Flask, jsonify, request

app = Flask(__name__)


@app.get("/search")
def search():
    limit = int(request.args.get("limit", 20))
    if limit > 100:
        return jsonify(error="Request failed."), 400
    return jsonify([])
''', "limit"),
    ('''from aiohttp import web


async def resize(request):
    width = int(request.query["width"])
    if width > 4000:
        raise web.HTTPBadRequest(text="Operation failed.")
    return web.json_response({})
''', "width"),
    ('''from starlette.responses import JSONResponse


async def sort_rows(request):
    data = await request.json()
    if data["order"] not in ("asc", "desc"):
        return JSONResponse({"error": "Something went wrong."}, status_code=400)
    return JSONResponse({})
''', "order"),
    ('''from django.http import JsonResponse
from django.views import View


class PageView(View):
    def get(self, request):
        page = request.GET.get("page", "1").strip()
        if not page.isdigit():
            return JsonResponse({"error": "Invalid request."}, status=400)
        return JsonResponse({})
''', "page"),
])
def test_request_fields_are_the_inputs_a_generic_message_fails_to_name(code, field):
    found = [d for d in lint(code, select=["AEM101"], settings=PREVIEW)]
    assert [d.code for d in found] == ["AEM101"]
    assert f"names no input (`{field}`)" in found[0].message


def test_a_field_of_the_body_read_from_the_request_is_an_input():
    code = '''from flask import Flask, jsonify, request

app = Flask(__name__)


@app.post("/search")
def search():
    body = request.get_json()
    if body.get("sort") not in ("asc", "desc"):
        return jsonify(error="Request failed."), 400
    return jsonify([])
'''
    found = lint(code, select=["AEM101"], settings=PREVIEW)
    assert [(d.location.row, d.code) for d in found] == [(10, "AEM101")]
    assert "names no input (`sort`)" in found[0].message


@pytest.mark.parametrize("code, text", [
    ('''from flask import Flask, jsonify, request

app = Flask(__name__)


@app.get("/search")
def search():
    limit = int(request.args.get("limit", 20))
    if limit > 100:
        return jsonify(error="Invalid limit."), 400
    return jsonify([])
''', "names no value or next step for `limit`"),
    ('''import click


@click.command()
@click.argument("bundle")
def main(bundle):
    if not bundle.endswith(".zip"):
        raise click.ClickException("Unable to use this bundle.")
''', "names no value or next step for `bundle`"),
    ('''import click


@click.command()
@click.argument("bundle")
def main(bundle):
    if not bundle.endswith(".zip"):
        raise click.ClickException("Unable to use this file.")
''', "names no input (`bundle`), value or next step"),
])
def test_a_generic_message_that_says_the_inputs_name_is_not_told_it_names_no_input(code, text):
    # the finding never contradicts the text it quotes
    found = lint(code, select=["AEM101"], settings=PREVIEW)
    assert [d.code for d in found] == ["AEM101"]
    assert found[0].message.endswith(text)


@pytest.mark.parametrize("code, text", [
    # a dict of fields the code fills by literal keys, a list of texts it appends
    ('''from rest_framework import serializers


def validate(data):
    errors = {}
    if not data.get("name"):
        errors["name"] = "This field is required."
    if errors:
        raise serializers.ValidationError(errors)
''', '"name": This field is required.'),
    ('''def check(items):
    problems = []
    for item in items:
        if item < 0:
            problems.append(f"negative: {item}")
    if problems:
        raise ValueError(problems)
''', "negative: {item}"),
])
def test_a_structure_the_code_fills_holds_what_was_put_in_it(code, text):
    assert _texts(code) == [[text]]


def test_a_structure_filled_by_computed_keys_is_unknown():
    code = '''from rest_framework import serializers


def validate(data, fields):
    errors = {}
    for field in fields:
        errors[field] = "This field is required."
    raise serializers.ValidationError(errors)
'''
    assert _texts(code) == [["{errors}<unknown>"]]  # before: read as a complete, empty text
    # and no rule reads the empty text as the whole message
    assert [d.code for d in lint(code, settings=PREVIEW)] == []
