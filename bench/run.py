"""errlint's benchmark: wall time, CPU time and peak RSS against the libcst parse floor and peers.

Run `python bench/run.py` (default file set: the Python standard library of the running interpreter,
copied to a temporary directory so every tool sees exactly the same files) or `--path DIR`. Each
command is run `--runs` times (default 3) in this one invocation and the median is reported, with its
ratio to (a) "libcst.parse_module only" and to (c) "errlint cold, all cores". (a), (b) and (c) run in
rounds, one of each per round, and the headline ratios are medians of the ratios within a round, so a
slow spell of a shared machine does not land on one command only. Peers (ruff, flake8 +
flake8-errmsg, fixit) are timed when installed. `--scale` adds the tiny-file scaling check (2,000 vs
20,000 files); `--profile` prints a cProfile of one in-process errlint run.

Peak RSS is the largest sum of resident memory over the command's whole process tree, sampled from
/proc every 20 ms (Linux); elsewhere it is the largest single child's peak (getrusage).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence

PARSE_ONLY = r"""
import sys, pathlib, libcst
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):
    try:
        libcst.parse_module(path.read_bytes())
    except Exception:
        pass
"""


@dataclass
class Measure:
    name: str
    wall: float
    cpu: float
    rss_mb: float
    returncode: int


def copy_tree(source: Path, target: Path) -> int:
    """Copy the .py files under `source` (site-packages excluded) to `target`; returns the count."""
    count = 0
    for path in source.rglob("*.py"):
        if "site-packages" in path.parts or "__pycache__" in path.parts or not path.is_file():
            continue
        dest = target / path.relative_to(source)
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copyfile(path, dest)
            count += 1
        except OSError:
            continue
    return count


def _tree_rss_kb(root_pid: int) -> int:
    """Sum of VmRSS over `root_pid` and its descendants, from /proc (0 when unavailable)."""
    parents: Dict[int, int] = {}
    rss: Dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
            with open(f"/proc/{entry}/statm") as fh:
                rss[int(entry)] = int(fh.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
        except (OSError, IndexError, ValueError):
            continue
    tree = {root_pid}
    changed = True
    while changed:
        changed = False
        for pid, ppid in parents.items():
            if ppid in tree and pid not in tree:
                tree.add(pid)
                changed = True
    return sum(rss.get(pid, 0) for pid in tree)


def run_once(name: str, cmd: Sequence[str], cwd: Optional[Path] = None, env: Optional[dict] = None) -> Measure:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss_kb(proc.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True) if os.path.isdir("/proc") else None
    if sampler:
        sampler.start()
    code = proc.wait()
    wall = time.perf_counter() - start
    done.set()
    if sampler:
        sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rss_kb = peak[0] or after.ru_maxrss
    return Measure(name, wall, cpu, rss_kb / 1024, code)


def median(name: str, runs: int, cmd: Sequence[str], **kw) -> Measure:
    return summary([run_once(name, cmd, **kw) for _ in range(runs)])


def summary(results: List[Measure]) -> Measure:
    """One row for a command's runs: the median wall and CPU time, the largest peak RSS."""
    name = results[0].name
    results = sorted(results, key=lambda m: m.wall)
    mid = results[len(results) // 2]
    return Measure(name, statistics.median(m.wall for m in results), statistics.median(m.cpu for m in results),
                   max(m.rss_mb for m in results), mid.returncode)


def interleaved(runs: int, commands: Sequence[tuple]) -> List[List[Measure]]:
    """Run `commands` ((name, cmd, kwargs) each) in rounds, one of each per round, so that a slow
    spell of a shared machine falls on every command of a round alike; the result holds each
    command's runs, in the order given."""
    per_command: List[List[Measure]] = [[] for _ in commands]
    for _ in range(runs):
        for i, (name, cmd, kw) in enumerate(commands):
            per_command[i].append(run_once(name, cmd, **kw))
    return per_command


def paired_ratio(top: List[Measure], bottom: List[Measure]) -> float:
    """The median over rounds of top/bottom wall time: a ratio taken within each round."""
    return statistics.median(t.wall / b.wall for t, b in zip(top, bottom))


def tool(name: str) -> Optional[str]:
    found = shutil.which(name, path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    return found


def peer_commands(target: Path) -> Dict[str, List[str]]:
    out: Dict[str, List[str]] = {}
    ruff = tool("ruff")
    if ruff:
        out["(e) ruff --select EM,TRY --no-cache"] = [ruff, "check", "--select", "EM,TRY", "--no-cache", "--exit-zero", "--quiet", str(target)]
    try:
        import flake8_errmsg  # noqa: F401

        out["(e) flake8 + flake8-errmsg"] = [sys.executable, "-m", "flake8", "--select", "EM", "--exit-zero", str(target)]
    except ImportError:
        pass
    if tool("fixit"):
        out["(e) fixit, one built-in rule"] = [tool("fixit"), "--rules", "fixit.rules.no_redundant_fstring", "lint", str(target)]
    return out


def table(rows: List[Measure], floor: float, reference: float) -> str:
    lines = [f"| {'run':44} | {'wall s':>7} | {'CPU s':>7} | {'peak RSS MB':>11} | {'/ (a)':>6} | {'/ (c)':>6} |",
             f"|{'-' * 46}|{'-' * 9}|{'-' * 9}|{'-' * 13}|{'-' * 8}|{'-' * 8}|"]
    for m in rows:
        lines.append(f"| {m.name:44} | {m.wall:7.2f} | {m.cpu:7.2f} | {m.rss_mb:11.0f} | {m.wall / floor:6.2f} | {m.wall / reference:6.2f} |")
    return "\n".join(lines)


def scale_check(jobs: int, runs: int) -> str:
    """errlint cold (all cores) on 2,000 and on 20,000 tiny files; the second should take <= 11x."""
    lines = []
    times = {}
    with tempfile.TemporaryDirectory() as tmp:
        for count in (2_000, 20_000):
            root = Path(tmp) / f"tiny{count}"
            for i in range(count):
                sub = root / f"pkg{i // 500}"
                sub.mkdir(parents=True, exist_ok=True)
                (sub / f"m{i}.py").write_text(f"def f{i}(x):\n    if x is None:\n        raise ValueError('x is required; pass a name')\n    return x\n")
            m = median(f"errlint cold, {count:,} tiny files", runs, [sys.executable, "-m", "errlint", "check", "--no-cache", "--exit-zero", "-q", "--jobs", str(jobs), str(root)])
            times[count] = m.wall
            lines.append(f"{m.name}: {m.wall:.2f} s wall, {m.cpu:.2f} s CPU, {m.rss_mb:.0f} MB")
    lines.append(f"ratio 20,000 / 2,000: {times[20_000] / times[2_000]:.2f} (target <= 11)")
    return "\n".join(lines)


def profile(target: Path) -> None:
    import cProfile
    import pstats

    from errlint.api import run_context
    from errlint.engine import check_file

    run = run_context()
    files = sorted(target.rglob("*.py"))
    prof = cProfile.Profile()
    prof.enable()
    for path in files:
        check_file(str(path), path.read_bytes(), run)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(25)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", help="files to check (default: the running interpreter's standard library)")
    parser.add_argument("--runs", type=int, default=3, help="runs per command; the median is reported")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="errlint workers for the all-cores runs")
    parser.add_argument("--no-peers", action="store_true", help="skip ruff, flake8 and fixit")
    parser.add_argument("--scale", action="store_true", help="also run the 2,000 vs 20,000 tiny-file check")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one in-process errlint run and exit")
    args = parser.parse_args(argv)
    source = Path(args.path or sysconfig.get_paths()["stdlib"]).resolve()
    if not source.is_dir():
        print(f"bench: --path {str(source)!r} is not a directory; pass a directory of Python files", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "files"
        count = copy_tree(source, target)
        size = sum(p.stat().st_size for p in target.rglob("*.py")) / 1e6
        if args.profile:
            profile(target)
            return 0
        print(f"{count} files, {size:.1f} MB from {source}; {os.cpu_count()} CPUs; median of {args.runs} runs; Python {sys.version.split()[0]}")
        errlint = [sys.executable, "-m", "errlint", "check", "--exit-zero", "-q"]
        cache = Path(tmp) / "cache"
        timings = Path(tmp) / "timings"
        parse, one_process, all_cores = interleaved(args.runs, [
            ("(a) libcst.parse_module only, 1 process", [sys.executable, "-c", PARSE_ONLY, str(target)], {}),
            ("(b) errlint cold, 1 process", errlint + ["--no-cache", "--jobs", "1", str(target)],
             {"env": dict(os.environ, ERRLINT_TIMINGS=str(timings))}),
            (f"(c) errlint cold, {args.jobs} processes", errlint + ["--no-cache", "--jobs", str(args.jobs), str(target)], {}),
        ])
        rows = [summary(parse), summary(one_process), summary(all_cores)]
        run_once("prime the cache", errlint + ["--cache-dir", str(cache), "--jobs", str(args.jobs), str(target)])
        rows.append(median("(d) errlint warm (cache)", args.runs, errlint + ["--cache-dir", str(cache), "--jobs", str(args.jobs), str(target)]))
        if not args.no_peers:
            for name, cmd in peer_commands(target).items():
                rows.append(median(name, args.runs, cmd))
        floor, reference = rows[0].wall, rows[2].wall
        print(table(rows, floor, reference))
        one, many = rows[1].wall, rows[2].wall
        print(f"\nerrlint cold 1 process / parse only: {paired_ratio(one_process, parse):.2f} (target <= 1.41; median of the ratios within each round)")
        spent = [float(line.split()[1]) for line in timings.read_text().splitlines() if line.startswith("project-pass ")] if timings.exists() else []
        if spent:
            print(f"project pass in (b): {statistics.median(spent):.2f} s = {statistics.median(spent) / one:.1%} of the run (target <= 10%)")
        print(f"speed-up with {args.jobs} processes: {paired_ratio(one_process, all_cores):.2f}x (target >= 1.7 with 2)")
        print(f"cold / warm: {many / rows[3].wall:.1f}x")
        ruff = next((m for m in rows if m.name.startswith("(e) ruff")), None)
        if ruff:
            print(f"errlint warm / ruff cold: {rows[3].wall / ruff.wall:.2f} (target <= 2)")
        print(f"peak RSS of errlint cold, all cores: {rows[2].rss_mb:.0f} MB (target <= 300)")
    if args.scale:
        print()
        print(scale_check(args.jobs, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
