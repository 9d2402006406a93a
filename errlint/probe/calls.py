"""From a tool's `inputSchema` to the calls `errlint probe` makes (pure functions, no I/O).

A tool is the plain dict of its `tools/list` entry with MCP wire names (`name`, `inputSchema`,
`annotations.destructiveHint`, ...). `plan_calls(tool)` returns at most one `ProbeCall` per kind that
applies to the tool, in `KINDS` order:

malformed (the arguments break the schema; a success reply is AEM601 error-returned-as-success):
  wrong-type, enum, format, range, missing-required, unknown-argument (malformed only when the schema
  says `additionalProperties: false`), max-length;
type-valid but wrong (they pass framework validation, so they reach the tool's own error paths):
  unknown-id, near-miss, empty-string, outside-root.

Each call starts from `base_arguments(schema)` (a plausible valid value for every required argument)
and changes one argument. Only top-level properties are probed; `$ref`s into `$defs`/`definitions`
and `Optional[...]` unions (`anyOf` with `null`) are followed.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple

from .patterns import _pattern_matches, pattern_example  # noqa: F401 (re-exported)
from .schema_values import (  # noqa: F401 (re-exported)
    _VALID_FORMATS, _allows, _bounds, _fit_length, _is_number, _resolve, base_arguments, documented_values, enum_values,
    json_types, near_miss, valid_value,
)
from .selection import NOT_SELECTED, annotation, is_destructive, is_read_only, select_tools, unknown_names  # noqa: F401 (re-exported)

MALFORMED_KINDS = ("wrong-type", "enum", "format", "range", "missing-required", "unknown-argument", "max-length")
WRONG_VALUE_KINDS = ("unknown-id", "near-miss", "empty-string", "outside-root")
KINDS = MALFORMED_KINDS + WRONG_VALUE_KINDS
"""Every call kind, in the order calls are planned and reported."""

UNKNOWN_ARGUMENT = "errlint_probe_unknown"
"""The name of the extra argument sent by the unknown-argument call."""

OUTSIDE_ROOT = "/errlint-probe-outside-roots/missing.txt"
"""A path outside any root a server could plausibly serve (absolute, and it does not exist)."""

MAX_LENGTH_LIMIT = 20000
"""max-length calls are only made for `maxLength` up to this many characters (the value sent is one longer)."""

_BAD_FORMATS = {
    "uuid": "not-a-uuid",
    "date": "2025-13-45",
    "date-time": "2025-13-45T99:00:00",
    "time": "25:61:00",
    "email": "not-an-email",
    "idn-email": "not-an-email",
    "uri": "not a uri",
    "url": "not a url",
    "iri": "not a uri",
    "uri-reference": "not a uri",
    "hostname": "-not-a-host-",
    "ipv4": "999.1.1.1",
    "ipv6": "not-an-ipv6",
    "duration": "one day",
}
_MISSING_UUID = "ffffffff-ffff-4fff-bfff-ffffffffffff"
_MISSING_ID = "errlint-missing-id-0000"
_MISSING_INT_ID = 987654321

ID_NAME = re.compile(r"(?:^|_)(?:id|ids|uuid|guid|key|slug)$|[a-z0-9](?:Id|ID|Ids|Uuid|Key|Slug)$", re.I)
PATH_NAME = re.compile(r"(?:^|_)(?:path|paths|file|files|filename|filepath|dir|directory|folder|root|cwd)$|[a-z](?:Path|File|Dir|Directory|Folder)$")


@dataclass(frozen=True)
class ProbeCall:
    """One `tools/call` to make.

    `kind` is one of `KINDS`; `argument` the argument the call gets wrong ("" when none, e.g. an
    unknown-argument call names the extra argument); `arguments` the full JSON arguments object;
    `malformed` is True when the arguments break the tool's inputSchema (so a success reply is
    itself a defect); `sent` a short description of the bad value for messages ("status='Open'").
    """

    tool: str
    kind: str
    argument: str
    arguments: Dict[str, Any] = field(hash=False, compare=False)
    malformed: bool
    sent: str

    def label(self) -> str:
        """`kind argument=value` for diagnostics and the summary, e.g. "wrong-type project_id=12345"."""
        return f"{self.kind} {self.sent}" if self.sent else self.kind


def _properties(schema: Dict[str, Any]) -> List[Tuple[str, Dict[str, Any], bool]]:
    """(name, resolved schema, required) for each top-level property, required ones first."""
    props = schema.get("properties") or {}
    required = [r for r in schema.get("required") or [] if isinstance(r, str)]
    names = [n for n in required if n in props] + [n for n in props if n not in required]
    return [(n, _resolve(props[n], schema), n in required) for n in names if isinstance(props[n], dict)]


def _short(value: Any, width: int = 40) -> str:
    if isinstance(value, str) and len(value) > width:
        return repr(value[:12]) + f"…({len(value)} chars)"
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def given_values(tool: Dict[str, Any], raw: Dict[str, str]) -> Dict[str, Any]:
    """--arg NAME=VALUE values for one tool's arguments: kept as text for a string argument, else read
    as JSON when they parse (`limit=5` -> 5, `tags=["a"]` -> ["a"]); names the tool lacks are left out."""
    schema = tool.get("inputSchema") if isinstance(tool.get("inputSchema"), dict) else {}
    props = schema.get("properties") or {}
    out: Dict[str, Any] = {}
    for name, text in raw.items():
        if name not in props:
            continue
        types = json_types(_resolve(props[name], schema), schema)
        if types == {"string"}:
            out[name] = text
            continue
        try:
            import json

            out[name] = json.loads(text)
        except ValueError:
            out[name] = text
    return out


# ---------------------------------------------------------------------------------------------
# the calls


def _wrong_type(types: Set[str]) -> Optional[Any]:
    preferred = {"string": 12345, "integer": "not-a-number", "number": "not-a-number", "boolean": "not-a-boolean",
                 "array": "not-a-list", "object": "not-an-object"}
    candidates = [preferred[t] for t in ("string", "integer", "number", "boolean", "array", "object") if t in types]
    candidates += ["not-a-number", 12345, True, ["errlint-probe"], {"errlint": "probe"}]
    for value in candidates:
        if not _allows(types, value):
            return value
    return None


def _out_of_range(prop: Dict[str, Any]) -> Optional[Any]:
    integer = "integer" in (prop.get("type") if isinstance(prop.get("type"), list) else [prop.get("type")])
    step = 1 if integer else 0.5
    for key, sign in (("exclusiveMaximum", 0), ("maximum", 1), ("exclusiveMinimum", 0), ("minimum", -1)):
        bound = prop.get(key)
        if key.startswith("exclusive") and bound is True:  # draft 4
            inner = prop.get("maximum" if key == "exclusiveMaximum" else "minimum")
            if _is_number(inner):
                return inner
            continue
        if _is_number(bound):
            return bound + sign * step if sign else bound
    return None


def _bad_format(prop: Dict[str, Any]) -> Optional[str]:
    fmt = prop.get("format")
    if isinstance(fmt, str) and fmt in _BAD_FORMATS:
        return _BAD_FORMATS[fmt]
    pattern = prop.get("pattern")
    if isinstance(pattern, str):
        for candidate in ("!!not-valid!!", "not valid", "0", "x", ""):
            if _pattern_matches(pattern, candidate) is False:
                return candidate
    return None


def _missing_id(prop: Dict[str, Any], types: Set[str]) -> Optional[Any]:
    if "string" in types:
        if prop.get("format") == "uuid":
            return _MISSING_UUID
        pattern = prop.get("pattern")
        if isinstance(pattern, str):
            return pattern_example(pattern, high=True)
        if prop.get("format") in _VALID_FORMATS:
            return None
        return _fit_length(_MISSING_ID, prop)
    if "integer" in types or "number" in types:
        lo, hi = _bounds(prop)
        value = _MISSING_INT_ID if hi is None else hi
        return value if lo is None or value >= lo else None
    return None


def _empty_is_malformed(prop: Dict[str, Any]) -> bool:
    if isinstance(prop.get("minLength"), int) and prop["minLength"] >= 1:
        return True
    if prop.get("format") in _BAD_FORMATS:
        return True
    pattern = prop.get("pattern")
    return isinstance(pattern, str) and _pattern_matches(pattern, "") is False


def plan_calls(tool: Dict[str, Any], given: Optional[Dict[str, Any]] = None) -> List[ProbeCall]:
    """At most one call per kind that applies to `tool`, in `KINDS` order (see the module docstring).

    For each kind the first fitting argument is used, required arguments before optional ones; every
    other argument gets a valid value (`base_arguments`, with `given` from --arg first). Tools without
    an object inputSchema still get the unknown-argument call. A tool that is not read-only never gets
    the outside-root path (it could create it), nor an unknown-argument call its schema does not
    reject (that call would really run the tool).
    """
    name = str(tool.get("name", ""))
    schema = tool.get("inputSchema") if isinstance(tool.get("inputSchema"), dict) else {}
    read_only = is_read_only(tool)
    base = base_arguments(schema, given)
    props = _properties(schema)
    closed = schema.get("additionalProperties") is False or schema.get("unevaluatedProperties") is False
    calls: List[ProbeCall] = []

    def add(kind: str, argument: str, value: Any, malformed: bool, drop: bool = False) -> None:
        arguments = copy.deepcopy(base)
        if drop:
            arguments.pop(argument, None)
            sent = f"{argument} left out"
        else:
            arguments[argument] = value
            sent = f"{argument}={_short(value)}"
        calls.append(ProbeCall(name, kind, argument, arguments, malformed, sent))

    def first(test) -> Optional[Tuple[str, Dict[str, Any], Any]]:
        for prop_name, prop, _required in props:
            value = test(prop_name, prop)
            if value is not None:
                return prop_name, prop, value
        return None

    # malformed kinds
    found = first(lambda n, p: _wrong_type(json_types(p, schema)) if json_types(p, schema) else None)
    if found:
        add("wrong-type", found[0], found[2], True)
    found = first(lambda n, p: near_miss(str(next(v for v in enum_values(p) if isinstance(v, str))), enum_values(p))
                  if any(isinstance(v, str) for v in enum_values(p)) else None)
    if found:
        add("enum", found[0], found[2], True)
    found = first(lambda n, p: _bad_format(p) if "string" in json_types(p, schema) and not enum_values(p) else None)
    if found:
        add("format", found[0], found[2], True)
    found = first(lambda n, p: _out_of_range(p) if json_types(p, schema) & {"integer", "number"} else None)
    if found:
        add("range", found[0], found[2], True)
    required = [n for n, _p, r in props if r]
    if required:
        add("missing-required", required[0], None, True, drop=True)
    extra = UNKNOWN_ARGUMENT if UNKNOWN_ARGUMENT not in (schema.get("properties") or {}) else UNKNOWN_ARGUMENT + "_2"
    if closed or read_only:
        add("unknown-argument", extra, "x", closed)
    found = first(lambda n, p: "x" * (p["maxLength"] + 1)
                  if isinstance(p.get("maxLength"), int) and 0 <= p["maxLength"] < MAX_LENGTH_LIMIT and "string" in json_types(p, schema) else None)
    if found:
        add("max-length", found[0], found[2], True)

    # type-valid but wrong
    found = first(lambda n, p: _missing_id(p, json_types(p, schema))
                  if not enum_values(p) and (ID_NAME.search(n) or p.get("format") == "uuid") else None)
    if found:
        add("unknown-id", found[0], found[2], False)
    found = first(lambda n, p: near_miss(documented_values(p)[0], documented_values(p))
                  if "string" in json_types(p, schema) and not enum_values(p) and documented_values(p) else None)
    if found:
        prop = found[1]
        pattern = prop.get("pattern")
        add("near-miss", found[0], found[2], isinstance(pattern, str) and _pattern_matches(pattern, found[2]) is False)
    plain = [(n, p) for n, p, _r in props if "string" in json_types(p, schema) and not enum_values(p)]
    plain.sort(key=lambda item: _empty_is_malformed(item[1]))  # prefer arguments where "" is schema-valid
    if plain:
        add("empty-string", plain[0][0], "", _empty_is_malformed(plain[0][1]))
    found = first(lambda n, p: (("file://" + OUTSIDE_ROOT) if p.get("format") in ("uri", "uri-reference", "iri") else OUTSIDE_ROOT)
                  if "string" in json_types(p, schema) and not enum_values(p) and PATH_NAME.search(n) else None)
    if found and read_only:
        add("outside-root", found[0], found[2], False)
    return calls
