"""`errlint check --show-audience FILE:LINE`: why the message at a line has its audience, with the
project's entry points and the call chain from the one that reaches it."""
from __future__ import annotations

import os
from typing import List, Optional, Tuple

from .reachability import explain

MAX_ENTRIES = 30


class TargetError(ValueError):
    """A FILE:LINE argument that names no checked file or no line number."""


def parse_target(target: str) -> Tuple[str, int]:
    path, sep, line = target.rpartition(":")
    if not sep or not line.isdigit() or not path:
        raise TargetError(f"--show-audience takes FILE:LINE (a checked file and a line number), got {target!r}")
    return path, int(line)


def describe(result, target: str) -> List[str]:
    """Lines explaining the audience of every message at `target`. Raises TargetError."""
    path, line = parse_target(target)
    checked = _find(result, path)
    if checked is None:
        raise TargetError(f"--show-audience: {path!r} is not among the checked files; pass it (or its folder) as a path too")
    reach = result.run.reach
    lines = [f"entry points in the project: {len(reach.entries)}" + ("" if reach.entries else " (a library: plain raises are `exc`)")]
    for node, audience, label in reach.entries[:MAX_ENTRIES]:
        lines.append(f"  {audience:5} {node} ({label})")
    if len(reach.entries) > MAX_ENTRIES:
        lines.append(f"  ... and {len(reach.entries) - MAX_ENTRIES} more")
    module = reach.model.paths.get(checked.path, "")
    found = False
    for record in checked.variants:
        if record.get("row") == line:
            found = True
            what = "error text returned by a helper" if record["kind"] == "reply" else "raise"
            lines.append(f"{target}: {what} in {record['fn'] or 'module-level code'}")
            lines.extend("  " + text for text in explain(reach, module, record))
    for d in checked.diagnostics:
        if d.location.row == line and not found:
            found = True
            lines.append(f"{target}: audience {d.audience or 'unknown'} (set by the sink: who reads this call's output)")
    if not found:
        lines.append(f"{target}: no message whose audience errlint judges starts on this line")
    return list(dict.fromkeys(lines))


def _find(result, path: str) -> Optional[object]:
    for checked in result.results:
        try:
            if os.path.samefile(checked.path, path):
                return checked
        except OSError:
            continue
    return None
