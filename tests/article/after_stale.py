from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("items")
VERSIONS = {"item-1": 9}


@mcp.tool()
def get_item(item_id: str) -> dict:
    return {"version": VERSIONS.get(item_id)}


@mcp.tool()
def update_item(item_id: str, expected_version: int, body: str) -> str:
    current = VERSIONS.get(item_id)
    if expected_version != current:
        raise ToolError(
            f"The item changed since you read it (your version {expected_version}, current {current}). "
            f"Call get_item, then retry with expectedVersion {current}. "
            'guidance: {"state": "retry", "next": "get_item"}'
        )
    return "updated"
