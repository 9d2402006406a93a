"""The results cache, like ruff's: `.errlint_cache/<version>/<key>.json`.

`key` hashes everything that can change a file's diagnostics besides its own bytes: errlint's version,
the resolved settings, the phrase packs' contents, the enabled rules, the project's tool registry,
the detected MCP versions and the entry-point audiences the project may have (the audiences each
file's raises are judged under). Each entry also keeps the file's project facts and its
audience-dependent findings, so the project model is rebuilt without parsing, and `depends`, a digest
of the cross-file facts its findings were last judged with. Inside, each file's entry is keyed by its path and the SHA-256 of its
bytes, so an unchanged file is never parsed again. Beside it, `<key>.final.json` keeps the last run's
findings as the project pass judged them, with a digest of every file's path and hash: a run in which
no file and no setting changed returns them without reading the per-file entries or judging again. The directory holds a `CACHEDIR.TAG` and a
`.gitignore` of `*`. Diagnostics never contain secret values (rules mask them), so neither does the
cache. Writes are atomic; a corrupt or unreadable cache is ignored, never fatal.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional

from . import __version__
from .run_context import FileResult, RunContext
from .model import Applicability, Diagnostic, Edit, Fix, Level, Location

TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by errlint.\n"


def cache_root(settings_root: str, cache_dir: Optional[str]) -> Path:
    """`--cache-dir`, else $ERRLINT_CACHE_DIR, else `.errlint_cache` in the project root."""
    chosen = cache_dir or os.environ.get("ERRLINT_CACHE_DIR")
    return Path(chosen) if chosen else Path(settings_root or ".") / ".errlint_cache"


def _code_digest() -> str:
    """Sizes and mtimes of errlint's own modules, so a changed checkout (or an upgrade that kept the
    version number) never reuses results computed by other code."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        try:
            info = path.stat()
        except OSError:
            continue
        h.update(f"{path.relative_to(root)}:{info.st_size}:{info.st_mtime_ns};".encode())
    return h.hexdigest()


def run_key(run: RunContext) -> str:
    """A digest of everything besides a file's bytes that its diagnostics depend on."""
    h = hashlib.sha256()
    h.update(__version__.encode())
    h.update(_code_digest().encode())
    h.update(repr(dataclasses.astuple(run.settings)).encode())
    h.update(run.packs.digest.encode())
    h.update(",".join(sorted(r.code + repr(sorted(r.options.items())) + repr(r.profiles) for r in run.rules)).encode())
    h.update(",".join(sorted(run.registry)).encode())
    h.update(b";" + ",".join(sorted(run.caught)).encode())
    h.update(b";" + ",".join(sorted(run.pass_through)).encode())
    h.update(repr(run.literal_aliases).encode())
    h.update(repr(run.server_objects).encode())
    h.update(repr(run.module_objects).encode())
    h.update(repr(run.module_constants).encode())
    h.update(repr(run.exception_classes).encode())
    h.update(repr(sorted(run.mcp_versions.items())).encode())
    h.update(repr(run.ignore_noqa).encode())
    # the audiences a raise is judged under in the per-file pass (its cached variants)
    h.update(repr((sorted(run.audiences), run.scripts)).encode())
    return h.hexdigest()[:24]


