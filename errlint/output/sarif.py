"""SARIF 2.1.0 (OASIS), for GitHub code scanning and other SARIF viewers.

Shape (after ruff's `render/sarif.rs`): one run whose `tool.driver` names errlint and lists, sorted by
code, the rules that have results (`id`, `name`, `shortDescription` = summary, `fullDescription` and
`help` = the rule docs, `helpUri`, `defaultConfiguration.level`); one result per diagnostic with
`ruleId`/`ruleIndex`, `level`, `message.text`, one physical location and, when the diagnostic has a
fix with edits, `fixes[0].artifactChanges[0].replacements`. The suggestion, the rule name and the fix
applicability go in `result.properties`. Columns are 1-based code points (`columnKind`
`unicodeCodePoints`); `endColumn` is exclusive, as in the JSON output. A relative path becomes a
relative URI with `uriBaseId` `%SRCROOT%` (the directory errlint ran in); an absolute one a `file:` URI.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Dict, List, Optional
from urllib.parse import quote

from .. import __version__
from ..earned import earned_profiles, on_by_default
from ..model import Diagnostic, Edit, Fix, Level, Location

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/errlint/errlint"
LEVELS = {Level.ERROR: "error", Level.WARNING: "warning", Level.INFO: "note"}


def artifact_location(filename: str) -> Dict[str, str]:
    """`{"uri": "src/a%20b.py", "uriBaseId": "%SRCROOT%"}` for a relative path, `{"uri": "file:///..."}`
    for an absolute one, and the name itself when it is already a URI (`mcp://server/tool` from probe)."""
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", filename):
        return {"uri": filename}
    path = Path(filename)
    if path.is_absolute():
        return {"uri": path.as_uri()}
    return {"uri": quote(filename.replace(os.sep, "/"), safe="/-._~!$&'()*+,;=@"), "uriBaseId": "%SRCROOT%"}


def _region(start: Location, end: Location) -> Dict[str, int]:
    first = (max(start.row, 1), max(start.column, 1))
    last = max(first, (max(end.row, 1), max(end.column, 1)))
    return {"startLine": first[0], "startColumn": first[1], "endLine": last[0], "endColumn": last[1]}


def _deleted_region(edit: Edit) -> Dict[str, int]:
    if edit.location is not None and edit.end_location is not None:
        return _region(edit.location, edit.end_location)
    return {"charOffset": max(edit.start, 0), "charLength": max(edit.end - edit.start, 0)}


def fixes(fix: Optional[Fix], location: Dict[str, str]) -> List[Dict[str, Any]]:
    """`[{description, artifactChanges: [{artifactLocation, replacements}]}]`, or [] without edits."""
    if fix is None or not fix.edits:
        return []
    replacements = [{"deletedRegion": _deleted_region(e), "insertedContent": {"text": e.content}} for e in fix.edits]
    return [{
        "description": {"text": fix.title or "Apply errlint's fix"},
        "artifactChanges": [{"artifactLocation": dict(location), "replacements": replacements}],
    }]


def rule_descriptor(rule: Any) -> Dict[str, Any]:
    """A `reportingDescriptor` from a rule object of `registry.rule_catalog()`."""
    descriptor: Dict[str, Any] = {"id": rule.code, "name": rule.name, "shortDescription": {"text": rule.SUMMARY}}
    if rule.docs:
        descriptor["fullDescription"] = {"text": rule.docs}
        descriptor["help"] = {"text": rule.docs, "markdown": rule.docs}
    if rule.url:
        descriptor["helpUri"] = rule.url
    earned = earned_profiles(rule)  # on by default only for the readers it earned its place with
    descriptor["defaultConfiguration"] = {"level": LEVELS.get(rule.LEVEL, "warning"), "enabled": on_by_default(rule) or bool(earned)}
    descriptor["properties"] = {"fix": rule.FIX.value, "profiles": list(rule.profiles)}
    if earned:
        descriptor["properties"]["defaultProfiles"] = list(earned)
    return descriptor


def _fallback_descriptor(d: Diagnostic) -> Dict[str, Any]:
    """For a code not in the bundled catalog (a user's phrase pack): what the diagnostic carries."""
    descriptor: Dict[str, Any] = {"id": d.code, "name": d.name or d.code, "shortDescription": {"text": d.message},
                                  "defaultConfiguration": {"level": LEVELS.get(d.level, "warning")}}
    if d.url:
        descriptor["helpUri"] = d.url
    return descriptor


def _rules(diagnostics: List[Diagnostic]) -> List[Dict[str, Any]]:
    from ..registry import rule_catalog

    catalog = rule_catalog()
    first: Dict[str, Diagnostic] = {}
    for d in diagnostics:
        first.setdefault(d.code, d)
    return [rule_descriptor(catalog[code]) if code in catalog else _fallback_descriptor(first[code]) for code in sorted(first)]


def result(d: Diagnostic, rule_index: int) -> Dict[str, Any]:
    """A SARIF `result` for one diagnostic; `rule_index` is its rule's index in `driver.rules`."""
    location = artifact_location(d.filename)
    out: Dict[str, Any] = {
        "ruleId": d.code,
        "ruleIndex": rule_index,
        "level": LEVELS.get(d.level, "warning"),
        "message": {"text": d.message},
        "locations": [{"physicalLocation": {"artifactLocation": location, "region": _region(d.location, d.end_location)}}],
    }
    found = fixes(d.fix, location)
    if found:
        out["fixes"] = found
    properties: Dict[str, Any] = {"name": d.name}
    if d.suggestion:
        properties["suggestion"] = d.suggestion
    if d.fix is not None:
        properties["applicability"] = d.fix.applicability.value
    out["properties"] = properties
    return out


def sarif_log(diagnostics: List[Diagnostic]) -> Dict[str, Any]:
    """The whole SARIF log as a dict (`$schema`, `version`, `runs: [one run]`)."""
    rules = _rules(diagnostics)
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    driver = {"name": "errlint", "version": __version__, "semanticVersion": __version__,
              "informationUri": INFORMATION_URI, "rules": rules}
    run = {
        "tool": {"driver": driver},
        "columnKind": "unicodeCodePoints",
        "results": [result(d, index[d.code]) for d in diagnostics],
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def render(diagnostics: List[Diagnostic], **_: object) -> str:
    """`sarif_log` as indented JSON with a final newline."""
    return json.dumps(sarif_log(diagnostics), indent=2, ensure_ascii=False) + "\n"
