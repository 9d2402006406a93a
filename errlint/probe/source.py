"""What the probe can learn about a stdio server's code without running it.

`inspect_server(command, env, cwd)` finds the server's Python interpreter (the command itself, or the
shebang of a console script), asks it (in the server's environment, importing nothing of the server)
for the installed versions of `mcp` and `fastmcp` and where the server's top-level package lives, and
returns a `ServerSource`. `ServerSource.locate(tool)` gives the file and line where a tool is defined,
so findings point at real code instead of `mcp://server/tool`.
"""
from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

_PYTHON = re.compile(r"^python(?:\d+(?:\.\d+)?)?(?:\.exe)?$")
_IMPORT = re.compile(r"^from ([A-Za-z_][\w]*)[\w.]* import ", re.M)
_VARYING = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|\{[^}\n]*\}|\[[^\]\n]*\]|\S*\d\S*|\S*/\S*|\n")
"""The parts of a reply that vary from call to call (quoted values, numbers, paths, line breaks)."""
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


    def locate_text(self, text: str, sent: Sequence[str] = ()) -> Optional[Tuple[str, int]]:
        """(file, line) of the source literal a reply's text comes from: the longest stretch of the
        text (of a JSON reply: of its string values) between its quoted values, numbers, paths and line
        breaks, and the values the call `sent`, (12 characters or more) that occurs in a string literal
        of one of the server's files (docstrings left out), or None."""
        try:  # a JSON reply: look for its string values
            text = "\n".join(_strings(json.loads(text)))
        except ValueError:
            pass
        for value in sorted(sent, key=len, reverse=True):  # values the call sent, echoed without quotes
            if len(value) >= 3:
                text = text.replace(value, "\n")
        pieces = sorted({p.strip(" :;,.-") for p in _VARYING.split(text)}, key=len, reverse=True)
        for piece in (p for p in pieces if len(p) >= 12):
            for path in self.files:
                for line, literal in _literals(path):
                    if piece in literal:
                        return path, line
        return None

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


@functools.lru_cache(maxsize=4096)
def _literals(path: str) -> List[Tuple[int, str]]:
    """(line, source text) of each string literal in a Python file, docstrings and other bare string
    statements left out (they describe messages; they do not send them)."""
    import io
    import tokenize

    out: List[Tuple[int, str]] = []
    text = _read(path)
    if not text:
        return out
    starts = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    fstring_middle = getattr(tokenize, "FSTRING_MIDDLE", -1)  # Python 3.12+ splits f-strings
    previous, bare = tokenize.NEWLINE, False
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.NL, tokenize.COMMENT):
                continue
            if token.type == tokenize.STRING:
                bare = bare if previous == tokenize.STRING else previous in starts
                if not bare:
                    out.append((token.start[0], token.string))
            elif token.type == fstring_middle:
                out.append((token.start[0], token.string))
            previous = token.type
    except (tokenize.TokenError, SyntaxError, SystemError):  # 3.13: SystemError on a NUL byte
        pass
    return out


def _strings(data: object, depth: int = 0) -> List[str]:
    if isinstance(data, str):
        return [data]
    if depth > 6:
        return []
    values = data.values() if isinstance(data, dict) else (data if isinstance(data, list) else [])
    return [s for v in values for s in _strings(v, depth + 1)]


@functools.lru_cache(maxsize=4096)
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
