"""Which HTTP object a value is: what a server answered (a response) or what the code sends (a request).

A response's headers are the server's metadata; a request's carry the credentials the code sends
(AEM304). A name tells by what it is bound to: what an HTTP call returned (`r = client.get(url)`)
is a response, a request being built (`client.build_request(...)`) is not; an exception's
`.response` is one, its `.request` is not. Only when nothing else says does the name decide
(`response`, `resp`).
"""
from __future__ import annotations

import re

import libcst as cst

from . import nodes

RESPONSE_CALLS = frozenset({"get", "post", "put", "patch", "delete", "head", "options", "request", "send", "urlopen", "fetch"})
REQUEST_BUILDERS = frozenset({"build_request", "Request", "prepare", "prepare_request", "PreparedRequest"})
RESPONSE_NAME = re.compile(r"^(?:r|res|resp|response|http_response|api_response|upstream_response)$")


def is_response(node: cst.CSTNode, scope) -> bool:
    """`node` is what a server answered (see the module docstring)."""
    if node.__class__ is cst.Attribute:  # exact class tests: see `nodes`
        if node.attr.value in ("response", "request"):
            return node.attr.value == "response"
    elif node.__class__ is cst.Name and scope is not None:
        found = scope.lookup(node.value)
        value = found[0].value if len(found) == 1 and found[0].kind == "assign" else None
        if value is not None and value.__class__ is cst.Await:
            value = value.expression
        if value is not None and value.__class__ is cst.Call:
            last = nodes.last_name(value.func) or ""
            if last in REQUEST_BUILDERS:
                return False
            if last in RESPONSE_CALLS:
                return True
    return bool(RESPONSE_NAME.match(nodes.last_name(node) or ""))
