from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

_jobs: dict = {}


def _result(job_id: str) -> str:
    if not _jobs[job_id]["done"]:
        raise RuntimeError("The job is still running.")
    return "x"


@mcp.tool()
def result(job_id: str) -> str:
    return _result(job_id)
