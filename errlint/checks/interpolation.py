"""AEM208: whether each interpolated value is set off from the prose (quotes, backticks, `!r` or `=`),
so the reader can see where an empty or odd value starts and ends; numbers and counts are exempt.
"""
from __future__ import annotations

import re
from typing import Iterable

from ..model import EXCEPTION, Applicability, Edit, Finding, Fix, Level, Message, Template
from .base import FileContext, Rule
from .no_message import without_text

NUMERIC_HINT = re.compile(r"^(len|int|float|round|sum|min|max|abs)\(|(^|_)(count|total|num|n|size|limit|max|min|seconds|secs|ms|minutes|bytes|pct|percent|ratio|index|idx|line|lineno|row|col|port|code|status|status_code|attempt|attempts|retries)$|\.(status_code|returncode|errno|lineno|count)$")
QUOTES = ("'", '"', "`", "\u2018", "\u201c")


class UnmarkedInterpolation(Rule):
    """## What it does
    Flags an interpolated value that is not marked off from the prose: not inside quotes or
    backticks and not formatted with `!r` or `=`. Numbers and counts are exempt. Off by default.

    ## Why is this bad?
    "The deleted directory could not be deleted" (Google Python style guide 3.10.2): with an empty or
    odd value the reader cannot tell the value from the sentence. Quotes show where it starts and ends.

    ## Example
    ```python
    raise ValueError(f"Unknown region {region}; use eu or us")
    ```

    Use instead:
    ```python
    raise ValueError(f"Unknown region '{region}'; use eu or us")
    ```

    ## Fix safety
    Unsafe: the placeholder is wrapped in single quotes, which changes the message text (a test that
    matches it with `pytest.raises(match=...)` may break). Switching to `!r` is not offered: it also
    changes how non-`str` values print, e.g. `PosixPath('…')`.

    ## Options
    None.
    """

    CODE = "AEM208"
    NAME = "unmarked-interpolation"
    SUMMARY = "An interpolated value not set off by quotes"
    PROFILES = ("agent", "cli", "http", "exc", "log")
    DEFAULT = False
    LEVEL = Level.INFO
    FIX = Applicability.UNSAFE
    VALID = (
        "def f(region):\n    raise ValueError(f\"Unknown region '{region}'; use eu or us\")\n",
        "def f(region):\n    raise ValueError(f'Unknown region {region!r}; use eu or us')\n",
        "def f(items):\n    raise ValueError(f'{len(items)} items is too many; pass 10 or fewer')\n",
    )
    INVALID = (
        "def f(region):\n    raise ValueError(f'Unknown region {region}; use eu or us')\n",
        "def f(name):\n    raise ValueError('No file named {}'.format(name))\n",
        "def f(path):\n    raise ValueError('cannot open %s' % path)\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if without_text(message):
            return  # the whole message is the value (AEM101): no text to set it off from
        for template in message.templates:
            parts = template.parts
            for i, part in enumerate(parts):
                if isinstance(part, str) or part.quoted or part.kinds <= {EXCEPTION} or NUMERIC_HINT.search(part.expr.replace(" ", "")):
                    continue
                before = parts[i - 1] if i > 0 and isinstance(parts[i - 1], str) else ""
                after = parts[i + 1] if i + 1 < len(parts) and isinstance(parts[i + 1], str) else ""
                if before.rstrip().endswith(QUOTES) or after.lstrip().startswith(QUOTES + ("\u2019", "\u201d")):
                    continue
                yield self.finding(
                    message,
                    f"`{part.expr}` is interpolated without quotes; the reader cannot see where the value starts and ends",
                    f"Quote it: '{{{part.expr}}}' (or use {{{part.expr}!r}} for strings).",
                    fix=self._fix(part, template, ctx),
                )
                return

    def _fix(self, part, template: Template, ctx: FileContext):
        """Wrap the f-string field in single quotes (other template styles: no automatic fix)."""
        import libcst as cst

        if template.tail_style != "f" or not isinstance(template.tail, cst.FormattedString):
            return None
        holder_node = part.node
        for item in template.tail.parts:
            if isinstance(item, cst.FormattedStringExpression) and item.expression is holder_node:
                quote = "\\'" if template.tail.quote[0] == "'" else "'"
                code = ctx.code(item)
                return Fix(Applicability.UNSAFE, f"Quote `{part.expr}`", (Edit(0, 0, quote, node=item), Edit(len(code), len(code), quote, node=item)))
        return None
