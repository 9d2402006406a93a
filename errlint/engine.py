"""One file: bytes -> pre-filter -> parse -> messages -> rules -> noqa -> diagnostics.

Many files: `check_paths` runs `check_file` over each, in order; results are independent of which
other files are in the run except through the project's tool registry, which is built from the whole
project tree (not from the files passed in), so pre-commit's batching cannot change a result.
"""
from __future__ import annotations

import gc
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import libcst as cst

from .checks.base import FileContext, Rule, all_rules
from .checks.recovery import internal_invariant
from .checks.verdict import one_verdict
from . import project_summary
from .families import family_of
from .extract import nodes
from .extract.catching import raised_class
from .extract.provenance import Provenance
from .reachability import FORWARDED, INTERNAL, audience_of
from .extract.walker import extract
from .locator import Locator
from .model import Diagnostic, Finding, Level, Location, printable
from .noqa import Suppressions
from .noqa_findings import _file_noqa, unused_noqa
from .prefilter import HUGE_FILE_BYTES, code_may_contain_sink, may_contain_sink
from .project_scan import scan_caught_names
from .registry import ignored_for, is_ignored
from .run_context import FileResult, RunContext
from .syntax_errors import MAX_FILE_BYTES, _compile_problem, _nested_diagnostic, _newer_syntax_on, parse, too_large

LEAK_ONLY_ROLES = {"dunder"}
# the rule judged again on a helper's message whose parameters an entry point's inputs may reach, the
# audiences it applies to, and the roles of the entry points whose inputs are their own parameters
FORWARDED_RULE = "AEM203"
FORWARDED_AUDIENCES = ("agent", "cli", "reply")
ENTRY_ROLES = ("tool", "cli", "lowlevel")
# Exception classes whose name declares an internal invariant ("this should be unreachable"): their
# messages are for the library's developers (like an AssertionError's), so only leak rules apply.
INTERNAL_CLASS = re.compile(r"(Logic|Internal|Assertion|Unreachable|Invariant|Programming|Bug)(Error|Exception)?$")


def check_file(path: str, data: bytes, run: RunContext, display: Optional[str] = None) -> FileResult:
    """Check one file's bytes. Never raises: bad input becomes AEM001, a bug in errlint AEM000.

    The result keeps `path` (fixes are written there); diagnostics carry `display`, by default
    `path` with the bytes of a non-UTF-8 file name escaped, so every output format can print it.
    Literal secrets in any diagnostic's text are masked, whichever rule quoted them.
    """
    name = display or display_name(path)
    try:
        with collector_paused():
            result = _check_bytes(name, data, run)
    except (KeyboardInterrupt, SystemExit):
        raise
    except RecursionError:
        result = FileResult(name, [_with_filename(_nested_diagnostic(), name)], None, parsed=False)
    except BaseException as exc:  # a bug outside the rules (extraction, locating): this file only
        result = FileResult(name, [_crash(name, exc)], None, parsed=False, internal_error=True)
    result.path = path
    if not result.parsed and result.diagnostics and not run.ignore_noqa:
        result.diagnostics = _file_noqa(data, result.diagnostics)
    result.diagnostics = [_redact(d) for d in result.diagnostics]
    if result.base is not None:  # the project pass picks among these: mask them too
        result.base = [_redact(d) for d in result.base]
        for record in result.variants:
            record["by"] = {key: [_redact(d) for d in found] for key, found in record["by"].items()}
    return result


