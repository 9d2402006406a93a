"""Run one errlint revision over the unpacked corpus and turn its JSON into stable finding records.

A finding record is one JSON line: `package` (name@version), `kind`, `path` (inside the package),
`line`, `code`, `hash` (of the linted text: the source span errlint reports, whitespace-normalised),
plus what a reviewer needs (`name`, `message`, `suggestion`, `col`). Its identity, `key`, leaves out
the line, so a verdict stays attached when code above the finding moves; a second finding with the
same text, code and file gets an ordinal.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence

from corpus import Package

REPO = Path(__file__).resolve().parents[2]


def span_text(source: List[str], loc: dict, end: dict) -> str:
    r0, c0 = loc["row"] - 1, loc["column"] - 1
    r1, c1 = end["row"] - 1, end["column"] - 1
    if not (0 <= r0 < len(source)) or r1 < r0:
        return ""
    if r0 == r1:
        return source[r0][c0:c1]
    lines = [source[r0][c0:]] + source[r0 + 1 : r1] + ([source[r1][:c1]] if r1 < len(source) else [])
    return "\n".join(lines)


def text_hash(text: str) -> str:
    return hashlib.sha1(" ".join(text.split()).encode("utf-8")).hexdigest()[:12]


def finding_key(record: dict) -> str:
    return f"{record['package']}|{record['path']}|{record['code']}|{record['hash']}#{record.get('ordinal', 0)}"


def records(pkg: Package, root: Path, raw: Sequence[dict]) -> List[dict]:
    out: List[dict] = []
    sources: Dict[str, List[str]] = {}
    for d in raw:
        rel = os.path.relpath(d["filename"], root) if os.path.isabs(d["filename"]) else d["filename"]
        rel = rel.replace(os.sep, "/")
        if rel.startswith("./"):
            rel = rel[2:]
        if rel not in sources:
            try:
                sources[rel] = (root / rel).read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                sources[rel] = []
        text = span_text(sources[rel], d["location"], d.get("end_location") or d["location"])
        out.append({
            "package": pkg.key, "kind": pkg.kind, "path": rel, "line": d["location"]["row"],
            "col": d["location"]["column"], "code": d["code"], "name": d.get("name", ""),
            "hash": text_hash(text or d.get("message", "")), "message": d.get("message", ""),
            "suggestion": d.get("suggestion", ""), "audience": d.get("audience", ""),
            "entry_points": list(d.get("entry_points") or ()),
        })
    out.sort(key=lambda r: (r["path"], r["line"], r["col"], r["code"]))
    seen: Counter = Counter()
    for r in out:
        base = (r["path"], r["code"], r["hash"])
        r["ordinal"] = seen[base]
        seen[base] += 1
        r["key"] = finding_key(r)
    return out


def checkout(rev: str) -> tempfile.TemporaryDirectory:
    """A temporary copy of errlint at git revision `rev` (its `errlint/` and `rules/` folders)."""
    tmp = tempfile.TemporaryDirectory(prefix="errlint-rev-")
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev],
                             capture_output=True)
    if archive.returncode != 0:
        tmp.cleanup()
        raise SystemExit(f"error: git cannot export revision {rev!r} of {REPO}: "
                         f"{archive.stderr.decode(errors='replace').strip()}; pass a commit, tag or branch "
                         "that `git rev-parse` knows")
    subprocess.run(["tar", "-x", "-C", tmp.name], input=archive.stdout, check=True)
    # the packs of that revision, where `errlint.rules` resolves first (an editable install of this
    # checkout would otherwise lend its own `rules/` to the old code)
    rules, inner = Path(tmp.name) / "rules", Path(tmp.name) / "errlint" / "rules"
    if rules.is_dir() and not inner.exists():
        shutil.copytree(rules, inner)
    return tmp


def run_errlint(code_root: Path, target: Path, rule_args: Sequence[str] = ()) -> List[dict]:
    """errlint's JSON diagnostics for `target`, using the errlint source at `code_root`: the default
    rule set (or the preview set with ERRLINT_PREVIEW=1), or the rules `rule_args` select."""
    env = dict(os.environ, PYTHONPATH=str(code_root))
    env.pop("ERRLINT_OUTPUT_FORMAT", None)
    if rule_args:
        env.pop("ERRLINT_PREVIEW", None)
    cmd = [sys.executable, "-m", "errlint", "check", "--isolated", "--no-cache", "--no-respect-gitignore",
           "--exit-zero", "--output-format", "json", "-j", "1", *rule_args, "."]
    proc = subprocess.run(cmd, cwd=target, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"errlint exited {proc.returncode} on {target}:\n{tail}")
    return json.loads(proc.stdout or "[]")


def collect(packages: Iterable[Package], sources: Dict[str, Path], code_root: Path, jobs: int = 2,
            progress=None, rule_args: Sequence[str] = ()) -> List[dict]:
    pkgs = [p for p in packages if p.key in sources]

    def one(pkg: Package) -> List[dict]:
        raw = run_errlint(code_root, sources[pkg.key], rule_args)
        if progress:
            progress(f"  {pkg.key}: {len(raw)} findings")
        return records(pkg, sources[pkg.key], raw)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, pkgs))
    return [r for rs in results for r in rs]


def write_jsonl(path: Path, rows: Iterable[dict]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n")
    tmp.replace(path)


def read_jsonl(path: Path) -> List[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def default_on(code_root: Optional[Path] = None) -> Dict[str, bool]:
    """Each rule's default (on/off) in the errlint at `code_root` (this checkout by default)."""
    root = str(code_root or REPO)
    script = ("import json; from errlint.registry import rule_catalog; "
              "print(json.dumps({c: bool(r.DEFAULT) for c, r in rule_catalog().items()}))")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=root), check=True)
    return json.loads(proc.stdout)
