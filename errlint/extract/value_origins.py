"""Value origins: which values come from the home directory, a capability URL or DSN, an I/O body or
record, or a traceback, judged by where the value comes from, not by the name of the variable that
holds it.

- **Home paths**: `os.path.expanduser`, `Path.home()`, the `HOME`/`USERPROFILE`/`APPDATA`/`XDG_*_HOME`
  environment variables, platformdirs/appdirs (`user_data_dir("app")`, `PlatformDirs("app").user_cache_path`),
  `click.get_app_dir`/`typer.get_app_dir`, and every path built from one (`STATE / "lock"`,
  `STATE.joinpath(...)`, `STATE.parent`), module constants included.
- **Capability URLs and DSNs** are secrets: what a signing call returns (`bucket.presign(key)`,
  `generate_presigned_url`, `create_signed_url`, `generate_blob_sas`, ...), what an environment
  variable or setting named for a DSN, connection string or webhook holds (`DATABASE_URL`,
  `SENTRY_DSN`, `settings.slack_webhook_url`), and a URL literal that carries a password
  (`postgres://app:{pw}@db/x`), a token query parameter (`?api_key={key}`, `&sig=...`) or a webhook
  host (`hooks.slack.com/services/...`). A masked part (`:***@`, `token=<redacted>`, `{mask(key)}`)
  is not a secret.
- **Requests whose URL holds a secret** (`secret_requests.request_carries_secret`): a request call whose URL argument
  is one of the above, or whose `params` has a secret-named key or a secret value. The URL of a
  response, or the text of an HTTP error, leaks only what such a request put in it: a URL the caller
  sent, or one with the key in a header, shows nothing secret.
- **I/O bodies and records** are unbounded whatever they are called: the `.text`, `.content`,
  `.json()`, `.read()` of what an HTTP client or `urlopen` returned, a subprocess's output
  (`check_output`, `communicate()`), DB-API and ORM rows (`fetchall()`, `fetchone()`, `query.all()`),
  and the lines or rows read from a file, listed or filtered (`read_records.py`: `list(csv.DictReader(fh))`,
  `[line for line in fh if ...]`, `fh.read().splitlines()`); the file object itself shows a short repr.
  A dict or list written in the code is as large as its fields, also through a name
  (`payload = {...}; json.dumps(payload)`) and as `dict(a=..., b=...)`.
- **Tracebacks**: `traceback.format_*`/`extract_*`, `"".join(...)` of one, a `TracebackException`'s
  `.format()`, `logging.Formatter.formatException`, `record.exc_text`, `sys.exc_info()`,
  `inspect.trace()`/`stack()` and an exception's `__traceback__`.
- **Through a helper**: a call to a function of the module carries what its `return`s carry
  (a secret, a traceback), judged in that function's scope (`_returned_by`).

`classify(builder, expr, depth)` answers for one placeholder expression, or returns None when the
value's origin says nothing and the name-based classification in `placeholder_kinds.py` applies.
"""
from __future__ import annotations

import re
from typing import FrozenSet, List, Optional, Set, Tuple

import libcst as cst

from ..model import BOUNDED, COLLECTION, HOME_PATH, SECRET, TRACEBACK, UNBOUNDED
from . import nodes
from .credential_paths import path_text

Kinds = Tuple[FrozenSet[str], str]

# ------------------------------------------------------------------ home directory
HOME_ENV = re.compile(r"^(HOME|USERPROFILE|HOMEPATH|APPDATA|LOCALAPPDATA|XDG_\w+_HOME|XDG_RUNTIME_DIR)$")
HOME_MODULES = ("platformdirs.", "appdirs.", "xdg.", "xdg_base_dirs.", "xdg_base_dirs", "user_dirs.")
HOME_DIR_NAME = re.compile(r"^(user_\w+_(dir|path)|xdg_\w+_home|get_app_dir|user_\w+_dir)$")
DIRS_CLASSES = re.compile(r"^(PlatformDirs|AppDirs|PlatformDirsABC|Unix|Windows|MacOS|Android)$")
WORKING_DIRECTORY = re.compile(r"\bgetcwdb?\(|\bcwd\(")
PATH_METHODS = {"joinpath", "resolve", "absolute", "with_name", "with_suffix", "with_stem", "expanduser", "as_posix", "__fspath__"}

