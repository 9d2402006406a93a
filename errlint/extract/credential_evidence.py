"""The evidence that makes a value named only by an ambiguous word (`token`, `session_id`,
`signature`: `placeholder_kinds.MAYBE_SECRET`) a credential, by where it comes from and how it is used.

Where it comes from (origins):
- request headers and cookies (`credential_carrier`), and a loop over them or over a collection
  named for credentials (`over_credentials`);
- a call that makes or fetches one (`credential_call`): `getpass.getpass()`, `keyring.get_password()`,
  `.get_secret_value()`, `hmac`, a getter named for a credential (`authorize_access_token()`);
- an environment variable named for a secret (`self.token = os.environ["API_TOKEN"]`).

How it is used (`used_as_credential`): the code sends it to authenticate
- as a keyword argument named for a secret (`login(password=pw)`), or an ambiguous one of another
  package's call (`WebClient(token=token)`, `from_pretrained(m, token=token)`);
- under a header or field named for a secret (`{"Authorization": f"Bearer {token}"}`,
  `headers["X-Api-Key"] = token`);
- in a string that is an authorization scheme (`f"Bearer {token}"`, `"token " + token`).
For an attribute of `self`, every method of the class counts (`self.token` put in a header in
`__init__` and shown in an error in another method).
"""
from __future__ import annotations

import re
from typing import Iterable, List, Optional, Set

import libcst as cst

from ..model import MAYBE_SECRET, SECRET
from . import nodes
from .value_names import CREDENTIAL_GETTER, secret_env_var, secret_kind, snake

AUTH_SCHEME = re.compile(r"^\s*(?:Bearer|Basic|Token|token|Bot|Digest)\s+$")


def used_as_credential(functions: Iterable[cst.CSTNode], names: Set[str], own: Set[str]) -> bool:
    """True when any of `functions` sends one of `names` (dotted names: `token`, `self.token`) to
    authenticate (see the module docstring). A key or keyword that is itself only ambiguous
    (`"token"`, `PathOrToken=`) is no evidence, except a keyword of another package's call
    (`WebClient(token=token)`): `own` holds the names of the file's own functions and classes."""
    functions = list(functions)
    names = _with_aliases(functions, names)
    for function in functions:
        for node in nodes.iter_expr(function, stop=()):
            if isinstance(node, cst.Call):
                foreign = nodes.root_name(node.func) not in ("self", "cls") and nodes.last_name(node.func) not in own
                for arg in node.args:
                    if arg.keyword is not None and _credential_word(arg.keyword.value, foreign) and _reads(arg.value, names):
                        return True
            elif isinstance(node, cst.DictElement) and _secret_key(node.key) and _reads(node.value, names):
                return True
            elif isinstance(node, cst.Assign) and any(isinstance(t.target, cst.Subscript) and _secret_key(_key(t.target)) for t in node.targets):
                if _reads(node.value, names):
                    return True
            elif isinstance(node, cst.Assign) and any(nodes.dotted(t.target) in names for t in node.targets) and _secret_env(node.value):
                return True  # `self.token = os.environ["API_TOKEN"]` in `__init__`
            elif isinstance(node, cst.FormattedString) and node.parts and isinstance(node.parts[0], cst.FormattedStringText):
                if AUTH_SCHEME.match(node.parts[0].value) and _reads(node, names):
                    return True
            elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
                scheme = nodes.string_value(node.left)
                if scheme is not None and AUTH_SCHEME.match(scheme) and _reads(node.right, names):
                    return True
    return False


def _with_aliases(functions: List[cst.CSTNode], names: Set[str]) -> Set[str]:
    """`names` with the plain names they are copied from or to: `self._token = token` in `__init__`
    makes the header `f"token {token}"` there evidence for `self._token`."""
    out = set(names)
    for function in functions:
        for node in nodes.iter_expr(function, stop=()):
            if isinstance(node, cst.Assign) and len(node.targets) == 1:
                target, value = nodes.dotted(node.targets[0].target), nodes.dotted(node.value)
                if target in names and value and isinstance(node.value, cst.Name):
                    out.add(value)
                elif value in names and target and isinstance(node.targets[0].target, cst.Name):
                    out.add(target)
    return out


