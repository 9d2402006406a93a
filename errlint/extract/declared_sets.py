"""The closed set of values a parameter's declaration allows, where something enforces it before the
function runs:

- a `Literal[...]` annotation on an MCP tool's parameter (the framework validates a tool's arguments
  against their annotations) or on a function decorated with pydantic's `validate_call`; also inside
  `Annotated[...]`, and through a module-level alias (`ObjectType = Literal["table", "view"]`). A
  declaration that also allows `None` (`Optional[...]`, `| None`, a `None` default) is not closed:
  `None` reaches the `else`. A `Literal` on any other function is a hint nothing checks;
- a click option or argument declared with `type=click.Choice([...])` that always has a value: an
  argument, a `required=True` option, or an option with a default (its parameter named by the
  explicit name or by the longest flag, as click names it);
- a `Literal[...]` field of a pydantic model, read as an instance's attribute (`field.field_type`):
  pydantic checks it when the model is built (`field_values`).

So an `if`/`elif` chain that handles every declared value and raises in its final `else` raises for
no value a reader can send: the raise is a defensive check, and no missing part (value, allowed
list, next step) helps anyone (`checks.part_rule`).
"""
from __future__ import annotations

import re
from typing import Callable, FrozenSet, Iterable, Mapping, Optional, Sequence

import libcst as cst

from ..model import FunctionInfo
from . import nodes

Resolve = Callable[[str], Optional[cst.CSTNode]]
_WRAPPERS = {"Annotated", "Union", "Required", "NotRequired", "Final"}
_VALIDATING = {"validate_call", "validate_arguments"}


def declared_values(function: Optional[FunctionInfo], name: str, resolve: Resolve,
                    aliases: Optional[Mapping[str, Sequence[str]]] = None) -> Optional[FrozenSet[str]]:
    """The values `name`, a parameter of `function`, is declared to take, or None when its
    declaration leaves them open. `aliases` are `Literal` aliases defined in other modules
    (`project_scan.LiteralAliases`), for a name the module imports."""
    node = function.node if function is not None else None
    if node is None or node.__class__ is not cst.FunctionDef:  # exact class tests: see `nodes`
        return None
    validated = function.role == "tool" or any(d.rsplit(".", 1)[-1] in _VALIDATING for d in function.decorators)
    params = node.params
    for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
        if param.name.value == name and param.annotation is not None and validated:
            if param.default is not None and param.default.__class__ is cst.Name and param.default.value == "None":
                return None  # `x: Literal[...] = None`: None reaches the `else`
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
    if cls is cst.BinaryOperation:  # `Literal[...] | None` lets None through
        return None
    if cls is not cst.Subscript:
        return None
    head = nodes.last_name(node.value)
    elements = [e.slice.value for e in node.slice if e.slice.__class__ is cst.Index]
    if head == "Literal":
        values = [nodes.string_value(v) if nodes.string_value(v) is not None else nodes.number_text(v) for v in elements]
        return frozenset(values) if values and all(v is not None for v in values) else None  # type: ignore[arg-type]
    if head in _WRAPPERS and elements:  # `Optional[...]` and a Union with None are not here: None gets through
        kept = elements[:1] if head == "Annotated" else elements
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
        if nodes.last_name(call.func) == "option" and not nodes.is_true(nodes.keyword_arg(call, "required")) and _no_default(call):
            return None  # an optional option with no default is None when left out
        values = nodes.literal_values(kind.args[0].value)
        return frozenset(values) if values else None
    return None


def _no_default(call: cst.Call) -> bool:
    default = nodes.keyword_arg(call, "default")
    return default is None or default.__class__ is cst.Name and default.value == "None"


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


# ---- the field of a pydantic model instance ----------------------------------------------------------

_MAPPING = re.compile(r"^(?:typing\.)?(?:dict|Dict|Mapping|MutableMapping|OrderedDict)\[[^,\[\]]+,\s*([\w.]+)\s*\]$")
_SEQUENCE = re.compile(r"^(?:typing\.)?(?:list|List|Sequence|Iterable|Iterator|Collection|tuple|Tuple|set|Set|frozenset|FrozenSet)\[\s*([\w.]+)\s*(?:,\s*\.\.\.\s*)?\]$")
_CLASS = re.compile(r"^(?:(?:typing\.)?Optional\[\s*)?([A-Za-z_][\w.]*)\s*\]?$")


def field_values(subject: str, scope, fields: Mapping[str, Sequence[str]]) -> Optional[FrozenSet[str]]:
    """The values `subject`, a field of a pydantic model instance (`field.field_type`), is declared to
    take: the model's `Literal` field (`project_scan.scan_literal_fields`), which pydantic checks when
    the instance is built. The instance's class comes from an annotation: a parameter's
    (`field: FilterableField`), or the items of a parameter it was taken from (`field =
    fields[name]` with `fields: dict[str, FilterableField]`, `for field in fields` with
    `fields: list[FilterableField]`)."""
    root, _, attr = subject.partition(".")
    if not attr or "." in attr or scope is None:
        return None
    cls = _instance_class(root, scope)
    found = fields.get(f"{cls}.{attr}") if cls else None
    return frozenset(found) if found else None


def _annotation(name: str, scope) -> str:
    bindings = scope.lookup(name)
    if len(bindings) == 1 and bindings[0].kind == "param" and bindings[0].param is not None:
        return bindings[0].param.annotation.replace(" ", "")
    return ""


def _class_in(shape: "re.Pattern[str]", holder: cst.CSTNode, scope) -> str:
    """The class that the annotation of parameter `holder` (a name) names in `shape`'s group
    (`dict[str, C]`, `list[C]`, `C`), by its last name; "" when `holder` is no such parameter."""
    name = holder.value if holder.__class__ is cst.Name else ""  # exact class test: see `nodes`
    found = shape.match(_annotation(name, scope)) if name else None
    return found.group(1).rsplit(".", 1)[-1] if found else ""


def _instance_class(name: str, scope) -> str:
    bindings = scope.lookup(name)
    if len(bindings) != 1:
        return ""
    binding, value = bindings[0], bindings[0].value
    if binding.kind == "param":
        found = _CLASS.match(_annotation(name, scope))
        return found.group(1).rsplit(".", 1)[-1] if found else ""
    if binding.kind == "assign":  # `fields[name]` or `fields.get(name)` of a mapping parameter
        if value.__class__ is cst.Subscript:
            return _class_in(_MAPPING, value.value, scope)
        if value.__class__ is cst.Call and value.func.__class__ is cst.Attribute and value.func.attr.value == "get":
            return _class_in(_MAPPING, value.func.value, scope)
    if binding.kind == "loop":
        if value.__class__ is cst.Name:  # `for field in fields`
            return _class_in(_SEQUENCE, value, scope)
        # `for field in fields.values()`, `for name, field in fields.items()` (a key is no model: its
        # attributes are no model's fields)
        if value.__class__ is cst.Call and value.func.__class__ is cst.Attribute and value.func.attr.value in ("values", "items"):
            return _class_in(_MAPPING, value.func.value, scope)
    return ""