# ------------------------------------------------------------------ capability URLs and DSNs
CAPABILITY_CALL = re.compile(
    r"presign|(^|_)signed_?(upload_|download_)?urls?$|(^|_)sign_?url$|(^|_)generate_\w*sas$|(^|_)sas_?(token|url)$|"
    r"^create_signed_\w+$|^get_signed_\w*url$"
)
# Settings, env vars and names that hold a DSN, a connection string or a webhook/capability URL.
CAPABILITY_NAME = re.compile(
    r"^(\w+_)?(dsn|webhook|webhook_url|webhook_uri|database_ur[il]|db_ur[il]|conn(ection)?_?str(ing)?|"
    r"(redis|mongo|mongodb|postgres|postgresql|pg|mysql|amqp|rabbitmq|broker|celery_broker|sqlalchemy_database|"
    r"celery_result_backend)_ur[il]|(pre)?signed_url|sas_url|sas_token|capability_url|magic_link)$"
)
# A URL literal with a password in its userinfo, a secret-bearing query parameter, or a webhook host.
# the scheme starts where a word does: started inside a long word it would be retried at every
# letter, each try reading to the word's end (quadratic on a 60 KB token)
USERINFO = re.compile(r"(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*://[^\s/:@{}]*:(?P<v><[^>]*>|[^\s/@]*)@", re.I)
SECRET_QUERY = re.compile(
    r"[?&](?P<k>(?:[\w.-]*[_-])?(?:api_?key|access_?key|secret_?key|private_?key|token|secret|passw(?:or)?d|pwd|"
    r"signature|sig|credentials?|auth))=(?P<v><[^>]*>|[^&#\s]*)",
    re.I,
)
NOT_SECRET_PARAM = re.compile(r"^(page|next|continuation|cursor|sync|sort|public|csrf|xsrf)[_-]?", re.I)
WEBHOOK_HOST = re.compile(r"hooks\.slack\.com/|discord(?:app)?\.com/api/webhooks/|\.webhook\.office\.com/|outlook\.office\.com/webhook/|hooks\.zapier\.com/")
MASKED = re.compile(r"^(\*+\w*|x{3,}|X{3,}|…|\.\.\.|<[^>]*>|\[[^\]]*\]|\$\w+|\$\{\w+\}|%\w+%|(?i:redacted|hidden|your[_-]?\w*)|[A-Z][A-Z_]{2,})$")

# ------------------------------------------------------------------ I/O bodies and records
IO_MODULES = ("requests.", "httpx.", "aiohttp.", "urllib3.", "urllib.request.", "subprocess.", "pycurl.", "treq.", "niquests.")
CLIENT_CLASSES = re.compile(r"^(Session|Client|AsyncClient|ClientSession|PoolManager|HTTPConnection|HTTPSConnection|ProxyManager)$")
CLIENT_NAME = re.compile(r"(^|_)(session|client|http|https|http_client|api)$")
HTTP_VERBS = {"get", "post", "put", "patch", "delete", "head", "options", "request", "send", "urlopen", "stream", "fetch", "open"}
BODY_ATTRS = {"text", "content", "body", "data", "stdout", "stderr", "output", "html"}
BODY_METHODS = {"json", "text", "read", "readlines", "body", "content", "iter_lines", "aread", "read_text", "read_bytes"}
PROCESS_CALLS = {"subprocess.check_output", "subprocess.getoutput", "subprocess.getstatusoutput"}
ROW_METHODS = {"fetchall", "fetchmany", "fetchone"}
QUERY_METHODS = {"execute", "query", "scalars", "filter", "filter_by", "where", "order_by", "select", "find", "aggregate", "limit", "join"}

# ------------------------------------------------------------------ tracebacks
TRACEBACK_PREFIXES = ("traceback.format", "traceback.extract", "traceback.walk", "traceback.StackSummary")
TRACEBACK_OBJECTS = {"__traceback__", "tb_frame", "exc_text", "stack_info"}


