"""What a placeholder may contain: the kinds of the value an expression puts into a message.

`PlaceholderKinds.classify` reads an expression (a name through its bindings, an attribute, a
subscript, a call, a literal or a display, an operator) and answers with kinds such as bounded,
secret, unbounded, schema, traceback, home path, URL, exception, validation report or collection,
plus a short detail (the name or call that decided it). `placeholder` wraps the answer in a
`Placeholder`. It is one part of `TemplateBuilder` and uses the builder's scope and name resolution.
"""
from __future__ import annotations

import re
from typing import FrozenSet, Set, Tuple

import libcst as cst

from ..model import (
    BOUNDED,
    COLLECTION,
    ENV_DUMP,
    EXCEPTION,
    HINT,
    HOME_PATH,
    RELAYED,
    RETRY_AFTER,
    MAYBE_SECRET,
    SCHEMA,
    SECRET,
    SECRETS,
    TRACEBACK,
    UNBOUNDED,
    UNKNOWN,
    URL,
    VALIDATION,
    Placeholder,
)
from . import nodes, record_reprs, secret_requests, value_origins
from .call_kinds import CallKinds
from .read_records import read_records
from .credential_evidence import keyed_secret, over_credentials
from .http_objects import is_response
from .transient import handled_types
from .value_names import (
    BOUNDED_ANNOTATION,
    BOUNDED_NAME,
    CONFIG_HOLDER,
    ENV_NAMES,
    HEADER_ATTRS,
    HOME_LITERAL,
    RESPONSE_ROOTS,
    SCHEMA_ATTRS,
    SCHEMA_NAME,
    STRONG_SCHEMA_NAME,
    UNBOUNDED_ANNOTATION,
    UNBOUNDED_ATTRS,
    catches_os_error,
    caught_kinds,
    is_secret_name,
    names_a_condition,
    is_textual,
    relayed_error,
    secret_env_var,
    secret_kind,
    snake,
)


def _class_name(node: cst.CSTNode) -> bool:
    """A CamelCase class name (`ErrorCode`), not an instance (`settings`)."""
    name = nodes.last_name(node)
    return bool(name) and name[:1].isupper() and not name.isupper()


MAX_VARIANTS = 4
CAP_WORDS = re.compile(r"^_?[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*$")  # `SnowflakeSchema`, not `DEFAULT_SCHEMA`
MAX_DISPLAY_FIELDS = 8  # a dict/list written in the code with more fields than this is a dump
MAX_DEPTH = 8


