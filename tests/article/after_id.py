import re

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("projects")


@mcp.tool()
def list_projects() -> list:
    return []


@mcp.tool()
def update_project(project_id: str, title: str) -> str:
    if not re.fullmatch(r"[0-9a-f-]{36}", project_id):
        raise ToolError(
            f'projectId "{project_id}" is not a valid id. Call list_projects and pass one of its ids. '
            'guidance: {"state": "fix_args", "next": "list_projects"}'
        )
    return "updated"