def classify(builder, expr: cst.CSTNode, depth: int) -> Optional[Kinds]:
    """What `expr` may contain, judged by where its value comes from; None when that says nothing."""
    if isinstance(expr, cst.Call):
        return _call(builder, expr, depth)
    if isinstance(expr, cst.Attribute):
        return _attribute(builder, expr, depth)
    if isinstance(expr, cst.Subscript):
        return _subscript(builder, expr)
    if isinstance(expr, cst.Name):
        return _name(builder, expr, depth)
    if isinstance(expr, cst.Dict):
        return _display(builder, expr, depth)
    if isinstance(expr, (cst.FormattedString, cst.ConcatenatedString)) or isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        return _url_text(builder, expr, depth)
    if isinstance(expr, cst.SimpleString):
        value = nodes.string_value(expr)
        if value and secret_url(value):
            return frozenset({SECRET}), builder.code(expr)
    return None


# ------------------------------------------------------------------ by shape
def _call(builder, call: cst.Call, depth: int) -> Optional[Kinds]:
    func = call.func
    qualified = builder.qualify(func) or nodes.dotted(func)
    short = nodes.last_name(func)
    code = builder.code(call) if len(builder.code(func)) < 60 else short
    first = nodes.call_arg(call, 0)
    # tracebacks
    if qualified.startswith(TRACEBACK_PREFIXES) and not qualified.endswith("format_exception_only"):
        return frozenset({TRACEBACK, UNBOUNDED}), code
    if short in ("formatException", "formatStack") or qualified in ("inspect.trace", "inspect.stack"):
        return frozenset({TRACEBACK, UNBOUNDED}), code
    if qualified == "sys.exc_info":
        return frozenset({TRACEBACK}), code  # its traceback object's repr: internals, but short
    if short == "format" and isinstance(func, cst.Attribute) and _traceback_object(builder, func.value):
        return frozenset({TRACEBACK, UNBOUNDED}), code
    if short == "join" and isinstance(func, cst.Attribute) and nodes.string_value(func.value) is not None and first is not None:
        iterable = first.for_in.iter if isinstance(first, (cst.GeneratorExp, cst.ListComp)) else first
        inner, detail = builder.classify(iterable, depth + 1)
        if TRACEBACK in inner:
            return frozenset({TRACEBACK, UNBOUNDED}), detail or code
    # the home directory
    if qualified.startswith(HOME_MODULES) and HOME_DIR_NAME.match(short) or short == "get_app_dir":
        return frozenset({HOME_PATH}), code
    if short in ("getenv",) or qualified in ("os.getenv", "os.environ.get", "environ.get"):
        return _env_read(nodes.string_value(first), code)
    if isinstance(func, cst.Attribute) and short == "get" and nodes.dotted(func.value).endswith("environ"):
        return _env_read(nodes.string_value(first), code)
    if qualified == "os.path.expandvars" and first is not None and re.search(r"\$\{?HOME\b|%USERPROFILE%|%APPDATA%|^~", nodes.string_value(first) or ""):
        return frozenset({HOME_PATH}), code
    if short == "expanduser":
        module_function = qualified.rsplit(".", 1)[0] in ("os.path", "posixpath", "ntpath") or isinstance(func, cst.Name)
        operand = first if module_function else func.value  # `os.path.expanduser(p)` or `p.expanduser()`
        return _expanded(builder, operand, code, depth)
    if isinstance(func, cst.Attribute) and short in PATH_METHODS:
        inner, detail = builder.classify(func.value, depth + 1)
        if HOME_PATH in inner and not WORKING_DIRECTORY.search(detail):  # (a base folder under the working directory is what is allowed)
            return frozenset({HOME_PATH}), detail or code
    # capability URLs
    if CAPABILITY_CALL.search(snake(short)):
        return frozenset({SECRET}), code
    # credentials by where they come from (`credential_evidence.credential_call`)
    from .credential_evidence import credential_call

    if credential_call(builder, func, qualified, short):
        return frozenset({SECRET}), code
    # I/O bodies and records
    if qualified in PROCESS_CALLS or short == "communicate":
        return frozenset({UNBOUNDED}), code
    if isinstance(func, cst.Attribute):
        if short in ROW_METHODS or short == "all" and _query_chain(func.value):
            return frozenset({UNBOUNDED}), code
        if short in BODY_METHODS and io_result(builder, func.value):
            return frozenset({UNBOUNDED}), code
    # a dict or list written in the code, reached through a name or written as dict(a=..., b=...)
    if short == "dict" and call.args and all(a.keyword is not None for a in call.args):
        return builder.classify(cst.Dict([cst.DictElement(cst.SimpleString(repr(a.keyword.value)), a.value) for a in call.args]), depth + 1)
    if (short == "dumps" or qualified == "json.dumps") and isinstance(first, cst.Name) and not _schema_name(first.value):
        value = builder.scope.value(first.value)
        if isinstance(value, (cst.Dict, cst.List, cst.Tuple)) and _fields(value) <= MAX_FIELDS and first.value not in builder._active:
            return builder.classify(value, depth + 1)
    # what a function of this module returns (`url = share_link(name)`, `key = api_key()`)
    if func.__class__ is cst.Name and depth < MAX_CALL_DEPTH:
        return _returned_by(builder, func.value, code, depth)
    return None


