"""A guard against an attack (path traversal, a NUL byte, a request from a foreign Origin/Host)
refuses tersely by design: no content rule asks it to state the rule, echo the value or name a next
step (`checks.base.security_rejection`). Leak rules still apply."""
from __future__ import annotations

from conftest import lint

from errlint.config import Settings

PREVIEW = Settings(preview=True)


def found(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, settings=PREVIEW))


def test_path_traversal_in_an_archive_member():
    code = '''
    def safe_member(name: str) -> str:
        if ".." in name.split("/"):
            raise ValueError(f"unsafe path in source archive: {name}")
        return name
    '''
    assert found(code) == []


def test_nul_byte_in_a_path_over_http():
    code = '''
    from fastapi import FastAPI, HTTPException
    app = FastAPI()
    @app.get("/files/{path}")
    def get_file(path: str):
        if "\\x00" in path:
            raise HTTPException(status_code=400, detail="Invalid path")
        return {"path": path}
    '''
    assert found(code) == []


def test_origin_header_check():
    code = '''
    from starlette.responses import JSONResponse
    ALLOWED = {"http://localhost:3000"}
    async def guard(request):
        origin = request.headers.get("origin")
        if origin not in ALLOWED:
            return JSONResponse({"error": "Invalid Origin header"}, status_code=403)
        return None
    '''
    assert [c for _, c in found(code) if c in ("AEM101", "AEM202", "AEM204")] == []


def test_an_ordinary_deny_rule_is_still_judged():
    code = '''
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")
    @mcp.tool()
    def tag(label: str) -> str:
        if label.startswith("~"):
            raise ToolError("bad label")
        return label
    '''
    assert (8, "AEM204") in found(code)


def test_a_content_type_header_check_is_still_judged():
    code = '''
    from starlette.responses import JSONResponse
    async def upload(request):
        kind = request.headers.get("content-type")
        if kind not in ("application/json", "text/csv"):
            return JSONResponse({"message": "Unsupported request."}, status_code=415)
        return None
    '''
    assert any(c in ("AEM101", "AEM204") for _, c in found(code))


def test_origin_read_from_a_headers_object_passed_in():
    code = '''
    from starlette.responses import PlainTextResponse
    ALLOWED = ("http://localhost",)
    def rejection_for(scope, headers):
        origin = headers.get("origin")
        if origin is not None and origin not in ALLOWED:
            return PlainTextResponse("Invalid Origin header", status_code=403)
        return None
    '''
    assert [c for _, c in found(code) if c in ("AEM101", "AEM202", "AEM204")] == []
