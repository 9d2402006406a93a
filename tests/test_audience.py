"""Audience across the project (issue 13): entry points, reachability, helper replies, log pairs, the
AEM201 profiles decision, --show-audience, the JSON fields and the cache of cross-file facts.

The acceptance fixture projects live in tests/projects/ and are checked through the CLI."""
from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from errlint.cli import main
from errlint.config import Settings
from errlint.runner import Selection, check_paths

PROJECTS = Path(__file__).parent / "projects"
PYPROJECT = '[project]\nname = "demo"\nversion = "0.1.0"\n\n[tool.errlint]\n'


def copy_project(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(PROJECTS / name, target)
    return target


def make_project(tmp_path: Path, files: dict, pyproject: str = PYPROJECT) -> Path:
    root = tmp_path / "proj"
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(pyproject)
    for rel, code in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code))
    return root


def run_json(root: Path, monkeypatch, *extra: str) -> list:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "json", *extra, "."])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


def found(diagnostics: list) -> set:
    return {(d["filename"], d["location"]["row"], d["code"]) for d in diagnostics}


# ---------------------------------------------------------------------- acceptance fixtures

def test_helper_text_returned_by_a_tool_is_judged_at_the_helper(tmp_path, monkeypatch):
    diagnostics = run_json(copy_project("helper_reply", tmp_path), monkeypatch)
    assert found(diagnostics) == {("fmt.py", 9, "AEM601"), ("fmt.py", 9, "AEM102")}
    for d in diagnostics:
        assert "tool `merge_cells`" in d["message"]
        assert d["audience"] == "agent"
        assert d["entry_points"] == ["server.merge_cells (MCP tool `merge_cells`)"]


def test_error_dict_from_a_helper_dumped_by_the_tool_is_aem601(tmp_path, monkeypatch):
    diagnostics = run_json(copy_project("error_dict", tmp_path), monkeypatch)
    assert found(diagnostics) == {("db.py", 7, "AEM601"), ("db.py", 7, "AEM201")}
    assert all("tool `describe_table`" in d["message"] for d in diagnostics)


def test_raise_in_another_module_reached_by_a_click_command_is_cli(tmp_path, monkeypatch):
    diagnostics = run_json(copy_project("cli_store", tmp_path), monkeypatch)
    assert found(diagnostics) == {("store.py", 6, "AEM101"), ("store.py", 6, "AEM202"), ("store.py", 6, "AEM204")}  # "bad file" is generic too
    assert {d["audience"] for d in diagnostics} == {"cli"}
    assert {tuple(d["entry_points"]) for d in diagnostics} == {("cli.main (CLI command)",)}


def test_the_same_raise_in_a_library_is_exc_without_aem201(tmp_path, monkeypatch):
    diagnostics = run_json(copy_project("library_store", tmp_path), monkeypatch)
    assert found(diagnostics) == {("storekit/store.py", 6, "AEM101"), ("storekit/store.py", 6, "AEM202"), ("storekit/store.py", 6, "AEM204")}
    assert {d["audience"] for d in diagnostics} == {"exc"}


def test_log_notification_before_an_error_return_is_judged_with_it(tmp_path, monkeypatch):
    diagnostics = run_json(copy_project("log_pair", tmp_path), monkeypatch)
    # findings only on the return the agent reads, none on the log notification. The returned error
    # reply is read as `raise ToolError("Error: request timed out")` would be: generic (AEM101), a
    # timeout with no retry guidance (AEM206), and returned as a success (AEM601)
    assert found(diagnostics) == {("server.py", 15, "AEM601"), ("server.py", 15, "AEM101"), ("server.py", 15, "AEM206")}