MAX_CALL_DEPTH = 4  # helpers followed into helpers


def _pieces(value: cst.CSTNode) -> List[cst.CSTNode]:
    """The values text built by `+` or an f-string is made of (`"Bearer " + token()`), else the value."""
    out: List[cst.CSTNode] = []
    stack = [value]  # iteratively: a 1,000-piece `+` chain nests 1,000 deep
    while stack and len(out) < 32:
        node = stack.pop()
        if node.__class__ is cst.BinaryOperation and node.operator.__class__ is cst.Add:
            stack += [node.right, node.left]
        elif node.__class__ is cst.FormattedString:
            out += [p.expression for p in node.parts if p.__class__ is cst.FormattedStringExpression]
        else:
            out.append(node)
    return out
# what a value carries from where it was made, through a helper. Not a home path: who may read the
# local user's own paths (AEM302 on a log or CLI line) is an open product question, left as it is.
ORIGIN_KINDS = frozenset({SECRET, TRACEBACK})


def _returned_by(builder, name: str, code: str, depth: int) -> Optional[Kinds]:
    """The origins of what the module's function `name` returns (a secret, a traceback), each
    `return` judged in the scope of its function; None when no return has one."""
    found = builder.scope.lookup(name)
    if len(found) != 1 or found[0].kind != "def" or not found[0].returned or name in builder._active:
        return None
    kinds: Set[str] = set()
    builder._active.add(name)
    try:
        for value, scope in found[0].returned[:8]:
            callee = type(builder)(scope, builder.qualify, builder.code)
            callee._active = builder._active
            for part in _pieces(value):
                inner, _ = callee.classify(part, depth + 1)
                kinds |= inner & ORIGIN_KINDS
    finally:
        builder._active.discard(name)
    return (frozenset(kinds), code) if kinds else None


def _expanded(builder, operand: Optional[cst.CSTNode], code: str, depth: int) -> Kinds:
    """`os.path.expanduser(x)`, `Path(x).expanduser()`: a home path when `x` is the program's own
    (`"~/.netrc"`, a constant), but the caller's own path, expanded, when `x` is what the caller
    passed (a parameter, an argument, a request field): that is the value they sent."""
    from .provenance import Provenance

    if isinstance(operand, cst.Call) and nodes.last_name(operand.func).endswith("Path") and operand.args:
        operand = operand.args[0].value  # `Path(x).expanduser()`
    scope = getattr(builder.scope, "scope", builder.scope)  # every binding: `p = Path(p).expanduser()` re-binds the parameter
    if operand is not None and not path_text(operand, builder.scope).startswith("~") and Provenance(scope).is_input(operand):
        kinds, detail = builder.classify(operand, depth + 1)
        return frozenset(kinds - {HOME_PATH}) or frozenset({BOUNDED}), detail
    return frozenset({HOME_PATH}), code


def _display(builder, expr: cst.Dict, depth: int) -> Optional[Kinds]:
    """A small dict written in the code whose only unbounded fields are lists of names
    (`{"error": f"... Searched in {', '.join(dirs)}"}`): as large as those lists, which AEM405 judges."""
    elements = [el for el in expr.elements if isinstance(el, cst.DictElement)]
    if not elements or len(elements) != len(expr.elements) or len(elements) > MAX_FIELDS:
        return None
    found = [builder.classify(el.value, depth + 1) for el in elements]
    if not any(UNBOUNDED in kinds for kinds, _ in found) or any(UNBOUNDED in kinds and COLLECTION not in kinds for kinds, _ in found):
        return None
    union: Set[str] = set()
    for kinds, _ in found:
        union |= kinds
    return frozenset(union), next((d for _, d in found if d), "")


