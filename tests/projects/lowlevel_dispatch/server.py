from mcp.server.lowlevel import Server

from handlers import HANDLERS

server = Server("files")


@server.call_tool()
async def call_tool(name: str, arguments: dict):
    return await HANDLERS[name](arguments)