@contextmanager
def collector_paused():
    """Python's cyclic garbage collector off for the duration (as it was before, after).

    A file's libcst tree and what errlint derives from it hold no reference cycles once
    `FileFacts.release` has broken the walk's (a few small closures a file remain, measured): they go
    when their last reference does. Yet with the tree and the run's results alive, the collector's
    passes cost about a fifth of a cold run."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _check_bytes(name: str, data: bytes, run: RunContext) -> FileResult:
    if len(data) > MAX_FILE_BYTES:
        return FileResult(name, [_with_filename(too_large(len(data)), name)], None, parsed=False)
    # CPython decides what is a broken file, before libcst sees it: compile() also rejects what only
    # its compiler checks (`return` outside a function), and input nested deeper than CPython
    # allows can overflow the stack of libcst's native parser, which kills the process.
    problem = _compile_problem(data)
    if problem is not None:
        broken, grammar_only = problem
        parsed = parse(data) if grammar_only else broken
        if isinstance(parsed, Diagnostic) or not _newer_syntax_on(parsed[0], broken.location.row):
            return FileResult(name, [_with_filename(broken, name)], None, parsed=False)
        # Only this Python's grammar rejects the file, at a construct of a newer Python that libcst
        # parses (a PEP 701 f-string checked on 3.11): the file targets that Python; check it.
        return analyse(name, parsed[0], parsed[1], run)
    noqa_check = b"noqa" in data.lower() and any(r.code == "AEM002" for r in run.rules)
    if not noqa_check and (not may_contain_sink(data) or len(data) > HUGE_FILE_BYTES and not code_may_contain_sink(data)):
        if len(data) <= HUGE_FILE_BYTES and (b"def " in data or b"import" in data):
            return _facts_only(name, data, run)  # no message here, but its calls and imports link the project
        return FileResult(name, [], None)  # no sink can be here: skip libcst
    parsed = parse(data)
    if isinstance(parsed, Diagnostic):
        return FileResult(name, [_with_filename(parsed, name)], None, parsed=False)
    module, text = parsed
    return analyse(name, module, text, run)


def _facts_only(name: str, data: bytes, run: RunContext) -> FileResult:
    """A file that holds no message: only its project facts (functions, calls, imports, tables)."""
    parsed = parse(data)
    if isinstance(parsed, Diagnostic):
        return FileResult(name, [_with_filename(parsed, name)], None, parsed=False)
    try:
        facts = extract(parsed[0], run.settings.logger_objects)
    except RecursionError:
        return FileResult(name, [], None)
    facts.release()
    return FileResult(name, [], None, base=[], summary=project_summary.summarize(facts))


def display_name(path: str) -> str:
    """`path` with the undecodable bytes of a non-UTF-8 file name (lone surrogates in Python, which
    no UTF-8 writer accepts) shown as `\\xNN`."""
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        try:
            return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        except UnicodeEncodeError:
            return path.encode("utf-8", "backslashreplace").decode("utf-8")


def _redact(d: Diagnostic) -> Diagnostic:
    from dataclasses import replace

    from .checks.leaks import LITERAL_SECRETS, mask

    message = printable(LITERAL_SECRETS.sub(lambda m: mask(m.group(0)), d.message))
    suggestion = printable(LITERAL_SECRETS.sub(lambda m: mask(m.group(0)), d.suggestion))
    if message == d.message and suggestion == d.suggestion:
        return d
    return replace(d, message=message, suggestion=suggestion)


def _crash(name: str, exc: BaseException) -> Diagnostic:
    where = Location(1, 1)
    return Diagnostic(
        "AEM000", "internal-error", f"internal error while checking this file: {type(exc).__name__}: {exc}"[:300], name,
        where, where, Level.ERROR,
        "Please report it with this file at https://github.com/errlint/errlint/issues; meanwhile exclude the file with --extend-exclude.",
    )


def _with_filename(diagnostic: Diagnostic, name: str) -> Diagnostic:
    from dataclasses import replace

    return replace(diagnostic, filename=name)


def analyse(name: str, module: cst.Module, text: str, run: RunContext) -> FileResult:
    """Run the enabled rules on a parsed module and locate their findings.

    A message whose audience depends on the rest of the project (a raise; error text a helper
    returns) is judged under each audience it can get; the variants are kept on the result, and its
    diagnostics are those the file alone gives (`project_audience.finish` re-judges with the whole
    project)."""
    suppressions = Suppressions(text)
    if suppressions.file_codes is not None and suppressions.file_codes == "ALL" and not run.ignore_noqa:
        return FileResult(name, [], text)
    ignored = ignored_for(name, run.settings)
    rules = [r for r in run.rules if not is_ignored(r.code, r.name, ignored)]
    if not rules:
        return FileResult(name, [], text)
    try:
        package = Path(name).parent.parts[-3:] if run.server_objects or run.exception_classes or run.module_objects or run.module_constants else ()
        facts = extract(module, run.settings.logger_objects, run.server_objects, package, run.exception_classes, run.module_objects, run.module_constants)
    except RecursionError:
        return FileResult(name, [_with_filename(_nested_diagnostic(), name)], None, parsed=False)
    try:
        return _judge(name, module, text, run, rules, suppressions, facts)
    finally:
        facts.release()


def _judge(name: str, module: cst.Module, text: str, run: RunContext, rules: List[Rule], suppressions: Suppressions, facts) -> FileResult:
    """`analyse`, once the module's facts are extracted."""
    from . import project_audience as finish
    from .project_audience import variant_kind

    registry = run.registry | frozenset(t.name for t in facts.tools)
    caught = run.caught | scan_caught_names(text)
    ctx = FileContext(name, facts, run.packs, registry, run.mcp_versions, run.settings.extra_next_step_verbs, text, caught=caught,
                      pass_through=run.pass_through, literal_aliases=dict(run.literal_aliases))
    summary = project_summary.summarize(facts)
    local = None
    findings: Dict[object, List[Tuple[Rule, Finding]]] = {None: []}
    internal: List[Diagnostic] = []
    variants: List[dict] = []
    forwarded = next((r for r in rules if r.code == FORWARDED_RULE), None)
    for index, message in enumerate(facts.messages):
        function = message.context.function
        leak_only = function is not None and function.role in LEAK_ONLY_ROLES or bool(INTERNAL_CLASS.search(message.callee))
        # a log line right before a raise or error return is judged with it, at the statement the
        # reader sees; only a leak in the log line itself is still its own finding
        leak_only = leak_only or bool(message.extra.get("paired")) and message.sink in ("log", "notify")
        kind = variant_kind(message)
        if kind is None:
            _run_rules(message, rules, ctx, leak_only, findings[None], internal, name)
            continue
        record = {"i": index, "fn": "<main>" if message.extra.get("main") else function.qualname if function is not None else "", "kind": kind, "by": {}}
        cls = raised_class(message)
        if cls is not None:
            record["cls"] = cls
            if cls:
                record["qcls"] = message.callee  # the class as the code qualifies it (`requests.HTTPError`)
        if kind == "reply":
            audiences: Sequence[str] = ("reply",)
        elif kind == "sink":
            record["fixed"], record["fallback"] = message.profile, finish.unreached_audience(message)
            if message.sink == "stderr":
                record["stream"] = True  # read by a CLI user only when a CLI entry point reaches it
            audiences = (record["fixed"], record["fallback"])
        else:
            if local is None:
                local = finish.local_reach(name, summary, run)
            record["signal"] = finish.handled_signal(message, caught)
            record["local"] = finish.local_audience(local, name, record)
            audiences = sorted(set(run.audiences) | {"exc", record["local"]})
        original = message.profile
        for audience in audiences:
            message.profile = "agent" if audience == "reply" else audience
            group = findings.setdefault((index, audience), [])
            _run_rules(message, rules, ctx, leak_only, group, internal, name)
            if group and function is not None and function.param_names:
                # the same message when no call passes the function caller input (`parameter_inputs`)
                _run_flagged(message, rules, ctx, leak_only, findings.setdefault((index, audience + INTERNAL), []), internal, name, "internal_params")
                if "gp" not in record:  # the same for every audience
                    record["gp"] = guard_params(message, ctx)
            if forwarded is not None and not leak_only and audience_of(audience) in FORWARDED_AUDIENCES and function is not None \
                    and function.param_names and function.role not in ENTRY_ROLES and not any(r is forwarded for r, _ in group):
                # the same message when its parameters are an entry point's inputs passed on (`reachability._forwarded`)
                added = findings.setdefault((index, audience + FORWARDED), [])
                _run_flagged(message, [forwarded], ctx, False, added, internal, name, "forwarded_params")
                if added:
                    record.setdefault("gp", guard_params(message, ctx))
                    record.setdefault("words", sorted({w for t in message.templates for w in re.findall(r"[a-z0-9_]+", t.literal.lower())}))
        if cls is not None and kind == "raise" and (findings.get((index, "cli")) or run.locate_all):
            message.profile = "cli"  # judged as a CLI user reads it (the environment is theirs)
            if internal_invariant(message, ctx, state_is_own=True):
                record["own"] = True  # a check of the program's own state (`reachability.Reach.crash_only`)
        message.profile = original
        record["node"] = message.node
        variants.append(record)
    for rule in rules:
        try:
            for finding in rule.check_file(ctx):
                findings[None].append((rule, finding))
        except Exception as exc:
            internal.append(_internal(name, rule, exc))
    locator = Locator(text, module, [m.node for m in facts.messages])
    base: List[Diagnostic] = []
    by_index: Dict[int, Dict[str, List[Diagnostic]]] = {}
    for group, found in findings.items():
        out = base if group is None else by_index.setdefault(group[0], {}).setdefault(group[1], [])
        audience = None if group is None else audience_of(group[1])
        for rule, finding in most_specific(found):
            diagnostic = _locate(rule, finding, locator, suppressions, run, name, audience)
            if diagnostic is not None:
                out.append(diagnostic)
    kept = []
    for record in variants:
        record["by"] = by_index.get(record["i"], {})
        node = record.pop("node")
        if any(record["by"].values()) or run.locate_all:
            record["row"] = locator.position(locator.span(node)[0])[0] if run.locate_all else 0
            kept.append(record)
    base.extend(internal)
    if any(r.code == "AEM002" for r in rules) and not run.ignore_noqa:
        enabled = tuple(r.code for r in rules)
        known = frozenset(all_rules()) | {spec.code for spec in run.packs.rules}
        base.extend(unused_noqa(name, suppressions, locator, next(r for r in rules if r.code == "AEM002"), enabled, known))
    result = FileResult(name, [], text, encoding=module.encoding, internal_error=bool(internal), base=base, variants=kept, summary=summary)
    result.diagnostics = dedupe(finish.judge_alone(result, run, local))
    return result


