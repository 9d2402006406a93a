from fastmcp import Context, FastMCP

import fetcher

mcp = FastMCP("web")


@mcp.tool()
async def fetch(url: str, ctx: Context) -> str:
    """Fetch a page's text."""
    try:
        return await fetcher.get_text(url)
    except TimeoutError:
        await ctx.error(f"timed out: {url}")
        return "Error: request timed out"
