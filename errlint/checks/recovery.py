"""Can the caller recover? `fixable` (by changing its input) and `recoverable` (by that, or by waiting
out a transient state). AEM101/AEM201 on plain raises and the `when = "fixable"` phrase rules
(AEM501, AEM502) read these."""
from __future__ import annotations

import re

from ..extract.context import caller_fixable, is_transient
from ..model import Message
from .base import FileContext

NOT_FIXABLE_TEXT = re.compile(
    r"\b(no (?:tool )?call can fix|cannot be fixed by (?:the )?(?:agent|caller|a call)|not caused by your|"
    r"only (?:a person|a human|the user|an? (?:admin|administrator|owner)) can|nothing (?:you|the agent) can do)\b",
    re.I,
)
AUTH_TYPES = re.compile(r"(Permission|Forbidden|Unauthori[sz]ed|Auth\w*|AccessDenied|NotAuthenticated)(Error|Exception)?$")
AUTH_TEXT = re.compile(r"\b(permission|access denied|not authori[sz]ed|unauthori[sz]ed|forbidden|not allowed to|lacks? (?:the )?\w+ (?:scope|role|permission))\b", re.I)
CATCH_ALL = ("", "Exception", "BaseException", "builtins.Exception")


def needs_a_person(message: Message, ctx: FileContext) -> bool:
    """Auth and permission failures, or a message that says the caller cannot fix it: only a
    person can act on those, so escalation and "stop" are the right words there."""
    for handler in message.context.handlers[:1]:
        if any(AUTH_TYPES.search(t.rsplit(".", 1)[-1]) for t in handler.types):
            return True
    if ctx.guard(message).statuses & {401, 403}:
        return True
    return any(AUTH_TEXT.search(t.prose) or NOT_FIXABLE_TEXT.search(t.prose) for t in message.templates)


def crash_handler(message: Message, ctx: FileContext) -> bool:
    """A catch-all `except Exception` with no guard: a crash report, not a caller's mistake."""
    handlers = message.context.handlers
    return bool(handlers) and all(t in CATCH_ALL for t in handlers[0].types) and not ctx.guard(message).has_guard


def fixable(message: Message, ctx: FileContext, strict: bool = False) -> bool:
    """Caller-fixable context, excluding catch-all crash handlers (AEM501/AEM502/AEM201 on exc).

    `strict` requires a guard, validator or handler (not just an echoed argument), and a message that
    says the caller cannot fix it, or an auth failure, is taken as needing a person.
    """
    if crash_handler(message, ctx):
        return False
    if strict and needs_a_person(message, ctx):
        return False
    return caller_fixable(message, ctx.guard(message), lambda name: ctx.origin(message, name), strict)


def recoverable(message: Message, ctx: FileContext) -> bool:
    """The caller can recover on its own: by changing its input (`fixable`, strict) or by waiting
    out a transient state (a timeout, a connection failure, 429/5xx). The gate of AEM501/AEM502."""
    if fixable(message, ctx, strict=True):
        return True
    if crash_handler(message, ctx) or needs_a_person(message, ctx):
        return False
    return is_transient(message, ctx.guard(message))
