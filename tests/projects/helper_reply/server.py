from fastmcp import FastMCP

import fmt

mcp = FastMCP("sheets")


@mcp.tool()
def merge_cells(doc: str, first: str, last: str) -> str:
    """Merge the cells from `first` to `last` in `doc`."""
    return fmt.merge(doc, first, last)
