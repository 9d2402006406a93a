"""A message's text taken from a constant another module of the project defines (#14, items 4 and
11: closed sets and sizes by what the value is, wherever it is written).

`from .texts import USAGE`, `from .schemas import ORDER_FORMAT`, `from .choices import UNITS`: the
importing module reads the constant's value as if it were its own (`module_constants`,
`extract.imported_constants`). A long text is measured (AEM401), a JSON Schema is one by what it holds
(AEM403), an allow-list's values are listed (AEM204). The findings sit at the sink, and no fix edits
the other module. A closed set too large to list is still closed: its values are to be interpolated.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from click.testing import CliRunner

from conftest import PREVIEW, lint

from errlint.cli import main

SERVER = """\
    import json
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    from .texts import USAGE, NOT_FOUND
    from .defs import ORDER_FORMAT, UNITS

    mcp = FastMCP("orders")
    ORDERS: dict = {}

    @mcp.tool()
    def place(order: dict, unit: str, order_id: str) -> str:
        if "items" not in order:
            raise ToolError(f"Invalid order.\\n{USAGE}")
        if "sku" not in order:
            raise ToolError("Invalid order. Expected: " + json.dumps(ORDER_FORMAT))
        if unit not in UNITS:
            raise ToolError(f"Unknown unit {unit!r}.")
        if order_id not in ORDERS:
            raise ToolError(NOT_FOUND)
        return "ok"
    """
TEXTS = '''\
USAGE = """usage: orders place --sku SKU --quantity N [--address JSON]

Places an order with the warehouse. Options:
''' + "".join(f"  --option-{i} VALUE   changes how the order is packed, labelled and shipped, step {i}\n" for i in range(14)) + '''"""
NOT_FOUND = "No such order."
'''
DEFS = """\
ORDER_FORMAT = {
    "type": "object",
    "properties": {
        "sku": {"type": "string", "description": "Stock keeping unit"},
        "quantity": {"type": "integer", "minimum": 1},
        "address": {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}},
    },
    "required": ["sku", "quantity"],
}
UNITS = ("each", "box", "pallet")
"""


def _run(tmp_path, monkeypatch, files, *extra):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if name.endswith("server.py") else text)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--preview", "--output-format", "json", *extra, "."])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


def test_constants_from_sibling_modules_are_read_at_the_sink(tmp_path, monkeypatch):
    found = _run(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/server.py": SERVER, "pkg/texts.py": TEXTS, "pkg/defs.py": DEFS},
                 "--select", "AEM401,AEM403,AEM204,AEM201")
    rows = sorted((d["filename"].replace("\\", "/"), d["location"]["row"], d["code"]) for d in found)
    assert rows == [("pkg/server.py", 13, "AEM204"), ("pkg/server.py", 13, "AEM401"), ("pkg/server.py", 15, "AEM204"), ("pkg/server.py", 15, "AEM403"),
                    ("pkg/server.py", 17, "AEM204"), ("pkg/server.py", 19, "AEM201")]
    by_row = {(d["location"]["row"], d["code"]): d for d in found}
    assert "one of: each, box, pallet" in by_row[(17, "AEM204")]["message"]
    assert by_row[(19, "AEM201")]["message"].startswith('"No such order." gives no next step')
    # the fix appends to the f-string at the sink; nothing points into the other module's literals
    assert by_row[(17, "AEM204")]["fix"]["edits"][0]["location"]["row"] == 17
    assert by_row[(13, "AEM401")]["fix"] is None and by_row[(19, "AEM201")]["fix"] is None


def test_fixes_never_edit_the_module_that_defines_the_constant(tmp_path, monkeypatch):
    files = {"pkg/__init__.py": "", "pkg/server.py": SERVER, "pkg/texts.py": TEXTS, "pkg/defs.py": DEFS}
    _run(tmp_path, monkeypatch, files, "--fix", "--unsafe-fixes")
    assert (tmp_path / "pkg/texts.py").read_text() == TEXTS and (tmp_path / "pkg/defs.py").read_text() == DEFS


def test_without_the_defining_module_the_text_stays_unknown(tmp_path, monkeypatch):
    """Checked alone with no project around it (no config, no git), the importing module cannot see
    the constants: no finding is made up from them."""
    found = _run(tmp_path, monkeypatch, {"server.py": SERVER}, "--select", "AEM401,AEM403,AEM204")
    assert [d["code"] for d in found if d["location"]["row"] in (13, 15)] == ["AEM204", "AEM204"]  # (the missing keys, from the guards)


def test_scan_keeps_only_imported_literals_whole():
    from errlint.module_constants import ModuleConstants

    scan = ModuleConstants()
    scan.add(Path("pkg/texts.py"), TEXTS.encode())
    scan.add(Path("pkg/defs.py"), DEFS.encode() + b"HIDDEN = {'a': 1}\nCOMPUTED = make()\n")
    scan.add(Path("pkg/server.py"), textwrap.dedent(SERVER).encode())
    found = dict(scan.constants())
    assert sorted(found) == ["defs.ORDER_FORMAT", "defs.UNITS", "texts.NOT_FOUND", "texts.USAGE"]  # HIDDEN: nobody imports it
    assert found["texts.USAGE"].endswith('step 13\n"""') and "Places an order" in found["texts.USAGE"]  # lines at column 0 stay in
    assert found["defs.ORDER_FORMAT"].rstrip().endswith("}") and found["defs.UNITS"] == 'UNITS = ("each", "box", "pallet")\n'


def test_a_closed_set_too_large_to_list_asks_for_its_values_at_run_time():
    units = ", ".join(f"'u{i}': {i}" for i in range(30))
    code = (f"from fastmcp import FastMCP\nmcp = FastMCP('s')\nUNITS = {{{units}}}\n\n@mcp.tool()\n"
            "def convert(unit: str, value: float) -> float:\n    if unit not in UNITS:\n"
            "        raise ValueError(f'Unknown unit {unit!r}.')\n    return value * UNITS[unit]\n")
    found = [(d.location.row, d.code, d.message) for d in lint(code, select=["AEM204", "AEM201"], settings=PREVIEW)]
    assert found == [(8, "AEM204", "the message does not say what is allowed (one of the values of UNITS)")]
