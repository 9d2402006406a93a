"""Source bytes to text, as CPython decodes a source file.

The encoding comes from a BOM, else a PEP 263 coding cookie on line 1 or 2, else UTF-8; an
undecodable byte or a bad cookie is reported with its (row, column), which AEM001 shows. `_decode`
decodes with the encoding libcst detected, falling back to UTF-8 with replacement.
"""
from __future__ import annotations

import codecs
import io
import re
import tokenize
from typing import Optional, Tuple

def _decode(data: bytes, encoding: str) -> str:
    name = encoding.lower().replace("_", "-")
    try:
        return data.decode("utf-8-sig" if name in ("utf-8", "utf8", "utf-8-sig") else encoding)
    except (LookupError, UnicodeDecodeError):
        return data.decode("utf-8", errors="replace")


_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*(?P<name>[-\w.]+)")


class _Unreadable(Exception):
    """The source cannot be decoded: the reason and Python's (row, column) for it."""

    def __init__(self, reason: str, row: int, col: int):
        super().__init__(reason)
        self.reason, self.row, self.col = reason, row, col


def source_text(data: bytes) -> str:
    """`data` decoded as CPython decodes a source file (BOM, else a PEP 263 cookie on line 1 or 2,
    else UTF-8), BOM removed. Raises _Unreadable at the first undecodable byte or at the cookie."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if "encoding declaration" not in exc.msg:  # an unknown cookie, or one contradicting the BOM
            row, col = _cookie_position(data)
            if exc.msg.startswith("encoding problem"):
                reason = "the file starts with a UTF-8 byte order mark but its coding cookie names another encoding"
            else:
                reason = f"the coding cookie names an {exc.msg}"  # "unknown encoding: klingon"
            raise _Unreadable(reason, row, col) from None
        # bytes tokenize cannot decode in the first two lines; CPython reads the cookie from bytes
        encoding = _cookie(data) or "utf-8"
    codec = "utf-8-sig" if encoding in ("utf-8", "utf-8-sig") else encoding
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        row, col = _position(data[: exc.start].decode(codec, errors="replace"))
        if codec == "utf-8-sig":
            reason = f"byte 0x{data[exc.start]:02x} is not valid UTF-8 and no coding cookie (PEP 263) names another encoding"
        else:
            reason = f"byte 0x{data[exc.start]:02x} is not valid {encoding}, the encoding its coding cookie names"
        raise _Unreadable(reason, row, col) from None
    except LookupError as exc:
        row, col = _cookie_position(data)
        raise _Unreadable(f"the coding cookie names no text encoding ({exc})", row, col) from None


def _cookie(data: bytes) -> Optional[str]:
    for line in data[3:].splitlines()[:2] if data.startswith(codecs.BOM_UTF8) else data.splitlines()[:2]:
        found = _COOKIE.match(line)
        if found:
            try:
                return codecs.lookup(found.group("name").decode("ascii")).name
            except (LookupError, UnicodeDecodeError):
                return None
        if line.strip() and not line.lstrip().startswith(b"#"):
            break
    return None


def _cookie_position(data: bytes) -> Tuple[int, int]:
    for row, line in enumerate((data[3:] if data.startswith(codecs.BOM_UTF8) else data).splitlines()[:2], 1):
        found = _COOKIE.match(line)
        if found:
            return row, found.start("name") + 1
    return 1, 1


def _position(before: str) -> Tuple[int, int]:
    """1-based (row, column) just after `before`, counting \\r\\n, \\r and \\n as line ends."""
    lines = re.split(r"\r\n|\r|\n", before)
    return len(lines), len(lines[-1]) + 1
