"""The verdict side of the ecosystem check: review packets, precision per rule, and recall.

Verdicts live in `verdicts.jsonl`, one line per (finding, reviewer): `key` (the finding's stable key),
`code`, `reviewer`, `verdict` (TP or FP) and `reason`. A finding counts only where its two reviewers
agree. Site verdicts for recall live in `site_verdicts.jsonl`: `site`, `reviewer`, `verdict` (FLAG or
OK), `codes`, `reason`.
"""
from __future__ import annotations

import ast
import json
import math
import os
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from corpus import default_cache, read_packages
from findings import REPO, default_on, read_jsonl, write_jsonl

HERE = Path(__file__).resolve().parent
VERDICTS = HERE / "verdicts.jsonl"
SITES = HERE / "sites.jsonl"
SITE_VERDICTS = HERE / "site_verdicts.jsonl"
MIN_JUDGED = 25
MIN_PRECISION = 0.90
UNMEASURED_BELOW = 5

RUBRIC = """\
You are a blind reviewer for a linter of error messages. For each item, decide whether a senior
maintainer of that project, who knows who reads the message (an agent through MCP, a CLI user, an API
client, a developer calling a library, an operator reading logs), would change the message or the code
because of this finding. Answer TP (they would) or FP (they would not: the finding is wrong, the message
already has what is asked, nobody who could act reads it, or the change would not help its reader).
Judge the finding as stated, on the code shown; open the file under SOURCE ROOT if you need more context.
"""


def wilson(successes: int, n: int, z: float = 1.96) -> Tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def verdicts_by_key(path: Path = VERDICTS, field: str = "key") -> Dict[str, List[dict]]:
    out: Dict[str, List[dict]] = defaultdict(list)
    for v in read_jsonl(path):
        out[v[field]].append(v)
    return out


def agreed(votes: List[dict]) -> Optional[str]:
    """The agreed verdict of two or more reviewers, None when they differ or fewer than two judged."""
    seen = {v["verdict"] for v in votes}
    if len({v["reviewer"] for v in votes}) < 2 or len(seen) != 1:
        return None
    return seen.pop()


def measured_findings(findings: List[dict], default_findings: Optional[List[dict]], defaults: Dict[str, bool]) -> List[dict]:
    """The designed run's findings, and the default run's findings of designed-default rules that the
    designed run does not have (see `precision_table`)."""
    seen = {f["key"] for f in findings}
    extra = [f for f in default_findings or () if defaults.get(f["code"], False) and f["key"] not in seen]
    return list(findings) + list({f["key"]: f for f in extra}.values())


def read_measured(args, defaults: Dict[str, bool]) -> List[dict]:
    """`measured_findings` of the designed and default runs named by `--findings`/`--default-findings`."""
    return measured_findings(read_jsonl(args.findings), read_jsonl(args.default_findings), defaults)


def precision_table(findings: List[dict], verdicts: Dict[str, List[dict]], defaults: Dict[str, bool],
                    default_findings: Optional[List[dict]] = None) -> List[dict]:
    """Each rule's agreed precision and status on the designed run (`findings`: every designed rule
    on). A designed-default rule is also judged on what it reports in the default run
    (`default_findings`: the default candidates on, the preview rules off). There a message that a
    preview rule's more specific finding took in the designed run falls to the default rule, and that
    is what users of the default get."""
    by_code: Dict[str, List[dict]] = defaultdict(list)
    for f in measured_findings(findings, default_findings, defaults):
        by_code[f["code"]].append(f)
    rows = []
    for code in sorted(set(by_code) | {c for c, on in defaults.items() if on}):
        row = _measure(by_code.get(code, []), verdicts)
        row.update(code=code, default=defaults.get(code, False))
        if row["default"] and row["status"] not in KEEPS_DEFAULT:
            # a rule wrong too often overall may still earn its place for one reader (AUDIENCES)
            row["audiences"] = {aud: _measure([f for f in by_code[code] if f.get("audience") == aud], verdicts)
                                for aud in sorted({f.get("audience", "") for f in by_code.get(code, [])} - {""})}
        rows.append(row)
    return rows