def guard_params(message, ctx: FileContext) -> List[str]:
    """The parameters of the message's function that the values its guard tests come from."""
    facts = ctx.guard(message)
    subjects = {n.split(".", 1)[0] for n in facts.subjects or facts.names}
    params = set(message.context.function.param_names)
    if message.scope is None or not subjects:
        return []
    # a parameter counts when the tested values are input with it alone carrying input
    return sorted(p for p in params if Provenance(message.scope, internal=params - {p}).inputs(subjects))


def _run_flagged(message, rules: Sequence[Rule], ctx: FileContext, leak_only: bool, out: List[Tuple[Rule, Finding]], internal: List[Diagnostic], name: str, flag: str) -> None:
    """Run the rules on `message` with `message.extra[flag]` set: "internal_params", its function's
    parameters carrying no caller input; "forwarded_params", its function's parameters standing for
    an entry point's inputs."""
    saved = (message.provenance, message.guard_facts)
    message.extra[flag] = True
    if flag == "internal_params":  # input provenance and guard facts are computed again without it
        message.provenance = message.guard_facts = None
    try:
        _run_rules(message, rules, ctx, leak_only, out, internal, name)
    finally:
        del message.extra[flag]
        message.provenance, message.guard_facts = saved


def _run_rules(message, rules: Sequence[Rule], ctx: FileContext, leak_only: bool, out: List[Tuple[Rule, Finding]], internal: List[Diagnostic], name: str) -> None:
    for rule in rules:
        if not rule.applies(message) or leak_only and not _leak_rule(rule.code):
            continue
        try:
            for finding in rule.check(message, ctx):
                out.append((rule, finding))
        except RecursionError:
            continue
        except Exception as exc:  # one rule's bug must not stop the others (issue: never crash)
            internal.append(_internal(name, rule, exc))


