"""The operands of a guard's comparisons: which name a test is about (`subject`), the values of a
literal or named collection, the comparison operators as text, and where an HTTP status compared
against literals can be one of them (`status_within`). Read by `context.guard_facts`."""
from __future__ import annotations

from typing import Callable, List, Optional, Set, Tuple

import libcst as cst

from . import nodes
from .provenance import CLIENT_VALUES, REQUEST_OBJECTS


def elements(node: cst.CSTNode) -> List[cst.CSTNode]:
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        return [e.value for e in node.elements]
    return [node]


def collection_values(node: cst.CSTNode, resolve: Callable[[str], Optional[cst.CSTNode]]) -> Tuple[Optional[Tuple[str, ...]], bool]:
    values = nodes.literal_values(node)
    if values is not None:
        return tuple(values), False
    if isinstance(node, cst.Name):
        bound = resolve(node.value)
        if bound is not None:
            if isinstance(bound, cst.Call) and nodes.last_name(bound.func) in ("set", "frozenset", "tuple", "list") and bound.args:
                bound = bound.args[0].value
            values = nodes.literal_values(bound)
            if values is not None:
                return tuple(values), False
            return None, True
        return None, True
    if isinstance(node, cst.Call) and nodes.last_name(node.func) in ("keys",) and isinstance(node.func, cst.Attribute):
        return collection_values(node.func.value, resolve)
    return None, True


def subject(node: cst.CSTNode) -> str:
    """The name a test is about: the root of what it compares (`unit` for `unit.lower()`,
    `len(unit)`). A read of a request object is its own subject (`request.content_type`,
    `request.headers.get("Content-Type")`): the request is a context object, the field is the
    value the client sent."""
    state = _server_state(node)
    if state:
        return state  # `request.app.state.redis.ping()`: the server's object, not the request's
    if isinstance(node, cst.Call):
        if nodes.last_name(node.func) in ("len", "str", "int", "float", "type", "lower", "upper", "strip") and node.args:
            if nodes.last_name(node.func) in ("len", "str", "int", "float", "type"):
                return request_read(node.args[0].value) or nodes.root_name(node.args[0].value)
            inner = node.func.value if isinstance(node.func, cst.Attribute) else node.func
            return request_read(inner) or nodes.root_name(node.func)
        return request_read(node) or nodes.root_name(node.func)
    return request_read(node) or nodes.root_name(node)


def _server_state(node: cst.CSTNode) -> str:
    """"request.app" for a read through a request's server side (`request.app["db"]`,
    `request.app.state.redis.ping()`), else ""."""
    while node.__class__ in (cst.Call, cst.Subscript, cst.Attribute, cst.Await):
        if node.__class__ is cst.Attribute and node.value.__class__ is cst.Name and node.value.value in ("request", "req") \
                and node.attr.value in ("app", "state"):
            return f"{node.value.value}.{node.attr.value}"
        node = node.func if node.__class__ is cst.Call else node.expression if node.__class__ is cst.Await else node.value
    return ""


def keyed_read(node: cst.CSTNode) -> Tuple[str, str]:
    """(key, container) for `args["amount"]` and `args.get("amount", ...)` on a plain name; the key is
    "" when it is not a literal, both are "" for any other node."""
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and len(node.slice) == 1:
        index = getattr(node.slice[0].slice, "value", None)
        key = nodes.string_value(index) if index is not None else None
        return (key or "", node.value.value)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get" and isinstance(node.func.value, cst.Name):
        key = nodes.string_value(nodes.call_arg(node, 0))
        return (key or "", node.func.value.value)
    return ("", "")


REQUEST_NAMES = frozenset(o for o in REQUEST_OBJECTS if "." not in o)  # `request`, `req`; `self.request` below


def request_read(node: cst.CSTNode) -> str:
    """The source text of a read of a value a client sent in a web request (`request.content_type`,
    `req.args["page"]`, `self.request.headers.get("X-Key")`); "" for anything else: the request
    itself, its body or stream as a whole, or an attribute that is no client value."""
    chain = node
    field = ""  # the attribute read first off the request
    while chain.__class__ in (cst.Attribute, cst.Subscript, cst.Call):
        if chain.__class__ is cst.Attribute:
            if chain.attr.value in REQUEST_NAMES and nodes.dotted(chain) == "self." + chain.attr.value:
                break  # `self.request`
            field = chain.attr.value
        chain = chain.func if chain.__class__ is cst.Call else chain.value
    root = chain.attr.value if chain.__class__ is cst.Attribute else chain.value if chain.__class__ is cst.Name else ""
    if root not in REQUEST_NAMES or field not in CLIENT_VALUES:
        return ""
    return cst.Module([]).code_for_node(node).strip()


