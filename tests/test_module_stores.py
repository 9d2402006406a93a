"""Stores and servers that live in another module of the project (#14, item 4; the hunters' split
servers).

- A container made empty for the program to fill as it runs (`NOTES: dict[str, Note] = {}`,
  `JOBS = defaultdict(list)`) is an open set, however it is named: a lookup that fails in it asks for
  the tool that lists its records (AEM205), never for its values (AEM204). Also when another project
  module makes it and this one imports it (`project_scan.ModuleObjects`). An empty table named as a registry
  or allow-list (`HANDLERS = {}` that decorators fill) stays closed.
- A module that registers tools on a server object another project module makes (`from .app import
  mcp`) is one part of that server: its listing tools may be registered in the sibling modules.
"""
from __future__ import annotations

import json
import textwrap

import libcst as cst
import pytest
from click.testing import CliRunner

from conftest import preview_rows

from errlint.cli import main
from errlint.extract.value_sets import closed_set


def _check(tmp_path, monkeypatch, files, select=("AEM204", "AEM205", "AEM209")):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--preview", "--select", ",".join(select), "--output-format", "json", "."])
    assert result.exit_code in (0, 1), result.output
    return sorted((d["filename"].replace("\\", "/"), d["location"]["row"], d["code"]) for d in json.loads(result.output))


SERVER = """\
    from fastmcp import FastMCP

    mcp = FastMCP("fleet")
"""


@pytest.mark.parametrize("store", [
    "VEHICLES: dict[str, dict] = {}",
    "VEHICLES = {}",
    "VEHICLES = dict()",
    "VEHICLES = collections.defaultdict(list)",
    "VEHICLES: set[str] = set()  # filled by register_vehicle",
])
def test_an_imported_store_is_an_open_set(tmp_path, monkeypatch, store):
    found = _check(tmp_path, monkeypatch, {
        "fleet/__init__.py": "",
        "fleet/app.py": SERVER,
        "fleet/store.py": f"import collections\n\n{store}\n",
        "fleet/vehicles.py": """\
            from fastmcp.exceptions import ToolError

            from fleet.app import mcp
            from fleet.store import VEHICLES


            @mcp.tool()
            def list_vehicles() -> list:
                return sorted(VEHICLES)


            @mcp.tool()
            def retire(vehicle_id: str) -> str:
                if vehicle_id not in VEHICLES:
                    raise ToolError(f"Vehicle {vehicle_id} not found")
                return "ok"
        """,
    })
    assert found == [("fleet/vehicles.py", 15, "AEM205")]


def test_an_imported_table_with_values_is_closed(tmp_path, monkeypatch):
    found = _check(tmp_path, monkeypatch, {
        "fleet/__init__.py": "",
        "fleet/app.py": SERVER,
        "fleet/kinds.py": 'KINDS = {"van", "truck"}\n',
        "fleet/vehicles.py": """\
            from fastmcp.exceptions import ToolError

            from fleet.app import mcp
            from fleet.kinds import KINDS


            @mcp.tool()
            def add_vehicle(kind: str) -> str:
                if kind not in KINDS:
                    raise ToolError(f"Unknown kind {kind!r}")
                return "ok"
        """,
    })
    assert found == [("fleet/vehicles.py", 10, "AEM204")]


def test_a_listing_tool_in_a_sibling_module_of_the_same_server(tmp_path, monkeypatch):
    found = _check(tmp_path, monkeypatch, {
        "fleet/__init__.py": "",
        "fleet/app.py": SERVER,
        "fleet/vehicles.py": """\
            from fleet.app import mcp

            VEHICLES: dict[str, dict] = {}


            @mcp.tool()
            def list_vehicles() -> list:
                return sorted(VEHICLES)
        """,
        "fleet/drivers.py": """\
            from fastmcp.exceptions import ToolError

            from fleet.app import mcp
            from fleet.vehicles import VEHICLES

            DRIVERS: dict[str, dict] = {}


            @mcp.tool()
            def list_drivers() -> list:
                return sorted(DRIVERS)


            @mcp.tool()
            def assign(driver_id: str, vehicle_id: str) -> str:
                if driver_id not in DRIVERS:
                    raise ToolError(f"Driver {driver_id} not found")
                if vehicle_id not in VEHICLES:
                    raise ToolError(f"Vehicle {vehicle_id} not found")
                if vehicle_id.startswith("x"):
                    raise ToolError("Retired vehicle; call list_vehicles for active ones")
                return "ok"
        """,
    })
    # the sibling's list_vehicles is the source of a vehicle id, and a known tool (no AEM209)
    assert found == [("fleet/drivers.py", 17, "AEM205"), ("fleet/drivers.py", 19, "AEM205")]


