"""Issue 14 item 6: one rule (AEM101) for an error with no message, on every sink: no text at all, only
a status (the client reads the status phrase), or only the rejected object."""
from __future__ import annotations

import pytest

from conftest import at, lint

SELECT = ["AEM101", "AEM201", "AEM202", "AEM204", "AEM208"]


def found(code):
    return at(code, select=SELECT)


def test_issue_examples_werkzeug_gone_and_flask_abort():
    code = '''
        from flask import Flask, abort
        from werkzeug.exceptions import Gone

        app = Flask(__name__)

        @app.delete("/drafts/<draft_id>")
        def delete_draft(draft_id):
            if draft_id.startswith("pub-"):
                abort(409)
            raise Gone()
    '''
    # AEM101 names the missing step (one verdict); the deny rule on draft_id is what the caller must meet
    assert found(code) == [(10, "AEM101"), (10, "AEM204"), (11, "AEM101")]
    texts = [d.message for d in lint(code, select=["AEM101"])]
    assert "only the status phrase 'Conflict'" in texts[0]
    assert "only the status phrase 'Gone'" in texts[1]


def test_fastapi_http_exception_with_only_a_status():
    code = '''
        from fastapi import FastAPI, HTTPException, status

        app = FastAPI()

        @app.get("/users/{user_id}")
        def read_user(user_id: int):
            if user_id < 0:
                raise HTTPException(400)
            raise HTTPException(status_code=status.HTTP_404_NOT_FOUND)
    '''
    assert found(code) == [(9, "AEM101"), (10, "AEM101")]
    assert "'Not Found'" in [d.message for d in lint(code, select=["AEM101"])][1]


def test_aiohttp_and_drf_errors_raised_without_text():
    code = '''
        from aiohttp import web
        from rest_framework.exceptions import NotFound

        async def get_item(request):
            raise web.HTTPNotFound()

        def check(user):
            raise NotFound()
    '''
    assert found(code) == [(6, "AEM101"), (9, "AEM101")]


@pytest.mark.parametrize("code", [
    "from fastapi import HTTPException\ndef f(user):\n    if not user.is_admin:\n        raise HTTPException(403)\n",
    "from fastapi import HTTPException, status\ndef f(token):\n    if token is None:\n        raise HTTPException(status_code=status.HTTP_401_UNAUTHORIZED, headers={'WWW-Authenticate': 'Bearer'})\n",
    "from starlette.exceptions import HTTPException\ndef f(request):\n    if request.method != 'GET':\n        raise HTTPException(status_code=405)\n",
    "from flask import abort\ndef f(user):\n    if not user.can_edit:\n        abort(403)\n",
    "from werkzeug.exceptions import Forbidden\ndef f(user):\n    if not user.can_edit:\n        raise Forbidden()\n",
    "from aiohttp import web\nasync def f(request):\n    if 'token' not in request.headers:\n        raise web.HTTPUnauthorized()\n",
    "from rest_framework.exceptions import PermissionDenied\ndef check(user):\n    raise PermissionDenied()\n",
])
def test_a_status_that_says_all_there_is_needs_no_text(code):
    # 401 (WWW-Authenticate says how), 403 (authorization refusals are not explained), 405 (Allow lists
    # the methods); the part rules still judge the guard (a 405 under `method != 'GET'` gets AEM204)
    assert "AEM101" not in [c for _, c in found(code)]


@pytest.mark.parametrize("status", ["400", "404", "409", "410", "422"])
def test_a_status_that_leaves_the_fault_open_still_needs_text(status):
    code = f"from fastapi import HTTPException\ndef f(item):\n    if item is None:\n        raise HTTPException({status})\n"
    assert [c for _, c in found(code)] == ["AEM101"]


def test_only_the_rejected_object():
    code = '''
        def pick(rows, row):
            if row not in rows:
                raise IndexError(row)
            return rows[row]

        def scale(factor):
            if factor <= 0:
                raise ValueError(factor)
            return factor
    '''
    assert found(code) == [(4, "AEM101"), (9, "AEM101")]
    assert "only the rejected value `row`" in lint(code, select=["AEM101"])[0].message


def test_messageless_mcp_tool_error():
    code = '''
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("x")

        @mcp.tool()
        def archive(path: str) -> str:
            if not path.endswith(".zip"):
                raise ToolError()
            return path
    '''
    assert [c for _, c in found(code) if c == "AEM101"] == ["AEM101"]


def test_close_shapes_stay_clean():
    code = '''
        from flask import abort, make_response, jsonify
        from fastapi import HTTPException
        from aiohttp import web

        def view(item_id):
            if item_id == "gone":
                abort(410, description=f"Item {item_id!r} was deleted; list live items with GET /items.")
            abort(make_response(jsonify(error="see docs"), 400))

        def redirect():
            abort(302)

        def moved():
            raise web.HTTPFound(location="/new")

        def passthrough(msg):
            if msg:
                raise ValueError(msg)

        class Table:
            def __getitem__(self, key):
                if key not in self._rows:
                    raise KeyError(key)
                return self._rows[key]

        def bare_signal(stream):
            if not stream:
                raise EOFError
    '''
    assert [c for _, c in found(code) if c == "AEM101"] == []


def test_a_project_class_given_only_a_value_may_build_its_own_text():
    code = '''
        from excel_tools.errors import SheetNotFoundError

        def sheet(book, name):
            if name not in book:
                raise SheetNotFoundError(name)
            return book[name]
    '''
    assert [c for _, c in found(code) if c == "AEM101"] == []


@pytest.mark.parametrize("form", ["raise ToolError", "raise exceptions.ToolError", "raise click.ClickException", "raise ToolError()"])
def test_raising_the_class_itself_is_an_error_with_no_message(form):
    """`raise ToolError` (no call) sends what `raise ToolError()` sends: nothing."""
    code = f'''
        import click
        from fastmcp import FastMCP, exceptions
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")
        @mcp.tool()
        def get(item_id: str) -> str:
            if not item_id.isdigit():
                {form}
            return item_id
    '''
    found = lint(code, select=["AEM101"])
    assert [(d.location.row, d.code) for d in found] == [(9, "AEM101")]
    assert "carries no message" in found[0].message


@pytest.mark.parametrize("code", [
    "from fastapi import HTTPException\ndef f(user):\n    if not user.is_admin:\n        raise HTTPException(403, detail='Forbidden')\n",
    "from fastapi import HTTPException\ndef f(token):\n    if token is None:\n        raise HTTPException(status_code=401, detail='Not authenticated')\n",
    "from aiohttp import web\nasync def f(request):\n    if not request['user'].admin:\n        raise web.HTTPForbidden(text='Forbidden')\n",
])
def test_a_self_stated_status_restated_as_text_is_the_same_answer(code):
    assert "AEM101" not in [c for _, c in found(code)]


def test_a_restated_status_phrase_of_another_status_is_still_generic():
    code = "from fastapi import HTTPException\ndef f(item):\n    if item is None:\n        raise HTTPException(404, detail='Not Found')\n"
    assert "AEM101" in [c for _, c in found(code)]


def test_no_part_rule_asks_more_of_a_restated_self_stated_status():
    code = ("from fastapi import HTTPException\nfrom fastapi.responses import JSONResponse\n"
            "def f(token):\n    if token is None:\n"
            "        return JSONResponse(status_code=401, content={'error': 'Unauthorized'}, headers={'WWW-Authenticate': 'Bearer'})\n")
    from conftest import PREVIEW
    assert [d.code for d in lint(code, settings=PREVIEW)] == []
