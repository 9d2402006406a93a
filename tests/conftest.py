"""Shared helpers: lint a snippet, collect codes."""
from __future__ import annotations

import os
import textwrap
from typing import List, Optional, Sequence

import pytest

from errlint.api import check_source
from errlint.config import Settings

# The rule tests exercise every rule errlint's designers turned on, in-process and in the errlint
# subprocesses they start. Which of those rules the default set keeps is decided by their precision on
# real code (errlint/earned.py); tests/test_earned.py tests that default with preview off.
os.environ["ERRLINT_PREVIEW"] = "1"


# AEM201 on plain raises and logs (the `exc` and `log` audiences) is opt-in since the audience decision
# of 2026-12-01; tests of its logic on library code opt in, as an SDK author would
EXC_STEPS = Settings(profiles=(("AEM201", ("agent", "cli", "http", "exc", "log")),))


def lint(code: str, select: Optional[Sequence[str]] = None, settings: Optional[Settings] = None, path: str = "example.py", **kw):
    """Diagnostics for a dedented snippet."""
    return check_source(textwrap.dedent(code), path=path, settings=settings, select=select, **kw)


# every designed rule on, for tests that select preview rules by code
PREVIEW = Settings(preview=True)


def preview_rows(code: str, select: Sequence[str]) -> List[int]:
    """The rows (sorted, each once) where the selected rules report on a snippet, preview on."""
    return sorted({d.location.row for d in lint(code, select=select, settings=PREVIEW)})


def codes(code: str, **kw) -> List[str]:
    return [d.code for d in lint(code, **kw)]


def at(code: str, **kw):
    """(row, code) pairs."""
    return sorted((d.location.row, d.code) for d in lint(code, **kw))


@pytest.fixture
def tmp_project(tmp_path, monkeypatch):
    """An empty project directory as the current directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# tests/projects/ holds fixture projects checked by test_audience.py, not tests to run
collect_ignore = ["projects"]
