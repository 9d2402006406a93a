"""Acceptance script (not a unit test): errlint over the running interpreter's standard library.

    python tests/robustness/stdlib_check.py [--select ALL] [--jobs N]

Runs `python -m errlint` on sysconfig's stdlib directory (test folders included, site-packages
excluded; --no-respect-gitignore because a pyenv stdlib lives in a git checkout) and reports: files
checked, tracebacks, AEM000s, every file compile() rejects without an AEM001 (must be none), and
every AEM001 on a file compile() accepts, with its message (a libcst limitation).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import sysconfig
import time
import warnings
from pathlib import Path


def compiles(path: Path) -> str:
    """"" when Python compiles the file, else the error."""
    try:
        data = path.read_bytes()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(data, str(path), "exec", dont_inherit=True)
        return ""
    except (SyntaxError, ValueError, MemoryError, RecursionError, OSError) as exc:
        return f"{type(exc).__name__}: {exc}"[:160]


def discovered(root: Path):
    """The files the command below checks (`--show-files` would run the whole check)."""
    from errlint.discovery import discover
    from errlint.runner import resolve_settings

    settings = resolve_settings([str(root)], None, True, {"exclude": ("site-packages", "__pycache__"), "respect_gitignore": False})
    return discover([str(root)], settings).files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--select", default="ALL", help="rules to run (default: ALL, so every rule sees every file)")
    parser.add_argument("--jobs", default=None)
    args = parser.parse_args()
    root = Path(sysconfig.get_paths()["stdlib"])
    common = ["--no-respect-gitignore", "--no-cache", "--isolated", "--exclude", "site-packages,__pycache__"]
    files = discovered(root)
    command = [sys.executable, "-m", "errlint", *common, "--select", args.select, "--output-format", "json-lines", str(root)]
    if args.jobs:
        command += ["--jobs", args.jobs]
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    diagnostics = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    aem001 = {d["filename"]: d for d in diagnostics if d["code"] == "AEM001"}
    aem000 = [d for d in diagnostics if d["code"] == "AEM000"]
    rejected = {str(p): why for p in files if (why := compiles(p))}
    missed = sorted(set(rejected) - set(aem001))
    extra = sorted(set(aem001) - set(rejected))
    print(f"python {sys.version.split()[0]}, stdlib {root}")
    print(f"files checked: {len(files)} in {elapsed:.0f} s, exit status {result.returncode}, {len(diagnostics)} diagnostics")
    print(f"tracebacks: {result.stderr.count('Traceback')}")
    print(f"AEM000 internal errors: {len(aem000)}")
    for d in aem000:
        print(f"  {d['filename']}: {d['message']}")
    print(f"files compile() rejects: {len(rejected)}; with AEM001: {len(rejected) - len(missed)}; without: {len(missed)}")
    for name in missed:
        print(f"  MISSING AEM001 {name}: {rejected[name]}")
    for name in sorted(rejected):
        if name in aem001:
            d = aem001[name]
            print(f"  {Path(name).relative_to(root)}:{d['location']['row']}:{d['location']['column']} {d['message']}")
    print(f"AEM001 on files compile() accepts: {len(extra)}")
    for name in extra:
        d = aem001[name]
        print(f"  {Path(name).relative_to(root)}:{d['location']['row']}:{d['location']['column']} {d['message']}")
    if result.stderr.strip():
        print("stderr:", result.stderr[-2000:])
    return 1 if missed or aem000 or "Traceback" in result.stderr else 0


if __name__ == "__main__":
    sys.exit(main())
