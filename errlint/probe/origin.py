"""Whose text is a reply: the server's own code, or its framework's argument validation?

`reply_origin(text, frameworks)` reads the reply's shape (the framework's prefix and the pydantic
model name it validates against, or the SDK's jsonschema wording) and returns an `Origin`. The
framework's version comes from `frameworks` (package -> version, read from the server's Python
environment by `source.framework_versions`) or, failing that, from the `serverInfo.version` the
server reported. Each origin carries the fix that exists in that framework version, or says that
none does.

Shapes (checked on fastmcp 4.2, mcp 2.3 and mcp 1.30):

- standalone FastMCP (2.x, 3.x, 4.x): "1 validation error for call[<tool>]" (pydantic);
- the mcp SDK's FastMCP (1.x) and MCPServer (2.x): "Error executing tool <tool>: 1 validation error
  for <tool>Arguments" (pydantic);
- the mcp SDK's low-level Server with input validation: "Input validation error: <jsonschema message>".
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Optional

SERVER = "server"

_FASTMCP = re.compile(r"^(?:Error calling tool '[^'\n]*': |Input validation error: )?\d+ validation errors? for call\[[\w.\-]+\]")
_SDK_PYDANTIC = re.compile(r"^Error executing tool [\w.\-]+: \d+ validation errors? for [\w.\-]*Arguments\b")
_SDK_JSONSCHEMA = re.compile(r"^Input validation error: ")


@dataclass(frozen=True)
class Origin:
    """`kind` is "server" or "framework"; for the framework, `framework` names it with its version
    ("fastmcp 4.2.3", "mcp 1.30.0 FastMCP"), `validator` is "pydantic" or "jsonschema" and `fix` the
    way to change the reply in that version (or a sentence saying there is none)."""

    kind: str
    framework: str = ""
    validator: str = ""
    fix: str = ""

    @property
    def label(self) -> str:
        """"server", or e.g. "framework: fastmcp 4.2.3 (pydantic argument validation)"."""
        if self.kind == SERVER:
            return SERVER
        return f"framework: {self.framework} ({self.validator} argument validation)"


SERVER_ORIGIN = Origin(SERVER)


def _major(version: str) -> Optional[int]:
    match = re.match(r"(\d+)", version or "")
    return int(match.group(1)) if match else None


def _minor(version: str) -> int:
    match = re.match(r"\d+\.(\d+)", version or "")
    return int(match.group(1)) if match else 0


def reply_origin(text: str, frameworks: Dict[str, str], server_version: str = "") -> Origin:
    """The origin of a reply's text (see the module docstring)."""
    stripped = text.strip()
    if _FASTMCP.match(stripped):
        version = frameworks.get("fastmcp") or ""
        return Origin("framework", f"fastmcp {version}".strip(), "pydantic", _fastmcp_fix(version))
    if _SDK_PYDANTIC.match(stripped):
        version = frameworks.get("mcp") or ""
        major = _major(version) if version else None
        if major is None and _major(server_version) == 1:
            version, major = server_version, 1  # mcp 1.x FastMCP reports the SDK's version as its own
        if major is not None and major >= 2:
            name = f"mcp {version} MCPServer"
            fix = ("subclass MCPServer and override `async def call_tool(self, name, arguments, context=None)`: call "
                   "`super().call_tool(...)`, catch the ToolError whose __cause__ is a pydantic ValidationError and raise "
                   "ToolError with one line per error (`<argument>: <problem>; allowed: ...`) from "
                   "`exc.__cause__.errors(include_url=False)`")
        else:
            name = f"mcp {version} FastMCP".replace("mcp  ", "mcp ") if version else "mcp SDK FastMCP (1.x) or MCPServer (2.x)"
            fix = ("FastMCP in the mcp SDK has no middleware or hook for argument-validation errors; subclass FastMCP and "
                   "override `async def call_tool(self, name, arguments)`: call `super().call_tool(...)`, catch the ToolError "
                   "whose __cause__ is a pydantic ValidationError and raise ToolError with one line per error "
                   "(`<argument>: <problem>; allowed: ...`)")
        return Origin("framework", name, "pydantic", fix)
    if _SDK_JSONSCHEMA.match(stripped):
        version = frameworks.get("mcp") or ""
        name = f"mcp {version} low-level Server".replace("mcp  ", "mcp ") if version else "mcp SDK low-level Server"
        fix = ("the SDK writes this line from the jsonschema error and has no hook to reword it; register the handler with "
               "`@server.call_tool(validate_input=False)` and validate the arguments in the handler, answering with "
               "`<argument>: <problem>; allowed: ...`")
        return Origin("framework", name, "jsonschema", fix)
    return SERVER_ORIGIN


def _fastmcp_fix(version: str) -> str:
    major = _major(version)
    if major is not None and (major > 2 or (major == 2 and _minor(version) >= 9)):
        return ("add a Middleware (fastmcp.server.middleware) whose `on_call_tool` catches fastmcp.exceptions.ValidationError "
                "and raises ToolError with one line per error from `exc.__cause__.errors(include_url=False)` "
                "(`<argument>: <problem>; allowed: ...`)")
    if major is not None:
        return (f"fastmcp {version} has no middleware (it came in 2.9) and no hook for argument-validation errors; "
                "upgrade to fastmcp >= 2.9 and rewrite them in a Middleware's `on_call_tool`, or take loosely typed "
                "arguments and validate them in the tool with ToolError")
    return ("with fastmcp >= 2.9 a Middleware's `on_call_tool` can catch fastmcp.exceptions.ValidationError and raise "
            "ToolError with one line per error; older versions have no hook for it")