def file_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Cache:
    """Cached diagnostics for one run key. `get`/`put` by path and content hash; `save` at the end."""

    def __init__(self, root: Path, key: str):
        self.root = root
        self.path = root / __version__ / f"{key}.json"
        # the run's final diagnostics, for when no file and no run setting changed (`project_results`)
        self.final_path = root / __version__ / f"{key}.final.json"
        self._entries: Optional[Dict[str, Dict[str, Any]]] = None
        self.dirty = False
        self.final: Optional[Dict[str, Any]] = None

    @property
    def entries(self) -> Dict[str, Dict[str, Any]]:
        """The per-file entries, read on first use: a run that finds nothing changed never reads them."""
        if self._entries is None:
            self._entries = _read_json(self.path)
        return self._entries

    def project_results(self, digest: str) -> Optional[List[FileResult]]:
        """The whole run's results, judged with the project, when `digest` (every file's path and
        hash, see `project_digest`) is the one they were stored with; else None."""
        stored = _read_json(self.final_path)
        if stored.get("digest") != digest:
            return None
        try:
            return [FileResult(path, [_load(d) for d in entry["diagnostics"]], None, entry["encoding"], entry["parsed"])
                    for path, entry in stored["results"]]
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    def put_project(self, digest: str, results: List[FileResult]) -> None:
        """Keep the run's final results for the next run with the same `digest` (written by `save`)."""
        if any(r.internal_error for r in results):
            return  # an internal error is worth retrying next time
        self.final = {"digest": digest, "results": [[r.path, {"diagnostics": [_dump(d) for d in r.diagnostics],
                                                              "encoding": r.encoding, "parsed": r.parsed}] for r in results]}

    def _entry(self, path: str) -> Optional[Dict[str, Any]]:
        """A file's entry, or None when there is none or it is not one (a cache another build wrote)."""
        entry = self.entries.get(path)
        return entry if isinstance(entry, dict) else None

    def get(self, path: str, digest: str) -> Optional[FileResult]:
        """The file's stored result, or None (a miss) when its hash differs or any part of the entry
        is not what this build writes: a miss recomputes the file, a bad entry must not crash."""
        entry = self._entry(path)
        if not entry or entry.get("hash") != digest:
            return None
        try:
            encoding, parsed = entry.get("encoding", "utf-8"), entry.get("parsed", True)
            if not isinstance(encoding, str) or not isinstance(parsed, bool):
                return None
            result = FileResult(path, [_load(d) for d in entry["diagnostics"]], None, encoding, parsed)
            if entry.get("base") is not None:
                result.base = [_load(d) for d in entry["base"]]
                result.variants = [dict(v, by={k: [_load(d) for d in ds] for k, ds in v["by"].items()}) for v in entry["variants"]]
                if not isinstance(entry["summary"], dict) or not all(isinstance(v.get("i"), int) for v in result.variants):
                    return None
                result.summary = entry["summary"]
            return result
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    def depends(self, path: str) -> Optional[str]:
        """The digest of the cross-file facts `path`'s findings were last judged with."""
        entry = self._entry(path)
        return entry.get("depends") if entry else None

    def note_depends(self, path: str, digest: str) -> None:
        entry = self._entry(path)
        if entry is not None and entry.get("depends") != digest:
            entry["depends"] = digest
            self.dirty = True

    def put(self, path: str, digest: str, result: FileResult) -> None:
        if result.internal_error:
            return  # an internal error is worth retrying next time
        self.entries[path] = {
            "hash": digest,
            "encoding": result.encoding,
            "parsed": result.parsed,
            "diagnostics": [_dump(d) for d in result.diagnostics],
        }
        if result.base is not None:
            self.entries[path]["base"] = [_dump(d) for d in result.base]
            self.entries[path]["variants"] = [dict(v, by={k: [_dump(d) for d in ds] for k, ds in v["by"].items()}) for v in result.variants]
            self.entries[path]["summary"] = result.summary
        self.dirty = True

    def save(self) -> None:
        """Write the cache atomically; errors are ignored (a cache is an optimisation)."""
        if not self.dirty and self.final is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tag = self.root / "CACHEDIR.TAG"
            if not tag.exists():
                tag.write_text(TAG)
            ignore = self.root / ".gitignore"
            if not ignore.exists():
                ignore.write_text("*\n")
            if self.dirty:
                _write_json(self.path, self.entries)
            if self.final is not None:
                _write_json(self.final_path, self.final)
        except OSError:
            pass


def project_digest(hashes: List[List[str]], locate_all: bool) -> str:
    """A digest of the run's files: each path and the hash of its bytes, in order. With the run key
    (the cache file's name), it fixes every input of the project pass."""
    return hashlib.sha256(json.dumps([hashes, locate_all]).encode()).hexdigest()


def _read_json(path: Path) -> Dict[str, Any]:
    try:
        value = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _write_json(path: Path, value: Dict[str, Any]) -> None:
    fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=".cache-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            # one `dumps` per top-level entry: `dumps` uses the C encoder (`dump` does not), and one
            # entry at a time never holds the whole text in memory
            fh.write("{")
            for index, (key, entry) in enumerate(value.items()):
                fh.write(("," if index else "") + json.dumps(key) + ":" + json.dumps(entry, separators=(",", ":")))
            fh.write("}")
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _loc(loc: Optional[Location]) -> Optional[List[int]]:
    return None if loc is None else [loc.row, loc.column]


def _unloc(value: Optional[List[int]]) -> Optional[Location]:
    return None if value is None else Location(value[0], value[1])


def _dump(d: Diagnostic) -> Dict[str, Any]:
    fix = None
    if d.fix is not None:
        fix = {
            "applicability": d.fix.applicability.value,
            "title": d.fix.title,
            "edits": [[e.start, e.end, e.content, _loc(e.location), _loc(e.end_location)] for e in d.fix.edits],
        }
    return {
        "code": d.code, "name": d.name, "message": d.message, "filename": d.filename,
        "location": _loc(d.location), "end_location": _loc(d.end_location), "level": d.level.value,
        "suggestion": d.suggestion, "fix": fix, "url": d.url, "noqa_row": d.noqa_row,
        "audience": d.audience, "entry_points": list(d.entry_points),
    }


def _load(raw: Dict[str, Any]) -> Diagnostic:
    """A stored diagnostic; TypeError when a field is not of the type this build writes."""
    if not isinstance(raw, dict) or not all(isinstance(raw.get(k), str) for k in ("code", "name", "message", "filename", "suggestion", "level")):
        raise TypeError("not a stored diagnostic")
    for key in ("location", "end_location"):
        value = raw[key]
        if value is not None and not (isinstance(value, list) and len(value) == 2 and all(isinstance(n, int) and not isinstance(n, bool) for n in value)):
            raise TypeError(f"bad {key}")
    fix = None
    if raw.get("fix"):
        f = raw["fix"]
        fix = Fix(Applicability(f["applicability"]), f["title"], tuple(Edit(s, e, c, _unloc(a), _unloc(b)) for s, e, c, a, b in f["edits"]))
    return Diagnostic(
        code=raw["code"], name=raw["name"], message=raw["message"], filename=raw["filename"],
        location=_unloc(raw["location"]), end_location=_unloc(raw["end_location"]), level=Level(raw["level"]),
        suggestion=raw["suggestion"], fix=fix, url=raw.get("url", ""), noqa_row=raw.get("noqa_row", 0),
        audience=raw.get("audience", ""), entry_points=tuple(raw.get("entry_points", ())),
    )