def _secret_env(value: cst.CSTNode) -> bool:
    """`os.environ["API_TOKEN"]`, `os.getenv("API_TOKEN")`, `os.environ.get("GITHUB_PAT", "")`."""
    if isinstance(value, cst.Subscript) and nodes.dotted(value.value).endswith("environ"):
        key = nodes.string_value(_key(value))
    elif isinstance(value, cst.Call) and nodes.dotted(value.func).endswith(("getenv", "environ.get")):
        key = nodes.string_value(nodes.call_arg(value, 0))
    else:
        return False
    return bool(key) and secret_env_var(key)


def _key(target: cst.Subscript) -> cst.CSTNode:
    element = target.slice[0].slice if len(target.slice) == 1 else None
    return element.value if isinstance(element, cst.Index) else None


def _credential_word(word: str, foreign: bool) -> bool:
    kind = secret_kind(word)
    return kind == SECRET or kind == MAYBE_SECRET and foreign


def _secret_key(key) -> bool:
    text = nodes.string_value(key) if key is not None else None
    return bool(text) and secret_kind(text) == SECRET


def _reads(expr: cst.CSTNode, names: Set[str]) -> bool:
    for node in nodes.iter_expr(expr):
        if isinstance(node, (cst.Name, cst.Attribute)) and nodes.dotted(node) in names:
            return True
    return False


# ------------------------------------------------------------------ origins
CREDENTIAL_CALLS = {"getpass.getpass", "keyring.get_password", "keyring.get_credential", "hmac.digest", "hmac.new", "hmac.HMAC"}


def credential_call(builder, func: cst.CSTNode, qualified: str, short: str) -> bool:
    """`getpass.getpass()`, `keyring.get_password(...)`, `secret.get_secret_value()`,
    `hmac.new(key, body, sha256).hexdigest()`, `oauth.authorize_access_token()`."""
    if qualified in CREDENTIAL_CALLS or short == "get_secret_value":
        return True
    if short in ("hexdigest", "digest") and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call):
        return (builder.qualify(func.value.func) or nodes.dotted(func.value.func)) in CREDENTIAL_CALLS
    what = CREDENTIAL_GETTER.sub("", snake(short))
    return what != snake(short) and secret_kind(what) == SECRET


def keyed_secret(base: cst.CSTNode, key: str) -> str:
    """The secret kind of `base[key]` or `base.get(key)` for a key named like a secret: a header or
    cookie carries a credential whatever the word (`headers["X-Token"]`); elsewhere the key's name
    decides (`secret_kind`)."""
    return SECRET if credential_carrier(base) else secret_kind(key)


def credential_carrier(base: cst.CSTNode) -> bool:
    """Request headers and cookies (`request.headers`, `resp.cookies`, `session.headers`): a header
    or cookie named for a secret (`X-Token`, `session_id`) carries a credential, by its origin."""
    return nodes.last_name(base) in ("headers", "cookies", "COOKIES", "META")


def over_credentials(iterable: Optional[cst.CSTNode]) -> bool:
    """A loop over headers or cookies (`headers.items()`) or over a collection named for credentials
    (`api_tokens`, `self.passwords`) yields credentials."""
    if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute) and iterable.func.attr.value in ("items", "values"):
        iterable = iterable.func.value
    if iterable is None or not isinstance(iterable, (cst.Name, cst.Attribute)):
        return False
    name = nodes.last_name(iterable)
    if credential_carrier(iterable):
        return True
    single = re.sub(r"s$", "", name) if name.endswith("s") and not name.endswith("ss") else ""
    return bool(single) and secret_kind(single) == SECRET
