"""Many files: discovery, the project's tool registry, per-file checks (in order, or in a process
pool), and the results in a deterministic order whatever the scheduling."""
from __future__ import annotations

import gc
import os
import stat
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .config import Settings
from .discovery import Discovery, discover
from .engine import check_file
from .project_scan import ExceptionClasses, LiteralAliases, ModuleObjects, PassThroughScan, ServerObjects, project_registry, project_versions
from .module_constants import ModuleConstants
from .run_context import FileResult, RunContext
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
    parsed: List[str] = field(default_factory=list)  # files checked afresh (not from the cache)
    rejudged: List[str] = field(default_factory=list)  # files whose cross-file facts were re-applied
    project_seconds: float = 0.0  # wall time of the project pass (model, reachability, judging)

    @property
    def diagnostics(self) -> List[Diagnostic]:
        return [d for r in self.results for d in r.diagnostics]


def resolve_settings(paths: Sequence[str], config: Optional[str], isolated: bool, overrides: Dict[str, object]) -> Settings:
    """The settings of the project of `paths` (see `errlint.project`), with CLI overrides. Raises ConfigError."""
    from .project import load_project

    return load_project(paths, config, isolated, overrides).settings


def load_packs(settings: Settings) -> Packs:
    """Bundled packs plus the user's (`packs` in config). Raises PackError."""
    return load(bundled_pack_files() + user_pack_files(Path(p) for p in settings.packs))


def build_run(settings: Settings, selection: Selection, registry_files: Sequence[Path], ignore_noqa: bool = False) -> Tuple[RunContext, Dict[str, str]]:
    packs = load_packs(settings)
    rules, reasons = select_rules(settings, packs, selection.select, selection.extend_select, selection.ignore)
    from .entry_points import project_scripts

    audiences: set = set()
    pass_through, literals, servers, objects, exceptions = PassThroughScan(), LiteralAliases(), ServerObjects(), ModuleObjects(), ExceptionClasses()
    constants = ModuleConstants()
    registry, caught = project_registry(registry_files, settings.tool_registry_extra, audiences, pass_through, literals, servers, objects, exceptions, constants)
    scripts = tuple(project_scripts(settings.project_root))
    if scripts:
        audiences.add("cli")
    run = RunContext(settings, packs, rules, registry, project_versions(settings), ignore_noqa=ignore_noqa, caught=caught,
                     pass_through=pass_through.classes(), literal_aliases=literals.aliases(), audiences=frozenset(audiences), scripts=scripts,
                     server_objects=servers.objects(), module_objects=objects.objects(), exception_classes=exceptions.classes(),
                     module_constants=constants.constants())
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
                cache_dir: Optional[str] = None, keep_text: bool = False, progress=None, locate_all: bool = False,
                owns_process: bool = False) -> RunResult:
    """Check every Python file under `paths`; results come back in discovery order whatever the
    scheduling. `keep_text` keeps each file's text on its result (needed to apply fixes);
    `progress` (an `errlint.progress.Progress`) is told of each file checked; `owns_process` (the
    CLI) lets the run tune the garbage collector (see `_kept_results_frozen`)."""
    from .cache import Cache, cache_root, run_key

    found = discover(paths, settings, force_exclude)
    run, reasons = build_run(settings, selection, registry_files(settings, found.files), ignore_noqa)
    run.locate_all = locate_all
    cache = Cache(cache_root(settings.project_root, cache_dir), run_key(run)) if use_cache else None
    result = RunResult(discovery=found, settings=settings, reasons=reasons, run=run)
    result.results = check_files(found.files, run, jobs, cache, keep_text, result, progress, owns_process)
    if cache is not None:
        cache.save()
    return result


PARALLEL_MIN_FILES = 24
PARALLEL_MIN_BYTES = 400_000


def check_files(files: Sequence[Path], run: RunContext, jobs: Optional[int], cache=None, keep_text: bool = False,
                stats: Optional[RunResult] = None, progress=None, owns_process: bool = False) -> List[FileResult]:
    """Check `files` (cache first, then the rest in a process pool when the run is big enough), then
    judge every file's audience-dependent messages with the whole project (project_audience).
    `owns_process`: the caller (the CLI) owns the process, so the collector may be tuned for the run."""
    with _kept_results_frozen(owns_process) as settle:
        return _check_files(files, run, jobs, cache, keep_text, stats, progress, settle)


