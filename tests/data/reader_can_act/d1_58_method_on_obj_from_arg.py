from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


class Parser:
    def __init__(self, text: str) -> None:
        self.text = text

    def parse(self) -> dict:
        if not self.text.startswith("{"):
            raise ValueError("The text cannot be parsed.")  # (not "malformed": broken content makes the step plain)
        return {}


@mcp.tool()
def parse(text: str) -> dict:
    return Parser(text).parse()
