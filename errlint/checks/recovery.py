"""Can the caller recover? `fixable` (by changing its input) and `recoverable` (by that, or by waiting
out a transient state). AEM101/AEM201 on plain raises and the `when = "fixable"` phrase rules
(AEM501, AEM502) read these."""
from __future__ import annotations

import re
from typing import Mapping, Optional

import libcst as cst

from ..extract.fixability import caller_fixable, is_transient
from ..extract import nodes
from ..extract.provenance import REGEX_CALL, REGEX_MODULES, provenance
from ..model import Message
from .base import FileContext, states_unknown_failure

NOT_FIXABLE_TEXT = re.compile(
    r"\b(no (?:tool )?call can fix|cannot be fixed by (?:the )?(?:agent|caller|a call)|not caused by your|"
    r"only (?:a person|a human|the user|an? (?:admin|administrator|owner)) can|nothing (?:you|the agent) can do)\b",
    re.I,
)
AUTH_TYPES = re.compile(r"(Permission|Forbidden|Unauthori[sz]ed|Auth\w*|AccessDenied|NotAuthenticated)(Error|Exception)?$")
# an authentication or authorisation failure, by what failed and how, in either order: "invalid API key",
# "the API key is invalid", "your token was revoked", "login failed", "incorrect password",
# "credentials rejected", "insufficient scopes on the token", "account locked"
_AUTH_NOUN = (r"(?:api[ _-]?keys?|access keys?|tokens?|credentials?|passwords?|passphrases?|secrets?|logins?|"
              r"usernames?|sign[ -]?in|scopes?|sessions?|accounts?|authenticat\w*|authori[sz]ation)")
_AUTH_FAILED = (r"(?:invalid|expired|revoked|rejected|incorrect|wrong|bad|failed|denied|locked|disabled|"
                r"insufficient|missing required|not recogni[sz]ed|unknown)")
AUTH_TEXT = re.compile(
    r"\b(permission|access denied|not authori[sz]ed|unauthori[sz]ed|forbidden|not allowed to|lacks? (?:the )?\w+ (?:scope|role|permission)|"
    r"not authenticated|authentication (?:failed|required|error)|"
    rf"{_AUTH_FAILED}(?:\s+\w+){{0,2}}?\s+{_AUTH_NOUN}|{_AUTH_NOUN}(?:\s+\w+){{0,3}}?\s+(?:is |are |was |were |has been |have been |has |have )?{_AUTH_FAILED})\b",
    re.I)
AUTH_STATUSES = frozenset({401, 403})
CATCH_ALL = ("", "Exception", "BaseException", "builtins.Exception")
# A guard that asks whether an action is permitted (`robots.can_fetch(url, agent)`, `user.has_perm(p)`,
# `policy.is_allowed(x)`): the answer is a policy's, which the caller cannot change by changing its input.
PERMISSION_QUERY = re.compile(
    r"^(?:can_\w+|may_\w+|is_allowed\w*|is_permitted|allowed_to\w*|has_(?:perm|permission|permissions|access|role|scope)\w*|"
    r"permits?|check_permissions?|is_authori[sz]ed|authori[sz]e)$"
)

# Calls that parse or convert a value: when they fail, the value was malformed.
PARSE_CALLS = re.compile(
    r"^(?:json\.loads?|(?:yaml\.)?(?:safe_)?load|tomllib\.loads|tomli\.loads|toml\.loads|ast\.literal_eval|literal_eval|"
    r"int|float|complex|Decimal|decimal\.Decimal|Fraction|fractions\.Fraction|"
    r"(?:datetime\.)?(?:datetime|date|time)\.(?:fromisoformat|strptime)|fromisoformat|strptime|"
    r"uuid\.UUID|UUID|ipaddress\.ip_\w+|ip_address|ip_network|re\.compile|base64\.\w*b64decode|b64decode|bytes\.fromhex|"
    r"(?:zoneinfo\.)?ZoneInfo|dateutil\.parser\.parse|shlex\.split|urllib\.parse\.\w+|"
    r"[\w.]*\.(?:model_validate|model_validate_json|parse_obj|parse_raw|validate_python|validate_json)|(?:jsonschema\.)?validate)$"
)
HARMLESS_CALLS = re.compile(r"(?:^|\.)(?:str|len|isinstance|strip|lstrip|rstrip|lower|upper|encode|decode|split|replace|bool|dict|list|tuple)$")


