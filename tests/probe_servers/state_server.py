"""A sample MCP server (mcp 2.x MCPServer) whose tools change state, for the `errlint probe` safety tests.

Every call is appended to the server's own record, $ERRLINT_PROBE_LOG (one JSON object per line:
tool, arguments, the server's working folder, HOME and TMPDIR), so tests can assert which tools the
probe really called and where the server ran.

- read_note: annotated readOnlyHint: true (called by default);
- save_note: readOnlyHint: false, destructiveHint: false (a write: needs --allow-writes or --tools);
  writes the note to `path` relative to its working folder, and a settings file under HOME;
- wipe_notes: destructiveHint: true (needs --allow-destructive too);
- touch_index: no annotations, so by the MCP defaults not read-only and destructive; writes a file
  in TMPDIR when it runs.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

mcp = MCPServer("state")


def record(tool: str, **arguments) -> None:
    log = os.environ.get("ERRLINT_PROBE_LOG")
    if log:
        entry = {"tool": tool, "arguments": arguments, "cwd": os.getcwd(), "home": os.environ.get("HOME", ""),
                 "tmpdir": os.environ.get("TMPDIR", "")}
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def read_note(path: str) -> str:
    """Read a note by its path, e.g. 'notes/today.txt'."""
    record("read_note", path=path)
    if not Path(path).is_file():
        raise ToolError(f"No note at path {path!r}; call read_note with a path from the notes folder, e.g. 'notes/today.txt'.")
    return Path(path).read_text(encoding="utf-8")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False))
def save_note(path: str, text: str) -> str:
    """Save a note at `path` (relative to the working folder)."""
    record("save_note", path=path, text=text)
    target = Path(path if path else "untitled.txt")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    Path(os.path.expanduser("~/.notes-settings.json")).write_text("{}", encoding="utf-8")
    return f"saved {len(text)} characters to {target}"


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def wipe_notes(folder: str) -> str:
    """Delete every note in `folder`."""
    record("wipe_notes", folder=folder)
    return f"wiped {folder}"


@mcp.tool()
def touch_index(name: str) -> str:
    """Rebuild the named notes index."""
    record("touch_index", name=name)
    Path(tempfile.gettempdir(), "notes-index").write_text(name, encoding="utf-8")
    return f"index {name!r} rebuilt"


if __name__ == "__main__":
    mcp.run()
