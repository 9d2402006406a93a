"""An HTTP framework answers an exception that is not one of its HTTP error classes with a bare 500
("Internal Server Error") and writes the text to the server log: a plain raise (`ValueError`,
`RuntimeError`, a project class) that only HTTP handlers reach is not read by the HTTP client, so it
is `exc` (`reachability.raise_audience`, "masked"). It stays `http` when its class is an HTTP error
(also a project subclass of one), when a handler on the way uses it (`raise HTTPException(400,
detail=str(e))`), or when the project registers code that turns exceptions into responses (an
exception or error handler, a function middleware, a `BaseHTTPMiddleware`). Another reader that
reaches it (a tool, a command) still reads it."""
from __future__ import annotations

import pytest

from test_passed_functions import audiences, show_audience

STORE = '''
ITEMS = {"a": 1}


def load(name):
    if name not in ITEMS:
        raise ValueError("Something went wrong.")
    return ITEMS[name]
'''


def found(tmp_path, monkeypatch, app: str, extra: dict = None) -> set:
    return audiences(tmp_path, monkeypatch, {"store.py": STORE, "app.py": app, **(extra or {})}, "store.py")


FASTAPI = ("from fastapi import FastAPI, HTTPException\nfrom store import load\napp = FastAPI()\n\n"
           "@app.get('/items/{name}')\nasync def item(name: str):\n    return load(name)\n")


def test_a_plain_raise_a_fastapi_route_reaches_is_a_500(tmp_path, monkeypatch):
    assert found(tmp_path, monkeypatch, FASTAPI) == {(7, "AEM101", "exc"), (7, "AEM202", "exc"), (7, "AEM204", "exc")}


def test_a_flask_view_and_a_runtime_error(tmp_path, monkeypatch):
    app = ("from flask import Flask\nfrom store import load\napp = Flask(__name__)\n\n"
           "@app.route('/items/<name>')\ndef item(name):\n    return {'value': load(name)}\n")
    assert {a for _, _, a in found(tmp_path, monkeypatch, app)} == {"exc"}


def test_a_handler_that_turns_it_into_an_http_error_keeps_it_read(tmp_path, monkeypatch):
    app = ("from fastapi import FastAPI, HTTPException\nfrom store import load\napp = FastAPI()\n\n"
           "@app.get('/items/{name}')\nasync def item(name: str):\n    try:\n        return load(name)\n"
           "    except ValueError as e:\n        raise HTTPException(status_code=404, detail=str(e))\n")
    assert found(tmp_path, monkeypatch, app) == {(7, "AEM101", "http"), (7, "AEM202", "http"), (7, "AEM204", "http")}


def test_an_error_handler_in_the_project_keeps_it_read(tmp_path, monkeypatch):
    app = ("from flask import Flask, jsonify\nfrom store import load\napp = Flask(__name__)\n\n"
           "@app.errorhandler(ValueError)\ndef bad_value(e):\n    return jsonify(error=str(e)), 400\n\n"
           "@app.route('/items/<name>')\ndef item(name):\n    return {'value': load(name)}\n")
    assert {a for _, _, a in found(tmp_path, monkeypatch, app)} == {"http"}


def test_an_exception_handler_registered_by_a_call_keeps_it_read(tmp_path, monkeypatch):
    handlers = ("from starlette.responses import JSONResponse\n\nasync def on_value_error(request, exc):\n"
                "    return JSONResponse({'error': str(exc)}, status_code=400)\n")
    app = FASTAPI + "\nfrom handlers import on_value_error\napp.add_exception_handler(ValueError, on_value_error)\n"
    assert {a for _, _, a in found(tmp_path, monkeypatch, app, {"handlers.py": handlers})} == {"http"}


