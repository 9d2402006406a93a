"""The closed set of values a parameter's declaration allows, when the declaration says so:

- a `Literal[...]` annotation, also inside `Optional[...]`, `Annotated[..., ...]`, `Union[..., None]`
  or `... | None`, and through a module-level alias (`ObjectType = Literal["table", "view"]`);
- a click option or argument declared with `type=click.Choice([...])` (its parameter named by the
  explicit name or by the longest flag, as click names it).

An MCP framework validates a tool's arguments against their annotations, and click rejects a value
outside a `Choice`, before the function runs; a helper's `Literal` is the contract its type-checked
callers keep. So an `if`/`elif` chain that handles every declared value and raises in its final
`else` raises for no value a reader can send: the raise is a defensive check, and no missing part
(value, allowed list, next step) helps anyone (`checks.part_rule`).
"""
from __future__ import annotations

from typing import Callable, FrozenSet, Iterable, Mapping, Optional, Sequence

import libcst as cst

from ..model import FunctionInfo
from . import nodes

Resolve = Callable[[str], Optional[cst.CSTNode]]
_WRAPPERS = {"Optional", "Annotated", "Union", "Required", "NotRequired", "Final"}


def declared_values(function: Optional[FunctionInfo], name: str, resolve: Resolve,
                    aliases: Optional[Mapping[str, Sequence[str]]] = None) -> Optional[FrozenSet[str]]:
    """The values `name`, a parameter of `function`, is declared to take, or None when its
    declaration leaves them open. `aliases` are `Literal` aliases defined in other modules
    (`project_scan.LiteralAliases`), for a name the module imports."""
    node = function.node if function is not None else None
    if node is None or node.__class__ is not cst.FunctionDef:  # exact class tests: see `nodes`
        return None
    params = node.params
    for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
        if param.name.value == name and param.annotation is not None:
            found = _literal(param.annotation.annotation, resolve, 0, aliases or {})
            if found is not None:
                return found
    return _choice(node.decorators, name)


def _literal(node: Optional[cst.CSTNode], resolve: Resolve, depth: int, aliases: Mapping[str, Sequence[str]]) -> Optional[FrozenSet[str]]:
    if node is None or depth > 4:
        return None
    cls = node.__class__
    if cls is cst.Name:
        value = resolve(node.value)
        if value is None and node.value in aliases:
            return frozenset(aliases[node.value])
        return _literal(value, resolve, depth + 1, aliases)
    if cls is cst.BinaryOperation and node.operator.__class__ is cst.BitOr:  # `Literal[...] | None`
        sides = [s for s in (node.left, node.right) if not (s.__class__ is cst.Name and s.value == "None")]
        return _literal(sides[0], resolve, depth + 1, aliases) if len(sides) == 1 else None
    if cls is not cst.Subscript:
        return None
    head = nodes.last_name(node.value)
    elements = [e.slice.value for e in node.slice if e.slice.__class__ is cst.Index]
    if head == "Literal":
        values = [nodes.string_value(v) if nodes.string_value(v) is not None else nodes.number_text(v) for v in elements]
        return frozenset(values) if values and all(v is not None for v in values) else None  # type: ignore[arg-type]
    if head in _WRAPPERS and elements:
        kept = [e for e in elements if not (e.__class__ is cst.Name and e.value == "None")]
        if head == "Annotated":
            kept = kept[:1]
        return _literal(kept[0], resolve, depth + 1, aliases) if len(kept) == 1 else None
    return None


def _choice(decorators: Iterable[cst.Decorator], name: str) -> Optional[FrozenSet[str]]:
    """The `click.Choice([...])` values of the option or argument that fills parameter `name`."""
    for decorator in decorators:
        call = decorator.decorator
        if call.__class__ is not cst.Call or nodes.last_name(call.func) not in ("option", "argument"):
            continue
        kind = nodes.keyword_arg(call, "type")
        if kind is None or kind.__class__ is not cst.Call or nodes.last_name(kind.func) != "Choice" or not kind.args:
            continue
        if _option_param(call) != name:
            continue
        values = nodes.literal_values(kind.args[0].value)
        return frozenset(values) if values else None
    return None


def _option_param(call: cst.Call) -> str:
    """The parameter click fills from an option or argument: its explicit name, else its longest
    flag without dashes (`--log-level` -> log_level)."""
    flags = [nodes.string_value(a.value) for a in call.args if a.keyword is None]
    names = [f for f in flags if f]
    for flag in names:
        if not flag.startswith("-"):
            return flag
    longest = max(names, key=lambda f: (f.startswith("--"), len(f)), default="")
    return longest.lstrip("-").replace("-", "_").lower()