@contextmanager
def _kept_results_frozen(owned: bool):
    """Yields a function to call after each file checked in this process: it moves what the run keeps
    (the results so far) out of the cyclic garbage collector's full passes, which would otherwise walk
    every kept result again and again (about 2% of a cold run of the stdlib). Everything is handed
    back to the collector at the end. Only a process errlint owns (`owned`: the CLI) does this; a
    library caller's collector is left alone, and so is one turned off. (Whether a caller froze
    objects cannot be read from `gc.get_freeze_count()`: CPython 3.12 moves immortal objects into the
    permanent generation at every full collection.)"""
    if not owned or not gc.isenabled():
        yield lambda: None
        return

    def settle() -> None:
        gc.collect(0)  # the file's own garbage cycles go first: only what is kept gets frozen
        gc.freeze()

    try:
        yield settle
    finally:
        gc.unfreeze()


def _check_files(files: Sequence[Path], run: RunContext, jobs: Optional[int], cache, keep_text: bool,
                 stats: Optional[RunResult], progress, settle) -> List[FileResult]:
    from .cache import project_digest

    results: List[Optional[FileResult]] = [None] * len(files)
    pending: List[Tuple[int, str]] = []
    hashes = _hashes(files) if cache is not None else []
    project = None
    if cache is not None and not keep_text and all(digest for _, digest in hashes):
        # nothing changed since the last run (no file, no setting: the run key names the cache file),
        # so neither did any finding: the project pass would make the same choices
        project = project_digest(hashes, run.locate_all)
        same = cache.project_results(project)
        if same is not None:
            if stats is not None:
                stats.parsed, stats.rejudged = [], []
            return same
    for index, path in enumerate(files):
        if cache is not None and hashes[index][1]:
            hit = cache.get(str(path), hashes[index][1])
            if hit is not None and not (keep_text and any(d.fix is not None for d in hit.diagnostics)):
                results[index] = hit
                continue
        pending.append((index, str(path)))
    workers = max(1, jobs if jobs is not None else (os.cpu_count() or 1))
    size = sum(_size(p) for _, p in pending) if workers > 1 and len(pending) >= PARALLEL_MIN_FILES else 0
    if progress is not None:
        progress.start(len(pending))
    if workers == 1 or len(pending) < PARALLEL_MIN_FILES or size < PARALLEL_MIN_BYTES:
        done = []
        for i, p in pending:
            done.append((i, _check_path(p, run, keep_text)))
            settle()
            if progress is not None:
                progress.advance()
    else:
        done = _parallel(pending, run, workers, keep_text, progress)
    if progress is not None:
        progress.finish()
    for index, (result, digest) in done:
        results[index] = result
        if cache is not None and digest:
            cache.put(result.path, digest, result)
    checked = [r for r in results if r is not None]
    from .project_audience import judge_all

    started = time.perf_counter()
    digests = judge_all(checked, run)
    spent = time.perf_counter() - started
    timings = os.environ.get("ERRLINT_TIMINGS")
    if timings:  # bench/run.py asks for the project pass's share of a run
        with open(timings, "a", encoding="utf-8") as out:
            out.write(f"project-pass {spent:.4f}\n")
    fresh = {p for _, p in pending}
    if stats is not None:
        stats.project_seconds = spent
        stats.parsed = [str(files[i]) for i, _ in pending]
        stats.rejudged = [r.path for r in checked if r.variants and (r.path in fresh or cache is None or cache.depends(r.path) != digests.get(r.path))]
    if cache is not None:
        for r in checked:
            cache.note_depends(r.path, digests.get(r.path, ""))
        if project is not None:
            cache.put_project(project, checked)
    return checked


