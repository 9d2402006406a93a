"""All rules of a run (Python rule classes plus the phrase packs' rules) and ruff-style selection.

Selectors are `ALL`, a code (`AEM101`), a prefix (`AEM1`, `AEM`) or a kebab-case rule name. With no
`select`, the default-on rules run. For each rule the most specific matching selector decides (a
longer prefix beats a shorter one; on a tie `ignore` wins), so `select = ["AEM1"]` with
`ignore = ["AEM104"]` keeps every other AEM1xx rule, and `ignore = ["AEM1"]` with
`extend-select = ["AEM101"]` keeps only AEM101 of that family.
"""
from __future__ import annotations

import os
from pathlib import PurePosixPath
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from .checks.base import Rule, all_rules
from .checks.phrases import PhraseRule
from .config import ConfigError, Settings
from .earned import earned_profiles, on_by_default
from .packs import Packs, bundled


def rule_catalog(packs: Optional[Packs] = None) -> Dict[str, Rule]:
    """Every rule by code, instantiated with default options, sorted by code."""
    packs = packs or bundled()
    out: Dict[str, Rule] = {}
    for code, cls in all_rules().items():
        out[code] = cls()
    for spec in packs.rules:
        out[spec.code] = PhraseRule(spec)
    return dict(sorted(out.items()))


def rule_class(code_or_name: str, packs: Optional[Packs] = None):
    """The rule (class for Python rules, instance for phrase rules) with this code or name, or None."""
    for code, rule in rule_catalog(packs).items():
        if code == code_or_name.upper() or rule.name == code_or_name.lower():
            return type(rule) if not isinstance(rule, PhraseRule) else rule
    return None


def resolve_code(code_or_name: str, packs: Optional[Packs] = None) -> Optional[str]:
    found = rule_class(code_or_name, packs)
    if found is None:
        return None
    return found.CODE if isinstance(found, type) else found.code


def _matches(selector: str, rule: Rule) -> int:
    """Specificity of `selector` for `rule` (0 = no match)."""
    if selector == "ALL":
        return 1
    if selector.islower() or "-" in selector:
        return 100 if selector == rule.name else 0
    return len(selector) + 1 if rule.code.startswith(selector) else 0


def selector_matches(selector: str, rule: Rule) -> bool:
    return _matches(selector, rule) > 0


def select_rules(settings: Settings, packs: Packs, cli_select: Optional[Sequence[str]] = None,
                 cli_extend: Sequence[str] = (), cli_ignore: Sequence[str] = ()) -> Tuple[List[Rule], Dict[str, str]]:
    """The enabled rules (instantiated with their options and profiles) and why each rule is on or off.

    CLI selectors override (`--select`) or extend (`--extend-select`, `--ignore`) the config's.
    Raises ConfigError for a selector that matches no rule.
    """
    catalog = rule_catalog(packs)
    select = list(cli_select) if cli_select is not None else (list(settings.select) if settings.select is not None else None)
    extend = list(settings.extend_select) + list(cli_extend)
    ignore = list(settings.ignore) + list(cli_ignore)
    for selector in (select or []) + extend + ignore:
        if not any(_matches(selector, r) for r in catalog.values()):
            from .config import close_match, then_say

            hint = close_match(selector, list(catalog) + [r.name for r in catalog.values()])
            raise ConfigError(f"selector {selector!r} matches no rule" + then_say(
                hint, "use ALL, a code or prefix such as AEM101 or AEM1, or a rule name; run `errlint rule --all` for the list"))
    enabled: List[Rule] = []
    reasons: Dict[str, str] = {}
    for code, rule in catalog.items():
        best_on = 0
        reason_on = ""
        earned_only: Optional[Tuple[str, ...]] = None  # on by default for these profiles alone
        if select is None:
            if on_by_default(rule):
                best_on, reason_on = 1, "on by default"
            elif settings.preview and rule.DEFAULT:
                best_on, reason_on = 1, "preview (not yet earned on real code)"
            elif earned_profiles(rule):
                earned_only = earned_profiles(rule)
                best_on, reason_on = 1, f"on by default for {', '.join(earned_only)} (earned there; --preview for the rest)"
        else:
            for s in select:
                m = _matches(s, rule)
                if m > best_on:
                    best_on, reason_on = m, f"selected by {s!r}"
        for s in extend:
            m = _matches(s, rule)
            if m > best_on or m and earned_only is not None:
                best_on, reason_on, earned_only = m, f"selected by extend-select {s!r}", None
        best_off, reason_off = 0, ""
        for s in ignore:
            m = _matches(s, rule)
            if m > best_off:
                best_off, reason_off = m, f"ignored by {s!r}"
        if best_on and best_on > best_off:
            options = settings.options_for(code)
            profiles = settings.profiles_for(code)
            if profiles is None and earned_only is not None:
                profiles = earned_only
            if isinstance(rule, PhraseRule):
                enabled.append(PhraseRule(rule.spec, options, profiles))
            else:
                enabled.append(type(rule)(options, profiles))
            reasons[code] = reason_on
        else:
            reasons[code] = reason_off or (_default_off_reason(rule) if select is None else "not selected")
    return enabled, reasons


def ignored_for(path: str, settings: Settings) -> List[str]:
    """Selectors that `per-file-ignores` applies to `path` (relative to the project root), matched
    with gitignore semantics (`discovery.compile_pattern`); `!pattern` applies to the paths that
    do not match."""
    from .discovery import path_matches  # deferred: discovery imports config, which imports this lazily

    rel = _relative(path, settings.project_root)
    out: List[str] = []
    for glob, codes in settings.per_file_ignores:
        negate = glob.startswith("!")
        pattern = glob[1:] if negate else glob
        hit = path_matches(pattern, rel)
        if hit != negate:
            out.extend(codes)
    return out


def _relative(path: str, root: str) -> str:
    if root and not os.path.isabs(path) and path not in ("-", "<stdin>"):
        path = os.path.abspath(path)
    p = PurePosixPath(path.replace("\\", "/"))
    r = PurePosixPath(root.replace("\\", "/")) if root else None
    if r is not None:
        try:
            return str(p.relative_to(r))
        except ValueError:
            pass
    return str(p)


def is_ignored(code: str, name: str, selectors: Iterable[str]) -> bool:
    for s in selectors:
        if s == "ALL" or s == name or code.startswith(s):
            return True
    return False


def known_selector(selector: str) -> bool:
    return any(_matches(selector, r) for r in rule_catalog().values())


def _default_off_reason(rule: Rule) -> str:
    """Why a rule is off when nothing selects it: in preview (designed on, not yet earned on real code;
    `--preview` turns it on) or opt-in (designed off)."""
    return "preview: off until it earns its place on real code (--preview)" if rule.DEFAULT else "off by default (opt-in)"
