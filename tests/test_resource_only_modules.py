"""A module that registers only MCP resources or prompts (`@mcp.resource(...)`, `@mcp.prompt()`) and
no tool is an MCP entry point all the same: the helpers it calls are judged for the agent. The
cheap pre-check that decides, from a file's bytes, which audiences its raises must be judged under
(`entry_points.audience_hints`) used to look only for tools."""
from __future__ import annotations

from test_passed_functions import audiences

HELPERS = '''
def find_memo(uri):
    if not uri.startswith("memo://"):
        raise ValueError(f"Unknown resource {uri}")
    return uri
'''


def test_a_fastmcp_module_with_only_resources_is_read_by_the_agent(tmp_path, monkeypatch):
    server = ("from fastmcp import FastMCP\nfrom helpers import find_memo\nmcp = FastMCP('memo')\n\n\n"
              "@mcp.resource('memo://{name}')\ndef memo(name: str) -> str:\n    return find_memo(name)\n")
    found = audiences(tmp_path, monkeypatch, {"helpers.py": HELPERS, "server.py": server}, "helpers.py")
    assert found and {aud for _, _, aud in found} == {"agent"}


def test_a_module_with_only_prompts_of_the_sdk_server_is_read_by_the_agent(tmp_path, monkeypatch):
    server = ("from mcp.server.fastmcp import FastMCP\nimport helpers\n\nserver = FastMCP('memo')\n\n\n"
              "@server.prompt()\ndef review(uri: str) -> str:\n    return 'Review ' + helpers.find_memo(uri)\n")
    found = audiences(tmp_path, monkeypatch, {"helpers.py": HELPERS, "server.py": server}, "helpers.py")
    assert found and {aud for _, _, aud in found} == {"agent"}


def test_a_module_that_only_mentions_resources_is_no_entry_point(tmp_path, monkeypatch):
    """The word alone is no registration: a library that names a resource in its text stays a library."""
    lib = ("from helpers import find_memo\n\n\ndef resource_for(name):\n    # the resource of a memo\n"
           "    return find_memo(name)\n")
    found = audiences(tmp_path, monkeypatch, {"helpers.py": HELPERS, "lib.py": lib}, "helpers.py")
    assert {aud for _, _, aud in found} <= {"exc"}
