"""Tool replies: what a function returns to an MCP client, and how tools are registered.

Records a tool's returns (and a helper's returns that carry error text), the texts of
`CallToolResult(content=[TextContent(...)], isError=True)` and of hand-built `{"isError": True,
"content": ...}` dicts, hand-built JSON-RPC error and result replies, and `add_tool(f)` /
`Tool.from_function(f)` registrations. `ToolReplies` is one part of `Walker` and works on its state.
"""
from __future__ import annotations

import re
from typing import Iterable, Optional

import libcst as cst

from . import framework_sinks, nodes
from .error_envelopes import reply_fields, text_of
from .scope import ReachingScope
from .links import error_text, flow_callees, not_a_server, registered_functions, reply_candidate


# MCP's own method names (also as a handler's name, `answer_tools_call`), fields and text content
# blocks, as a server written without an SDK spells them
MCP_WORDS = re.compile(r"""(?:tools[/_](?:call|list)|resources[/_](?:read|list)|prompts[/_](?:get|list))\b|["'](?:notifications/\w+|protocolVersion|inputSchema|isError)["']|["']type["']\s*:\s*["']text["']""")


class ToolReplies:
    """The tool-reply recognisers of `Walker` (a mixin: it records through `Walker.record`)."""

    def st_Return(self, stmt: cst.Return) -> None:
        if stmt.value is None:
            return
        self.scan(stmt.value)
        scope = ReachingScope(self.scope, self.reaching_now())  # the names as they stand at this return
        if self.returned is not None and not nodes.is_constant(stmt.value):  # for `value_origins._returned_by`
            self.returned.append((stmt.value, scope))
        if self.func is not None:
            self.func.rets |= flow_callees(stmt.value, self)
            if self.func.role not in ("tool", "lowlevel"):
                literal, fields = reply_candidate(stmt.value, scope, self.qualify, bool(self.handlers))
                if literal is not None:  # error text a tool may return: judged once the project shows one does
                    self.record("tool-return", "", stmt, literal, helper=True, fields=fields)
                    text = error_text(literal, fields, bool(self.handlers))
                    if text is not None:
                        self.record("tool-result", "helper", stmt, text, helper=True, is_error=True)
        if self.func is not None and (self.func.role in ("tool", "lowlevel") or self.stacks):
            value = stmt.value
            if isinstance(value, (cst.List, cst.Tuple)) and any(isinstance(el.value, cst.Call) and nodes.last_name(el.value.func) == "TextContent" for el in value.elements):
                for text in self._content_texts(value):  # `[TextContent(type="text", text=json.dumps(payload))]`
                    self._returned_reply(stmt, text, scope, "TextContent")
            else:
                self._returned_reply(stmt, value, scope, "")

    def _returned_reply(self, stmt: cst.Return, value: cst.CSTNode, scope, callee: str) -> None:
        """Record what a tool returns; a dict (or its JSON) is read by its fields, and the text of an
        error dict is recorded for the prose rules (`{"success": False, "message": ...}`)."""
        fields = reply_fields(value, scope, self.qualify)
        if fields is None:
            self.record("tool-return", callee, stmt, value)
            return
        self.record("tool-return", callee, stmt, value, fields=fields)
        text = text_of(fields, bool(self.handlers))
        if text is not None:
            self.record("tool-return", "envelope", stmt, text, envelope=True, siblings=tuple(k for k, v in fields.items() if v is not text))

    def tool_result(self, call: cst.Call, callee: str) -> None:
        flag = nodes.keyword_arg(call, "isError", "is_error")
        content = nodes.call_arg(call, None, "content")
        texts = list(self._content_texts(content))
        if nodes.is_true(flag):
            for text in texts:
                self.record("tool-result", callee, call, text, is_error=True)
        elif self.func is not None:
            for text in texts:
                self.record("tool-output", callee, call, text, flag_given=flag is not None)

    def _content_texts(self, content: Optional[cst.CSTNode]) -> Iterable[cst.CSTNode]:
        if content is None:
            return
        if isinstance(content, cst.Name):
            bound = self.scope.value(content.value)
            if bound is not None and not isinstance(bound, cst.Name):
                yield from self._content_texts(bound)
            return
        if isinstance(content, (cst.List, cst.Tuple)):
            for el in content.elements:
                yield from self._content_texts(el.value)
            return
        if isinstance(content, cst.Call) and nodes.last_name(content.func) == "TextContent":
            text = nodes.call_arg(content, None, "text")
            if text is not None:
                yield text
            return
        if isinstance(content, cst.Dict):
            for el in content.elements:
                if isinstance(el, cst.DictElement) and nodes.string_value(el.key) == "text":
                    yield el.value
            return
        yield content

    def dict_literal(self, node: cst.Dict) -> None:
        keys = nodes.dict_fields(node)
        if ("isError" in keys or "is_error" in keys) and nodes.is_true(keys.get("isError", keys.get("is_error"))):
            sources = [keys["content"]] if "content" in keys else ([keys["text"]] if "text" in keys else [])
            for source in sources:
                for text in self._content_texts(source):
                    self.record("tool-result", "dict", node, text, is_error=True)
        elif "jsonrpc" in keys and not self.speaks_mcp():
            return  # a JSON-RPC service of its own (`ledger.getBalance`), not an MCP server
        elif "jsonrpc" in keys and isinstance(keys.get("error"), cst.Dict):
            inner = {nodes.string_value(el.key): el.value for el in keys["error"].elements if isinstance(el, cst.DictElement)}
            message = inner.get("message")
            if message is not None:
                code = inner.get("code")
                self.record("protocol-error", "jsonrpc", node, message, code=self.code(code) if code is not None else "", raised=False)
        elif "jsonrpc" in keys and "result" in keys:
            for text in framework_sinks.jsonrpc_result_texts(keys, bool(self.handlers)):
                self.record("tool-output", "jsonrpc", node, text, flag_given=False, error_reply=bool(self.handlers))

    def speaks_mcp(self) -> bool:
        """The module speaks MCP: it imports an MCP SDK, or names MCP's own methods or fields, or
        builds its text content blocks (`"tools/call"`, `"protocolVersion"`, `{"type": "text", ...}`:
        a server written by hand). Read once, when the first hand-built JSON-RPC reply is met."""
        if self.stacks:
            return True
        if self._mcp_text is None:
            self._mcp_text = bool(MCP_WORDS.search(self.module.code))
        return self._mcp_text

    def tool_registration(self, call: cst.Call, method: str, base: Optional[cst.CSTNode], options: Optional[cst.Call] = None) -> None:
        """`mcp.add_tool(f)`, `Tool.from_function(f)`, `mcp.tool(f, name="x")`, `mcp.tool(name="x")(f)`
        (`options`: the call that holds the keywords), and each function a loop registers (`for f in
        (a, b): mcp.add_tool(f)`)."""
        fn = nodes.call_arg(call, 0, "fn", "func", "function")
        functions = registered_functions(fn, self.scope)
        if not functions or method == "add_tool" and not_a_server(base, self):
            return  # `toolbox.add_tool(f)` on the project's own registry class is no MCP registration
        named = nodes.string_value(nodes.keyword_arg(options or call, "name"))
        server = nodes.dotted(base) if base is not None else ""
        stack = self.servers.get(server, "")
        if method == "from_function" and not stack:
            stack = next(iter(sorted(self.stacks - {"lowlevel"})), "")
        for function in functions:
            self.registrations.append((function, named if named and len(functions) == 1 else function, stack, server))