KEEPS_DEFAULT = ("earned", "unmeasured")


def _measure(fs: List[dict], verdicts: Dict[str, List[dict]]) -> dict:
    """Agreed precision and status of a set of findings (a rule's, or a rule's for one audience)."""
    judged = [f for f in fs if len({v["reviewer"] for v in verdicts.get(f["key"], [])}) >= 2]
    outcomes = [agreed(verdicts[f["key"]]) for f in judged]
    tp = sum(1 for o in outcomes if o == "TP")
    agree_n = sum(1 for o in outcomes if o is not None)
    lo, hi = wilson(tp, agree_n)
    needed = min(MIN_JUDGED, len(fs))
    shown_below = bool(agree_n) and hi < MIN_PRECISION  # the bar is above its 95% interval already
    if len(fs) >= UNMEASURED_BELOW and len(judged) >= needed and agree_n and tp / agree_n >= MIN_PRECISION:
        status = "earned"
    elif len(fs) >= UNMEASURED_BELOW and len(judged) >= needed or shown_below:
        status = "below bar"
    elif len(fs) < UNMEASURED_BELOW:
        status = "unmeasured"
    else:
        status = "under review"
    return {"findings": len(fs), "judged": len(judged), "agreed": agree_n, "tp": tp,
            "precision": (tp / agree_n) if agree_n else None, "low": lo, "high": hi,
            "unjudged": len(fs) - len(judged), "status": status}


def earned_audiences(row: dict) -> List[str]:
    """The audiences for which a rule that is below the bar overall has earned its place."""
    return [aud for aud, sub in row.get("audiences", {}).items() if sub["status"] == "earned"]


def default_candidates(findings: List[dict], verdicts: Dict[str, List[dict]], defaults: Dict[str, bool]) -> List[str]:
    """The designed-default rules that the designed run alone does not put below the bar: the rules
    of the default run, which decides whether each of them keeps its place."""
    return [r["code"] for r in precision_table(findings, verdicts, defaults)
            if r["default"] and (r["status"] in KEEPS_DEFAULT or earned_audiences(r))]


def default_audiences(findings: List[dict], verdicts: Dict[str, List[dict]], defaults: Dict[str, bool]) -> Dict[str, List[str]]:
    """The default candidates that are on only for some audiences: code -> those audiences."""
    return {r["code"]: earned_audiences(r) for r in precision_table(findings, verdicts, defaults)
            if r["default"] and r["status"] not in KEEPS_DEFAULT and earned_audiences(r)}