def parses_caller_input(message: Message, ctx: FileContext) -> bool:
    """A broad `except Exception:` around `json.loads(user_value)`: the try block only parses or
    converts values computed from the caller's arguments, so what fails is the caller's input."""
    handler = message.context.handlers[0]
    calls = [c for c in handler.try_calls if c]
    if not calls or not any(PARSE_CALLS.match(c) for c in calls) or not all(PARSE_CALLS.match(c) or HARMLESS_CALLS.search(c) for c in calls):
        return False
    return bool(provenance(message).inputs(set(handler.try_reads)))


def needs_a_person(message: Message, ctx: FileContext) -> bool:
    """Auth and permission failures, or a message that says the caller cannot fix it: only a
    person can act on those, so escalation and "stop" are the right words there."""
    for handler in message.context.handlers[:1]:
        if any(AUTH_TYPES.search(t.rsplit(".", 1)[-1]) for t in handler.types):
            return True
    if ctx.guard(message).statuses & AUTH_STATUSES or message.extra.get("status") in AUTH_STATUSES:
        return True  # a 401/403 tested in front of the sink, or the status the sink answers with
    if _permission_guard(message):
        return True
    return any(AUTH_TEXT.search(t.prose) or NOT_FIXABLE_TEXT.search(t.prose) for t in message.templates)


def _permission_guard(message: Message) -> bool:
    """The innermost `if` in front of the sink tests a permission query (see PERMISSION_QUERY)."""
    for guard in message.context.guards[:1]:
        if guard.kind == "fallthrough" or guard.test is None:
            continue
        for node in nodes.iter_expr(guard.test):
            if isinstance(node, cst.Call) and PERMISSION_QUERY.match(nodes.last_name(node.func) or ""):
                return True
    return False


def crash_handler(message: Message, ctx: FileContext) -> bool:
    """A catch-all `except Exception` with no guard: a crash report, not a caller's mistake (unless
    its try block only parses the caller's values: `parses_caller_input`)."""
    handlers = message.context.handlers
    return (
        bool(handlers) and all(t in CATCH_ALL for t in handlers[0].types)
        and not ctx.guard(message).has_guard and not parses_caller_input(message, ctx)
    )


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


# What a check of the program's own state may compute its test with: builtins, regular expressions,
# and the pure methods of the values it holds (str, bytes, containers, match objects). Anything else
# (a project function, an import probe, a client, a lock) may read the world or state another entry
# point set.
PURE_BUILTINS = frozenset({
    "len", "isinstance", "issubclass", "int", "float", "str", "bytes", "bool", "list", "tuple", "dict", "set",
    "frozenset", "sorted", "reversed", "min", "max", "sum", "any", "all", "abs", "range", "enumerate", "zip",
    "next", "iter", "type", "repr", "ord", "chr", "hasattr", "callable", "None", "True", "False",
})
PURE_METHODS = frozenset({
    "find", "rfind", "index", "rindex", "count", "startswith", "endswith", "strip", "lstrip", "rstrip", "split",
    "rsplit", "splitlines", "partition", "rpartition", "lower", "upper", "casefold", "replace", "join", "decode",
    "encode", "isdigit", "isalpha", "isalnum", "isidentifier", "isspace", "get", "keys", "values", "items",
    "copy", "match", "search", "fullmatch", "findall", "finditer", "group", "groups", "groupdict", "start",
    "end", "span", "format", "hex", "issubset", "issuperset", "intersection", "union", "difference",
})
CONSTANT_NAME = re.compile(r"^_*[A-Z][A-Z0-9_]*$")
CLASS_NAME = re.compile(r"^_*[A-Z][a-z0-9]+[A-Za-z0-9]*$")  # CamelCase: a class, read as a type


