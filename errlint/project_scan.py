"""Project-wide facts found without parsing: registered tool names, caught exception classes,
entry-point audiences and the MCP library versions a project uses.

These are read from every file of the project (regular expressions over bytes, no libcst), so a
file's result does not depend on which other files are passed in one run.
"""
from __future__ import annotations

import builtins
import re
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from .config import Settings, detect_versions

_TOOL_DECORATOR = re.compile(
    rb"@[\w.]+\.tool\b(?P<args>\([^)]*\))?[^\n]*\n(?:[ \t]*@[^\n]*\n)*[ \t]*(?:async[ \t]+)?def[ \t]+(?P<fn>\w+)"
)
_TOOL_CALL = re.compile(rb"(?:add_tool|Tool\.from_function)\(\s*(?P<fn>\w+)(?P<rest>[^)]*)\)")
_TOOL_DECL = re.compile(rb"\bTool\(\s*name\s*=\s*[\"'](?P<name>[\w.-]+)[\"']")
_NAME_KW = re.compile(rb"name\s*=\s*[\"'](?P<name>[\w.-]+)[\"']")


def scan_tool_names(data: bytes) -> List[str]:
    """Tool names registered in a file, found with regular expressions (no parse): `@x.tool` and
    `@x.tool(name=...)` decorators, `add_tool(fn, name=...)`, `Tool.from_function(fn)`, `Tool(name=...)`."""
    if b"tool" not in data and b"Tool" not in data:  # every pattern below has one of them (no lowered copy)
        return []
    out: List[str] = []
    for match in _TOOL_DECORATOR.finditer(data):
        named = _NAME_KW.search(match.group("args") or b"")
        out.append((named.group("name") if named else match.group("fn")).decode("ascii", "replace"))
    for match in _TOOL_CALL.finditer(data):
        named = _NAME_KW.search(match.group("rest"))
        out.append((named.group("name") if named else match.group("fn")).decode("ascii", "replace"))
    for match in _TOOL_DECL.finditer(data):
        out.append(match.group("name").decode("ascii", "replace"))
    return out


_EXCEPT = re.compile(r"^[ \t]*except\*?[ \t]*\(?[ \t]*([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*)", re.M)
_BUILTIN_NAMES = frozenset(dir(builtins))


def scan_caught_names(text: str) -> frozenset:
    """Exception classes caught by name in a file (`except X`, `except (X, Y) as e`), last name only,
    builtins left out; found with a regular expression (no parse)."""
    if "except" not in text:
        return frozenset()
    names = set()
    for match in _EXCEPT.finditer(text):
        for part in match.group(1).split(","):
            last = part.strip().rsplit(".", 1)[-1]
            if last and last not in _BUILTIN_NAMES:
                names.add(last)
    return frozenset(names)


def project_registry(files: Iterable[Path], extra: Sequence[str] = (), audiences: Optional[Set[str]] = None) -> Tuple[frozenset, frozenset]:
    """(every tool name registered in `files` plus `tool-registry-extra`, every non-builtin exception
    class `files` catch by name); `audiences` receives the entry-point audiences the files may hold."""
    from .entry_points import audience_hints

    names = set(extra)
    caught: Set[str] = set()
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        names.update(scan_tool_names(data))
        if b"except" in data:  # else there is nothing to decode and search
            caught |= scan_caught_names(data.decode("latin-1"))
        if audiences is not None and len(audiences) < 3:
            audiences |= audience_hints(data, path.name, audiences)
    return frozenset(names), frozenset(caught)


def project_versions(settings: Settings) -> Dict[str, str]:
    versions = detect_versions(Path(settings.project_root)) if settings.project_root else {}
    if settings.mcp_version:
        versions["mcp"] = settings.mcp_version
    if settings.fastmcp_version:
        versions["fastmcp"] = settings.fastmcp_version
    return versions
