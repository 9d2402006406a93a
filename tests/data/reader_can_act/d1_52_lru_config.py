from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


import functools
import json


@functools.lru_cache
def _settings() -> dict:
    with open("settings.json") as f:
        return json.load(f)


def _endpoint() -> str:
    cfg = _settings()
    if "endpoint" not in cfg:
        raise KeyError("The endpoint is not configured.")
    return cfg["endpoint"]


@mcp.tool()
def ping() -> str:
    return _endpoint()
