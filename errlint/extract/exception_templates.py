"""Exception-class templates: one message per exception class, joined to each raise site.

A class defined in the file carries its message in `__str__`, in the text its `__init__` passes to
`super().__init__`, or in a class attribute (`message = ...`, DRF `default_detail`). `compose` maps
`__init__`'s parameters (and the `self.x = param` it stores) to a raise's arguments and returns the
class's message expression rewritten in the raise's terms, so the message is judged at the raise,
where the guards and the caller are (`raise BudgetExceeded()` under `if amount > budget` reads
"Budget exceeded." from `__str__`). Subclasses defined in the file inherit what they do not define.
A class another project module defines is read the same way when this module imports it by name
(`from .errors import NotFound`; its source comes from `project_scan.ExceptionClasses`), with the
project classes it derives from.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst

from ..model import Template
from ..unvalidated_parse import parse_module
from . import nodes

DEFAULT_ATTRS = ("message", "msg", "detail", "default_detail", "default_message", "description", "error_message", "default_msg", "reason", "template", "message_template", "msg_template")


@dataclass(eq=False)
class ExceptionClass:
    """What one exception class says: `str_value` (what `__str__` returns), `init_message` (what
    `__init__` hands to the base class), `attrs` (string class attributes), `self_attrs` (what
    `__init__` stores on `self`), `params`/`defaults` (`__init__`'s parameters, `self` dropped)."""

    name: str
    bases: Tuple[str, ...]
    params: Tuple[str, ...] = ()
    defaults: Dict[str, cst.CSTNode] = field(default_factory=dict)
    star: bool = False
    has_init: bool = False
    init_message: Optional[cst.CSTNode] = None
    str_value: Optional[cst.CSTNode] = None
    str_opaque: bool = False  # `__str__` with several returns: its text is not one template
    init_opaque: bool = False  # `__init__` hands the base class different texts on different branches
    attrs: Dict[str, cst.CSTNode] = field(default_factory=dict)
    self_attrs: Dict[str, cst.CSTNode] = field(default_factory=dict)
    locals: Set[str] = field(default_factory=set)  # names `__init__` binds itself (`message = ...`)


def collect(stmt: cst.ClassDef, bases: Sequence[str]) -> ExceptionClass:
    """Read an exception class's message sources from its body."""
    info = ExceptionClass(stmt.name.value, tuple(bases))
    body = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else stmt.body.body
    for item in body:
        if isinstance(item, cst.SimpleStatementLine):
            for small in item.body:
                target = small.targets[0].target if isinstance(small, cst.Assign) else small.target if isinstance(small, cst.AnnAssign) else None
                value = getattr(small, "value", None)
                if isinstance(target, cst.Name) and value is not None and _textual(value):
                    info.attrs[target.value] = value
        elif isinstance(item, cst.FunctionDef) and item.name.value == "__init__":
            _read_init(item, info)
        elif isinstance(item, cst.FunctionDef) and item.name.value == "__str__":
            returns = _returns(item)
            if len(returns) == 1 and not _reads_locals(returns[0], item):
                info.str_value = returns[0]
            else:
                info.str_opaque = True  # several returns, or a text `__str__` assembles step by step (`t += ...`)
    return info


def _reads_locals(value: cst.CSTNode, func: cst.FunctionDef) -> bool:
    """`value` reads a name the function binds itself (`return t` after `t = ...; t += ...`)."""
    bound = set()
    for node in nodes.iter_expr(func.body, stop=(cst.Lambda, cst.FunctionDef, cst.ClassDef)):
        if isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            bound.update(t.value for t in targets if isinstance(t, cst.Name))
    return any(isinstance(n, cst.Name) and n.value in bound for n in nodes.iter_expr(value))


def _textual(value: cst.CSTNode) -> bool:
    return isinstance(value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)) or isinstance(value, cst.Call) and nodes.last_name(value.func) in ("_", "gettext", "gettext_lazy", "ugettext_lazy", "pgettext_lazy")


