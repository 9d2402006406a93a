"""A sample MCP server (mcp 2.x MCPServer) with a read-only listing tool, for the `errlint probe`
valid-values tests. Every call is appended to $ERRLINT_PROBE_LOG (one JSON object per line).

- list_projects: read-only, no arguments; the projects as JSON (`id`, `name`);
- project_summary: read-only; an unknown `project_id` is a good tool error, and a `limit` outside
  1-20 is answered about `limit` only when the project exists, so probes of `limit` need a real id.
"""
from __future__ import annotations

import json
import os
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

mcp = MCPServer("listing")
PROJECTS = {"PRJ-7": "Website", "PRJ-9": "Billing"}
RO = ToolAnnotations(readOnlyHint=True)


def record(tool: str, **arguments) -> None:
    log = os.environ.get("ERRLINT_PROBE_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"tool": tool, "arguments": arguments}) + "\n")


@mcp.tool(annotations=RO)
def list_projects() -> str:
    """Every project as JSON: id and name."""
    record("list_projects")
    return json.dumps({"projects": [{"id": key, "name": name} for key, name in PROJECTS.items()]})


@mcp.tool(annotations=RO)
def project_summary(project_id: str, limit: Annotated[int, Field(ge=1, le=20)] = 5) -> str:
    """A project's latest events."""
    record("project_summary", project_id=project_id, limit=limit)
    if project_id not in PROJECTS:
        raise ToolError(f"Unknown project_id {project_id!r}; call list_projects to see valid ids.")
    return f"{PROJECTS[project_id]}: {limit} events"


if __name__ == "__main__":
    mcp.run()
