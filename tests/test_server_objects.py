"""A server object one project module makes (`mcp = MCPServer("x")` in `common/server.py`) and
another imports to decorate its tools (`from ..common.server import mcp`, `@mcp.tool()`): the
tools are that stack's entry points, so their replies are judged as an agent reads them
(`project_scan.ServerObjects`), though the tools' module imports no MCP stack itself."""
from __future__ import annotations

from test_audience import make_project, run_json

SERVER_MCP2 = '''from mcp.server.mcpserver import MCPServer

mcp = MCPServer("cache")
'''

TOOLS = '''from pymemcache.exceptions import MemcacheError

from {import_from} import mcp


@mcp.tool()
def cache_append(key: str, value: str) -> str:
    try:
        client.append(key, value)
        return "appended"
    except MemcacheError as e:
        return f"Error appending to key '{{key}}': {{str(e)}}"
'''


def found(tmp_path, monkeypatch, files: dict, filename: str) -> set:
    diagnostics = run_json(make_project(tmp_path, files), monkeypatch, "--select", "AEM601")
    return {(d["location"]["row"], d["code"], d["audience"]) for d in diagnostics if d["filename"] == filename}


def test_tools_decorated_with_a_server_from_a_sibling_package(tmp_path, monkeypatch):
    files = {"app/__init__.py": "", "app/common/__init__.py": "", "app/common/server.py": SERVER_MCP2,
             "app/tools/__init__.py": "", "app/tools/cache.py": TOOLS.format(import_from="app.common.server")}
    assert found(tmp_path, monkeypatch, files, "app/tools/cache.py") == {(12, "AEM601", "agent")}


def test_a_relative_import_of_a_fastmcp_server_made_in_a_package_init(tmp_path, monkeypatch):
    files = {"notes/__init__.py": "from fastmcp import FastMCP\n\nmcp = FastMCP('notes')\n",
             "notes/tools.py": TOOLS.format(import_from=".")}
    assert found(tmp_path, monkeypatch, files, "notes/tools.py") == {(12, "AEM601", "agent")}


def test_an_object_of_the_same_name_that_is_no_server(tmp_path, monkeypatch):
    # `mcp` made by a project factory of its own is not known to be a server: no tool, no AEM601
    files = {"app/__init__.py": "", "app/common/__init__.py": "",
             "app/common/server.py": "from .factory import make_server\n\nmcp = make_server('cache')\n",
             "app/tools.py": TOOLS.format(import_from="app.common.server")}
    assert found(tmp_path, monkeypatch, files, "app/tools.py") == set()
