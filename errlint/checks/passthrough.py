"""AEM207: a message that is only a generic prefix plus the caught exception's own text (or an
upstream's error text read from its reply), which was written for another program's developers.
"""
from __future__ import annotations

import re
from typing import Iterable

from ..model import Finding, Message
from .base import FileContext, complete_templates, quote, traceback_attached
from .part_rule import PartRule, passthrough_only, relayed_only
from .vague import signals

AGENT_FACING_ERROR = re.compile(r"^(ToolError|ResourceError|PromptError|McpError|MCPError|HTTPException|UsageError|BadParameter)$")


class ExceptionPassthroughOnly(PartRule):
    """## What it does
    Flags a message that is only a generic prefix plus the caught exception's text:
    `f"Error: {e}"`, `str(e)`, `f"{type(e).__name__}: {e}"`, or plus an upstream's own error text
    read from its reply (`f"Tool failed: {result.get('error')}"`).

    ## Why is this bad?
    The library's text was written for its own developers: it names internals, not the tool's
    arguments, and never the next step (clig: "catch errors and rewrite them").

    ## Example
    ```python
    except Exception as e:
        raise ToolError(f"Error: {e}")
    ```

    Use instead:
    ```python
    except FileNotFoundError:
        raise ToolError(f"No file at {path!r}; call list_files to see the workspace.")
    ```

    ## Fix safety
    Display-only.

    ## Options
    None.
    """

    CODE = "AEM207"
    NAME = "exception-passthrough-only"
    SUMMARY = "Only the caught exception's own text"
    PROFILES = ("agent", "cli", "http")
    VALID = (
        "from fastmcp.exceptions import ToolError\ndef f(path):\n    try:\n        open(path)\n    except OSError as e:\n        raise ToolError(f'Cannot open {path!r}: {e.strerror}. Call list_files.')\n",
        "from fastmcp.exceptions import ToolError\ntry:\n    g()\nexcept ToolError as e:\n    raise ToolError(str(e))\n",
        "import logging\ntry:\n    g()\nexcept Exception as e:\n    logging.error(f'Error: {e}')\n",
    )
    INVALID = (
        "from fastmcp.exceptions import ToolError\ntry:\n    g()\nexcept Exception as e:\n    raise ToolError(f'Error: {e}')\n",
        "from fastmcp.exceptions import ToolError\ntry:\n    g()\nexcept Exception as e:\n    raise ToolError(str(e))\n",
        "from fastmcp.exceptions import ToolError\ntry:\n    g()\nexcept Exception as e:\n    raise ToolError(f'{type(e).__name__}: {e}')\n",
    )

    def check_part(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        sig = signals(ctx)
        handler = message.context.handlers[0] if message.context.handlers else None
        if traceback_attached(message):
            return
        for template in complete_templates(message):
            if not passthrough_only(template, sig):
                continue
            if relayed_only(template, sig):
                yield self.finding(
                    message,
                    f'"{quote(template.text)}" only passes the upstream\'s error text through',
                    "Say what failed, for which input, and the next step; keep the upstream's text as the cause.",
                )
                return
            if handler is None or not handler.name:
                return  # a converter of arbitrary exceptions passes text through by design
            if not any(n == handler.name or n.startswith(handler.name + ".") for h in template.placeholders for n in h.names):
                continue
            if message.callee and any(t.rsplit(".", 1)[-1] == message.callee.rsplit(".", 1)[-1] for t in handler.types):
                return
            if handler.types and all(AGENT_FACING_ERROR.search(t.rsplit(".", 1)[-1]) for t in handler.types):
                return  # relaying a ToolError's own text: it was written for the agent
            yield self.finding(
                message,
                f'"{quote(template.text)}" only passes the exception text through',
                "Catch the specific exceptions and rewrite each: what failed, for which input, and the next step.",
            )
            return