def cmd_precision(args) -> int:
    findings = read_jsonl(args.findings)
    default_findings = read_jsonl(args.default_findings)
    verdicts = verdicts_by_key()
    defaults = default_on()
    rows = precision_table(findings, verdicts, defaults, default_findings)
    print(f"{len(findings)} findings in {len({f['package'] for f in findings})} packages "
          f"(designed run), {len(default_findings)} in the default run; "
          f"{sum(len(v) for v in verdicts.values())} verdicts on file")
    print("| code | default | findings | judged | agreed | TP | precision | 95% CI | status |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        p = "-" if r["precision"] is None else f"{r['precision']:.2f}"
        print(f"| {r['code']} | {'on' if r['default'] else 'off'} | {r['findings']} | {r['judged']} | "
              f"{r['agreed']} | {r['tp']} | {p} | {r['low']:.2f}-{r['high']:.2f} | {r['status']} |")
        for aud in earned_audiences(r):
            sub = r["audiences"][aud]
            print(f"| {r['code']} ({aud}) | on | {sub['findings']} | {sub['judged']} | {sub['agreed']} | {sub['tp']} | "
                  f"{sub['precision']:.2f} | {sub['low']:.2f}-{sub['high']:.2f} | {sub['status']} |")
    partial = [dict(r["audiences"][aud], code=f"{r['code']} ({aud})") for r in rows if r["default"] for aud in earned_audiences(r)]
    for label, on in (("designed default set", [r for r in rows if r["default"]]),
                      ("earned default set", [r for r in rows if r["default"] and r["status"] in KEEPS_DEFAULT] + partial)):
        tp = sum(r["tp"] for r in on)
        n = sum(r["agreed"] for r in on)
        lo, hi = wilson(tp, n)
        print(f"{label} ({len(on)} rules, {sum(r['findings'] for r in on)} findings): agreed precision "
              f"{tp}/{n} = {tp / n if n else 0:.2f} (95% CI {lo:.2f}-{hi:.2f}); "
              f"{sum(r['unjudged'] for r in on)} of its findings have no verdict yet")
    judged = sum(r["judged"] for r in rows)
    agree = sum(r["agreed"] for r in rows)
    print(f"reviewer agreement: {agree}/{judged} = {agree / judged if judged else 0:.2f}")
    if args.write:
        write_measured(rows, findings)
    return 0


MEASURED = REPO / "errlint" / "measured.py"


def write_measured(rows: List[dict], findings: List[dict]) -> None:
    """errlint/measured.py: each rule's agreed precision on the corpus, read by `errlint rule` and the docs."""
    packages = len(read_packages())
    lines = [
        '"""Each rule\'s precision on real code, from the ecosystem check (bench/ecosystem).',
        "",
        "Generated by `python bench/ecosystem/run.py precision --write`; do not edit by hand. `status` is",
        "`earned` (agreed precision >= 0.90 on enough judged findings: on by default), `below bar` (opt-in",
        "until it earns its place), `under review` (too few agreed verdicts yet) or `unmeasured` (fewer than",
        "5 findings in the corpus: the rule keeps its default). A designed-default rule below the bar that",
        "has earned its place for some audiences (the same measure on the findings for that reader) is on",
        "by default for them: `audiences`.",
        '"""',
        f"CORPUS = {{\"packages\": {packages}, \"findings\": {len(findings)}}}",
        "",
        "MEASURED = {",
    ]
    for r in rows:
        prec = "None" if r["precision"] is None else f"{r['precision']:.3f}"
        lines.append(f"    {r['code']!r}: {{\"findings\": {r['findings']}, \"judged\": {r['judged']}, \"agreed\": {r['agreed']}, \"tp\": {r['tp']}, "
                     f"\"precision\": {prec}, \"low\": {r['low']:.3f}, \"high\": {r['high']:.3f}, "
                     f"\"status\": {r['status']!r}{_audience_field(r)}}},")
    lines.append("}")
    MEASURED.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {MEASURED.relative_to(REPO)}")


def _audience_field(row: dict) -> str:
    """`, "audiences": {...}` with the audiences a rule below the bar has earned, or nothing."""
    parts = []
    for aud in earned_audiences(row):
        sub = row["audiences"][aud]
        parts.append(f"{aud!r}: {{\"findings\": {sub['findings']}, \"judged\": {sub['judged']}, \"agreed\": {sub['agreed']}, \"tp\": {sub['tp']}, "
                     f"\"low\": {sub['low']:.3f}, \"high\": {sub['high']:.3f}}}")
    return f", \"audiences\": {{{', '.join(parts)}}}" if parts else ""


def rule_docs(codes) -> Dict[str, str]:
    out = {}
    for code in codes:
        proc = subprocess.run([sys.executable, "-m", "errlint", "rule", code], capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=str(REPO)))
        out[code] = proc.stdout.strip()
    return out


def context(path: Path, line: int, radius: int = 12) -> str:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return "(source not readable)"
    lo, hi = max(1, line - radius), min(len(lines), line + radius)
    return "\n".join(f"{'>>' if n == line else '  '}{n:5d}  {lines[n - 1]}" for n in range(lo, hi + 1))


