"""Test hooks shared by the sample servers: record the server's pid and which tools ran.

`ERRLINT_PROBE_PIDFILE` (a path) gets the server process id at start; `ERRLINT_PROBE_CALLED` (a
directory) gets one empty file per tool call, named after the tool, so tests can tell that a skipped
tool was never called and that the server process is gone after a probe.
"""
from __future__ import annotations

import os
from pathlib import Path


def started() -> None:
    """Write this process's id to $ERRLINT_PROBE_PIDFILE when it is set."""
    pidfile = os.environ.get("ERRLINT_PROBE_PIDFILE")
    if pidfile:
        Path(pidfile).write_text(str(os.getpid()), encoding="utf-8")


def called(tool: str) -> None:
    """Create $ERRLINT_PROBE_CALLED/<tool> when the variable is set."""
    folder = os.environ.get("ERRLINT_PROBE_CALLED")
    if folder:
        Path(folder, tool).touch()
