"""Small helpers over libcst nodes: dotted names, literal values, and a fast child iterator.

libcst's own visitor machinery visits every whitespace node; errlint walks statements itself and only
descends into expressions through `iter_expr`, which skips whitespace and punctuation fields.

Hot paths test a node's class exactly (`node.__class__ is cst.Name`) rather than with isinstance:
libcst's concrete node classes have no subclasses, and isinstance against them goes through ABCMeta,
about ten times slower when the answer is no (tests/test_hot_paths.py keeps them final).
"""
from __future__ import annotations

import ast
import collections.abc
import dataclasses
import typing
from typing import Dict, Iterator, List, Optional, Tuple

import libcst as cst

_SKIP_TYPES = (
    cst.BaseParenthesizableWhitespace,
    cst.Comma,
    cst.LeftParen,
    cst.RightParen,
    cst.LeftSquareBracket,
    cst.RightSquareBracket,
    cst.LeftCurlyBrace,
    cst.RightCurlyBrace,
    cst.Colon,
    cst.Dot,
    cst.AssignEqual,
    cst.BaseCompOp,
    cst.BaseBinaryOp,
    cst.BaseUnaryOp,
    cst.BaseBooleanOp,
    cst.Semicolon,
    cst.TrailingWhitespace,
    cst.EmptyLine,
    cst.Newline,
    cst.Comment,
    cst.Annotation,
)
LEAVES = frozenset({cst.Name, cst.SimpleString, cst.Integer, cst.Float, cst.Imaginary, cst.Ellipsis})  # no children
_FIELDS: Dict[type, Tuple[str, ...]] = {}
_SKIP: Dict[type, bool] = {}  # per class: whitespace/punctuation, or not a CST node at all


def _child_fields(cls: type) -> Tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = tuple(
            f.name
            for f in dataclasses.fields(cls)
            if not f.name.startswith("whitespace")
            and f.name not in ("lpar", "rpar", "comma", "semicolon", "leading_lines", "lines_after_decorators")
            and not _holds_no_child(f.type)  # `children` would skip whatever it holds: not read at all
        )
        _FIELDS[cls] = names
    return names


def _holds_no_child(annotation) -> bool:
    """True when a field declared `annotation` can hold only what `children` skips: punctuation,
    whitespace, operators, text, a sentinel or None (`Arg.equal`, `Arg.star`, `Attribute.dot`).
    Anything not understood counts as a possible child."""
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin in (list, tuple, collections.abc.Sequence):
        return all(_holds_no_child(arg) for arg in typing.get_args(annotation) if arg is not Ellipsis)
    if origin is typing.Literal:
        return all(isinstance(arg, str) for arg in typing.get_args(annotation))
    return isinstance(annotation, type) and origin is None and _skipped(annotation)


def _skipped(cls: type) -> bool:
    """True for whitespace/punctuation node classes and non-nodes; cached per class, because
    isinstance against libcst's abstract base classes is slow."""
    skip = _SKIP.get(cls)
    if skip is None:
        skip = _SKIP[cls] = issubclass(cls, _SKIP_TYPES) or not issubclass(cls, cst.CSTNode)
    return skip


def children(node: cst.CSTNode) -> List[cst.CSTNode]:
    """The node's expression-bearing children, in source order (whitespace and punctuation skipped)."""
    read = _READERS.get(node.__class__)
    if read is None:
        read = _READERS[node.__class__] = _reader(node.__class__)
    return read(node)


_READERS: Dict[type, typing.Callable[[cst.CSTNode], List[cst.CSTNode]]] = {}


def _generic_children(node: cst.CSTNode) -> List[cst.CSTNode]:
    out: List[cst.CSTNode] = []
    for name in _FIELDS.get(node.__class__) or _child_fields(node.__class__):
        value = getattr(node, name, None)
        cls = value.__class__
        if cls is tuple or cls is list:
            for item in value:
                if not _skipped(item.__class__):
                    out.append(item)
        elif value is not None and not _skipped(cls):
            out.append(value)
    return out


