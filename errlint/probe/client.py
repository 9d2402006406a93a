"""Talk to a live MCP server with the official `mcp` client SDK (the `errlint[probe]` extra).

`probe(target, plan, ...)` starts the server (a stdio subprocess, or a streamable-HTTP URL on
loopback), lists its tools, asks `plan` which calls to make, makes them one at a time with a per-call
timeout inside a total budget, and returns a `ProbeRun`. The server process is always stopped: the
SDK's `stdio_client` closes stdin, then terminates and kills the process tree when the session
context exits, which happens on success, on errors, on timeouts and on Ctrl-C.

Works with mcp 2.x (`mcp.Client`) and mcp 1.x (`ClientSession` over `stdio_client`). `mcp` is imported
only inside `probe`, so importing this module does not need the extra.
"""
from __future__ import annotations

import ipaddress
import logging
import os
import shlex
import tempfile
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple
from urllib.parse import urlsplit

from .calls import ProbeCall

CONNECTION_CLOSED = -32000
REQUEST_TIMEOUT = -32001

INSTALL_HINT = "pip install 'errlint[probe]'"


class ProbeError(Exception):
    """errlint could not probe at all (bad target, server did not start, SDK missing).

    The text is a complete message for the user: what failed, the value, and what to run next. The
    command exits with status 2.
    """


@dataclass(frozen=True)
class Target:
    """What to probe: a stdio server command (`command`, argv list) or a streamable-HTTP `url`."""

    command: Tuple[str, ...] = ()
    url: str = ""

    def describe(self) -> str:
        """A short human name: the command line (shell-quoted) or the URL."""
        return self.url or shlex.join(self.command)


@dataclass
class Reply:
    """What the server answered to one call.

    `outcome` is "result" (a CallToolResult: `is_error` and `text` are its isError flag and its text
    content joined by newlines), "protocol-error" (a JSON-RPC error: `code` and `text` are its code
    and message; the model never sees it), "timeout" (no answer within the per-call timeout),
    "closed" (the server closed the connection, e.g. its process exited, during the call) or
    "client-error" (the SDK rejected the answer, e.g. a result that breaks the tool's outputSchema;
    `text` says why). `seconds` is the wall-clock time of the call.
    """

    call: ProbeCall
    outcome: str
    is_error: bool
    text: str
    code: Optional[int] = None
    seconds: float = 0.0
    items: List[str] = field(default_factory=list)
    """The text of each content item on its own (`text` joins them), for JSON inside a text item."""


@dataclass
class ProbeRun:
    """Everything one probe learned.

    `server` is the name the server reports (else the command's script name or the URL host);
    `tools` the listed tools as wire-format dicts; `skipped` {tool: reason}; `replies` in call order;
    `not_run` the planned calls the budget or an early stop left out; `stopped` why the run ended early
    ("" when it did not); `stderr_tail` the end of the server's stderr (stdio only).
    """

    server: str
    tools: List[Dict[str, Any]] = field(default_factory=list)
    skipped: Dict[str, str] = field(default_factory=dict)
    replies: List[Reply] = field(default_factory=list)
    not_run: List[ProbeCall] = field(default_factory=list)
    stopped: str = ""
    stderr_tail: str = ""
    sdk: str = ""
    server_version: str = ""
    listing: List[Reply] = field(default_factory=list)
    """Replies to the argument-free calls of read-only listing tools made for valid values (`discover`)."""


Planner = Callable[..., Tuple[List[ProbeCall], Dict[str, str]]]
"""Listed tools (and, when `probe` got `discover`, the listing replies) -> (calls to make, {skipped
tool: reason}); may raise ProbeError (e.g. unknown --tools)."""


