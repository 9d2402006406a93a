"""Sinks and kinds a fresh hunter's cases showed, each with inputs of my own:

- an error printed to stdout before a non-zero exit reads as one by a failure statement or a broken
  rule too ("PORT must be between 1 and 65535"), not only by error words;
- a collection the code fixes is bounded however it is joined: a dict literal of functions (a
  dispatch table's keys), an Enum's `__members__`, a comprehension over an Enum;
- Litestar, Sanic and Quart error responses are sinks;
- the parameter of a registered exception handler is the exception: an HTTP error's URL leaks
  when some request of the module puts a secret in its URL;
- a credential copied to `self._token` is sent to authenticate when `__init__` puts the plain name
  in a header; an exception class's message that shows it leaks it at the raise.
"""
from __future__ import annotations

from conftest import at


def test_an_error_without_error_words_printed_before_a_failing_exit():
    code = '''
    import sys


    def main(argv):
        port = int(argv[1])
        if not 1 <= port <= 65535:
            print(f"PORT must be between 1 and 65535, got {port}.")
            sys.exit(2)
        if port == 22:
            print("Could not use the SSH port.")
            sys.exit(2)
        if port == 80:
            print("Done: 3 hosts checked.")
            sys.exit(1)


    if __name__ == "__main__":
        main(sys.argv)
    '''
    assert at(code, select=["AEM606"]) == [(8, "AEM606"), (11, "AEM606")]


def test_fixed_collections_are_bounded():
    code = '''
    from enum import Enum
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")


    def a(): pass
    def b(): pass


    HANDLERS = {"a": a, "b": b}


    class Color(str, Enum):
        RED = "red"
        BLUE = "blue"


    @mcp.tool()
    def run(name: str, color: str, names: list) -> str:
        if name not in HANDLERS:
            raise ToolError(f"Unknown {name!r}; available: {', '.join(HANDLERS)}")
        if color not in Color.__members__:
            raise ToolError(f"Unknown {color!r}; available: {', '.join(Color.__members__)}")
        if color not in [c.value for c in Color]:
            raise ToolError(f"Unknown {color!r}; available: {', '.join(c.value for c in Color)}")
        if name not in names:
            raise ToolError(f"Unknown {name!r}; available: {', '.join(names)}")
        return "ok"
    '''
    assert at(code, select=["AEM405"]) == [(29, "AEM405")]


def test_more_frameworks_error_responses():
    code = '''
    from litestar import Response
    from quart import Response as QuartResponse
    from sanic import response


    def litestar_handler(request, exc):
        return Response(content={"error": "Something went wrong"}, status_code=400)


    def sanic_handler(request):
        return response.json({"error": "Something went wrong"}, status=400)


    def quart_handler():
        return QuartResponse("Something went wrong", 400)
    '''
    assert at(code, select=["AEM101"]) == [(8, "AEM101"), (12, "AEM101"), (16, "AEM101")]


def test_an_exception_handlers_parameter_carries_the_url_of_a_secret_request():
    code = '''
    import os
    import requests
    from flask import Flask, jsonify

    app = Flask(__name__)


    @app.get("/forecast")
    def forecast(city: str):
        resp = requests.get("https://api.example.org/v2", params={"q": city, "appid": os.environ["WEATHER_API_KEY"]}, timeout=10)
        resp.raise_for_status()
        return jsonify(resp.json())


    @app.errorhandler(requests.HTTPError)
    def upstream_failed(err):
        return jsonify(error="upstream_error", message=f"Forecast provider error: {err}"), 502
    '''
    assert at(code, select=["AEM301", "AEM303"]) == [(18, "AEM303")]
    keyless = code.replace('params={"q": city, "appid": os.environ["WEATHER_API_KEY"]}', 'params={"q": city}, headers={"X-Key": os.environ["WEATHER_API_KEY"]}')
    assert at(keyless, select=["AEM301", "AEM303"]) == []


def test_a_credential_copied_to_self_and_shown_by_an_exception_class():
    code = '''
    import requests


    class ScopeError(PermissionError):
        def __init__(self, token: str, missing: list):
            super().__init__(f"Token {token} lacks the scopes {', '.join(missing)}; create a new token.")


    class RepoClient:
        def __init__(self, token: str):
            self._token = token
            self._http = requests.Session()
            self._http.headers["Authorization"] = f"token {token}"

        def push(self, missing: list) -> None:
            if missing:
                raise ScopeError(self._token, missing)
    '''
    assert at(code, select=["AEM301"]) == [(18, "AEM301")]
