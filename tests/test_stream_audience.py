"""stderr is the CLI user's screen only when a CLI command reaches the write. A server's stderr (an
MCP server's over stdio, a web app's) is its operator's log: a write reached only from MCP tools or
HTTP handlers gets the `log` audience (`reachability.choose`), so the rules for what a CLI user or an
agent reads (AEM305's traceback, AEM201's step) do not apply to it."""
from __future__ import annotations

from test_audience import make_project, run_json

WORKER = '''import sys
import traceback


def warm_up(session):
    try:
        session.start()
    except RuntimeError:
        sys.stderr.write(traceback.format_exc())
        raise


def report(path):
    print(f"could not read {path}", file=sys.stderr)
'''


def found(tmp_path, monkeypatch, files: dict, filename: str = "worker.py") -> set:
    diagnostics = run_json(make_project(tmp_path, files), monkeypatch, "--preview")
    return {(d["location"]["row"], d["code"], d["audience"]) for d in diagnostics if d["filename"] == filename}


def test_stderr_reached_only_from_an_mcp_tool_is_the_servers_log(tmp_path, monkeypatch):
    server = ("from fastmcp import FastMCP\nfrom worker import warm_up, report\nmcp = FastMCP('x')\n\n"
              "@mcp.tool()\ndef start(path: str) -> str:\n    warm_up(object())\n    report(path)\n    return 'ok'\n")
    assert found(tmp_path, monkeypatch, {"worker.py": WORKER, "server.py": server}) == set()


def test_stderr_reached_only_from_a_method_an_http_handler_runs(tmp_path, monkeypatch):
    app = ("from flask import Flask\nimport worker\napp = Flask(__name__)\n\n"
           "@app.route('/start')\ndef start():\n    worker.warm_up(object())\n    worker.report('x')\n    return 'ok'\n")
    assert found(tmp_path, monkeypatch, {"worker.py": WORKER, "app.py": app}) == set()


def test_stderr_a_click_command_reaches_is_the_cli_users(tmp_path, monkeypatch):
    cli = ("import click\nfrom worker import warm_up, report\n\n@click.command()\n@click.argument('path')\n"
           "def main(path):\n    warm_up(object())\n    report(path)\n")
    assert found(tmp_path, monkeypatch, {"worker.py": WORKER, "cli.py": cli}) == {
        (9, "AEM305", "cli"), (14, "AEM201", "cli")}


def test_stderr_both_a_tool_and_a_command_reach_is_the_cli_users(tmp_path, monkeypatch):
    # the same helper serves a CLI command and an MCP tool: run from the command, a person reads it
    server = ("from fastmcp import FastMCP\nfrom worker import warm_up\nmcp = FastMCP('x')\n\n"
              "@mcp.tool()\ndef start() -> str:\n    warm_up(object())\n    return 'ok'\n")
    cli = ("import argparse\nfrom worker import warm_up\n\n\ndef main():\n    argparse.ArgumentParser().parse_args()\n"
           "    warm_up(object())\n\n\nif __name__ == '__main__':\n    main()\n")
    assert found(tmp_path, monkeypatch, {"worker.py": WORKER, "server.py": server, "cli.py": cli}) == {(9, "AEM305", "cli")}


def test_a_tool_method_passed_to_a_thread_writes_to_the_log(tmp_path, monkeypatch):
    client = ("import sys\nimport traceback\n\n\nclass Client:\n    def _export(self, name):\n        try:\n"
              "            return open(name).read()\n        except OSError:\n            sys.stderr.write(traceback.format_exc())\n"
              "            raise\n\n    async def export(self, name):\n        import asyncio\n"
              "        return await asyncio.to_thread(self._export, name)\n")
    server = ("from mcp.server.fastmcp import FastMCP\nfrom client import Client\nmcp = FastMCP('x')\nCLIENT = Client()\n\n"
              "@mcp.tool()\nasync def export(name: str) -> str:\n    return await CLIENT.export(name)\n")
    assert found(tmp_path, monkeypatch, {"client.py": client, "server.py": server}, "client.py") == set()


