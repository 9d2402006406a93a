from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("reviews")
STATUSES = ("approved", "needs_review", "rejected")


@mcp.tool()
def list_reviews(status: list[str]) -> list:
    for i, value in enumerate(status):
        if value not in STATUSES:
            raise ToolError(
                f'status[{i}] "{value}" is not valid. Use one of: approved, needs_review, rejected. '
                '("To review" in the app = needs_review.)'
            )
    return []
