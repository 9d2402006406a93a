"""AEM207: a message that is only a generic prefix plus the caught exception's own text (or an
upstream's error text read from its reply), which was written for another program's developers.
"""
from __future__ import annotations

import re
from typing import Iterable

from ..extract.catching import GENERIC_CATCH
from ..model import Finding, Message
from .base import FileContext, complete_templates, quote, traceback_attached
from .part_rule import PartRule, passthrough_only, relayed_only
from .vague import signals

# exceptions whose text is not written for the reader: a key's repr, an attribute name, a status
# line without the reply's body
POOR_TEXT = re.compile(r"^(KeyError|IndexError|LookupError|AttributeError|TypeError|StopIteration|AssertionError|HTTPError|HTTPStatusError|RequestException|RequestError)$")
AGENT_FACING_ERROR = re.compile(r"^(ToolError|ResourceError|PromptError|McpError|MCPError|HTTPException|UsageError|BadParameter)$")


def _unknown_text(types) -> bool:
    """The caught exception's text is nobody's choice: a catch-all (the text may come from anything
    in the `try`) or a class whose text is not written for a reader."""
    return not types or any(t.rsplit(".", 1)[-1] in GENERIC_CATCH or POOR_TEXT.match(t.rsplit(".", 1)[-1]) for t in types)


# words of a wrapper that say only that something failed ("Caught Exception. Error: {e}")
WRAPPER_WORDS = frozenset({"caught", "exception", "exceptions", "error", "errors", "failed", "failure", "occurred",
                           "unexpected", "unhandled", "raised", "details", "detail", "message", "reason", "something"})


def _names_failure(template, sig) -> bool:
    """The prefix names the operation or the input that failed ("Invalid timezone: {e}")."""
    return any(w.lower() not in WRAPPER_WORDS for w in sig.content_words(template))


class ExceptionPassthroughOnly(PartRule):
    """## What it does
    Flags a message that is only a generic prefix plus the caught exception's text:
    `f"Error: {e}"`, `str(e)`, `f"{type(e).__name__}: {e}"`, or plus an upstream's own error text
    read from its reply (`f"Tool failed: {result.get('error')}"`). The exception's text must be
    nobody's choice: caught by a catch-all (it may come from anything in the `try`), or of a class
    whose text is not written for a reader (a `KeyError`'s repr, an HTTP status line without the
    reply's body). A specific class the code caught for its text (`sqlite3.OperationalError`) and a
    prefix that names the failed operation or input ("Invalid timezone: {e}") are deliberate relays.

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
            if not _unknown_text(handler.types) or _names_failure(template, sig):
                return  # a class the code chose for its text (`sqlite3.OperationalError`), or a prefix that names the failure
            yield self.finding(
                message,
                f'"{quote(template.text)}" only passes the exception text through',
                "Catch the specific exceptions and rewrite each: what failed, for which input, and the next step.",
            )
            return