def test_validator_only_tests_import_is_exc(tmp_path, monkeypatch):
    root = copy_project("test_only_validator", tmp_path)
    diagnostics = run_json(root, monkeypatch)
    # no AEM201 on exc; the deny rule (`label.startswith("~")`) is a fix the caller can make, so AEM204
    # still asks the message to state it, as it does for any exc message the caller can fix
    assert found(diagnostics) == {("app/validators.py", 3, "AEM101"), ("app/validators.py", 3, "AEM204")}  # "bad label" is generic
    assert {d["audience"] for d in diagnostics} == {"exc"}
    result = CliRunner().invoke(main, ["check", "--show-audience", "app/validators.py:3", "."])
    assert result.exit_code == 0, result.output
    assert "audience exc: no entry point reaches this code" in result.output
    # the same validator called by a tool is the agent's, and then it owes a next step
    (root / "app" / "server.py").write_text(
        "from fastmcp import FastMCP\n\nfrom app.validators import check_label\n\nmcp = FastMCP('ports')\n\n\n"
        "@mcp.tool()\ndef tag(label: str) -> str:\n    return check_label(label)\n")
    diagnostics = run_json(root, monkeypatch)
    assert found(diagnostics) == {("app/validators.py", 3, "AEM101"), ("app/validators.py", 3, "AEM204")}  # its stated rule is the next step
    assert diagnostics[0]["audience"] == "agent"


def test_lowlevel_dispatch_table_handlers_are_agent(tmp_path, monkeypatch):
    diagnostics = run_json(copy_project("lowlevel_dispatch", tmp_path), monkeypatch)
    assert found(diagnostics) == {("ops.py", 7, "AEM201"), ("ops.py", 14, "AEM201")}
    assert {d["audience"] for d in diagnostics} == {"agent"}


# ---------------------------------------------------------------------- entry points and calls

VAGUE_HELPER = """
def run(value):
    raise RuntimeError("Something went wrong")
"""


# an HTTP handler's client reads a raise only of an HTTP error class (a plain one is a bare 500,
# tests/test_http_masking.py): the HTTP shapes raise one
HTTP_HELPER = VAGUE_HELPER.replace("RuntimeError", "BadRequest")


def audience_of_helper(tmp_path, monkeypatch, files: dict, pyproject: str = PYPROJECT, helper: str = VAGUE_HELPER) -> set:
    files = {name: helper if code == VAGUE_HELPER else code for name, code in files.items()}
    if not any(name.endswith("helpers.py") for name in files):
        files["helpers.py"] = helper
    root = make_project(tmp_path, files, pyproject)
    diagnostics = run_json(root, monkeypatch, "--select", "AEM101")
    return {d["audience"] for d in diagnostics if d["filename"].endswith("helpers.py")}