def _attribute(builder, expr: cst.Attribute, depth: int) -> Optional[Kinds]:
    attr = expr.attr.value
    if attr in TRACEBACK_OBJECTS:
        return frozenset({TRACEBACK}), builder.code(expr)
    if attr in BODY_ATTRS and io_result(builder, expr.value):
        return frozenset({UNBOUNDED}), builder.code(expr)
    if HOME_DIR_NAME.match(attr) and _dirs_object(builder, expr.value):
        return frozenset({HOME_PATH}), builder.code(expr)
    if attr in ("parent", "parents"):
        inner, detail = builder.classify(expr.value, depth + 1)
        if HOME_PATH in inner and not WORKING_DIRECTORY.search(detail):
            return frozenset({HOME_PATH}), detail
    if CAPABILITY_NAME.match(snake(attr)):
        return frozenset({SECRET}), builder.code(expr)
    return None


def _subscript(builder, expr: cst.Subscript) -> Optional[Kinds]:
    if len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
        return None
    key = nodes.string_value(expr.slice[0].slice.value)
    if not key:
        return None
    if nodes.dotted(expr.value).endswith("environ"):
        return _env_read(key, builder.code(expr))
    if CAPABILITY_NAME.match(snake(key)):
        return frozenset({SECRET}), builder.code(expr)
    return None


def _traceback_object(builder, node: cst.CSTNode) -> bool:
    """A `traceback.TracebackException`, made in place or bound to a local once (`te =
    TracebackException.from_exception(e)`), or its `.stack`."""
    if node.__class__ is cst.Attribute and node.attr.value == "stack":
        node = node.value
    if node.__class__ is cst.Name:
        bound = builder.scope.value(node.value)
        node = bound if bound is not None else node
    return "TracebackException" in builder.code(node)


def _name(builder, expr: cst.Name, depth: int) -> Optional[Kinds]:
    """A local or parameter named for a DSN or capability URL (`database_url`, `webhook`): a secret
    unless its value is masked."""
    if not CAPABILITY_NAME.match(snake(expr.value)) or expr.value in builder._active:
        return None
    kinds, detail = builder._classify_name(expr, depth)
    if BOUNDED in kinds and SECRET not in kinds and builder.scope.value(expr.value) is not None:
        return kinds, detail  # `webhook = mask(url)`
    return frozenset((kinds - {BOUNDED}) | {SECRET}), expr.value


def _env_read(key: Optional[str], code: str) -> Optional[Kinds]:
    if not key:
        return None
    if HOME_ENV.match(key):
        return frozenset({HOME_PATH}), code
    if CAPABILITY_NAME.match(key.lower()):
        return frozenset({SECRET}), code
    return None


# ------------------------------------------------------------------ URL literals
def secret_url(text: str) -> bool:
    """True when `text` holds a URL with an unmasked password, secret query value or webhook host."""
    for pattern in (USERINFO, SECRET_QUERY):
        for found in pattern.finditer(text):
            if pattern is SECRET_QUERY and NOT_SECRET_PARAM.match(found.group("k")):
                continue
            if found.group("v") and not MASKED.match(found.group("v")):
                return True
    return bool(WEBHOOK_HOST.search(text))


def template_secret_url(template) -> bool:
    """True when a template builds a URL whose password or token part is an unmasked value or literal:
    `f"postgres://{user}:{pw}@{host}/db"`, `base + "?api_key=" + key`. A placeholder counts as masked
    when it is a bounded call or slice (`{mask(key)}`, `{key[:4]}`)."""
    text = ""
    for part in template.parts:
        if isinstance(part, str):
            text += part
            continue
        masked = SECRET not in part.kinds and (BOUNDED in part.kinds and isinstance(part.node, (cst.Call, cst.Subscript)) or re.search(r"mask|redact", part.expr))
        text += "***" if masked else "v4lue"
    return secret_url(text)


URL_HINT = re.compile(r"://|[?&][\w.-]+=")


