"""Which files to check: Python files under the given paths, minus excludes and .gitignore'd files.

Rules (ruff's): files and folders passed explicitly are always checked unless `--force-exclude` is
given (for files); `exclude`/`extend-exclude` patterns have gitignore semantics relative to the
project root (`compile_pattern`), so a checkout under `/ci/build/...` is not skipped because `build`
is excluded; `.gitignore` files (and `.git/info/exclude`) are honoured when `respect-gitignore` is
on, for what is found below the paths given, even when a .gitignore above ignores the path itself. Symbolic links are not followed out of the given roots (a path given
explicitly is checked wherever it points). A broken or looping link named `*.py` is kept, so that
checking it reports AEM001; FIFOs, sockets and devices named `*.py` are skipped (reading one can block).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import pathspec

from .config import Settings

PYTHON_SUFFIXES = (".py", ".pyi")


@dataclass
class Discovery:
    """Files to check (sorted, unique), paths that do not exist, and paths skipped with the reason."""

    files: List[Path] = field(default_factory=list)
    missing: List[str] = field(default_factory=list)
    skipped: List[Tuple[str, str]] = field(default_factory=list)
    gitignored: int = 0
    excluded: int = 0


class Excluder:
    """Matches paths against the exclude patterns, with gitignore semantics, relative to the project root."""

    def __init__(self, settings: Settings):
        self.root = Path(settings.project_root or ".").resolve()
        self.patterns = tuple(settings.exclude) + tuple(settings.extend_exclude)
        self.compiled = [(pattern, compile_pattern(pattern)) for pattern in self.patterns]
        self.negated = any(p.include is False for _, p in self.compiled)
        # one regex for all patterns (none negated): the walk asks about every entry it meets
        self.entry_regex = None
        if not self.negated and self.compiled:
            self.entry_regex = re.compile("|".join(f"(?:{_plain(p.regex.pattern)})" for _, p in self.compiled if p.regex is not None))

    def _rel(self, path: Path, is_dir: bool) -> str:
        try:
            rel = _resolve(path).relative_to(self.root).as_posix()
        except ValueError:
            rel = path.absolute().as_posix().lstrip("/")
        return rel + "/" if is_dir else rel

    def excluded(self, path: Path) -> Optional[str]:
        """The pattern that excludes `path` (or a folder above it, up to the root), or None."""
        rel = self._rel(path, path.is_dir())
        hit: Optional[str] = None
        for pattern, compiled in self.compiled:
            if compiled.regex is not None and compiled.regex.match(rel):
                hit = pattern if compiled.include else None
        return hit

    def excluded_entry(self, path: Path, name: str, is_dir: bool = False) -> bool:
        """During a walk: the parents were already let through (and a path given explicitly is
        checked whatever its folders are called), so only the entry itself is matched."""
        try:
            rel = path.absolute().relative_to(self.root).as_posix()
        except ValueError:
            rel = path.absolute().as_posix().lstrip("/")
        rel = rel + "/" if is_dir else rel
        if self.entry_regex is not None:
            return self.entry_regex.fullmatch(rel) is not None
        hit = False
        for _, compiled in self.compiled:
            if compiled.regex is not None and compiled.regex.fullmatch(rel):
                hit = bool(compiled.include)
        return hit


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str):
    """One exclude or per-file-ignores pattern, compiled with gitignore semantics (pathspec): `*`
    stays within a folder, `**` crosses folders, a pattern with no slash (or only a trailing one)
    matches at any depth, one with a slash is anchored at the project root, a trailing slash
    matches folders only, and a leading `!` negates. Raises ValueError for an invalid pattern."""
    try:
        compiled = pathspec.GitIgnoreSpec.from_lines([pattern]).patterns
    except (ValueError, TypeError, re.error) as exc:
        raise ValueError(f"{pattern!r} is not a valid gitignore-style pattern ({exc}); fix or remove it") from None
    if not compiled or compiled[0].regex is None:
        comment = not pattern.strip() or pattern.lstrip().startswith("#")
        reason = "matches no path (it is empty or a `#` comment); remove it" if comment else \
            "is not a valid gitignore-style pattern (an unclosed `[`?); fix or remove it"
        raise ValueError(f"{pattern!r} {reason}")
    return compiled[0]


def _gitignore_spec(lines: Sequence[str]) -> pathspec.PathSpec:
    """A `.gitignore` file's patterns; a line git accepts but the pattern library refuses (`[z-a]`,
    a trailing backslash) is skipped, as git skips a pattern it cannot use."""
    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except (ValueError, TypeError, re.error):
        kept = []
        for line in lines:
            try:
                pathspec.GitIgnoreSpec.from_lines([line])
            except (ValueError, TypeError, re.error):
                continue
            kept.append(line)
        return pathspec.GitIgnoreSpec.from_lines(kept)


def path_matches(pattern: str, rel: str) -> bool:
    """Whether `rel` (a path relative to the project root) or a folder above it matches `pattern`
    (a leading `!` is part of the pattern: see `compile_pattern`)."""
    compiled = compile_pattern(pattern.lstrip("!"))
    return compiled.regex is not None and compiled.regex.match(rel) is not None


def _plain(regex: str) -> str:
    """A pathspec regex without its named groups, so several can be joined into one."""
    return re.sub(r"\(\?P<[a-zA-Z_][a-zA-Z0-9_]*>", "(?:", regex)


class GitIgnore:
    """`.gitignore` files from the walk root down, plus `.git/info/exclude` of the enclosing repo."""

    def __init__(self, start: Path, explicit: bool = False):
        """`explicit`: `start` is a folder the user named, checked even if the .gitignore files
        above it ignore it (as ruff does); their patterns still apply to what is found below it."""
        self.specs: Dict[Path, pathspec.PathSpec] = {}
        repo = _repo_root(start)
        self.repo = repo
        if repo is not None:
            info = repo / ".git" / "info" / "exclude"
            self._add(repo, info)
            # .gitignore files between the repo root and the start directory apply too
            here = start.resolve()
            for directory in [repo, *[p for p in reversed(here.parents) if _is_under(p, repo) and p != repo], here]:
                self._add(directory, directory / ".gitignore")
            if explicit:
                for directory in list(self.specs):
                    if directory != here:
                        self.specs[directory] = _below(self.specs[directory], directory, here)

    def _add(self, directory: Path, file: Path) -> None:
        if directory in self.specs and file.name == ".gitignore" and (directory / ".gitignore") != file:
            return
        try:
            lines = file.read_text("utf-8", errors="replace").splitlines()
        except OSError:
            return
        spec = _gitignore_spec(lines)
        if directory in self.specs:
            spec = self.specs[directory] + spec
        self.specs[directory] = spec

    def enter(self, directory: Path) -> None:
        if directory not in self.specs:
            self._add(directory, directory / ".gitignore")

    def ignored(self, path: Path, is_dir: bool) -> bool:
        result = False
        for directory, spec in self.specs.items():
            if not _is_under(path, directory) or path == directory:
                continue
            rel = path.relative_to(directory).as_posix() + ("/" if is_dir else "")
            check = spec.check_file(rel)
            if check.include is not None:
                result = bool(check.include)
        return result


def _below(spec: pathspec.PathSpec, directory: Path, start: Path) -> pathspec.PathSpec:
    """`spec` (of a .gitignore in `directory`, above `start`) without the patterns that ignore
    `start` or a folder between them: those would hide the whole folder the user asked for."""
    rel = start.relative_to(directory).parts
    folders = ["/".join(rel[:n]) + "/" for n in range(1, len(rel) + 1)]
    kept = [p for p in spec.patterns
            if not p.include or p.regex is None or not any(p.regex.match(folder) for folder in folders)]
    return pathspec.GitIgnoreSpec(kept)


def _repo_root(start: Path) -> Optional[Path]:
    here = start.resolve()
    for directory in [here, *here.parents]:
        if (directory / ".git").exists():
            return directory
    return None


def _resolve(path: Path) -> Path:
    """`path.resolve()`, or the absolute path when a symbolic link loops (RuntimeError before 3.13)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(path))


