"""Acceptance script (not a unit test): errlint on a directory of hypothesmith programs.

    python tests/robustness/fuzz_dir.py [--count 1000] [--keep DIR]

Writes COUNT programs from hypothesmith.from_grammar() (a tenth from from_node()) to a temp dir,
each also as a copy ending in a `raise` (most programs hold no error message, so errlint's byte
pre-filter would skip libcst and the rules on them), then runs `python -m errlint` on the directory
twice (a check, then `--fix --unsafe-fixes`) and reports exit statuses, tracebacks, AEM000s, AEM001s
(each should be a file compile() rejects), and files that compiled before the fix but not after.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import hypothesmith
from hypothesis import HealthCheck, Phase, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: share the fuzz tests' helpers
from test_fuzz import compiles  # noqa: E402


SINK = '\nraise RuntimeError("Something went wrong")\n'


def generate(directory: Path, count: int, sinks: bool) -> None:
    written = []

    def collect(strategy, n):
        @settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(strategy)
        def write(source):
            if len(written) < count:
                path = directory / f"p{len(written):05}.py"
                path.write_text(source, "utf-8")
                written.append(path)
                if sinks:  # the same program with an error message, so libcst and every rule see it
                    path.with_name("s" + path.name[1:]).write_text(source + SINK, "utf-8")
        write()

    collect(hypothesmith.from_node(), count // 10)
    while len(written) < count:
        collect(hypothesmith.from_grammar(), count - len(written))


def run(directory: Path, *args: str):
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "errlint", "--no-cache", "--isolated", "--no-respect-gitignore",
                             "--select", "ALL", "--output-format", "json-lines", *args, "."],
                            cwd=directory, capture_output=True, text=True)
    return result, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--keep", help="write the programs here instead of a temp dir")
    parser.add_argument("--no-sinks", action="store_true", help="skip the copies with an error message appended")
    args = parser.parse_args()
    directory = Path(args.keep or tempfile.mkdtemp(prefix="errlint-fuzz-"))
    directory.mkdir(parents=True, exist_ok=True)
    generate(directory, args.count, not args.no_sinks)
    files = sorted(directory.glob("*.py"))
    before = {p.name: compiles(p.read_bytes()) for p in files}
    print(f"{len(files)} files in {directory}; {sum(before.values())} compile")
    status = 0
    for label, extra in (("check", ()), ("--fix --unsafe-fixes", ("--fix", "--unsafe-fixes"))):
        result, elapsed = run(directory, *extra)
        diagnostics = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
        aem000 = [d for d in diagnostics if d["code"] == "AEM000"]
        aem001 = [d for d in diagnostics if d["code"] == "AEM001"]
        odd = [d for d in aem001 if before.get(Path(d["filename"]).name, False)]
        print(f"{label}: exit status {result.returncode} in {elapsed:.0f} s, {len(diagnostics)} diagnostics, "
              f"tracebacks {result.stderr.count('Traceback')}, AEM000 {len(aem000)}, AEM001 {len(aem001)} "
              f"({len(odd)} on files compile() accepts)")
        for d in aem000 + odd:
            print(f"  {d['filename']}:{d['location']['row']}:{d['location']['column']} {d['code']} {d['message']}")
        if result.returncode not in (0, 1, 2) or "Traceback" in result.stderr or aem000:
            status = 1
            print(result.stderr[-3000:])
    broken = [p.name for p in files if before[p.name] and not compiles(p.read_bytes())]
    print(f"files that compiled before the fix but not after: {len(broken)} {broken[:10]}")
    return 1 if broken else status


if __name__ == "__main__":
    sys.exit(main())
