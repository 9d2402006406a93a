"""Whether a value is used as a credential where it is defined: the evidence that makes a value named
only by an ambiguous word (`token`, `session_id`: `placeholder_kinds.MAYBE_SECRET`) a credential.

A value is used as one when the code sends it to authenticate:
- as a keyword argument named for a secret (`WebClient(token=token)`, `from_pretrained(m, token=token)`,
  `login(password=pw)`);
- under a header or field named for a secret (`{"Authorization": f"Bearer {token}"}`,
  `headers["X-Api-Key"] = token`, `headers.update({"Authorization": ...})`);
- in a string that is an authorization scheme (`f"Bearer {token}"`, `"token " + token`).

It is also a credential when it is set from an environment variable named for a secret
(`self.token = os.environ["API_TOKEN"]`).

For an attribute of `self`, every method of the class counts (`self.token` put in a header in
`__init__` and shown in an error in another method).
"""
from __future__ import annotations

import re
from typing import Iterable, Set

import libcst as cst

from . import nodes
from ..model import MAYBE_SECRET, SECRET
from .value_names import secret_env_var, secret_kind

AUTH_SCHEME = re.compile(r"^\s*(?:Bearer|Basic|Token|token|Bot|Digest)\s+$")


def used_as_credential(functions: Iterable[cst.CSTNode], names: Set[str], own: Set[str]) -> bool:
    """True when any of `functions` sends one of `names` (dotted names: `token`, `self.token`) to
    authenticate (see the module docstring). A key or keyword that is itself only ambiguous
    (`"token"`, `PathOrToken=`) is no evidence, except a keyword of another package's call
    (`WebClient(token=token)`): `own` holds the names of the file's own functions and classes."""
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
