"""`errlint probe`: call a live MCP server's tools with wrong arguments and lint the replies.

The package is split so that everything except `client` is pure and importable without the `mcp`
extra:

- `calls`: tool listing (plain dicts, MCP wire names) -> the malformed and type-valid-but-wrong calls
  to make, and which tools to skip (destructive, excluded);
- `client`: starts the server (stdio subprocess, or a loopback streamable-HTTP URL) with the official
  `mcp` client SDK, makes the calls with per-call timeouts and a total budget, and always stops the
  server; imports `mcp` only when it runs;
- `report`: replies -> `Diagnostic`s (same codes as `errlint check`) and the per-tool summary table;
- `command`: the click command `probe`.
"""
from __future__ import annotations