def _write_packets(items: List[str], header: str, out_dir: Path, batch: int, prefix: str) -> List[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(0, len(items), batch):
        p = out_dir / f"{prefix}-{i // batch + 1:02d}.md"
        p.write_text(header + "\n\n" + "\n\n".join(items[i:i + batch]) + "\n", encoding="utf-8")
        paths.append(p)
    return paths


def cmd_sample(args) -> int:
    defaults = default_on()
    findings = read_measured(args, defaults)
    if getattr(args, "added_since", None):  # only what a change added: the findings REV did not have
        old = subprocess.run(["git", "-C", str(REPO), "show", f"{args.added_since}:bench/ecosystem/findings.jsonl"],
                             capture_output=True, text=True)
        if old.returncode != 0:
            raise SystemExit(f"error: no findings.jsonl at revision {args.added_since!r}: {old.stderr.strip()}")
        before = {json.loads(line)["key"] for line in old.stdout.splitlines() if line.strip()}
        findings = [f for f in findings if f["key"] not in before]
    verdicts = verdicts_by_key()
    rng = random.Random(args.seed)
    src = args.cache / "src"
    chosen: List[dict] = []
    wanted = set(args.codes.split(",")) if args.codes else None
    for code in sorted({f["code"] for f in findings}):
        if not defaults.get(code, False) or wanted is not None and code not in wanted:
            continue
        fs = [f for f in findings if f["code"] == code]
        judged = [f for f in fs if len({v["reviewer"] for v in verdicts.get(f["key"], [])}) >= 2]
        pool = [f for f in fs if f not in judged]
        rng.shuffle(pool)
        chosen += pool[: max(0, args.per_rule - len(judged))]
    rng.shuffle(chosen)
    docs = rule_docs(sorted({f["code"] for f in chosen}))
    items = []
    for f in chosen:
        items.append("\n".join([
            f"## ITEM {f['key']}",
            f"package: {f['package']} (kind: {f['kind']}); file: {f['path']}, line {f['line']}",
            f"finding: {f['code']} {f['name']}: {f['message']}",
            f"suggestion: {f.get('suggestion') or '-'}",
            "source:", "```", context(src / f["package"] / f["path"], f["line"]), "```",
        ]))
    out_dir = args.out_dir or Path("review-packets")
    header = (RUBRIC + f"\nSOURCE ROOT: {src}\n\n# Rule docs\n\n" +
              "\n\n".join(f"### {c}\n{d}" for c, d in docs.items()) +
              "\n\n# Items\nAnswer one JSON line per item: "
              '{"key": "<the ITEM key>", "verdict": "TP" or "FP", "reason": "<one sentence>"}')
    paths = _write_packets(items, header, out_dir, args.batch, "findings")
    print(f"{len(chosen)} findings in {len(paths)} packets under {out_dir}")
    return 0


# ---- recall: error sites that got no finding --------------------------------------------------------

_LOG_METHODS = {"error", "exception", "critical", "warning", "warn", "fatal"}
_ERROR_CALLS = {"HTTPException", "abort", "JSONResponse", "ToolError", "McpError", "MCPError",
                "ClickException", "UsageError", "BadParameter", "Exit", "SystemExit"}


def _callee(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _is_stderr(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "stderr"


def error_sites(tree: ast.AST) -> List[Tuple[int, int, str]]:
    """(first line, last line, kind) of each place the module emits an error to a reader."""
    out = []
    for node in ast.walk(tree):
        kind = None
        if isinstance(node, ast.Raise) and node.exc is not None and isinstance(node.exc, ast.Call):
            kind = "raise"
        elif isinstance(node, ast.Call):
            name = _callee(node.func)
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            if name == "exit" and node.args:
                kind = "exit"
            elif name == "print" and "file" in kw and _is_stderr(kw["file"]):
                kind = "stderr"
            elif name == "write" and isinstance(node.func, ast.Attribute) and _is_stderr(node.func.value):
                kind = "stderr"
            elif name in ("echo", "secho") and isinstance(kw.get("err"), ast.Constant) and kw["err"].value is True:
                kind = "stderr"
            elif name in _LOG_METHODS and isinstance(node.func, ast.Attribute) and node.args:
                kind = "log"
            elif name in ("HTTPException", "abort", "JSONResponse") and (node.args or node.keywords):
                kind = "http"
        elif isinstance(node, ast.Return) and node.value is not None:
            v = node.value
            if isinstance(v, ast.Dict) and any(isinstance(k, ast.Constant) and k.value in ("error", "errors")
                                               for k in v.keys):
                kind = "error-return"
            elif isinstance(v, (ast.Constant, ast.JoinedStr)):
                head = v.value if isinstance(v, ast.Constant) else next(
                    (p.value for p in v.values if isinstance(p, ast.Constant)), "")
                if isinstance(head, str) and head.lstrip().lower().startswith(("error", "failed", "could not", "unable")):
                    kind = "error-return"
        if kind:
            out.append((node.lineno, getattr(node, "end_lineno", node.lineno) or node.lineno, kind))
    return sorted(set(out))


def _is_test_path(rel: str) -> bool:
    parts = rel.split("/")
    return any(p in ("tests", "test", "testing") for p in parts[:-1]) or parts[-1].startswith("test_")


def cmd_sites(args) -> int:
    findings = read_jsonl(args.findings)
    flagged = defaultdict(set)
    for f in findings:
        flagged[(f["package"], f["path"])].add(f["line"])
    src = args.cache / "src"
    kinds = {p.key: p.kind for p in read_packages()}
    unflagged, total = [], 0
    for pkg in sorted(kinds):
        root = src / pkg
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if _is_test_path(rel):
                continue
            try:
                tree = ast.parse(path.read_bytes())
            except (SyntaxError, ValueError):
                continue
            for lo, hi, kind in error_sites(tree):
                total += 1
                if any(lo <= n <= hi for n in flagged.get((pkg, rel), ())):
                    continue
                unflagged.append({"site": f"{pkg}|{rel}|{lo}", "package": pkg, "kind": kinds[pkg],
                                  "path": rel, "line": lo, "end_line": hi, "sink": kind})
    rng = random.Random(args.seed)
    sample = rng.sample(unflagged, min(args.count, len(unflagged)))
    write_jsonl(SITES, [dict(s, population=len(unflagged), all_sites=total) for s in sample])
    defaults = default_on()
    docs = rule_docs([c for c, on in defaults.items() if on])
    items = ["\n".join([f"## SITE {s['site']}",
                        f"package: {s['package']} (kind: {s['kind']}); file: {s['path']}, line {s['line']} ({s['sink']})",
                        "source:", "```", context(src / s["package"] / s["path"], s["line"]), "```"])
             for s in sample]
    header = ("You are a blind reviewer for a linter of error messages. Each SITE below is a place where "
              "real code emits an error (a raise, an error return, a stderr print, an exit, a log, an HTTP "
              "error) and the linter reported nothing. Decide whether one of the linter's default rules, "
              "documented below, SHOULD have fired: a senior maintainer of that project, who knows who "
              "reads the message, would change the message or the code for the reason the rule states. "
              "Answer FLAG (a default rule should have fired; name its code) or OK (no default rule "
              f"applies, or no change would help the reader).\nSOURCE ROOT: {src}\n\n# Default rules\n\n"
              + "\n\n".join(f"### {c}\n{d}" for c, d in docs.items()) +
              "\n\n# Sites\nAnswer one JSON line per site: "
              '{"site": "<the SITE id>", "verdict": "FLAG" or "OK", "codes": ["AEM..."], "reason": "<one sentence>"}')
    out_dir = args.out_dir or Path("review-sites")
    paths = _write_packets(items, header, out_dir, args.batch, "sites")
    print(f"{total} error sites outside tests, {len(unflagged)} with no finding; "
          f"sampled {len(sample)} into {len(paths)} packets under {out_dir}")
    return 0


def cmd_recall(args) -> int:
    """Estimated recall: agreed true findings against agreed misses, each scaled to its population."""
    sites = read_jsonl(SITES)
    if not sites:
        print("no sites sampled yet: run `run.py sites` first")
        return 2
    votes = verdicts_by_key(SITE_VERDICTS, "site")
    outcomes = [agreed(votes.get(s["site"], [])) for s in sites]
    flag = sum(1 for o in outcomes if o == "FLAG")
    decided = sum(1 for o in outcomes if o is not None)
    population = sites[0]["population"]
    misses = population * flag / decided if decided else 0.0
    findings = read_jsonl(args.findings)
    rows = precision_table(findings, verdicts_by_key(), default_on())
    print(f"{len(sites)} sampled unflagged sites of {population}; {decided} agreed, {flag} should be flagged")
    for label, keep in (("designed default set", lambda r: r["default"]),
                        ("earned default set", lambda r: r["default"] and r["status"] in ("earned", "unmeasured"))):
        # A finding of a rule outside the set is a site the set misses: its true findings join the misses.
        hits = sum(r["findings"] * (r["precision"] or 0.0) for r in rows if keep(r))
        dropped = sum(r["findings"] * (r["precision"] or 0.0) for r in rows if r["default"] and not keep(r))
        recall = hits / (hits + misses + dropped) if hits + misses + dropped else 0.0
        print(f"{label}: estimated true findings {hits:.0f}, estimated misses {misses + dropped:.0f}: recall {recall:.2f}")
    return 0


def cmd_import(args) -> int:
    """Fold reviewers' answer files (`answers-NN-R.jsonl` / `site-answers-NN-R.jsonl`) into the verdict files.

    The reviewer id is the folder name plus the packet and letter (`r1-01-A`), so the two reviewers of a
    packet stay distinct. An answer for a key that is not in the findings is reported and skipped.
    """
    if not args.out_dir or not args.out_dir.is_dir():
        print("error: `import` needs --out-dir DIR, the folder holding the reviewers' answers-*.jsonl files")
        return 2
    findings = {f["key"]: f for f in read_measured(args, default_on())}
    sites = {s["site"] for s in read_jsonl(SITES)}
    added = {VERDICTS: 0, SITE_VERDICTS: 0}
    skipped = 0
    for target, pattern, field, known, allowed in (
            (VERDICTS, "answers-*.jsonl", "key", findings, {"TP", "FP"}),
            (SITE_VERDICTS, "site-answers-*.jsonl", "site", sites, {"FLAG", "OK"})):
        existing = read_jsonl(target)
        have = {(v[field], v["reviewer"]) for v in existing}
        for path in sorted(args.out_dir.glob(pattern)):
            if pattern == "answers-*.jsonl" and path.name.startswith("site-"):
                continue
            stem = path.stem.split("-", 1)[1] if field == "key" else path.stem.split("-", 2)[2]
            reviewer = f"{args.out_dir.name}-{stem}"
            for line in path.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                try:
                    a = json.loads(line)
                except ValueError:
                    skipped += 1
                    continue
                key = a.get(field)
                verdict = str(a.get("verdict", "")).upper()
                if key not in known or verdict not in allowed or (key, reviewer) in have:
                    skipped += 1
                    continue
                row = {field: key, "reviewer": reviewer, "verdict": verdict, "reason": a.get("reason", "")}
                if field == "key":
                    row["code"] = findings[key]["code"]
                else:
                    row["codes"] = a.get("codes", [])
                existing.append(row)
                have.add((key, reviewer))
                added[target] += 1
        write_jsonl(target, existing)
    print(f"added {added[VERDICTS]} finding verdicts and {added[SITE_VERDICTS]} site verdicts; "
          f"skipped {skipped} answers (unknown key, bad verdict or already on file)")
    return 0


def dispatch(args) -> int:
    return {"precision": cmd_precision, "sample": cmd_sample, "sites": cmd_sites, "recall": cmd_recall,
            "import": cmd_import}[args.command](args)


__all__ = ["dispatch", "wilson", "precision_table", "default_candidates", "agreed", "default_cache", "write_jsonl"]
