"""A message is judged once per audience that may read it, and what counts as caller input depends on
the reader: a CLI user or an operator sets the environment, an agent or an HTTP client does not. The
input model is computed per (reader, parameters). It was cached on the message by whichever audience
came first, so in a project with an MCP tool a CLI-reached check of an environment variable was
judged as an agent would read it (AEM201 instead of the value and the allowed values).
"""
from __future__ import annotations

from test_audience import make_project, run_json

SETTINGS = """
import os


def mode():
    value = os.environ.get("APP_MODE", "fast")
    if value not in ("fast", "safe"):
        raise ValueError("Unsupported mode")
    return value
"""
UNRELATED_TOOL = """
from fastmcp import FastMCP

mcp = FastMCP("x")


@mcp.tool()
def ping() -> str:
    return "pong"
"""
CLI = """
import click
import settings


@click.command()
def run():
    click.echo(settings.mode())
"""
TOOL = """
from fastmcp import FastMCP
import settings

mcp = FastMCP("x")


@mcp.tool()
def current_mode() -> str:
    return settings.mode()
"""


def findings(root, monkeypatch) -> set:
    return {(d["filename"], d["location"]["row"], d["code"], d["audience"])
            for d in run_json(root, monkeypatch, "--select", "AEM201,AEM202,AEM204")}


def test_an_environment_check_a_command_reaches_in_a_project_with_a_tool(tmp_path, monkeypatch):
    root = make_project(tmp_path, {"settings.py": SETTINGS, "cli.py": CLI, "server.py": UNRELATED_TOOL})
    assert findings(root, monkeypatch) == {("settings.py", 8, "AEM202", "cli"), ("settings.py", 8, "AEM204", "cli")}


def test_the_same_check_a_tool_reaches_is_not_the_agents_input(tmp_path, monkeypatch):
    # the agent cannot set the server's environment: no value or allowed values to ask of it
    root = make_project(tmp_path, {"settings.py": SETTINGS, "cli.py": CLI.replace("settings.mode()", "'ok'"), "server.py": TOOL})
    assert findings(root, monkeypatch) == {("settings.py", 8, "AEM201", "agent")}


def test_an_environment_check_no_entry_point_reaches(tmp_path, monkeypatch):
    # an application's unreached raise is `exc`: AEM202/AEM204 apply when the reader can fix it, and
    # whoever runs the program sets its environment
    unreached = SETTINGS.replace("def mode():", "def legacy_mode():")
    root = make_project(tmp_path, {"settings.py": unreached, "cli.py": CLI.replace("settings.mode()", "'ok'"), "server.py": UNRELATED_TOOL})
    assert findings(root, monkeypatch) == {("settings.py", 8, "AEM202", "exc"), ("settings.py", 8, "AEM204", "exc")}


def test_a_parameter_check_keeps_its_answer_under_every_reader(tmp_path, monkeypatch):
    # the argument is input for every reader: the per-reader models agree
    by_argument = SETTINGS.replace("def mode():\n    value = os.environ.get(\"APP_MODE\", \"fast\")", "def mode(value):")
    cli = CLI.replace("def run():", "@click.argument(\"mode\")\ndef run(mode):").replace("settings.mode()", "settings.mode(mode)")
    root = make_project(tmp_path, {"settings.py": by_argument, "cli.py": cli, "server.py": UNRELATED_TOOL})
    assert findings(root, monkeypatch) == {("settings.py", 7, "AEM202", "cli"), ("settings.py", 7, "AEM204", "cli")}
