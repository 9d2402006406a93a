"""Is a failure transient (retrying later may work), read from what the code caught or tested.

- **Caught classes**: timeouts, refused or dropped connections, rate limits (`TRANSIENT_TYPES`,
  matched on the class's last name: `httpx.ReadTimeout`, `aiohttp.ClientConnectorError`,
  `ConnectionResetError`), when every class the handler catches is one.
- **An HTTP client's base class that its status errors cannot reach**: `httpx.HTTPError`,
  `requests.RequestException`, `aiohttp.ClientError` and `urllib.error.URLError` also cover the
  client's status error (a 4xx is the caller's to fix). The handler gets transport failures only
  when an earlier `except` of the same `try` takes the status error (`except requests.HTTPError:`
  first), or when nothing in the `try` raises one: no `raise_for_status()`, and every call is a
  request method (`client.get(url)`; `urlopen` raises `HTTPError` itself).
- **A deadline that passed**: a guard that reads a name computed from a clock reading
  (`time.monotonic()`, `time.time()`, `loop.time()`, `datetime.now()`): a start or deadline of this run
  (`start = time.monotonic()` ... `if time.monotonic() - start > limit:`; `remaining = deadline -
  time.monotonic(); if remaining <= 0:`). A clock read only in the test itself against a stored
  value (`if time.time() > token.expires_at:`) is an expiry: waiting does not help.
- **A transient HTTP status** (408, 425, 429, 5xx) that the sink's branch can have (`context.py`).
- **Retries that ran out** (`retry_loop`): the statement after a `for`/`while` loop whose body tries
  a call and, on a transient failure, goes round again (sleeps, `continue`s) instead of leaving.
"""
from __future__ import annotations

import re
from typing import List, Optional, Set, Tuple

import libcst as cst

from ..model import Handler, Message
from . import nodes
from .catching import handler_types

TRANSIENT_TYPES = re.compile(
    r"(Timeout\w*|ConnectionError|ConnectError|Connection(Refused|Reset|Aborted)Error|BrokenPipeError|"
    r"RemoteDisconnected|ServerDisconnected\w*|ServiceUnavailable\w*|TooManyRequests\w*|RateLimit\w*|Throttl\w*|"
    r"NetworkError|TransportError|ProtocolError|ClientConnection\w*|ClientConnector\w*|ServerTimeout\w*)$"
)
TRANSIENT_STATUSES = {408, 425, 429, 500, 502, 503, 504}

# an HTTP client's base class -> its status error (the subclass a 4xx/5xx reply raises)
CLIENT_BASES = {
    "httpx.HTTPError": "HTTPStatusError",
    "httpx.RequestError": "",  # transport failures only
    "requests.RequestException": "HTTPError",
    "requests.exceptions.RequestException": "HTTPError",
    "aiohttp.ClientError": "ClientResponseError",
    "aiohttp.client_exceptions.ClientError": "ClientResponseError",
    "urllib.error.URLError": "HTTPError",
}
STATUS_RAISERS = re.compile(r"(^|\.)(raise_for_status|urlopen)$")
REQUEST_METHODS = frozenset({"get", "post", "put", "patch", "delete", "head", "options", "request", "send", "stream", "fetch"})
CLOCK = re.compile(r"(^|\.)(monotonic|monotonic_ns|perf_counter|perf_counter_ns|time|time_ns|now|utcnow)$")
CLOCK_OWNERS = re.compile(r"^(time|datetime|datetime\.datetime|timezone|django\.utils\.timezone|asyncio\.get_event_loop\(\)|asyncio\.get_running_loop\(\))$")


def transient_handler(handler: Handler) -> bool:
    """Every class `handler` catches is a transient failure's, or a client base the status errors cannot reach."""
    if not handler.types or "" in handler.types:
        return False
    return all(TRANSIENT_TYPES.search(t.rsplit(".", 1)[-1]) or _transport_only(t, handler) for t in handler.types)


def _transport_only(caught: str, handler: Handler) -> bool:
    status = CLIENT_BASES.get(caught)
    if status is None:
        return False
    if not status or any(t.rsplit(".", 1)[-1] == status for t in handler.earlier):
        return True
    if not handler.try_calls:
        return False
    return not any(STATUS_RAISERS.search(c) for c in handler.try_calls) and all(
        c.rsplit(".", 1)[-1] in REQUEST_METHODS for c in handler.try_calls)


def deadline_passed(message: Message) -> bool:
    """The innermost guard reads a clock reading kept in a name: a deadline or time budget ran out. In an
    `except` handler only the guards inside the handler count (one around the `try` chose the branch)."""
    guards = list(message.context.guards)
    if message.context.handlers:
        guards = guards[:max(0, len(guards) - message.context.handlers[0].guard_depth)]
    guards = [g for g in guards if g.kind != "fallthrough" and g.test is not None]
    if not guards or guards[0].negated:
        return False
    return any(_reads_clock(side, message.scope, set(), 0) for side in _ordered_operands(guards[0].test))


