"""The cheap byte-level pre-filter that decides, before any parse, whether a file can hold a sink.

`may_contain_sink` looks for the words every sink's code must contain (raise, print, exit, log,
jsonrpc, ...) or an HTTP error status (a route's `return "...", 404`); `code_may_contain_sink` applies the same test to a huge file with its plain string
literals left out, so a data module full of help text is not parsed for nothing.
"""
from __future__ import annotations

import io
import re
import tokenize

SINK_BYTES = (
    b"raise", b"print", b"exit", b"quit", b"write", b"echo", b"log", b"warn", b"error", b"exception",
    b"fail", b"abort", b"result", b"jsonrpc", b"iserror", b"is_error", b"validator", b"parameter",
    b"option", b"usage", b"info", b"debug", b"critical", b"fatal", b"modelretry", b"failure", b"fault",
    b"mcp", b"tool", b"response", b"jsonify", b"status",
)


# An HTTP error status in code (`return "Unknown widget", 404`, `abort(409)`) makes a sink with none of
# the words above: a route's error reply is known by its status.
ERROR_STATUS_BYTES = re.compile(rb"(?<![\w.])[45]\d\d(?![\w.])")


def may_contain_sink(data: bytes) -> bool:
    """Cheap pre-filter: a file with none of these words, and no HTTP error status, cannot hold a sink
    (tested on the stdlib and on each framework's error surface)."""
    lowered = data.lower()
    return any(token in lowered for token in SINK_BYTES) or ERROR_STATUS_BYTES.search(lowered) is not None


# Over this size a file is tokenized before libcst sees it: a data module (pydoc_data/topics.py,
# 0.75 MB of help text keyed by 'raise', 'print', ...) names sinks only inside its strings, and
# parsing it needs ~200 MB.
HUGE_FILE_BYTES = 256_000
# The only sinks a plain string literal can make are dict keys: {"isError": True}, {"jsonrpc": ...,
# "error": ...}, a tool's {"error": ...}; every other sink is named by code.
SINK_KEY = re.compile(r"^[rRbBuU]*(['\"])(?:iserror|is_error|jsonrpc|error)\1$", re.I)


def code_may_contain_sink(data: bytes) -> bool:
    """The pre-filter applied to the code with plain string literals left out, except sink keys
    (f-strings and comments kept). Unreadable tokens: True (let the full path decide).

    Each kept token is tested as it comes (no sink word or status spans two tokens), so a file of
    code stops at its first sink word instead of being tokenized to the end."""
    try:
        for token in tokenize.tokenize(io.BytesIO(data).readline):
            if token.type == tokenize.ERRORTOKEN:
                return True
            if token.type == tokenize.STRING and "f" not in token.string.split("'")[0].split('"')[0].lower() and not SINK_KEY.match(token.string):
                continue
            if may_contain_sink(token.string.encode("utf-8", "surrogatepass")):
                return True
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError, ValueError, SystemError):  # 3.13: SystemError on a NUL byte
        return True
    return False
