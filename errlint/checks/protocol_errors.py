"""Which MCP protocol errors are the protocol's own business, read by the client host rather than the
model.

- AEM602 leaves alone every protocol error with a handshake or capability code (`METHOD_NOT_FOUND`,
  `-32002` resource not found, ...), every one a resource handler raises, and an unknown tool name.
- The missing-part rules (AEM2xx) skip fewer: a rejected tool name (the spec's own example of a
  protocol error; the host holds the tool list and the model only calls listed tools) and a
  resource not found (the host picks resources from `resources/list`). Any other code, such as an
  argument check raised with `METHOD_NOT_FOUND`, is still judged for its parts.
"""
from __future__ import annotations

import re

from ..model import Message
from .base import FileContext

INTERNAL_CODES = {"-32601", "-32600", "-32700", "METHOD_NOT_FOUND", "MISSING_REQUIRED_CLIENT_CAPABILITY", "-32002", "RESOURCE_NOT_FOUND"}
NOT_FOUND_CODES = {"-32002", "RESOURCE_NOT_FOUND"}
# a tool *name* rejected ("Unknown tool: x", "Tool 'x' not found"), not a tool's arguments ("Invalid
# tool arguments") or a value a tool looked up ("Tool convert: unit 'x' not found")
UNKNOWN_TOOL = re.compile(
    r"\b(?:unknown|no such|not a known|unrecognized|invalid) tool(?: name)?\b(?!\s+(?:arguments?|args|input|parameters?|params|call|result|output)\b)"
    r"|\btool(?: name(?:d)?)? ['\"`{]?[\w.{}-]+['\"`}]?(?: is| was)? not (?:found|registered|available)\b|\btool not found\b", re.I)


def protocol_business(message: Message, ctx: FileContext) -> bool:
    """AEM602's exemption: a handshake or capability code, a resource handler's error, or a rejected
    tool name."""
    code = str(message.extra.get("code", ""))
    function = message.context.function
    return any(c in code for c in INTERNAL_CODES) or function is not None and function.role == "resource" or unknown_tool(message, ctx)


def host_protocol_error(message: Message, ctx: FileContext) -> bool:
    """A protocol error only the client host acts on, which needs no missing part: a rejected tool
    name, or a resource not found."""
    if message.sink != "protocol-error":
        return False
    code = str(message.extra.get("code", ""))
    return any(c in code for c in NOT_FOUND_CODES) or unknown_tool(message, ctx)


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
