"""Requests whose URL holds a secret: a request call whose URL argument is a capability URL, a DSN, a
URL with a token query parameter or a secret value in it (`value_origins`), or whose `params` (its
own, or its client's) has a secret-named key or a secret value. The URL of such a response, or the
text of its HTTP error, leaks the secret; a URL the caller sent, or one with the key in a header,
shows nothing secret.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from ..model import SECRET
from . import nodes
from .value_origins import HTTP_VERBS, NOT_SECRET_PARAM


def request_call(node: Optional[cst.CSTNode]) -> Optional[cst.Call]:
    """The HTTP request call `node` is (`client.get(url)`, `await session.request(...)`), if it is one."""
    if node is not None and node.__class__ is cst.Await:  # exact class tests: see `nodes`
        node = node.expression
    if node is not None and node.__class__ is cst.Call and nodes.last_name(node.func) in HTTP_VERBS:
        return node
    return None


def request_carries_secret(builder, call: cst.Call, depth: int) -> bool:
    """The request's URL may hold a secret: a secret flows into its URL argument (a capability URL, a
    DSN, a token query parameter, a secret value in an f-string, a concatenation, `URL.format(key=K)`
    or `urlencode({...})`), its `params` has a secret-named key or a secret value, or so do the
    `params` of the client it is sent with (`httpx.Client(params={"key": K}).get(url)`)."""
    url = nodes.call_arg(call, 0, "url")
    if url is not None and _carries_secret(builder, url, depth):
        return True
    if _params_secret(builder, nodes.keyword_arg(call, "params"), depth):
        return True
    receiver = call.func.value if call.func.__class__ is cst.Attribute else None  # exact class tests: see `nodes`
    if receiver is not None and receiver.__class__ is cst.Name:
        receiver = builder.scope.value(receiver.value)
    if receiver is not None and receiver.__class__ is cst.Call:  # the client or session it is sent with
        return _params_secret(builder, nodes.keyword_arg(receiver, "params"), depth)
    return False


def _carries_secret(builder, expr: cst.CSTNode, depth: int) -> bool:
    """A secret flows into `expr`: it, a name it is assigned from, or any value inside it is one."""
    if expr.__class__ is cst.Name:
        value = builder.scope.value(expr.value)
        if value is not None and value.__class__ is not cst.Name and depth < 6:
            return _carries_secret(builder, value, depth + 1) or SECRET in builder.classify(expr, depth + 1)[0]
    for node in nodes.iter_expr(expr):
        if node.__class__ in (cst.Name, cst.Attribute, cst.Subscript, cst.FormattedString, cst.ConcatenatedString, cst.SimpleString):
            if SECRET in builder.classify(node, depth + 1)[0]:
                return True
        if node.__class__ is cst.DictElement and _secret_key(node):
            return True
        if node.__class__ is cst.Arg and node.keyword is not None and _secret_key_name(node.keyword.value):
            return True  # `URL.format(api_key=...)`, `urlencode(dict(token=...))`
    return False


def _params_secret(builder, params: Optional[cst.CSTNode], depth: int) -> bool:
    if params is None:
        return False
    if params.__class__ is cst.Dict:
        return any(_secret_key(el) or SECRET in builder.classify(el.value, depth + 1)[0] for el in params.elements
                   if el.__class__ is cst.DictElement)
    return _carries_secret(builder, params, depth)


def _secret_key(element: cst.DictElement) -> bool:
    return _secret_key_name(nodes.string_value(element.key) or "")


def _secret_key_name(key: str) -> bool:
    from .value_names import is_secret_name

    return bool(key) and is_secret_name(key) and not NOT_SECRET_PARAM.match(key)
