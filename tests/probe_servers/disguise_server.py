"""A sample MCP server (mcp 2.x MCPServer) whose read-only tools return errors as successes, one
shape per tool, for the `errlint probe` disguised-error tests. Every tool answers the probe's wrong
values with isError=false; `list_jobs` answers real data and must not be reported.

- get_document: "Document <id> does not exist" (an unheaded statement);
- move_item: "# Move Failed - ..." (a markdown heading);
- run_query: "Database error: ..." (a headed statement with a subject);
- find_user: "User '<id>' not found." ;
- check_token: "Invalid token format: ..." ;
- open_file: "Failed to open <path>: ..." ;
- get_status: {"status": "error", "message": ...} (a JSON status field);
- get_record: {"data": {"result": null, "error": {"code": 404, ...}}} (an error field nested in JSON);
- get_batch: a JSON list holding a text item whose text is JSON {"error": ...};
- save_flag: {"success": false, ...};
- get_profile: "'NoneType' object has no attribute 'get'" (Python exception text);
- parse_config: a whole traceback;
- lookup_order: an unknown id answered with made-up data (should have failed);
- read_path: an empty required path accepted and answered with a listing (should have failed);
- list_jobs: real data that mentions failed jobs and errors (a real success).
"""
from __future__ import annotations

import json
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

mcp = MCPServer("disguise")
RO = ToolAnnotations(readOnlyHint=True)
DOCS = {"doc-1": "Quarterly report"}


@mcp.tool(annotations=RO)
def get_document(document_id: str) -> str:
    """Get a document's title by id, e.g. 'doc-1'."""
    return DOCS.get(document_id) or f"Document {document_id} does not exist"


@mcp.tool(annotations=RO)
def move_item(item_id: str, folder: Annotated[str, Field(description="Target folder, e.g. 'archive'.")] = "archive") -> str:
    """Preview moving an item to a folder."""
    if item_id != "item-1":
        return f"# Move Failed - item {item_id} is not in the inbox\n\nNothing was moved."
    return f"# Move preview\n\nitem-1 would go to {folder}."


@mcp.tool(annotations=RO)
def run_query(table: str) -> str:
    """Count the rows of a table, e.g. 'orders'."""
    if table != "orders":
        return f"Database error: no such table: {table}"
    return "orders: 12 rows"


@mcp.tool(annotations=RO)
def find_user(user_id: str) -> str:
    """Find a user by id, e.g. 'u-1'."""
    return "Ada" if user_id == "u-1" else f"User '{user_id}' not found."


@mcp.tool(annotations=RO)
def check_token(token: str) -> str:
    """Check an access token, e.g. 'tok-1234'."""
    return "valid" if token.startswith("tok-") else f"Invalid token format: {token!r} should start with 'tok-'."


@mcp.tool(annotations=RO)
def open_file(path: str) -> str:
    """Show a file of the workspace, e.g. 'README.md'."""
    return "# Workspace" if path == "README.md" else f"Failed to open {path}: no such file in the workspace."


@mcp.tool(annotations=RO)
def get_status(job_id: str) -> str:
    """A job's status as JSON."""
    if job_id != "job-1":
        return json.dumps({"status": "error", "message": f"job {job_id} is unknown"})
    return json.dumps({"status": "done"})


@mcp.tool(annotations=RO)
def get_record(record_id: str) -> str:
    """A record as JSON."""
    if record_id != "r-1":
        return json.dumps({"data": {"result": None, "error": {"code": 404, "message": f"record {record_id} is missing"}}})
    return json.dumps({"data": {"result": {"id": "r-1"}, "error": None}})


@mcp.tool(annotations=RO)
def get_batch(batch_id: str) -> str:
    """A batch as JSON content items."""
    inner = json.dumps({"error": f"batch {batch_id} not found"})
    return json.dumps([{"type": "text", "text": inner}])


@mcp.tool(annotations=RO)
def save_flag(flag_id: str) -> dict:
    """Preview a feature flag."""
    return {"success": False, "error": f"flag {flag_id} is not defined"}


@mcp.tool(annotations=RO)
def get_profile(user_id: str) -> str:
    """A user's profile."""
    profile = None if user_id != "u-1" else {"name": "Ada"}
    try:
        return profile.get("name")  # type: ignore[union-attr]
    except AttributeError as exc:
        return str(exc)


@mcp.tool(annotations=RO)
def parse_config(name: str) -> str:
    """Parse a named config."""
    import traceback

    try:
        {"base": 1}[name]
    except KeyError:
        return traceback.format_exc()
    return "ok"


@mcp.tool(annotations=RO)
def lookup_order(order_id: str) -> str:
    """An order by id (made-up data for any id)."""
    return json.dumps({"order_id": order_id, "total": 42.5, "items": 3})


@mcp.tool(annotations=RO)
def read_path(path: str) -> str:
    """List a folder of the workspace."""
    return "README.md\nsrc/\ntests/"


@mcp.tool(annotations=RO)
def list_jobs(state: Literal["all", "failed"] = "all") -> str:
    """Recent CI jobs as JSON; a real success, even when jobs failed."""
    jobs = [{"id": "job-1", "status": "failed", "log": "Error: test_login failed"}, {"id": "job-2", "status": "passed", "log": ""}]
    return json.dumps({"jobs": jobs, "errors": [], "summary": "1 failed, 1 passed; no errors in the runner"})


if __name__ == "__main__":
    mcp.run()
