"""Polymorphic dispatch in the project model (issue 13, reachability): a method called on an object
whose class errlint does not know reaches the project's overrides of that method, resolved over the
class hierarchy; tables of classes or instances, annotated parameters, `self.m()` and instance
attributes resolve to the classes they hold. Checked through the CLI, with exact codes and audiences."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from errlint.cli import main
from errlint.config import Settings
from errlint.runner import Selection, check_paths
from test_audience import PYPROJECT, copy_project, found, make_project, run_json

VAGUE_HELPER = 'def run(value):\n    raise RuntimeError("Something went wrong")\n'
LOWLEVEL = "from mcp.server.lowlevel import Server\n\nserver = Server('x')\n\n\n"


def helper_audiences(tmp_path, monkeypatch, files: dict) -> set:
    """The audiences AEM101 gives the vague raise in helpers.py, which only the shape's code calls."""
    root = make_project(tmp_path, {**files, "helpers.py": VAGUE_HELPER})
    diagnostics = run_json(root, monkeypatch, "--select", "AEM101")
    assert {(d["filename"], d["location"]["row"]) for d in diagnostics} == {("helpers.py", 2)}
    return {d["audience"] for d in diagnostics}


# ---------------------------------------------------------------------- the mcp-obsidian shape

def test_handler_objects_a_lowlevel_server_looks_up_by_name_reach_the_agent(tmp_path, monkeypatch):
    root = copy_project("handler_objects", tmp_path)
    diagnostics = run_json(root, monkeypatch)
    assert {(d["filename"], d["location"]["row"], d["code"], d["audience"]) for d in diagnostics} == {
        # ReadNoteHandler.run_tool (line 13) is reached too (see --show-audience below); its message names
        # the missing argument, which is the step, so it has no finding
        ("notes/tools.py", 23, "AEM102", "agent"),  # DeleteNoteHandler.run_tool
        ("notes/vault.py", 11, "AEM201", "agent"),  # Vault.read, through ReadNoteHandler (a relative import)
        ("notes/server.py", 30, "AEM207", "agent"),  # the catch-all that passes `str(e)` on
        ("notes/base.py", 10, "AEM101", "exc"),  # the abstract declaration: dispatch never runs it
    }
    tools = [d for d in diagnostics if d["filename"] != "notes/base.py"]
    assert {tuple(d["entry_points"]) for d in tools} == {("notes.server.call_tool (MCP call_tool handler)",)}
    shown = CliRunner().invoke(main, ["check", "--show-audience", "notes/tools.py:13", "."])
    assert shown.exit_code == 0, shown.output
    assert "call chain: notes.server.call_tool -> notes.tools.ReadNoteHandler.run_tool" in shown.output
    assert ("notes.server.call_tool -> notes.tools.ReadNoteHandler.run_tool: dispatch: `run_tool` on an object whose "
            "class is known only up to notes.base.ToolHandler reaches every override in its subclasses") in shown.output


# ---------------------------------------------------------------------- other shapes of the same condition

