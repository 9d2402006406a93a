"""String expressions -> `Template`s: literal text plus typed placeholders (design/rules.md section 3).

Handles literals, implicit concatenation, f-strings (PEP 701 included), `%` formatting, `.format`,
`+`, gettext wrappers, names bound once in the same scope (EM101-style `msg = ...; raise X(msg)`),
module constants, and fallbacks (`x or "text"`, `d.get(k, "text")`, `a if c else b`), which give one
template per alternative ("variants"). Placeholders are classified by what they may contain.
"""
from __future__ import annotations

import re
from typing import Callable, FrozenSet, List, Optional, Sequence, Set, Tuple

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
    SCHEMA,
    SECRET,
    TRACEBACK,
    UNBOUNDED,
    UNKNOWN,
    URL,
    VALIDATION,
    Part,
    Piece,
    Placeholder,
    Template,
)
from . import nodes
from . import value_origins  # HOOK(value_origins)
from .scope import Scope

MAX_VARIANTS = 4
MAX_DISPLAY_FIELDS = 8  # a dict/list written in the code with more fields than this is a dump
MAX_DEPTH = 8

GETTEXT = {"_", "gettext", "gettext_lazy", "ugettext", "ugettext_lazy", "gettext_noop", "N_", "_lazy", "lazy_gettext"}
GETTEXT_SECOND = {"pgettext", "pgettext_lazy", "npgettext"}
GETTEXT_FIRST_OF_PLURAL = {"ngettext", "ngettext_lazy", "ungettext"}

