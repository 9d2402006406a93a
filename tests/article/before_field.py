import json

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("items")
GET_ITEM_SCHEMA = {"type": "object", "properties": {"itemId": {"type": "string", "description": "The item id returned by list_items."}}, "required": ["itemId"]}


@mcp.tool()
def list_items() -> list:
    return []


@mcp.tool()
def get_item(args: dict) -> dict:
    if "itemId" not in args:
        raise ToolError(json.dumps({
            "error": f"Invalid arguments: {json.dumps(GET_ITEM_SCHEMA)} is missing itemId",
            "guidance": {"state": "human_input", "reason": "Review the reported refusal before choosing another action. Do not repeat the change automatically."},
        }))
    return {}
