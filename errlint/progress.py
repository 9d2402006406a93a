"""Progress on stderr for long runs, like ruff: files done out of the total, only at a terminal.

Nothing is shown for the first `DELAY` seconds (a short run stays silent), nor when stderr is not a
terminal (CI logs, pipes, editors), nor with `-q`. Drawn with click's progress bar.
"""
from __future__ import annotations

import sys
import time
from typing import Callable, Optional, TextIO

import click

DELAY = 2.0


class Progress:
    """Counts checked files; shows click's progress bar once the run has taken `delay` seconds."""

    def __init__(self, stream: TextIO, delay: float = DELAY, clock: Callable[[], float] = time.monotonic):
        self.stream = stream
        self.delay = delay
        self.clock = clock
        self.total = 0
        self.done = 0
        self.started = clock()
        self.bar = None

    @classmethod
    def for_terminal(cls) -> Optional["Progress"]:
        stream = sys.stderr
        try:
            return cls(stream) if stream.isatty() else None
        except (AttributeError, ValueError):  # a closed or replaced stderr
            return None

    def start(self, total: int) -> None:
        self.total, self.done, self.started = total, 0, self.clock()

    def advance(self, count: int = 1) -> None:
        self.done += count
        if self.bar is None:
            if self.clock() - self.started < self.delay or self.done >= self.total:
                return
            self.bar = click.progressbar(length=self.total, label="errlint: checking", show_pos=True, show_eta=False,
                                         show_percent=False, file=self.stream, width=30)
            self.bar.__enter__()
            self.bar.update(self.done)
        else:
            self.bar.update(count)

    def finish(self) -> None:
        """Clear the line, so the diagnostics that follow start on a clean one."""
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None
