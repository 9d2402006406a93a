"""What an identifier, a call or an exception type says about the value it stands for.

The name tests behind placeholder kinds: secret-like names (and the suffixes that mark a count, a
name or an error about the secret instead), bounded and unbounded names and annotations, schema
names, calls and attributes that give dumps, tracebacks, home-directory paths or the environment,
the exception types whose text is a validation report or names a URL or a file, mapping keys under
which an upstream relays its own error text, names that hold prose, and loops over text tokens.
"""
from __future__ import annotations

import re
from typing import Optional, Sequence, Set

import libcst as cst

from ..model import MAYBE_SECRET, SECRET, URL, VALIDATION
from . import nodes
from .scope import Scope

SECRET_NAME = re.compile(
    r"(^|_)(api_?key|apikey|token|secret|passw(or)?d|pwd|passphrase|private_?key|client_?secret|access_?key|"
    r"auth(orization)?|bearer|cookie|session_?id|credentials?|creds|dsn|database_url|conn(ection)?_?str(ing)?|"
    r"signature)($|_)"
)
SECRET_ALLOW = re.compile(
    r"(_count|_limit|_len|_length|_type|_name|_budget|_used|_url|_uri|_path|_file|_dir|_env|_var|_header|_field|"
    r"_endpoint|_use|_format|_claim|_scopes?|_method|_mode|_status|_version|(?<!session)_id|_ids|_exists|_required|"
    r"_id_?name|_kind|_scheme|_expiry|_expires(_at)?|_ttl|_hint|_prefix|_suffix|_mask(ed)?|_masked|_preview|"
    # a measure or a switch about the secret: `auth_delay`, `token_timeout`, `sharing_enabled`
    r"_delay|_timeout|_interval|_seconds|_secs|_ms|_minutes?|_mins?|_hours?|_days?|_lifetime|_age|_attempts|"
    r"_retries|_enabled|_disabled|_allowed|_flag)$"
    r"|^(max_|min_|num_|n_|has_|is_|use_|needs?_|requires?_|missing_|no_|valid_)"
    # a predicate about an action on the secret: `permit_create_token`, `allow_token_refresh`; not
    # `PERMIT_API_KEY` (Permit.io's key)
    r"|^(permits?|allows?|enables?|disables?|can|should|must)_(create|issue|generate|refresh|rotate|revoke|reuse|use|share|"
    r"send|store|save|cache|log|read|write|accept|require|renew|token_\w+)_?"
    r"|(^|_)(page|next|continuation|pagination|sync|cursor|csrf|xsrf)_?token($|_)"
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
SCHEMA_METHODS = {"model_json_schema", "schema", "schema_json", "json_schema", "format_help", "get_help", "print_help", "openapi", "getdoc"}
SCHEMA_ATTRS = {"inputSchema", "input_schema", "outputSchema", "output_schema", "json_schema", "openapi_schema", "args_schema"}
TRACEBACK_CALLS = {
    "traceback.format_exc", "traceback.format_exception", "traceback.format_tb", "traceback.format_stack",
    "traceback.print_exc", "traceback.format_exception_only",
}
# Calls whose result is under the account's home directory or the server's working directory. A
# resolved user-given path (`Path(p).resolve()`) is not: it is the value the caller sent.
HOME_CALLS = {"os.path.expanduser", "os.getcwd", "os.getcwdb", "pathlib.Path.home", "pathlib.Path.cwd", "Path.home", "Path.cwd"}
ENV_NAMES = {"os.environ", "os.environ.copy", "environ", "os.environ.items", "django.conf.settings"}  # (Django's settings hold SECRET_KEY)
HEADER_ATTRS = {"headers", "META", "COOKIES", "cookies"}  # every header, cookie (a session id) and, in Django, the WSGI environment
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
# keys that name an error body's text in an error reply, but also a record's field in an ordinary
# one (a chat completion's `message`, a log entry's `detail`)
AMBIGUOUS_ERROR_KEY = re.compile(r"^(?:message|msg|detail|details|reason)$", re.I)
PROSE_NAME = re.compile(r"(^|_)(msg|message|messages|hint|hints|text|detail|details|reason|suffix|prefix|help|note|notes|description|tip|advice|explanation|extra|info|remedy|guidance|instructions?)$")
HOME_LITERAL = re.compile(r"(?<![\w.])(/home/[A-Za-z0-9._-]+|/Users/[A-Za-z0-9._-]+|[A-Za-z]:\\\\?Users\\\\?[A-Za-z0-9._-]+)")


def snake(name: str) -> str:
    """camelCase -> camel_case, lower-cased, for matching identifier lexicons."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


# a trailing word that says which version of a value it is, not what the value is: `auth_delay_old`
# is a delay
# words after a secret's name that still name the secret, in some form (`token_value`, `password_hash`
# is the stored form, still not for a message; `secret_key`, `api_key_str`)
SECRET_FORM_WORDS = frozenset({"value", "val", "str", "string", "text", "raw", "plain", "plaintext", "b64", "base64", "hex",
                               "bytes", "data", "key", "keys", "hash", "hashed", "digest", "encoded", "decoded", "enc",
                               "encrypted", "json", "blob", "material", "pair", "secret", "token", "pem", "der", "jwk"})
VERSION_WORD = re.compile(r"(_(old|new|prev|previous|current|last|orig|original|before|after))+$")
# a word for a condition: a class's upper-case constant with one names a failure about a secret
# (`ErrorCode.LOGIN_BAD_CREDENTIALS`, `Reason.TOKEN_EXPIRED`), not a secret (`names_a_condition`)
CONDITION_WORD = re.compile(r"(^|_)(bad|invalid|wrong|incorrect|expired|revoked|rejected|denied|missing|unknown|mismatch(ed)?|already|failed|not)(_|$)")


def is_secret_name(name: str) -> bool:
    """True for identifiers that name a secret value (detect-secrets' keyword idea). The name's last
    word says what the value is (`auth_delay` is a delay, `permit_create_token` a switch), ignoring
    words for a version (`_old`). Dashes separate words as underscores do (`X-Api-Key`)."""
    low = snake(name).replace("-", "_")
    if not SECRET_NAME.search(low):
        return False
    if SECRET_ALLOW.search(low) or SECRET_ALLOW.search(VERSION_WORD.sub("", low)):
        return False
    # the words after the last secret word say what the value is: none, or a form of the secret itself
    # (`api_key_value`, `token_b64`); anything else is something about it (`password_policy`,
    # `secret_arn`, `password_changed_at`, `token_rule`)
    last = list(SECRET_NAME.finditer(VERSION_WORD.sub("", low)))[-1]
    rest = [w for w in VERSION_WORD.sub("", low)[last.end():].split("_") if w]
    return all(w in SECRET_FORM_WORDS for w in rest)


# Words that are as often something else as a credential: a lexer's or tokenizer's `token`
# (`token_value`, `pad_token`), a sync or page token, a sharing mode (`collection_by_token`), an MCP
# or Stata `session_id`, a function's `signature`. A name built on one of them is a secret only with
# a qualifier that makes it a credential (`access_token`, `api_token`, `bot_token`), or by its
# origin (an env var, a header, a settings field named for a secret), or where the message speaks
# of authentication (AEM301 reads MAYBE_SECRET).
AMBIGUOUS_SECRET_WORD = re.compile(r"(^|_)(token|session_?id|signature)($|_)")
CREDENTIAL_TOKEN = re.compile(
    r"(^|_)(access|refresh|auth|api|bearer|oauth2?|id|jwt|bot|personal|pat|session|security|login|"
    r"user|account|app|service|client|deploy|admin|master|cred|github|gh|gitlab|slack|hf|npm|pypi)_token($|_)"
)
# objects that hold settings: an attribute of one named like a secret is a setting that holds one
# (`settings.token`, `args.token`, `config.session_id`)
CONFIG_HOLDER = re.compile(r"^(settings|config|conf|cfg|configuration|options|opts|args|arguments|env|environment|secrets|credentials|creds?)$")
# calls whose name says they return a credential (`authorize_access_token()`, `get_password()`)
CREDENTIAL_GETTER = re.compile(r"^(get|fetch|load|read|create|issue|generate|authorize|obtain|request|refresh|new|make)_")


ENV_PAT = re.compile(r"(^|_)PAT($|_)")
ENV_KEY = re.compile(r"^(?:[A-Z0-9]+_)?KEY$")  # `KEY`, `STRIPE_KEY`: a vendor's key; not `AMQP_ROUTING_KEY`
ENV_DATA_KEY = re.compile(r"(^|_)(SORT|PARTITION|CACHE|PRIMARY|FOREIGN|HASH|RANGE|ROW|LOOKUP|PUBLIC|IDEMPOTENCY|GROUP|INDEX|SHARD|REDIS|S3|OBJECT|PREFIX|DEDUP|LOCK|QUEUE|ROUTING|FLAG|FALLBACK|SITE|TOPIC|STREAM|BUCKET|TABLE|CONFIG|SETTINGS?|FIELD|COLUMN|LABEL|TAG|NAMESPACE|CHANNEL)_KEY$")


def secret_env_var(name: str) -> bool:
    """An environment variable named for a secret: `API_TOKEN`, `DB_PASSWORD`, GitHub's personal
    access tokens (`GITHUB_PAT`; `pat` elsewhere is as often a pattern), and a service's key
    (`STRIPE_KEY`, `OWM_KEY`: in a program's settings a bare `KEY` is its credential; in code a `key`
    is a dict's, so only here), but not a key that names data (`SORT_KEY`, `PUBLIC_KEY`)."""
    return is_secret_name(name) or bool(ENV_PAT.search(name)) or bool(ENV_KEY.search(name)) and not ENV_DATA_KEY.search(name)


def secret_kind(name: str) -> str:
    """SECRET for a name that says it holds a secret, MAYBE_SECRET for one whose only secret word
    is an ambiguous one (`token`, `next_token`, `token_value`, `session_id`, `signature`) with no
    credential qualifier, "" otherwise."""
    if not is_secret_name(name):
        return ""
    low = snake(name).replace("-", "_")
    if CREDENTIAL_TOKEN.search(low) or SECRET_NAME.search(AMBIGUOUS_SECRET_WORD.sub("_", low)):
        return SECRET
    return MAYBE_SECRET


def names_a_condition(attr: str) -> bool:
    """An upper-case constant of a class whose name says a condition about a secret
    (`ErrorCode.LOGIN_BAD_CREDENTIALS`, `Reason.TOKEN_EXPIRED`): an error code, not a secret."""
    return attr.isupper() and bool(CONDITION_WORD.search(attr.lower()))


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


def is_textual(node: Optional[cst.CSTNode], scope: Scope, depth: int = 0) -> bool:
    """An iterable of pieces of text (`expr.split()`, `tokenize(src)`, `enumerate(re.findall(...))`,
    a literal list of strings): what a loop over it binds is a lexical token, not a credential."""
    if node is None or depth > 3:
        return False
    if isinstance(node, cst.Call):
        name = nodes.last_name(node.func)
        if name in ("enumerate", "sorted", "reversed", "list", "set", "tuple", "iter", "zip") and node.args:
            return is_textual(node.args[0].value, scope, depth + 1)
        return name in TEXT_SPLITTERS
    if isinstance(node, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
        return True
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        return bool(node.elements) and all(isinstance(el.value, (cst.SimpleString, cst.FormattedString)) for el in node.elements)
    if isinstance(node, cst.Name):
        return is_textual(scope.value(node.value), scope, depth + 1)
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
        if key and AMBIGUOUS_ERROR_KEY.match(key) and _element_of_a_list(node.value):
            return False  # `r.json()["choices"][0]["message"]`: a field of one record of a list, not an error body
        return bool(key and ERROR_KEY.match(key)) and not nodes.dotted(node.value).startswith("os.")
    return False


def _element_of_a_list(node: cst.CSTNode) -> bool:
    """`x[0]`, `items[-1]`: one element of a sequence, taken by its position."""
    if not isinstance(node, cst.Subscript) or len(node.slice) != 1:
        return False
    index = getattr(node.slice[0].slice, "value", None)
    return index is not None and nodes.int_value(index) is not None


def caught_kinds(types: Sequence[str]) -> Set[str]:
    out: Set[str] = set()
    for t in types:
        if t.endswith(VALIDATION_TYPES) or "ValidationError" in t:
            out.add(VALIDATION)
        if t in HTTP_ERROR_TYPES or t.endswith(("HTTPStatusError", "HTTPError", "RequestException", "ClientResponseError")):
            out.add(URL)
        if t == "raise_for_status":
            out.add(URL)
    return out