def _url_text(builder, expr: cst.CSTNode, depth: int) -> Optional[Kinds]:
    """An f-string or concatenation that builds a capability URL or a DSN (see `template_secret_url`)."""
    if not URL_HINT.search(builder.code(expr)):
        return None
    for template in builder._variants(expr, depth + 1):
        if template_secret_url(template):
            kinds: Set[str] = set()
            for holder in template.placeholders:
                kinds |= holder.kinds
            return frozenset((kinds - {BOUNDED}) | {SECRET}), "a URL with credentials in it"
    return None


# ------------------------------------------------------------------ helpers
def io_result(builder, node: Optional[cst.CSTNode], depth: int = 0) -> bool:
    """True when `node` is what an HTTP client, `urlopen` or a subprocess returned (a response, a
    completed process), directly or through names (`got = requests.get(u)`, `async with
    session.get(u) as reply`)."""
    if node is None or depth > 4:
        return False
    if isinstance(node, cst.Await):
        return io_result(builder, node.expression, depth + 1)
    if isinstance(node, cst.Call):
        func = node.func
        qualified = builder.qualify(func) or nodes.dotted(func)
        if qualified.startswith(IO_MODULES) and not CLIENT_CLASSES.match(nodes.last_name(func)):
            return True
        if isinstance(func, cst.Attribute) and func.attr.value in HTTP_VERBS:
            return _client(builder, func.value, depth + 1)
        return False
    if isinstance(node, cst.Name):
        for binding in builder.scope.lookup(node.value)[:4]:
            if binding.kind in ("assign", "with") and binding.value is not None and io_result(builder, binding.value, depth + 1):
                return True
    return False


def _client(builder, node: cst.CSTNode, depth: int) -> bool:
    """An HTTP client: `requests`, `httpx`, a `Session()`/`Client()`/`ClientSession()`, or a name or
    attribute bound to one (`self.session`, `http`)."""
    dotted = builder.qualify(node) or nodes.dotted(node)
    if dotted.split(".", 1)[0] in ("requests", "httpx", "aiohttp", "urllib3", "niquests") or dotted.startswith("urllib.request"):
        return True
    if isinstance(node, cst.Call):
        return bool(CLIENT_CLASSES.match(nodes.last_name(node.func)))
    if isinstance(node, cst.Name) and depth < 4:
        for binding in builder.scope.lookup(node.value)[:4]:
            if binding.kind in ("assign", "with") and binding.value is not None and _client(builder, binding.value, depth + 1):
                return True
    return bool(CLIENT_NAME.search(snake(nodes.last_name(node))))


def _query_chain(node: cst.CSTNode) -> bool:
    """`session.execute(q).scalars()`, `User.query.filter_by(...)`: a query whose `.all()` is rows."""
    while isinstance(node, (cst.Call, cst.Attribute)):
        if isinstance(node, cst.Call):
            if nodes.last_name(node.func) in QUERY_METHODS:
                return True
            node = node.func
        else:
            if node.attr.value == "query":
                return True
            node = node.value
    return False


def _schema_name(name: str) -> bool:
    from .value_names import SCHEMA_NAME

    return bool(SCHEMA_NAME.search(snake(name)))


MAX_FIELDS = 8  # a display reached through a name with more (nested) fields than this is a document, not a reply


def _fields(node: cst.CSTNode, depth: int = 0) -> int:
    """The number of fields of a dict/list display, nested ones included."""
    if depth > 3:
        return MAX_FIELDS + 1
    total = 0
    for el in getattr(node, "elements", ()):
        total += 1
        value = getattr(el, "value", None)
        if isinstance(value, (cst.Dict, cst.List, cst.Tuple, cst.Set)):
            total += _fields(value, depth + 1)
    return total


def _dirs_object(builder, node: cst.CSTNode) -> bool:
    """`PlatformDirs("app")`, `AppDirs(...)`, `platformdirs`, or a name bound to one."""
    if isinstance(node, cst.Call):
        return bool(DIRS_CLASSES.match(nodes.last_name(node.func)))
    dotted = builder.qualify(node) or nodes.dotted(node)
    if dotted.startswith(("platformdirs", "appdirs", "xdg")):
        return True
    if isinstance(node, cst.Name):
        value = builder.scope.value(node.value)
        return isinstance(value, cst.Call) and bool(DIRS_CLASSES.match(nodes.last_name(value.func)))
    return False


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name or "").lower()
