"""A function a runner calls detached from the code that passes it (a `threading.Thread` or
`multiprocessing.Process` target, an event-loop callback, an exit hook) is reached, but what it
raises never comes back to that code: the runtime prints it, or hands it to the loop's exception
handler. Its raise is `exc` unless another path brings it back (`reachability.raise_audience`);
what it prints is still read where it is printed."""
from __future__ import annotations

from pathlib import Path

from test_passed_functions import LOADER, audiences, show_audience
from test_audience import run_json

WORKER = '''
class Worker:
    def __init__(self, conn):
        self.conn = conn

    def handle(self, msg):
        if self.conn.closed:
            raise RuntimeError("An error occurred.")
        return msg

    def run(self):
        while True:
            self.handle(self.conn.recv())


def main(conn):
    Worker(conn).run()
'''


PREFETCH = ("import threading\nfrom fastmcp import FastMCP\nfrom loader import load_source\nmcp = FastMCP('x')\n\n"
            "@mcp.tool()\ndef prefetch(paper_id: str) -> str:\n"
            "    threading.Thread(target=load_source, args=(paper_id,), daemon=True).start()\n    return 'started'\n")


def test_a_thread_a_tool_starts(tmp_path, monkeypatch):
    found = audiences(tmp_path, monkeypatch, {"loader.py": LOADER, "server.py": PREFETCH})
    assert found == {(4, "AEM101", "exc"), (4, "AEM202", "exc"), (4, "AEM204", "exc")}


def test_a_process_a_session_starts_reaches_a_worker_two_calls_down(tmp_path, monkeypatch):
    # the mcp-stata shape: the tool makes a session, whose __init__ starts the worker process
    sessions = ("from multiprocessing import Pipe, Process\n\n\nclass Session:\n    def __init__(self):\n"
                "        self.parent, child = Pipe()\n        self.process = Process(target=self._run, args=(child,))\n"
                "        self.process.start()\n\n    def _run(self, conn):\n        from worker import main\n        main(conn)\n")
    server = ("from fastmcp import FastMCP\nfrom sessions import Session\nmcp = FastMCP('x')\n\n"
              "@mcp.tool()\ndef open_session() -> str:\n    Session()\n    return 'ok'\n")
    found = audiences(tmp_path, monkeypatch, {"worker.py": WORKER, "sessions.py": sessions, "server.py": server}, "worker.py")
    assert found == {(8, "AEM101", "exc")}


def test_a_callback_on_the_event_loop_and_on_a_future(tmp_path, monkeypatch):
    app = ("import asyncio\nfrom fastapi import FastAPI\napp = FastAPI()\n\n\n"
           "def flush(batch):\n    if not batch:\n        raise RuntimeError('An error occurred.')\n\n\n"
           "def done(future):\n    if future.cancelled():\n        raise RuntimeError('Something went wrong.')\n\n\n"
           "@app.post('/events')\nasync def events(batch: list):\n    loop = asyncio.get_running_loop()\n"
           "    loop.call_soon(flush, batch)\n    task = asyncio.ensure_future(asyncio.sleep(0))\n"
           "    task.add_done_callback(done)\n    return {'queued': len(batch)}\n")
    found = audiences(tmp_path, monkeypatch, {"app.py": app}, "app.py")
    assert {a for _, _, a in found} == {"exc"}
    assert {row for row, _, _ in found} == {8, 13}


def test_an_exit_hook_a_server_registers(tmp_path, monkeypatch):
    server = ("import atexit\nfrom fastmcp import FastMCP\nmcp = FastMCP('x')\n\n\ndef cleanup(path):\n"
              "    if path.endswith('.lock'):\n        raise OSError('An error occurred.')\n\n\n@mcp.tool()\n"
              "def lock(path: str) -> str:\n    atexit.register(cleanup, path)\n    return path\n")
    found = audiences(tmp_path, monkeypatch, {"server.py": server}, "server.py")
    assert {a for _, _, a in found} == {"exc"} and {row for row, _, _ in found} == {8}


