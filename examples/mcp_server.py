"""A small MCP server (mcp 2.x MCPServer) whose tools show good and bad error messages.

Run it over stdio with `python examples/mcp_server.py` (needs `pip install mcp`), lint it with
`errlint examples/`, or probe it live with `errlint probe --allow-writes --allow-destructive -- python examples/mcp_server.py`
(its tools carry no annotations, so the probe calls none of them without those flags; they only change memory).
"""
from __future__ import annotations

import os
from pathlib import Path

from mcp import MCPError
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

mcp = MCPServer("projects")

PROJECTS = {"p-100": "Website relaunch", "p-200": "Billing migration"}
STATUSES = ("open", "needs_review", "closed")


@mcp.tool()
def list_projects() -> list[str]:
    """List the ids of every project."""
    return sorted(PROJECTS)


@mcp.tool()
def get_project(project_id: str) -> str:
    """Get a project's title by id."""
    if project_id not in PROJECTS:
        # good: names the input and the value, and the tool that lists valid ids
        raise ToolError(f"Unknown project_id {project_id!r}. Call list_projects to see valid ids.")
    return PROJECTS[project_id]


@mcp.tool()
def set_status(project_id: str, status: str) -> str:
    """Change a project's status."""
    if status not in STATUSES:
        # bad: a protocol error the model never sees, and no allowed values (AEM602, AEM204)
        raise MCPError(-32602, f"Invalid status {status!r}")
    if project_id not in PROJECTS:
        # bad: generic text (AEM101)
        raise ToolError("Something went wrong.")
    return "ok"


@mcp.tool()
def rename_project(project_id: str, title: str) -> str:
    """Rename a project."""
    if len(title) > 80:
        # bad: a ValueError's text is replaced by "Error executing tool rename_project" on mcp >= 2.1 (AEM603)
        raise ValueError(f"title is {len(title)} characters; the limit is 80. Pass a shorter title.")
    return "renamed"


@mcp.tool()
def export_report(project_id: str) -> str:
    """Export a project's report."""
    try:
        return _render(project_id)
    except OSError as e:
        # bad: error text returned as a successful result (AEM601)
        return f"Error: {e}"


@mcp.tool()
def sync_tracker(project_id: str) -> str:
    """Sync a project with the external tracker."""
    api_key = os.environ.get("TRACKER_API_KEY", "")
    if not api_key:
        # bad: leaks a credential path (AEM302); "do not retry; contact your administrator" is right
        # here, though: only an operator can set the key, so AEM501/AEM502 stay silent
        raise ToolError(f"No key in {Path.home() / '.tracker' / 'credentials.json'}. Do not retry; contact your administrator.")
    if project_id.startswith("archived-"):
        # bad: the key itself ends up in the message (AEM301)
        raise ToolError(f"Tracker rejected key {api_key} for archived projects; try again later.")
    return "synced"


def _render(project_id: str) -> str:
    return f"# {PROJECTS.get(project_id, project_id)}\n"


if __name__ == "__main__":
    mcp.run()
