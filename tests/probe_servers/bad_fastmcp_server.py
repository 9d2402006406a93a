"""A sample MCP server (standalone FastMCP) with planted bad error replies, for `errlint probe` tests.

Run: `python tests/probe_servers/bad_fastmcp_server.py` (stdio). Planted defects and their codes:

- lookup_user: FastMCP validates the arguments and answers with the whole pydantic error (AEM404);
  an unknown id gets "Not found." (AEM101, AEM201).
- user_report: an unknown id is returned as a successful result `{"error": ...}` (AEM601).
- refresh_cache: with mask_error_details=True, its ValueError reaches the client only as
  "Error calling tool 'refresh_cache'" (AEM603).
"""
from __future__ import annotations

import json
from typing import Annotated

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

try:
    from _markers import called, started
except ImportError:  # run from elsewhere
    from tests.probe_servers._markers import called, started  # type: ignore[no-redef]

mcp = FastMCP("bad-users", mask_error_details=True)
USERS = {"u-1": "Ada", "u-2": "Grace"}


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def lookup_user(user_id: Annotated[str, Field(pattern=r"^u-[0-9]+$")], fields: Annotated[int, Field(ge=1, le=5)] = 1) -> str:
    """Look a user up by id."""
    called("lookup_user")
    if user_id not in USERS:
        raise ToolError("Not found.")
    return USERS[user_id]


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def user_report(user_id: str) -> str:
    """A user's activity report as JSON."""
    called("user_report")
    if user_id not in USERS:
        return json.dumps({"error": "user not found", "code": 404})
    return json.dumps({"user": USERS[user_id], "logins": 3})


@mcp.tool()
def refresh_cache(user_id: str) -> str:
    """Refresh a user's cached profile."""
    called("refresh_cache")
    raise ValueError(f"user_id {user_id!r} has no cached profile; call lookup_user first.")


if __name__ == "__main__":
    started()
    mcp.run(show_banner=False)