def looked_up(receiver: cst.CSTNode) -> str:
    """The key an existence check looks up: `table` in `db[table].exists()`, `p` in
    `Path(p).exists()` and `store.get(key).exists()`; "" when the receiver is a plain name or
    attribute, or the key is a literal (`db["users"].exists()` looks up no input)."""
    key: Optional[cst.CSTNode] = None
    if isinstance(receiver, cst.Subscript) and len(receiver.slice) == 1:
        key = getattr(receiver.slice[0].slice, "value", None)
    elif isinstance(receiver, cst.Call):
        args = nodes.positional_args(receiver)
        key = args[0] if args else None
    if key is None or nodes.string_value(key) is not None or nodes.int_value(key) is not None:
        return ""
    return subject(key)


def tested(node: cst.CSTNode, subject: str) -> str:
    """`field.field_type` when that attribute of `subject` is what is compared; "" otherwise."""
    dotted = nodes.dotted(node) if isinstance(node, cst.Attribute) else ""
    return dotted if dotted and dotted != subject else ""


_MEASURES = frozenset({"abs", "len", "int", "float", "round", "max", "min", "sum"})


def computed_from_arithmetic(node: cst.CSTNode) -> bool:
    """`width % 8`, `(end - start).days`, `abs(a - b)`, `(end - start).total_seconds()`: a value
    the test computes with arithmetic, read through attributes, methods or measures."""
    return _arithmetic_inside(node) is not None


def _arithmetic_inside(node: cst.CSTNode) -> Optional[cst.BinaryOperation]:
    """The arithmetic `node` reads through attributes, argument-less methods and measures, or None."""
    while True:
        if isinstance(node, cst.BinaryOperation):
            return None if isinstance(node.operator, (cst.BitOr, cst.MatrixMultiply)) else node
        if isinstance(node, cst.Attribute):
            node = node.value
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and not node.args:
            node = node.func.value
        elif isinstance(node, cst.Call) and nodes.last_name(node.func) in _MEASURES and len(node.args) == 1:
            node = node.args[0].value
        else:
            return None


def arithmetic_operands(node: cst.CSTNode) -> Set[str]:
    """The subjects of the values an arithmetic test is computed from (`width` for `width % 8`,
    `width` and `height` for `width * height`), fixed numbers and constants left out."""
    found: Set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, cst.BinaryOperation):
            stack.extend((item.left, item.right))
        elif isinstance(item, cst.UnaryOperation):
            stack.append(item.expression)
        elif item is node and (inner := _arithmetic_inside(item)) is not None:
            stack.append(inner)  # `(end - start).days`: the difference inside
        elif nodes.number_text(item) is None and nodes.string_value(item) is None and not is_constant(item):
            found.add(subject(item))
    return found - {""}


def is_len(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Call) and nodes.last_name(node.func) == "len"


def is_constant(node: cst.CSTNode) -> bool:
    """ALL_CAPS names and attributes (`MAX_PAGE`, `self.LIMIT`, `config.MAX_ROWS`) are fixed bounds."""
    name = nodes.last_name(node) if isinstance(node, (cst.Name, cst.Attribute)) else ""
    return bool(name) and name.upper() == name and any(c.isalpha() for c in name)


def failing(op: str, neg: bool) -> str:
    """The comparison that fails the check: `op` itself, or its negation under `not`."""
    return {">": "<=", ">=": "<", "<": ">=", "<=": ">"}.get(op, op) if neg else op


def flip(op: str) -> str:
    return {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)


def op_text(op: cst.CSTNode) -> str:
    return {cst.LessThan: "<", cst.GreaterThan: ">", cst.LessThanEqual: "<=", cst.GreaterThanEqual: ">="}.get(type(op), "?")


def status_within(op: cst.BaseCompOp, neg: bool) -> bool:
    """Where the sink runs, the status is among (or, for `>=`/`>`, at least) the compared literals:
    `status in (429, 503)`, the else branch of `status not in (200, 201)`, `status >= 500`, the else
    branch of `status < 500`. Elsewhere (`not in`, else of `in`, `<`) it is known only to be another
    status, and none of the literals is one it can have."""
    if isinstance(op, (cst.In, cst.NotIn)):
        return isinstance(op, cst.In) != neg
    if isinstance(op, (cst.GreaterThan, cst.GreaterThanEqual)):
        return not neg
    if isinstance(op, (cst.LessThan, cst.LessThanEqual)):
        return neg
    return False