def _hashes(files: Sequence[Path]) -> List[List[str]]:
    """Each file's path and the SHA-256 of its bytes ("" when it cannot be read as a regular file of
    a checkable size: it is checked, and check_one reports why)."""
    from .cache import file_hash
    from .syntax_errors import MAX_FILE_BYTES

    out = []
    for path in files:
        try:
            info = path.stat()
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
                raise OSError("not a regular file of a checkable size")
            out.append([str(path), file_hash(path.read_bytes())])
        except OSError:
            out.append([str(path), ""])
    return out


_LIBC = None


def release_memory() -> None:
    """Hand freed memory back to the OS after a big file (glibc keeps it otherwise: a 300 KB file
    leaves a worker at ~200 MB instead of ~50 MB). A no-op where malloc_trim does not exist."""
    global _LIBC
    try:
        if _LIBC is None:
            import ctypes
            import ctypes.util

            _LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        _LIBC.malloc_trim(0)
    except (OSError, AttributeError):
        _LIBC = False  # type: ignore[assignment]


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _check_path(path: str, run: RunContext, keep_text: bool) -> Tuple[FileResult, str]:
    """Read, check and hash one file (in this process or a worker). Never raises."""
    from .cache import file_hash

    try:
        result = check_one(Path(path), run)
    except Exception as exc:  # check_file cannot raise; this guards the reading around it
        return _crashed(path, f"internal error while checking this file: {type(exc).__name__}: {exc}"[:300]), ""
    if _size(path) > BIG_FILE_BYTES:
        release_memory()
    digest = ""
    if result.parsed or result.diagnostics:
        try:
            digest = file_hash(Path(path).read_bytes())
        except (OSError, MemoryError):
            digest = ""
    if not keep_text:
        result.text = None
    return result, digest


BIG_FILE_BYTES = 96_000  # libcst needs ~0.6 MB of memory per byte-kilo: one such file at a time


class _Worker:
    """Per-process state of a pool worker: the run, and the lock that keeps big files from being
    parsed by two workers at once (two 300 KB files would need ~400 MB together)."""

    run: Optional[RunContext] = None
    keep_text = False
    big_lock = None


def _init_worker(run: RunContext, keep_text: bool, big_lock=None) -> None:
    _Worker.run, _Worker.keep_text, _Worker.big_lock = run, keep_text, big_lock


def _worker_check(path: str) -> Tuple[FileResult, str]:
    assert _Worker.run is not None
    if _Worker.big_lock is not None and _size(path) > BIG_FILE_BYTES:
        with _Worker.big_lock:
            return _check_path(path, _Worker.run, _Worker.keep_text)
    return _check_path(path, _Worker.run, _Worker.keep_text)


