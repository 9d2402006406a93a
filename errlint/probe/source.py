"""What the probe can learn about a stdio server's code without running it.

`inspect_server(command, env, cwd)` finds the server's Python interpreter (the command itself, or the
shebang of a console script), asks it (in the server's environment, importing nothing of the server)
for the installed versions of `mcp` and `fastmcp` and where the server's top-level package lives, and
returns a `ServerSource`. `ServerSource.locate(tool)` gives the file and line where a tool is defined,
so findings point at real code instead of `mcp://server/tool`.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

_PYTHON = re.compile(r"^python(?:\d+(?:\.\d+)?)?(?:\.exe)?$")
_IMPORT = re.compile(r"^from ([A-Za-z_][\w]*)[\w.]* import ", re.M)
_MAX_FILES = 3000
_MAX_BYTES = 2_000_000

_SCRIPT = r"""
import json, sys, importlib.util
from importlib import metadata
out = {"versions": {}, "roots": []}
for name in ("mcp", "fastmcp"):
    try:
        out["versions"][name] = metadata.version(name)
    except Exception:
        pass
for name in sys.argv[1:]:
    try:
        spec = importlib.util.find_spec(name)
    except Exception:
        spec = None
    if spec is not None:
        if spec.submodule_search_locations:
            out["roots"].extend(list(spec.submodule_search_locations))
        elif spec.origin and spec.origin.endswith(".py"):
            out["roots"].append(spec.origin)
print(json.dumps(out))
"""


@dataclass
class ServerSource:
    """`versions`: {"mcp": "1.30.0", "fastmcp": "4.2.3"} as installed for the server; `files`: the
    server's Python source files (the script it runs, or its package's files)."""

    versions: Dict[str, str] = field(default_factory=dict)
    files: List[str] = field(default_factory=list)
    _cache: Dict[str, Optional[Tuple[str, int]]] = field(default_factory=dict)

    def locate(self, tool: str) -> Optional[Tuple[str, int]]:
        """(file, 1-based line) where `tool` is defined, or None: a `def tool(` under a `@...tool`
        decorator first, then a `name="tool"`, then any `def tool(`."""
        if tool in self._cache:
            return self._cache[tool]
        found: Optional[Tuple[str, int]] = None
        if tool and re.match(r"^[\w.\-]+$", tool):
            pattern = re.compile(r"^\s*(?:async\s+)?def\s+" + re.escape(tool) + r"\s*\(", re.M)
            named = re.compile(r"""\bname\s*=\s*["']""" + re.escape(tool) + r"""["']""")
            candidates: List[Tuple[int, str, int]] = []  # (preference, path, line)
            for rank, regex in enumerate((pattern, named)):
                for path in self.files:
                    text = _read(path)
                    for match in (regex.finditer(text) if text else ()):
                        start = match.start() + (len(match.group(0)) - len(match.group(0).lstrip()))
                        line = text.count("\n", 0, start) + 1
                        above = "\n".join(text[:start].splitlines()[-12:])
                        decorated = rank == 0 and re.search(r"@[\w.]*tool\b", above) is not None
                        candidates.append((0 if decorated else rank + 1, path, line))
            if candidates:
                _rank, path, line = min(candidates, key=lambda c: c[0])
                found = (path, line)
        self._cache[tool] = found
        return found


    def locate_framework(self) -> Optional[Tuple[str, int]]:
        """(file, line) where the server object is made (`mcp = FastMCP(...)`, `MCPServer(...)`,
        `Server(...)`), or None."""
        if "\0server" in self._cache:
            return self._cache["\0server"]
        found: Optional[Tuple[str, int]] = None
        regex = re.compile(r"^[ \t]*[\w.]+\s*(?::[^=\n]+)?=\s*(?:[\w.]+\.)?(?:FastMCP|MCPServer|Server)\(", re.M)
        for path in self.files:
            text = _read(path)
            match = regex.search(text) if text else None
            if match:
                found = (path, text.count("\n", 0, match.start()) + 1)
                break
        self._cache["\0server"] = found
        return found


def _read(path: str) -> str:
    try:
        if os.path.getsize(path) > _MAX_BYTES:
            return ""
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


def interpreter(command: Sequence[str]) -> Optional[str]:
    """The Python interpreter that runs `command`: the command itself when it is `python...`, else the
    interpreter named in a console script's shebang; None when it is neither (uvx, node, ...)."""
    if not command:
        return None
    exe = command[0]
    path = exe if os.sep in exe else shutil.which(exe)
    if not path or not os.path.isfile(path):
        return None
    if _PYTHON.match(os.path.basename(path)):
        return path
    try:
        with open(path, "rb") as handle:
            first = handle.readline(300).decode("utf-8", "replace")
    except OSError:
        return None
    if not first.startswith("#!") or "python" not in first:
        return None
    words = first[2:].split()
    if words and os.path.basename(words[0]) == "env" and len(words) > 1:
        return shutil.which(words[-1])
    return words[0] if words else None


def _entry_modules(command: Sequence[str], python: str) -> Tuple[List[str], List[str]]:
    """(top-level module names to look up, script files) named by the command."""
    modules: List[str] = []
    scripts: List[str] = []
    args = list(command[1:])
    if _PYTHON.match(os.path.basename(command[0])) or command[0] == python:
        for index, arg in enumerate(args):
            if arg == "-m" and index + 1 < len(args):
                modules.append(args[index + 1].split(".")[0])
                break
            if arg.endswith(".py") and os.path.isfile(arg):
                scripts.append(os.path.abspath(arg))
                break
    else:
        path = command[0] if os.sep in command[0] else (shutil.which(command[0]) or "")
        modules.extend(dict.fromkeys(_IMPORT.findall(_read(path)[:20000])))
    return modules, scripts


def inspect_server(command: Sequence[str], env: Optional[Dict[str, str]] = None, cwd: Optional[str] = None,
                   timeout: float = 20.0) -> ServerSource:
    """A `ServerSource` for a stdio server command (empty when its interpreter cannot be found)."""
    python = interpreter(command)
    if not python:
        return ServerSource()
    modules, scripts = _entry_modules(command, python)
    try:
        done = subprocess.run([python, "-c", _SCRIPT, *modules], capture_output=True, text=True,
                              timeout=timeout, env=env, cwd=cwd)
        data = json.loads(done.stdout or "{}")
    except (OSError, subprocess.SubprocessError, ValueError):
        data = {}
    files: List[str] = list(scripts)
    for root in data.get("roots") or []:
        if os.path.isfile(root):
            files.append(root)
            continue
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in ("tests", "test", "__pycache__"))
            files.extend(os.path.join(folder, n) for n in sorted(names) if n.endswith(".py"))
            if len(files) > _MAX_FILES:
                break
    versions = {k: str(v) for k, v in (data.get("versions") or {}).items()}
    return ServerSource(versions, files[:_MAX_FILES])