class PlaceholderKinds(CallKinds):
    """The placeholder classification of `TemplateBuilder` (a mixin: it uses the builder's `scope`,
    `qualify`, `code`, `_active` and `_variants`; calls are classified by `CallKinds`)."""

    def placeholder(self, expr: cst.CSTNode, conversion: str = "", spec: str = "", debug: bool = False, depth: int = 0) -> Placeholder:
        kinds, detail = self.classify(expr, depth)
        if spec and re.search(r"\.\d+", spec) and not kinds & SECRETS:
            kinds = (kinds - {UNBOUNDED, SCHEMA, VALIDATION, TRACEBACK, ENV_DUMP}) | {BOUNDED}
        names = tuple(sorted(_names_read(expr)))
        return Placeholder(
            expr=self.code(expr),
            kinds=frozenset(kinds),
            names=names,
            quoted=bool(conversion == "r" or debug),
            detail=detail,
            node=expr,
        )

    def classify(self, expr: cst.CSTNode, depth: int) -> Tuple[FrozenSet[str], str]:
        """What a placeholder expression may contain, and a short reason (the name or call)."""
        if depth > MAX_DEPTH:
            return frozenset({UNKNOWN}), ""
        if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary)):
            return frozenset({BOUNDED}), ""
        origin = value_origins.classify(self, expr, depth)  # where a value comes from decides first
        if origin is not None:
            return origin
        if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return self._classify_string(expr, depth)
        if isinstance(expr, cst.Dict) and schema_shaped(expr) and len(self.code(expr)) >= SCHEMA_DUMP_CHARS:
            return frozenset({SCHEMA}), "a JSON Schema"
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set, cst.Dict)):
            values = nodes.literal_values(expr)
            if values is not None and not (isinstance(expr, cst.Dict) and any(nodes.string_value(el.value) is None and nodes.number_text(el.value) is None for el in expr.elements)):
                return frozenset({BOUNDED, COLLECTION}), ""
            return self._display(expr, depth)
        if isinstance(expr, (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)):
            element = expr.elt if not isinstance(expr, cst.DictComp) else expr.value
            if read_records(self, expr.for_in.iter):
                return frozenset({UNBOUNDED}), self.code(expr.for_in.iter)  # an entry per line or row read: as many as there are
            inner, detail = self.classify(element, depth + 1)
            return (frozenset({UNBOUNDED}), detail) if inner & ({UNBOUNDED, ENV_DUMP} | SECRETS) else (frozenset({UNKNOWN}), "")
        if isinstance(expr, cst.Name):
            return self._classify_name(expr, depth)
        if isinstance(expr, cst.Attribute):
            return self._classify_attribute(expr, depth)
        if isinstance(expr, cst.Subscript):
            return self._classify_subscript(expr, depth)
        if isinstance(expr, cst.Call):
            return self._classify_call(expr, depth)
        if isinstance(expr, cst.IfExp):
            a, da = self.classify(expr.body, depth + 1)
            b, db = self.classify(expr.orelse, depth + 1)
            return _union(a, b), da or db
        if isinstance(expr, cst.BinaryOperation):
            a, da = self.classify(expr.left, depth + 1)
            b, db = self.classify(expr.right, depth + 1)
            if isinstance(expr.operator, cst.Modulo) and _string_literal(expr.left):
                return b, db  # a %-template: only the arguments are values
            return _union(a, b), da or db
        if isinstance(expr, cst.BooleanOperation):
            if isinstance(expr.operator, cst.Or) and relayed_error(expr.left):
                return self.classify(expr.left, depth + 1)
            a, da = self.classify(expr.left, depth + 1)
            b, db = self.classify(expr.right, depth + 1)
            return _union(a, b), da or db
        if isinstance(expr, (cst.Comparison, cst.UnaryOperation)):
            return frozenset({BOUNDED}), ""
        if isinstance(expr, cst.Await):
            return self.classify(expr.expression, depth + 1)
        return frozenset({UNKNOWN}), ""

    def _display(self, expr: cst.CSTNode, depth: int) -> Tuple[FrozenSet[str], str]:
        """A dict/list display written in the code (`{"error": str(e), "code": code}`) is as big as
        its fields: bounded when it has few fields and none of them is unbounded."""
        elements = list(getattr(expr, "elements", ()))
        if len(elements) > MAX_DISPLAY_FIELDS:
            return frozenset({UNBOUNDED}), ""
        # a spread (`{**os.environ, "NO_COLOR": "1"}`, `[*rows]`) is any size, and holds what it spreads
        spread = any(isinstance(el, (cst.StarredElement, cst.StarredDictElement)) for el in elements)
        carried: Set[str] = set()
        detail = ""
        for el in elements:
            inner, inner_detail = self.classify(el.value, depth + 1)
            carried |= inner & ({UNBOUNDED, SCHEMA, VALIDATION, ENV_DUMP, TRACEBACK, URL, HOME_PATH} | SECRETS)
            detail = detail or inner_detail
        if spread or carried & {UNBOUNDED, SCHEMA, VALIDATION, ENV_DUMP, TRACEBACK}:
            return frozenset(carried | {UNBOUNDED}), detail
        return frozenset(carried | {BOUNDED}), detail

    def _classify_string(self, expr: cst.CSTNode, depth: int) -> Tuple[FrozenSet[str], str]:
        kinds: Set[str] = set()
        detail = ""
        for template in self._variants(expr, depth + 1):
            for holder in template.placeholders:
                kinds |= holder.kinds
                detail = detail or holder.detail
            if template.literal and HOME_LITERAL.search(template.literal):
                kinds.add(HOME_PATH)
                detail = detail or HOME_LITERAL.search(template.literal).group(0)
        return frozenset(kinds or {BOUNDED}), detail

    def _home_path_tried(self, binding, depth: int) -> str:
        """The home-directory path an OSError bound by `binding` may name in its text, else "".

        `str(exc)` of an OSError is "[Errno 2] No such file or directory: '/home/bob/.aws/credentials'":
        when the try body opened or read a path built with `expanduser`/`Path.home()` (directly, or
        through a variable or module constant), the exception's text shows that path."""
        if not catches_os_error(binding.caught):
            return ""
        for node in binding.tried:
            kinds, detail = self.classify(node, depth + 1)
            if HOME_PATH in kinds:
                return f"{self.code(node)}" if isinstance(node, cst.Name) or not detail else detail
        return ""

    def _classify_name(self, expr: cst.Name, depth: int) -> Tuple[FrozenSet[str], str]:
        name = expr.value
        if name in ("True", "False", "None"):
            return frozenset({BOUNDED}), ""
        low = snake(name)
        found = self.scope.lookup(name)
        if found and CAP_WORDS.match(name) and all(b.kind in ("class", "import") for b in found):
            # a class (`obj_type = SnowflakeSchema`): its text is `<class '...SnowflakeSchema'>`, not a
            # schema or a record, whatever its name says
            return frozenset({BOUNDED}), ""
        kinds: Set[str] = set()
        detail = ""
        if is_secret_name(name) and not (found and all(b.kind == "loop" and is_textual(b.value, self.scope) for b in found)):
            kinds.add(secret_kind(name))  # (a loop over `expr.split()` or `tokenize(src)` yields lexical tokens, not credentials)
            detail = name
            if MAYBE_SECRET in kinds and found and all(b.kind == "loop" and over_credentials(b.value) for b in found):
                kinds = {SECRET}  # `for key, token in headers.items()`, `for token in api_tokens`
            if MAYBE_SECRET in kinds and found and all(b.kind == "param" and b.param is not None and b.param.credential for b in found):
                kinds = {SECRET}  # `x_token: str = Header()`, `@click.option("--token", hide_input=True)`
        elif found and all(b.kind == "param" and b.param is not None and b.param.credential for b in found):
            kinds.add(SECRET)  # a parameter declared a credential whatever its name: `validate_password(self, value)`
            detail = name
        if "retry_after" in low or low in ("wait", "delay", "backoff", "wait_s", "wait_seconds", "retry_in"):
            kinds.add(RETRY_AFTER)
        if len(found) == 1:
            binding = found[0]
            if binding.kind == "except":
                kinds.add(EXCEPTION)
                kinds |= caught_kinds(binding.caught)
                if URL in kinds and not any(secret_requests.request_carries_secret(self, c, depth) for c in binding.requests):
                    kinds.discard(URL)  # the HTTP error's text shows a URL with no secret the code put in it
                home = self._home_path_tried(binding, depth)
                if home:
                    kinds.add(HOME_PATH)
                    return frozenset(kinds), home
                return frozenset(kinds), detail or name
            if binding.kind == "param" and binding.param is not None:
                annotation = binding.param.annotation
                record = record_reprs.annotated_record(annotation, self.scope, self.qualify) if annotation else None
                if record:  # `allowed: list[UpstreamServer]`: each record's repr shows its `client_secret`
                    kinds.add(secret_kind(record.rsplit(".", 1)[1]))  # (a lexer's `token` field: maybe one)
                    detail = detail or f"whose repr shows `{record}`"
                if annotation and BOUNDED_ANNOTATION.match(annotation) and not kinds & SECRETS:
                    kinds.add(BOUNDED)
                elif annotation and UNBOUNDED_ANNOTATION.match(annotation):
                    kinds.add(SCHEMA if SCHEMA_NAME.search(low) else UNBOUNDED)
                elif "Error" in annotation or "Exception" in annotation:
                    kinds.add(EXCEPTION)
                    kinds |= caught_kinds((annotation,))
                handled = self._handled_classes(name)
                if handled:  # `@app.errorhandler(requests.HTTPError) def failed(err)`: `err` is one of those
                    kinds.add(EXCEPTION)
                    kinds |= caught_kinds(handled)
                    if URL in kinds and not self._module_request_secret(depth):
                        kinds.discard(URL)  # no request of the module puts a secret in its URL
        value = self.scope.value(name)
        if value is not None and name not in self._active:
            self._active.add(name)
            try:
                inner, inner_detail = self.classify(value, depth + 1)
            finally:
                self._active.discard(name)
            if kinds & SECRETS and not (inner & (SECRETS | {UNKNOWN})) and inner:
                kinds -= SECRETS  # e.g. hint = token[:4] + "...": the value is masked
            kinds |= inner - {UNKNOWN} if inner - {UNKNOWN} else inner
            detail = detail or inner_detail
        elif len(found) > 1 and name not in self._active:
            values = [b.value for b in found if b.kind in ("assign", "aug") and b.value is not None]
            self._active.add(name)
            try:
                for v in values[:MAX_VARIANTS]:
                    inner, _ = self.classify(v, depth + 1)
                    kinds |= inner & {UNBOUNDED, HOME_PATH, ENV_DUMP, TRACEBACK, VALIDATION, SCHEMA}
            finally:
                self._active.discard(name)
        if len(found) == 1 and found[0].origin == "settings":
            kinds |= {ENV_DUMP, UNBOUNDED}  # `from .config import settings`: a BaseSettings object
            detail = detail or name
        if not found or len(found) == 1 and found[0].kind == "import":
            qualified = self.qualify(expr)
            if qualified in ENV_NAMES:
                kinds |= {ENV_DUMP, UNBOUNDED}
                detail = detail or qualified
        if not kinds & {BOUNDED} and (STRONG_SCHEMA_NAME.search(low) or SCHEMA_NAME.search(low) and UNBOUNDED in kinds):
            kinds.add(SCHEMA)
        if not kinds and BOUNDED_NAME.search(low):
            kinds.add(BOUNDED)
        return frozenset(kinds or {UNKNOWN}), detail

    def _handled_classes(self, name: str) -> Tuple[str, ...]:
        """The exception classes the current function is registered to handle, when `name` is its
        last positional parameter (Flask's `handler(err)`, FastAPI's `handler(request, exc)`)."""
        func = getattr(self, "function", None)
        if func is None or func.node is None or not func.params or func.params[-1].name != name:
            return ()
        return next(iter(handled_types(func, lambda n: self.qualify(n) or nodes.dotted(n))), ())

    def _module_request_secret(self, depth: int) -> bool:
        """Some HTTP request of the module puts a secret in its URL or its `params` (read where it is
        written: a name it uses resolves in the handler's scope only when the module binds it)."""
        module = getattr(self, "module", None)
        for node in nodes.iter_expr(module, stop=()) if module is not None else ():
            call = secret_requests.request_call(node)
            if call is not None and secret_requests.request_carries_secret(self, call, depth + 1):
                return True
        return False

    def _request_carries_secret(self, node: cst.CSTNode, depth: int) -> bool:
        """The request behind `response`, `e.request` or `e.response` put a secret in its URL
        (`secret_requests.request_carries_secret`): the response's assigned request call, or the request
        calls in the `try` whose handler bound `e`."""
        while node.__class__ is cst.Attribute and node.attr.value in ("request", "response"):  # exact class tests: see `nodes`
            node = node.value
        if node.__class__ is not cst.Name or depth > 6:
            return False
        found = self.scope.lookup(node.value)
        calls = [c for b in found if b.kind == "except" for c in b.requests]
        calls += [c for c in (secret_requests.request_call(b.value) for b in found if b.kind == "assign") if c is not None]
        return any(secret_requests.request_carries_secret(self, call, depth) for call in calls)

    def _classify_attribute(self, expr: cst.Attribute, depth: int) -> Tuple[FrozenSet[str], str]:
        attr = expr.attr.value
        qualified = self.qualify(expr)
        base_kinds, base_detail = self.classify(expr.value, depth + 1)
        root = nodes.root_name(expr)
        if qualified in ENV_NAMES or qualified.startswith("os.environ"):
            return frozenset({ENV_DUMP, UNBOUNDED}), qualified
        if attr in HEADER_ATTRS:
            if is_response(expr.value, self.scope):
                # what a server answered (`response.headers`): its metadata, not the credentials a
                # request carries; still any size
                return frozenset({UNBOUNDED}), self.code(expr)
            return frozenset({ENV_DUMP, UNBOUNDED}), self.code(expr)
        if attr == "url" and (RESPONSE_ROOTS.match(root) or EXCEPTION in base_kinds or "request" in self.code(expr)):
            if self._request_carries_secret(expr.value, depth):
                return frozenset({URL}), self.code(expr)
            return frozenset({BOUNDED}), ""  # a URL the code requested with no secret in it
        if attr in SCHEMA_ATTRS:
            return frozenset({SCHEMA, UNBOUNDED}), self.code(expr)
        if attr == "__doc__":  # a function's or class's docstring: its help text
            return frozenset({SCHEMA}), self.code(expr)
        if attr == "message" and EXCEPTION in base_kinds:  # a requirement only from a validator that phrases one
            return frozenset({BOUNDED, HINT} if VALIDATION in base_kinds else {BOUNDED}), ""
        if attr in ("filename", "filename2") and EXCEPTION in base_kinds and HOME_PATH in base_kinds:
            return frozenset({HOME_PATH}), base_detail  # the home-directory path the OSError failed on
        if attr in ("status_code", "status", "code", "reason", "reason_phrase", "errno", "returncode", "__name__", "__qualname__", "name", "lineno", "path", "filename", "strerror", "method"):
            return frozenset({BOUNDED}), ""
        if attr == "args" and EXCEPTION in base_kinds:
            return frozenset({EXCEPTION}), base_detail
        if attr in UNBOUNDED_ATTRS and (RESPONSE_ROOTS.match(root) or EXCEPTION in base_kinds or attr in ("stdout", "stderr", "output", "__dict__")):
            if not (root == "sys" and attr in ("stdout", "stderr")):
                return frozenset({UNBOUNDED}), self.code(expr)
        if attr == "config" and nodes.dotted(expr.value) in ("app", "current_app", "flask.current_app") or attr in ("environ", "env_vars"):
            return frozenset({ENV_DUMP, UNBOUNDED}), self.code(expr)  # Flask's app.config holds SECRET_KEY
        kinds: Set[str] = set()
        detail = ""
        if is_secret_name(attr) and not (names_a_condition(attr) and _class_name(expr.value)):
            kind = secret_kind(attr)  # (`ErrorCode.LOGIN_BAD_CREDENTIALS` is a code)
            owner = nodes.last_name(expr.value)
            if kind == MAYBE_SECRET and owner and CONFIG_HOLDER.match(snake(owner)):
                kind = SECRET  # a setting named for a secret holds one (`settings.token`, `args.token`)
            elif kind == MAYBE_SECRET and owner and owner not in ("self", "cls"):
                # the object qualifies an ambiguous attribute: `session.token` is a session token,
                # `page_token.token` a page token
                kind = secret_kind(f"{snake(owner)}_{snake(attr)}")
            if kind:
                kinds.add(kind)
                detail = self.code(expr)
        if root == "self" and expr.value.__class__ is cst.Name and self.owner is not None and not kinds & SECRETS:
            # `self.settings` that `__init__` made of a record class showing a credential field
            shown = record_reprs.annotated_record(record_reprs.attribute_type(self.owner, attr, self.code), self.scope, self.qualify)
            if shown:
                kinds.add(secret_kind(shown.rsplit(".", 1)[1]))
                detail = detail or f"whose repr shows `{shown}`"
        low = snake(attr)
        if "retry_after" in low:
            kinds.add(RETRY_AFTER)
        if STRONG_SCHEMA_NAME.search(low):
            kinds.add(SCHEMA)
        if not kinds and BOUNDED_NAME.search(low):
            kinds.add(BOUNDED)
        if base_kinds & {HOME_PATH}:
            kinds.add(HOME_PATH)
        return frozenset(kinds or {UNKNOWN}), detail

    def _classify_subscript(self, expr: cst.Subscript, depth: int) -> Tuple[FrozenSet[str], str]:
        base_kinds, base_detail = self.classify(expr.value, depth + 1)
        if len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Slice):
            piece = expr.slice[0].slice
            upper = nodes.int_value(piece.upper) if piece.upper is not None else None
            lower = nodes.int_value(piece.lower) if piece.lower is not None else None
            if upper is not None and piece.lower is None and 0 <= upper <= 4:
                return frozenset({BOUNDED}), ""
            if lower is not None and piece.upper is None and -4 <= lower < 0:
                return frozenset({BOUNDED}), ""
            if upper is not None or lower is not None:
                return frozenset((base_kinds - {UNBOUNDED, SCHEMA, VALIDATION, TRACEBACK, ENV_DUMP}) | {BOUNDED}), base_detail
        key = nodes.last_name(expr)
        qualified = self.qualify(expr.value)
        kinds: Set[str] = set()
        detail = ""
        if qualified.startswith("os.environ") and key and secret_env_var(key):
            kinds.add(SECRET)  # an environment variable named for a secret holds one, by its origin
            detail = self.code(expr)
        elif key and key != nodes.last_name(expr.value) and is_secret_name(key):
            kinds.add(keyed_secret(expr.value, key))
            detail = self.code(expr)
        if base_kinds & {VALIDATION} and key == "msg":
            return frozenset({BOUNDED, HINT}), ""
        if base_kinds & {VALIDATION} and key in ("loc", "type", "input"):
            return frozenset({BOUNDED}), ""
        if base_kinds & {VALIDATION} and len(expr.slice) == 1 and nodes.int_value(getattr(expr.slice[0].slice, "value", None)) is not None:
            return base_kinds, base_detail
        if not kinds and relayed_error(expr):
            return frozenset({EXCEPTION, RELAYED}), ""
        if RELAYED in base_kinds and nodes.string_value(getattr(expr.slice[0].slice, "value", None)) is not None:
            # `reply["message"]["content"]`: a field of what the key held, so that was an object (a chat
            # message), not an upstream's error text; an error field of it was taken just above
            base_kinds = base_kinds - {EXCEPTION, RELAYED}
        if not kinds:
            kinds |= base_kinds & ({HOME_PATH, EXCEPTION} | SECRETS)  # `parts[1]` of a secret is one
        if not kinds and key and BOUNDED_NAME.search(snake(key)):
            kinds.add(BOUNDED)
        return frozenset(kinds or {UNKNOWN}), detail


