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
from . import nodes, value_origins
from .credential_evidence import keyed_secret, over_credentials
from .http_objects import is_response
from .value_names import (
    BOUNDED_ANNOTATION,
    BOUNDED_NAME,
    CONFIG_HOLDER,
    ENV_NAMES,
    HEADER_ATTRS,
    HOME_CALLS,
    HOME_LITERAL,
    MASKING,
    RESPONSE_ROOTS,
    SCHEMA_ATTRS,
    SCHEMA_METHODS,
    SCHEMA_NAME,
    STRONG_SCHEMA_NAME,
    TRACEBACK_CALLS,
    UNBOUNDED_ANNOTATION,
    UNBOUNDED_ATTRS,
    UNBOUNDED_CALLS,
    UNBOUNDED_METHODS,
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

# a receiver named for configuration: its two-string `get("auth", "type")` is (section, option)
CONFIG_RECEIVER = re.compile(r"(^|_)(conf|config|configuration|cfg|settings|parser|ini)$")
def _class_name(node: cst.CSTNode) -> bool:
    """A CamelCase class name (`ErrorCode`), not an instance (`settings`)."""
    name = nodes.last_name(node)
    return bool(name) and name[:1].isupper() and not name.isupper()


# an option name, not a default value (`config.get("api_key", "")`, `config.get("url", "http://x")`)
OPTION_KEY = re.compile(r"^[a-z_][a-z0-9_-]*$")

MAX_VARIANTS = 4
CAP_WORDS = re.compile(r"^_?[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*$")  # `SnowflakeSchema`, not `DEFAULT_SCHEMA`
MAX_DISPLAY_FIELDS = 8  # a dict/list written in the code with more fields than this is a dump
MAX_DEPTH = 8


class PlaceholderKinds:
    """The placeholder classification of `TemplateBuilder` (a mixin: it uses the builder's `scope`,
    `qualify`, `code`, `_active` and `_variants`)."""

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
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set, cst.Dict)):
            values = nodes.literal_values(expr)
            if values is not None and not (isinstance(expr, cst.Dict) and any(nodes.string_value(el.value) is None and nodes.number_text(el.value) is None for el in expr.elements)):
                return frozenset({BOUNDED, COLLECTION}), ""
            return self._display(expr, depth)
        if isinstance(expr, (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)):
            element = expr.elt if not isinstance(expr, cst.DictComp) else expr.value
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
        if len(elements) > MAX_DISPLAY_FIELDS or any(isinstance(el, (cst.StarredElement, cst.StarredDictElement)) for el in elements):
            return frozenset({UNBOUNDED}), ""
        carried: Set[str] = set()
        detail = ""
        for el in elements:
            inner, inner_detail = self.classify(el.value, depth + 1)
            carried |= inner & ({UNBOUNDED, SCHEMA, VALIDATION, ENV_DUMP, TRACEBACK, URL, HOME_PATH} | SECRETS)
            detail = detail or inner_detail
        if carried & {UNBOUNDED, SCHEMA, VALIDATION, ENV_DUMP, TRACEBACK}:
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
        if "retry_after" in low or low in ("wait", "delay", "backoff", "wait_s", "wait_seconds", "retry_in"):
            kinds.add(RETRY_AFTER)
        if len(found) == 1:
            binding = found[0]
            if binding.kind == "except":
                kinds.add(EXCEPTION)
                kinds |= caught_kinds(binding.caught)
                if URL in kinds and not any(value_origins.request_carries_secret(self, c, depth) for c in binding.requests):
                    kinds.discard(URL)  # the HTTP error's text shows a URL with no secret the code put in it
                home = self._home_path_tried(binding, depth)
                if home:
                    kinds.add(HOME_PATH)
                    return frozenset(kinds), home
                return frozenset(kinds), detail or name
            if binding.kind == "param" and binding.param is not None:
                annotation = binding.param.annotation
                if annotation and BOUNDED_ANNOTATION.match(annotation) and not kinds & SECRETS:
                    kinds.add(BOUNDED)
                elif annotation and UNBOUNDED_ANNOTATION.match(annotation):
                    kinds.add(SCHEMA if SCHEMA_NAME.search(low) else UNBOUNDED)
                elif "Error" in annotation or "Exception" in annotation:
                    kinds.add(EXCEPTION)
                    kinds |= caught_kinds((annotation,))
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
        if not found:
            qualified = self.qualify(expr)
            if qualified in ENV_NAMES:
                kinds |= {ENV_DUMP, UNBOUNDED}
                detail = detail or qualified
        if not kinds & {BOUNDED} and (STRONG_SCHEMA_NAME.search(low) or SCHEMA_NAME.search(low) and UNBOUNDED in kinds):
            kinds.add(SCHEMA)
        if not kinds and BOUNDED_NAME.search(low):
            kinds.add(BOUNDED)
        return frozenset(kinds or {UNKNOWN}), detail

    def _request_carries_secret(self, node: cst.CSTNode, depth: int) -> bool:
        """The request behind `response`, `e.request` or `e.response` put a secret in its URL
        (`value_origins.request_carries_secret`): the response's assigned request call, or the request
        calls in the `try` whose handler bound `e`."""
        while node.__class__ is cst.Attribute and node.attr.value in ("request", "response"):  # exact class tests: see `nodes`
            node = node.value
        if node.__class__ is not cst.Name or depth > 6:
            return False
        found = self.scope.lookup(node.value)
        calls = [c for b in found if b.kind == "except" for c in b.requests]
        calls += [c for c in (value_origins.request_call(b.value) for b in found if b.kind == "assign") if c is not None]
        return any(value_origins.request_carries_secret(self, call, depth) for call in calls)

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
        if not kinds:
            kinds |= base_kinds & ({HOME_PATH, EXCEPTION} | SECRETS)  # `parts[1]` of a secret is one
        if not kinds and key and BOUNDED_NAME.search(snake(key)):
            kinds.add(BOUNDED)
        return frozenset(kinds or {UNKNOWN}), detail

    def _classify_call(self, call: cst.Call, depth: int) -> Tuple[FrozenSet[str], str]:
        func = call.func
        qualified = self.qualify(func)
        short = nodes.last_name(func)
        args = nodes.positional_args(call)
        first = args[0] if args else None
        code = self.code(call) if len(self.code(func)) < 60 else short
        if MASKING.search(short.lower()) or short in ("len", "bool", "int", "float", "type", "id", "hash", "isinstance", "round", "abs", "sum", "min", "max", "ord", "hex"):
            return frozenset({BOUNDED}), ""
        if qualified in TRACEBACK_CALLS or short in ("format_exc", "format_exception", "format_tb", "format_stack"):
            return frozenset({TRACEBACK, UNBOUNDED}), code
        if qualified in HOME_CALLS or (short in ("home", "cwd") and nodes.dotted(func).endswith(("Path.home", "Path.cwd"))):
            return frozenset({HOME_PATH}), code
        if short in ("expanduser", "getcwd", "getcwdb") or qualified.endswith(("path.expanduser",)):
            return frozenset({HOME_PATH}), code
        if short == "join" and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Attribute) and nodes.dotted(func.value) in ("os.path", "posixpath", "ntpath"):
            kinds: Set[str] = set()
            for arg in args:
                kinds |= self.classify(arg, depth + 1)[0] & ({HOME_PATH} | SECRETS)
            return frozenset(kinds or {BOUNDED}), code if kinds else ""
        if qualified in ("textwrap.shorten", "reprlib.repr", "shorten", "difflib.get_close_matches", "get_close_matches"):
            return frozenset({BOUNDED}), ""
        if short in SCHEMA_METHODS or qualified.endswith(".model_json_schema"):
            return frozenset({SCHEMA, UNBOUNDED}), code
        if (qualified in ("json.dumps", "dumps") or short == "dumps") and isinstance(first, (cst.Dict, cst.List, cst.Tuple)):
            inner_kinds, inner_detail = self.classify(first, depth + 1)  # a literal display: as big as its fields
            return (inner_kinds, inner_detail) if UNBOUNDED not in inner_kinds else (inner_kinds, code)
        if qualified in ("json.dumps", "json.dump", "dumps") or short == "dumps":
            inner = first if first is not None else call
            low = snake(nodes.last_name(inner) or "")
            if SCHEMA_NAME.search(low):
                return frozenset({SCHEMA, UNBOUNDED}), code
            inner_kinds = self.classify(inner, depth + 1)[0] if first is not None else frozenset()
            return frozenset({UNBOUNDED} | (inner_kinds & ({SCHEMA, ENV_DUMP, VALIDATION} | SECRETS))), code
        if qualified in UNBOUNDED_CALLS or short in ("pformat", "safe_dump"):
            kinds = {UNBOUNDED}
            if short in ("locals", "globals", "vars"):
                kinds.add(ENV_DUMP)
                if short == "vars" and first is not None and not re.search(r"setting|config|env", self.code(first), re.I):
                    kinds.discard(ENV_DUMP)
            return frozenset(kinds), code
        if short in ("str", "repr", "format", "ascii") and first is not None:
            inner, detail = self.classify(first, depth + 1)
            if short == "repr" and not inner & ({EXCEPTION, BOUNDED, HOME_PATH, URL} | SECRETS):
                return frozenset(inner | {UNBOUNDED}), detail or code
            if short == "repr" and inner & {EXCEPTION}:
                return inner, detail
            return inner, detail
        if short == "dict" and first is not None:
            inner, detail = self.classify(first, depth + 1)
            return frozenset(inner | {UNBOUNDED}), detail or code
        if short in ("list", "sorted", "set", "tuple"):
            inner, detail = self.classify(first, depth + 1) if first is not None else (frozenset(), "")
            if inner & {COLLECTION}:
                return inner, detail
            if first is not None and nodes.last_name(first).isupper():
                return frozenset({BOUNDED, COLLECTION}), ""  # list(SUPPORTED_VERSIONS): a constant
            if inner & {UNBOUNDED, ENV_DUMP, VALIDATION, SCHEMA}:
                return frozenset({UNBOUNDED} | (inner & ({ENV_DUMP, VALIDATION, SCHEMA} | SECRETS))), code
            return frozenset({COLLECTION, UNKNOWN}), ""  # a computed list of names: size unknown, not a dump
        if short == "join" and isinstance(func, cst.Attribute) and nodes.string_value(func.value) is not None:
            separator = nodes.string_value(func.value) or ""
            if first is not None and not re.search(r"[,\n|;]|\bor\b|\band\b", separator):
                iterable = first.for_in.iter if isinstance(first, (cst.GeneratorExp, cst.ListComp)) else first
                inner, _ = self.classify(iterable, depth + 1)
                if not inner & {UNBOUNDED, SCHEMA, VALIDATION, ENV_DUMP}:
                    return frozenset({BOUNDED}), ""
            if first is not None and nodes.literal_values(first) is not None:
                return frozenset({BOUNDED, COLLECTION}), ""
            if first is not None:
                inner, _ = self.classify(first, depth + 1)
                if COLLECTION in inner:
                    return frozenset({BOUNDED, COLLECTION}), ""
                if isinstance(first, (cst.GeneratorExp, cst.ListComp)) and isinstance(first.for_in.iter, cst.Name):
                    inner, _ = self.classify(first.for_in.iter, depth + 1)
                    if COLLECTION in inner:
                        return frozenset({BOUNDED, COLLECTION}), ""
            return frozenset({UNBOUNDED, COLLECTION}), code
        if short in ("getenv",) or qualified in ("os.getenv", "os.environ.get"):
            key = nodes.string_value(first)
            if key and secret_env_var(key):
                return frozenset({SECRET}), code
            if len(args) > 1:
                default, detail = self.classify(args[1], depth + 1)
                if default & {HOME_PATH, SECRET}:
                    return default & {HOME_PATH, SECRET}, detail
            return frozenset({BOUNDED}), ""
        if relayed_error(call):
            return frozenset({EXCEPTION, RELAYED}), code
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            base, detail = self.classify(func.value, depth + 1)
            if method in ("errors", "json") and base & {VALIDATION}:
                return frozenset({VALIDATION, UNBOUNDED}), self.code(func.value)
            if method == "get" and first is not None:
                key = nodes.string_value(first)
                option = nodes.string_value(args[1]) if len(args) > 1 else None
                if option and OPTION_KEY.match(option) and CONFIG_RECEIVER.search(snake(nodes.last_name(func.value) or "")):
                    # ConfigParser.get(section, option): the option names the value; a section named
                    # for a secret (`get("credentials", "openai")`) holds secrets unless the option
                    # says what else it is (`get("auth", "type")`)
                    if not (key and is_secret_name(key)) or not is_secret_name("secret_" + option):
                        key = option
                if base & {ENV_DUMP} and key:
                    if secret_env_var(key):
                        return frozenset({SECRET}), code
                    default = self.classify(args[1], depth + 1) if len(args) > 1 else (frozenset(), "")
                    if default[0] & {HOME_PATH, SECRET}:
                        return default[0] & {HOME_PATH, SECRET}, default[1]
                    return frozenset({BOUNDED}), ""
                if key and key.lower() == "retry-after":
                    return frozenset({RETRY_AFTER, BOUNDED}), ""
                if key and is_secret_name(key):
                    return frozenset({keyed_secret(func.value, key)}), code
            if method in UNBOUNDED_METHODS and (RESPONSE_ROOTS.match(nodes.root_name(func.value)) or method in ("model_dump", "model_dump_json", "read", "readlines", "read_text", "getvalue", "to_dict", "as_dict")):
                return frozenset({UNBOUNDED}), code
            if method in ("split", "rsplit", "partition", "rpartition") and base & SECRETS:
                return base & SECRETS, detail  # the pieces of a secret (`header.split(" ", 1)[-1]`)
            if method in ("decode", "strip", "rstrip", "lstrip", "upper", "lower", "replace", "title", "capitalize", "removeprefix", "removesuffix", "encode"):
                return base, detail
            if method == "iter_errors":
                return frozenset({VALIDATION, UNBOUNDED}), code
            if method == "keys":
                return frozenset({COLLECTION, UNKNOWN}), ""  # the names, not the (maybe secret) values
            if method in ("split", "splitlines", "items", "values"):
                return base, detail
        if short in ("now", "utcnow", "today", "time", "monotonic", "perf_counter", "uuid4", "getpid"):
            return frozenset({BOUNDED}), ""
        if short and short[:1].isupper() and qualified.endswith("Path"):
            kinds = set()
            for arg in args:
                kinds |= self.classify(arg, depth + 1)[0] & {HOME_PATH}
            return frozenset(kinds or {BOUNDED}), code if kinds else ""
        return frozenset({UNKNOWN}), ""


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
