"""A call through an import whose name is also the head of where it comes from: `from flatten import
flatten`, `from latex import flatten as latex`, a package `pkg` whose `__init__` defines `pkg`. The
per-file pass records the call already resolved (`flatten.flatten`); the project model must not
resolve its head through the import a second time (`flatten.flatten.flatten`, found nowhere), or the
helper is reached by no entry point and its messages get the wrong audience."""
from __future__ import annotations

from test_passed_functions import audiences

HELPER = ("def {name}(doc):\n    if not doc.endswith('.tex'):\n"
          "        raise ValueError(f'document {{doc!r}} is not a .tex file')\n    return doc\n")


def tool(import_line: str, call: str) -> str:
    return (f"from fastmcp import FastMCP\n{import_line}\nmcp = FastMCP('x')\n\n"
            f"@mcp.tool()\ndef convert(doc: str) -> str:\n    return {call}(doc)\n")


def test_a_function_named_like_its_module(tmp_path, monkeypatch):
    files = {"flatten.py": HELPER.format(name="flatten"), "server.py": tool("from flatten import flatten", "flatten")}
    assert {a for _, _, a in audiences(tmp_path, monkeypatch, files, "flatten.py")} == {"agent"}


def test_an_alias_named_like_the_module(tmp_path, monkeypatch):
    files = {"latex.py": HELPER.format(name="flatten"), "server.py": tool("from latex import flatten as latex", "latex")}
    assert {a for _, _, a in audiences(tmp_path, monkeypatch, files, "latex.py")} == {"agent"}


def test_a_package_that_defines_its_own_name(tmp_path, monkeypatch):
    files = {"texpkg/__init__.py": HELPER.format(name="texpkg"), "server.py": tool("from texpkg import texpkg", "texpkg")}
    assert {a for _, _, a in audiences(tmp_path, monkeypatch, files, "texpkg/__init__.py")} == {"agent"}


def test_a_command_calls_a_function_named_like_its_module(tmp_path, monkeypatch):
    cli = ("import click\nfrom convert import convert\n\n@click.command()\n@click.argument('doc')\n"
           "def main(doc):\n    click.echo(convert(doc))\n")
    files = {"convert.py": HELPER.format(name="convert"), "cli.py": cli}
    assert {a for _, _, a in audiences(tmp_path, monkeypatch, files, "convert.py")} == {"cli"}