def check_url(url: str) -> str:
    """`url` if it is an http(s) URL on a loopback host, else raise ProbeError saying what is allowed.

    No name is resolved: the host must be `localhost` or a literal loopback address (127.0.0.0/8, ::1).
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ProbeError(
            f"--url {url!r} is not an http(s) URL; pass the server's streamable-HTTP endpoint, "  # noqa: AEM202 (shows the whole --url)
            "e.g. --url http://127.0.0.1:8000/mcp"
        )
    host = parts.hostname
    loopback = host == "localhost" or host.endswith(".localhost")
    if not loopback:
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
    if not loopback:
        raise ProbeError(
            f"--url host {host!r} is not a loopback address; errlint only probes servers on this machine "
            "(localhost, 127.0.0.1 or ::1). Start the server locally and pass e.g. --url http://127.0.0.1:8000/mcp, "
            "or give its command after `--` to run it over stdio"
        )
    return url


def mcp_sdk() -> Tuple[Any, str]:
    """The imported `mcp` package and its version; ProbeError with the install command when missing."""
    try:
        import mcp  # noqa: F401
    except ImportError as exc:
        raise ProbeError(
            f"errlint probe needs the MCP client SDK (the `mcp` package), which cannot be imported ({exc}); "
            f"install it with `{INSTALL_HINT}` (Python 3.10 or newer), then run `errlint probe -- COMMAND [ARGS...]` again"
        ) from None
    try:
        from importlib.metadata import version

        found = version("mcp")
    except Exception:  # metadata missing (vendored copy): the API checks below still apply
        found = "unknown"
    if not hasattr(mcp, "ClientSession"):
        raise ProbeError(
            f"the installed `mcp` {found} has no ClientSession; errlint probe needs mcp 1.10 or newer: "
            f"run `{INSTALL_HINT}` or `pip install -U mcp`"
        )
    return mcp, found


def probe(target: Target, plan: Planner, timeout: float = 10.0, budget: float = 120.0, startup_timeout: float = 30.0,
          env: Optional[Dict[str, str]] = None, cwd: Optional[str] = None,
          discover: Optional[Callable[[List[Dict[str, Any]]], List[ProbeCall]]] = None) -> ProbeRun:
    """Probe `target`: start it, list tools, make `plan`'s calls, stop it.

    `timeout` bounds each call (seconds); `budget` bounds the whole run including start-up (seconds);
    `startup_timeout` bounds start-up, initialize and tools/list. `env` is the server's environment
    (default: this process's). `discover`, when given, names argument-free calls to make before
    planning (read-only listing tools); their replies are in `ProbeRun.listing` when `plan` runs.
    Raises ProbeError when the server cannot be started or listed; a server that dies mid-run ends
    the run early with `ProbeRun.stopped` set.
    """
    import anyio

    mcp, found = mcp_sdk()
    if target.url:
        check_url(target.url)
    elif not target.command:
        raise ProbeError("no server to probe; give its command after `--` (errlint probe -- python server.py) or pass --url")
    loggers = [logging.getLogger(name) for name in ("mcp", "client", "httpx", "httpx2")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as errlog:
            run = ProbeRun(server=_default_name(target), sdk=f"mcp {found}")
            try:
                anyio.run(_probe, mcp, target, plan, run, timeout, budget, startup_timeout, env, cwd, errlog, discover)
            except BaseException as exc:  # noqa: BLE001 - unwrap task-group exception groups
                leaves = _leaves(exc)
                for leaf in leaves:
                    if isinstance(leaf, (ProbeError, KeyboardInterrupt, SystemExit)):
                        raise leaf from None
                raise
            finally:
                run.stderr_tail = _tail(errlog)
            return run
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


def _default_name(target: Target) -> str:
    if target.url:
        return urlsplit(target.url).netloc or "server"
    for part in reversed(target.command):
        if part.endswith(".py") or "/" in part:
            base = os.path.basename(part)
            return base[:-3] if base.endswith(".py") else base
    return os.path.basename(target.command[0]) if target.command else "server"


def _tail(errlog: Any, lines: int = 12, width: int = 2000) -> str:
    try:
        errlog.flush()
        errlog.seek(0)
        text = errlog.read()
    except (OSError, ValueError):
        return ""
    tail = "\n".join(text.rstrip().splitlines()[-lines:])
    return tail[-width:]


async def _probe(mcp: Any, target: Target, plan: Planner, run: ProbeRun, timeout: float, budget: float,
                 startup_timeout: float, env: Optional[Dict[str, str]], cwd: Optional[str], errlog: Any,
                 discover: Optional[Callable[[List[Dict[str, Any]]], List[ProbeCall]]] = None) -> None:
    """The run, in one cancel scope: its deadline is the start-up limit until the tools are listed,
    then the end of the total budget. Leaving the exit stack stops the server in every case."""
    import anyio

    started = anyio.current_time()
    phase = "start"
    calls: List[ProbeCall] = []
    with anyio.CancelScope(deadline=started + max(0.1, min(startup_timeout, budget))) as scope:
        try:
            async with AsyncExitStack() as stack:
                try:
                    session = await _connect(mcp, stack, target, timeout, env, cwd, errlog)
                    if session.server_name:
                        run.server = session.server_name
                    run.server_version = session.server_version
                    run.tools = await session.list_tools()
                except Exception as exc:  # noqa: BLE001 - every start-up failure becomes one clear message
                    if isinstance(exc, ProbeError):
                        raise
                    raise ProbeError(_startup_message(target, exc, errlog, startup_timeout)) from None
                phase = "plan"
                scope.deadline = started + budget + 1.0
                for call in (discover(run.tools) if discover else []):
                    reply = await _call(mcp, session, call, min(timeout, max(0.1, started + budget - anyio.current_time())))
                    run.listing.append(reply)
                    if reply.outcome == "closed":
                        break
                calls, run.skipped = plan(run.tools, run.listing) if discover else plan(run.tools)
                phase = "calls"
                scope.deadline = started + budget + 1.0
                await _make_calls(mcp, session, calls, run, timeout, started + budget, budget)
        except Exception as exc:  # noqa: BLE001 - a transport failure after start-up keeps what was learned
            found = [leaf for leaf in _leaves(exc) if isinstance(leaf, ProbeError)]
            if found:
                raise found[0] from None
            if phase == "start":
                raise ProbeError(_startup_message(target, exc, errlog, startup_timeout)) from None
            if phase != "calls":
                raise
            done = len(run.replies)
            run.not_run = calls[done:]
            leaf = _leaves(exc)[0]
            run.stopped = (
                f"the connection to the server failed after {done} of {len(calls)} calls ({type(leaf).__name__}: {leaf}); "
                "run the server command by itself to see why"
            )
    if scope.cancelled_caught:
        if phase == "start":
            raise ProbeError(_startup_message(target, TimeoutError(), errlog, min(startup_timeout, budget)))
        done = len(run.replies)
        run.not_run = calls[done:]
        if not run.stopped:
            run.stopped = f"the total budget of {budget:g} s ran out after {done} of {len(calls)} calls; pass a larger --budget to make the rest"


async def _make_calls(mcp: Any, session: "_Session", calls: List[ProbeCall], run: ProbeRun, timeout: float,
                      deadline: float, budget: float) -> None:
    import anyio

    for index, call in enumerate(calls):
        remaining = deadline - anyio.current_time()
        if remaining <= 0.05:
            run.not_run = calls[index:]
            run.stopped = f"the total budget of {budget:g} s ran out after {index} of {len(calls)} calls; pass a larger --budget to make the rest"
            return
        reply = await _call(mcp, session, call, min(timeout, remaining))
        run.replies.append(reply)
        if reply.outcome == "closed":
            run.not_run = calls[index + 1:]
            run.stopped = (
                f"the server closed the connection during the call to {call.tool} ({call.label()}); "
                f"{len(run.not_run)} planned calls were not made. Run the server command by itself and send that call to see why it exits"
            )
            return


def _leaves(exc: BaseException) -> List[BaseException]:
    """The non-group exceptions inside an (anyio/asyncio) exception group, or [exc]."""
    inner = getattr(exc, "exceptions", None)
    if isinstance(inner, (list, tuple)) and inner:
        out: List[BaseException] = []
        for e in inner:
            out.extend(_leaves(e))
        return out
    return [exc]


def _startup_message(target: Target, exc: BaseException, errlog: Any, startup_timeout: float) -> str:
    leaves = _leaves(exc)
    leaf = next((e for e in leaves if not _is_cancel(e)), leaves[0])
    stderr = _tail(errlog, lines=6, width=600)
    said = f"; its stderr ends with:\n{stderr}" if stderr else ""
    if target.url:
        return (
            f"cannot reach the MCP server at --url {target.url} ({type(leaf).__name__}: {leaf}); "
            f"start the server first and check the host, port and path (streamable-HTTP endpoints usually end in /mcp)"
        )
    command = shlex.join(target.command)
    if isinstance(leaf, FileNotFoundError) or (isinstance(leaf, OSError) and leaf.errno == 2):
        return (
            f"cannot start the server command {target.command[0]!r}: no such file or program; "
            f"pass an executable on PATH after `--`, e.g. `errlint probe -- python server.py`"
        )
    if isinstance(leaf, TimeoutError) or _is_cancel(leaf):
        return (
            f"the server `{command}` did not answer initialize and tools/list within {startup_timeout:g} s{said}\n"
            f"Check that it speaks MCP over stdio (and prints nothing else to stdout), or pass a larger --startup-timeout"
        )
    return (
        f"the server `{command}` stopped or failed before listing its tools ({type(leaf).__name__}: {leaf}){said}\n"
        f"Run `{command}` by itself to see why, then run errlint probe again"
    )


def _is_cancel(exc: BaseException) -> bool:
    return isinstance(exc, TimeoutError) or type(exc).__name__ in ("CancelledError", "Cancelled")


class _Session:
    """The few operations errlint needs, over mcp 2.x `Client` or an mcp 1.x `ClientSession`."""

    def __init__(self, obj: Any, server_name: str, v2: bool, server_version: str = "") -> None:
        self.obj = obj
        self.server_name = server_name
        self.v2 = v2
        self.server_version = server_version

    async def list_tools(self) -> List[Dict[str, Any]]:
        tools: List[Dict[str, Any]] = []
        cursor: Optional[str] = None
        for _ in range(100):
            page = await (self.obj.list_tools(cursor=cursor) if cursor else self.obj.list_tools())
            data = _dump(page)
            tools.extend(t for t in data.get("tools") or [] if isinstance(t, dict))
            cursor = data.get("nextCursor")
            if not cursor:
                break
        return tools

    async def call_tool(self, name: str, arguments: Dict[str, Any], timeout: float) -> Dict[str, Any]:
        if self.v2:
            result = await self.obj.call_tool(name, arguments, read_timeout_seconds=timeout)
        else:
            result = await self.obj.call_tool(name, arguments, read_timeout_seconds=timedelta(seconds=timeout))
        return _dump(result)


def _dump(model: Any) -> Dict[str, Any]:
    """A pydantic model (mcp 1.x or 2.x types) as a wire-format dict (camelCase names)."""
    if hasattr(model, "model_dump"):
        return model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dict(model) if isinstance(model, dict) else {}


async def _connect(mcp: Any, stack: AsyncExitStack, target: Target, timeout: float, env: Optional[Dict[str, str]],
                   cwd: Optional[str], errlog: Any) -> _Session:
    from mcp.client.stdio import StdioServerParameters, stdio_client

    server_env = dict(os.environ if env is None else env)
    if hasattr(mcp, "Client"):  # mcp 2.x
        if target.url:
            transport = await _http_transport_v2(stack, target.url)
        else:
            params = StdioServerParameters(command=target.command[0], args=list(target.command[1:]), env=server_env, cwd=cwd)
            transport = stdio_client(params, errlog=errlog)
        kwargs: Dict[str, Any] = {"read_timeout_seconds": timeout}
        fields = getattr(mcp.Client, "__dataclass_fields__", {})
        if "cache" in fields:
            kwargs["cache"] = None  # always ask the server; never serve a listing from a cache
        client = await stack.enter_async_context(mcp.Client(transport, **kwargs))
        info = getattr(client, "server_info", None)
        return _Session(client, getattr(info, "name", "") or "", v2=True, server_version=str(getattr(info, "version", "") or ""))
    # mcp 1.x
    if target.url:
        read, write = await _http_streams_v1(stack, target.url)
    else:
        params = StdioServerParameters(command=target.command[0], args=list(target.command[1:]), env=server_env, cwd=cwd)
        read, write = await stack.enter_async_context(stdio_client(params, errlog=errlog))
    session = await stack.enter_async_context(mcp.ClientSession(read, write, read_timeout_seconds=timedelta(seconds=timeout)))
    init = await session.initialize()
    info = getattr(init, "serverInfo", None) or getattr(init, "server_info", None)
    return _Session(session, getattr(info, "name", "") or "", v2=False, server_version=str(getattr(info, "version", "") or ""))


async def _http_transport_v2(stack: AsyncExitStack, url: str) -> Any:
    """mcp 2.x streamable-HTTP transport with an HTTP client that ignores proxy settings (loopback only)."""
    from mcp.client.streamable_http import streamable_http_client

    try:
        import httpx2 as httpx_module  # mcp 2.x's HTTP client
    except ImportError:  # pragma: no cover - older 2.x releases used httpx
        import httpx as httpx_module  # type: ignore[no-redef]
    http = await stack.enter_async_context(httpx_module.AsyncClient(trust_env=False, follow_redirects=False, timeout=30.0))
    return streamable_http_client(url, http_client=http)


async def _http_streams_v1(stack: AsyncExitStack, url: str) -> Tuple[Any, Any]:
    import httpx
    from mcp.client.streamable_http import streamablehttp_client

    def factory(headers: Any = None, timeout: Any = None, auth: Any = None) -> Any:
        return httpx.AsyncClient(headers=headers, timeout=timeout, auth=auth, trust_env=False, follow_redirects=False)

    streams = await stack.enter_async_context(streamablehttp_client(url, httpx_client_factory=factory))
    return streams[0], streams[1]


async def _call(mcp: Any, session: _Session, call: ProbeCall, timeout: float) -> Reply:
    import anyio

    started = time.monotonic()
    try:
        with anyio.fail_after(timeout + 0.5):
            data = await session.call_tool(call.tool, call.arguments, timeout)
    except TimeoutError:
        return Reply(call, "timeout", False, f"no reply within {timeout:g} s", seconds=time.monotonic() - started)
    except Exception as exc:  # noqa: BLE001 - sorted into protocol errors, timeouts and SDK complaints
        elapsed = time.monotonic() - started
        leaves = _leaves(exc)
        leaf = leaves[0]
        error = getattr(leaf, "error", None)
        code = getattr(error, "code", None)
        if isinstance(code, int):
            message = str(getattr(error, "message", "") or "")
            if code == CONNECTION_CLOSED:
                return Reply(call, "closed", False, message or "connection closed", code, elapsed)
            if code in (REQUEST_TIMEOUT, 408) and "time" in message.lower():
                return Reply(call, "timeout", False, f"no reply within {timeout:g} s", code, elapsed)
            return Reply(call, "protocol-error", True, message, code, elapsed)
        if type(leaf).__name__ in ("ClosedResourceError", "BrokenResourceError", "EndOfStream", "BrokenPipeError"):
            return Reply(call, "closed", False, f"{type(leaf).__name__}", None, elapsed)
        return Reply(call, "client-error", False, f"{type(leaf).__name__}: {leaf}"[:500], None, elapsed)
    return Reply(call, "result", bool(data.get("isError")), _text(data), None, time.monotonic() - started, _items(data))


def _text(result: Dict[str, Any]) -> str:
    """The text a model reads from a CallToolResult: text blocks joined by newlines; embedded text
    resources included; other blocks as `[image]`-style markers; structuredContent when there is no content."""
    parts: List[str] = []
    for block in result.get("content") or []:
        kind = block.get("type")
        if kind == "text":
            parts.append(str(block.get("text", "")))
        elif kind == "resource" and isinstance(block.get("resource"), dict) and "text" in block["resource"]:
            parts.append(str(block["resource"]["text"]))
        else:
            parts.append(f"[{kind}]")
    if not parts and result.get("structuredContent") is not None:
        import json

        parts.append(json.dumps(result["structuredContent"], ensure_ascii=False))
    return "\n".join(parts)


def _items(result: Dict[str, Any]) -> List[str]:
    """The text of each text (or embedded text resource) content item of a CallToolResult."""
    out: List[str] = []
    for block in result.get("content") or []:
        if block.get("type") == "text":
            out.append(str(block.get("text", "")))
        elif block.get("type") == "resource" and isinstance(block.get("resource"), dict) and "text" in block["resource"]:
            out.append(str(block["resource"]["text"]))
    return out


def describe_targets(command: Sequence[str], url: Optional[str]) -> Target:
    """Build a Target from the CLI inputs; ProbeError when both or neither are given."""
    if command and url:
        raise ProbeError("pass either a server command after `--` or --url, not both; e.g. `errlint probe -- python server.py`")
    if not command and not url:
        raise ProbeError(
            "no server to probe; give its command after `--` (e.g. `errlint probe -- python examples/mcp_server.py`) "
            "or a loopback streamable-HTTP endpoint with --url http://127.0.0.1:8000/mcp"
        )
    if url:
        return Target(url=check_url(url))
    return Target(command=tuple(command))
