"""Issue 14 item 5: each web framework's error surface is a sink (responses with a 4xx/5xx status,
aiohttp's json_response and HTTP* errors, Flask abort and error tuples, DRF/Django error tables,
hand-built JSON-RPC replies), and a structured body is taken apart field by field."""
from __future__ import annotations

from conftest import at

SELECT = ["AEM101", "AEM102", "AEM103", "AEM201", "AEM202", "AEM203", "AEM204", "AEM205", "AEM206", "AEM207", "AEM3", "AEM601"]


def found(code):
    return at(code, select=SELECT)


def test_issue_example_fastapi_json_response_with_415():
    code = '''
        from fastapi import FastAPI
        from fastapi.responses import JSONResponse

        app = FastAPI()

        @app.post("/convert")
        async def convert(fmt: str):
            if fmt not in ("png", "jpg"):
                return JSONResponse(status_code=415, content={"message": "Unsupported request."})
            return {"ok": True}
    '''
    assert found(code) == [(10, "AEM101"), (10, "AEM202"), (10, "AEM204")]


def test_starlette_response_with_500_and_a_generic_body():
    code = '''
        from starlette.responses import PlainTextResponse

        def endpoint(request):
            return PlainTextResponse("Something went wrong", status_code=500)
    '''
    assert found(code) == [(5, "AEM101")]


def test_aiohttp_json_response_body_fields_are_classified():
    """`error` is the template; `name` echoes the value; `status` is metadata."""
    code = '''
        from aiohttp import web

        async def rename(request):
            data = await request.json()
            name = data["name"]
            if len(name) > 40:
                return web.json_response({"error": "Name too long; pass at most 40 characters.", "name": name, "status": 400}, status=400)
            return web.json_response({"error": "An error occurred", "status": 400}, status=422)
    '''
    assert found(code) == [(9, "AEM101")]  # AEM101 names the missing step


def test_aiohttp_http_error_with_text():
    code = '''
        from aiohttp import web

        async def handler(request):
            raise web.HTTPBadRequest(text="Something went wrong")
    '''
    assert found(code) == [(5, "AEM101")]


def test_flask_error_tuple_with_jsonify_and_status_constant():
    code = '''
        from http import HTTPStatus
        from flask import Flask, jsonify, request

        app = Flask(__name__)

        @app.post("/tags/<tag>")
        def add_tag(tag):
            if tag not in ("red", "green"):
                return jsonify(error="Something went wrong"), HTTPStatus.BAD_REQUEST
            return jsonify(ok=True), 201
    '''
    assert found(code) == [(10, "AEM101"), (10, "AEM202"), (10, "AEM204")]  # at most two wording findings


def test_django_json_response_and_drf_status_constant():
    code = '''
        from django.http import JsonResponse
        from rest_framework import status
        from rest_framework.response import Response

        def legacy(request, slug):
            return JsonResponse({"detail": "Operation failed"}, status=409)

        def api(request, slug):
            return Response({"detail": "Operation failed", "code": "conflict"}, status=status.HTTP_409_CONFLICT)
    '''
    assert found(code) == [(7, "AEM101"), (10, "AEM101")]


def test_drf_default_error_messages_judged_at_self_fail():
    code = '''
        from rest_framework import serializers

        class SlugField(serializers.CharField):
            default_error_messages = {
                "too_long": "Slug too long.",
                "unused": "Something went wrong.",
            }

            def to_internal_value(self, data):
                if len(data) > 50:
                    self.fail("too_long")
                return data
    '''
    # the entry read by fail() is judged where it fails (the guard on `data`); the other at the table
    assert found(code) == [(7, "AEM101"), (12, "AEM202"), (12, "AEM204")]


def test_django_error_messages_keyword():
    code = '''
        from django import forms

        class SignupForm(forms.Form):
            email = forms.EmailField(error_messages={"invalid": "Invalid input.", "unique": "A user with that email already exists."})
    '''
    # the table has no failure site: only prose rules judge its entries
    assert found(code) == [(5, "AEM101")]


def test_hand_built_jsonrpc_result_with_error_text_and_no_iserror():
    code = '''
        import json

        def dispatch(request, tools):
            try:
                result = tools[request["params"]["name"]](**request["params"]["arguments"])
            except KeyError:
                return {"jsonrpc": "2.0", "id": request["id"], "result": {"content": [{"type": "text", "text": "Unknown tool; call tools/list."}]}}
            return {"jsonrpc": "2.0", "id": request["id"], "result": {"content": [{"type": "text", "text": json.dumps(result)}]}}
    '''
    assert found(code) == [(8, "AEM601")]


def test_close_shapes_stay_clean():
    code = '''
        from fastapi.responses import JSONResponse
        from aiohttp import web
        from flask import jsonify

        def ok():
            return JSONResponse(status_code=200, content={"message": "Something went wrong"})

        def redirect():
            raise web.HTTPFound("/login")

        def created():
            return jsonify(error="none"), 201

        def reply(request):
            return {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "Found 3 rows"}]}}

        def good(kind):
            if kind not in ("a", "b"):
                return JSONResponse(status_code=400, content={"message": f"kind {kind!r} must be one of: a, b. Pass kind=a."})
    '''
    assert found(code) == []
