"""AEM201 on a plain raise that an entry point reaches asks for a step only when its reader could act:
a raise that checks the program's own state (under an `if` that reads no caller input and nothing of
the world the reader can change, outside any except handler, showing no value) reports a bug or data
the program made, and no step helps. A check of the input, of a file, the environment or an
installed program, a failed operation, or a message that shows a value still gets AEM201.

Also the data flow under it: a collection built with `append`/`add`/`update` from an input varies
with the input (for "can the caller fix it"), but it is not the value the caller sent (AEM202 does
not ask to show a list the code built)."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import PREVIEW, lint, preview_rows


def aem201(code: str):
    return preview_rows(code, ["AEM201"])


# -- checks of the program's own state: no AEM201, whoever reaches them ------------------------------

OWN_STATE = {
    "depth_the_helper_counted_itself": """
        from fastmcp import FastMCP
        mcp = FastMCP("x")
        OPENERS = "([{"

        def balance(tokens):
            depth = 0
            for t in tokens:
                depth += 1 if t in OPENERS else -1
            if depth < 0:
                raise RuntimeError("Bracket accounting went negative.")
            return depth

        @mcp.tool()
        def lint() -> str:
            return str(balance(["(", ")"]))
        """,
    "table_lookup_by_a_constant_in_a_cli_helper": """
        import click

        _LAYOUTS = {"wide": 120, "narrow": 60}
        DEFAULT = "wide"

        def width():
            layout = _LAYOUTS.get(DEFAULT)
            if layout is None:
                raise LookupError("The built-in layout table is incomplete.")
            return layout

        @click.command()
        def show():
            click.echo("-" * width())
        """,
    "stack_the_helper_built_itself_for_a_route": """
        from fastapi import FastAPI
        app = FastAPI()

        def render(sections):
            stack = []
            for s in ("head", "body"):
                stack.append(s)
                stack.pop()
            if stack:
                raise AssertionError("Unbalanced section stack after rendering.")
            return "<html/>"

        @app.get("/page")
        def page():
            return render(["a"])
        """,
    "regex_on_text_the_program_wrote": """
        import re
        from fastmcp import FastMCP
        mcp = FastMCP("x")

        def _closing(xml):
            m = re.search(r"</sheetData>", xml)
            if m is None:
                raise ValueError("A worksheet has no sheetData.")
            return m.end()

        @mcp.tool()
        def add_sheet(title: str) -> str:
            xml = "<worksheet><sheetData></sheetData></worksheet>"
            return str(_closing(xml))
        """,
}


@pytest.mark.parametrize("name", sorted(OWN_STATE))
def test_a_check_of_the_programs_own_state_asks_for_no_step(name):
    assert aem201(OWN_STATE[name]) == []


# -- the reader can act: AEM201 stays ------------------------------------------------------------------

READER_CAN_ACT = {
    # a configuration file the CLI user can create
    "config_file_on_disk": ("""
        import os
        import click

        CONFIG = os.path.expanduser("~/.tool.toml")

        def settings():
            if not os.path.exists(CONFIG):
                raise RuntimeError("No configuration file.")
            return CONFIG

        @click.command()
        def run():
            click.echo(settings())
        """, 9),
    # an environment variable the CLI user can set
    "environment_variable": ("""
        import os
        import click

        def token():
            if "API_TOKEN" not in os.environ:
                raise RuntimeError("API token not configured.")
            return os.environ["API_TOKEN"]

        @click.command()
        def run():
            click.echo(token())
        """, 7),
    # an installed program
    "program_on_path": ("""
        import shutil
        import click

        def git():
            exe = shutil.which("git")
            if exe is None:
                raise RuntimeError("git is not installed.")
            return exe

        @click.command()
        def run():
            click.echo(git())
        """, 8),
    # the criteria the agent sent, gathered into a list with append
    "criteria_built_from_the_arguments": ("""
        from fastmcp import FastMCP
        mcp = FastMCP("x")

        def build_query(query, categories):
            parts = []
            if query.strip():
                parts.append(query)
            for c in categories:
                parts.append("cat:" + c)
            if not parts:
                raise ValueError("No search criteria provided")
            return " AND ".join(parts)

        @mcp.tool()
        def find_papers(query: str, categories: list) -> str:
            return build_query(query, categories)
        """, 12),
    # a failed operation, caught
    "failed_operation": ("""
        from fastmcp import FastMCP
        mcp = FastMCP("x")

        def flush(buffer):
            try:
                buffer.sync()
            except OSError:
                raise RuntimeError("Flushing the buffer failed.")

        @mcp.tool()
        def save() -> str:
            flush(object())
            return "ok"
        """, 9),
    # internal state, but the message shows which session: the step (start another) concerns it
    "shows_a_value": ("""
        from fastmcp import FastMCP
        mcp = FastMCP("x")
        SESSIONS = {}

        def session(sid):
            s = SESSIONS[sid]
            if s.status == "error":
                raise RuntimeError(f"Session {sid} failed to initialize.")
            return s

        @mcp.tool()
        def run(sid: str) -> str:
            return str(session(sid))
        """, 9),
    # state another tool sets: the step is to call it first
    "connection_a_tool_opens": ("""
        import sqlite3
        from fastmcp import FastMCP
        mcp = FastMCP("x")
        _conn = None

        @mcp.tool()
        def connect(path: str) -> str:
            global _conn
            _conn = sqlite3.connect(path)
            return "ok"

        def _cursor():
            if _conn is None:
                raise RuntimeError("No database connection.")
            return _conn.cursor()

        @mcp.tool()
        def query(sql: str) -> str:
            return str(_cursor().execute(sql).fetchall())
        """, 15),
    "object_state_a_tool_sets": ("""
        from fastmcp import FastMCP
        mcp = FastMCP("x")

        class Index:
            def __init__(self):
                self.built = False

            def lookup(self, term):
                if not self.built:
                    raise RuntimeError("The index is empty.")
                return term

        INDEX = Index()

        @mcp.tool()
        def build_index() -> str:
            INDEX.built = True
            return "ok"

        @mcp.tool()
        def find(term: str) -> str:
            return INDEX.lookup(term)
        """, 11),
    # an optional dependency the user can install
    "optional_dependency": ("""
        import importlib.util
        import click

        def _frame():
            if importlib.util.find_spec("pandas") is None:
                raise RuntimeError("Spreadsheet support is unavailable.")
            return "pandas"

        @click.command()
        def export():
            click.echo(_frame())
        """, 7),
    # an environment variable read behind a function
    "environment_behind_a_function": ("""
        import os
        import click

        def _env_region():
            return os.environ.get("DEMO_REGION")

        def _region():
            region = _env_region()
            if region is None:
                raise RuntimeError("No region available.")
            return region

        @click.command()
        def run():
            click.echo(_region())
        """, 11),
}


@pytest.mark.parametrize("name", sorted(READER_CAN_ACT))
def test_a_failure_the_reader_can_act_on_still_asks_for_a_step(name):
    code, row = READER_CAN_ACT[name]
    assert aem201(code) == [row]


# -- data flow through collections the code fills -------------------------------------------------------

def _scope(code):
    import libcst as cst
    from errlint.extract.walker import extract

    (message,) = extract(cst.parse_module(code)).messages
    return message.scope


@pytest.mark.parametrize("made, fill", [
    ("set()", "seen.add(name)"),
    ("set()", "seen.update([name])"),
    ("{}", "seen.setdefault(name, 1)"),
    ("[]", "seen.insert(0, name.strip())"),
    ("[]", "seen.extend(name.split(','))"),
])
def test_a_collection_filled_from_an_input_is_input(made, fill):
    from errlint.extract.provenance import Provenance

    scope = _scope(f"def f(name):\n    seen = {made}\n    {fill}\n    if not seen:\n        raise ValueError('nothing')\n")
    assert Provenance(scope, outcomes=True).is_input_name("seen")
    assert "name" in Provenance(scope, outcomes=True).ancestors(["seen"])
    # it varies with the input, but it is not a value the caller sent
    assert not Provenance(scope).is_input_name("seen")
    assert "name" not in Provenance(scope).ancestors(["seen"])


def test_a_collection_filled_with_constants_is_not_input():
    from errlint.extract.provenance import Provenance

    scope = _scope("def f(name):\n    seen = []\n    seen.append('a')\n    if not seen:\n        raise ValueError('nothing')\n")
    assert not Provenance(scope, outcomes=True).is_input_name("seen")


@pytest.mark.parametrize("call", ["re.search(PATTERN, text)", "re.findall(PATTERN, text)", "regex.match(PATTERN, text)", "PATTERN_RE.match(text)"])
def test_a_regex_match_on_an_input_varies_with_it(call):
    from errlint.extract.provenance import Provenance

    scope = _scope(f"def f(text):\n    m = {call}\n    if not m:\n        raise ValueError('nothing')\n")
    assert Provenance(scope).is_input_name("m")


def test_a_search_on_a_client_is_still_the_worlds_answer():
    from errlint.extract.provenance import Provenance

    scope = _scope("def f(text):\n    m = client.search(text)\n    if not m:\n        raise ValueError('nothing')\n")
    assert not Provenance(scope).is_input_name("m")


def test_a_list_the_code_built_is_not_echoed():
    # arxiv's section parser: the sections come from the paper's source; the agent sent an id
    code = """
        from fastmcp import FastMCP
        mcp = FastMCP("x")
        LIMIT = 100

        def sections(source):
            found = []
            for line in source.splitlines():
                if len(found) >= LIMIT:
                    raise ValueError("The source has too many sections.")
                found.append(line)
            return found

        @mcp.tool()
        def outline(text: str) -> str:
            return str(sections(text))
        """
    codes = [d.code for d in lint(textwrap.dedent(code), select=["AEM202"], settings=PREVIEW)]
    assert codes == []


# -- inputs from an adversarial hunt: the reader can act on each (call the tool that sets the state,
# retry when the lock or slot frees, install the package, sign in, send other text) ------------------

HUNTED = sorted((Path(__file__).parent / "data" / "reader_can_act").glob("*.py"))


@pytest.mark.parametrize("path", HUNTED, ids=[p.stem for p in HUNTED])
def test_state_the_reader_controls_is_not_the_programs_own(path):
    assert len(aem201(path.read_text())) == 1


@pytest.mark.parametrize("fill", [
    "servers[address] = Server(address)",
    "servers.append(Server(address))",
    "server = Server(address)\n                servers.append(server)",  # through a local
])
def test_a_collection_filled_from_outside_the_function_is_not_its_own(fill):
    # radicale's "No servers started": the servers come from the configured addresses
    made = "{}" if "[" in fill.split("=")[0] else "[]"
    code = f"""
        import click
        from app import Server, configured_addresses

        def start():
            servers = {made}
            for address in configured_addresses():
                {fill}
            if not servers:
                raise RuntimeError("No servers started")
            return servers

        @click.command()
        def serve():
            start()
        """
    assert aem201(code) == [10 + fill.count("\n")]
