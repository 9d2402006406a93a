"""Which MCP protocol errors are the protocol's own business, read by the client host rather than the
model: an unknown tool name (the spec's own example of a protocol error: the host holds the tool list
and the model only calls listed tools), a handshake or capability code (`METHOD_NOT_FOUND`,
`-32002` resource not found, ...), and a resource handler's not-found. AEM602 leaves these alone, and
the missing-part rules (AEM2xx) do not ask them for a value, an allowed list or a next step.
"""
from __future__ import annotations

import re

from ..model import Message
from .base import FileContext

INTERNAL_CODES = {"-32601", "-32600", "-32700", "METHOD_NOT_FOUND", "MISSING_REQUIRED_CLIENT_CAPABILITY", "-32002", "RESOURCE_NOT_FOUND"}
UNKNOWN_TOOL = re.compile(r"\b(unknown|no such|not a known|invalid) tool\b|\btool\b[^.]*\bnot found\b", re.I)


def host_protocol_error(message: Message, ctx: FileContext) -> bool:
    """A protocol error the client host reads: an internal or handshake code, a resource handler's
    error, or a rejected tool name."""
    if message.sink != "protocol-error":
        return False
    code = str(message.extra.get("code", ""))
    function = message.context.function
    return any(c in code for c in INTERNAL_CODES) or function is not None and function.role == "resource" or unknown_tool(message, ctx)


def unknown_tool(message: Message, ctx: FileContext) -> bool:
    """The message rejects a tool name: its text says so, or a low-level `call_tool` handler's guard
    tests its name argument against the known tools."""
    if any(UNKNOWN_TOOL.search(template.prose) for template in message.templates):
        return True
    function = message.context.function
    if function is not None and function.role == "lowlevel" and function.param_names:
        first = function.param_names[0]
        facts = ctx.guard(message)
        return first in ("name", "tool_name", "tool") and any(m.subject == first and m.allowed for m in facts.memberships)
    return False