def test_a_module_that_makes_its_own_server_keeps_its_own_tools(tmp_path, monkeypatch):
    # two servers in one project: the other server's listing tool is no source for this one's ids
    found = _check(tmp_path, monkeypatch, {
        "billing.py": """\
            from fastmcp import FastMCP

            mcp = FastMCP("billing")


            @mcp.tool()
            def list_vehicles() -> list:
                return []
        """,
        "fleet.py": """\
            from fastmcp import FastMCP
            from fastmcp.exceptions import ToolError

            mcp = FastMCP("fleet")
            VEHICLES: dict[str, dict] = {}


            @mcp.tool()
            def retire(vehicle_id: str) -> str:
                if vehicle_id not in VEHICLES:
                    raise ToolError(f"Vehicle {vehicle_id} not found")
                return "ok"
        """,
    })
    assert found == []


def test_in_one_module_an_empty_store_is_open_and_an_empty_registry_closed():
    code = '''from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("x")
NOTES: dict = {}
SUPPORTED_FORMATS = {}


def register(name):
    def wrap(fn):
        SUPPORTED_FORMATS[name] = fn
        return fn
    return wrap


@mcp.tool()
def list_notes() -> list:
    return sorted(NOTES)


@mcp.tool()
def read(note_id: str, fmt: str) -> str:
    if note_id not in NOTES:
        raise ToolError(f"Unknown note {note_id!r}")
    if fmt not in SUPPORTED_FORMATS:
        raise ToolError(f"Unknown format {fmt!r}")
    return SUPPORTED_FORMATS[fmt](NOTES[note_id])
'''
    assert preview_rows(code, ["AEM205"]) == [24]  # not 26: the formats are the program's own
    resolve = {"NOTES": cst.Dict([]), "SUPPORTED_FORMATS": cst.Dict([])}.get
    assert closed_set(cst.Name("NOTES"), resolve, lambda n: False) is False
    assert closed_set(cst.Name("SUPPORTED_FORMATS"), resolve, lambda n: False) is True


def test_empty_containers_and_the_store_scan():
    from errlint.extract.value_sets import empty_container
    from errlint.project_scan import ModuleObjects

    parse = cst.parse_expression
    assert [empty_container(parse(e)) for e in ("{}", "[]", "set()", "defaultdict(list)", "OrderedDict()", "()", "{'a': 1}", "dict(a=1)", "set(names)")] == \
        [True, True, True, True, True, False, False, False, False]
    assert closed_set(parse("{}"), lambda n: None, lambda n: False) is False
    assert closed_set(parse("{'a', 'b'}"), lambda n: None, lambda n: False) is True
    objects = ModuleObjects()
    from pathlib import Path

    objects.add(Path("pkg/store.py"), b"NOTES: dict[str, str] = {}\nJOBS = collections.defaultdict(list)\nKINDS = {'a'}\n    local = {}\n")
    objects.add(Path("pkg/__init__.py"), b"CACHE = []  # filled lazily\n")
    objects.add(Path("pkg/config.py"), b"class AppSettings(pydantic_settings.BaseSettings):\n    api_key: str\n\n\nsettings = AppSettings()\nother = Other()\n")
    assert objects.objects() == (("config.settings", "settings"), ("pkg.CACHE", "store"), ("store.JOBS", "store"), ("store.NOTES", "store"))
