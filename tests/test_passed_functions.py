"""A function passed on as a value (`asyncio.to_thread(load, x)`, `pool.submit(self.work, x)`,
`loop.run_in_executor(None, fn, x)`, `sorted(xs, key=rank)`) runs inside the call it is passed to,
on behalf of the function that passes it: it is reached from that function, so its messages get
the audience of the entry points that reach the caller (`project_model.calls`), and a handler
around that call that replaces the exception replaces the function's raise as well."""
from __future__ import annotations

from test_audience import make_project, run_json

LOADER = '''
def load_source(paper_id):
    if not paper_id.startswith("arXiv:"):
        raise ValueError("Invalid paper id")
    return paper_id
'''


def audiences(tmp_path, monkeypatch, files: dict, filename: str = "loader.py") -> set:
    diagnostics = run_json(make_project(tmp_path, files), monkeypatch, "--preview")
    return {(d["location"]["row"], d["code"], d["audience"]) for d in diagnostics if d["filename"] == filename}


def show_audience(tmp_path, monkeypatch, files: dict, where: str) -> str:
    """What `errlint check --show-audience WHERE .` prints for the project made of `files`."""
    from click.testing import CliRunner

    from errlint.cli import main

    monkeypatch.chdir(make_project(tmp_path, files))
    result = CliRunner().invoke(main, ["check", "--no-cache", "--preview", "--show-audience", where, "."])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_function_a_tool_runs_in_a_thread(tmp_path, monkeypatch):
    server = ("import asyncio\nfrom fastmcp import FastMCP\nfrom loader import load_source\nmcp = FastMCP('x')\n\n"
              "@mcp.tool()\nasync def get_paper(paper_id: str) -> str:\n    return await asyncio.to_thread(load_source, paper_id)\n")
    found = audiences(tmp_path, monkeypatch, {"loader.py": LOADER, "server.py": server})
    assert found == {(4, "AEM101", "agent"), (4, "AEM202", "agent"), (4, "AEM204", "agent")}


def test_a_method_a_command_submits_to_an_executor(tmp_path, monkeypatch):
    worker = ("class Fetcher:\n    def fetch(self, url):\n        if not url.startswith('https://'):\n"
              "            raise ValueError(f'url {url!r} is not https')\n        return url\n\n"
              "    def fetch_all(self, urls):\n        from concurrent.futures import ThreadPoolExecutor\n"
              "        with ThreadPoolExecutor() as pool:\n            return list(pool.map(self.fetch, urls))\n")
    cli = ("import click\nfrom worker import Fetcher\n\n@click.command()\n@click.argument('urls', nargs=-1)\n"
           "def main(urls):\n    click.echo(Fetcher().fetch_all(urls))\n")
    found = audiences(tmp_path, monkeypatch, {"worker.py": worker, "cli.py": cli}, "worker.py")
    assert found == {(4, "AEM204", "cli")}


def test_a_function_an_http_handler_runs_in_the_event_loops_executor(tmp_path, monkeypatch):
    # the route turns the helper's ValueError into a 400 with its text (a plain raise alone would be a bare 500)
    app = ("import asyncio\nfrom fastapi import FastAPI, HTTPException\nfrom loader import load_source\napp = FastAPI()\n\n"
           "@app.get('/papers/{paper_id}')\nasync def paper(paper_id: str):\n"
           "    loop = asyncio.get_running_loop()\n    try:\n        return await loop.run_in_executor(None, load_source, paper_id)\n"
           "    except ValueError as e:\n        raise HTTPException(status_code=400, detail=str(e))\n")
    found = audiences(tmp_path, monkeypatch, {"loader.py": LOADER, "app.py": app})
    assert found == {(4, "AEM101", "http"), (4, "AEM202", "http"), (4, "AEM204", "http")}


def test_a_key_function_of_sorted(tmp_path, monkeypatch):
    ranking = ("ORDER = ('high', 'low')\n\ndef rank(level):\n    if level not in ORDER:\n"
               "        raise ValueError(f'unknown level {level!r}')\n    return ORDER.index(level)\n")
    cli = ("import click\nfrom ranking import rank\n\n@click.command()\n@click.argument('levels', nargs=-1)\n"
           "def main(levels):\n    click.echo(sorted(levels, key=rank))\n")
    found = audiences(tmp_path, monkeypatch, {"ranking.py": ranking, "cli.py": cli}, "ranking.py")
    assert found == {(5, "AEM204", "cli")}


def test_a_handler_around_the_call_that_replaces_the_raise_replaces_it(tmp_path, monkeypatch):
    # the tool turns the ValueError into its own error: the helper's text reaches no reader
    server = ("import asyncio\nfrom fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nfrom loader import load_source\n"
              "mcp = FastMCP('x')\n\n@mcp.tool()\nasync def get_paper(paper_id: str) -> str:\n    try:\n"
              "        return await asyncio.to_thread(load_source, paper_id)\n    except ValueError:\n"
              "        raise ToolError(f'paper id {paper_id!r} must look like arXiv:2401.00001; call search_papers to find one')\n")
    assert audiences(tmp_path, monkeypatch, {"loader.py": LOADER, "server.py": server}) == set()


def test_a_function_only_stored_in_a_variable_is_not_reached(tmp_path, monkeypatch):
    # no call receives it as an argument: nothing says when it runs
    cli = ("import click\nfrom loader import load_source\n\n@click.command()\n@click.argument('name')\n"
           "def main(name):\n    handler = load_source\n    click.echo(name)\n")
    found = audiences(tmp_path, monkeypatch, {"loader.py": LOADER, "cli.py": cli})
    assert found == {(4, "AEM101", "exc"), (4, "AEM202", "exc"), (4, "AEM204", "exc")}
