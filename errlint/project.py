"""The project a run belongs to, worked out once: its root, config file, settings, cache folder and
the MCP versions it pins (with the file each was read from).

The root is found as ruff finds it: the closest folder, walking up from the paths checked (their
common folder), that holds `pyproject.toml`, `errlint.toml`, `.errlint.toml`, `setup.cfg` or `.git`,
whether or not that file has a `[tool.errlint]` table; with no such folder, the current directory.
Everything root-relative reads it from here (through `Settings.project_root`): path patterns,
the cache (`ROOT/.errlint_cache`), the version detection (`uv.lock`, `requirements*.txt`, ...) and
the tool registry.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .config import ConfigError, Settings, detect_version_sources, find_config, read_table, settings_from_table, shown_path

ROOT_MARKERS = ("pyproject.toml", "errlint.toml", ".errlint.toml", "setup.cfg", ".git")


@dataclass
class Project:
    """One run's project. `config_errors` is set only by a tolerant load (`--show-settings`)."""

    root: Path
    settings: Settings
    config_file: Optional[Path] = None
    anchored: bool = False  # the root holds a marker (else it is the current directory)
    config_errors: List[str] = field(default_factory=list)

    def cache_dir(self, override: Optional[str] = None) -> Path:
        """`--cache-dir`, else $ERRLINT_CACHE_DIR, else `.errlint_cache` in the root."""
        from .cache import cache_root

        return cache_root(str(self.root), override)

    def versions(self) -> Dict[str, Tuple[str, str]]:
        """{"mcp": (version, where it was read)}: the config's `mcp-version` wins over the root's files."""
        found = {name: (version, shown_path(self.root / source)) for name, (version, source) in detect_version_sources(self.root).items()}
        where = shown_path(self.config_file) if self.config_file else "the config"
        if self.settings.mcp_version:
            found["mcp"] = (self.settings.mcp_version, f"mcp-version in {where}")
        if self.settings.fastmcp_version:
            found["fastmcp"] = (self.settings.fastmcp_version, f"fastmcp-version in {where}")
        return found


def start_folder(paths: Sequence[str]) -> Path:
    """The folder the root and config searches start from: the common folder of `paths` (the
    current directory for none, or for stdin without --stdin-filename)."""
    real = [os.path.abspath(p) for p in paths if p and p != "-"]
    if not real:
        return Path.cwd()
    try:
        common = Path(os.path.commonpath(real))
    except ValueError:  # different drives
        return Path.cwd()
    while not common.is_dir() and common != common.parent:
        common = common.parent  # a file, or a path that does not exist (yet)
    return common


def find_root(paths: Sequence[str]) -> Tuple[Path, bool]:
    """(the closest folder at or above the paths' common folder that holds a root marker, True),
    or (the current directory, False) when none does."""
    here = start_folder(paths).resolve()
    for directory in [here, *here.parents]:
        if any(os.path.lexists(directory / marker) for marker in ROOT_MARKERS):
            return directory, True
    return Path.cwd().resolve(), False


def load_project(paths: Sequence[str], config: Optional[str] = None, isolated: bool = False,
                 overrides: Optional[Dict[str, object]] = None, tolerant: bool = False) -> Project:
    """The project of `paths`: root, config (`config` if given, else the closest one), settings with
    the CLI `overrides` applied. Raises ConfigError, unless `tolerant`: then a broken config leaves
    the defaults in place and its problems in `config_errors`."""
    root, anchored = find_root(paths)
    config_file: Optional[Path] = None
    if config:
        config_file = Path(config)
        if config_file.is_dir():
            raise ConfigError(f"--config {config!r} is a directory; pass the pyproject.toml or errlint.toml file in it")
        if config_file.exists() and not config_file.is_file():
            raise ConfigError(f"--config {config!r} is not a regular file; pass a pyproject.toml or errlint.toml file")
        if not config_file.is_file():
            raise ConfigError(f"config file {config!r} does not exist; pass an existing pyproject.toml or errlint.toml to --config")
        root, anchored = config_file.resolve().parent, True
    elif not isolated:
        config_file = find_config(start_folder(paths))
    errors: List[str] = []
    settings = Settings()
    if config_file is not None:
        try:
            settings = settings_from_table(read_table(config_file), config_file)
        except ConfigError as exc:
            if not tolerant:
                raise
            errors = exc.errors
    settings = replace(settings, project_root=str(root), project_is_repo=anchored,
                       config_path=str(config_file.resolve()) if config_file is not None else "")
    clean = {k: v for k, v in (overrides or {}).items() if v is not None}
    _check_patterns(clean)
    if clean.get("extend_exclude"):  # "add exclude patterns": to the config's, as --extend-select adds
        clean["extend_exclude"] = tuple(settings.extend_exclude) + tuple(clean["extend_exclude"])  # type: ignore[arg-type]
    if clean:
        settings = replace(settings, **clean)
    return Project(root, settings, config_file, anchored, errors)


def _check_patterns(overrides: Dict[str, object]) -> None:
    from .discovery import compile_pattern

    for key in ("exclude", "extend_exclude"):
        for pattern in overrides.get(key) or ():  # type: ignore[union-attr]
            try:
                compile_pattern(str(pattern))
            except ValueError as exc:
                raise ConfigError(f"--{key.replace('_', '-')}: {exc}") from None