def test_stderr_past_the_command_that_starts_the_mcp_server_is_its_log(tmp_path, monkeypatch):
    # the script's `main` warms up a session, then serves: what the session writes is the server's log
    server = ("import sys\nfrom mcp.server.fastmcp import FastMCP\nfrom worker import warm_up, report\nmcp = FastMCP('x')\n\n\n"
              "def main():\n    if len(sys.argv) > 2:\n        report(sys.argv[1])\n    warm_up(object())\n    mcp.run()\n\n\n"
              "if __name__ == '__main__':\n    main()\n")
    assert found(tmp_path, monkeypatch, {"worker.py": WORKER, "server.py": server}) == set()


def test_a_launcher_that_serves_from_a_nested_function(tmp_path, monkeypatch):
    # the low-level server runs inside `main`'s own `async def`, as the SDK's examples do
    server = ("import anyio\nfrom mcp.server.lowlevel import Server\nfrom mcp.server.stdio import stdio_server\n"
              "from worker import warm_up\nserver = Server('x')\n\n\ndef main():\n    warm_up(object())\n\n"
              "    async def arun():\n        async with stdio_server() as (read, write):\n"
              "            await server.run(read, write, server.create_initialization_options())\n\n"
              "    anyio.run(arun)\n\n\nif __name__ == '__main__':\n    main()\n")
    assert found(tmp_path, monkeypatch, {"worker.py": WORKER, "server.py": server}) == set()


def test_a_serve_command_beside_a_command_a_person_runs(tmp_path, monkeypatch):
    # `serve` starts uvicorn; `check` calls the same helper and prints to the person's terminal
    cli = ("import click\nimport uvicorn\nfrom worker import warm_up, report\n\n\n@click.group()\ndef cli():\n    pass\n\n\n"
           "@cli.command()\ndef serve():\n    warm_up(object())\n    uvicorn.run('app:app')\n\n\n"
           "@cli.command()\n@click.argument('path')\ndef check(path):\n    report(path)\n")
    assert found(tmp_path, monkeypatch, {"worker.py": WORKER, "cli.py": cli}) == {(14, "AEM201", "cli")}


def test_the_launchers_own_lines_before_it_serves_are_the_commands(tmp_path, monkeypatch):
    server = ("import sys\nfrom fastmcp import FastMCP\nmcp = FastMCP('x')\n\n\ndef main():\n    if len(sys.argv) > 1:\n"
              "        print(f'could not read {sys.argv[1]}', file=sys.stderr)\n    mcp.run()\n\n\n"
              "if __name__ == '__main__':\n    main()\n")
    assert found(tmp_path, monkeypatch, {"server.py": server}, "server.py") == {(8, "AEM201", "cli")}


def test_a_socketserver_a_command_serves_forever(tmp_path, monkeypatch):
    # the command starts a background sweeper thread, then serves until stopped: what the sweeper
    # writes to stderr is the server's log
    sweeper = ("import os\nimport sys\n\n\ndef sweep(folder):\n    for name in os.listdir(folder):\n        try:\n"
               "            os.remove(os.path.join(folder, name))\n        except OSError as e:\n"
               "            print(f'could not remove {name}: {e}', file=sys.stderr)\n")
    cli = ("import argparse\nimport threading\nfrom http.server import HTTPServer, SimpleHTTPRequestHandler\n"
           "from sweeper import sweep\n\n\ndef main():\n    args = argparse.ArgumentParser().parse_args()\n"
           "    threading.Thread(target=sweep, args=('/tmp/cache',), daemon=True).start()\n"
           "    HTTPServer(('', 8000), SimpleHTTPRequestHandler).serve_forever()\n\n\nif __name__ == '__main__':\n    main()\n")
    assert found(tmp_path, monkeypatch, {"sweeper.py": sweeper, "cli.py": cli}, "sweeper.py") == set()