ENTRY_SHAPES = {
    "fastmcp decorator without call": ("agent", {"server.py": """
        from fastmcp import FastMCP
        import helpers
        mcp = FastMCP("x")
        @mcp.tool
        def go(v: str) -> str:
            return helpers.run(v)
        """}),
    "decorator called on a method": ("agent", {"server.py": """
        from fastmcp import FastMCP
        import helpers
        class Tools:
            def __init__(self, mcp):
                mcp.tool(name="go")(self.go)
            def go(self, v: str) -> str:
                return helpers.run(v)
        Tools(FastMCP("x"))
        """}),
    "add_tool of an imported function": ("agent", {"server.py": """
        from mcp.server.fastmcp import FastMCP
        from tools import go
        mcp = FastMCP("x")
        mcp.add_tool(go, name="go")
        """, "tools.py": """
        from helpers import run as do_run
        def go(v: str) -> str:
            return do_run(v)
        """}),
    "relative import in a package": ("agent", {"pkg/__init__.py": "", "pkg/server.py": """
        from fastmcp import FastMCP
        from . import helpers
        mcp = FastMCP("x")
        @mcp.tool()
        def go(v: str) -> str:
            return helpers.run(v)
        """, "pkg/helpers.py": VAGUE_HELPER}),
    "star import": ("cli", {"cli.py": """
        import click
        from helpers import *
        @click.command()
        def go():
            run(1)
        """}),
    "self method through a class": ("cli", {"cli.py": """
        import argparse
        import helpers
        class App:
            def start(self):
                self.step()
            def step(self):
                helpers.run(1)
        def main():
            parser = argparse.ArgumentParser()
            parser.parse_args()
            App().start()
        """}),
    "functools.partial": ("cli", {"cli.py": """
        import functools
        import helpers
        def main():
            job = functools.partial(helpers.run, 1)
            job()
        if __name__ == "__main__":
            main()
        """}),
    "wrapping decorator": ("agent", {"server.py": """
        from fastmcp import FastMCP
        from wrap import guarded
        mcp = FastMCP("x")
        @mcp.tool()
        @guarded
        def go(v: str) -> str:
            return v
        """, "wrap.py": """
        import functools
        import helpers
        def guarded(fn):
            @functools.wraps(fn)
            def inner(*a, **k):
                helpers.run(a)
                return fn(*a, **k)
            return inner
        """}),
    "__main__ module": ("cli", {"pkg/__init__.py": "", "pkg/__main__.py": """
        from pkg.helpers import run
        run(1)
        """, "pkg/helpers.py": VAGUE_HELPER}),
    "fastapi route": ("http", {"api.py": """
        from fastapi import FastAPI
        import helpers
        app = FastAPI()
        @app.get("/items")
        def items():
            return helpers.run(1)
        """}),
    "flask errorhandler": ("http", {"web.py": """
        from flask import Flask
        import helpers
        app = Flask(__name__)
        @app.errorhandler(404)
        def missing(e):
            return helpers.run(e)
        """}),
    "django function view": ("http", {"shop/__init__.py": "", "shop/views.py": """
        from django.http import JsonResponse
        from shop import helpers
        def detail(request, pk):
            return JsonResponse(helpers.run(pk))
        """, "shop/helpers.py": VAGUE_HELPER}),
    "drf serializer method": ("http", {"api.py": """
        from rest_framework import serializers
        import helpers
        class ItemSerializer(serializers.Serializer):
            def validate_name(self, value):
                return helpers.run(value)
        """}),
    "aiohttp add_get": ("http", {"app.py": """
        from aiohttp import web
        import helpers
        async def handle(request):
            return web.json_response(helpers.run(request))
        app = web.Application()
        app.router.add_get("/", handle)
        """}),
}


@pytest.mark.parametrize("shape", sorted(ENTRY_SHAPES))
def test_entry_point_shapes_give_their_audience(shape, tmp_path, monkeypatch):
    audience, files = ENTRY_SHAPES[shape]
    assert audience_of_helper(tmp_path, monkeypatch, files, helper=HTTP_HELPER if audience == "http" else VAGUE_HELPER) == {audience}


def test_project_scripts_target_is_a_cli_entry_point(tmp_path, monkeypatch):
    files = {"tool.py": "import helpers\n\ndef main():\n    helpers.run(1)\n"}
    pyproject = '[project]\nname = "demo"\nversion = "0.1.0"\n\n[project.scripts]\ndemo = "tool:main"\n\n[tool.errlint]\n'
    assert audience_of_helper(tmp_path, monkeypatch, files, pyproject) == {"cli"}
    assert audience_of_helper(tmp_path / "again", monkeypatch, files) == {"exc"}


def test_a_call_inside_a_catch_all_try_that_replaces_the_raise_leaves_it_unread(tmp_path, monkeypatch):
    files = {"server.py": """
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        import helpers
        mcp = FastMCP("x")
        @mcp.tool()
        def go(v: str) -> str:
            try:
                return helpers.run(v)
            except Exception:
                raise ToolError("go failed; call status to see whether the backend is up")
        """}
    assert audience_of_helper(tmp_path, monkeypatch, files) == set()  # the tool's own text is what the agent reads
    assert audience_of_helper(tmp_path / "alone", monkeypatch, {}) == {"exc"}  # the helper is still judged alone


