from mcp.types import TextContent

from .base import ToolHandler
from .vault import Vault


class ReadNoteHandler(ToolHandler):
    def __init__(self):
        super().__init__("read_note")

    def run_tool(self, args: dict) -> list:
        if "path" not in args:
            raise RuntimeError("path argument missing in arguments")
        return [TextContent(type="text", text=Vault("/notes").read(args["path"]))]


class DeleteNoteHandler(ToolHandler):
    def __init__(self):
        super().__init__("delete_note")

    def run_tool(self, args: dict) -> list:
        if args.get("confirm") is not True:
            raise RuntimeError("confirm argument missing in arguments")
        return [TextContent(type="text", text="deleted")]

