"""What a web handler reads from the server is not the client's input, and what it answers for is
known from how it is registered:

- `request.app["db"]`, `request.app.state.redis`, a dependency FastAPI injects (`db = Depends(get_db)`)
  are the server's own objects: a failed check of them is the server's transient state, not a value
  the client can fix, so AEM206 asks for retry timing;
- a handler registered for a transient exception class (`@app.exception_handler(httpx.ConnectError)`,
  `@app.errorhandler(requests.exceptions.Timeout)`) answers a transient failure;
- Django's `request.META` and `request.COOKIES` hold every header, the session cookie and the WSGI
  environment: AEM304 reports them dumped whole, as it does `request.headers`.
"""
from __future__ import annotations

import pytest

from conftest import lint


def _rows(code, select):
    return [(d.location.row, d.code) for d in lint(code, select=select)]


@pytest.mark.parametrize("code, row", [
    ('''from aiohttp import web


async def report(request):
    db = request.app["db"]
    if not await db.ping():
        raise web.HTTPServiceUnavailable(text="Reporting database unavailable")
    return web.json_response({})
''', 7),
    ('''from fastapi import FastAPI, HTTPException, Request

app = FastAPI()


@app.get("/cart")
async def cart(request: Request, user: str):
    if not await request.app.state.redis.ping():
        raise HTTPException(503, "Cart cache unavailable")
    return {}
''', 9),
    ('''from fastapi import Depends, FastAPI, HTTPException

app = FastAPI()


@app.get("/cart")
def cart(user: str, db=Depends(get_db)):
    if not db.is_connected():
        raise HTTPException(503, "Cart database unavailable")
    return {}
''', 9),
    ('''import httpx
from fastapi import FastAPI
from fastapi.responses import JSONResponse

app = FastAPI()


@app.exception_handler(httpx.ConnectError)
async def upstream_down(request, exc):
    return JSONResponse(status_code=502, content={"detail": "Could not reach the billing service"})
''', 10),
    ('''import requests
from flask import Flask, jsonify

app = Flask(__name__)


@app.errorhandler(requests.exceptions.ConnectionError)
def geocoder_down(exc):
    return jsonify({"error": "Could not reach the geocoder"}), 502
''', 9),
])
def test_server_state_and_transient_handlers_ask_for_retry_timing(code, row):
    assert _rows(code, ["AEM206"]) == [(row, "AEM206")]


def test_a_handler_for_a_client_error_class_is_not_transient():
    code = '''from fastapi import FastAPI
from fastapi.responses import JSONResponse

app = FastAPI()


@app.exception_handler(ValueError)
async def bad_value(request, exc):
    return JSONResponse(status_code=400, content={"detail": "Could not read the request"})
'''
    assert _rows(code, ["AEM206"]) == []


@pytest.mark.parametrize("expr", ["request.META", "request.COOKIES"])
def test_django_request_meta_and_cookies_are_dumps(expr):
    code = ("import logging\nfrom django.http import JsonResponse\n\nlog = logging.getLogger(__name__)\n\n\n"
            "def upload(request):\n    if not request.FILES:\n        return JsonResponse({'error': f'No file in the upload: " + "{" + expr + "}" + "'}, status=400)\n"
            "    return JsonResponse({})\n")
    assert _rows(code, ["AEM304"]) == [(9, "AEM304")]


@pytest.mark.parametrize("extra, flagged", [
    ('', True),
    (', headers={"Retry-After": "30"}', False),
    (', headers=RETRY', False),
    (', headers={"X-Request-Id": "abc"}', True),
])
def test_a_retry_after_header_gives_the_wait(extra, flagged):
    code = f'''import httpx
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

app = FastAPI()
RETRY = {{"retry-after": "30"}}


@app.exception_handler(httpx.ReadTimeout)
async def billing_slow(request: Request, exc: httpx.ReadTimeout):
    return JSONResponse(status_code=504, content={{"detail": "Billing service timed out"}}{extra})
'''
    assert _rows(code, ["AEM206"]) == ([(11, "AEM206")] if flagged else [])
