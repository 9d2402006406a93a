"""errlint's ecosystem check: run errlint over a pinned corpus of real PyPI packages.

    python bench/ecosystem/run.py                 # download (once), unpack, check every designed rule -> findings.jsonl
    python bench/ecosystem/run.py --rule-set default   # the default candidates only -> findings-default.jsonl
    python bench/ecosystem/run.py --compare REV   # findings added/removed per rule: REV vs this checkout
    python bench/ecosystem/run.py precision       # agreed precision per rule from verdicts.jsonl
    python bench/ecosystem/run.py sample ...      # review packets for blind reviewers (see --help)
    python bench/ecosystem/run.py sites ...       # error sites with no finding, for the recall review
    python bench/ecosystem/run.py import --out-dir DIR   # fold reviewers' answers into the verdict files
    python bench/ecosystem/run.py recall          # estimated recall from the site verdicts

Packages are listed in packages.txt; downloads and unpacked sources live in a cache folder
(`--cache`, default $ERRLINT_ECOSYSTEM_CACHE or ~/.cache/errlint-ecosystem). It is a bench, not a
test: CI never runs it.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import CorpusError, Package, default_cache, download, read_packages, unpack  # noqa: E402
from findings import REPO, checkout, collect, read_jsonl, write_jsonl  # noqa: E402

HERE = Path(__file__).resolve().parent
FINDINGS = HERE / "findings.jsonl"
DEFAULT_FINDINGS = HERE / "findings-default.jsonl"


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def prepare(packages: List[Package], cache: Path) -> Dict[str, Path]:
    """Unpacked source folder per package; a package that fails to download is reported and skipped."""
    sources: Dict[str, Path] = {}
    failed = 0
    for pkg in packages:
        try:
            sources[pkg.key] = unpack(pkg, download(pkg, cache), cache)
        except CorpusError as exc:
            failed += 1
            say(f"error: {exc}")
    if failed:
        say(f"{failed} of {len(packages)} packages could not be downloaded; the run goes on without them")
    return sources


def rule_args(args) -> List[str]:
    """errlint's rule selection for `--rule-set`: `designed` runs every designed rule (`--preview`);
    `default` runs the default candidates, the designed-default rules that the designed run's
    verdicts do not already put below the bar (their findings there decide whether they stay on);
    none leaves it to the environment (ERRLINT_PREVIEW)."""
    if args.rule_set == "designed":
        return ["--preview"]
    if args.rule_set == "default":
        import review
        codes = review.default_candidates(read_jsonl(args.findings), review.verdicts_by_key(), review.default_on())
        return ["--select", ",".join(codes)]
    return []


def cmd_run(args) -> int:
    packages = _packages(args)
    sources = prepare(packages, args.cache)
    selection = rule_args(args)
    output = args.output or (DEFAULT_FINDINGS if args.rule_set == "default" else FINDINGS)
    say(f"checking {len(sources)} packages with errlint at {REPO} ({' '.join(selection) or 'rules from the environment'})")
    rows = collect(packages, sources, REPO, jobs=args.jobs, progress=say, rule_args=selection)
    if args.rule_set == "default":  # a rule on only for the audiences it earned: keep those findings
        import review
        partial = review.default_audiences(read_jsonl(args.findings), review.verdicts_by_key(), review.default_on())
        rows = [r for r in rows if r["code"] not in partial or r.get("audience") in partial[r["code"]]]
    write_jsonl(output, rows)
    by_code = Counter(r["code"] for r in rows)
    say(f"wrote {len(rows)} findings to {output}")
    for code, n in sorted(by_code.items()):
        print(f"{code}  {n}")
    return 0


def cmd_compare(args) -> int:
    packages = _packages(args)
    sources = prepare(packages, args.cache)
    selection = rule_args(args)
    if args.before and args.before.exists():  # REV's findings, saved by an earlier --compare run
        before = read_jsonl(args.before)
        say(f"read {len(before)} findings of {args.compare} from {args.before}")
    else:
        tmp = checkout(args.compare)
        try:
            say(f"checking {len(sources)} packages with errlint at {args.compare}")
            before = collect(packages, sources, Path(tmp.name), jobs=args.jobs, progress=say, rule_args=selection)
        finally:
            tmp.cleanup()
        if args.before:
            write_jsonl(args.before, before)
    if args.against:
        tmp = checkout(args.against)
        try:
            after = collect(packages, sources, Path(tmp.name), jobs=args.jobs, progress=say, rule_args=selection)
        finally:
            tmp.cleanup()
    else:
        after = collect(packages, sources, REPO, jobs=args.jobs, progress=say, rule_args=selection)
    if args.after:
        write_jsonl(args.after, after)
    print(compare_report(before, after, args.compare, args.against or "this checkout", args.limit))
    return 0


def compare_report(before: List[dict], after: List[dict], old: str, new: str, limit: int = 20) -> str:
    old_keys = {r["key"]: r for r in before}
    new_keys = {r["key"]: r for r in after}
    added = [r for k, r in new_keys.items() if k not in old_keys]
    removed = [r for k, r in old_keys.items() if k not in new_keys]
    codes = sorted({r["code"] for r in added + removed} | {r["code"] for r in before + after})
    lines = [f"## errlint ecosystem: {old} -> {new}", "",
             f"{len(before)} findings before, {len(after)} after: +{len(added)} -{len(removed)}", "",
             "| code | before | after | added | removed |", "|---|---|---|---|---|"]
    count = lambda rows, c: sum(1 for r in rows if r["code"] == c)  # noqa: E731
    for c in codes:
        lines.append(f"| {c} | {count(before, c)} | {count(after, c)} | +{count(added, c)} | -{count(removed, c)} |")
    lines += ["", *judged_summary(before, after, added, removed)]
    lines += ["", *unreached_summary(before, after)]
    for title, rows, sign in (("added", added, "+"), ("removed", removed, "-")):
        grouped = defaultdict(list)
        for r in rows:
            grouped[r["code"]].append(r)
        for c in sorted(grouped):
            lines += ["", f"### {c} {title} ({len(grouped[c])})"]
            for r in grouped[c][:limit]:
                lines.append(f"{sign} {r['package']} {r['path']}:{r['line']}: {r['message']}")
            if len(grouped[c]) > limit:
                lines.append(f"  ... and {len(grouped[c]) - limit} more")
    return "\n".join(lines)


def unreached_summary(before: List[dict], after: List[dict]) -> List[str]:
    """AEM201 findings that no entry point reaches (no entry point in the finding), when the rows
    carry `entry_points` (findings collected before that field existed do not)."""
    out = []
    for title, rows in (("before", before), ("after", after)):
        if rows and all("entry_points" in r for r in rows):
            found = [r for r in rows if r["code"] == "AEM201"]
            unreached = [r for r in found if not r["entry_points"]]
            out.append(f"AEM201 {title}: {len(found)} findings, {len(unreached)} in code no entry point reaches "
                       f"(its sink names the reader: {Counter(r['audience'] for r in unreached).most_common()})")
    return out


def judged_summary(before: List[dict], after: List[dict], added: List[dict], removed: List[dict]) -> List[str]:
    """What the change did to the findings two reviewers agreed on (verdicts.jsonl): a finding the
    change adds that was judged before (its key came back) counts as an added false or true positive."""
    from review import agreed, verdicts_by_key

    votes = verdicts_by_key()
    verdict = {k: agreed(v) for k, v in votes.items()}

    def tally(rows: List[dict]) -> Counter:
        return Counter(verdict.get(r["key"]) for r in rows if verdict.get(r["key"]))

    new = {r["key"] for r in added}
    kept = tally([r for r in after if r["key"] not in new])
    out = ["| judged (agreed) | TP | FP |", "|---|---|---|"]
    for title, counts in (("kept", kept), ("added", tally(added)), ("removed", tally(removed))):
        out.append(f"| {title} | {counts.get('TP', 0)} | {counts.get('FP', 0)} |")
    per_rule = defaultdict(Counter)
    for r in removed:
        if verdict.get(r["key"]):
            per_rule[r["code"]][verdict[r["key"]]] += 1
    if per_rule:
        out += ["", "removed judged findings per rule: " + ", ".join(
            f"{c} -{n['FP']} FP/-{n['TP']} TP" for c, n in sorted(per_rule.items()))]
    return out


def _packages(args) -> List[Package]:
    packages = read_packages()
    if args.only:
        wanted = set(args.only.split(","))
        packages = [p for p in packages if p.name in wanted or p.kind in wanted]
    return packages


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", nargs="?", default="run", choices=["run", "precision", "sample", "sites", "recall", "import"])
    ap.add_argument("--cache", type=Path, default=default_cache(), help="download and unpack folder")
    ap.add_argument("--output", type=Path, help="findings file to write (run; default findings.jsonl, or findings-default.jsonl with --rule-set default)")
    ap.add_argument("--findings", type=Path, default=FINDINGS, help="findings file of the designed run to read")
    ap.add_argument("--default-findings", type=Path, default=DEFAULT_FINDINGS, help="precision: findings file of the default run to read")
    ap.add_argument("--rule-set", choices=["designed", "default"], help="run/--compare: every designed rule (the default for run), "
                    "or the default candidates (see rule_args); --compare without it follows ERRLINT_PREVIEW")
    ap.add_argument("--compare", metavar="REV", help="compare REV's findings with this checkout's")
    ap.add_argument("--against", metavar="REV", help="with --compare: compare with REV instead of this checkout")
    ap.add_argument("--limit", type=int, default=20, help="findings listed per rule in --compare")
    ap.add_argument("--after", type=Path, metavar="FILE", help="with --compare: also write this checkout's (or --against's) findings to FILE")
    ap.add_argument("--before", type=Path, metavar="FILE", help="with --compare: REV's findings are read from FILE if it exists, else written there (run REV once, compare many times)")
    ap.add_argument("--only", help="comma-separated package names or kinds (mcp, cli, web, sdk)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="packages checked at once")
    ap.add_argument("--per-rule", type=int, default=25, help="sample: findings per default-on rule")
    ap.add_argument("--codes", help="sample: only these codes (comma-separated)")
    ap.add_argument("--added-since", metavar="REV", help="sample: only findings that REV's findings.jsonl does not have")
    ap.add_argument("--count", type=int, default=220, help="sites: error sites to sample")
    ap.add_argument("--seed", type=int, default=12, help="sample/sites: random seed")
    ap.add_argument("--out-dir", type=Path, help="sample/sites: folder for the review packets")
    ap.add_argument("--write", action="store_true", help="precision: also write errlint/measured.py")
    ap.add_argument("--batch", type=int, default=40, help="sample/sites: items per packet")
    args = ap.parse_args(argv)
    if args.compare:
        return cmd_compare(args)
    if args.command == "run":
        args.rule_set = args.rule_set or "designed"
        return cmd_run(args)
    import review  # the verdict side: sampling, packets, precision and recall
    return review.dispatch(args)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except CorpusError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
