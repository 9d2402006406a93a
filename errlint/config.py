"""Finds and validates `[tool.errlint]` (pyproject.toml) or `errlint.toml` into a frozen `Settings`.

Discovery follows ruff: the closest `pyproject.toml` with a `[tool.errlint]` table, `errlint.toml` or
`.errlint.toml`, walking up from the first path checked; no implicit merging. Every key is validated;
an unknown key or a bad value raises `ConfigError`, which the CLI prints before exiting with status 2.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .model import PROFILES

CONFIG_NAMES = ("pyproject.toml", "errlint.toml", ".errlint.toml")
DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".mypy_cache", ".nox", ".pants.d",
    ".pytype", ".ruff_cache", ".errlint_cache", ".svn", ".tox", ".venv", "__pypackages__", "_build",
    "buck-out", "build", "dist", "node_modules", "site-packages", "venv", "__pycache__", ".pytest_cache",
)
DEFAULT_PER_FILE_IGNORES = (
    ("tests/**", ("AEM1", "AEM2")),
    ("**/tests/**", ("AEM1", "AEM2")),
    ("test_*.py", ("AEM1", "AEM2")),
    ("**/test_*.py", ("AEM1", "AEM2")),
    ("*_test.py", ("AEM1", "AEM2")),
    ("**/*_test.py", ("AEM1", "AEM2")),
    ("conftest.py", ("AEM1", "AEM2")),
    ("**/conftest.py", ("AEM1", "AEM2")),
)
SHOW = "run `errlint --show-settings PATH` to see the resolved settings"


class ConfigError(ValueError):
    """Invalid configuration; the message names the file, the key, what is allowed and the next step."""


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
    if b"[tool.errlint" not in data:
        return False
    try:
        return "errlint" in tomllib.loads(data.decode("utf-8")).get("tool", {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True  # parse it for real later so the user gets the error


def load_settings(config: Optional[Path], root_hint: Optional[Path] = None) -> Settings:
    """Settings from `config`; with no config, defaults whose project root is the enclosing git
    checkout of `root_hint` (or `root_hint` itself outside git). Raises ConfigError."""
    if config is None:
        root = (root_hint or Path.cwd()).resolve()
        if root.is_file():
            root = root.parent
        repo = next((d for d in [root, *root.parents] if (d / ".git").exists()), None)
        return replace(Settings(), project_root=str(repo or root), project_is_repo=repo is not None)
    try:
        text = config.read_bytes().decode("utf-8")
        doc = tomllib.loads(text)
    except OSError as exc:
        raise ConfigError(f"cannot read config {config}: {exc.strerror}; check the path and permissions") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config {config} is not valid TOML ({exc}); fix the syntax, then {SHOW}") from None
    table = doc.get("tool", {}).get("errlint", {}) if config.name == "pyproject.toml" else doc
    if not isinstance(table, dict):
        raise ConfigError(f"{config}: [tool.errlint] must be a table (got {type(table).__name__}); {SHOW}")
    return settings_from_table(table, config)


def settings_from_table(table: Dict[str, Any], config: Path) -> Settings:
    """Validate a `[tool.errlint]` table and build `Settings`. Raises ConfigError."""
    where = str(config)
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise ConfigError(
            f"{where}: unknown key {unknown[0]!r} in [tool.errlint]; allowed keys: {', '.join(sorted(KEYS))}; {SHOW}"
        )
    base = config.parent.resolve()
    kw: Dict[str, Any] = {"project_root": str(base), "config_path": str(config.resolve())}
    for key in ("select", "extend-select", "ignore", "extend-ignore"):
        if key in table:
            values = _str_list(table, key, where)
            for value in values:
                validate_selector(value, f"{where}: {key}")
            attr = {"extend-ignore": "ignore"}.get(key, key.replace("-", "_"))
            kw[attr] = tuple(kw.get(attr, ())) + tuple(values) if attr == "ignore" else tuple(values)
    for key in ("per-file-ignores", "extend-per-file-ignores"):
        if key in table:
            value = table[key]
            if not isinstance(value, dict):
                raise ConfigError(f"{where}: {key} must be a table of glob = [selectors]; {SHOW}")
            pairs = []
            for glob, codes in value.items():
                if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                    raise ConfigError(f"{where}: {key}.{glob!r} must be a list of selectors; {SHOW}")
                for code in codes:
                    validate_selector(code, f"{where}: {key}.{glob!r}")
                pairs.append((glob, tuple(codes)))
            if key == "per-file-ignores":
                kw["per_file_ignores"] = tuple(pairs)
            else:
                kw["per_file_ignores"] = tuple(kw.get("per_file_ignores", DEFAULT_PER_FILE_IGNORES)) + tuple(pairs)
    for key in ("exclude", "extend-exclude", "logger-objects", "tool-registry-extra", "extra-next-step-verbs", "state-vocabulary"):
        if key in table:
            kw[key.replace("-", "_")] = tuple(_str_list(table, key, where))
    if "packs" in table:
        kw["packs"] = tuple(str((base / p).resolve()) for p in _str_list(table, "packs", where))
    if "respect-gitignore" in table:
        if not isinstance(table["respect-gitignore"], bool):
            raise ConfigError(f"{where}: respect-gitignore = {table['respect-gitignore']!r}; allowed: true or false; {SHOW}")
        kw["respect_gitignore"] = table["respect-gitignore"]
    for key in ("max-message-tokens", "max-message-length", "max-listed-values", "echo-width"):
        if key in table:
            kw[key.replace("-", "_")] = _positive_int(table, key, where)
    for key in ("mcp-version", "fastmcp-version"):
        if key in table:
            value = table[key]
            if not isinstance(value, str) or not re.fullmatch(r"\d+(\.\d+)*", value):
                raise ConfigError(f"{where}: {key} = {value!r}; allowed: a version such as \"2.3.0\"; {SHOW}")
            kw[key.replace("-", "_")] = value
    if "profiles" in table:
        kw["profiles"] = _profiles(table["profiles"], where)
    if "rules" in table:
        kw["rule_options"] = _rule_options(table["rules"], where)
    return Settings(**kw)


def _str_list(table: Dict[str, Any], key: str, where: str) -> List[str]:
    value = table[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: {key} = {value!r:.80}; allowed: {KEYS[key]}; {SHOW}")
    return value


def _positive_int(table: Dict[str, Any], key: str, where: str) -> int:
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"{where}: {key} = {value!r:.80}; allowed: {KEYS[key]}; {SHOW}")
    return value


def _profiles(value: Any, where: str) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    from .registry import resolve_code  # deferred: the registry imports this module

    if not isinstance(value, dict):
        raise ConfigError(f"{where}: profiles must be a table of CODE = [profiles], got {type(value).__name__}; {SHOW}")
    out = []
    for code, profiles in value.items():
        resolved = resolve_code(code)
        if resolved is None:
            raise ConfigError(f"{where}: profiles.{code}: no rule has that code or name; run `errlint rule --all` for the list")
        if not isinstance(profiles, list) or not all(p in PROFILES for p in profiles):
            raise ConfigError(f"{where}: profiles.{code} = {profiles!r:.80}; allowed: a list drawn from {', '.join(PROFILES)}; {SHOW}")
        out.append((resolved, tuple(profiles)))
    return tuple(out)


def _rule_options(value: Any, where: str) -> Tuple[Tuple[str, Tuple[Tuple[str, Any], ...]], ...]:
    from .registry import rule_class  # deferred: the registry imports this module

    if not isinstance(value, dict):
        raise ConfigError(f"{where}: rules must be a table of CODE = {{option = value}}, got {type(value).__name__}; {SHOW}")
    out = []
    for code, options in value.items():
        found = rule_class(code)
        if found is None:
            raise ConfigError(f"{where}: rules.{code}: no rule has that code or name; run `errlint rule --all` for the list")
        if not isinstance(options, dict):
            raise ConfigError(f"{where}: rules.{code} must be a table of option = value (got {type(options).__name__}); {SHOW}")
        rule_code = found.CODE if isinstance(found, type) else found.code
        allowed = getattr(found, "OPTIONS", {})
        for name, option_value in options.items():
            if name not in allowed:
                listed = ", ".join(sorted(allowed)) or "none"
                raise ConfigError(f"{where}: rules.{code}.{name} is not an option of {rule_code}; allowed: {listed}; run `errlint rule {rule_code}`")
            _check_option(rule_code, name, allowed[name].kind, option_value, where)
        out.append((rule_code, tuple(options.items())))
    return tuple(out)


def _check_option(code: str, name: str, kind: str, value: Any, where: str) -> None:
    ok = {
        "int": isinstance(value, int) and not isinstance(value, bool) and value > 0,
        "str": isinstance(value, str),
        "bool": isinstance(value, bool),
        "list[str]": isinstance(value, list) and all(isinstance(v, str) for v in value),
    }.get(kind, True)
    if not ok:
        raise ConfigError(f"{where}: rules.{code}.{name} = {value!r:.80}; allowed: {kind}; run `errlint rule {code}`")


SELECTOR = re.compile(r"^(ALL|[A-Z]{1,3}[0-9]{0,3}|[a-z][a-z0-9-]*)$")


def validate_selector(selector: str, where: str) -> None:
    """Raise ConfigError unless `selector` has the shape of ALL, a code or prefix, or a rule name.

    Whether it matches a rule is checked once the phrase packs are loaded (`registry.select_rules`).
    """
    if not SELECTOR.match(selector):
        raise ConfigError(
            f"{where}: invalid selector {selector!r}; allowed: ALL, a code or prefix such as AEM101 or AEM1, "
            "or a rule name such as generic-failure-message; run `errlint rule --all` for the list"
        )


def detect_versions(root: Path) -> Dict[str, str]:
    """Versions of `mcp` and `fastmcp` the project pins, read from lock, requirements and pyproject.

    Returns {"mcp": "2.3.0", ...}: exact versions from lock files and `==` pins, ">=2.1" for lower
    bounds; a package with no readable version is absent. Only files at the project root are read.
    """
    found: Dict[str, str] = {}
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
                    found.setdefault(name, str(package["version"]))
    texts: List[str] = []
    for path in sorted(root.glob("requirements*.txt")) + [root / "pyproject.toml", root / "setup.cfg"]:
        if path.is_file():
            try:
                texts.append(path.read_text("utf-8", errors="replace"))
            except OSError:
                continue
    for text in texts:
        for name in ("mcp", "fastmcp"):
            match = re.search(rf"(?m)(?:^|[\"'\s])({name})\s*(?:\[[^\]]*\])?\s*(==|>=|~=|>)\s*([0-9][0-9.]*)", text)
            if match:
                exact = match.group(2) == "=="
                found.setdefault(name, match.group(3) if exact else ">=" + match.group(3))
    return found