# a schema written in the code is a dump from about 40 tokens on: `{"type": "array", "items": {"type":
# "string"}}` states what is allowed in a few tokens, a tool's input schema does not
SCHEMA_DUMP_CHARS = 160
# the keywords only a JSON Schema has (`properties` and `$schema` are also fields of records: a
# GeoJSON Feature's `properties`, a config file's `$schema` link to its schema)
SCHEMA_KEYWORDS = frozenset({"$defs", "$ref", "patternProperties", "additionalProperties", "oneOf", "anyOf", "allOf"})
JSON_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})
SUBSCHEMA_KEYS = frozenset({"type", "$ref", "enum", "items", "properties", "anyOf", "oneOf", "allOf", "const", "format", "pattern"})


def schema_shaped(expr: cst.Dict) -> bool:
    """A dict display that is a JSON Schema by what it holds: a keyword only schemas have (`$defs`,
    `oneOf`, `additionalProperties`, ...), `properties` whose values are all subschemas (dicts with
    `type` naming a JSON type, `$ref`, `enum`, `items`, ...), or `"type": "object"`/`"array"` beside
    `required` or `items`. A record with a `type` or `properties` field of data (a GeoJSON Feature, a
    Notion page) or a `$schema` link is no schema."""
    fields = nodes.dict_fields(expr)
    if SCHEMA_KEYWORDS & fields.keys():
        return True
    kind = nodes.string_value(fields.get("type"))
    if kind is not None and kind not in JSON_TYPES:
        return False  # `"type": "Feature"`, `"type": "page"`: a record's kind
    if kind in ("object", "array") and {"required", "items"} & fields.keys():
        return True
    properties = fields.get("properties")
    if not isinstance(properties, cst.Dict) or not properties.elements:
        return False
    return all(isinstance(e, cst.DictElement) and isinstance(e.value, cst.Dict) and _subschema(e.value) for e in properties.elements)


def _subschema(expr: cst.Dict) -> bool:
    fields = nodes.dict_fields(expr)
    if not SUBSCHEMA_KEYS & fields.keys():
        return False
    kind = fields.get("type")
    return kind is None or nodes.string_value(kind) in JSON_TYPES or nodes.literal_values(kind) is not None


def _union(a: FrozenSet[str], b: FrozenSet[str]) -> FrozenSet[str]:
    out = set(a) | set(b)
    if len(out) > 1:
        out.discard(UNKNOWN)
    if out & SECRETS or UNBOUNDED in out:
        out.discard(BOUNDED)
    return frozenset(out)


def _names_read(expr: cst.CSTNode) -> Set[str]:
    out: Set[str] = set()
    for node in nodes.iter_expr(expr):
        if isinstance(node, (cst.Name, cst.Attribute)):
            text = nodes.dotted(node)
            if text:
                out.add(text)
    return out


def _string_literal(node: cst.CSTNode) -> bool:
    """A string literal, implicit concatenation, or `("a" + "b")` of literals."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        return True
    return isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add) and _string_literal(node.left) and _string_literal(node.right)
