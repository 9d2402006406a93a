"""0xx: errlint's own diagnostics. The engine emits these; the classes carry code, name and docs."""
from __future__ import annotations

from ..model import Applicability, Level
from .base import Rule


class SyntaxErrorRule(Rule):
    """## What it does
    Reports a file errlint cannot read, decode or parse, at Python's line and column. The run goes on
    with the other files and exits 1.

    ## Why is this bad?
    A file that does not parse is not checked at all; its messages may hide every other defect.

    ## Example
    ```python
    def f(:
        pass
    ```

    Use instead:
    ```python
    def f():
        pass
    ```

    ## Fix safety
    No fix.

    ## Options
    None.
    """

    CODE = "AEM001"
    NAME = "syntax-error"
    SUMMARY = "The file cannot be read or parsed"
    LEVEL = Level.ERROR
    SINKS = frozenset()


class UnusedNoqa(Rule):
    """## What it does
    Reports a `# noqa: AEM...` comment (or an AEM code in one) that suppresses nothing, and says which
    listed AEM codes name no rule at all (a typo such as `AEM999`). Off by default.

    ## Why is this bad?
    Stale suppressions hide the next real finding on that line and rot as code changes (ruff RUF100).

    ## Example
    ```python
    raise ValueError("size must be one of s, m, l (got 'xl')")  # noqa: AEM204
    ```

    Use instead:
    ```python
    raise ValueError("size must be one of s, m, l (got 'xl')")
    ```

    ## Fix safety
    Safe: the unused codes (or the whole comment) are removed.

    ## Options
    None.
    """

    CODE = "AEM002"
    NAME = "unused-noqa"
    SUMMARY = "A noqa comment that suppresses nothing"
    DEFAULT = False
    LEVEL = Level.INFO
    FIX = Applicability.SAFE
    SINKS = frozenset()
