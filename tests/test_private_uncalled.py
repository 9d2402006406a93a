"""A private function (`_name`) that nothing in the project calls is no API: no caller outside the
project has it, so it passes no caller input on to the helpers it calls (`parameter_inputs`). A
guard in those helpers that every live call fills with data the program fetched or built is an
internal check, not one the caller can satisfy. A public function nothing calls stays an API."""
from __future__ import annotations

from test_passed_functions import audiences

# the flattener's size cap applies to the paper's own source, which the tool downloads
FLATTEN = '''MAX_CHARS = 1000


def _cap(text):
    if len(text) > MAX_CHARS:
        raise ValueError("flattened source exceeds the safety limit")
    return text


def flatten(files):
    text = "".join(files.values())
    return _cap(text)
'''
SERVER = '''import httpx
from fastmcp import FastMCP
from latex import flatten
mcp = FastMCP("papers")


@mcp.tool()
def get_source(paper_id: str) -> str:
    response = httpx.get(f"https://arxiv.org/e-print/{paper_id}")
    return flatten({"main.tex": response.text})
'''


def found(tmp_path, monkeypatch, files: dict, filename: str) -> set:
    return {(row, code) for row, code, _ in audiences(tmp_path, monkeypatch, files, filename)}


def codes_at(found_set: set, row: int) -> set:
    return {code for r, code in found_set if r == row}


def test_a_private_wrapper_nothing_calls_passes_no_input(tmp_path, monkeypatch):
    # `_flatten_compat` is kept for old callers and only the tests call it: it is no way in
    compat = "from latex import flatten\n\n\ndef _flatten_compat(files):\n    return flatten(files)\n"
    result = found(tmp_path, monkeypatch, {"latex.py": FLATTEN, "server.py": SERVER, "compat.py": compat}, "latex.py")
    assert "AEM204" not in codes_at(result, 6)


def test_a_public_function_nothing_calls_is_an_api_and_passes_input(tmp_path, monkeypatch):
    # the same wrapper without the underscore is the package's API: its callers pass anything
    compat = "from latex import flatten\n\n\ndef flatten_compat(files):\n    return flatten(files)\n"
    result = found(tmp_path, monkeypatch, {"latex.py": FLATTEN, "server.py": SERVER, "compat.py": compat}, "latex.py")
    assert "AEM204" in codes_at(result, 6)


def test_a_private_function_nothing_calls_in_a_click_cli(tmp_path, monkeypatch):
    # the command passes a fixed width; only a dead private function passes its argument on
    layout = ("class Layout:\n    def __init__(self, width):\n        self.width = check_width(width)\n\n\n"
              "def check_width(width):\n    if width > 200:\n        raise ValueError('layout is too wide')\n    return width\n\n\n"
              "def _resize(width):\n    return check_width(width)\n")
    cli = ("import click\nfrom layout import Layout\n\n@click.command()\ndef main():\n    click.echo(Layout(80).width)\n")
    result = found(tmp_path, monkeypatch, {"layout.py": layout, "cli.py": cli}, "layout.py")
    assert "AEM204" not in codes_at(result, 8) and "AEM202" not in codes_at(result, 8)


def test_a_private_method_nothing_calls_stays_open(tmp_path, monkeypatch):
    # `getattr(self, f"_{op}")` reaches private methods by a name no call site shows
    units = ("UNITS = {'ms': 1, 's': 1000}\n\nclass Units:\n    def _scale(self, key):\n"
             "        if key not in UNITS:\n            raise KeyError(f'unknown unit {key!r}')\n        return UNITS[key]\n\n"
             "    def run(self, op, key):\n        return getattr(self, f'_{op}')(key)\n")
    result = found(tmp_path, monkeypatch, {"units.py": units}, "units.py")
    assert "AEM204" in codes_at(result, 6)


def test_a_live_caller_with_input_keeps_the_finding(tmp_path, monkeypatch):
    # a dead private function does not hide the input a live command passes
    layout = ("def check_width(width):\n    if width > 200:\n        raise ValueError('layout is too wide')\n    return width\n\n"
              "def _unused(width):\n    return check_width(width)\n")
    cli = ("import click\nfrom layout import check_width\n\n@click.command()\n@click.option('--width', type=int)\n"
           "def main(width):\n    click.echo(check_width(width))\n")
    result = found(tmp_path, monkeypatch, {"layout.py": layout, "cli.py": cli}, "layout.py")
    assert codes_at(result, 3) >= {"AEM204"}


def test_dunder_methods_python_calls_stay_open(tmp_path, monkeypatch):
    # `__getitem__` is called by `obj[key]`, which the project model sees as no call: its key is input
    table = ("UNITS = {'ms': 1, 's': 1000}\n\nclass Units:\n    def __getitem__(self, key):\n"
             "        if key not in UNITS:\n            raise KeyError(f'unknown unit {key!r}')\n        return UNITS[key]\n")
    result = found(tmp_path, monkeypatch, {"units.py": table}, "units.py")
    assert "AEM204" in codes_at(result, 6)


def test_a_private_function_a_decorator_registers_stays_open(tmp_path, monkeypatch):
    # `@server.read_resource()` registers the nested handler: the framework calls it with the client's URI
    server = ("from mcp.server.lowlevel import Server\n\nKNOWN = {'memo://notes'}\n\n"
              "def register(server: Server):\n    @server.read_resource()\n    async def _read(uri):\n"
              "        if str(uri) not in KNOWN:\n            raise ValueError('That resource is not one this server has')\n"
              "        return 'notes'\n")
    result = found(tmp_path, monkeypatch, {"resources.py": server}, "resources.py")
    assert "AEM202" in codes_at(result, 9)


def test_a_private_closure_its_parent_returns_stays_open(tmp_path, monkeypatch):
    # `parse = make_parser(); parse(unit)`: the closure is called where no call site names it
    hooks = ("UNITS = {'ms': 1, 's': 1000}\n\n\ndef make_parser():\n    def _parse(unit):\n"
             "        if unit not in UNITS:\n            raise ValueError('unknown unit')\n        return UNITS[unit]\n    return _parse\n")
    cli = ("import click\nfrom hooks import make_parser\n\n\n@click.command()\n@click.argument('unit')\n"
           "def main(unit):\n    parse = make_parser()\n    click.echo(parse(unit))\n")
    result = found(tmp_path, monkeypatch, {"hooks.py": hooks, "cli.py": cli}, "hooks.py")
    assert codes_at(result, 7) >= {"AEM202", "AEM204"}