def _parallel(pending: List[Tuple[int, str]], run: RunContext, workers: int, keep_text: bool,
              progress=None) -> List[Tuple[int, Tuple[FileResult, str]]]:
    """Check files in a process pool, in batches; a worker that dies marks its file AEM000."""
    import concurrent.futures as cf
    from concurrent.futures.process import BrokenProcessPool

    import multiprocessing

    chunk = max(1, min(64, len(pending) // (workers * 8)))
    paths = [p for _, p in pending]
    try:
        context = multiprocessing.get_context()
        lock = context.Lock()
        with cf.ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(run, keep_text, lock)) as pool:
            out = []
            for checked in pool.map(_worker_check, paths, chunksize=chunk):
                out.append(checked)
                if progress is not None:
                    progress.advance()
        return [(i, r) for (i, _), r in zip(pending, out)]
    except BrokenProcessPool:
        return [(i, _isolated(p, run, keep_text)) for i, p in pending]
    except (OSError, ImportError, NotImplementedError):  # no working multiprocessing here (no /dev/shm, a sandbox)
        return [(i, _check_path(p, run, keep_text)) for i, p in pending]


def _isolated(path: str, run: RunContext, keep_text: bool) -> Tuple[FileResult, str]:
    """Check one file in a single-use worker, so a hard crash (a native parser abort) is contained."""
    import concurrent.futures as cf
    from concurrent.futures.process import BrokenProcessPool

    try:
        with cf.ProcessPoolExecutor(max_workers=1, initializer=_init_worker, initargs=(run, keep_text)) as pool:
            return pool.submit(_worker_check, path).result()
    except BrokenProcessPool:
        return _crashed(path, "errlint's worker process crashed on this file; errlint skipped it"), ""
    except (OSError, ImportError, NotImplementedError):
        return _check_path(path, run, keep_text)


def _crashed(path: str, message: str) -> FileResult:
    from .engine import display_name
    from .model import Level, Location

    where = Location(1, 1)
    crash = Diagnostic("AEM000", "internal-error", message, display_name(path), where, where, Level.ERROR,
                       "Please report it with this file at https://github.com/errlint/errlint/issues; meanwhile exclude it with --extend-exclude.")
    return FileResult(path, [crash], parsed=False, internal_error=True)


def check_one(path: Path, run: RunContext) -> FileResult:
    """Read and check one file; a file that cannot be read is one AEM001 saying why."""
    from .syntax_errors import MAX_FILE_BYTES, too_large

    name = str(path)
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > MAX_FILE_BYTES:
                return _unreadable(name, too_large(size))
            data = fh.read(MAX_FILE_BYTES + 1)  # bounded: a pipe or device reports no size
    except OSError as exc:
        return _unreadable(name, _read_error(_why_unreadable(path, exc)))
    return check_file(name, data, run)


def _unreadable(name: str, diagnostic: Diagnostic) -> FileResult:
    from .engine import display_name, _with_filename

    return FileResult(name, [_with_filename(diagnostic, display_name(name))], parsed=False)


def _why_unreadable(path: Path, exc: OSError) -> str:
    import errno

    if isinstance(exc, IsADirectoryError):
        return "is a directory, not a Python file"
    if exc.errno == errno.ELOOP:
        return "is a symbolic link that loops"
    if isinstance(exc, FileNotFoundError):
        return "is a broken symbolic link (its target does not exist)" if os.path.islink(path) else "no longer exists"
    return f"cannot be read ({exc.strerror or exc})"


def write_fixes(reports: Sequence["FixReport"], encodings: Dict[str, str]) -> List[str]:
    """Write every fixed file atomically; returns an error line per file that could not be written.

    A file whose text changed since it was read (an editor saved it) is left alone, and a file
    reached twice (through a symbolic link) is written once."""
    from .engine import display_name
    from .source_decoding import _decode
    from .fixes import write_atomic

    errors = []
    written = set()
    for report in reports:
        if report.fixed_text is None:
            continue
        encoding = encodings.get(report.path, "utf-8")
        name = display_name(report.path)
        try:
            target = os.path.realpath(report.path)
            if target in written:
                continue
            if _decode(Path(report.path).read_bytes(), encoding) != report.original:
                errors.append(f"{name}: the file changed while errlint was checking it; its fixes were not written, run errlint again")
                continue
            write_atomic(report.path, report.fixed_text, encoding)
            written.add(target)
        except OSError as exc:
            errors.append(f"{name}: cannot write the fixed file ({exc.strerror or exc}); check its permissions")
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
        checked = check_file(result.path, outcome.text.encode(_codec(result.encoding)), run)
        from .project_audience import rejudge

        checked.diagnostics = rejudge(checked, run)  # the run's project model, not this file alone
        if not _fixed_any(current.diagnostics, checked.diagnostics, unsafe):
            break  # the pass changed the text but no finding went away: a fix that does not fix is not applied
        report.fixed.extend(outcome.applied)
        text = outcome.text
        current = checked
        report.remaining = list(current.diagnostics)
    if text != result.text:
        report.fixed_text = text
    return report


def _fixed_any(before: Sequence[Diagnostic], after: Sequence[Diagnostic], unsafe: bool) -> bool:
    """Some finding with an applicable fix is gone after a pass (counted by code and text)."""
    from .fixes import applicable

    fixable = Counter((d.code, d.message) for d in before if applicable(d.fix, unsafe))
    return bool(fixable - Counter((d.code, d.message) for d in after))


def _codec(encoding: str) -> str:
    return "utf-8-sig" if encoding.lower().replace("_", "-") == "utf-8-sig" else encoding


def _not_applied(d: Diagnostic, reason: str) -> Diagnostic:
    from dataclasses import replace

    return replace(d, message=f"{d.message} (fix not applied: {reason}; the file was left untouched)")
