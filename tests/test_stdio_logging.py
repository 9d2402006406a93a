"""AEM607 and a logging set-up that writes to stdout in a stdio MCP server: every log record then
lands on the JSON-RPC stream, as a stray print() does. The set-up is reported where it is made: at
module level, in the block that starts the server, or in a tool. A server on another transport, a
set-up to stderr (logging's default) and one in a function the server never runs are left alone.
"""
from __future__ import annotations

import pytest

from conftest import at

SERVER = """import logging
import sys
from loguru import logger
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("notes")
{setup}


@mcp.tool()
def add_note(text: str) -> str:
    logging.getLogger(__name__).info("adding %s", text)
    return "ok"


def main():
    {in_main}
    mcp.run({transport})


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("setup, in_main, row", [
    ("logging.basicConfig(level=logging.INFO, stream=sys.stdout)", "pass", 6),
    ("", "logging.getLogger().addHandler(logging.StreamHandler(sys.stdout))", 16),
    ("", "logger.add(sys.stdout, level='DEBUG')", 16),
    ("logging.basicConfig(handlers=[logging.StreamHandler(stream=sys.stdout)])", "pass", 6),
])
def test_logging_to_stdout_in_a_stdio_server(setup, in_main, row):
    code = SERVER.format(setup=setup, in_main=in_main, transport="")
    assert at(code, select=["AEM607"]) == [(row, "AEM607")]


@pytest.mark.parametrize("setup, in_main, transport", [
    ("logging.basicConfig(level=logging.INFO, stream=sys.stdout)", "pass", "transport='streamable-http'"),  # stdout is free
    ("logging.basicConfig(level=logging.INFO, stream=sys.stderr)", "pass", ""),
    ("logging.basicConfig(level=logging.INFO)", "logger.add(sys.stderr)", ""),  # the defaults write to stderr
    ("def export_report():\n    logging.basicConfig(stream=sys.stdout)", "pass", ""),  # the server never runs it
])
def test_logging_the_server_keeps_off_stdout(setup, in_main, transport):
    code = SERVER.format(setup=setup, in_main=in_main, transport=transport)
    assert at(code, select=["AEM607"]) == []


def test_logging_to_stdout_in_a_command_line_tool_is_output():
    code = "import logging\nimport sys\nimport click\n\nlogging.basicConfig(stream=sys.stdout)\n\n\n@click.command()\ndef main():\n    logging.info('done')\n"
    assert at(code, select=["AEM607"]) == []
