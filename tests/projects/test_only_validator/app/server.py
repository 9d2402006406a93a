from fastmcp import FastMCP

mcp = FastMCP("ports")


@mcp.tool()
def list_ports() -> list:
    """List the ports in use."""
    return [8000, 8080]
