from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("items")
VERSIONS = {"item-1": 9}


@mcp.tool()
def get_item(item_id: str) -> dict:
    return {"version": VERSIONS.get(item_id)}


@mcp.tool()
def update_item(item_id: str, expected_version: int, body: str) -> str:
    if expected_version != VERSIONS.get(item_id):
        raise ToolError(
            "The item changed since you read it. Call get_item to re-read its current version, then retry. "
            'guidance: {"state": "human_input", "reason": "Do not repeat the change automatically."}'
        )
    return "updated"
