import contextvars

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

_user: contextvars.ContextVar = contextvars.ContextVar("user", default=None)


def _require_login() -> str:
    if _user.get() is None:
        raise PermissionError("Not logged in.")
    return _user.get()


@mcp.tool()
def login(name: str) -> str:
    _user.set(name)
    return "ok"


@mcp.tool()
def profile() -> str:
    return _require_login()