def _reader(cls: type):
    """`children` for one node class, written out field by field: a field declared to hold a node
    (or a sequence of nodes) of a class none of whose subclasses is skipped is read without testing
    what it holds; any other field as `_generic_children` reads it. (Half of a walk's time went to
    testing each child's class.)"""
    try:
        declared = {f.name: f.type for f in dataclasses.fields(cls)}
    except TypeError:  # not a dataclass: read generically
        return _generic_children
    lines = ["def read(node):", "    out = []"]
    for name in _child_fields(cls):
        mode = _field_mode(declared.get(name))
        if mode == "one":
            lines += [f"    value = node.{name}", "    if value is not None:", "        out.append(value)"]
        elif mode == "many":
            lines.append(f"    out.extend(node.{name})")
        else:
            lines += [f"    value = node.{name}", "    if value.__class__ is tuple or value.__class__ is list:",
                      "        out.extend(item for item in value if not _skipped(item.__class__))",
                      "    elif value is not None and not _skipped(value.__class__):", "        out.append(value)"]
    lines.append("    return out")
    namespace = {"_skipped": _skipped}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from the field names of libcst's classes
    return namespace["read"]


def _field_mode(annotation) -> str:
    """"one" for a field that holds a node never skipped or None, "many" for a sequence of such
    nodes, "" when it may hold anything else."""
    origin = typing.get_origin(annotation)
    if origin in (list, tuple, collections.abc.Sequence):
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        return "many" if args and all(_never_skipped(a) for a in args) else ""
    if origin is typing.Union:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return "one" if args and all(_never_skipped(a) for a in args) else ""
    return "one" if _never_skipped(annotation) else ""


def _never_skipped(annotation) -> bool:
    """A node class of which neither it nor any subclass is whitespace or punctuation."""
    if not isinstance(annotation, type) or not issubclass(annotation, cst.CSTNode):
        return False
    pending, seen = [annotation], set()
    while pending:
        cls = pending.pop()
        if cls in seen:
            continue
        seen.add(cls)
        if _skipped(cls):
            return False
        pending.extend(cls.__subclasses__())
    return True


def iter_expr(root: cst.CSTNode, stop=(cst.Lambda,)) -> Iterator[cst.CSTNode]:
    """Every node under `root` (root included), depth-first in source order, iteratively.

    Iterative so that 1,000-piece string concatenations cannot hit the recursion limit. Subtrees of
    the `stop` types are yielded but not entered.
    """
    stack: List[cst.CSTNode] = [root]
    pop = stack.pop
    extend = stack.extend
    while stack:
        node = pop()
        yield node
        cls = node.__class__
        if cls in LEAVES or (cls in stop and node is not root):
            continue
        kids = children(node)
        if kids:
            kids.reverse()
            extend(kids)


def dotted(node: Optional[cst.CSTNode]) -> str:
    """`a.b.c` for a Name/Attribute chain; "" for anything else (calls, subscripts)."""
    cls = node.__class__
    if cls is cst.Name:
        return node.value
    parts: List[str] = []
    while cls is cst.Attribute:
        parts.append(node.attr.value)
        node = node.value
        cls = node.__class__
    if cls is cst.Name:
        parts.append(node.value)
        return ".".join(parts[::-1])
    return ""


def root_name(node: Optional[cst.CSTNode]) -> str:
    """The leftmost name of an attribute/subscript/call chain (`self` for `self.a[0].b()`)."""
    while True:
        cls = node.__class__
        if cls is cst.Attribute or cls is cst.Subscript:
            node = node.value
        elif cls is cst.Call:
            node = node.func
        elif cls is cst.Name:
            return node.value
        else:
            return ""


def last_name(node: Optional[cst.CSTNode]) -> str:
    """The rightmost identifier of an expression: `key` for `self.api_key`, `X` for `d["X"]`."""
    cls = node.__class__
    if cls is cst.Name:
        return node.value
    if cls is cst.Attribute:
        return node.attr.value
    if cls is cst.Subscript and len(node.slice) == 1:
        index = node.slice[0].slice
        if index.__class__ is cst.Index:
            value = string_value(index.value)
            if value is not None:
                return value
        return last_name(node.value)
    if cls is cst.Call:
        return last_name(node.func)
    return ""


def string_value(node: Optional[cst.CSTNode]) -> Optional[str]:
    """The value of a plain (non-f, non-bytes) string literal or implicit concatenation of them."""
    if node.__class__ is cst.SimpleString:
        prefix = node.prefix.lower()
        if "b" in prefix:
            return None
        raw = node.value
        if "\\" not in raw and "\r" not in raw and "\0" not in raw:
            # nothing to unescape or translate: the text between the quotes is the value, and
            # `evaluated_value` (ast.literal_eval) is slow
            quote = len(node.quote)
            return raw[len(prefix) + quote:len(raw) - quote]
        try:
            value = node.evaluated_value
        except Exception:  # malformed escapes: libcst parsed it, ast may still refuse
            return None
        return value if isinstance(value, str) else None
    if node.__class__ is cst.ConcatenatedString:
        left = string_value(node.left)
        right = string_value(node.right)
        if left is None or right is None:
            return None
        return left + right
    return None