def _leak_rule(code: str) -> bool:
    """Whether a rule is in the leak family: the only rules run on a message judged for leaks only."""
    family = family_of(code)
    return family is not None and family.leak


def _edits_own_code(fix, subject) -> bool:
    """A fix edits only code of the function the message is in: a literal it reaches through a name
    (a module constant `MSG = "..."`) is shared with other messages and may not see the names the
    fix interpolates (`{path}` at module level is a NameError)."""
    function = subject.context.function if fix is not None and subject is not None else None
    scope = function.node if function is not None else None
    targets = {id(e.node) for e in fix.edits if e.node is not None} if scope is not None else set()
    if not targets:
        return True
    for node in nodes.iter_expr(scope, stop=()):
        targets.discard(id(node))
        if not targets:
            return True
    return False


def _locate(rule: Rule, finding: Finding, locator: "Locator", suppressions: Suppressions, run: RunContext, name: str, audience: Optional[str]) -> Optional[Diagnostic]:
    subject = finding.subject
    sink = subject.node if subject is not None else None
    start, end = locator.within_sink(finding.anchor, subject)
    row, col = locator.position(start)
    end_row, end_col = locator.position(end)
    if not run.ignore_noqa and (suppressions.file_suppresses(finding.code) or suppressions.suppresses(finding.code, row)):
        return None
    if audience is None:
        audience = subject.profile if subject is not None else ""
    return Diagnostic(
        code=finding.code,
        name=rule.name,
        message=finding.message,
        filename=name,
        location=Location(row, col),
        end_location=Location(end_row, end_col),
        level=rule.LEVEL,
        suggestion=finding.suggestion,
        fix=locator.resolve_fix(finding.fix if _edits_own_code(finding.fix, subject) else None, sink),
        url=rule.url,
        noqa_row=suppressions.group(row)[1] if suppressions.has_noqa or end_row > row or suppressions.continues(row) else row,
        audience=audience,
    )


def _internal(name: str, rule: Rule, exc: Exception) -> Diagnostic:
    where = Location(1, 1)
    return Diagnostic(
        code="AEM000",
        name="internal-error",
        message=f"internal error in rule {rule.code} ({rule.name}) on this file: {type(exc).__name__}: {exc}"[:300],
        filename=name,
        location=where,
        end_location=where,
        level=Level.ERROR,
        suggestion=f"Please report it with this file at https://github.com/errlint/errlint/issues; meanwhile run with --ignore {rule.code}.",
    )


def most_specific(findings: List[Tuple[Rule, Finding]]) -> List[Tuple[Rule, Finding]]:
    """One message, one clear verdict: the findings each message keeps (`checks.verdict`)."""
    return one_verdict(findings)  # type: ignore[return-value]


def dedupe(diagnostics: List[Diagnostic]) -> List[Diagnostic]:
    seen = set()
    out = []
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        key = (d.code, d.location, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out