def _returns(func: cst.FunctionDef) -> List[cst.CSTNode]:
    out: List[cst.CSTNode] = []
    stack: List[cst.CSTNode] = [func.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(node, cst.Return):
            if node.value is not None:
                out.append(node.value)
            continue
        stack.extend(c for c in node.children if isinstance(c, cst.CSTNode))
    return out


def _read_init(func: cst.FunctionDef, info: ExceptionClass) -> None:
    info.has_init = True
    params = [p for p in list(func.params.posonly_params) + list(func.params.params)]
    names = [p.name.value for p in params]
    if names and names[0] in ("self", "cls"):
        params = params[1:]
    info.params = tuple(p.name.value for p in params) + tuple(p.name.value for p in func.params.kwonly_params)
    info.defaults = {p.name.value: p.default for p in list(params) + list(func.params.kwonly_params) if p.default is not None}
    info.star = isinstance(func.params.star_arg, cst.Param) or func.params.star_kwarg is not None
    for node in nodes.iter_expr(func.body, stop=(cst.Lambda, cst.FunctionDef, cst.ClassDef)):
        if isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            info.locals.update(t.value for t in targets if isinstance(t, cst.Name))
        if isinstance(node, cst.Assign) and len(node.targets) == 1:
            target = node.targets[0].target
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self":
                info.self_attrs.setdefault(target.attr.value, node.value)
        elif isinstance(node, cst.Call) and _base_init(node.func):
            args = [a for a in node.args if a.star == ""]
            positional = [a.value for a in args if a.keyword is None]
            if isinstance(node.func.value, cst.Name):  # `Exception.__init__(self, text)`
                positional = positional[1:]
            keyword = nodes.keyword_arg(node, "message", "msg", "detail", "description")
            first = keyword if keyword is not None else (positional[0] if positional else None)
            if first is not None and info.init_message is None:
                info.init_message = first
            elif first is not None and not first.deep_equals(info.init_message):
                info.init_opaque = True  # `if wrap: super().__init__(wrap(m)) else: super().__init__(m)`: not one text


def _base_init(func: cst.CSTNode) -> bool:
    if not (isinstance(func, cst.Attribute) and func.attr.value == "__init__"):
        return False
    value = func.value
    if isinstance(value, cst.Call) and nodes.last_name(value.func) == "super":
        return True
    return isinstance(value, cst.Name) and value.value not in ("self",)


_PARSED: Dict[str, Optional[cst.ClassDef]] = {}  # a project class's source -> its node (`parsed_class`)


def parsed_class(text: str) -> Optional[cst.ClassDef]:
    """The class another project module defines, from its source text (`project_scan.ExceptionClasses`),
    parsed once per process; None when it does not parse alone."""
    if text not in _PARSED:
        if len(_PARSED) > 2_000:
            _PARSED.clear()
        try:
            body = parse_module(text).body
            _PARSED[text] = body[0] if len(body) == 1 and isinstance(body[0], cst.ClassDef) else None
        except (cst.ParserSyntaxError, RecursionError, ValueError):
            _PARSED[text] = None
    return _PARSED[text]


class Registry:
    """The exception classes of one module, by name (an imported one by its qualified name)."""

    def __init__(self) -> None:
        self.classes: Dict[str, ExceptionClass] = {}
        self.composed: Set[str] = set()  # classes judged at a raise site

    def add(self, info: ExceptionClass, key: str = "") -> None:
        self.classes[key or info.name] = info

    def chain(self, name: str) -> List[ExceptionClass]:
        out: List[ExceptionClass] = []
        seen: Set[str] = set()
        queue = [name]
        while queue:
            current = queue.pop(0)
            if current in seen or current not in self.classes:
                continue
            seen.add(current)
            info = self.classes[current]
            out.append(info)
            queue.extend(b.rsplit(".", 1)[-1] if b.rsplit(".", 1)[-1] in self.classes else b for b in info.bases)
        return out

    def compose(self, name: str, call: Optional[cst.Call]) -> Optional[cst.CSTNode]:
        """The class's message rewritten with the raise's arguments, or None when the class adds no
        text of its own (a plain subclass: the raise's own argument is the message)."""
        chain = self.chain(name)
        if not chain:
            return None
        args = list(call.args) if call is not None else []
        init = next((c for c in chain if c.has_init), None)
        source: Optional[cst.CSTNode] = None
        owner = None
        for info in chain:
            if info.str_opaque or info.init_opaque and info is init:
                return None
            if info.str_value is not None:
                source, owner = info.str_value, info
                break
        if source is None and init is not None and init.init_message is not None:
            source, owner = init.init_message, init
        if source is None and init is None and not args:
            for info in chain:
                attr = next((a for a in DEFAULT_ATTRS if a in info.attrs), None)
                if attr is not None:
                    source, owner = info.attrs[attr], info
                    break
        if source is None or owner is None:
            return None
        if init is not None and any(isinstance(n, cst.Name) and n.value in init.locals - set(init.params) for n in nodes.iter_expr(source)):
            return None  # text `__init__` assembles in locals: judged in `__init__`, where they resolve
        if any(a.star for a in args):
            return None
        mapping: Dict[str, Optional[cst.CSTNode]] = {}
        if init is not None:
            positional = [a.value for a in args if a.keyword is None]
            keywords = {a.keyword.value: a.value for a in args if a.keyword is not None}
            for i, param in enumerate(init.params):
                if param in keywords:
                    mapping[param] = keywords[param]
                elif i < len(positional):
                    mapping[param] = positional[i]
                else:
                    mapping[param] = None if param not in init.defaults else init.defaults[param]
        arguments = [a.value for a in args if a.keyword is None] if init is None else []
        if init is not None and init.init_message is not None and source is not init.init_message:
            arguments = [init.init_message]  # `super().__str__()` in `__str__` reads what `__init__` passed up
        attrs: Dict[str, cst.CSTNode] = {}
        for info in reversed(chain):
            attrs.update(info.attrs)
        self_attrs = init.self_attrs if init is not None else {}
        rewritten = _Rewrite(mapping, attrs, self_attrs, arguments, name).rewrite(source)
        if rewritten is None or any(rewritten is a.value for a in args):
            return None  # `super().__init__(message)`: the raise's own argument is the message
        self.composed.update((name, owner.name))
        return rewritten


def _is_none(node: Optional[cst.CSTNode]) -> bool:
    return node is None or isinstance(node, cst.Name) and node.value == "None"


class _Rewrite(cst.CSTTransformer):
    """Replace `__init__`'s parameters, `self.<attr>`, `self.args[i]` and `type(self).__name__` in a
    message expression by what the raise site passes."""

    def __init__(self, mapping: Dict[str, Optional[cst.CSTNode]], attrs: Dict[str, cst.CSTNode], self_attrs: Dict[str, cst.CSTNode], arguments: List[cst.CSTNode], name: str):
        super().__init__()
        self.mapping = mapping
        self.attrs = attrs
        self.self_attrs = self_attrs
        self.arguments = arguments
        self.name = name
        self.skip: Set[int] = set()
        self.depth = 0

    def rewrite(self, source: cst.CSTNode) -> Optional[cst.CSTNode]:
        for node in (n for root in [source, *self.self_attrs.values()] for n in nodes.iter_expr(root)):
            if isinstance(node, cst.Attribute):
                self.skip.add(id(node.attr))
            elif isinstance(node, cst.Arg) and node.keyword is not None:
                self.skip.add(id(node.keyword))
        try:
            return self._value(source)
        except (TypeError, ValueError, cst.CSTValidationError):
            return None

    def _value(self, node: cst.CSTNode) -> cst.CSTNode:
        replaced = self._replacement(node)
        if replaced is not None:
            return replaced
        return node.visit(self)

    def _replacement(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        if isinstance(node, cst.Name) and id(node) not in self.skip and node.value in self.mapping:
            value = self.mapping[node.value]
            return value if value is not None else cst.Name("None")
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value in ("self", "cls"):
            attr = node.attr.value
            if attr in self.self_attrs and self.depth < 3:
                self.depth += 1
                try:
                    return self._value(self.self_attrs[attr])
                finally:
                    self.depth -= 1
            if attr in self.attrs:
                return self.attrs[attr]
        if isinstance(node, cst.Attribute) and node.attr.value == "__name__" and nodes.dotted(node) in ("self.__class__.__name__", "cls.__name__"):
            return cst.SimpleString(repr(self.name))
        if isinstance(node, cst.Attribute) and node.attr.value == "__name__" and isinstance(node.value, cst.Call) and nodes.dotted(node.value.func) == "type":
            return cst.SimpleString(repr(self.name))
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "__str__" and self.arguments and self.depth < 3:
            base = node.func.value  # `super().__str__()` / `Exception.__str__(self)`: the base text
            if isinstance(base, cst.Call) and nodes.last_name(base.func) == "super" or isinstance(base, cst.Name) and base.value != "self":
                self.depth += 1
                try:
                    return self._value(self.arguments[0])
                finally:
                    self.depth -= 1
        if isinstance(node, cst.Call) and nodes.dotted(node.func) == "str" and len(node.args) == 1 and nodes.dotted(node.args[0].value) == "self.args":
            return self.arguments[0] if len(self.arguments) == 1 else None
        if isinstance(node, cst.Subscript) and nodes.dotted(node.value) == "self.args" and len(node.slice) == 1:
            index = node.slice[0].slice
            i = nodes.int_value(index.value) if isinstance(index, cst.Index) else None
            if i is not None and 0 <= i < len(self.arguments):
                return self.arguments[i]
        if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or) and isinstance(node.left, cst.Name) and node.left.value in self.mapping:
            given = self.mapping[node.left.value]
            return self._value(node.right) if _is_none(given) else given
        return None

    def on_leave(self, original_node, updated_node):  # type: ignore[override]
        replaced = self._replacement(original_node) if isinstance(original_node, cst.BaseExpression) else None
        if replaced is not None:
            return replaced
        return super().on_leave(original_node, updated_node)

    def on_visit(self, node) -> bool:  # type: ignore[override]
        return self._replacement(node) is None if isinstance(node, cst.BaseExpression) else True

    def leave_FormattedString(self, original_node, updated_node):  # type: ignore[override]
        """An f-string passed into a placeholder (`f"error: {message}"` with `message=f"--region {r!r} ..."`)
        is part of the text: its parts are spliced in."""
        parts = []
        spliced = False
        for part in updated_node.parts:
            inner = part.expression if isinstance(part, cst.FormattedStringExpression) else None
            if isinstance(inner, cst.FormattedString) and not part.conversion and part.format_spec is None and part.equal is None \
                    and "b" not in inner.prefix.lower() and "r" not in inner.prefix.lower():
                parts.extend(inner.parts)
                spliced = True
            else:
                parts.append(part)
        return updated_node.with_changes(parts=parts) if spliced else updated_node

    def leave_FormattedStringExpression(self, original_node, updated_node):  # type: ignore[override]
        inner = updated_node.expression
        if isinstance(inner, cst.SimpleString) and not updated_node.conversion and updated_node.format_spec is None and updated_node.equal is None:
            text = nodes.string_value(inner)
            if text is not None and "\\" not in text and "\n" not in text:
                return cst.FormattedStringText(text.replace("{", "{{").replace("}", "}}"))
        return updated_node


def substitute(expr: cst.CSTNode, mapping: Dict[str, cst.CSTNode]) -> Optional[cst.CSTNode]:
    """`expr` with the names in `mapping` replaced by their nodes (a helper's parameters by what a call
    passes: `sink_helpers`), or None when it cannot be rewritten."""
    return _Rewrite(dict(mapping), {}, {}, [], "").rewrite(expr)


def at_raise(templates: List[Template]) -> List[Template]:
    """A composed message is reported at the raise: its text is partly the class's, so no piece of it
    is a literal a fix at the raise could edit."""
    return [Template(t.parts, (), t.complete) for t in templates]
