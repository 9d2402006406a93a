"""Which listed tools `errlint probe` calls: safe by default, by the MCP spec's annotation defaults
(pure functions, no I/O)."""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple


def annotation(tool: Dict[str, Any], key: str) -> Optional[bool]:
    """A tool's `annotations[key]` (`destructiveHint`, `readOnlyHint`, ...) as True/False, or None when unset."""
    annotations = tool.get("annotations") or {}
    value = annotations.get(key)
    return value if isinstance(value, bool) else None


def is_read_only(tool: Dict[str, Any]) -> bool:
    """True only when the tool is annotated `readOnlyHint: true` (the MCP default is false)."""
    return annotation(tool, "readOnlyHint") is True


def is_destructive(tool: Dict[str, Any]) -> bool:
    """True unless the tool is read-only or annotated `destructiveHint: false` (the MCP default is true)."""
    return not is_read_only(tool) and annotation(tool, "destructiveHint") is not False


def select_tools(tools: Sequence[Dict[str, Any]], only: Sequence[str] = (), exclude: Sequence[str] = (),
                 allow_writes: bool = False, allow_destructive: bool = False) -> Tuple[List[Dict[str, Any]], Dict[str, str]]:
    """Split listed tools into those to probe and those skipped, with the reason for each skip.

    Safe by default, with the MCP spec's defaults for missing annotations (`readOnlyHint` false,
    `destructiveHint` true): only tools annotated `readOnlyHint: true` are called. Other tools need
    `allow_writes` (--allow-writes) or their name in `only` (--tools); destructive ones (annotated
    `destructiveHint: true`, or not annotated `destructiveHint: false`) need `allow_destructive` too.
    `exclude` drops names. Returns (tools to probe in listing order, {tool name: reason it was
    skipped}). Names in `only`/`exclude` that the server does not list are the caller's to report
    (see `unknown_names`).
    """
    keep: List[Dict[str, Any]] = []
    skipped: Dict[str, str] = {}
    for tool in tools:
        name = tool.get("name", "")
        if only and name not in only:
            skipped[name] = NOT_SELECTED
        elif name in exclude:
            skipped[name] = "in --exclude-tools"
        elif is_read_only(tool):
            keep.append(tool)
        elif not (allow_writes or name in only):
            skipped[name] = "not annotated readOnlyHint: true, so it may change state; pass --allow-writes or name it in --tools to call it"
        elif is_destructive(tool) and not allow_destructive:
            why = ("annotated destructiveHint: true" if annotation(tool, "destructiveHint") is True
                   else "not annotated destructiveHint: false (the MCP default is true)")
            skipped[name] = f"{why}; pass --allow-destructive to call it"
        else:
            keep.append(tool)
    return keep, skipped


NOT_SELECTED = "not in --tools"
"""The skip reason of a tool left out by --tools (the summary reports these on one line)."""


def unknown_names(tools: Sequence[Dict[str, Any]], names: Iterable[str]) -> List[str]:
    """The names in `names` that no listed tool has, in the given order."""
    listed = {t.get("name") for t in tools}
    return [n for n in names if n not in listed]
