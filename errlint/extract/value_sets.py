"""Closed and open value sets: may a message list what a membership check accepts?

A *closed* set is fixed by the program: a literal, an enum, a module or class constant, a configured
allow-list (`SETTINGS["themes"]`, `self.allowed_formats`, `config.supported_models`) or a dispatch
table (`HANDLERS = {"csv": to_csv, ...}`). A message can list it, or interpolate it at run time.

An *open* set is data: records and ids read from storage or an API (`db.query(...)`, `client.list()`,
`os.listdir(root)`, `self.users`), or a container made empty for the program to fill as it runs
(`NOTES: dict[str, Note] = {}`, also when another module of the project makes it: `project_scan.ModuleObjects`);
an empty table named as an allow-list or registry (`HANDLERS = {}` that decorators fill) stays closed. Listing it would be long and stale; the message should name the
tool or command that lists it (AEM205) instead.

`closed_set()` answers True (closed), False (open) or None (cannot tell).
"""
from __future__ import annotations

import re
from typing import Callable, Optional

import libcst as cst

from . import nodes
from .provenance import OUTCOME_CALL, is_outcome_function

ALLOW_LIST_NAME = re.compile(r"(^|_)(allowed|allow|supported|valid|known|available|accepted|permitted|choices|options|modes|formats|kinds|types|handlers|registry|dispatch|commands|actions|backends|providers|themes|levels|units)(_|$)", re.I)
CONFIG_ROOT = re.compile(r"(^|_)(settings|config|conf|cfg|options|opts|defaults|constants|consts)$", re.I)
OPEN_STORE_CALL = re.compile(r"^(listdir|scandir|glob|iglob|rglob|iterdir|walk|keys_from_db|all|list_\w+|fetch\w*|query|execute|scalars|find\w*|search\w*|load_\w+|read_\w+)$")
ENUM_NAME = re.compile(r"(Enum|Kind|Mode|Status|State|Level|Format|Choice|Choices)$")


def closed_set(node: Optional[cst.CSTNode], resolve: Callable[[str], Optional[cst.CSTNode]], is_enum: Callable[[str], bool], depth: int = 0) -> Optional[bool]:
    """True when `node` (a collection expression) is a closed set, False when open, None if unknown."""
    if node is None or depth > 6:
        return None
    if empty_container(node):
        return False  # `NOTES: dict[str, str] = {}`: a store the program fills at run time
    if nodes.literal_values(node) is not None:
        return True
    if isinstance(node, (cst.Dict, cst.Set, cst.List, cst.Tuple)):
        return True  # a literal table, even when its entries are names (a dispatch table)
    if isinstance(node, (cst.SetComp, cst.ListComp, cst.GeneratorExp, cst.DictComp)):
        return closed_set(node.for_in.iter, resolve, is_enum, depth + 1)
    if isinstance(node, cst.Call):
        func = node.func
        last = nodes.last_name(func)
        if last in ("keys", "values", "items", "copy") and isinstance(func, cst.Attribute):
            return closed_set(func.value, resolve, is_enum, depth + 1)
        if last in ("set", "frozenset", "list", "tuple", "sorted", "dict") and node.args:
            return closed_set(node.args[0].value, resolve, is_enum, depth + 1)
        if OPEN_STORE_CALL.match(last) or OUTCOME_CALL.match(last) or is_outcome_function(last):
            return False  # records read from storage, a directory or an API
        return None
    if isinstance(node, cst.Await):
        return False
    if isinstance(node, cst.Subscript):
        return closed_set(node.value, resolve, is_enum, depth + 1)  # `SETTINGS["themes"]`
    if isinstance(node, cst.Attribute):
        last = node.attr.value
        if last == "__members__" or is_enum(nodes.last_name(node.value)):
            return True
        if _constant(last) or ALLOW_LIST_NAME.search(last):
            return True
        if CONFIG_ROOT.search(nodes.last_name(node.value) or ""):
            return True  # `settings.themes`, `self.config.allowed`
        return closed_set(node.value, resolve, is_enum, depth + 1) if CONFIG_ROOT.search(nodes.root_name(node)) else None
    if isinstance(node, cst.Name):
        name = node.value
        if is_enum(name):
            return True
        value = resolve(name)
        if value is not None and empty_container(value) and ALLOW_LIST_NAME.search(name):
            return True  # `HANDLERS = {}` that `@register("csv")` fills when the program starts: a dispatch table
        if value is not None:
            found = closed_set(value, resolve, is_enum, depth + 1)
            if found is not None:
                return found
        if _constant(name) or CONFIG_ROOT.search(name):
            return True
        return None
    return None


# the calls that make an empty container: `dict()`, `set()`, `defaultdict(list)`, `OrderedDict()`
EMPTY_MAKERS = frozenset({"dict", "set", "list", "defaultdict", "OrderedDict", "Counter", "deque", "WeakValueDictionary"})


def empty_container(node: Optional[cst.CSTNode]) -> bool:
    """`{}`, `[]`, `set()`, `defaultdict(list)`: a container made empty, to be filled at run time."""
    if node.__class__ in (cst.Dict, cst.List, cst.Set, cst.Tuple):
        return not node.elements and node.__class__ is not cst.Tuple
    if node.__class__ is cst.Call:
        name = nodes.last_name(node.func)
        return name in EMPTY_MAKERS and (not node.args or name == "defaultdict" and len(node.args) == 1 and node.args[0].keyword is None)
    return False


def _constant(name: str) -> bool:
    return name.upper() == name and any(c.isalpha() for c in name)


def collection_name(node: Optional[cst.CSTNode]) -> str:
    """The dotted name a message would interpolate for the collection (`SETTINGS` for `SETTINGS["x"]`)."""
    while isinstance(node, (cst.Subscript, cst.Call)):
        if isinstance(node, cst.Call):
            func = node.func
            node = func.value if isinstance(func, cst.Attribute) else (node.args[0].value if node.args else None)
        else:
            node = node.value
    return nodes.dotted(node) if node is not None else ""


def describe(node: Optional[cst.CSTNode]) -> str:
    """Source text of a collection, for "expected one of {...}" suggestions."""
    return cst.Module([]).code_for_node(node) if node is not None else "the allowed values"