def test_a_project_subclass_of_http_exception_is_an_http_error(tmp_path, monkeypatch):
    errors = ("from fastapi import HTTPException\n\nclass Missing(HTTPException):\n    def __init__(self, detail):\n"
              "        super().__init__(status_code=404, detail=detail)\n")
    store = STORE.replace('raise ValueError("Something went wrong.")', 'raise Missing("Something went wrong.")').replace('ITEMS = {"a": 1}', 'from errors import Missing\nITEMS = {"a": 1}')
    found_ = audiences(tmp_path, monkeypatch, {"store.py": store, "errors.py": errors, "app.py": FASTAPI}, "store.py")
    assert {a for _, _, a in found_} == {"http"} and found_


def test_a_command_that_reaches_it_too_reads_it(tmp_path, monkeypatch):
    cli = ("import click\nfrom store import load\n\n@click.command()\n@click.argument('name')\n"
           "def show(name):\n    click.echo(load(name))\n")
    assert found(tmp_path, monkeypatch, FASTAPI, {"cli.py": cli}) == {(7, "AEM101", "cli"), (7, "AEM202", "cli"), (7, "AEM204", "cli")}


def test_show_audience_says_the_framework_answers_a_500(tmp_path, monkeypatch):
    shown = show_audience(tmp_path, monkeypatch, {"store.py": STORE, "app.py": FASTAPI}, "store.py:7")
    assert "audience exc: only HTTP handlers reach store.load, and its class is not an HTTP error" in shown
    assert "call chain: app.item -> store.load" in shown


# -- the class decides by what it is, not by its name ------------------------------------------------

def _raising(cls_line: str, raise_expr: str) -> dict:
    store = (f"{cls_line}\nITEMS = {{'a': 1}}\n\n\ndef load(name):\n    if name not in ITEMS:\n"
             f"        raise {raise_expr}('Something went wrong.')\n    return ITEMS[name]\n")
    return {"store.py": store, "app.py": FASTAPI}


def _store_audiences(tmp_path, monkeypatch, files) -> set:
    return {a for _, _, a in audiences(tmp_path, monkeypatch, files, "store.py")}


@pytest.mark.parametrize("cls_line, raise_expr, expected", [
    ("class NotFound(Exception):\n    pass\n", "NotFound", "exc"),  # a project class named like an HTTP error
    ("import requests\n", "requests.HTTPError", "exc"),  # a client library's HTTP error
    # `ApiError = HTTPException`: an alias errlint does not follow; the subclass may be an HTTP error
    ("from fastapi import HTTPException\nApiError = HTTPException\n\nclass ItemMissing(ApiError):\n    pass\n", "ItemMissing", "http"),
    ("from litestar.exceptions import NotFoundException\n", "NotFoundException", "http"),  # another framework's error class
], ids=["project-NotFound", "requests-HTTPError", "unplaced-alias", "litestar"])
def test_the_class_decides_by_what_it_is(cls_line, raise_expr, expected, tmp_path, monkeypatch):
    assert _store_audiences(tmp_path, monkeypatch, _raising(cls_line, raise_expr)) == {expected}


# -- what turns exceptions into responses, registered in other ways ------------------------------------

def test_exception_handlers_passed_to_the_app(tmp_path, monkeypatch):
    app = FASTAPI.replace("app = FastAPI()", "from handlers import on_value_error\napp = FastAPI(exception_handlers={ValueError: on_value_error})")
    handlers = "async def on_value_error(request, exc):\n    return None\n"
    assert {a for _, _, a in found(tmp_path, monkeypatch, app, {"handlers.py": handlers})} == {"http"}


