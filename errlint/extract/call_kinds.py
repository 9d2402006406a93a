"""What a call puts into a message: the kinds of its value (`PlaceholderKinds._classify_call`).

Masking and measuring calls (`len`, `mask_token`) give a bounded value; traceback, schema and dump
calls (`format_exc`, `model_json_schema`, `json.dumps`, `pformat`, `locals`) an unbounded one; home
and working-directory calls (`Path.home`, `expanduser`, `getcwd`) a home path; environment and
settings reads (`os.getenv`, `config.get(section, option)`, `headers.get`) a secret when the key is
named for one; `str`/`repr`/`list`/`join`/string methods the kinds of what they wrap. A mixin of
`PlaceholderKinds`, which classifies the call's arguments and receiver.
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
    HOME_PATH,
    RELAYED,
    RETRY_AFTER,
    SCHEMA,
    SECRET,
    SECRETS,
    TRACEBACK,
    UNBOUNDED,
    UNKNOWN,
    URL,
    VALIDATION,
)
from . import nodes, record_reprs
from .read_records import read_records
from .credential_evidence import keyed_secret
from .value_names import (
    SECRET_ALLOW,
    HOME_CALLS,
    MASKING,
    RESPONSE_ROOTS,
    SCHEMA_METHODS,
    SCHEMA_NAME,
    TRACEBACK_CALLS,
    UNBOUNDED_CALLS,
    UNBOUNDED_METHODS,
    is_secret_name,
    relayed_error,
    secret_env_var,
    secret_kind,
    snake,
)

# a receiver named for configuration: its two-string `get("auth", "type")` is (section, option)
CONFIG_RECEIVER = re.compile(r"(^|_)(conf|config|configuration|cfg|settings|parser|ini)$")
# an option name, not a default value (`config.get("api_key", "")`, `config.get("url", "http://x")`)
OPTION_KEY = re.compile(r"^[a-z_][a-z0-9_-]*$")


class CallKinds:
    """Call classification for `PlaceholderKinds` (a mixin: it uses `classify`, `qualify` and `code`)."""

    def _made_class(self, name: str) -> Tuple[str, str]:
        """What an instance of `name`, a class of the module (or what a function of the module declared
        to return one returns), shows as text: ("settings", "") for a
        pydantic `BaseSettings` (every setting, its secrets too), ("record", "Class.field") for a
        record class that shows a credential field (`record_reprs.secret_field`: a dataclass, attrs
        class, pydantic model or NamedTuple, the field not masked), else ("", ""). A plain class's
        instance prints as `<Name object at 0x…>`: none of its fields."""
        found = self.scope.lookup(name)
        if len(found) == 1 and found[0].kind == "def" and isinstance(found[0].value, cst.FunctionDef) and found[0].value.returns is not None:
            # a function of the module declared to return one: `def load_settings(path) -> SmtpSettings:`
            shown = record_reprs.annotated_record(self.code(found[0].value.returns.annotation), self.scope, self.qualify)
            return ("record", shown) if shown else ("", "")
        stmt = found[0].value if len(found) == 1 and found[0].kind == "class" else None
        if not isinstance(stmt, cst.ClassDef):
            return "", ""
        if any(nodes.last_name(b.value) == "BaseSettings" for b in stmt.bases):
            return "settings", ""
        field = record_reprs.secret_field(stmt, self.qualify)
        return ("record", f"{name}.{field}") if field else ("", "")

    def _fixed_collection(self, node: cst.CSTNode, depth: int = 0) -> bool:
        """A collection whose members the code fixes: a container literal bound to a name, whatever
        its values (`HANDLERS = {"a": run_a}` joins its keys), an Enum class and its `__members__`,
        `.keys()`/`.values()` of one, or a comprehension over one (`c.value for c in Color`)."""
        if depth > 3:
            return False
        if isinstance(node, (cst.GeneratorExp, cst.ListComp, cst.SetComp)):
            return self._fixed_collection(node.for_in.iter, depth + 1)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in ("keys", "values", "items") and not node.args:
            return self._fixed_collection(node.func.value, depth + 1)
        if isinstance(node, cst.Call) and nodes.last_name(node.func) in ("sorted", "list", "tuple", "set") and len(node.args) == 1:
            return self._fixed_collection(node.args[0].value, depth + 1)
        if isinstance(node, cst.Attribute) and node.attr.value == "__members__":
            return self._fixed_collection(node.value, depth + 1)
        if not isinstance(node, cst.Name):
            return False
        for binding in self.scope.lookup(node.value):
            if binding.kind == "class" and isinstance(binding.value, cst.ClassDef):
                return any(re.search(r"(^|\.)(Str|Int)?Enum$|(^|\.)Flag$", nodes.dotted(b.value)) for b in binding.value.bases)
        value = self.scope.value(node.value)
        if isinstance(value, cst.Dict):
            return all(isinstance(el, cst.DictElement) and nodes.string_value(el.key) is not None for el in value.elements)
        return isinstance(value, (cst.List, cst.Tuple, cst.Set)) and nodes.literal_values(value) is not None

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
        made, shown = self._made_class(func.value) if func.__class__ is cst.Name else ("", "")
        if made == "settings":
            return frozenset({ENV_DUMP, UNBOUNDED}), code  # `settings = Settings()`: every setting, its secrets too
        if made == "record":  # `SMTP = SmtpSettings(host, port, user, password)`: its repr shows the password
            return frozenset({secret_kind(shown.rsplit(".", 1)[1])}), f"whose repr shows `{shown}`"
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
            if first is not None and short not in ("locals", "globals", "vars", "dir"):
                # `yaml.safe_dump(RULE_SCHEMA)`, `pformat(spec)`: the serialized value is what it was
                inner_kinds = self.classify(first, depth + 1)[0]
                kinds |= inner_kinds & ({SCHEMA, ENV_DUMP, VALIDATION} | SECRETS)
                if SCHEMA_NAME.search(snake(nodes.last_name(first) or "")):
                    kinds.add(SCHEMA)
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
            if read_records(self, first):
                return frozenset({UNBOUNDED}), code  # list(csv.DictReader(fh)): every row of the file
            if inner & {UNBOUNDED, ENV_DUMP, VALIDATION, SCHEMA}:
                return frozenset({UNBOUNDED} | (inner & ({ENV_DUMP, VALIDATION, SCHEMA} | SECRETS))), code
            return frozenset({COLLECTION, UNKNOWN}), ""  # a computed list of names: size unknown, not a dump
        if short == "join" and isinstance(func, cst.Attribute) and nodes.string_value(func.value) is not None:
            separator = nodes.string_value(func.value) or ""
            if first is not None and read_records(self, first):
                return frozenset({UNBOUNDED}), code  # "\n".join(... for row in bad): every row read
            if first is not None and not re.search(r"[,\n|;]|\bor\b|\band\b", separator):
                iterable = first.for_in.iter if isinstance(first, (cst.GeneratorExp, cst.ListComp)) else first
                inner, _ = self.classify(iterable, depth + 1)
                if not inner & {UNBOUNDED, SCHEMA, VALIDATION, ENV_DUMP}:
                    return frozenset({BOUNDED}), ""
            if first is not None and (nodes.literal_values(first) is not None or self._fixed_collection(first)):
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
                    if not (key and is_secret_name(key)) or SECRET_ALLOW.search("secret_" + option):
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
