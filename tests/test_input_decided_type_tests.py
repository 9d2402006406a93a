"""Type tests that the reader's input decides: AEM201 stays on them.

A raise under type tests against classes no JSON, command line or form can make (`isinstance(node,
Page)`) looks like a contract between parts of the program, which no step helps. It is not one when
the tested object comes from the reader: a node of the expression the agent sent, a request body of
one model of a union, a failure `asyncio.gather` returned for one of its URLs, the object a path the
agent passed resolves to, a class a setting picked. Which one holds depends on where the object was
made, not on the test's shape, so no exemption may silence these (a hunter's inputs, kept when a
shape-only exemption was tried and withdrawn)."""
from __future__ import annotations

import pytest
from conftest import preview_rows


CASES = {
    "a_dispatch_over_the_parse_tree_of_the_agents_expression": ('import ast\nfrom fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n\nmcp = FastMCP("calc")\n\n\ndef evaluate(node):\n    if isinstance(node, ast.Constant):\n        return node.value\n    if isinstance(node, ast.BinOp):\n        return evaluate(node.left) + evaluate(node.right)\n    raise ToolError(f"Unsupported expression type: {type(node).__name__}")\n\n\n@mcp.tool()\ndef calc(expression: str) -> str:\n    """Evaluate an arithmetic expression."""\n    tree = ast.parse(expression, mode="eval")\n    return str(evaluate(tree.body))\n', [13]),
    "a_request_body_of_another_model_of_a_union": ('from typing import Literal, Union\nfrom fastapi import FastAPI, HTTPException\nfrom pydantic import BaseModel\n\napp = FastAPI()\n\n\nclass CreateOrder(BaseModel):\n    kind: Literal["create"]\n    sku: str\n\n\nclass CancelOrder(BaseModel):\n    kind: Literal["cancel"]\n    order_id: str\n\n\n@app.post("/orders")\ndef create_order(body: Union[CreateOrder, CancelOrder]):\n    if not isinstance(body, CreateOrder):\n        raise HTTPException(422, detail=f"This endpoint cannot handle a {type(body).__name__} request")\n    return {"sku": body.sku}\n', [21]),
    "a_failure_gather_returned_for_one_url": ('import asyncio\nimport httpx\nfrom fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n\nmcp = FastMCP("fetcher")\n\n\n@mcp.tool()\nasync def fetch_all(urls: list[str]) -> list[str]:\n    """Fetch all URLs."""\n    async with httpx.AsyncClient() as client:\n        results = await asyncio.gather(*(client.get(u) for u in urls), return_exceptions=True)\n    out = []\n    for url, r in zip(urls, results):\n        if isinstance(r, Exception):\n            raise ToolError(f"Fetching {url} failed with {type(r).__name__}")\n        out.append(r.text)\n    return out\n', [17]),
    "an_object_resolved_from_the_agents_path": ('from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n\nmcp = FastMCP("docs")\n\n\nclass Folder: ...\n\n\ndef resolve(path):\n    ...\n\n\n@mcp.tool()\ndef list_folders(paths: list[str]) -> list[str]:\n    """List the given folders."""\n    out = []\n    for p in paths:\n        node = resolve(p)\n        if not isinstance(node, Folder):\n            raise ToolError(f"{p} is a {type(node).__name__}")\n        out.append(p)\n    return out\n', [21]),
    "a_class_chosen_from_a_table_by_the_setting": ('from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n\nmcp = FastMCP("settings")\nSCHEMA = {"retries": int, "name": str, "ratio": float}\n\n\n@mcp.tool()\ndef set_setting(key: str, value: object) -> str:\n    """Set a setting."""\n    expected = SCHEMA[key]\n    if not isinstance(value, expected):\n        raise ToolError(f"Setting {key} got the wrong type {type(value).__name__}")\n    return key\n', [13]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_type_test_the_input_decides_keeps_aem201(name):
    code, rows = CASES[name]
    assert preview_rows(code, ["AEM201"]) == rows
