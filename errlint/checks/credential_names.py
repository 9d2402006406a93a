"""AEM301's question for a value named only by an ambiguous word (`token`, `session_id`,
`signature`: `MAYBE_SECRET`): is it a credential here? Yes when the code sends it to authenticate
(`extract.credential_evidence.used_as_credential`), or when the message, or the function or class it
is written in, speaks of authentication (lexicon `authentication` in `rules/credentials.toml`)."""
from __future__ import annotations

from ..extract.credential_evidence import used_as_credential
from ..extract.value_names import snake
from ..model import Message, Placeholder, Template
from .base import FileContext


def named_credential(holder: Placeholder, template: Template, message: Message, ctx: FileContext) -> bool:
    """Whether a `MAYBE_SECRET` placeholder is a credential in this message."""
    return _speaks_of_authentication(holder, template, message, ctx) or _sent_to_authenticate(holder, message, ctx)


def _sent_to_authenticate(holder: Placeholder, message: Message, ctx: FileContext) -> bool:
    """Whether the function (or, for `self.x`, any method of its class) sends the value to
    authenticate: `headers={"Authorization": f"Bearer {token}"}`, `WebClient(token=token)`."""
    function = message.context.function
    if function is None or function.node is None or not holder.names:
        return False
    functions = [function.node]
    if any(n.startswith(("self.", "cls.")) for n in holder.names) and function.class_name:
        functions += [f.node for f in ctx.facts.functions if f.class_name == function.class_name and f.node is not None and f is not function]
    own = {f.name for f in ctx.facts.functions} | {f.class_name for f in ctx.facts.functions if f.class_name}
    return used_as_credential(functions, set(holder.names), own)


def _speaks_of_authentication(holder: Placeholder, template: Template, message: Message, ctx: FileContext) -> bool:
    """Whether the message, or the function or class it is written in, speaks of authentication, so
    that a `token` or `session_id` it shows is a credential. A `signature` needs its origin (a header,
    a MAC): "signature" is as often a function's. The enclosing function's or class's name counts for
    its own parameters and attributes (`def login(user, token)`, `class Authenticator`), not for a
    local it computed."""
    name = holder.detail or holder.expr
    if "signature" in snake(name):
        return False
    authentication = ctx.packs.lexicon("authentication")
    if authentication.search(template.literal):
        return True
    where = message.context
    root = holder.expr.split(".", 1)[0].split("[", 1)[0]
    owners = []
    if where.function is not None and root in where.function.param_names:
        owners += [where.function.name, where.class_name]
    elif root in ("self", "cls"):
        owners.append(where.class_name)
    return any(authentication.search(snake(n).replace("_", " ")) for n in owners if n)
