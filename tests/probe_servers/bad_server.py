"""A sample MCP server (mcp 2.x MCPServer) with planted bad error replies, for `errlint probe` tests.

Run: `python tests/probe_servers/bad_server.py` (stdio), or with `--http PORT` for streamable HTTP at
http://127.0.0.1:PORT/mcp. Each tool's planted defect and the code
`errlint probe` must report:

- get_issue: arguments are validated by the framework, which answers with a whole pydantic
  validation error (AEM404); an unknown id gets "Something went wrong." (AEM101, AEM201).
- export_issue: an unknown id is returned as a successful result "Error: ..." (AEM601).
- set_priority: a bad priority is raised as MCPError, a JSON-RPC protocol error the model never sees
  (AEM602), with no next step (AEM201).
- sync_issue: the reply leaks an API key and sends the agent to an administrator (AEM301, AEM501).
- search_issues: an empty query gets the tool's whole input schema back (AEM403), over 120 tokens
  (AEM401).
- rename_issue: raises ValueError, which mcp >= 2.1 masks as "Error executing tool rename_issue"
  (AEM603).
- close_issue: `status` is an enum; a value outside it is accepted and answered as a success (AEM601).
- delete_issue: annotated destructiveHint: true; records the call, so tests can check it is skipped.
"""
from __future__ import annotations

import json
import sys
from typing import Annotated

from mcp import MCPError
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field, WithJsonSchema

try:
    from _markers import called, started
except ImportError:  # run from elsewhere
    from tests.probe_servers._markers import called, started  # type: ignore[no-redef]

mcp = MCPServer("bad-issues")

ISSUES = {"ISS-1": "Login fails on Safari", "ISS-2": "Export times out"}
SEARCH_SCHEMA = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "description": "Words to look for in issue titles and bodies."},
        "labels": {"type": "array", "items": {"type": "string"}, "description": "Only issues with all of these labels."},
        "state": {"type": "string", "enum": ["open", "closed", "all"], "description": "Which issues to search."},
        "sort": {"type": "string", "enum": ["created", "updated", "comments"], "description": "Sort order of the results."},
        "page": {"type": "integer", "minimum": 1, "description": "Page of results to return, starting at 1."},
    },
    "required": ["query"],
}


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def get_issue(issue_id: Annotated[str, Field(pattern=r"^ISS-[0-9]+$")], limit: Annotated[int, Field(ge=1, le=50)] = 10) -> str:
    """Get an issue's title by id."""
    called("get_issue")
    if issue_id not in ISSUES:
        raise ToolError("Something went wrong.")
    return ISSUES[issue_id]


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def export_issue(issue_id: str) -> str:
    """Export an issue as Markdown."""
    called("export_issue")
    if issue_id not in ISSUES:
        return f"Error: issue {issue_id} not found"
    return f"# {ISSUES[issue_id]}\n"


@mcp.tool()
def set_priority(issue_id: str, priority: Annotated[str, Field(description="One of `low`, `medium`, `high`.")]) -> str:
    """Set an issue's priority."""
    called("set_priority")
    if priority not in ("low", "medium", "high"):
        raise MCPError(-32602, f"Invalid priority {priority!r}")
    return "ok"


@mcp.tool()
def sync_issue(issue_id: str) -> str:
    """Push an issue to the external tracker."""
    called("sync_issue")
    raise ToolError("Tracker rejected key sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c for this workspace. Please contact your administrator.")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def search_issues(query: str) -> str:
    """Search issues."""
    called("search_issues")
    if not query:
        raise ToolError("Invalid query. The input schema of this tool is:\n" + json.dumps(SEARCH_SCHEMA, indent=2))
    return json.dumps([k for k, v in ISSUES.items() if query.lower() in v.lower()])


@mcp.tool()
def rename_issue(issue_id: str, title: str) -> str:
    """Rename an issue."""
    called("rename_issue")
    if issue_id not in ISSUES:
        raise ValueError(f"Unknown issue_id {issue_id!r}. Call export_issue to check it.")
    return "renamed"


@mcp.tool()
def close_issue(
    issue_id: str,
    resolution: Annotated[str, WithJsonSchema({"type": "string", "enum": ["fixed", "wontfix", "duplicate"]})] = "fixed",
) -> str:
    """Close an issue with a resolution (the schema lists the values; the code never checks them)."""
    called("close_issue")
    return f"closed as {resolution}"


@mcp.tool(annotations=ToolAnnotations(destructiveHint=True))
def delete_issue(issue_id: str) -> str:
    """Delete an issue for good."""
    called("delete_issue")
    return "deleted"


if __name__ == "__main__":
    started()
    if len(sys.argv) == 3 and sys.argv[1] == "--http":  # streamable HTTP on 127.0.0.1:PORT/mcp
        mcp.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        mcp.run()
