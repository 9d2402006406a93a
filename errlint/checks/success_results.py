"""AEM601: an error returned as a tool's successful result (`return f"Error: {e}"`, an error envelope
`{"success": False, "error": ...}`), which the client reads with isError=false. The MCP stacks and
their names are in `checks.mcp`."""
from __future__ import annotations

import re
from typing import Dict, Iterable, Optional

import libcst as cst

from ..extract.error_envelopes import ERROR_FIELDS, FLAG_FIELDS, flagged, text_of
from ..extract.sinks import TOOL_ERROR_IMPORT
from ..fixes import call_arg_edit, node_edit
from ..model import EXCEPTION, Applicability, Finding, Fix, Message
from .base import FileContext, Rule, quote
from .error_replies import reports_failure
from .mcp import detected_stack, in_tool, tool_error_fix

ZERO_RESULTS = re.compile(r"^\W*no (results|matches|items|entries|records|rows)\b", re.I)


class ErrorReturnedAsSuccess(Rule):
    """## What it does
    In a registered MCP tool, flags a `return` of error text (starting with or containing "Error",
    "Failed", "Exception", "Unable to", "not found", or the caught exception's text) from an `except`
    handler or an error branch, a low-level handler returning `[TextContent(text="Error...")]`, and a
    `CallToolResult` with error text and no `isError=True`. "No results" answers are not errors.

    ## Why is this bad?
    A returned string is a success: `isError` is false, so clients and agents treat the error text as
    data (the SDK docs: never return an error message from a tool).

    ## Example
    ```python
    @mcp.tool()
    def read(path: str) -> str:
        try:
            return open(path).read()
        except OSError as e:
            return f"Error: {e}"
    ```

    Use instead:
    ```python
        except FileNotFoundError:
            raise ToolError(f"No file at {path!r}; call list_files to see the workspace.")
    ```

    ## Fix safety
    Unsafe: `return X` becomes `raise ToolError(X)` (import for the detected stack), which changes the
    tool's result type.

    ## Options
    None.
    """

    CODE = "AEM601"
    NAME = "error-returned-as-success"
    SUMMARY = "Error text returned as a successful tool result"
    PROFILES = ("agent",)
    SINKS = frozenset({"tool-return", "tool-output"})
    FIX = Applicability.UNSAFE
    VALID = (
        "from mcp.types import CallToolResult, TextContent\ndef lint(n):\n    return CallToolResult(isError=False, content=[TextContent(type='text', text=f'Found {n} style issues; no errors.')])\n",
        "from fastmcp import FastMCP\nmcp = FastMCP('x')\n@mcp.tool()\ndef search(q: str) -> str:\n    if not q:\n        return 'No results for an empty query.'\n    return 'ok'\n",
        "from fastmcp import FastMCP\nmcp = FastMCP('x')\n@mcp.tool()\ndef greet(name: str) -> str:\n    return 'Hello {}, nothing went wrong today.'.format(name)\n",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef read(path: str) -> str:\n    try:\n        return open(path).read()\n    except OSError as e:\n        raise ToolError(f'Cannot read {path!r}: {e.strerror}')\n",
    )
    INVALID = (
        "from fastmcp import FastMCP\nmcp = FastMCP('x')\n@mcp.tool()\ndef read(path: str) -> str:\n    try:\n        return open(path).read()\n    except OSError as e:\n        return f'Error: {e}'\n",
        "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n@mcp.tool()\ndef get(item_id: str) -> str:\n    if item_id not in {'a'}:\n        return f'Item {item_id} not found'\n    return 'a'\n",
        "from fastmcp import FastMCP\nmcp = FastMCP('x')\n@mcp.tool()\ndef run(cmd: str) -> dict:\n    try:\n        return {'out': go(cmd)}\n    except Exception as e:\n        return {'error': str(e)}\n",
        "from mcp.types import CallToolResult, TextContent\ndef missing(name):\n    return CallToolResult(content=[TextContent(type='text', text=f'Error: {name} not found')])\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if message.extra.get("envelope"):
            return  # the text of a returned error dict: the dict's own message reports it
        if message.sink == "tool-output":
            if message.extra.get("flag_given"):
                return  # isError=False written out: a deliberate success
        elif not message.extra.get("helper") and (not in_tool(message) or message.context.function.role not in ("tool", "lowlevel")):
            return
        error_branch = bool(message.context.handlers) or bool(message.context.guards)
        expr = message.expr
        fields = message.extra.get("fields")
        if fields is not None and message.sink == "tool-return":
            what = _envelope(fields, error_branch, bool(message.context.handlers))
            if what:
                yield self._finding(message, ctx, what)
            return
        if isinstance(expr, cst.Name) and message.scope is not None and any(b.kind == "aug" for b in message.scope.bindings.get(expr.value, ())):
            return  # `result += "Tools not found: ..."`: a note appended to real output, a partial success
        for template in message.templates:
            text = template.prose
            if not text.strip() or ZERO_RESULTS.search(text):
                continue
            exception_text = any(h.has(EXCEPTION) for h in template.placeholders)
            error_reply = message.extra.get("error_reply")  # a JSON-RPC result built in an except handler
            if (reports_failure(message, text) or exception_text or error_reply) and (error_branch or message.sink == "tool-output"):
                yield self._finding(message, ctx, f'"{quote(template.text, 40)}"')
                return

    def _finding(self, message: Message, ctx: FileContext, what: str) -> Finding:
        stack = detected_stack(message, ctx)
        module, name = TOOL_ERROR_IMPORT.get(stack, ("fastmcp.exceptions", "ToolError"))
        how = "raise ToolError(...)" if message.sink == "tool-return" else "set isError=True (is_error=True on mcp 2.x/fastmcp)"
        return self.finding(
            message,
            f"the tool returns {what} as a successful result; the client sees isError=false",
            f"{how[0].upper() + how[1:]} instead (from {module} import {name}).",
            anchor=message.node,
            fix=None if message.extra.get("helper") else self._fix(message, ctx, stack),
        )

    def _fix(self, message: Message, ctx: FileContext, stack: str) -> Optional[Fix]:
        node = message.node
        if message.sink == "tool-output" and isinstance(node, cst.Call):
            flag = "isError=True" if stack in ("mcp1", "lowlevel1", "lowlevel") else "is_error=True"
            edit = call_arg_edit(node, ctx.code, flag)
            return Fix(Applicability.UNSAFE, f"Add `{flag}`", (edit,)) if edit else None
        if message.sink == "tool-return" and isinstance(node, cst.Return) and message.callee == "" and node.value is not None:
            value = ctx.code(node.value)
            return tool_error_fix(ctx, stack, "Raise ToolError instead of returning the error", [node_edit(node, ctx.code, f"raise ToolError({value})")])
        return None


def _envelope(found: Dict[str, cst.CSTNode], error_branch: bool, in_handler: bool) -> str:
    """What makes a returned dict an error envelope (`extract.error_envelopes`), or "":
    - a flag of the call's own outcome (`"success": False`, `"ok": False`) beside a text field;
    - a failure status (`"status": "error"`) inside an except handler: elsewhere it may be the
      state of a thing the tool reports on (a job that failed), which is data;
    - an `error` field in an error branch (a guard or a handler), unless the dict also reports a
      `state` outside a handler (a job's last error)."""
    text = text_of(found, in_handler)
    keys = {k.lower() for k in found}
    if text is None or keys & VERDICT_FIELDS:
        return ""  # `{"valid": False, "error": ...}`: a validating tool's answer is its verdict
    failed = flagged(found)
    own_flag = keys & FLAG_FIELDS
    if failed and own_flag:
        return f"a dict flagged `{next(k for k in found if k.lower() in FLAG_FIELDS)}: False`"
    if failed and not in_handler:
        return ""  # `{"status": "failed", "error": job.failure_reason}`: the state of what the tool reports on
    if failed:
        return "a dict with a failure status"
    if keys & ERROR_FIELDS and error_branch and (in_handler or "state" not in keys):
        return "a dict with an `error` key"
    return ""


# a tool whose answer is a verdict (a validator, a linter, a policy check) reports a failed check as
# its result: `{"valid": False, "error": "line 3: unexpected token"}`
VERDICT_FIELDS = frozenset({"valid", "is_valid", "passed", "passes", "compliant", "allowed", "is_allowed", "matches", "approved"})
