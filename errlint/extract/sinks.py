"""The sink catalogue: which calls emit error text, where the message is, and who reads it.

Each entry is a call its library documents as a way to report an error; what each MCP stack then
sends to the model (masked or not) is in `extract/tool_error_converters.py` (`UNMASKED`, AEM603) and docs/rules.md.
Names are matched after import aliases are resolved (`from click import BadParameter as BP` makes
`BP` mean `click.BadParameter`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple

SINK_KINDS = (
    "raise",           # a raised exception whose audience depends on where it is raised
    "tool-error",      # MCP ToolError / ResourceError: text goes to the model
    "protocol-error",  # McpError / MCPError / a JSON-RPC error object: a protocol error
    "tool-result",     # CallToolResult / ToolResult / {"isError": True, ...}
    "tool-return",     # a plain `return` from a registered tool (AEM601)
    "tool-output",     # a CallToolResult/ToolResult without isError=True (AEM601 only)
    "agent-error",     # pydantic-ai ModelRetry, langchain ToolException, arcade errors
    "notify",          # MCP ctx.error(...) log notifications sent to the client
    "cli-error",       # click/typer/argparse error paths
    "exit",            # sys.exit("text"), raise SystemExit("text")
    "stderr",          # print(..., file=sys.stderr), sys.stderr.write, echo(err=True)
    "stdout",          # print()/echo() to stdout right before a non-zero exit (AEM606 only)
    "stdio-print",     # print() to stdout in a module of an MCP server that may run over stdio (AEM607 only)
    "log",             # logging calls
    "warn",            # warnings.warn
    "http",            # HTTPException(detail=...), abort(...), Django/DRF ValidationError
    "class-default",   # class-level default message of an exception class in the file
    "validator",       # pydantic validator errors (PydanticCustomError, raise in @field_validator)
)

PROFILE_OF_KIND = {
    "raise": "exc",
    "tool-error": "agent",
    "protocol-error": "agent",
    "tool-result": "agent",
    "tool-return": "agent",
    "tool-output": "agent",
    "agent-error": "agent",
    "notify": "log",  # an MCP log notification: the client logs it, the agent does not act on it
    "cli-error": "cli",
    "exit": "cli",
    "stderr": "cli",
    "stdout": "cli",
    "stdio-print": "agent",
    "log": "log",
    "warn": "log",
    "http": "http",
    "class-default": "exc",
    "validator": "exc",
}

# MCP server constructors -> stack id. mcp1 = mcp 1.x FastMCP; mcp2 = mcp 2.x MCPServer; fastmcp =
# standalone FastMCP; lowlevel = mcp's low-level Server (v1 decorator or v2 on_call_tool callback).
SERVER_CLASSES: Dict[str, str] = {
    "mcp.server.fastmcp.FastMCP": "mcp1",
    "mcp.server.fastmcp.server.FastMCP": "mcp1",
    "mcp.server.mcpserver.MCPServer": "mcp2",
    "mcp.server.mcpserver.server.MCPServer": "mcp2",
    "mcp.MCPServer": "mcp2",
    "fastmcp.FastMCP": "fastmcp",
    "fastmcp.server.FastMCP": "fastmcp",
    "fastmcp.server.server.FastMCP": "fastmcp",
    "mcp.server.lowlevel.Server": "lowlevel",
    "mcp.server.lowlevel.server.Server": "lowlevel",
    "mcp.server.Server": "lowlevel",
}

TOOL_ERROR_IMPORT = {
    "mcp1": ("mcp.server.fastmcp.exceptions", "ToolError"),
    "mcp2": ("mcp.server.mcpserver.exceptions", "ToolError"),
    "fastmcp": ("fastmcp.exceptions", "ToolError"),
}

ARG_MESSAGE_KEYWORDS = ("message", "msg", "detail", "description", "reason", "text", "error", "err_msg", "error_message")

# Exceptions that are interface markers or control flow, not messages (global FP traps).
NOT_MESSAGES = {
    "NotImplementedError", "StopIteration", "StopAsyncIteration", "KeyboardInterrupt", "GeneratorExit",
    "AssertionError", "SystemExit", "click.Abort", "typer.Abort", "typer.Exit", "click.exceptions.Exit",
    "click.exceptions.Abort", "asyncio.CancelledError", "CancelledError", "Abort", "Exit",
}

# Library exception classes whose first argument is not the message: where the message is (a
# position), or None when they take none (the text is the library's own, built from a type or code).
MESSAGE_POSITIONS = {
    "pydantic_core.PydanticKnownError": None,  # (error_type, context): pydantic's text for the type
    "pydantic_core.PydanticCustomError": 1,  # (error_type, message_template, context)
    "pydantic_core.PydanticOmit": None, "pydantic_core.PydanticUseDefault": None,
    "subprocess.CalledProcessError": None,  # (returncode, cmd, output, stderr)
    "subprocess.TimeoutExpired": None,  # (cmd, timeout)
    "UnicodeDecodeError": 4, "UnicodeEncodeError": 4,  # (encoding, object, start, end, reason)
}

# Raised bare as control flow (end of input, missing key or attribute, exhausted iterator): a
# messageless raise of these is a signal to the caller, not a message.
CONTROL_FLOW = {"EOFError", "KeyError", "IndexError", "AttributeError", "LookupError", "TimeoutError", "InterruptedError", "BrokenPipeError"}

BUILTIN_EXCEPTIONS = {
    "Exception", "BaseException", "ValueError", "TypeError", "KeyError", "IndexError", "LookupError",
    "RuntimeError", "OSError", "IOError", "EnvironmentError", "FileNotFoundError", "FileExistsError",
    "PermissionError", "IsADirectoryError", "NotADirectoryError", "ConnectionError", "TimeoutError",
    "AttributeError", "NameError", "ImportError", "ModuleNotFoundError", "ArithmeticError",
    "ZeroDivisionError", "OverflowError", "UnicodeError", "UnicodeDecodeError", "UnicodeEncodeError",
    "EOFError", "MemoryError", "BufferError", "ReferenceError", "ChildProcessError", "BrokenPipeError",
    "ConnectionAbortedError", "ConnectionRefusedError", "ConnectionResetError", "InterruptedError",
    "ProcessLookupError", "BlockingIOError", "RecursionError", "SyntaxError", "UnboundLocalError",
}

LOG_METHODS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"}


@dataclass(frozen=True)
class Spec:
    """Where a sink's message is: positional index and/or keyword names; `kind` per SINK_KINDS."""

    kind: str
    position: Optional[int] = 0
    keywords: Tuple[str, ...] = ("message",)


