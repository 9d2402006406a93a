"""A sample MCP server (standalone FastMCP) whose error replies are all good, for `errlint probe` tests.

Run: `python tests/probe_servers/good_server.py` (stdio). Every failure is a tool error
(isError=true) that names the argument and the value sent, says what is allowed and which tool gives
valid values, in a few dozen tokens. Framework argument validation is rewritten by a middleware into
one line per error, so no pydantic dump reaches the client. `errlint probe` must report nothing.
"""
from __future__ import annotations

import datetime
from pathlib import PurePosixPath
from typing import Annotated, Any, Dict, Literal

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError, ValidationError
from fastmcp.server.middleware import Middleware
from mcp.types import ToolAnnotations
from pydantic import Field
from pydantic import ValidationError as PydanticValidationError

try:
    from _markers import called, started
except ImportError:  # run from elsewhere
    from tests.probe_servers._markers import called, started  # type: ignore[no-redef]

ISSUES = {"ISS-1": "Login fails on Safari", "ISS-2": "Export times out"}
ATTACHMENTS = {"ISS-1/screenshot.png": 48213}
STATUSES = ("open", "closed", "needs_review")

# What to tell the caller about each argument when the framework rejects it.
HINTS: Dict[str, str] = {
    "issue_id": "pass an id like 'ISS-1'; call list_issues to see valid ids",
    "limit": "pass a whole number from 1 to 50",
    "status": "pass one of: " + ", ".join(STATUSES),
    "query": "pass a few words to look for, e.g. 'login'",
    "path": "pass a path inside the attachments folder, e.g. 'ISS-1/screenshot.png'; call list_attachments to see them",
    "due": "pass a date as YYYY-MM-DD, e.g. '2025-01-31'",
}


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class CompactValidationErrors(Middleware):
    """Turn FastMCP's argument ValidationError (a whole pydantic dump) into one short line per error."""

    async def on_call_tool(self, context, call_next):
        try:
            return await call_next(context)
        except ValidationError as exc:
            cause = exc.__cause__
            if not isinstance(cause, PydanticValidationError):
                raise ToolError(f"The arguments for {context.message.name} were rejected; call it with the arguments its inputSchema lists.") from None
            parts = []
            for error in cause.errors(include_url=False):
                name = str(error["loc"][0]) if error["loc"] else "arguments"
                if error["type"] in ("missing", "missing_argument"):
                    parts.append(f"{name} is required; {HINTS.get(name, 'pass it')}.")
                elif error["type"] == "unexpected_keyword_argument":
                    parts.append(f"{name} is not an argument of {context.message.name}; remove it and call again.")
                else:
                    message = error["msg"][0].lower() + error["msg"][1:]
                    parts.append(f"{name} {_short(error['input'])} is rejected ({message}); {HINTS.get(name, 'fix it and call again')}.")
            raise ToolError(" ".join(parts[:3])) from None


mcp = FastMCP("good-issues")
mcp.add_middleware(CompactValidationErrors())


def _known(issue_id: str) -> None:
    if issue_id not in ISSUES:
        raise ToolError(f"Unknown issue_id {issue_id!r}. Call list_issues to see valid ids.")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def list_issues() -> list:
    """List the ids of every issue."""
    called("list_issues")
    return sorted(ISSUES)


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def get_issue(issue_id: Annotated[str, Field(pattern=r"^ISS-[0-9]+$")], limit: Annotated[int, Field(ge=1, le=50)] = 10) -> str:
    """Get an issue's title by id."""
    called("get_issue")
    _known(issue_id)
    return ISSUES[issue_id]


@mcp.tool()
def set_status(issue_id: str, status: Literal["open", "closed", "needs_review"]) -> str:
    """Change an issue's status."""
    called("set_status")
    _known(issue_id)
    return f"{issue_id} is now {status}"


@mcp.tool()
def schedule(issue_id: str, due: datetime.date) -> str:
    """Set an issue's due date."""
    called("schedule")
    _known(issue_id)
    return f"{issue_id} is due {due.isoformat()}"


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def search_issues(query: Annotated[str, Field(description="Words to look for, e.g. `login`.")]) -> str:
    """Search issue titles."""
    called("search_issues")
    if not query.strip():
        raise ToolError("query is empty; pass a few words to look for, e.g. 'login'.")
    hits = [k for k, v in ISSUES.items() if query.lower() in v.lower()]
    return ", ".join(hits) if hits else f"No issue title contains {query!r}; try fewer words, or call list_issues."


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def read_attachment(path: str) -> str:
    """Read an attachment's size in bytes by its path inside the attachments folder."""
    called("read_attachment")
    clean = PurePosixPath(path)
    if clean.is_absolute() or ".." in clean.parts:
        raise ToolError(f"path {path!r} is outside the attachments folder; pass a relative path such as 'ISS-1/screenshot.png'. Call list_attachments to see them.")
    if path not in ATTACHMENTS:
        raise ToolError(f"No attachment at path {path!r}. Call list_attachments to see the paths.")
    return f"{ATTACHMENTS[path]} bytes"


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def list_attachments() -> list:
    """List attachment paths."""
    called("list_attachments")
    return sorted(ATTACHMENTS)


@mcp.tool(annotations=ToolAnnotations(destructiveHint=True))
def delete_issue(issue_id: str) -> str:
    """Delete an issue for good."""
    called("delete_issue")
    _known(issue_id)
    return "deleted"


if __name__ == "__main__":
    started()
    mcp.run(show_banner=False)
