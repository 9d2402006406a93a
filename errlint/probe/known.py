"""Valid argument values learned from a server's read-only listing tools (pure functions, no I/O).

`listing_calls(tools)` picks the read-only tools that need no arguments and list things
(`list_projects`, `get_all_users`, `projects_list`) and plans one plain call to each.
`learn(replies)` reads their JSON answers into {key: [values]}: each scalar under its key ("id",
"project_id"), and under "<thing>.<key>" for items of a list named after a thing ("projects" or the
tool `list_projects` -> "project.id"); a list of plain strings or numbers is recorded under
"<thing>". `known_value(name, known)` gives a value for an argument such as `project_id` from that.
"""
from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Sequence

from .calls import ProbeCall
from .selection import is_read_only

_LISTING = re.compile(r"^(?:list|get_all|all|search_all)_?(\w+)$|^(\w+?)_?list$", re.I)
MAX_LISTING_CALLS = 5


def _thing(word: str) -> str:
    """"projects" -> "project", "entries" -> "entry", "Users" -> "user"."""
    word = word.lower().strip("_")
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def listing_calls(tools: Sequence[Dict[str, Any]]) -> List[ProbeCall]:
    """One argument-free call to each read-only listing tool (at most MAX_LISTING_CALLS)."""
    out: List[ProbeCall] = []
    for tool in tools:
        name = str(tool.get("name", ""))
        schema = tool.get("inputSchema") if isinstance(tool.get("inputSchema"), dict) else {}
        if is_read_only(tool) and not schema.get("required") and _LISTING.match(name):
            out.append(ProbeCall(name, "listing", "", {}, False, ""))
    return out[:MAX_LISTING_CALLS]


def learn(replies: Sequence[Any]) -> Dict[str, List[Any]]:
    """{key: values} from the successful JSON answers of listing calls (`client.Reply`s)."""
    known: Dict[str, List[Any]] = {}
    for reply in replies:
        if reply.outcome != "result" or reply.is_error:
            continue
        match = _LISTING.match(reply.call.tool)
        thing = _thing(next(g for g in match.groups() if g)) if match else ""
        for text in list(reply.items) or [reply.text]:
            try:
                data = json.loads(text)
            except ValueError:
                continue
            _walk(data, thing, known, 0)
    return known


def _add(known: Dict[str, List[Any]], key: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        return
    values = known.setdefault(key, [])
    if value not in values and len(values) < 20:
        values.append(value)


def _walk(data: Any, thing: str, known: Dict[str, List[Any]], depth: int) -> None:
    if depth > 4:
        return
    if isinstance(data, list):
        for item in data[:50]:
            if isinstance(item, dict):
                for key, value in item.items():
                    _add(known, str(key), value)
                    if thing:
                        _add(known, f"{thing}.{key}", value)
                    if isinstance(value, (dict, list)):
                        _walk(value, _thing(str(key)), known, depth + 1)
            elif thing:
                _add(known, thing, item)
    elif isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, list):
                _walk(value, _thing(str(key)) if depth or not thing else _thing(str(key)), known, depth + 1)
            elif isinstance(value, dict):
                _walk(value, _thing(str(key)), known, depth + 1)
            else:
                _add(known, str(key), value)


def known_value(name: str, known: Dict[str, List[Any]], prop: Optional[Dict[str, Any]] = None) -> Optional[Any]:
    """A value for argument `name` from `learn`'s result that fits its schema `prop` (type and
    pattern): the same key ("project_id"), else for `<thing>_id`/`<thing>Id`/`<thing>` the ids or
    names of listed <thing>s; None when unknown."""
    match = re.match(r"^(\w+?)(?:_id|Id|_name|Name|_key|Key|_slug)?$", name)
    stem = _thing(match.group(1)) if match else _thing(name)
    suffix = "name" if re.search(r"(?:_n|N)ame$", name) else "id"
    for key in (name, f"{stem}.{suffix}", f"{stem}.{stem}_{suffix}", stem):
        for value in known.get(key) or []:
            fitted = _fit(value, prop or {})
            if fitted is not None:
                return fitted
    return None


def _fit(value: Any, prop: Dict[str, Any]) -> Optional[Any]:
    kind = prop.get("type")
    if kind == "string":
        value = str(value)
    elif kind == "integer":
        if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
            value = int(value)
        if not isinstance(value, int):
            return None
    elif kind is not None and kind != "number":
        return None
    pattern = prop.get("pattern")
    if isinstance(pattern, str) and isinstance(value, str):
        try:
            if not re.search(pattern, value):
                return None
        except re.error:
            return None
    return value