def test_a_middleware_added_to_the_app_that_catches(tmp_path, monkeypatch):
    app = FASTAPI + "\nfrom errors import ErrorMiddleware\napp.add_middleware(ErrorMiddleware)\n"
    errors = ("from starlette.responses import JSONResponse\n\nclass ErrorMiddleware:\n    def __init__(self, app):\n        self.app = app\n\n"
              "    async def __call__(self, scope, receive, send):\n        try:\n            await self.app(scope, receive, send)\n"
              "        except ValueError as exc:\n            await JSONResponse({'error': str(exc)}, status_code=400)(scope, receive, send)\n")
    assert {a for _, _, a in found(tmp_path, monkeypatch, app, {"errors.py": errors})} == {"http"}
    # a middleware that catches nothing (a locale, a session) lets the exception through to the 500
    quiet = ("class LocaleMiddleware:\n    def __init__(self, app):\n        self.app = app\n\n"
             "    async def __call__(self, scope, receive, send):\n        await self.app(scope, receive, send)\n")
    listed = FASTAPI.replace("app = FastAPI()", "from starlette.middleware import Middleware\nfrom locale_mw import LocaleMiddleware\n"
                             "app = FastAPI(middleware=[Middleware(LocaleMiddleware)])")
    assert {a for _, _, a in found(tmp_path / "again", monkeypatch, listed, {"locale_mw.py": quiet})} == {"exc"}


def test_a_function_middleware_that_catches(tmp_path, monkeypatch):
    middleware = ("\nfrom starlette.responses import JSONResponse\n\n@app.middleware('http')\nasync def errors(request, call_next):\n"
                  "    try:\n        return await call_next(request)\n    except ValueError as exc:\n"
                  "        return JSONResponse({'error': str(exc)}, status_code=400)\n")
    assert {a for _, _, a in found(tmp_path, monkeypatch, FASTAPI + middleware)} == {"http"}
    timing = ("\nimport time\n\n@app.middleware('http')\nasync def timed(request, call_next):\n    start = time.monotonic()\n"
              "    response = await call_next(request)\n    response.headers['x-time'] = str(time.monotonic() - start)\n    return response\n")
    assert {a for _, _, a in found(tmp_path / "again", monkeypatch, FASTAPI + timing)} == {"exc"}


def test_a_django_middleware_with_process_exception(tmp_path, monkeypatch):
    views = ("from django.http import JsonResponse\nfrom store import load\n\ndef item(request, name):\n"
             "    return JsonResponse({'value': load(name)})\n")
    middleware = ("from django.http import JsonResponse\n\nclass ValueErrors:\n    def __init__(self, get_response):\n"
                  "        self.get_response = get_response\n\n    def process_exception(self, request, exception):\n"
                  "        return JsonResponse({'error': str(exception)}, status=400)\n")
    files = {"store.py": STORE, "shop/__init__.py": "", "shop/views.py": views.replace("from store", "from store"), "shop/middleware.py": middleware}
    assert _store_audiences(tmp_path, monkeypatch, files) == {"http"}
    files.pop("shop/middleware.py")
    assert _store_audiences(tmp_path / "again", monkeypatch, files) == {"exc"}


def test_a_handler_registered_only_in_a_test_module_does_not_count(tmp_path, monkeypatch):
    test_app = ("from fastapi import FastAPI\ntest_app = FastAPI()\n\n@test_app.exception_handler(RuntimeError)\n"
                "async def boom(request, exc):\n    return None\n")
    assert {a for _, _, a in found(tmp_path, monkeypatch, FASTAPI, {"tests/test_app.py": test_app})} == {"exc"}


def test_a_handler_that_only_logs_the_exception_does_not_pass_its_text_on(tmp_path, monkeypatch):
    app = ("import logging\nfrom fastapi import FastAPI, HTTPException\nfrom store import load\nlog = logging.getLogger(__name__)\n"
           "app = FastAPI()\n\n@app.get('/items/{name}')\nasync def item(name: str):\n    try:\n        return load(name)\n"
           "    except ValueError as e:\n        log.warning('load failed: %s', e)\n"
           "        raise HTTPException(status_code=404, detail='No such item; call /items to list them.')\n")
    assert {a for _, _, a in found(tmp_path, monkeypatch, app)} == {"exc"}  # the log line is the operator's
    relay = app.replace("detail='No such item; call /items to list them.'", "detail=f'{e}; call /items to list them.'")
    assert {a for _, _, a in found(tmp_path / "again", monkeypatch, relay)} == {"http"}
