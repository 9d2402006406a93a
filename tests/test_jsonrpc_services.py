"""A hand-built JSON-RPC reply is an MCP reply only in a module that speaks MCP
(`tool_replies.ToolReplies.speaks_mcp`): one that imports an MCP SDK, or names MCP's methods
(`"tools/call"`, a handler named `answer_tools_call`), fields (`"protocolVersion"`, `"isError"`) or
text content blocks. JSON-RPC is also the protocol of language servers, wallets and ledgers, whose
error objects AEM602 and AEM601 do not judge.
"""
from __future__ import annotations

import pytest

from conftest import at

SERVICE = """import json
import sys
{prelude}


def {handler}(req_id, params):
    account = params.get("account")
    if account not in ACCOUNTS:
        return {{"jsonrpc": "2.0", "id": req_id, "error": {{"code": -32602, "message": f"Unknown account {{account!r}}"}}}}
    return {{"jsonrpc": "2.0", "id": req_id, "result": {result}}}
"""


@pytest.mark.parametrize("prelude, handler, result", [
    ("", "answer_tools_call", "ACCOUNTS[account]"),
    ("METHODS = {'tools/call': None, 'tools/list': None}", "dispatch", "ACCOUNTS[account]"),
    ("", "dispatch", "{'content': [{'type': 'text', 'text': str(ACCOUNTS[account])}]}"),
    ("from mcp.server.lowlevel import Server", "dispatch", "ACCOUNTS[account]"),
])
def test_a_json_rpc_error_in_a_module_that_speaks_mcp(prelude, handler, result):
    code = SERVICE.format(prelude=prelude, handler=handler, result=result)
    assert at(code, select=["AEM602"]) == [(9, "AEM602")]


@pytest.mark.parametrize("prelude, handler", [
    ("", "get_balance"),
    ("METHODS = {'ledger.getBalance': None}", "dispatch"),
    ("from aiohttp import web", "rpc"),
])
def test_a_json_rpc_service_that_is_not_mcp(prelude, handler):
    code = SERVICE.format(prelude=prelude, handler=handler, result="ACCOUNTS[account]")
    assert at(code, select=["AEM602", "AEM601"]) == []