SECRET_NAME = re.compile(
    r"(^|_)(api_?key|apikey|token|secret|passw(or)?d|pwd|passphrase|private_?key|client_?secret|access_?key|"
    r"auth(orization)?|bearer|cookie|session_?id|credentials?|creds|dsn|database_url|conn(ection)?_?str(ing)?|"
    r"signature)($|_)"
)
SECRET_ALLOW = re.compile(
    r"(_count|_limit|_len|_length|_type|_name|_budget|_used|_url|_uri|_path|_file|_dir|_env|_var|_header|_field|"
    r"_endpoint|_use|_format|_claim|_scopes?|_method|_mode|_status|_version|(?<!session)_id|_ids|_exists|_required|"
    r"_id_?name|_kind|_scheme|_expiry|_expires(_at)?|_ttl|_hint|_prefix|_suffix|_mask(ed)?|_masked|_preview)$"
    r"|^(max_|min_|num_|n_|has_|is_|use_|needs?_|requires?_|missing_|no_|valid_)"
    r"|(^|_)(page|next|continuation|pagination|sync|cursor)_token($|_)"
    # names that say they hold an error or a message about the secret, not the secret
    r"|_(error|errors|err|msg|message|messages|reason|exc|exception|failure|problem|warning|description)$"
)
MASKING = re.compile(r"mask|redact|obfuscat|anonymi|censor|scrub|sanitiz|hash|sha\d*|digest|fingerprint|len$|bool$|shorten|truncat|preview|hint")
BOUNDED_NAME = re.compile(
    r"(^|_)(id|ids|uuid|name|path|status|code|count|index|idx|port|host|hostname|version|kind|type|mode|"
    r"key|slug|region|zone|label|level|size|limit|offset|page|num|number|total|line|lineno|col|column|row|"
    r"attempt|attempts|retries|timeout|seconds|secs|ms|minutes|url_path|field|param|option|flag|cmd|command|"
    r"method|format|fmt|ext|suffix|prefix|tool|tool_name|arg|argument|char|lang|locale|unit|amount|cents|"
    r"expected|got|actual|value_type|year|month|day|date|time|ts|timestamp|bucket|table|column_name|branch|"
    r"ref|sha|tag|owner|repo|user|username|email|domain|filename|dirname|file|dir|directory|op|operation|action|"
    r"state|phase|step|stage|role|scope|env|environment|profile|channel|queue|topic|cursor|alias|"
    r"min|max|low|high|lo|hi|n|i|j|k|x|y|width|height|depth|ratio|percent|pct|score|rank|priority|"
    r"qty|quantity|length|start|end|begin|stop)$"
)
BOUNDED_ANNOTATION = re.compile(
    r"^(Optional\[)?(int|bool|float|complex|Decimal|UUID|uuid\.UUID|date|datetime|time|timedelta|"
    r"datetime\.\w+|Path|PurePath|pathlib\.Path|Literal\[.*\]|[A-Z]\w*(Enum|Kind|Type|Mode|Status|State|Level))"
    r"(\])?(\s*\|\s*None)?$"
)
UNBOUNDED_ANNOTATION = re.compile(r"^(Optional\[)?(dict|list|set|frozenset|tuple|Dict|List|Set|Mapping|Sequence|Iterable|bytes|BaseModel|Model)\b")
SCHEMA_NAME = re.compile(r"(^|_)(schema|schemas|spec|specs|openapi|definition|definitions|inputschema)$")
# "spec" and "definition" are as often short strings ("a:b".split(",")): they need unbounded evidence
STRONG_SCHEMA_NAME = re.compile(r"(^|_)(schema|schemas|openapi|inputschema)$")
UNBOUNDED_CALLS = {
    "json.dumps", "json.dump", "pprint.pformat", "pformat", "yaml.dump", "yaml.safe_dump", "vars", "locals",
    "globals", "dir", "json.load", "json.loads", "toml.dumps", "tomli_w.dumps", "pickle.dumps", "dumps",
}
UNBOUNDED_METHODS = {"model_dump", "dict", "model_dump_json", "read", "readlines", "json", "to_dict", "as_dict", "asdict", "items", "values", "keys", "read_text", "getvalue", "dump"}
UNBOUNDED_ATTRS = {"text", "content", "body", "stdout", "stderr", "output", "__dict__", "raw", "data", "payload", "html", "params", "kwargs", "args_dict", "headers"}
RESPONSE_ROOTS = re.compile(r"^(r|res|resp|response|result|reply|proc|process|completed|cp|run|out|e|err|exc|error|ex|http_response|api_response|req|request)$")
SCHEMA_METHODS = {"model_json_schema", "schema", "schema_json", "json_schema", "format_help", "get_help", "print_help", "openapi"}
SCHEMA_ATTRS = {"inputSchema", "input_schema", "outputSchema", "output_schema", "json_schema", "openapi_schema", "args_schema"}
TRACEBACK_CALLS = {
    "traceback.format_exc", "traceback.format_exception", "traceback.format_tb", "traceback.format_stack",
    "traceback.print_exc", "traceback.format_exception_only",
}
# Calls whose result is under the account's home directory or the server's working directory. A
# resolved user-given path (`Path(p).resolve()`) is not: it is the value the caller sent.
HOME_CALLS = {"os.path.expanduser", "os.getcwd", "os.getcwdb", "pathlib.Path.home", "pathlib.Path.cwd", "Path.home", "Path.cwd"}
ENV_NAMES = {"os.environ", "os.environ.copy", "environ", "os.environ.items"}
HEADER_ATTRS = {"headers"}
VALIDATION_TYPES = ("ValidationError", "ValidationErrors", "SchemaError", "JSONSchemaValidationError")
HTTP_ERROR_TYPES = (
    "requests.HTTPError", "requests.exceptions.HTTPError", "requests.RequestException",
    "requests.exceptions.RequestException", "httpx.HTTPStatusError", "httpx.HTTPError",
    "urllib.error.HTTPError", "aiohttp.ClientResponseError",
)
# Keys under which an upstream (an API's JSON body, a subprocess result, a worker's outcome) reports
# its own error text: `result.get("error", "Unknown error")` relays that text, and the default is
# only a fallback for when the upstream says nothing.
ERROR_KEY = re.compile(r"^(?:error|errors|err|error_?message|error_?msg|error_?description|error_?detail|message|msg|detail|details|reason|fault|faultstring)$", re.I)
PROSE_NAME = re.compile(r"(^|_)(msg|message|messages|hint|hints|text|detail|details|reason|suffix|prefix|help|note|notes|description|tip|advice|explanation|extra|info|remedy|guidance|instructions?)$")


