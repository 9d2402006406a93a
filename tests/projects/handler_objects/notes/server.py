from mcp.server.lowlevel import Server

from . import tools

server = Server("notes")

tool_handlers = {}


def add_tool_handler(handler: tools.ToolHandler) -> None:
    tool_handlers[handler.name] = handler


def get_tool_handler(name: str):
    return tool_handlers.get(name)


add_tool_handler(tools.ReadNoteHandler())
add_tool_handler(tools.DeleteNoteHandler())


@server.call_tool()
async def call_tool(name: str, arguments: dict):
    handler = get_tool_handler(name)
    if handler is None:
        raise ValueError(f"Unknown tool {name!r}; call list_tools to see the tool names")
    try:
        return handler.run_tool(arguments)
    except Exception as e:
        raise RuntimeError(f"Caught Exception. Error: {str(e)}")
