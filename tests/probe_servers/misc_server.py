"""A sample MCP server (mcp 2.x MCPServer) that hangs or dies, for `errlint probe` timeout tests.

- hang: sleeps for a minute on every call (a per-call timeout must cut it short);
- crash: the process exits at once on every call (the probe must stop and report it);
- echo: answers at once with its argument (a control).

All three are annotated readOnlyHint: true (they change nothing), so the probe calls them by default.
"""
from __future__ import annotations

import os
import time

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

try:
    from _markers import called, started
except ImportError:  # run from elsewhere
    from tests.probe_servers._markers import called, started  # type: ignore[no-redef]

mcp = MCPServer("misc")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def hang(seconds: int = 60) -> str:
    """Sleep, then answer."""
    called("hang")
    time.sleep(60)
    return "done"


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def crash(code: int = 3) -> str:
    """Exit the server process."""
    called("crash")
    os._exit(3)


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def echo(text: str = "hi") -> str:
    """Answer with the text."""
    called("echo")
    return text


if __name__ == "__main__":
    started()
    mcp.run()
