"""A check/ensure directive is judged by its object, one model for both readers (`prose.concrete_object`):

- the state of a thing named bare ("pip is installed", "docker is running", "git is available in
  the container", "node is on your PATH") is concrete: no vague advice (AEM102), and a next step
  (no AEM201);
- so is a concrete object such as a path (`~/.cache/tool`), for the step reader as for the vague-advice
  reader, and a noun that repeats what the message showed ("Couldn't find 'pip' ... ensure that
  pip ... is available");
- a generic subject ("the service", "your connection", "everything", "your settings") stays vague.
"""
from __future__ import annotations

import pytest

from conftest import codes

COMMAND = '''
import click


@click.command()
def main():
    raise click.ClickException({text!r})
'''
SELECT = ["AEM102", "AEM201"]


@pytest.mark.parametrize("text", [
    "Couldn't find 'pip' executable. Please ensure that pip in your system is available.",
    "Couldn't find pip. Ensure that pip is installed.",
    "Docker did not answer. Make sure docker is running and try again.",
    "The git binary is missing. Make sure git is available in the container.",
    "Could not write the cache. Check that ~/.cache/tool is writable.",
    "Cannot reach the agent. Verify that ssh-agent is running.",
])
def test_a_named_things_state_is_a_concrete_step(text):
    assert codes(COMMAND.format(text=text), select=SELECT) == []


@pytest.mark.parametrize("text, expected", [
    ("Request failed. Please ensure that the service is available.", ["AEM102"]),
    ("Something went wrong. Make sure everything is set up.", ["AEM102"]),
    ("Could not connect. Check your settings.", ["AEM102"]),
    ("Upload failed. Ensure that your connection is stable.", ["AEM102"]),
])
def test_a_generic_subject_stays_vague(text, expected):
    assert codes(COMMAND.format(text=text), select=SELECT) == expected


def test_the_tool_reply_reads_the_same_model():
    """The same directive in an MCP tool's reply: the step is there, nothing to report."""
    code = '''
    import shutil
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")


    @mcp.tool()
    def render(doc: str) -> str:
        if shutil.which("pandoc") is None:
            raise ToolError("pandoc was not found. Make sure pandoc is installed on the server.")
        return doc
    '''
    assert codes(code, select=SELECT) == []
