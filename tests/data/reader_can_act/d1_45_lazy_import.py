from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

try:
    import yaml
except ImportError:
    yaml = None


def _dump(obj: dict) -> str:
    if yaml is None:
        raise RuntimeError("YAML output is unavailable.")
    return yaml.safe_dump(obj)


@mcp.tool()
def to_yaml(data: dict) -> str:
    return _dump(data)