REPLY_FLOWS = {
    "through a local": "    result = helpers.lookup(v)\n    return result\n",
    "through str()": "    return str(helpers.lookup(v))\n",
    "through an f-string": "    return f\"{helpers.lookup(v)}\"\n",
    "through a TextContent list": "    return [TextContent(type=\"text\", text=helpers.lookup(v))]\n",
    "through another helper": "    return helpers.outer(v)\n",
}


@pytest.mark.parametrize("flow", sorted(REPLY_FLOWS))
def test_helper_reply_flows(flow, tmp_path, monkeypatch):
    server = ("from fastmcp import FastMCP\nfrom mcp.types import TextContent\nimport helpers\n\nmcp = FastMCP('x')\n\n\n"
              "@mcp.tool()\ndef find(v: str) -> str:\n" + REPLY_FLOWS[flow])
    helpers = ("ITEMS = {}\n\n\ndef lookup(v):\n    if v not in ITEMS:\n        return f\"Error: item not found\"\n    return ITEMS[v]\n\n\n"
               "def outer(v):\n    return lookup(v)\n")
    root = make_project(tmp_path, {"server.py": server, "helpers.py": helpers})
    diagnostics = run_json(root, monkeypatch, "--select", "AEM601")
    assert [(d["filename"], d["location"]["row"]) for d in diagnostics] == [("helpers.py", 6)]
    assert "tool `find`" in diagnostics[0]["message"]


def test_helper_text_no_tool_returns_is_not_a_reply(tmp_path, monkeypatch):
    helpers = "def lookup(v):\n    if not v:\n        return 'Error: item not found'\n    return v\n"
    server = "from fastmcp import FastMCP\nimport helpers\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\ndef find(v: str) -> str:\n    helpers.lookup(v)\n    return 'done'\n"
    root = make_project(tmp_path, {"server.py": server, "helpers.py": helpers})
    assert run_json(root, monkeypatch, "--select", "AEM601") == []


# ---------------------------------------------------------------------- sinks that are not replies

def test_log_pairs(tmp_path, monkeypatch):
    code = """
        import logging
        import click
        log = logging.getLogger(__name__)

        @click.command()
        def main(path, resp):
            if not path:
                log.error("Something went wrong")
                raise click.ClickException("Something went wrong")
            if path == "-":
                log.error("Something went wrong. Sent headers: %s", resp.request.headers)
                raise SystemExit("Something went wrong")
            if path == ".":
                log.error("Something went wrong")
                return []
        """
    root = make_project(tmp_path, {"cli.py": code})
    rows = {(d["location"]["row"], d["code"][:4]) for d in run_json(root, monkeypatch, "--select", "AEM101,AEM3")}
    assert (10, "AEM1") in rows and (9, "AEM1") not in rows  # the pair: one finding, at the raise
    assert (12, "AEM3") in rows and (12, "AEM1") not in rows  # a leak in the log line is still its own
    assert (15, "AEM1") in rows  # nothing the reader sees follows: the log line is judged


def test_mcp_log_notifications_are_log(tmp_path, monkeypatch):
    code = """
        from fastmcp import Context, FastMCP
        mcp = FastMCP("x")
        @mcp.tool()
        async def go(v: str, ctx: Context) -> str:
            await ctx.error("Something went wrong")
            return v
        """
    root = make_project(tmp_path, {"server.py": code})
    diagnostics = run_json(root, monkeypatch, "--select", "AEM101")
    assert [(d["location"]["row"], d["audience"]) for d in diagnostics] == [(6, "log")]


# ---------------------------------------------------------------------- AEM201 profiles

# "the path is empty": not generic (a "bad file" would be AEM101, which covers AEM201), and no next step
LIBRARY = {"lib/__init__.py": "", "lib/paths.py": 'def load(path):\n    if not path:\n        raise ValueError("the path is empty")\n    return path\n'}


