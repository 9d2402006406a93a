"""AEM205 asks where to get a valid value only for a value the reader sent: an id it passed, a guard on
its input, or a message that shows a value computed from its input. A check on what the server itself
downloaded or read ("Downloaded file is not a valid PDF") has no listing tool to point to."""
from __future__ import annotations

from conftest import preview_rows


HEAD = ("from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nimport httpx\nmcp = FastMCP('x')\n\n"
        "@mcp.tool()\ndef list_documents() -> list:\n    return []\n\n")


def rows(code: str) -> list:
    return preview_rows(HEAD + code, ["AEM205"])


def test_downloaded_header_is_not_the_readers_value():
    code = ("@mcp.tool()\ndef fetch_pdf(url: str) -> str:\n    data = httpx.get(url).content\n    header = data[:8]\n"
            "    if not header.startswith(b'%PDF-'):\n        raise ToolError('Downloaded file is not a valid PDF format')\n    return 'ok'\n")
    assert rows(code) == []


def test_file_read_from_the_servers_cache_is_not_the_readers_value():
    code = ("CACHE = '/var/cache/x'\n@mcp.tool()\ndef load_index() -> str:\n    with open(CACHE) as fh:\n        text = fh.read()\n"
            "    if not text.startswith('{'):\n        raise ToolError('Index is not a valid document')\n    return text\n")
    assert rows(code) == []


def test_unknown_value_the_reader_sent_still_asks():
    code = ("DOCS = {}\n@mcp.tool()\ndef read_document(name: str) -> str:\n    if name not in DOCS:\n"
            "        raise ToolError(f'Document {name} not found')\n    return DOCS[name]\n")
    assert rows(code) == [14]


def test_lookup_failure_shown_from_input_still_asks():
    code = ("@mcp.tool()\ndef open_doc(ref: str) -> str:\n    key = ref.strip().lower()\n    doc = None\n    if doc is None:\n"
            "        raise ToolError(f'No document matches {key}')\n    return doc\n")
    assert rows(code) == [15]
