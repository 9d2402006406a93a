"""Credential paths an OSError names: `str(exc)` of an OSError raised opening a credential file
("[Errno 2] No such file or directory: '/run/secrets/db_password'") shows its path. `path_text`
reads the literal text a path expression is built from (names resolved through their single
assignment, environment reads written `$NAME`); `credential_path_tried` answers for the exception a
handler caught, from the operands its `try` opened.
"""
from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from . import nodes

# Environment variables that hold the path of a credential file.
CREDENTIAL_ENV = re.compile(
    r"^(GOOGLE_APPLICATION_CREDENTIALS|AWS_SHARED_CREDENTIALS_FILE|AWS_CONFIG_FILE|KUBECONFIG|DOCKER_CONFIG|NETRC|"
    r"PGPASSFILE|\w*_(KEY|CREDENTIALS?|SECRETS?|TOKEN|CERT|PASSWORD)_(FILE|PATH))$"
)


def path_text(node: Optional[cst.CSTNode], scope, depth: int = 0) -> str:
    """The literal text a path expression is built from, names resolved through their single
    assignment and environment reads written `$NAME`: `Path("/run/secrets") / "db_password"` ->
    "/run/secrets/db_password", `os.environ["KUBECONFIG"]` -> "$KUBECONFIG"."""
    if node is None or depth > 6:
        return ""
    value = nodes.string_value(node)
    if value is not None:
        return value
    if isinstance(node, cst.Name):
        resolved = scope.value(node.value) if scope is not None else None
        return path_text(resolved, scope, depth + 1) if resolved is not None else ""
    key = None
    if isinstance(node, cst.Subscript) and nodes.dotted(node.value).endswith("environ") and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        key = nodes.string_value(node.slice[0].slice.value)
    elif isinstance(node, cst.Call) and nodes.last_name(node.func) in ("getenv", "get") and nodes.dotted(node.func).endswith(("getenv", "environ.get")):
        key = nodes.string_value(nodes.call_arg(node, 0))
    if key:
        return "$" + key
    parts = [path_text(child, scope, depth + 1) for child in nodes.children(node) if child is not getattr(node, "func", None)]
    return "/".join(p for p in parts if p)


def credential_path_tried(exc_name: str, scope, patterns) -> str:
    """The credential path whose OSError `exc_name` holds (its text is "[Errno 2] No such file or
    directory: '/run/secrets/db_password'"), else "". `patterns` are the credential-store patterns
    of the phrase packs; a path read from a credential-file env var (`GOOGLE_APPLICATION_CREDENTIALS`,
    `*_KEY_FILE`) counts too."""
    from .value_names import catches_os_error

    if scope is None:
        return ""
    found = scope.lookup(exc_name)
    if len(found) != 1 or found[0].kind != "except" or not catches_os_error(found[0].caught):
        return ""
    for operand in found[0].tried:
        text = path_text(operand, scope)
        if not text:
            continue
        env = re.findall(r"\$(\w+)", text)
        if any(CREDENTIAL_ENV.match(e) for e in env) or any(p.search(text) for p in patterns):
            return text
    return ""
