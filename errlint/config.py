"""Finds and validates `[tool.errlint]` (pyproject.toml) or `errlint.toml` into a frozen `Settings`.

Discovery follows ruff: the closest `pyproject.toml` with a `[tool.errlint]` table, `errlint.toml` or
`.errlint.toml`, walking up from the paths checked (`errlint.project` finds it, with the project
root); no implicit merging. Every key is validated; all the problems of a file are raised together in
one `ConfigError` (each naming the key and the file, with the close match), which the CLI prints
before exiting with status 2.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .families import prefixes
from .model import PROFILES

CONFIG_NAMES = ("pyproject.toml", "errlint.toml", ".errlint.toml")
DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".mypy_cache", ".nox", ".pants.d",
    ".pytype", ".ruff_cache", ".errlint_cache", ".svn", ".tox", ".venv", "__pypackages__", "_build",
    "buck-out", "build", "dist", "node_modules", "site-packages", "venv", "__pycache__", ".pytest_cache",
    # third-party code copied into the project: its messages are another project's to change
    "vendor", "_vendor", "vendored", "_vendored",
)
TEST_FILE_PATTERNS = ("tests/**", "**/tests/**", "test_*.py", "**/test_*.py", "*_test.py", "**/*_test.py", "conftest.py", "**/conftest.py")
DEFAULT_PER_FILE_IGNORES = tuple((pattern, prefixes("ignored_in_tests")) for pattern in TEST_FILE_PATTERNS)
SHOW = "run `errlint --show-settings PATH` to see the resolved settings"


class ConfigError(ValueError):
    """Invalid configuration; the message names the file, the key, what is allowed and the next step.

    `errors` holds one line per problem: a config is validated whole, so one run reports them all."""

    def __init__(self, message: str, errors: Optional[List[str]] = None):
        super().__init__(message)
        self.errors = list(errors) if errors else [message]


def shown_path(path: Path) -> str:
    """`path` as the user would type it: relative to the current directory when under it."""
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):
        return str(path)


def then_say(hint: str, advice: str) -> str:
    """`hint` ("; did you mean 'x'?" or "") followed by `advice` as the next clause or sentence, so the
    two never run together as "?;"."""
    return f"{hint} {advice[:1].upper()}{advice[1:]}." if hint else f"; {advice}"


def close_match(word: str, candidates: Iterable[str]) -> str:
    """"; did you mean 'x'?" for the closest candidate, or "" when none is close."""
    import difflib

    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f"; did you mean {found[0]!r}?" if found else ""


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Settings:
    """Resolved settings for one run. Paths are absolute; codes/selectors upper-case or kebab names."""

    select: Optional[Tuple[str, ...]] = None
    extend_select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = DEFAULT_PER_FILE_IGNORES
    exclude: Tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: Tuple[str, ...] = ()
    respect_gitignore: bool = True
    preview: bool = field(default_factory=lambda: _env_flag("ERRLINT_PREVIEW"))
    max_message_tokens: int = 120
    max_message_length: Optional[int] = None
    max_listed_values: int = 20
    echo_width: int = 80
    logger_objects: Tuple[str, ...] = ()
    packs: Tuple[str, ...] = ()
    tool_registry_extra: Tuple[str, ...] = ()
    mcp_version: str = ""
    fastmcp_version: str = ""
    profiles: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    rule_options: Tuple[Tuple[str, Tuple[Tuple[str, Any], ...]], ...] = ()
    extra_next_step_verbs: Tuple[str, ...] = ()
    state_vocabulary: Tuple[str, ...] = ("fix_args", "retry", "wrong_state", "needs_user", "stop")
    project_root: str = ""
    config_path: str = ""
    project_is_repo: bool = False

    def options_for(self, code: str) -> Dict[str, Any]:
        """Options for one rule: global keys mapped to the rule, then `[tool.errlint.rules.CODE]`."""
        out: Dict[str, Any] = {
            "max-message-tokens": self.max_message_tokens,
            "max-message-length": self.max_message_length,
            "max-listed-values": self.max_listed_values,
            "echo-width": self.echo_width,
            "state-vocabulary": list(self.state_vocabulary),
        }
        for rule_code, options in self.rule_options:
            if rule_code == code:
                out.update(dict(options))
        return out

    def profiles_for(self, code: str) -> Optional[Tuple[str, ...]]:
        for rule_code, profiles in self.profiles:
            if rule_code == code:
                return profiles
        return None


KEYS = {
    "select": "list of selectors (codes like AEM101, prefixes like AEM1, rule names, or ALL)",
    "extend-select": "list of selectors",
    "ignore": "list of selectors",
    "extend-ignore": "list of selectors",
    "per-file-ignores": "table of glob = [selectors]",
    "extend-per-file-ignores": "table of glob = [selectors]",
    "exclude": "list of glob patterns",
    "extend-exclude": "list of glob patterns",
    "respect-gitignore": "true or false",
    "preview": "true or false (default false: rules that have not earned their place on real code stay off)",
    "max-message-tokens": "a positive integer (default 120)",
    "max-message-length": "a positive integer number of characters (default: not checked)",
    "max-listed-values": "a positive integer (default 20)",
    "echo-width": "a positive integer (default 80)",
    "logger-objects": "list of qualified names, e.g. [\"myapp.obs.AUDIT\"]",
    "packs": "list of paths to phrase-pack .toml files or folders",
    "tool-registry-extra": "list of MCP tool names registered outside the checked files",
    "mcp-version": "a version string such as \"2.3.0\" (default: read from the project's lock/requirements)",
    "fastmcp-version": "a version string",
    "profiles": "table of CODE = [profiles] with profiles from agent, cli, http, exc, log",
    "rules": "table of CODE = {option = value}",
    "extra-next-step-verbs": "list of verbs that count as a next step",
    "state-vocabulary": "list of state names",
}


def find_config(start: Path) -> Optional[Path]:
    """The closest config file at or above `start` (a file or directory), or None."""
    here = start if start.is_dir() else start.parent
    here = here.resolve()
    for directory in [here, *here.parents]:
        for name in CONFIG_NAMES:
            candidate = directory / name
            if candidate.is_file():
                if name == "pyproject.toml" and not _has_errlint_table(candidate):
                    continue
                return candidate
    return None


def _has_errlint_table(path: Path) -> bool:
    try:
        data = path.read_bytes()
    except OSError:
        return False
    if b"errlint" not in data:  # `[tool.errlint]`, or `errlint = ...` under `[tool]` (an error read_table reports)
        return False
    try:
        tool = tomllib.loads(data.decode("utf-8")).get("tool", {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return b"[tool.errlint" in data  # parse it for real later so the user gets the error
    return isinstance(tool, dict) and "errlint" in tool


def load_settings(config: Optional[Path], root_hint: Optional[Path] = None) -> Settings:
    """Settings from `config`; with no config, defaults whose project root is the closest folder at
    or above `root_hint` that holds a project marker (see `errlint.project`). Raises ConfigError
    listing every problem of the file."""
    if config is None:
        from .project import find_root  # deferred: project imports this module

        root, anchored = find_root([str(root_hint or Path.cwd())])
        return replace(Settings(), project_root=str(root), project_is_repo=anchored)
    return settings_from_table(read_table(config), config)


def read_table(config: Path) -> Dict[str, Any]:
    """The `[tool.errlint]` table of `config` (the whole file for errlint.toml). Raises ConfigError."""
    where = shown_path(config)
    try:
        text = config.read_bytes().decode("utf-8")
        doc = tomllib.loads(text)
    except OSError as exc:
        raise ConfigError(f"cannot read config {where}: {exc.strerror}; check the path and permissions") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config {where} is not valid TOML ({exc}); fix the syntax, then {SHOW}") from None
    tool = doc.get("tool", {})
    table = (tool.get("errlint", {}) if isinstance(tool, dict) else {}) if config.name == "pyproject.toml" else doc
    if not isinstance(table, dict):
        raise ConfigError(f"[tool.errlint] in {where} must be a table (got {type(table).__name__}); {SHOW}")
    return table


class _Problems:
    """Collects one line per config problem, each naming the key and the file."""

    def __init__(self, config: Path):
        self.where = shown_path(config)
        self.lines: List[str] = []

    def add(self, key: str, problem: str) -> None:
        self.lines.append(f"`{key}` in {self.where}: {problem}")

    def raise_if_any(self) -> None:
        if not self.lines:
            return
        if len(self.lines) == 1:
            line = self.lines[0]
            sentence_ended = line.endswith(("?", "."))  # "... did you mean 'x'? Run `errlint rule AEM401`."
            raise ConfigError(f"{line}{' ' if sentence_ended else '; '}{SHOW[0].upper() + SHOW[1:] if sentence_ended else SHOW}", self.lines)
        body = "\n".join(f"  {line}" for line in self.lines)
        raise ConfigError(f"{len(self.lines)} problems in {self.where}:\n{body}\nFix them, then {SHOW}", self.lines)


def settings_from_table(table: Dict[str, Any], config: Path) -> Settings:
    """Validate a `[tool.errlint]` table and build `Settings`. Raises ConfigError naming every problem."""
    problems = _Problems(config)
    pyproject = config.name == "pyproject.toml"
    for key in sorted(set(table) - set(KEYS)):
        if not pyproject and key == "tool" and isinstance(table[key], dict) and "errlint" in table[key]:
            problems.add("[tool.errlint]", f"{config.name} holds the settings at its top level; remove the `[tool.errlint]` "
                                           "header (that table belongs in pyproject.toml)")
            continue
        hint = close_match(key, KEYS) or f"; allowed keys: {', '.join(sorted(KEYS))}"
        problems.add(key, f"unknown key {key!r}{' in [tool.errlint]' if pyproject else ''}{hint}")
    base = config.parent.resolve()
    kw: Dict[str, Any] = {"project_root": str(base), "config_path": str(config.resolve())}
    selectors: List[Tuple[str, str]] = []
    for key in ("select", "extend-select", "ignore", "extend-ignore"):
        if key in table:
            values = _str_list(table, key, problems)
            for value in values:
                if validate_selector(value, key, problems):
                    selectors.append((key, value))
            attr = {"extend-ignore": "ignore"}.get(key, key.replace("-", "_"))
            kw[attr] = tuple(kw.get(attr, ())) + tuple(values) if attr == "ignore" else tuple(values)
    for key in ("per-file-ignores", "extend-per-file-ignores"):
        if key in table:
            value = table[key]
            if not isinstance(value, dict):
                problems.add(key, f"must be a table of glob = [selectors], got {type(value).__name__}")
                continue
            pairs = []
            for glob, codes in value.items():
                if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                    problems.add(f"{key}.{glob!r}", f"must be a list of selectors, got {codes!r:.60}")
                    continue
                for code in codes:
                    if validate_selector(code, f"{key}.{glob!r}", problems):
                        selectors.append((f"{key}.{glob!r}", code))
                pairs.append((glob, tuple(codes)))
            if key == "per-file-ignores":
                kw["per_file_ignores"] = tuple(pairs)
            else:
                kw["per_file_ignores"] = tuple(kw.get("per_file_ignores", DEFAULT_PER_FILE_IGNORES)) + tuple(pairs)
    for key in ("exclude", "extend-exclude", "logger-objects", "tool-registry-extra", "extra-next-step-verbs", "state-vocabulary"):
        if key in table:
            kw[key.replace("-", "_")] = tuple(_str_list(table, key, problems))
    patterns = [(key, p) for key in ("exclude", "extend-exclude") for p in kw.get(key.replace("-", "_"), ())]
    patterns += [(key, glob) for key in ("per-file-ignores", "extend-per-file-ignores") if isinstance(table.get(key), dict) for glob in table[key]]
    _valid_patterns(patterns, problems)
    if "packs" in table:
        kw["packs"] = tuple(str((base / p).resolve()) for p in _str_list(table, "packs", problems))
    for key in ("respect-gitignore", "preview"):
        if key in table:
            if not isinstance(table[key], bool):
                problems.add(key, f"{table[key]!r:.60} is not allowed; use true or false")
            else:
                kw[key.replace("-", "_")] = table[key]
    for key in ("max-message-tokens", "max-message-length", "max-listed-values", "echo-width"):
        if key in table:
            number = _positive_int(table, key, problems)
            if number is not None:
                kw[key.replace("-", "_")] = number
    for key in ("mcp-version", "fastmcp-version"):
        if key in table:
            value = table[key]
            if not isinstance(value, str) or not re.fullmatch(r"\d+(\.\d+)*", value):
                problems.add(key, f"{value!r:.60} is not allowed; use a version such as \"2.3.0\"")
            else:
                kw[key.replace("-", "_")] = value
    if "profiles" in table:
        kw["profiles"] = _profiles(table["profiles"], problems)
    if "rules" in table:
        kw["rule_options"] = _rule_options(table["rules"], problems)
    _known_selectors(selectors, kw.get("packs", ()), problems)
    problems.raise_if_any()
    return Settings(**kw)


def _known_selectors(selectors: Sequence[Tuple[str, str]], packs: Sequence[str], problems: _Problems) -> None:
    """Each well-formed selector must match a rule (of errlint or of the config's phrase packs). A
    pack that does not load is one more problem of the file, reported with the others; the
    selectors are then checked against errlint's own rules (a code only that pack defines is left
    alone)."""
    from .families import PREFIX
    from .packs import PackError, bundled_pack_files, load, user_pack_files  # deferred: cycle
    from .registry import rule_catalog, selector_matches

    catalog = None
    broken = False
    if packs:
        try:
            catalog = rule_catalog(load(bundled_pack_files() + user_pack_files(Path(p) for p in packs)))
        except PackError as exc:
            problems.add("packs", str(exc))
            broken = True
    if not selectors:
        return
    catalog = catalog or rule_catalog(None)
    words = list(catalog) + [r.name for r in catalog.values()]
    for key, selector in selectors:
        if broken and not selector.startswith((PREFIX, "ALL")) and selector[:1].isupper():
            continue  # `XYZ901`: maybe a rule of the pack that did not load
        if not any(selector_matches(selector, r) for r in catalog.values()):
            hint = close_match(selector, words) or "; run `errlint rule --all` for the list"
            problems.add(key, f"{selector!r} matches no rule{hint}")


def _valid_patterns(patterns: Sequence[Tuple[str, str]], problems: _Problems) -> None:
    from .discovery import compile_pattern  # deferred: discovery imports this module

    for key, pattern in patterns:
        try:
            compile_pattern(pattern.lstrip("!"))
        except ValueError as exc:
            problems.add(key, str(exc))


def _str_list(table: Dict[str, Any], key: str, problems: _Problems) -> List[str]:
    value = table[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.add(key, f"{value!r:.80} is not allowed; use a {KEYS[key]}")
        return []
    return value


def _positive_int(table: Dict[str, Any], key: str, problems: _Problems) -> Optional[int]:
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        problems.add(key, f"{value!r:.80} is not allowed; use {KEYS[key]}")
        return None
    return value


def _rule_words() -> List[str]:
    from .registry import rule_catalog  # deferred: the registry imports this module

    catalog = rule_catalog()
    return list(catalog) + [r.name for r in catalog.values()]


def _profiles(value: Any, problems: _Problems) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    from .registry import resolve_code  # deferred: the registry imports this module

    if not isinstance(value, dict):
        problems.add("profiles", f"must be a table of CODE = [profiles], got {type(value).__name__}")
        return ()
    out = []
    for code, profiles in value.items():
        resolved = resolve_code(code)
        if resolved is None:
            hint = close_match(code, _rule_words()) or "; run `errlint rule --all` for the list"
            problems.add(f"profiles.{code}", f"no rule has the code or name {code!r}{hint}")
            continue
        if not isinstance(profiles, list) or not all(p in PROFILES for p in profiles):
            problems.add(f"profiles.{code}", f"{profiles!r:.80} is not allowed; use a list drawn from {', '.join(PROFILES)}")
            continue
        out.append((resolved, tuple(profiles)))
    return tuple(out)


def _rule_options(value: Any, problems: _Problems) -> Tuple[Tuple[str, Tuple[Tuple[str, Any], ...]], ...]:
    from .registry import rule_class  # deferred: the registry imports this module

    if not isinstance(value, dict):
        problems.add("rules", f"must be a table of CODE = {{option = value}}, got {type(value).__name__}")
        return ()
    out = []
    for code, options in value.items():
        found = rule_class(code)
        if found is None:
            hint = close_match(code, _rule_words()) or "; run `errlint rule --all` for the list"
            problems.add(f"rules.{code}", f"no rule has the code or name {code!r}{hint}")
            continue
        if not isinstance(options, dict):
            problems.add(f"rules.{code}", f"must be a table of option = value, got {type(options).__name__}")
            continue
        rule_code = found.CODE if isinstance(found, type) else found.code
        allowed = getattr(found, "OPTIONS", {})
        good = True
        for name, option_value in options.items():
            if name not in allowed:
                listed = ", ".join(sorted(allowed)) or "none"
                hint = close_match(name, allowed)
                advice = f"run `errlint rule {rule_code}`" if hint else f"allowed: {listed}; run `errlint rule {rule_code}`"
                problems.add(f"rules.{code}.{name}", f"{rule_code} has no option {name!r}" + then_say(hint, advice))
                good = False
            elif not _option_ok(allowed[name].kind, option_value):
                problems.add(f"rules.{code}.{name}", f"{option_value!r:.80} is not allowed; use {_KIND_WORDS.get(allowed[name].kind, allowed[name].kind)} (see `errlint rule {rule_code}`)")
                good = False
        if good:
            out.append((rule_code, tuple(options.items())))
    return tuple(out)


_KIND_WORDS = {"int": "a positive integer", "str": "a string", "bool": "true or false", "list[str]": "a list of strings"}


def _option_ok(kind: str, value: Any) -> bool:
    return {
        "int": isinstance(value, int) and not isinstance(value, bool) and value > 0,
        "str": isinstance(value, str),
        "bool": isinstance(value, bool),
        "list[str]": isinstance(value, list) and all(isinstance(v, str) for v in value),
    }.get(kind, True)


SELECTOR = re.compile(r"^(ALL|[A-Z]{1,3}[0-9]{0,3}|[a-z][a-z0-9-]*)$")


def validate_selector(selector: str, key: str, problems: _Problems) -> bool:
    """Whether `selector` has the shape of ALL, a code or prefix, or a rule name (else one problem).

    Whether it matches a rule is checked once the phrase packs are known (`_known_selectors`).
    """
    if SELECTOR.match(selector):
        return True
    hint = close_match(selector.upper() if selector[:1].isupper() else selector.lower(), _rule_words())
    problems.add(key, f"{selector!r} is not a selector" + then_say(
        hint, "use ALL, a code or prefix such as AEM101 or AEM1, or a rule name such as generic-failure-message (`errlint rule --all` lists them)"))
    return False


def detect_versions(root: Path) -> Dict[str, str]:
    """Versions of `mcp` and `fastmcp` the project uses, first found in: its lock files (uv, poetry,
    pdm, pylock), an `==` pin in requirements*.txt, pyproject.toml or setup.cfg, the version
    installed in ROOT/.venv, then a lower bound (`>=`, `~=`, `>`) in those files.

    Returns {"mcp": "2.3.0", ...}: exact versions, or ">=2.1" for a lower bound; a package with no
    readable version is absent. Only files at the project root (and its .venv) are read.
    """
    return {name: version for name, (version, _) in detect_version_sources(root).items()}


VERSION_FILES = ("uv.lock", "poetry.lock", "pdm.lock", "pylock.toml", "requirements*.txt", "pyproject.toml", "setup.cfg")


def detect_version_sources(root: Path) -> Dict[str, Tuple[str, str]]:
    """`detect_versions` with the file each version was read from: {"mcp": ("2.3.0", "uv.lock")}."""
    found: Dict[str, Tuple[str, str]] = {}
    for lock in ("uv.lock", "poetry.lock", "pdm.lock", "pylock.toml"):
        path = root / lock
        if path.is_file():
            try:
                doc = tomllib.loads(path.read_text("utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
            for package in doc.get("package", doc.get("packages", [])):
                name = str(package.get("name", "")).lower()
                if name in ("mcp", "fastmcp") and "version" in package:
                    found.setdefault(name, (str(package["version"]), lock))
    texts: List[Tuple[str, str]] = []
    for path in sorted(root.glob("requirements*.txt")) + [root / "pyproject.toml", root / "setup.cfg"]:
        if path.is_file():
            try:
                texts.append((path.name, path.read_text("utf-8", errors="replace")))
            except OSError:
                continue
    bounds: Dict[str, Tuple[str, str]] = {}
    for source, text in texts:
        for name in ("mcp", "fastmcp"):
            match = re.search(rf"(?m)(?:^|[\"'\s])({name})\s*(?:\[[^\]]*\])?\s*(==|>=|~=|>)\s*([0-9][0-9.]*)", text)
            if match and match.group(2) == "==":
                found.setdefault(name, (match.group(3), source))
            elif match:
                bounds.setdefault(name, (">=" + match.group(3), source))
    from .venv_versions import installed_versions  # an installed version is exact; a lower bound is not

    for name, installed in installed_versions(root).items():
        found.setdefault(name, installed)
    for name, bound in bounds.items():
        found.setdefault(name, bound)
    return found