_CLICK = {
    "ClickException": Spec("cli-error"),
    "UsageError": Spec("cli-error"),
    "BadParameter": Spec("cli-error"),
    "MissingParameter": Spec("cli-error"),
    "BadArgumentUsage": Spec("cli-error"),
    "NoSuchOption": Spec("cli-error", 1),
    "BadOptionUsage": Spec("cli-error", 1),
    "FileError": Spec("cli-error", 1, ("hint",)),
}
_HTTP = {
    "fastapi.HTTPException": Spec("http", 1, ("detail",)),
    "fastapi.exceptions.HTTPException": Spec("http", 1, ("detail",)),
    "starlette.exceptions.HTTPException": Spec("http", 1, ("detail",)),
    "fastapi.WebSocketException": Spec("http", 1, ("reason",)),
    "starlette.exceptions.WebSocketException": Spec("http", 1, ("reason",)),
    "flask.abort": Spec("http", 1, ("description",)),
    "werkzeug.exceptions.abort": Spec("http", 1, ("description",)),
    "django.core.exceptions.ValidationError": Spec("http", 0, ("message",)),
    "pydantic_core.PydanticCustomError": Spec("validator", 1, ("message_template",)),
}
_AGENT = {
    "pydantic_ai.ModelRetry": Spec("agent-error"),
    "pydantic_ai.exceptions.ModelRetry": Spec("agent-error"),
    "langchain_core.tools.ToolException": Spec("agent-error"),
    "langchain.tools.ToolException": Spec("agent-error"),
    "langchain_core.tools.base.ToolException": Spec("agent-error"),
}


def classify_callee(qualified: str) -> Optional[Spec]:
    """The sink spec for a called name, or None when calling it emits no error text by itself.

    Generic exception classes are not listed: a `raise` makes any call a sink (see walker).
    """
    if not qualified:
        return None
    head, _, last = qualified.rpartition(".")
    top = qualified.split(".", 1)[0]
    if top in ("mcp", "fastmcp", "mcp_types"):
        if last in ("ToolError", "ResourceError", "PromptError"):
            return Spec("tool-error", 0, ("message",))
        if last == "MCPError":
            return Spec("protocol-error", 1, ("message",))
        if last == "McpError":
            return Spec("protocol-error", 0, ("error",))
        if last in ("CallToolResult", "ToolResult"):
            return Spec("tool-result", None, ("content",))
        if last == "UrlElicitationRequiredError":
            return None
    if top == "arcade_tdk" or top == "arcade_core":
        if last.endswith("Error"):
            return Spec("agent-error", 0, ("message",))
    if qualified in _AGENT:
        return _AGENT[qualified]
    if top in ("click", "typer") and last in _CLICK:
        return _CLICK[last]
    if qualified in ("argparse.ArgumentTypeError",):
        return Spec("cli-error")
    if qualified == "argparse.ArgumentError":
        return Spec("cli-error", 1)
    if qualified in _HTTP:
        return _HTTP[qualified]
    if top == "werkzeug" and head == "werkzeug.exceptions" and last[:1].isupper():
        return Spec("http", 0, ("description",))
    if top == "aiohttp" and last.startswith("HTTP") and last[4:5].isupper():
        return Spec("http", None, ("text", "reason", "body"))
    if top == "rest_framework" and (head.startswith("rest_framework.exceptions") or qualified == "rest_framework.serializers.ValidationError"):
        return Spec("http", 0, ("detail",))
    if qualified in ("warnings.warn",):
        return Spec("warn", 0, ("message",))
    return None


def server_stack(qualified: str) -> str:
    """The MCP stack id for a server constructor's qualified name, or ""."""
    return SERVER_CLASSES.get(qualified, "")
