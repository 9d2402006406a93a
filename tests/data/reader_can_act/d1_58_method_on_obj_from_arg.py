from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


class Parser:
    def __init__(self, text: str) -> None:
        self.text = text

    def parse(self) -> dict:
        if not self.text.startswith("{"):
            raise ValueError("The document is malformed.")
        return {}


@mcp.tool()
def parse(text: str) -> dict:
    return Parser(text).parse()