def bytes_text(node: Optional[cst.CSTNode]) -> Optional[str]:
    """The text of a bytes literal (`b"..."`) as the reader sees it, decoded as UTF-8 with
    undecodable bytes replaced; None for anything else. A bytes message (`raise X(b"...")`,
    `sys.stderr.buffer.write(b"...")`, `os.write(2, b"...")`) is read as text all the same."""
    if not isinstance(node, cst.SimpleString) or "b" not in node.prefix.lower():
        return None
    try:
        value = node.evaluated_value
    except Exception:  # malformed escapes
        return None
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else None


def int_value(node: Optional[cst.CSTNode]) -> Optional[int]:
    """The value of an integer literal (`429`, `-1`, `50_000`), else None."""
    if isinstance(node, cst.Integer):
        try:
            return int(node.value.replace("_", ""), 0)
        except ValueError:
            return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = int_value(node.expression)
        return -inner if inner is not None else None
    return None


def number_text(node: Optional[cst.CSTNode]) -> Optional[str]:
    """Source text of an int/float literal, else None."""
    if isinstance(node, (cst.Integer, cst.Float)):
        return node.value
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = number_text(node.expression)
        return "-" + inner if inner is not None else None
    return None


def literal_values(node: Optional[cst.CSTNode]) -> Optional[List[str]]:
    """Members of a literal tuple/list/set (or a dict's keys) of strings/numbers, else None."""
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        out = []
        for el in node.elements:
            if isinstance(el, cst.StarredElement):
                return None
            value = string_value(el.value)
            if value is None:
                value = number_text(el.value)
            if value is None:
                return None
            out.append(value)
        return out
    if isinstance(node, cst.Dict):
        out = []
        for el in node.elements:
            if not isinstance(el, cst.DictElement):
                return None
            value = string_value(el.key)
            if value is None:
                value = number_text(el.key)
            if value is None:
                return None
            out.append(value)
        return out
    return None


def is_constant(node: cst.CSTNode) -> bool:
    """A literal number, string or `None`/`True`/`False`: what no name or call flows into."""
    cls = node.__class__
    return cls is cst.SimpleString or cls is cst.Integer or cls is cst.Float or cls is cst.Name and node.value in ("None", "True", "False")


def is_true(node: Optional[cst.CSTNode]) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


def call_arg(call: cst.Call, position: Optional[int], *keywords: str) -> Optional[cst.CSTNode]:
    """The value of the call's argument at `position` (positional args only) or under a keyword.

    After a `*args` splat the positions are unknown, so only keywords can still match.
    """
    pos: Optional[int] = 0
    for arg in call.args:
        if arg.keyword is not None:
            if arg.keyword.value in keywords:
                return arg.value
        elif arg.star == "*":
            pos = None
        elif not arg.star and pos is not None:
            if pos == position:
                return arg.value
            pos += 1
    return None


def keyword_arg(call: cst.Call, *keywords: str) -> Optional[cst.CSTNode]:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in keywords:
            return arg.value
    return None


def positional_args(call: cst.Call) -> List[cst.CSTNode]:
    return [a.value for a in call.args if a.keyword is None and not a.star]


def fstring_text(part: cst.FormattedStringText, prefix: str, quote: str) -> str:
    """Unescape the raw source text of an f-string literal run (`{{` -> `{`, `\\n` -> newline).

    `prefix` and `quote` are the enclosing FormattedString's; raw f-strings keep backslashes.
    """
    raw = part.value
    if "\\" in raw and "r" not in prefix.lower():
        try:
            value = ast.literal_eval(quote + raw + quote)
            if isinstance(value, str):
                raw = value
        except Exception:  # an escape ast refuses: keep the source text
            pass
    return raw.replace("{{", "{").replace("}}", "}")


def dict_fields(node: cst.Dict) -> Dict[str, cst.CSTNode]:
    """The string-keyed fields of a dict literal (`**spread` and computed keys left out)."""
    out: Dict[str, cst.CSTNode] = {}
    for el in node.elements:
        if el.__class__ is cst.DictElement:
            key = string_value(el.key)
            if key is not None:
                out[key] = el.value
    return out
