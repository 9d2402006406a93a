"""Which files to check: Python files under the given paths, minus excludes and .gitignore'd files.

Rules (ruff's): files passed explicitly are always checked unless `--force-exclude` is given;
`exclude`/`extend-exclude` patterns without a slash match any path component's name, patterns with
a slash match the path relative to the project root, so a checkout under `/ci/build/...` is not
skipped because `build` is excluded; `.gitignore` files (and `.git/info/exclude`) are honoured when
`respect-gitignore` is on. Symbolic links are not followed out of the given roots (a path given
explicitly is checked wherever it points). A broken or looping link named `*.py` is kept, so that
checking it reports AEM001; FIFOs, sockets and devices named `*.py` are skipped (reading one can block).
"""
from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
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
    """Matches paths against exclude patterns relative to the project root."""

    def __init__(self, settings: Settings):
        self.root = Path(settings.project_root or ".").resolve()
        self.patterns = tuple(settings.exclude) + tuple(settings.extend_exclude)
        names = [p.rstrip("/") for p in self.patterns if "/" not in p.rstrip("/")]
        self.paths = [p.rstrip("/") for p in self.patterns if "/" in p.rstrip("/")]
        # one compiled regex for all name patterns: the walk asks about every entry it meets
        self.name_regex = re.compile("|".join(f"(?:{fnmatch.translate(n)})" for n in names)) if names else None

    def excluded(self, path: Path) -> Optional[str]:
        """The pattern that excludes `path` (any component of it), or None."""
        try:
            rel = PurePosixPath(_resolve(path).relative_to(self.root).as_posix())
        except ValueError:
            rel = PurePosixPath(path.as_posix())
        if self.name_regex is not None:
            for part in rel.parts:
                if self.name_regex.match(part):
                    return self._name_pattern(part)
        return self._path_pattern(str(rel))

    def excluded_entry(self, path: Path, name: str) -> bool:
        """During a walk: the parents were already let through, so only the entry's own name and
        its path (for patterns with a slash) need checking."""
        if self.name_regex is not None and self.name_regex.match(name):
            return True
        if not self.paths:
            return False
        try:
            rel = path.absolute().relative_to(self.root).as_posix()
        except ValueError:
            rel = path.as_posix()
        return self._path_pattern(rel) is not None

    def _name_pattern(self, part: str) -> Optional[str]:
        for pattern in self.patterns:
            if "/" not in pattern.rstrip("/") and fnmatch.fnmatch(part, pattern.rstrip("/")):
                return pattern
        return None

    def _path_pattern(self, text: str) -> Optional[str]:
        for clean in self.paths:
            if fnmatch.fnmatch(text, clean) or fnmatch.fnmatch(text, clean + "/*") or text.startswith(clean + "/"):
                return clean
        return None


class GitIgnore:
    """`.gitignore` files from the walk root down, plus `.git/info/exclude` of the enclosing repo."""

    def __init__(self, start: Path):
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

    def _add(self, directory: Path, file: Path) -> None:
        if directory in self.specs and file.name == ".gitignore" and (directory / ".gitignore") != file:
            return
        try:
            lines = file.read_text("utf-8", errors="replace").splitlines()
        except OSError:
            return
        spec = pathspec.GitIgnoreSpec.from_lines(lines)
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
    gitignore = GitIgnore(root) if settings.respect_gitignore else None
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
            if excluder.excluded_entry(path, entry.name):
                result.excluded += 1
                continue
            if gitignore is not None and gitignore.ignored(_resolve(path) if not is_link else Path(os.path.abspath(path)), is_dir):
                result.gitignored += 1
                continue
            if is_dir:
                stack.append(path)
            elif entry.name.endswith(PYTHON_SUFFIXES):
                if dangling or _is_regular(entry):
                    out.append(path)
                else:
                    result.skipped.append((str(path), "not a regular file (a FIFO, socket or device)"))
    return sorted(out)


def _is_regular(entry: os.DirEntry) -> bool:
    try:
        return entry.is_file(follow_symlinks=True)
    except OSError:
        return False
