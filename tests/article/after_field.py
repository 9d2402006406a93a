from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("items")


@mcp.tool()
def list_items() -> list:
    return []


@mcp.tool()
def get_item(args: dict) -> dict:
    if "itemId" not in args:
        raise ToolError(
            'get_item takes itemId (the "id" field from list_items), not personId. guidance: {"state": "fix_args"}'
        )
    return {}