def test_aem201_is_quiet_on_a_library_unless_exc_is_opted_in(tmp_path, monkeypatch):
    root = make_project(tmp_path, LIBRARY)
    assert run_json(root, monkeypatch) == []
    opted = PYPROJECT + '[tool.errlint.profiles]\nAEM201 = ["agent", "cli", "http", "exc", "log"]\n'
    root = make_project(tmp_path / "opted", LIBRARY, opted)
    assert found(run_json(root, monkeypatch)) == {("lib/paths.py", 3, "AEM201")}


# ---------------------------------------------------------------------- --show-audience

def test_show_audience_prints_entry_points_and_the_chain(tmp_path, monkeypatch):
    monkeypatch.chdir(copy_project("cli_store", tmp_path))
    result = CliRunner().invoke(main, ["check", "--show-audience", "store.py:6", "."])
    assert result.exit_code == 0, result.output
    assert "  cli   cli.main (CLI command)" in result.output
    assert "call chain: cli.main -> store.load" in result.output


@pytest.mark.parametrize("target", ["store.py", "store.py:x", "nowhere.py:3"])
def test_show_audience_bad_target_exits_2(target, tmp_path, monkeypatch):
    monkeypatch.chdir(copy_project("cli_store", tmp_path))
    result = CliRunner().invoke(main, ["check", "--show-audience", target, "."])
    assert result.exit_code == 2
    assert "--show-audience" in result.output


# ---------------------------------------------------------------------- cache

def test_warm_run_rechecks_exactly_the_files_whose_findings_can_change(tmp_path):
    root = make_project(tmp_path, {
        "cli.py": "import click\n\nimport store\n\n\n@click.command()\ndef main(path):\n    store.load(path)\n",
        "store.py": "def load(path):\n    return open(path).read()\n",
        "checks.py": 'def check(path):\n    if not path:\n        raise ValueError("the path is empty")\n    return path\n',
        "other.py": 'def other(name):\n    if not name:\n        raise ValueError("the name is empty")\n    return name\n',
    })
    settings = Settings(project_root=str(root))
    cache_dir = str(tmp_path / "cache")

    def run():
        result = check_paths([str(root)], settings, Selection(), cache_dir=cache_dir, jobs=1)
        names = lambda paths: sorted(Path(p).name for p in paths)  # noqa: E731
        return names(result.parsed), names(result.rejudged), sorted((Path(d.filename).name, d.code) for d in result.diagnostics)

    parsed, rejudged, diagnostics = run()
    assert parsed == ["checks.py", "cli.py", "other.py", "store.py"] and diagnostics == []
    assert run()[:2] == ([], [])  # warm: nothing parsed, nothing re-judged
    (root / "store.py").write_text("import checks\n\n\ndef load(path):\n    checks.check(path)\n    return open(path).read()\n")
    parsed, rejudged, diagnostics = run()
    assert parsed == ["store.py"]  # only the edited file is parsed again
    assert rejudged == ["checks.py"]  # and only the file whose audience changed is judged again
    assert diagnostics == [("checks.py", "AEM201")]
    assert run()[:2] == ([], [])


def test_a_run_where_nothing_changed_reuses_the_judged_results_without_the_per_file_entries(tmp_path, monkeypatch):
    root = copy_project("cli_store", tmp_path)
    (root / "extra.py").write_text("import click\n\n\n@click.command()\ndef go(name):\n    if not name:\n        raise click.ClickException('Something went wrong')\n")
    cache_dir = tmp_path / "cache"
    settings = Settings(project_root=str(root))

    def run(keep_text=False):
        result = check_paths([str(root)], settings, Selection(), cache_dir=str(cache_dir), jobs=1, keep_text=keep_text)
        return result, sorted((Path(d.filename).name, d.location.row, d.code, d.audience) for d in result.diagnostics)

    cold, cold_found = run()
    assert ("store.py", 6, "AEM202", "cli") in cold_found and ("extra.py", 7, "AEM101", "cli") in cold_found
    per_file = [p for p in cache_dir.rglob("*.json") if not p.name.endswith(".final.json")]
    assert len(per_file) == 1 and len(list(cache_dir.rglob("*.final.json"))) == 1
    per_file[0].write_text("{not json")  # the unchanged run must not need the per-file entries
    warm, warm_found = run()
    assert warm_found == cold_found and warm.parsed == [] and warm.rejudged == []
    # a run that keeps the text (to apply fixes) checks the files: the judged results carry no text
    fixing, fixing_found = run(keep_text=True)
    assert fixing_found == cold_found and sorted(Path(p).name for p in fixing.parsed) == ["cli.py", "extra.py", "parsing.py", "store.py"]
    # one byte changed anywhere: the stored results are not used, and the change is seen
    (root / "extra.py").write_text("def f(name):\n    return name\n")
    edited, edited_found = run()
    assert [Path(p).name for p in edited.parsed] == ["extra.py"]
    assert edited_found == [f for f in cold_found if f[0] != "extra.py"] != cold_found