def snake(name: str) -> str:
    """camelCase -> camel_case, lower-cased, for matching identifier lexicons."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def is_secret_name(name: str) -> bool:
    """True for identifiers that name a secret value (detect-secrets' keyword idea, design section 3)."""
    low = snake(name)
    return bool(SECRET_NAME.search(low)) and not SECRET_ALLOW.search(low)


class TemplateBuilder:
    """Builds templates for expressions in one scope.

    `qualify(node)` maps a Name/Attribute to its imported dotted name ("" when it is not a name);
    `scope` resolves local and module names.
    """

    def __init__(self, scope: Scope, qualify: Callable[[cst.CSTNode], str], code: Callable[[cst.CSTNode], str]):
        self.scope = scope
        self.qualify = qualify
        self.code = code
        self._active: Set[str] = set()

    # ------------------------------------------------------------------ templates
    def build(self, expr: Optional[cst.CSTNode], depth: int = 0) -> List[Template]:
        """All templates `expr` may produce (at most MAX_VARIANTS), opaque ones included."""
        if expr is None:
            return []
        variants = self._variants(expr, depth, top=True)
        return variants[:MAX_VARIANTS]

    def _variants(self, expr: cst.CSTNode, depth: int, top: bool = False) -> List[Template]:
        if depth > MAX_DEPTH:
            return [self._opaque(expr, top, depth)]
        if isinstance(expr, cst.SimpleString):
            value = nodes.string_value(expr)
            if value is None:
                value = nodes.bytes_text(expr)
            if value is None:
                return [self._opaque(expr, top, depth)]
            return [Template((value,), (Piece(value, expr, "plain"),), True, expr, "plain")]
        if isinstance(expr, cst.ConcatenatedString):
            return self._concat(self._flatten_concat(expr), depth)
        if isinstance(expr, cst.FormattedString):
            return self._fstring(expr, depth)
        if isinstance(expr, cst.BinaryOperation):
            if isinstance(expr.operator, cst.Add):
                return self._concat(self._flatten_add(expr), depth, strict=True)
            if isinstance(expr.operator, cst.Modulo):
                fmt = self._variants(expr.left, depth + 1)
                if fmt and fmt[0].complete and fmt[0].pieces and not fmt[0].placeholders:
                    return [percent_template(fmt[0], self._percent_args(expr.right), self)]
        if isinstance(expr, cst.Call):
            built = self._call(expr, depth)
            if built is not None:
                return built
        if isinstance(expr, cst.Name):
            resolved = self._resolve_name(expr, depth)
            if resolved is not None:
                return resolved
        if isinstance(expr, cst.IfExp):
            return (self._variants(expr.body, depth + 1, top) + self._variants(expr.orelse, depth + 1, top))[:MAX_VARIANTS]
        if isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.Or):
            if relayed_error(expr.left):  # `outcome.get("error") or "Unknown error"`: the default is a fallback
                return (self._variants(expr.left, depth + 1, top) + [as_fallback(t) for t in self._variants(expr.right, depth + 1, top)])[:MAX_VARIANTS]
            return (self._variants(expr.left, depth + 1, top) + self._variants(expr.right, depth + 1, top))[:MAX_VARIANTS]
        return [self._opaque(expr, top, depth)]

    def _opaque(self, expr: cst.CSTNode, top: bool, depth: int = 0) -> Template:
        """A template that is one placeholder; incomplete when it may carry prose we cannot see."""
        holder = self.placeholder(expr, depth=depth)
        complete = not top and not PROSE_NAME.search(snake(nodes.last_name(expr) or "x"))
        if top and holder.kinds & {EXCEPTION, VALIDATION, TRACEBACK, SCHEMA, UNBOUNDED, ENV_DUMP}:
            complete = True  # we know what it is: the exception's own text, a dump, ...
        return Template((holder,), (), complete)

    def _flatten_concat(self, expr: cst.ConcatenatedString) -> List[cst.CSTNode]:
        out: List[cst.CSTNode] = []
        stack: List[cst.CSTNode] = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.ConcatenatedString):
                stack.append(node.right)
                stack.append(node.left)
            else:
                out.append(node)
        return out

    def _flatten_add(self, expr: cst.BinaryOperation) -> List[cst.CSTNode]:
        out: List[cst.CSTNode] = []
        stack: List[cst.CSTNode] = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add) and (node is expr or not node.lpar):
                stack.append(node.right)
                stack.append(node.left)
            else:
                out.append(node)
        return out

    def _concat(self, operands: Sequence[cst.CSTNode], depth: int, strict: bool = False) -> List[Template]:
        """Join the templates of `operands`; with `strict`, require at least one string operand."""
        results: List[Template] = [Template((), (), True)]
        saw_string = False
        for operand in operands:
            if isinstance(operand, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
                saw_string = True
                options = self._variants(operand, depth + 1)
            else:
                options = self._variants(operand, depth + 1)
                if any(t.pieces for t in options):
                    saw_string = True
            results = [join(a, b) for a in results for b in options][:MAX_VARIANTS]
        if strict and not saw_string:
            return [Template((self.placeholder(operands[0]),), (), False)]
        return results

    def _fstring(self, expr: cst.FormattedString, depth: int) -> List[Template]:
        """One template per combination of the alternatives of names inlined into the f-string."""
        variants: List[Tuple[List[Part], List[Piece], bool, bool]] = [([], [], True, False)]
        prefix = expr.prefix
        for part in expr.parts:
            if isinstance(part, cst.FormattedStringText):
                text = nodes.fstring_text(part, prefix, expr.quote)
                piece = Piece(text, part, "f", expr)
                variants = [(parts + [text], pieces + [piece], ok, fb) for parts, pieces, ok, fb in variants]
                continue
            if not isinstance(part, cst.FormattedStringExpression):
                continue
            inner = part.expression
            conversion = part.conversion or ""
            spec = self.code(cst.FormattedString(parts=part.format_spec)) if part.format_spec else ""
            inline = None
            if isinstance(inner, cst.Name) and not conversion and not spec and part.equal is None and not is_secret_name(inner.value):
                inline = self._resolve_name(inner, depth + 1)
            if inline and any(t.pieces for t in inline) and all(t.complete for t in inline):
                variants = [
                    (parts + list(t.parts), pieces + list(t.pieces), ok and t.complete, fb or t.fallback)
                    for parts, pieces, ok, fb in variants
                    for t in inline
                ][:MAX_VARIANTS]
                continue
            holder = self.placeholder(inner, conversion=conversion, spec=spec, debug=part.equal is not None, depth=depth + 1)
            if not conversion and isinstance(inner, (cst.Name, cst.Attribute)) and PROSE_NAME.search(snake(nodes.last_name(inner))) and holder.kinds <= {UNKNOWN}:
                variants = [(parts, pieces, False, fb) for parts, pieces, _, fb in variants]  # `{message}`: prose we cannot see
            variants = [(parts + [holder], pieces, ok, fb) for parts, pieces, ok, fb in variants]
        return [Template(tuple(merge_text(parts)), tuple(pieces), ok, expr, "f", fb) for parts, pieces, ok, fb in variants]

    def _json_literal(self, node: cst.CSTNode, depth: int) -> Template:
        """`json.dumps({...})` of a literal: the JSON text with each value's own template inside."""
        if depth > MAX_DEPTH:
            return Template((self.placeholder(node),), (), True)
        if isinstance(node, cst.Dict):
            out = Template(("{",), (), True)
            for i, el in enumerate(node.elements):
                if not isinstance(el, cst.DictElement):
                    out = join(out, Template((self.placeholder(el.value),), (), True))
                    continue
                key = nodes.string_value(el.key)
                label = f'"{key}": ' if key is not None else ""
                out = join(out, Template(((", " if i else "") + label,), (), True))
                out = join(out, self._json_value(el.value, depth))
            return join(out, Template(("}",), (), True))
        out = Template(("[",), (), True)
        for i, el in enumerate(node.elements):
            if i:
                out = join(out, Template((", ",), (), True))
            out = join(out, self._json_value(el.value, depth))
        return join(out, Template(("]",), (), True))

    def _json_value(self, value: cst.CSTNode, depth: int) -> Template:
        if isinstance(value, (cst.Dict, cst.List)):
            return self._json_literal(value, depth + 1)
        if isinstance(value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
            inner = self._variants(value, depth + 1)[0]
            return join(join(Template(('"',), (), True), inner), Template(('"',), (), True))
        return Template((self.placeholder(value),), (), True)

    def _percent_args(self, right: cst.CSTNode) -> object:
        if isinstance(right, cst.Tuple):
            return [el.value for el in right.elements if not isinstance(el, cst.StarredElement)]
        if isinstance(right, cst.Dict):
            out = {}
            for el in right.elements:
                if isinstance(el, cst.DictElement):
                    key = nodes.string_value(el.key)
                    if key is not None:
                        out[key] = el.value
            return out
        return [right]

    def _call(self, call: cst.Call, depth: int) -> Optional[List[Template]]:
        func = call.func
        name = nodes.dotted(func)
        short = name.rsplit(".", 1)[-1]
        args = nodes.positional_args(call)
        if short in GETTEXT and args:
            return self._variants(args[0], depth + 1)
        if short in GETTEXT_FIRST_OF_PLURAL and args:
            return self._variants(args[0], depth + 1)
        if short in GETTEXT_SECOND and len(args) > 1:
            return self._variants(args[1], depth + 1)
        if isinstance(func, cst.Attribute) and func.attr.value == "format":
            base = self._variants(func.value, depth + 1) if isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString, cst.Name)) else []
            if base and base[0].pieces and not base[0].placeholders:
                return [format_template(base[0], call, self)]
        if (name in ("json.dumps", "dumps") or short == "dumps") and args and isinstance(args[0], (cst.Dict, cst.List)):
            return [self._json_literal(args[0], depth + 1)]
        if name == "str" and len(args) == 1 and isinstance(args[0], (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
            return self._variants(args[0], depth + 1)
        if relayed_error(call):
            main = Template((self.placeholder(call, depth=depth + 1),), (), True)
            return [main] + [as_fallback(t) for t in self._variants(args[1], depth + 1)] if len(args) >= 2 else [main]
        if (isinstance(func, cst.Attribute) and func.attr.value in ("get", "getenv", "pop", "setdefault") or name in ("os.getenv", "getenv")) and len(args) >= 2:
            fallback = self._variants(args[1], depth + 1)
            if any(t.pieces and t.literal.strip() for t in fallback):  # an empty default is not a message
                return [Template((self.placeholder(call),), (), True)] + fallback
        if isinstance(func, cst.Attribute) and func.attr.value in ("strip", "rstrip", "lstrip", "capitalize", "upper", "lower", "title") and not args:
            return self._variants(func.value, depth + 1)
        if isinstance(func, cst.Attribute) and func.attr.value in ("encode", "decode") and len(call.args) <= 2 and isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return self._variants(func.value, depth + 1)  # `"text".encode()`: the same words, as bytes
        return None

    def _resolve_name(self, expr: cst.Name, depth: int) -> Optional[List[Template]]:
        name = expr.value
        if name in self._active:
            return None
        value = self.scope.value(name)
        if value is None:
            return None
        self._active.add(name)
        try:
            variants = self._variants(value, depth + 1)
            for extra in self.scope.additions(name):
                more = self._variants(extra, depth + 1)
                variants = [join(a, b) for a in variants for b in more][:MAX_VARIANTS]
            if not any(t.pieces for t in variants):
                return None
            return variants
        finally:
            self._active.discard(name)

    # ------------------------------------------------------------------ placeholders
    def placeholder(self, expr: cst.CSTNode, conversion: str = "", spec: str = "", debug: bool = False, depth: int = 0) -> Placeholder:
        kinds, detail = self.classify(expr, depth)
        if spec and re.search(r"\.\d+", spec) and not kinds & {SECRET}:
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
        origin = value_origins.classify(self, expr, depth)  # HOOK(value_origins): where a value comes from decides first
        if origin is not None:  # HOOK(value_origins)
            return origin  # HOOK(value_origins)
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
            return (frozenset({UNBOUNDED}), detail) if inner & {UNBOUNDED, SECRET, ENV_DUMP} else (frozenset({UNKNOWN}), "")
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
            carried |= inner & {UNBOUNDED, SCHEMA, VALIDATION, ENV_DUMP, TRACEBACK, SECRET, URL, HOME_PATH}
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
            if template.literal and _HOME_LITERAL.search(template.literal):
                kinds.add(HOME_PATH)
                detail = detail or _HOME_LITERAL.search(template.literal).group(0)
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
        kinds: Set[str] = set()
        detail = ""
        if is_secret_name(name) and not (found and all(b.kind == "loop" and _textual(b.value, self.scope) for b in found)):
            kinds.add(SECRET)  # (a loop over `expr.split()` or `tokenize(src)` yields lexical tokens, not credentials)
            detail = name
        if "retry_after" in low or low in ("wait", "delay", "backoff", "wait_s", "wait_seconds", "retry_in"):
            kinds.add(RETRY_AFTER)
        if len(found) == 1:
            binding = found[0]
            if binding.kind == "except":
                kinds.add(EXCEPTION)
                kinds |= _caught_kinds(binding.caught)
                home = self._home_path_tried(binding, depth)
                if home:
                    kinds.add(HOME_PATH)
                    return frozenset(kinds), home
                return frozenset(kinds), detail or name
            if binding.kind == "param" and binding.param is not None:
                annotation = binding.param.annotation
                if annotation and BOUNDED_ANNOTATION.match(annotation) and SECRET not in kinds:
                    kinds.add(BOUNDED)
                elif annotation and UNBOUNDED_ANNOTATION.match(annotation):
                    kinds.add(SCHEMA if SCHEMA_NAME.search(low) else UNBOUNDED)
                elif "Error" in annotation or "Exception" in annotation:
                    kinds.add(EXCEPTION)
                    kinds |= _caught_kinds((annotation,))
        value = self.scope.value(name)
        if value is not None and name not in self._active:
            self._active.add(name)
            try:
                inner, inner_detail = self.classify(value, depth + 1)
            finally:
                self._active.discard(name)
            if SECRET in kinds and not (inner & {SECRET, UNKNOWN}) and inner:
                kinds.discard(SECRET)  # e.g. hint = token[:4] + "...": the value is masked
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

    def _classify_attribute(self, expr: cst.Attribute, depth: int) -> Tuple[FrozenSet[str], str]:
        attr = expr.attr.value
        qualified = self.qualify(expr)
        base_kinds, base_detail = self.classify(expr.value, depth + 1)
        root = nodes.root_name(expr)
        if qualified in ENV_NAMES or qualified.startswith("os.environ"):
            return frozenset({ENV_DUMP, UNBOUNDED}), qualified
        if attr in HEADER_ATTRS:
            return frozenset({ENV_DUMP, UNBOUNDED}), self.code(expr)
        if attr == "url" and (RESPONSE_ROOTS.match(root) or EXCEPTION in base_kinds or "request" in self.code(expr)):
            return frozenset({URL}), self.code(expr)
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
        if is_secret_name(attr):
            kinds.add(SECRET)
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
        if key and key != nodes.last_name(expr.value) and is_secret_name(key):
            kinds.add(SECRET)
            detail = self.code(expr)
        elif qualified.startswith("os.environ") and key and is_secret_name(key):
            kinds.add(SECRET)
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
            kinds |= base_kinds & {HOME_PATH, EXCEPTION}
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
                kinds |= self.classify(arg, depth + 1)[0] & {HOME_PATH, SECRET}
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
            return frozenset({UNBOUNDED} | (inner_kinds & {SCHEMA, SECRET, ENV_DUMP, VALIDATION})), code
        if qualified in UNBOUNDED_CALLS or short in ("pformat", "safe_dump"):
            kinds = {UNBOUNDED}
            if short in ("locals", "globals", "vars"):
                kinds.add(ENV_DUMP)
                if short == "vars" and first is not None and not re.search(r"setting|config|env", self.code(first), re.I):
                    kinds.discard(ENV_DUMP)
            return frozenset(kinds), code
        if short in ("str", "repr", "format", "ascii") and first is not None:
            inner, detail = self.classify(first, depth + 1)
            if short == "repr" and not inner & {EXCEPTION, BOUNDED, SECRET, HOME_PATH, URL}:
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
                return frozenset({UNBOUNDED} | (inner & {ENV_DUMP, SECRET, VALIDATION, SCHEMA})), code
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
            if key and is_secret_name(key):
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
                if base & {ENV_DUMP} and key:
                    if is_secret_name(key):
                        return frozenset({SECRET}), code
                    default = self.classify(args[1], depth + 1) if len(args) > 1 else (frozenset(), "")
                    if default[0] & {HOME_PATH, SECRET}:
                        return default[0] & {HOME_PATH, SECRET}, default[1]
                    return frozenset({BOUNDED}), ""
                if key and key.lower() == "retry-after":
                    return frozenset({RETRY_AFTER, BOUNDED}), ""
                if key and is_secret_name(key):
                    return frozenset({SECRET}), code
            if method in UNBOUNDED_METHODS and (RESPONSE_ROOTS.match(nodes.root_name(func.value)) or method in ("model_dump", "model_dump_json", "read", "readlines", "read_text", "getvalue", "to_dict", "as_dict")):
                return frozenset({UNBOUNDED}), code
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


_HOME_LITERAL = re.compile(r"(?<![\w.])(/home/[A-Za-z0-9._-]+|/Users/[A-Za-z0-9._-]+|[A-Za-z]:\\\\?Users\\\\?[A-Za-z0-9._-]+)")


# Exceptions whose text names the file they failed on (OSError's subclasses and aliases), and the
# handlers broad enough to catch them.
OS_ERRORS = {
    "OSError", "IOError", "EnvironmentError", "FileNotFoundError", "FileExistsError", "PermissionError",
    "IsADirectoryError", "NotADirectoryError", "Exception", "BaseException", "",
}


def catches_os_error(types: Sequence[str]) -> bool:
    """True when an `except` clause over `types` catches an OSError ("" is a bare `except:`)."""
    return any(t.rsplit(".", 1)[-1] in OS_ERRORS and t.split(".", 1)[0] in (t, "builtins") for t in types)


TEXT_SPLITTERS = {"split", "rsplit", "splitlines", "tokenize", "generate_tokens", "findall", "finditer", "split_tokens", "lex", "tokens", "words", "strip"}


def _textual(node: Optional[cst.CSTNode], scope: Scope, depth: int = 0) -> bool:
    """An iterable of pieces of text (`expr.split()`, `tokenize(src)`, `enumerate(re.findall(...))`,
    a literal list of strings): what a loop over it binds is a lexical token, not a credential."""
    if node is None or depth > 3:
        return False
    if isinstance(node, cst.Call):
        name = nodes.last_name(node.func)
        if name in ("enumerate", "sorted", "reversed", "list", "set", "tuple", "iter", "zip") and node.args:
            return _textual(node.args[0].value, scope, depth + 1)
        return name in TEXT_SPLITTERS
    if isinstance(node, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
        return True
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        return bool(node.elements) and all(isinstance(el.value, (cst.SimpleString, cst.FormattedString)) for el in node.elements)
    if isinstance(node, cst.Name):
        return _textual(scope.value(node.value), scope, depth + 1)
    return False


def relayed_error(node: cst.CSTNode) -> bool:
    """`x.get("error")`, `x.get("message", "Unknown error")`, `x["error"]`: an upstream's own error
    text read from a mapping (not `os.environ`, whose values are settings)."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get":
        key = nodes.string_value(nodes.call_arg(node, 0))
        return bool(key and ERROR_KEY.match(key)) and not nodes.dotted(node.func.value).startswith("os.")
    if isinstance(node, cst.Subscript) and len(node.slice) == 1:
        index = getattr(node.slice[0].slice, "value", None)
        key = nodes.string_value(index) if index is not None else None
        return bool(key and ERROR_KEY.match(key)) and not nodes.dotted(node.value).startswith("os.")
    return False


def _caught_kinds(types: Sequence[str]) -> Set[str]:
    out: Set[str] = set()
    for t in types:
        if t.endswith(VALIDATION_TYPES) or "ValidationError" in t:
            out.add(VALIDATION)
        if t in HTTP_ERROR_TYPES or t.endswith(("HTTPStatusError", "HTTPError", "RequestException", "ClientResponseError")):
            out.add(URL)
        if t == "raise_for_status":
            out.add(URL)
    return out


def _union(a: FrozenSet[str], b: FrozenSet[str]) -> FrozenSet[str]:
    out = set(a) | set(b)
    if len(out) > 1:
        out.discard(UNKNOWN)
    if SECRET in out or UNBOUNDED in out:
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


def merge_text(parts: Sequence[Part]) -> List[Part]:
    """Merge adjacent string parts."""
    out: List[Part] = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] = out[-1] + part
        elif part != "":
            out.append(part)
    return out


def join(a: Template, b: Template) -> Template:
    if not b.parts:
        tail, style = a.tail, a.tail_style
    else:
        tail, style = b.tail, b.tail_style
    return Template(tuple(merge_text(a.parts + b.parts)), a.pieces + b.pieces, a.complete and b.complete, tail, style, a.fallback or b.fallback)


def as_fallback(template: Template) -> Template:
    """The same template, marked as the text shown only when the upstream gives none."""
    from dataclasses import replace

    return replace(template, fallback=True)


_PERCENT = re.compile(r"%(?:\((?P<key>[^)]*)\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(?P<conv>[diouxXeEfFgGcrsa%])")
_FORMAT_FIELD = re.compile(r"\{\{|\}\}|\{(?P<field>[^{}!:]*)(?:!(?P<conv>[rsa]))?(?::(?P<spec>[^{}]*))?\}")


def percent_template(fmt: Template, args: object, builder: TemplateBuilder) -> Template:
    """`"..." % args` -> template; `%s` fields become placeholders of the matching argument."""
    text = fmt.literal
    parts: List[Part] = []
    pos = 0
    index = 0
    for match in _PERCENT.finditer(text):
        parts.append(text[pos:match.start()])
        pos = match.end()
        if match.group("conv") == "%":
            parts.append("%")
            continue
        key = match.group("key")
        arg = None
        if key is not None and isinstance(args, dict):
            arg = args.get(key)
        elif isinstance(args, list) and index < len(args):
            arg = args[index]
            index += 1
        if arg is not None:
            holder = builder.placeholder(arg, conversion="r" if match.group("conv") == "r" else "")
        else:
            holder = Placeholder(expr=key or "?", kinds=frozenset({UNKNOWN}), names=(key,) if key else ())
        parts.append(holder)
    parts.append(text[pos:])
    pieces = tuple(Piece(p.text, p.node, "percent", p.container) for p in fmt.pieces)
    return Template(tuple(merge_text(parts)), pieces, True, fmt.tail, "percent")


def format_template(fmt: Template, call: cst.Call, builder: TemplateBuilder) -> Template:
    """`"...".format(...)` -> template; `{}`/`{0}`/`{name}` fields map to the call's arguments."""
    text = fmt.literal
    positional = nodes.positional_args(call)
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    splat = any(a.star == "**" for a in call.args)
    parts: List[Part] = []
    pos = 0
    auto = 0
    for match in _FORMAT_FIELD.finditer(text):
        parts.append(text[pos:match.start()])
        pos = match.end()
        token = match.group(0)
        if token in ("{{", "}}"):
            parts.append(token[0])
            continue
        field = (match.group("field") or "").strip()
        head = re.split(r"[.\[]", field, maxsplit=1)[0]
        arg = None
        if head == "":
            arg = positional[auto] if auto < len(positional) else None
            auto += 1
        elif head.isdigit():
            i = int(head)
            arg = positional[i] if i < len(positional) else None
        else:
            arg = keywords.get(head)
        if arg is not None and head == field:
            holder = builder.placeholder(arg, conversion=match.group("conv") or "", spec=match.group("spec") or "")
        else:
            kinds = frozenset({UNKNOWN}) if arg is None or splat else builder.classify(arg, 0)[0]
            holder = Placeholder(expr=field or "?", kinds=kinds, names=(head,) if head and not head.isdigit() else (), node=arg)
        parts.append(holder)
    parts.append(text[pos:])
    pieces = tuple(Piece(p.text, p.node, "format", p.container) for p in fmt.pieces)
    return Template(tuple(merge_text(parts)), pieces, True, fmt.tail, "format")


def _string_literal(node: cst.CSTNode) -> bool:
    """A string literal, implicit concatenation, or `("a" + "b")` of literals."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        return True
    return isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add) and _string_literal(node.left) and _string_literal(node.right)