ORDERING = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)


def _ordered_operands(test: cst.CSTNode):
    """The operands of the ordering comparisons in a test (`remaining <= 0`, `now - start > limit`):
    a deadline is a time past a bound, not a date told apart (`round_trip != local_time`)."""
    for node in nodes.iter_expr(test):
        if isinstance(node, cst.Comparison) and all(isinstance(c.operator, ORDERING) for c in node.comparisons):
            yield node.left
            for c in node.comparisons:
                yield c.comparator


def _reads_clock(node: cst.CSTNode, scope, seen: Set[str], depth: int) -> bool:
    if depth > 4:
        return False
    for child in nodes.iter_expr(node):
        if depth and isinstance(child, cst.Call) and _clock_call(child):
            return True  # a reading kept in a name: a start or deadline of this run, not a stored expiry
        if isinstance(child, cst.Name) and child.value not in seen and scope is not None:
            seen.add(child.value)
            for binding in scope.lookup(child.value):
                value: Optional[cst.CSTNode] = binding.value if binding.kind in ("assign", "aug") else None
                if value is not None and _reads_clock(value, scope, seen, depth + 1):
                    return True
    return False


def _clock_call(call: cst.Call) -> bool:
    """`time.monotonic()`, `loop.time()`, `asyncio.get_running_loop().time()`, `datetime.now(tz)`."""
    func = call.func
    if not isinstance(func, cst.Attribute) or not CLOCK.search(func.attr.value):
        return False
    owner = func.value
    name = nodes.dotted(owner.func) + "()" if isinstance(owner, cst.Call) else nodes.dotted(owner)
    return bool(CLOCK_OWNERS.match(name)) or name.rsplit(".", 1)[-1].endswith("loop")


def is_transient(message: Message, statuses: Set[int]) -> bool:
    """A timeout, a connection failure, a deadline that passed, a 429/5xx status, or the end of a loop
    that retried one of those: retrying later may work."""
    if message.context.after_retries:
        return True
    for handler in message.context.handlers[:1]:
        if transient_handler(handler):
            return True
    if statuses & TRANSIENT_STATUSES:
        return True
    return deadline_passed(message) or handles_transient(message.context.function)


# decorators that register a function as the handler of an exception class (FastAPI/Starlette,
# Flask, aiohttp middlewares by class); its replies answer that failure
EXCEPTION_HANDLER_DECORATORS = frozenset({"exception_handler", "errorhandler", "app_errorhandler", "register_error_handler"})


def handled_types(function, name_of=nodes.dotted) -> List[Tuple[str, ...]]:
    """The exception classes each decorator of `function` registers it to handle, one tuple per
    decorator (`@app.errorhandler(requests.HTTPError)`), named by `name_of`."""
    node = getattr(function, "node", None) if function is not None else None
    out = []
    for deco in getattr(node, "decorators", ()):
        call = deco.decorator
        if call.__class__ is cst.Call and nodes.last_name(call.func) in EXCEPTION_HANDLER_DECORATORS:
            out.append(tuple(name_of(a.value) for a in call.args if a.keyword is None))
    return out


def handles_transient(function) -> bool:
    """The function is registered as the handler of transient failures only
    (`@app.exception_handler(httpx.ConnectError)`, `@app.errorhandler(requests.Timeout)`)."""
    return any(types and all(t and TRANSIENT_TYPES.search(t.rsplit(".", 1)[-1]) for t in types) for types in handled_types(function))


def retry_loop(stmt: cst.CSTNode) -> bool:
    """A `for`/`while` loop whose body holds a `try` with a handler of transient failures only
    (`TRANSIENT_TYPES`) that neither raises nor returns: it tries again, so what follows the loop runs
    once the retries ran out. A `with` block that holds one ends with the retries, too."""
    if stmt.__class__ is cst.With and stmt.body.__class__ is cst.IndentedBlock:
        return any(retry_loop(inner) for inner in stmt.body.body)
    if stmt.__class__ is not cst.For and stmt.__class__ is not cst.While:
        return False
    for inner in stmt.body.body if stmt.body.__class__ is cst.IndentedBlock else ():
        if inner.__class__ is not cst.Try:
            continue
        for handler in inner.handlers:
            types = handler_types(handler, nodes.dotted)  # "" for a bare or catch-all clause: not transient
            if all(TRANSIENT_TYPES.search(t) for t in types) and not _leaves(handler.body):
                return True
    return False


def _leaves(body: cst.CSTNode) -> bool:
    """The handler raises, returns or breaks out of the loop."""
    for node in nodes.iter_expr(body, stop=(cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.For, cst.While)):
        if node.__class__ in (cst.Raise, cst.Return, cst.Break):
            return True
    return False