def internal_invariant(message: Message, ctx: FileContext, state_is_own: bool = False) -> bool:
    """A plain raise that checks the program's own state: it sits under an `if` whose test reads no
    caller input, outside any except handler (no operation failed), is no timeout or status, and
    shows no value, and the test is computed only from the function's own values (its parameters,
    which every call fills with fixed values, and its locals), module constants and pure operations
    (`if m is None: raise WorkbookError("A worksheet has no sheetData.")` where `m = re.search(P, xml)`
    on XML the program wrote). A test that reads a global or `self` (state another entry point may
    set: a connection, a loaded index), or calls anything else (a project function, an import probe,
    a lock, the file system) is not one. No step helps the reader of an own-state check: it reports
    a bug, or data the program made.

    `state_is_own`: reads of `self`, of the globals the file defines and of imported classes count as
    the program's own state too (any other imported name is still the world's). So they are for a
    raise that only a CLI command reaches, run once per process: no other entry point of the same
    process sets that state (`reachability.Reach.crash_only`)."""
    if message.sink != "raise" or message.context.handlers or message.extra.get("messageless"):
        return False
    facts = ctx.guard(message)
    if not facts.has_guard or facts.status_tested:
        return False
    if any(h.names for t in message.templates for h in t.placeholders):
        return False
    if fixable(message, ctx) or needs_a_person(message, ctx):
        return False
    return _own_values_only(message, facts, ctx.facts.imports if state_is_own else None)


def _own_values_only(message: Message, facts, imported: Optional[Mapping[str, str]] = None) -> bool:
    """The guard's tests, and the values they read through any number of assignments, use only the
    function's own names, module constants and pure operations (PURE_BUILTINS, PURE_METHODS,
    regular expressions). With `imported` (the file's imports: local name -> qualified), `self`, the
    globals the file defines and imported classes (CamelCase names, read as types) count as the
    function's own; any other imported name (`os.environ`, a client) is still the world's."""
    scope = message.scope
    if scope is None or message.context.function is None:
        return False
    tests = [g.test for g in message.context.guards if g.test is not None]
    if not tests:
        return False
    own = scope.bindings  # the function's parameters and locals
    values = list(tests)
    # every value the tested names were computed from, through assignments and fills (`outcomes`)
    for name in provenance(message, outcomes=True).ancestors(facts.names | facts.subjects) | {n.split(".", 1)[0] for n in facts.names | facts.subjects}:
        values.extend(b.value for b in scope.lookup(name) if b.value is not None)
        values.extend(scope.mutated(name))  # what the code put into it: `parts.append(x)`, `table[k] = v`
    for value in values:
        walked = list(nodes.iter_expr(value))
        # names a comprehension binds are its own; attribute and keyword names are no reads
        local = {n.value for c in walked if c.__class__ is cst.CompFor for n in nodes.iter_expr(c.target) if n.__class__ is cst.Name}
        skip = {id(c.attr) for c in walked if c.__class__ is cst.Attribute}
        skip |= {id(c.keyword) for c in walked if c.__class__ is cst.Arg and c.keyword is not None}
        for node in walked:
            cls = node.__class__
            if cls is cst.Name and id(node) not in skip:
                name = node.value
                if imported is not None and (name not in imported or CLASS_NAME.match(name)):
                    continue  # state the program set, or a class (`isinstance(self.stream, SyncByteStream)`); a call of it is judged below
                if name in ("self", "cls"):
                    return False  # object state: another entry point may have set it
                if name not in own and name not in local and not CONSTANT_NAME.match(name) and name not in PURE_BUILTINS and name not in REGEX_MODULES:
                    return False  # a global: state, or a function that may read the world
            if cls is cst.Call:
                func = node.func
                if func.__class__ is cst.Name:
                    if func.value not in PURE_BUILTINS:
                        return False
                elif func.__class__ is cst.Attribute:
                    dotted = nodes.dotted(func) or ""
                    if not (REGEX_CALL.match(dotted) or func.attr.value in PURE_METHODS):
                        return False
                else:
                    return False
    return True


def recoverable(message: Message, ctx: FileContext) -> bool:
    """The caller can recover on its own: by changing its input (`fixable`, strict) or by waiting
    out a transient state (a timeout, a connection failure, 429/5xx). The gate of AEM501/AEM502.
    A failure the message itself calls unknown ("Unknown error calling API") is not known to be the
    caller's to fix, whatever the guard tests: only a wait may help it."""
    if states_unknown_failure(message):
        return is_transient(message, ctx.guard(message))
    if fixable(message, ctx, strict=True):
        return True
    if crash_handler(message, ctx) or needs_a_person(message, ctx):
        return False
    return is_transient(message, ctx.guard(message))
