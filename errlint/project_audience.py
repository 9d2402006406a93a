"""The step between per-file extraction and output: give each audience-dependent message the audience
the project model assigns, for one file alone (`judge_alone`, used when a file is checked by itself)
or for every file of a run (`judge_all`)."""
from __future__ import annotations

import hashlib
from typing import Dict, List, Optional, Sequence

from .checks.base import caught_by_name, caught_locally
from .project_model import ProjectModel
from .reachability import Reach, choose, judge


# sinks whose reader, when no entry point reaches them, is the developer reading an exception (the
# others: an operator reading output)
RAISED_SINKS = frozenset({"tool-error", "protocol-error", "agent-error", "http", "cli-error", "exit", "validator"})


def variant_kind(message) -> Optional[str]:
    """"reply" for error text a helper returns, "raise" for a raise (its reader depends on who
    reaches it), "sink" for a message in a function whose sink names its reader (a ToolError, an
    HTTPException, stderr) but that may be code no entry point reaches, None otherwise."""
    if message.extra.get("helper"):
        return "reply"
    if message.sink == "raise":
        return "raise"
    if message.profile in ("agent", "cli", "http") and message.context.function is not None and message.sink != "tool-return":
        return "sink"
    return None


def handled_signal(message, caught) -> bool:
    """A raise the code handles itself: its class is private, caught by name somewhere in the project,
    or caught around the raise itself by a handler that replaces it (`checks.base.caught_locally`). The handler decides what the reader sees, so the raise is
    judged as `exc` whoever reaches it."""
    cls = message.callee.rsplit(".", 1)[-1]
    if not cls:
        return False
    return cls.startswith("_") or caught_by_name(message.callee, caught) or caught_locally(message)


def unreached_audience(message) -> str:
    return "exc" if message.sink in RAISED_SINKS or message.extra.get("raised") else "log"


def local_reach(name: str, summary: dict, run) -> Reach:
    return Reach(ProjectModel([(name, summary)], getattr(run, "scripts", ())))


def local_audience(reach: Reach, name: str, record: dict) -> str:
    key, _, _ = choose(reach, reach.model.paths[name], record)
    return key or "exc"


def judge_alone(result, run, reach: Optional[Reach] = None) -> list:
    """A file's diagnostics when the file is the whole project."""
    base = list(result.base or ())
    if not result.variants:
        return base
    if reach is None:
        reach = local_reach(result.path, result.summary or {"fns": {}}, run)
    module = reach.model.paths[result.path]
    diagnostics, _ = judge(base, result.variants, reach, module)
    return diagnostics


def build_reach(results: Sequence, scripts: Sequence[str] = ()) -> Reach:
    return Reach(ProjectModel([(r.path, r.summary) for r in results if r.summary is not None], scripts))


def judge_all(results: Sequence, run) -> Dict[str, str]:
    """Re-judge every file's audience-dependent messages with the whole project; returns, per file, a
    digest of the cross-file facts its findings depend on (the choices made)."""
    from .engine import dedupe

    reach = build_reach(results, getattr(run, "scripts", ()))
    run.reach = reach
    digests: Dict[str, str] = {}
    for result in results:
        if result.summary is None:
            continue
        module = reach.model.paths.get(result.path)
        if module is None or not result.variants:
            digests[result.path] = ""
            if result.base is not None:
                result.diagnostics = dedupe(list(result.base))
            continue
        diagnostics, choices = judge(list(result.base or ()), result.variants, reach, module)
        result.diagnostics = dedupe(diagnostics)
        digests[result.path] = hashlib.sha256(choices.encode()).hexdigest()[:16]
    return digests


def rejudge(result, run) -> List:
    """One re-checked file (after `--fix`), judged with the run's project model when there is one."""
    from .engine import dedupe

    reach = getattr(run, "reach", None)
    if reach is None or result.path not in reach.model.paths or not result.variants:
        return result.diagnostics
    diagnostics, _ = judge(list(result.base or ()), result.variants, reach, reach.model.paths[result.path])
    return dedupe(diagnostics)
