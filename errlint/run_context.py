"""What a run shares across files (`RunContext`) and what checking one file yields (`FileResult`).

A `RunContext` holds the settings, phrase packs, enabled rules, tool registry, caught exception
names, entry-point audiences and library versions that every file of a run is checked with; a
`FileResult` holds one file's diagnostics, text and the facts the project pass needs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from .checks.base import Rule
from .config import Settings
from .model import Diagnostic
from .packs import Packs

@dataclass
class RunContext:
    """What every file of a run shares: settings, packs, enabled rules, tool registry, versions."""

    settings: Settings
    packs: Packs
    rules: List[Rule]
    registry: frozenset = frozenset()
    mcp_versions: Dict[str, str] = field(default_factory=dict)
    ignore_noqa: bool = False
    caught: frozenset = frozenset()  # exception classes the project catches by name (scan_caught_names)
    pass_through: frozenset = frozenset()  # project classes derived from a stack's ToolError (PassThroughScan)
    literal_aliases: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()  # module-level Literal aliases (LiteralAliases)
    server_objects: Tuple[Tuple[str, str], ...] = ()  # MCP server objects project modules make (ServerObjects)
    module_objects: Tuple[Tuple[str, str], ...] = ()  # ("store.NOTES", "store"|"settings"): ModuleObjects
    module_constants: Tuple[Tuple[str, str], ...] = ()  # ("texts.USAGE", its source): module_constants.ModuleConstants
    exception_classes: Tuple[Tuple[str, Tuple[Tuple[str, ...], str]], ...] = ()  # project exception classes (ExceptionClasses)
    audiences: frozenset = frozenset()  # entry-point audiences the project may have (entry_points.audience_hints)
    scripts: Tuple[str, ...] = ()  # [project.scripts] targets
    locate_all: bool = False  # keep every audience-dependent message with its row (for --show-audience)
    reach: object = None  # the run's project model and reachability, once every file is extracted


@dataclass
class FileResult:
    """Diagnostics for one file, plus its text and the findings' fixes (for `--fix`)."""

    path: str
    diagnostics: List[Diagnostic]
    text: Optional[str] = None
    encoding: str = "utf-8"
    parsed: bool = True
    internal_error: bool = False
    # for the project pass: audience-independent diagnostics, audience-dependent variants
    # (project_audience), and the file's project facts (project_summary.summarize)
    base: Optional[List[Diagnostic]] = None
    variants: List[dict] = field(default_factory=list)
    summary: Optional[dict] = None