def test_a_sink_no_entry_point_reaches_is_exc_when_its_module_is_linked(tmp_path, monkeypatch):
    helpers = ("from fastmcp.exceptions import ToolError\n\n\ndef used(v):\n    raise ToolError('Something went wrong')\n\n\n"
               "def unused(v):\n    raise ToolError('Something went wrong')\n")
    server = "from fastmcp import FastMCP\nimport helpers\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\ndef go(v: str) -> str:\n    return helpers.used(v)\n"
    root = make_project(tmp_path, {"server.py": server, "helpers.py": helpers, "plugin.py": helpers})
    diagnostics = run_json(root, monkeypatch, "--select", "AEM101")
    got = {(d["filename"], d["location"]["row"], d["audience"]) for d in diagnostics}
    assert got == {
        ("helpers.py", 5, "agent"),  # a tool reaches it
        ("helpers.py", 9, "exc"),  # dead code in a module the server imports
        ("plugin.py", 5, "agent"), ("plugin.py", 9, "agent"),  # nothing imports plugin.py: the sink decides
    }


def test_after_fix_the_remaining_findings_keep_the_project_audience(tmp_path, monkeypatch):
    root = copy_project("cli_store", tmp_path)
    store = root / "store.py"
    store.write_text(store.read_text().replace("    with open", "    if path == '-':\n        fail()\n    with open")
                     + "\n\ndef fail():\n    import sys\n    print('Error: config not found')\n    sys.exit(1)\n")
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--fix", "--output-format", "json", "."])
    assert "file=sys.stderr" in store.read_text()  # the AEM606 fix was applied
    remaining = json.loads(result.output)
    assert {(d["code"], d["audience"]) for d in remaining if d["code"] in ("AEM202", "AEM204")} == {("AEM202", "cli"), ("AEM204", "cli")}


@pytest.mark.parametrize("handler", [
    "    except Exception as e:\n        return [TextContent(type='text', text=f'Error: {e}')]\n",
    "    except Exception:\n        log.warning('lookup failed')\n        raise\n",
])
def test_a_catch_all_that_passes_the_exception_on_keeps_the_audience(handler, tmp_path, monkeypatch):
    server = ("import logging\nfrom mcp.server.lowlevel import Server\nfrom mcp.types import TextContent\nimport helpers\n\n"
              "log = logging.getLogger(__name__)\nserver = Server('x')\n\n\n@server.call_tool()\nasync def call_tool(name, arguments):\n"
              "    try:\n        return helpers.run(arguments)\n" + handler)
    assert audience_of_helper(tmp_path, monkeypatch, {"server.py": server}) == {"agent"}


