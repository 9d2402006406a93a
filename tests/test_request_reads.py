"""A guard that tests a field of the web request inline (`request.content_type`,
`request.args.get("sort")`, `self.request.query_params.get("format")`) rejects the value the
client sent in that field: the request object is only its container. The echo (AEM202) asks for
that field, and the allowed values (AEM204) apply as for a local holding it
(`guard_operands.request_read`)."""
from __future__ import annotations

from conftest import lint

SELECT = ["AEM202", "AEM204"]


def found(code):
    return sorted((d.location.row, d.code, d.message.split(";")[0]) for d in lint(code, select=SELECT))


def test_aiohttp_content_type():
    code = '''
        from aiohttp import web

        async def upload(request):
            if request.content_type not in ("image/png", "image/jpeg"):
                return web.json_response({"error": "Unsupported media."}, status=415)
            return web.json_response({"ok": True})
    '''
    assert found(code) == [
        (6, "AEM202", "the message does not show the rejected value of `request.content_type`"),
        (6, "AEM204", "the message does not say what is allowed (one of: image/png, image/jpeg)"),
    ]


def test_flask_query_argument_read_with_get():
    code = '''
        from flask import Flask, abort, request
        app = Flask(__name__)
        SORTS = ("name", "date")

        @app.get("/items")
        def items():
            if request.args.get("sort", "name") not in SORTS:
                abort(400, description="Bad sort order.")
            return []
    '''
    assert [(r, c) for r, c, _ in found(code)] == [(9, "AEM202"), (9, "AEM204")]
    assert 'request.args.get("sort", "name")' in found(code)[0][2]


def test_drf_view_reads_self_request():
    code = '''
        from rest_framework.views import APIView
        from rest_framework.exceptions import ValidationError

        class Export(APIView):
            def get(self, request):
                if self.request.query_params.get("format") not in {"csv", "json"}:
                    raise ValidationError("Export format not available.")
                return None
    '''
    assert [(r, c) for r, c, _ in found(code)] == [(8, "AEM202"), (8, "AEM204")]
    assert "self.request.query_params.get(\"format\")" in found(code)[0][2]


def test_a_message_that_interpolates_the_field_shows_it():
    code = '''
        from aiohttp import web

        async def upload(request):
            if request.headers.get("Content-Type") not in ("image/png", "image/jpeg"):
                return web.json_response(
                    {"error": f"Unsupported media type {request.headers.get('Content-Type')!r}; send image/png or image/jpeg."},
                    status=415)
            return web.json_response({"ok": True})
    '''
    assert found(code) == []


def test_a_length_of_an_uploaded_field():
    code = '''
        from starlette.responses import JSONResponse

        async def rename(request):
            form = await request.form()
            if len(request.query_params["name"]) > 64:
                return JSONResponse({"detail": "Name too long."}, status_code=400)
            return JSONResponse({})
    '''
    assert [(r, c) for r, c, _ in found(code)] == [(7, "AEM202"), (7, "AEM204")]


def test_an_http_clients_own_request_stream_is_no_client_value():
    # httpx-style client code: `request` is the request the library is about to send
    code = '''
        class SyncByteStream:
            pass

        class Client:
            def send(self, request):
                if not isinstance(request.stream, SyncByteStream):
                    raise RuntimeError("Attempted to send an async request with a sync Client instance.")
                return request
    '''
    assert found(code) == []
