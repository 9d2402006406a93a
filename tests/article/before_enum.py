import json

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from pydantic import BaseModel, ValidationError

mcp = FastMCP("reviews")


class StatusFilter(BaseModel):
    status: list[str]


@mcp.tool()
def list_reviews(status: list[str]) -> list:
    try:
        StatusFilter.model_validate({"status": status})
    except ValidationError as err:
        raise ToolError(f"Invalid arguments: {json.dumps(StatusFilter.model_json_schema(), indent=2)}\n{err}")
    return []
