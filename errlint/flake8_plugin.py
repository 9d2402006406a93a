"""flake8 plugin: errlint's diagnostics as flake8 errors (entry point `AEM` in pyproject.toml).

flake8 (src/flake8/plugins/finder.py, `_classify_plugins`, 7.x) decides a plugin's type from the names
of its `__init__` parameters: asking for `tree` makes this a tree plugin, so flake8 calls
`ErrlintChecker(tree: ast.Module, lines: list[str], filename: str)` once per file and iterates `run()`
for `(row: int, col: int, text: "AEMxxx message", type)` tuples, where `row` is 1-based and `col`
0-based (flake8 prints `col + 1`). `lines` are the file (or stdin) as flake8 read it, so the plugin
never opens `filename`. flake8 applies `# noqa` and `# flake8: noqa` itself, so errlint runs with
`ignore_noqa=True`; only errlint's own file-level `# errlint: noqa[: CODES]` is applied here.
Settings, rules, packs, tool registry and MCP versions are built exactly as the CLI builds them
(`errlint.runner.build_run`), once per config file per process.
"""
from __future__ import annotations

import io
import tokenize
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, Dict, Iterator, List, Optional, Tuple

from . import __version__
from .config import ConfigError, find_config, load_settings
from .engine import check_file
from .run_context import RunContext
from .noqa import Suppressions
from .packs import PackError
from .runner import Selection, build_run, registry_files

STDIN_NAMES = ("-", "stdin")


class ErrlintChecker:
    """One file's errlint diagnostics; options and built runs are shared by the whole process."""

    name = "errlint"
    version = __version__
    max_message_tokens: ClassVar[Optional[int]] = None
    logger_objects: ClassVar[Tuple[str, ...]] = ()
    tool_registry_extra: ClassVar[Tuple[str, ...]] = ()
    config: ClassVar[Optional[str]] = None
    _runs: ClassVar[Dict[Optional[str], RunContext]] = {}  # config path (None: no config) -> run

    def __init__(self, tree: Any, lines: List[str], filename: str) -> None:
        self.lines = lines  # `tree` is only asked for so that flake8 makes this a tree plugin
        self.filename = filename

    @classmethod
    def add_options(cls, parser: Any) -> None:
        """Register errlint's options on flake8's OptionManager (also read from flake8's config)."""
        parser.add_option("--errlint-max-message-tokens", type=int, parse_from_config=True,
                          help="AEM401's token limit (overrides max-message-tokens in [tool.errlint])")
        for flag, what in (("logger-objects", "extra logger objects"), ("tool-registry-extra", "MCP tools registered elsewhere")):
            parser.add_option(f"--errlint-{flag}", comma_separated_list=True, parse_from_config=True,
                              help=f"{what}, comma separated (overrides {flag} in [tool.errlint])")
        parser.add_option("--errlint-config", parse_from_config=True, normalize_paths=True,
                          help="errlint's pyproject.toml or errlint.toml (default: the closest one above each file)")

    @classmethod
    def parse_options(cls, options: Any) -> None:
        """Store flake8's parsed options (an argparse.Namespace) and drop runs built with older ones."""
        cls.max_message_tokens = options.errlint_max_message_tokens
        cls.logger_objects = tuple(options.errlint_logger_objects or ())
        cls.tool_registry_extra = tuple(options.errlint_tool_registry_extra or ())
        cls.config = options.errlint_config
        cls._runs = {}

    @classmethod
    def _run_for(cls, filename: str) -> RunContext:
        """The RunContext for the config that governs `filename` (stdin: the current directory)."""
        given = cls.config
        if given:
            found: Optional[Path] = Path(given).resolve()
            if not found.is_file():
                raise ConfigError(f"config file {given!r:.200} does not exist; "
                                  "pass an existing pyproject.toml or errlint.toml to --errlint-config")
        else:
            found = find_config(Path.cwd() if filename in STDIN_NAMES else Path(filename).absolute().parent)
        key = str(found) if found else None
        if cls.max_message_tokens is not None and cls.max_message_tokens < 1:
            raise ConfigError(f"--errlint-max-message-tokens {cls.max_message_tokens} is not allowed; use a positive integer")
        if key not in cls._runs:
            settings = load_settings(found, Path.cwd())
            overrides = {"max_message_tokens": cls.max_message_tokens, "logger_objects": cls.logger_objects or None,
                         "tool_registry_extra": cls.tool_registry_extra or None}
            settings = replace(settings, **{k: v for k, v in overrides.items() if v is not None})
            cls._runs[key] = build_run(settings, Selection(), registry_files(settings, []), ignore_noqa=True)[0]
        return cls._runs[key]

    def run(self) -> Iterator[Tuple[int, int, str, type]]:
        """(row, col0, "AEMxxx message", ErrlintChecker) for each diagnostic errlint's CLI would report."""
        text = "".join(self.lines)
        try:
            run = self._run_for(self.filename)
        except (ConfigError, PackError) as exc:
            yield 1, 0, f"AEM000 errlint configuration error: {exc}", type(self)
            return
        try:  # the engine decodes bytes by the coding cookie, so encode them the same way
            encoding = tokenize.detect_encoding(io.BytesIO(text.encode("utf-8")).readline)[0]
            data = text.encode(encoding)
        except (SyntaxError, LookupError, UnicodeError):
            data = text.encode("utf-8", errors="surrogateescape")
        try:
            diagnostics = check_file(self.filename, data, run).diagnostics
        except Exception as exc:  # check_file turns bad input into AEM001; anything else must not stop flake8
            yield 1, 0, f"AEM000 internal error in errlint on this file: {type(exc).__name__}: {exc}", type(self)
            return
        suppressions = Suppressions(text)
        for d in diagnostics:
            if not suppressions.file_suppresses(d.code):
                yield d.location.row, d.location.column - 1, f"{d.code} {d.message}", type(self)
