"""Many files: discovery, the project's tool registry, per-file checks (in order, or in a process
pool), and the results in a deterministic order whatever the scheduling."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .config import ConfigError, Settings, find_config, load_settings
from .discovery import Discovery, discover
from .engine import FileResult, RunContext, check_file, project_registry, project_versions
from .model import Diagnostic
from .packs import Packs, bundled_pack_files, load, user_pack_files
from .registry import select_rules


@dataclass
class Selection:
    """Command-line selectors (None: use the config's `select`)."""

    select: Optional[Sequence[str]] = None
    extend_select: Sequence[str] = ()
    ignore: Sequence[str] = ()


@dataclass
class RunResult:
    """What a run found: per-file results in path order, plus files skipped and paths missing."""

    results: List[FileResult] = field(default_factory=list)
    discovery: Discovery = field(default_factory=Discovery)
    settings: Optional[Settings] = None
    reasons: Dict[str, str] = field(default_factory=dict)
    run: Optional[RunContext] = None

    @property
    def diagnostics(self) -> List[Diagnostic]:
        return [d for r in self.results for d in r.diagnostics]


def resolve_settings(paths: Sequence[str], config: Optional[str], isolated: bool, overrides: Dict[str, object]) -> Settings:
    """Find and load the config for `paths` (or `config`), then apply CLI overrides. Raises ConfigError."""
    from dataclasses import replace

    start = Path(paths[0]) if paths and paths[0] != "-" else Path.cwd()
    if isolated:
        settings = load_settings(None, _root_hint(paths))
    elif config:
        path = Path(config)
        if not path.is_file():
            raise ConfigError(f"config file {config!r} does not exist; pass an existing pyproject.toml or errlint.toml to --config")
        settings = load_settings(path)
    else:
        found = find_config(start if start.exists() else Path.cwd())
        settings = load_settings(found, _root_hint(paths))
    clean = {k: v for k, v in overrides.items() if v is not None}
    return replace(settings, **clean) if clean else settings


def _root_hint(paths: Sequence[str]) -> Path:
    real = [os.path.abspath(p) for p in paths if p != "-" and os.path.exists(p)]
    if not real:
        return Path.cwd()
    common = os.path.commonpath(real)
    return Path(common) if os.path.isdir(common) else Path(common).parent


def load_packs(settings: Settings) -> Packs:
    """Bundled packs plus the user's (`packs` in config). Raises PackError."""
    return load(bundled_pack_files() + user_pack_files(Path(p) for p in settings.packs))


def build_run(settings: Settings, selection: Selection, registry_files: Sequence[Path], ignore_noqa: bool = False) -> Tuple[RunContext, Dict[str, str]]:
    packs = load_packs(settings)
    rules, reasons = select_rules(settings, packs, selection.select, selection.extend_select, selection.ignore)
    registry = project_registry(registry_files, settings.tool_registry_extra)
    run = RunContext(settings, packs, rules, registry, project_versions(settings), ignore_noqa=ignore_noqa)
    return run, reasons


REGISTRY_TREE_LIMIT = 20_000


def registry_files(settings: Settings, files: Sequence[Path]) -> List[Path]:
    """The files whose tools make up the registry: the whole project tree when a config or a git
    checkout anchors the project (so pre-commit's batches all see the same registry), else the
    files being checked."""
    if (settings.config_path or settings.project_is_repo) and settings.project_root:
        tree = discover([settings.project_root], settings).files
        if len(tree) <= REGISTRY_TREE_LIMIT:
            return tree
    return list(files)


def check_paths(paths: Sequence[str], settings: Settings, selection: Selection, force_exclude: bool = False,
                ignore_noqa: bool = False, jobs: Optional[int] = None, use_cache: bool = True,
                cache_dir: Optional[str] = None, keep_text: bool = False) -> RunResult:
    """Check every Python file under `paths`; results come back in discovery order whatever the
    scheduling. `keep_text` keeps each file's text on its result (needed to apply fixes)."""
    from .cache import Cache, cache_root, run_key

    found = discover(paths, settings, force_exclude)
    run, reasons = build_run(settings, selection, registry_files(settings, found.files), ignore_noqa)
    cache = Cache(cache_root(settings.project_root, cache_dir), run_key(run)) if use_cache else None
    result = RunResult(discovery=found, settings=settings, reasons=reasons, run=run)
    result.results = check_files(found.files, run, jobs, cache, keep_text)
    if cache is not None:
        cache.save()
    return result


PARALLEL_MIN_FILES = 24
PARALLEL_MIN_BYTES = 400_000


def check_files(files: Sequence[Path], run: RunContext, jobs: Optional[int], cache=None, keep_text: bool = False) -> List[FileResult]:
    """Check `files` (cache first, then the rest in a process pool when the run is big enough)."""
    from .cache import file_hash

    results: List[Optional[FileResult]] = [None] * len(files)
    pending: List[Tuple[int, str]] = []
    for index, path in enumerate(files):
        if cache is not None:
            try:
                data = path.read_bytes()
            except OSError:
                pending.append((index, str(path)))
                continue
            hit = cache.get(str(path), file_hash(data))
            if hit is not None and not (keep_text and any(d.fix is not None for d in hit.diagnostics)):
                results[index] = hit
                continue
        pending.append((index, str(path)))
    workers = max(1, jobs if jobs is not None else (os.cpu_count() or 1))
    size = sum(_size(p) for _, p in pending) if workers > 1 and len(pending) >= PARALLEL_MIN_FILES else 0
    if workers == 1 or len(pending) < PARALLEL_MIN_FILES or size < PARALLEL_MIN_BYTES:
        done = [(i, _check_path(p, run, keep_text)) for i, p in pending]
    else:
        done = _parallel(pending, run, workers, keep_text)
    for index, (result, digest) in done:
        results[index] = result
        if cache is not None and digest:
            cache.put(result.path, digest, result)
    return [r for r in results if r is not None]


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _check_path(path: str, run: RunContext, keep_text: bool) -> Tuple[FileResult, str]:
    """Read, check and hash one file (in this process or a worker)."""
    from .cache import file_hash

    result = check_one(Path(path), run)
    digest = ""
    if result.parsed or result.diagnostics:
        try:
            digest = file_hash(Path(path).read_bytes())
        except OSError:
            digest = ""
    if not keep_text:
        result.text = None
    return result, digest


_WORKER_RUN: Optional[RunContext] = None


def _init_worker(run: RunContext, keep_text: bool) -> None:
    global _WORKER_RUN, _WORKER_KEEP
    _WORKER_RUN = run
    _WORKER_KEEP = keep_text


def _worker_check(path: str) -> Tuple[FileResult, str]:
    assert _WORKER_RUN is not None
    return _check_path(path, _WORKER_RUN, _WORKER_KEEP)


_WORKER_KEEP = False


def _parallel(pending: List[Tuple[int, str]], run: RunContext, workers: int, keep_text: bool) -> List[Tuple[int, Tuple[FileResult, str]]]:
    """Check files in a process pool, in batches; a worker that dies marks its file AEM000."""
    import concurrent.futures as cf
    from concurrent.futures.process import BrokenProcessPool

    chunk = max(1, min(64, len(pending) // (workers * 8)))
    paths = [p for _, p in pending]
    try:
        with cf.ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(run, keep_text)) as pool:
            out = list(pool.map(_worker_check, paths, chunksize=chunk))
        return [(i, r) for (i, _), r in zip(pending, out)]
    except BrokenProcessPool:
        return [(i, _isolated(p, run, keep_text)) for i, p in pending]


def _isolated(path: str, run: RunContext, keep_text: bool) -> Tuple[FileResult, str]:
    """Check one file in a single-use worker, so a hard crash (a native parser abort) is contained."""
    import concurrent.futures as cf
    from concurrent.futures.process import BrokenProcessPool

    try:
        with cf.ProcessPoolExecutor(max_workers=1, initializer=_init_worker, initargs=(run, keep_text)) as pool:
            return pool.submit(_worker_check, path).result()
    except BrokenProcessPool:
        from .model import Level, Location

        where = Location(1, 1)
        crash = Diagnostic("AEM000", "internal-error", "errlint's worker process crashed on this file; errlint skipped it", path,
                           where, where, Level.ERROR, "Please report it with this file at https://github.com/errlint/errlint/issues; meanwhile exclude it with --extend-exclude.")
        return FileResult(path, [crash], parsed=False, internal_error=True), ""


def check_one(path: Path, run: RunContext) -> FileResult:
    from .engine import _with_filename

    name = str(path)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        return FileResult(name, [_with_filename(_read_error("is a directory, not a Python file"), name)], parsed=False)
    except OSError as exc:
        return FileResult(name, [_with_filename(_read_error(f"cannot be read ({exc.strerror or exc})"), name)], parsed=False)
    return check_file(name, data, run)


def write_fixes(reports: Sequence["FixReport"], encodings: Dict[str, str]) -> List[str]:
    """Write every fixed file atomically; returns an error line per file that could not be written."""
    from .fixes import write_atomic

    errors = []
    for report in reports:
        if report.fixed_text is None:
            continue
        try:
            write_atomic(report.path, report.fixed_text, encodings.get(report.path, "utf-8"))
        except OSError as exc:
            errors.append(f"{report.path}: cannot write the fixed file ({exc.strerror or exc}); check its permissions")
    return errors


def _read_error(reason: str) -> Diagnostic:
    from .model import Level, Location

    where = Location(1, 1)
    return Diagnostic("AEM001", "syntax-error", f"the file {reason}; errlint skipped it", "", where, where, Level.ERROR,
                      "Check the file's permissions and type, or exclude it with --extend-exclude.")


@dataclass
class FixReport:
    """What `--fix` did to one file: fixed diagnostics, the diagnostics left, the diff, and errors."""

    path: str
    fixed: List[Diagnostic] = field(default_factory=list)
    remaining: List[Diagnostic] = field(default_factory=list)
    original: Optional[str] = None
    fixed_text: Optional[str] = None
    error: str = ""


MAX_FIX_PASSES = 10


def fix_result(result: FileResult, run: RunContext, unsafe: bool) -> FixReport:
    """Apply fixes to one checked file in passes (overlapping fixes wait for the next pass) until
    nothing applies; each pass is verified to parse. Does not write."""
    from .fixes import applicable, apply_fixes

    report = FixReport(result.path, remaining=list(result.diagnostics), original=result.text)
    if result.text is None:
        return report
    text = result.text
    current = result
    for _ in range(MAX_FIX_PASSES):
        outcome = apply_fixes(text, current.diagnostics, unsafe, current.encoding)
        if outcome.error:
            report.error = outcome.error
            report.remaining = [_not_applied(d, outcome.error) if applicable(d.fix, unsafe) else d for d in current.diagnostics]
            break
        if outcome.text is None:
            report.remaining = list(current.diagnostics)
            break
        report.fixed.extend(outcome.applied)
        text = outcome.text
        current = check_file(result.path, text.encode(_codec(result.encoding)), run)
        report.remaining = list(current.diagnostics)
    if text != result.text:
        report.fixed_text = text
    return report


def _codec(encoding: str) -> str:
    return "utf-8-sig" if encoding.lower().replace("_", "-") == "utf-8-sig" else encoding


def _not_applied(d: Diagnostic, reason: str) -> Diagnostic:
    from dataclasses import replace

    return replace(d, message=f"{d.message} (fix not applied: {reason}; the file was left untouched)")
