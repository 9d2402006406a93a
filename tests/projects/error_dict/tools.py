import json

from mcp.server.fastmcp import FastMCP

from db import find_table

mcp = FastMCP("warehouse")


@mcp.tool()
def describe_table(name: str) -> str:
    """Describe one table's columns."""
    return json.dumps(find_table(name))
