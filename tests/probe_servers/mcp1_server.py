"""A sample MCP server for the mcp SDK's FastMCP (mcp 1.x; run it with an interpreter that has `mcp<2`).

Two read-only tools with typed arguments, so bad arguments get the SDK's own pydantic validation
reply ("Error executing tool X: 1 validation error for XArguments ..."), which `errlint probe` must
report once, as a framework finding, not once per tool.
"""
from __future__ import annotations

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

mcp = FastMCP("mcp1-notes")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def count_notes(limit: int, folder: str = "inbox") -> str:
    """Count the notes in a folder, up to `limit`."""
    return f"{min(limit, 3)} notes in {folder}"


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def note_title(index: int) -> str:
    """The title of the note at `index`."""
    return f"Note {index}"


if __name__ == "__main__":
    mcp.run()