def _is_under(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False


def discover(paths: Sequence[str], settings: Settings, force_exclude: bool = False) -> Discovery:
    """Expand `paths` into the Python files to check."""
    result = Discovery()
    excluder = Excluder(settings)
    seen = set()
    for raw in paths:
        path = Path(raw)
        if not os.path.lexists(path):
            result.missing.append(raw)
            continue
        if path.is_dir():
            for file in _walk(path, settings, excluder, result):
                key = os.path.normcase(os.path.abspath(file))
                if key not in seen:
                    seen.add(key)
                    result.files.append(file)
            continue
        if force_exclude:
            pattern = excluder.excluded(path)
            if pattern:
                result.skipped.append((raw, f"excluded by {pattern!r}"))
                continue
            if settings.respect_gitignore and GitIgnore(path.parent).ignored(_resolve(path), False):
                result.skipped.append((raw, "ignored by .gitignore"))
                continue
        key = os.path.normcase(os.path.abspath(path))
        if key not in seen:
            seen.add(key)
            result.files.append(path)
    return result


def _walk(root: Path, settings: Settings, excluder: Excluder, result: Discovery) -> Iterable[Path]:
    gitignore = GitIgnore(root, explicit=True) if settings.respect_gitignore else None
    real_root = root.resolve()
    stack = [root]
    out: List[Path] = []
    while stack:
        directory = stack.pop()
        if gitignore is not None:
            gitignore.enter(_resolve(directory))
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as exc:
            result.skipped.append((str(directory), f"cannot list directory ({exc.strerror})"))
            continue
        for entry in entries:
            path = Path(entry.path)
            is_link = False
            try:
                is_link = entry.is_symlink()
                is_dir = entry.is_dir(follow_symlinks=True)
            except OSError:
                if not is_link:
                    continue
                is_dir = False  # a looping link
            dangling = False
            if is_link:
                try:
                    target = path.resolve(strict=True)
                except (OSError, RuntimeError):
                    dangling = True  # reported as AEM001 when named *.py: it cannot be read
                else:
                    if not _is_under(target, real_root):
                        result.skipped.append((str(path), "symbolic link out of the checked tree"))
                        continue
                    if is_dir:
                        continue  # the tree itself is walked; linked directories would repeat it
            if excluder.excluded_entry(path, entry.name, is_dir):
                result.excluded += 1
                continue
            if gitignore is not None and gitignore.ignored(_resolve(path) if not is_link else Path(os.path.abspath(path)), is_dir):
                result.gitignored += 1
                continue
            if is_dir:
                stack.append(path)
            elif entry.name.endswith(PYTHON_SUFFIXES):
                if not dangling and _is_regular(entry) and bundled_copy(path):
                    result.excluded += 1
                    result.skipped.append((str(path), "a bundled copy of another distribution (it declares its own `__version__` and `__author__`); name the file to check it"))
                elif dangling or _is_regular(entry):
                    out.append(path)
                else:
                    result.skipped.append((str(path), "not a regular file (a FIFO, socket or device)"))
    return sorted(out)


# A module that declares a distribution's metadata of its own, inside one of the project's packages,
# is a single-file library copied in (`pkg/bottle_wrapper/bottle.py`, `pkg/six.py`): its messages
# are another project's to change, as a `vendor/` folder's are. The package's own metadata files are
# not copies.
METADATA_MODULES = {"__init__.py", "__main__.py", "_version.py", "version.py", "__version__.py", "__about__.py", "about.py", "_metadata.py", "metadata.py", "__pkginfo__.py", "release.py"}
OWN_METADATA = re.compile(rb"^__version__\s*[:=]", re.M)
AUTHOR = re.compile(rb"^__author__\s*[:=]", re.M)
HEAD_BYTES = 8192


def bundled_copy(path: Path) -> bool:
    """Whether `path` is a single-file library copied into a package (see METADATA_MODULES)."""
    if path.name in METADATA_MODULES or not (path.parent / "__init__.py").exists():
        return False
    try:
        with open(path, "rb") as fh:
            head = fh.read(HEAD_BYTES)
    except OSError:
        return False
    return bool(OWN_METADATA.search(head) and AUTHOR.search(head))


def _is_regular(entry: os.DirEntry) -> bool:
    try:
        return entry.is_file(follow_symlinks=True)
    except OSError:
        return False
