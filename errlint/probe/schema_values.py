"""Values that satisfy a tool's inputSchema, for `errlint probe`'s calls (pure functions, no I/O).

`valid_value(prop, root)` builds a plausible value a property schema accepts (its const, enum value,
default or example, else one from its type, format, pattern, bounds and length limits), and
`base_arguments(schema)` one for every required argument. `json_types`, `enum_values`,
`documented_values` and `_bounds` read what a property allows; `near_miss` makes a plausible typo of
a value. `$ref`s into `$defs`/`definitions` and `Optional[...]` unions are followed (`_resolve`).
"""
from __future__ import annotations

import copy
import re
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from .patterns import _pattern_matches, pattern_example

_VALID_FORMATS = {
    "uuid": "123e4567-e89b-42d3-a456-426614174000",
    "date": "2025-01-15",
    "date-time": "2025-01-15T12:00:00Z",
    "time": "12:00:00Z",
    "email": "probe@example.com",
    "idn-email": "probe@example.com",
    "uri": "https://example.com/",
    "url": "https://example.com/",
    "iri": "https://example.com/",
    "uri-reference": "https://example.com/",
    "hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "duration": "P1D",
}
_DOCUMENTED = re.compile(r"`([\w.:/-]{1,40})`|'([\w.:/-]{1,40})'|\"([\w.:/-]{1,40})\"")
_ONE_OF = re.compile(r"\bone of\s*:?\s*([\w.:/-]+(?:\s*(?:,|\bor\b|\|)\s*[\w.:/-]+)+)", re.I)


def _resolve(schema: Any, root: Dict[str, Any], depth: int = 0) -> Dict[str, Any]:
    """Follow a local `$ref` and unwrap `Optional[X]` (anyOf/oneOf with one non-null branch) and a
    single-entry `allOf`; outer keys (description, default, ...) are kept over the inner schema's."""
    if not isinstance(schema, dict) or depth > 20:
        return {}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
        inner = _resolve(target, root, depth + 1)
        return {**inner, **{k: v for k, v in schema.items() if k != "$ref"}}
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            real = [b for b in branches if not (isinstance(b, dict) and b.get("type") == "null")]
            if len(real) == 1:
                inner = _resolve(real[0], root, depth + 1)
                outer = {k: v for k, v in schema.items() if k != key}
                return {**inner, **outer}
    all_of = schema.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1:
        inner = _resolve(all_of[0], root, depth + 1)
        return {**inner, **{k: v for k, v in schema.items() if k != "allOf"}}
    return schema


def json_types(prop: Dict[str, Any], root: Dict[str, Any]) -> Set[str]:
    """The JSON types a (resolved) property schema allows; empty when the schema does not say."""
    out: Set[str] = set()
    declared = prop.get("type")
    if isinstance(declared, str):
        out.add(declared)
    elif isinstance(declared, list):
        out.update(t for t in declared if isinstance(t, str))
    for key in ("anyOf", "oneOf"):
        for branch in prop.get(key) or []:
            out |= json_types(_resolve(branch, root), root)
    values = enum_values(prop)
    if not out and values:
        out.update(_type_of(v) for v in values)
    return out


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _allows(types: Set[str], value: Any) -> bool:
    t = _type_of(value)
    return t in types or (t == "integer" and "number" in types)


def enum_values(prop: Dict[str, Any]) -> List[Any]:
    """Allowed values from `enum`, `const` or an anyOf/oneOf of consts; [] when not enumerated."""
    if isinstance(prop.get("enum"), list):
        return list(prop["enum"])
    if "const" in prop:
        return [prop["const"]]
    for key in ("anyOf", "oneOf"):
        branches = prop.get(key)
        if isinstance(branches, list) and branches and all(isinstance(b, dict) and ("const" in b or "enum" in b) for b in branches):
            out: List[Any] = []
            for b in branches:
                out.extend(b["enum"] if "enum" in b else [b["const"]])
            return out
    return []


def documented_values(prop: Dict[str, Any]) -> List[str]:
    """String values a property documents without an enum: its default and examples, then values
    quoted in its description (`x`, 'x', "x") or listed after "one of"."""
    out: List[str] = []
    if isinstance(prop.get("default"), str) and prop["default"]:
        out.append(prop["default"])
    for example in prop.get("examples") or []:
        if isinstance(example, str) and example:
            out.append(example)
    description = prop.get("description") or ""
    if isinstance(description, str):
        for match in _DOCUMENTED.finditer(description):
            out.append(next(g for g in match.groups() if g))
        for match in _ONE_OF.finditer(description):
            out.extend(v for v in re.split(r"\s*(?:,|\bor\b|\|)\s*", match.group(1)) if v)
    seen: List[str] = []
    for value in out:
        if value not in seen:
            seen.append(value)
    return seen


