import json
import re

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("projects")
UPDATE_PROJECT_SCHEMA = json.loads(open("update_project.schema.json").read())


@mcp.tool()
def list_projects() -> list:
    return []


@mcp.tool()
def update_project(project_id: str, title: str) -> str:
    if not re.fullmatch(r"[0-9a-f-]{36}", project_id):
        raise ToolError(f"Invalid input. Expected: {json.dumps(UPDATE_PROJECT_SCHEMA)}. Ask the user for help before continuing.")
    return "updated"
