from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


import importlib.metadata


def _check() -> None:
    if importlib.metadata.version("numpy").startswith("1."):
        raise RuntimeError("The numerical backend is outdated.")


@mcp.tool()
def fft(values: list[float]) -> list:
    _check()
    return values
