from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


import threading

_lock = threading.Lock()


def _acquire() -> None:
    if not _lock.acquire(timeout=1):
        raise TimeoutError("The workspace is busy.")


@mcp.tool()
def build(target: str) -> str:
    _acquire()
    try:
        return target
    finally:
        _lock.release()