def test_a_thread_or_exit_hook_a_command_starts_prints_on_its_terminal(tmp_path, monkeypatch):
    # the runtime prints what a thread (or an exit hook) raises, with its traceback, on the stderr of
    # the command's own process: the person who ran the command reads it
    cli = ("import atexit\nimport threading\nimport click\n\n\ndef cleanup(path):\n    if path.endswith('.lock'):\n"
           "        raise OSError('An error occurred.')\n\n\ndef watch(path):\n    if not path:\n"
           "        raise ValueError('Something went wrong.')\n\n\n@click.command()\n@click.argument('path')\n"
           "def main(path):\n    atexit.register(cleanup, path)\n    threading.Thread(target=watch, args=(path,)).start()\n")
    found = audiences(tmp_path, monkeypatch, {"cli.py": cli}, "cli.py")
    assert {a for _, _, a in found} == {"cli"} and {row for row, _, _ in found} == {8, 13}
    shown = show_audience(tmp_path / "again", monkeypatch, {"cli.py": cli}, "cli.py:13")
    assert "audience cli" in shown and "cli.main -> cli.watch" in shown


def test_a_direct_call_beside_the_thread_still_brings_the_raise_back(tmp_path, monkeypatch):
    server = ("import threading\nfrom fastmcp import FastMCP\nfrom loader import load_source\nmcp = FastMCP('x')\n\n"
              "@mcp.tool()\ndef get_paper(paper_id: str, background: bool = False) -> str:\n    if background:\n"
              "        threading.Thread(target=load_source, args=(paper_id,)).start()\n        return 'started'\n"
              "    return load_source(paper_id)\n")
    found = audiences(tmp_path, monkeypatch, {"loader.py": LOADER, "server.py": server})
    assert found == {(4, "AEM101", "agent"), (4, "AEM202", "agent"), (4, "AEM204", "agent")}


def test_what_a_thread_prints_is_still_on_the_screen(tmp_path, monkeypatch):
    # only raises stop at the thread: a command's thread that prints to stderr prints to its user
    cli = ("import sys\nimport threading\nimport click\n\n\ndef watch(path):\n"
           "    print('Something went wrong.', file=sys.stderr)\n\n\n@click.command()\n@click.argument('path')\n"
           "def main(path):\n    threading.Thread(target=watch, args=(path,)).start()\n")
    found = audiences(tmp_path, monkeypatch, {"cli.py": cli}, "cli.py")
    assert (7, "AEM101", "cli") in found and {a for _, _, a in found} == {"cli"}


def test_show_audience_says_the_path_runs_detached(tmp_path, monkeypatch):
    shown = show_audience(tmp_path, monkeypatch, {"loader.py": LOADER, "server.py": PREFETCH}, "loader.py:4")
    assert "audience exc: every call path from an entry point to loader.load_source runs it detached" in shown
    assert "server.prefetch -> loader.load_source" in shown
    assert run_json(Path.cwd(), monkeypatch, "--preview")  # the project (show_audience's working folder) still lints


def test_a_nested_function_only_passed_to_a_thread(tmp_path, monkeypatch):
    server = ("import threading\nfrom fastmcp import FastMCP\nmcp = FastMCP('x')\n\n@mcp.tool()\ndef warm(path: str) -> str:\n"
              "    def work():\n        if not path:\n            raise ValueError('Something went wrong.')\n"
              "    threading.Thread(target=work).start()\n    return 'started'\n")
    assert {a for _, _, a in audiences(tmp_path, monkeypatch, {"server.py": server}, "server.py")} == {"exc"}
    called = server.replace("    threading.Thread(target=work).start()\n", "    threading.Thread(target=work).start()\n    work()\n")
    assert {a for _, _, a in audiences(tmp_path / "again", monkeypatch, {"server.py": called}, "server.py")} == {"agent"}


def test_a_project_class_named_like_a_runner_calls_back_in_place(tmp_path, monkeypatch):
    # a context manager of the project's own, `Timer(on_done=check)`, calls `check` in `__exit__`
    helpers = ("import time\n\nclass Timer:\n    def __init__(self, on_done):\n        self.on_done = on_done\n\n"
               "    def __enter__(self):\n        self.start = time.monotonic()\n        return self\n\n"
               "    def __exit__(self, *exc):\n        self.on_done(time.monotonic() - self.start)\n\n\n"
               "def check(elapsed):\n    if elapsed > 10:\n        raise RuntimeError('Something went wrong.')\n")
    server = ("from fastmcp import FastMCP\nfrom helpers import Timer, check\nmcp = FastMCP('x')\n\n@mcp.tool()\n"
              "def run(path: str) -> str:\n    with Timer(on_done=check):\n        return path\n")
    assert {a for _, _, a in audiences(tmp_path, monkeypatch, {"helpers.py": helpers, "server.py": server}, "helpers.py")} == {"agent"}