def near_miss(value: str, avoid: Iterable[Any] = ()) -> str:
    """A plausible typo of `value` that is not in `avoid`: `_`<->`-` swapped, else the case changed,
    else an "s" appended ("needs_review" -> "needs-review", "open" -> "Open")."""
    taken = {a for a in avoid if isinstance(a, str)} | {value}
    candidates = []
    if "_" in value:
        candidates.append(value.replace("_", "-"))
    if "-" in value:
        candidates.append(value.replace("-", "_"))
    candidates += [value.capitalize(), value.lower(), value.upper(), value + "s", value + "x"]
    for candidate in candidates:
        if candidate not in taken:
            return candidate
    return value + "-x"


def _bounds(prop: Dict[str, Any]) -> Tuple[Optional[float], Optional[float]]:
    """Inclusive (low, high) bounds of a numeric schema for integers (exclusive bounds moved by 1)."""
    lo = prop.get("minimum")
    hi = prop.get("maximum")
    ex_lo = prop.get("exclusiveMinimum")
    ex_hi = prop.get("exclusiveMaximum")
    if ex_lo is True and _is_number(lo):  # draft 4: boolean exclusiveMinimum qualifies `minimum`
        lo = lo + 1
    elif _is_number(ex_lo):
        lo = ex_lo + 1 if not _is_number(lo) or ex_lo + 1 > lo else lo
    if ex_hi is True and _is_number(hi):
        hi = hi - 1
    elif _is_number(ex_hi):
        hi = ex_hi - 1 if not _is_number(hi) or ex_hi - 1 < hi else hi
    return (lo if _is_number(lo) else None), (hi if _is_number(hi) else None)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _fit_length(text: str, prop: Dict[str, Any]) -> str:
    low = prop.get("minLength")
    high = prop.get("maxLength")
    if isinstance(low, int) and len(text) < low:
        text = text + "x" * (low - len(text))
    if isinstance(high, int) and len(text) > high:
        text = text[:high]
    return text


def valid_value(prop: Dict[str, Any], root: Dict[str, Any], name: str = "", depth: int = 0) -> Any:
    """A plausible value that satisfies a property schema: its const, first enum value, default or
    example, else one built from its type, format, pattern, bounds and length limits."""
    prop = _resolve(prop, root)
    values = enum_values(prop)
    if values:
        return copy.deepcopy(values[0])
    if "default" in prop and prop["default"] is not None:
        return copy.deepcopy(prop["default"])
    examples = prop.get("examples")
    if isinstance(examples, list) and examples:
        return copy.deepcopy(examples[0])
    types = json_types(prop, root)
    if not types:
        for key in ("anyOf", "oneOf"):
            if prop.get(key):
                return valid_value(prop[key][0], root, name, depth + 1)
        return "example"
    for t in ("string", "integer", "number", "boolean", "array", "object", "null"):
        if t not in types:
            continue
        if t == "string":
            return _valid_string(prop)
        if t in ("integer", "number"):
            lo, hi = _bounds(prop)
            value = lo if lo is not None else (hi if hi is not None and hi < 1 else 1)
            return int(value) if t == "integer" else value
        if t == "boolean":
            return False
        if t == "array":
            count = prop.get("minItems") if isinstance(prop.get("minItems"), int) else 0
            if count and depth < 5:
                return [valid_value(prop.get("items") or {}, root, name, depth + 1) for _ in range(count)]
            return []
        if t == "object":
            if depth >= 5:
                return {}
            props = prop.get("properties") or {}
            return {k: valid_value(props.get(k) or {}, root, k, depth + 1) for k in prop.get("required") or [] if isinstance(k, str)}
        return None
    return "example"


def _valid_string(prop: Dict[str, Any]) -> str:
    fmt = prop.get("format")
    if isinstance(fmt, str) and fmt in _VALID_FORMATS:
        return _VALID_FORMATS[fmt]
    pattern = prop.get("pattern")
    for documented in documented_values(prop):  # a value the description quotes ("e.g. 'ISS-1'") is meant to be valid
        fits = _fit_length(documented, prop) == documented
        if fits and (not isinstance(pattern, str) or _pattern_matches(pattern, documented)):
            return documented
    if isinstance(pattern, str):
        example = pattern_example(pattern)
        if example is not None:
            return example
    return _fit_length("example", prop)


def base_arguments(schema: Dict[str, Any], given: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """A valid value for every required argument of an inputSchema: the value `given` for that name
    (from --arg NAME=VALUE), else one from the schema (`valid_value`). Optional arguments are left out
    unless `given` names them."""
    props = schema.get("properties") or {}
    given = given or {}
    out: Dict[str, Any] = {}
    for name in schema.get("required") or []:
        if isinstance(name, str):
            out[name] = copy.deepcopy(given[name]) if name in given else valid_value(props.get(name) or {}, schema, name)
    for name, value in given.items():
        if name in props and name not in out:
            out[name] = copy.deepcopy(value)
    return out
