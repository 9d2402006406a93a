"""`errlint probe`: call a live MCP server's tools with wrong arguments and lint the replies.

The package is split so that everything except `client` is pure and importable without the `mcp`
extra:

- `calls`: tool listing (plain dicts, MCP wire names) -> the malformed and type-valid-but-wrong calls
  to make, and which tools to skip (only read-only tools unless allowed; destructive, excluded);
- `patterns`: strings that match a JSON-Schema `pattern` (for valid values and ids that do not exist);
- `sandbox`: the fresh temporary folder the server runs in (HOME and TMPDIR inside it);
- `source`: the server's interpreter, framework versions and where its tools are defined;
- `client`: starts the server (stdio subprocess, or a loopback streamable-HTTP URL) with the official
  `mcp` client SDK, makes the calls with per-call timeouts and a total budget, and always stops the
  server; imports `mcp` only when it runs;
- `disguise`: does a success reply state an error (JSON structure, statement shape, exception text)?
- `origin`: is a reply the server's own text or its framework's argument validation, with the fix;
- `report`: replies -> problems (same codes as `errlint check`) and the per-tool summary table;
- `findings`: problems -> grouped, located findings with their JSON details and a reproduction;
- `command`: the click command `probe`.
"""
from __future__ import annotations