def test_a_raise_the_code_handles_itself_is_exc_whoever_reaches_it(tmp_path, monkeypatch):
    helpers = ('class LoadError(Exception):\n    pass\n\n\ndef run(value):\n    raise LoadError("Something went wrong")\n\n\n'
               'def local(value):\n    try:\n        raise RuntimeError("Something went wrong")\n    except RuntimeError:\n        return None\n')
    cli = ("import sys\nimport click\nimport helpers\n\n\n@click.command()\ndef go(v):\n    helpers.local(v)\n    try:\n        helpers.run(v)\n"
           "    except helpers.LoadError:\n        sys.exit('go: the load failed; run `go --check` for details')\n")
    root = make_project(tmp_path, {"cli.py": cli, "helpers.py": helpers})
    monkeypatch.chdir(root)
    # both raises are control flow (caught by name, caught around the raise): exc, and no finding at all
    assert run_json(root, monkeypatch, "--select", "AEM101") == []
    for line in (6, 11):
        shown = CliRunner().invoke(main, ["check", "--show-audience", f"helpers.py:{line}", "."])
        assert f"helpers.py:{line}: raise in" in shown.output
        assert "audience exc: the code handles this exception itself" in shown.output
    unhandled = helpers.replace("    except RuntimeError:\n        return None\n", "    finally:\n        pass\n")
    cli_unhandled = cli.replace("except helpers.LoadError", "except OSError")
    assert audience_of_helper(tmp_path / "2", monkeypatch, {"cli.py": cli_unhandled, "helpers.py": unhandled}) == {"cli"}


def test_a_first_entry_point_of_a_new_kind_is_seen_by_a_warm_run(tmp_path):
    root = make_project(tmp_path, {"lib.py": 'def check(path):\n    if not path:\n        raise ValueError("the path is empty")\n    return path\n'})
    settings = Settings(project_root=str(root))
    cache_dir = str(tmp_path / "cache")
    first = check_paths([str(root)], settings, Selection(), cache_dir=cache_dir, jobs=1)
    assert first.diagnostics == []
    (root / "cli.py").write_text("import click\n\nimport lib\n\n\n@click.command()\ndef main(path):\n    lib.check(path)\n")
    second = check_paths([str(root)], settings, Selection(), cache_dir=cache_dir, jobs=1)
    assert [(Path(d.filename).name, d.code, d.audience) for d in second.diagnostics] == [("lib.py", "AEM201", "cli")]


@pytest.mark.parametrize("test_file", ["pkg/test_server.py", "pkg/server_test.py", "pkg/conftest.py", "tests/test_app.py"])
def test_handlers_and_main_blocks_in_test_code_are_not_entry_points(test_file, tmp_path, monkeypatch):
    files = {
        "pkg/__init__.py": "",
        "pkg/core.py": "def load(value):\n    raise RuntimeError('Something went wrong')\n",
        test_file: ("from starlette.applications import Starlette\nfrom starlette.routing import Route\nfrom pkg import core\n\n\n"
                    "async def handler(request):\n    return core.load(request)\n\n\n"
                    "app = Starlette(routes=[Route('/x', handler)])\n\n"
                    "if __name__ == '__main__':\n    core.load(1)\n"),
    }
    if test_file.startswith("tests/"):
        files["tests/__init__.py"] = ""
    root = make_project(tmp_path, files)
    monkeypatch.chdir(root)
    shown = CliRunner().invoke(main, ["check", "--show-audience", "pkg/core.py:2", "."])
    assert "entry points in the project: 0" in shown.output, shown.output
    # the same handler in application code is one
    root2 = make_project(tmp_path / "app", {**files, "pkg/web.py": files[test_file]})
    monkeypatch.chdir(root2)
    shown = CliRunner().invoke(main, ["check", "--show-audience", "pkg/core.py:2", "."])
    assert "entry points in the project: 0" not in shown.output, shown.output


def test_project_pass_time_is_reported_for_the_bench(tmp_path, monkeypatch):
    # bench/run.py reads the project pass's wall time from ERRLINT_TIMINGS to report its share of a run
    root = make_project(tmp_path, {"helpers.py": VAGUE_HELPER})
    out = tmp_path / "timings"
    monkeypatch.setenv("ERRLINT_TIMINGS", str(out))
    run_json(root, monkeypatch)
    run_json(root, monkeypatch)
    lines = out.read_text().splitlines()
    assert len(lines) == 2 and all(line.startswith("project-pass ") and float(line.split()[1]) >= 0 for line in lines)