SHAPES = {
    "a registry a decorator fills, classes instantiated at call time": {
        "handlers.py": (
            "import helpers\n\nREGISTRY = {}\n\n\ndef register(name):\n    def deco(cls):\n        REGISTRY[name] = cls\n"
            "        return cls\n    return deco\n\n\nclass Handler:\n    def handle(self, args):\n        raise NotImplementedError\n\n\n"
            "@register('go')\nclass GoHandler(Handler):\n    def handle(self, args):\n        return helpers.run(args)\n"),
        "server.py": LOWLEVEL + "from handlers import REGISTRY\n\n\n@server.call_tool()\nasync def call_tool(name, arguments):\n"
                                "    return REGISTRY[name]().handle(arguments)\n",
    },
    "a dict of classes with no common base, instantiated at call time": {
        "handlers.py": ("import helpers\n\n\nclass Go:\n    def handle(self, args):\n        return helpers.run(args)\n\n\n"
                        "class Stop:\n    def handle(self, args):\n        return None\n\n\nHANDLERS = {'go': Go, 'stop': Stop}\n"),
        "server.py": LOWLEVEL + "from handlers import HANDLERS\n\n\n@server.call_tool()\nasync def call_tool(name, arguments):\n"
                                "    return HANDLERS[name]().handle(arguments)\n",
    },
    "a list of handler instances in a loop": {
        "checks.py": ("import helpers\n\n\nclass Check:\n    def inspect(self, path):\n        return None\n\n\n"
                      "class SizeCheck(Check):\n    def inspect(self, path):\n        return helpers.run(path)\n\n\n"
                      "CHECKS = [Check(), SizeCheck()]\n"),
        "server.py": LOWLEVEL + "from checks import CHECKS\n\n\n@server.call_tool()\nasync def call_tool(name, arguments):\n"
                                "    for check in CHECKS:\n        check.inspect(arguments)\n    return []\n",
    },
    "an instance registry on self, filled by a method": {
        "actions.py": (
            "import helpers\n\n\nclass Action:\n    name = ''\n\n    def execute(self, args):\n        return None\n\n\n"
            "class Purge(Action):\n    name = 'purge'\n\n    def execute(self, args):\n        return helpers.run(args)\n\n\n"
            "class Dispatcher:\n    def __init__(self):\n        self.registry = {}\n\n    def add(self, action):\n"
            "        self.registry[action.name] = action\n\n    def dispatch(self, name, args):\n"
            "        return self.registry[name].execute(args)\n"),
        "server.py": LOWLEVEL + "from actions import Dispatcher, Purge\n\nDISPATCHER = Dispatcher()\nDISPATCHER.add(Purge())\n\n\n"
                                "@server.call_tool()\nasync def call_tool(name, arguments):\n    return DISPATCHER.dispatch(name, arguments)\n",
    },
    "a parameter annotated with the base class": {
        "actions.py": ("import helpers\n\n\nclass Action:\n    def execute(self, args):\n        return None\n\n\n"
                       "class Purge(Action):\n    def execute(self, args):\n        return helpers.run(args)\n"),
        "runner.py": "from typing import Optional\n\nfrom actions import Action\n\n\ndef apply(action: Optional[Action], args):\n    return action.execute(args)\n",
        "server.py": LOWLEVEL + "import runner\n\n\n@server.call_tool()\nasync def call_tool(name, arguments):\n"
                                "    return runner.apply(None, arguments)\n",
    },
    "a template method calls what subclasses override": {
        "commands.py": ("import helpers\n\n\nclass Command:\n    def invoke(self, args):\n        return self.body(args)\n\n"
                        "    def body(self, args):\n        return None\n\n\nclass Purge(Command):\n    def body(self, args):\n"
                        "        return helpers.run(args)\n"),
        "server.py": LOWLEVEL + "from commands import Command\n\n\n@server.call_tool()\nasync def call_tool(name, arguments):\n"
                                "    return Command().invoke(arguments)\n",
    },
    "an instance attribute holding a project class": {
        "pkg/__init__.py": "",
        "pkg/backend.py": "from helpers import run\n\n\nclass FileBackend:\n    def load(self, key):\n        return run(key)\n",
        "pkg/store.py": ("from .backend import FileBackend\n\n\nclass Store:\n    def __init__(self):\n        self.backend = None\n\n"
                         "    def open(self):\n        self.backend = FileBackend()\n\n    def get(self, key):\n"
                         "        return self.backend.load(key)\n"),
        "pkg/server.py": LOWLEVEL + "from .store import Store\n\n\n@server.call_tool()\nasync def call_tool(name, arguments):\n"
                                    "    return Store().get(name)\n",
    },
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_dispatch_shapes_reach_the_overrides(shape, tmp_path, monkeypatch):
    assert helper_audiences(tmp_path, monkeypatch, SHAPES[shape]) == {"agent"}


# ---------------------------------------------------------------------- what must not be linked

NOT_LINKED = {
    "unrelated classes that share a method name": {
        "jobs.py": ("import helpers\n\n\nclass Export:\n    def run_job(self, args):\n        return helpers.run(args)\n\n\n"
                    "class Import:\n    def run_job(self, args):\n        return None\n"),
        "server.py": LOWLEVEL + "@server.call_tool()\nasync def call_tool(name, job):\n    return job.run_job(name)\n",
    },
    "a class outside the hierarchy defines the method too": {
        "jobs.py": ("import helpers\n\n\nclass Job:\n    def run_job(self, args):\n        return None\n\n\n"
                    "class Export(Job):\n    def run_job(self, args):\n        return helpers.run(args)\n\n\n"
                    "class Runner:\n    def run_job(self, args):\n        return None\n"),
        "server.py": LOWLEVEL + "@server.call_tool()\nasync def call_tool(name, job):\n    return job.run_job(name)\n",
    },
    "a name builtin containers define": {
        "stores.py": ("import helpers\n\n\nclass Store:\n    def get(self, key):\n        return None\n\n\n"
                      "class CachedStore(Store):\n    def get(self, key):\n        return helpers.run(key)\n"),
        "server.py": LOWLEVEL + "@server.call_tool()\nasync def call_tool(name, arguments):\n    return arguments.get(name)\n",
    },
    "an instance of a known class does not reach its subclasses": {
        "jobs.py": ("import helpers\n\n\nclass Job:\n    def run_job(self, args):\n        return None\n\n\n"
                    "class Export(Job):\n    def run_job(self, args):\n        return helpers.run(args)\n"),
        "server.py": LOWLEVEL + "from jobs import Job\n\n\n@server.call_tool()\nasync def call_tool(name, arguments):\n"
                                "    return Job().run_job(arguments)\n",
    },
    "an attribute holding another package's object": {
        "jobs.py": ("import helpers\n\n\nclass Job:\n    def run_job(self, args):\n        return None\n\n\n"
                    "class Export(Job):\n    def run_job(self, args):\n        return helpers.run(args)\n"),
        "server.py": LOWLEVEL + ("import httpcore\n\n\nclass Client:\n    def __init__(self):\n        self.pool = httpcore.ConnectionPool()\n\n"
                                 "    def send(self, args):\n        return self.pool.run_job(args)\n\n\n"
                                 "@server.call_tool()\nasync def call_tool(name, arguments):\n    return Client().send(arguments)\n"),
    },
    "a parameter annotated with a class the project does not define": {
        "jobs.py": ("import helpers\n\n\nclass Job:\n    def run_job(self, args):\n        return None\n\n\n"
                    "class Export(Job):\n    def run_job(self, args):\n        return helpers.run(args)\n"),
        "server.py": LOWLEVEL + ("from concurrent.futures import Executor\n\n\n@server.call_tool()\n"
                                 "async def call_tool(name, arguments, pool: Executor = None):\n    return pool.run_job(arguments)\n"),
    },
    "a module's function of the same name": {
        "jobs.py": ("import helpers\n\n\nclass Job:\n    def run_job(self, args):\n        return None\n\n\n"
                    "class Export(Job):\n    def run_job(self, args):\n        return helpers.run(args)\n"),
        "tasks.py": "def run_job(args):\n    return args\n",
        "server.py": LOWLEVEL + "import tasks\n\n\n@server.call_tool()\nasync def call_tool(name, arguments):\n    return tasks.run_job(arguments)\n",
    },
}


@pytest.mark.parametrize("shape", sorted(NOT_LINKED))
def test_calls_the_hierarchy_does_not_decide_are_not_linked(shape, tmp_path, monkeypatch):
    assert helper_audiences(tmp_path, monkeypatch, NOT_LINKED[shape]) == {"exc"}


def test_the_same_call_is_linked_once_the_outsider_is_gone(tmp_path, monkeypatch):
    files = dict(NOT_LINKED["a class outside the hierarchy defines the method too"])
    files["jobs.py"] = files["jobs.py"].replace("class Runner:\n    def run_job", "class Runner:\n    def start")
    assert helper_audiences(tmp_path, monkeypatch, files) == {"agent"}


# ---------------------------------------------------------------------- replies and the cache

def test_error_text_a_dispatched_handler_returns_is_a_tool_reply(tmp_path, monkeypatch):
    files = {
        "handlers.py": ("ITEMS = {}\n\n\nclass Handler:\n    def run_tool(self, args):\n        raise NotImplementedError\n\n\n"
                        "class Find(Handler):\n    def run_tool(self, args):\n        if args['id'] not in ITEMS:\n"
                        "            return f\"Error: item not found\"\n        return ITEMS[args['id']]\n"),
        "server.py": LOWLEVEL + ("HANDLERS = {}\n\n\n@server.call_tool()\nasync def call_tool(name, arguments):\n"
                                 "    handler = HANDLERS[name]\n    return handler.run_tool(arguments)\n"),
    }
    diagnostics = run_json(make_project(tmp_path, files), monkeypatch, "--select", "AEM601")
    assert [(d["filename"], d["location"]["row"], d["audience"]) for d in diagnostics] == [("handlers.py", 12, "agent")]
    assert "tool `call_tool`" in diagnostics[0]["message"]


def test_a_warm_run_rejudges_the_overrides_when_the_base_stops_declaring_the_method(tmp_path):
    root = make_project(tmp_path, {
        "base.py": "class Handler:\n    def run_tool(self, args):\n        raise NotImplementedError\n",
        "handlers.py": ("from base import Handler\n\n\nclass Go(Handler):\n    def run_tool(self, args):\n"
                        "        raise RuntimeError('Something went wrong')\n"),
        "server.py": LOWLEVEL + "@server.call_tool()\nasync def call_tool(name, handler):\n    return handler.run_tool(name)\n",
    }, PYPROJECT)
    settings = Settings(project_root=str(root))
    cache_dir = str(tmp_path / "cache")

    def run():
        result = check_paths([str(root)], settings, Selection(select=("AEM101",)), cache_dir=cache_dir, jobs=1)
        names = lambda paths: sorted(Path(p).name for p in paths)  # noqa: E731
        return names(result.parsed), names(result.rejudged), sorted((Path(d.filename).name, d.audience) for d in result.diagnostics)

    parsed, _, diagnostics = run()
    assert parsed == ["base.py", "handlers.py", "server.py"] and diagnostics == [("handlers.py", "agent")]
    assert run()[:2] == ([], [])  # warm: nothing parsed, nothing re-judged
    (root / "base.py").write_text("class Handler:\n    def describe(self):\n        return 'handler'\n")
    # only the edited file is parsed; the overrides it no longer declares are judged again
    assert run() == (["base.py"], ["handlers.py"], [("handlers.py", "exc")])
    assert run()[:2] == ([], [])


# ---------------------------------------------------------------------- how the per-file pass records calls

RECORDED = """
import httpx
from typing import Optional
from handlers import HANDLERS, Base


def lookup(name):
    return HANDLERS.get(name)


def go(name, args, typed: Optional[Base], plain):
    HANDLERS[name].run(args)
    HANDLERS[name]().run(args)
    HANDLERS.get(name).run(args)
    found = lookup(name)
    found.run(args)
    typed.run(args)
    plain.run(args)
    plain.config.reload()
    for item in HANDLERS.values():
        item.run(args)
    httpx.get(name).raise_for_status()
    "-".join(args)
"""


def test_each_receiver_shape_is_recorded_for_the_project_model():
    import libcst

    from errlint.extract.walker import extract
    from errlint.project_summary import summarize

    calls = summarize(extract(libcst.parse_module(RECORDED)))["fns"]["go"]["calls"]
    assert sorted(calls) == sorted([
        "[]handlers.HANDLERS:run",  # an element of a container: `T[k].m()`, `T.get(k).m()`, a loop over `T.values()`
        "[]handlers.HANDLERS():run",  # an element called first: `T[k]().m()`
        "lookup().run",  # what a function returns: the project model decides
        "<handlers.Base>.run",  # a parameter annotated with a class
        "<>.run", "<>.reload",  # receivers of unknown class: a plain parameter, an attribute of one
        "[]HANDLERS",  # the call `HANDLERS[name]()` itself: a call through a dispatch table
        "lookup", "handlers.HANDLERS.get", "handlers.HANDLERS.values", "httpx.get",  # named calls keep their names,
        "httpx.get().raise_for_status",  # and so does a method of what another package's function returns
    ])
