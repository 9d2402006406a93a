"""Error replies: which plain `return`s of an MCP tool report a failure, so that the rules about what
a message leaks or costs (3xx, 4xx) read them as they read a raised error.

A tool's return is an error reply when it is on an error branch (an `except` handler or a guard) of a
tool, or of a function a tool calls, and it reads as one: its text starts or is marked as an error
("Error: ...", "... failed: ..."), carries exception text or a traceback, or it is a dict with an
`error` key. A tool's ordinary result (`return r.text` after a successful call) is its data, not an
error message, and is left alone.
"""
from __future__ import annotations

import libcst as cst

from ..extract import nodes
from ..extract.guards import outcome_read
from ..model import EXCEPTION, TRACEBACK, Message
from ..prose import failure_statements
from .base import CONTENT_SINKS, Rule
from .mcp import ERROR_TEXT, in_tool


def is_error_reply(message: Message) -> bool:
    if message.sink != "tool-return" or not (message.extra.get("helper") or in_tool(message)):
        return False
    if message.extra.get("envelope"):
        return True  # the text of a dict that says it failed (`extract.error_envelopes`)
    if not (message.context.handlers or message.context.guards):
        return False
    expr = message.expr
    if isinstance(expr, cst.Dict):
        return any(isinstance(el, cst.DictElement) and nodes.string_value(el.key) in ("error", "errors", "traceback") for el in expr.elements)
    for template in message.templates:
        if any(h.has(EXCEPTION) or h.has(TRACEBACK) for h in template.placeholders) or reports_failure(message, template.prose):
            return True
    return False


def reports_failure(message: Message, prose: str) -> bool:
    """The text reads as an error: marked as one ("Error: ...", "... failed: ...", "not found"), or a
    failure statement ("gh pr list failed (exit 1)", "could not reach the printer") on a branch that
    handles the failure of an operation the function ran: an `except`, or a test of what a call
    answered (`proc.returncode`, `resp.status_code`, `resp.ok`)."""
    if ERROR_TEXT.search(prose):
        return True
    return bool(failure_statements(prose)) and outcome_branch(message)


def outcome_branch(message: Message) -> bool:
    if message.context.handlers:
        return True
    return any(guard.test is not None and any(outcome_read(n) for n in nodes.iter_expr(guard.test)) for guard in message.context.guards)


class ErrorReplyRule(Rule):
    """A rule that also reads a tool's plain `return` when it is an error reply. A returned error dict
    is read whole (what it leaks or costs) or, with `ENVELOPE_TEXT`, by its text field alone (what
    its prose says)."""

    SINKS = CONTENT_SINKS | {"tool-return"}
    ENVELOPE_TEXT = False

    def applies(self, message: Message) -> bool:
        if not super().applies(message):
            return False
        if message.sink != "tool-return":
            return True
        if self.ENVELOPE_TEXT and isinstance(message.expr, cst.Dict):
            return False  # its text field is a message of its own
        if not self.ENVELOPE_TEXT and message.extra.get("envelope"):
            return False
        return is_error_reply(message)
