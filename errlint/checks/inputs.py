"""Which input failed the check: the name a suggestion should use.

A suggestion that says "Pass a different `verbose`" when the guard tested `limit` sends the reader the
wrong way. The failing inputs are the parameters (or the keys of a parameter dict, `args["amount"]`)
that the guard in front of the message tests, those that failed an allowed-values check first, then
the inputs a tested local was computed from (`n = int(limit)` names `limit`) and the argparse options
a tested namespace field holds (`args.workers` names `workers`, set as `--workers`).
Context objects (`ctx`, `self`, `request`), option flags (`verbose`, `dry_run`, any `bool`) and
whole argument containers (`args`, `kwargs`, `params`) are never named.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional

from ..extract.input_origins import holds_request_fields, origins
from ..model import Message
from .signals import mentions

CONTEXT_OBJECTS = {"ctx", "context", "request", "req", "session", "client", "app", "server", "self", "cls", "mcp", "logger", "log"}
CONTAINERS = {"args", "arguments", "kwargs", "params", "parameters", "options", "opts", "payload", "body", "data", "inputs", "input", "tool_input", "request_args"}
FLAG_NAME = re.compile(
    r"^(verbose|verbosity|debug|quiet|silent|force|dry_run|dryrun|yes|assume_yes|interactive|no_input|color|colour|"
    r"strict|recursive|trace|(?:show|use|enable|disable|is|has|allow|skip|include|no)_\w+)$"
)


def is_flag(function, name: str) -> bool:
    """An option switch or a mode, not a value the reader would change to fix the failure."""
    param = function.param(name) if function is not None else None
    if function is not None and name in function.switches:
        return True  # declared on/off: `@click.option("--ignore", is_flag=True)`
    if param is not None and (param.annotation.replace("Optional[", "").startswith("bool") or param.default in ("True", "False")):
        return True
    return bool(FLAG_NAME.match(name))


def is_container(function, name: str) -> bool:
    """A whole argument container (`args`, `kwargs`, `payload: dict`), not one input; a parameter
    named like one but declared as text or a number (`body: str`, the raw JSON) is one input."""
    if name not in CONTAINERS:
        return False
    param = function.param(name) if function is not None else None
    return not (param is not None and SCALAR_ANNOTATION.match(param.annotation or ""))


def is_model(function, name: str) -> bool:
    """A parameter declared as a class of fields (a pydantic model, a dataclass): `order: OrderIn`."""
    param = function.param(name) if function is not None else None
    return param is not None and bool(MODEL_ANNOTATION.match(param.annotation or ""))


MODEL_ANNOTATION = re.compile(r"^(?:Optional\[)?_?[A-Z][A-Za-z0-9]*(?:Model|Input|Params|Args|Arguments|Request|Options|In|Body|Query|Payload|Config|Spec)\]?$")
SCALAR_ANNOTATION = re.compile(r"^(?:Optional\[)?(?:str|bytes|int|float|Decimal)\b")


def failing_inputs(message: Message, ctx) -> List[str]:
    """The inputs the guard in front of `message` tests, most likely culprit first (see module doc)."""
    return list(failing_input_kinds(message, ctx))


def failing_input_kinds(message: Message, ctx) -> Dict[str, str]:
    """`failing_inputs` with how the reader knows each: "param" (a parameter of the function), "key"
    (a field of an argument dict, `args["amount"]`) or "option" (a field of argparse's namespace,
    `args.workers`, which the reader sets as `--workers`). A value the guard tests that was computed
    from one input by conversions and transforms (`n = int(limit)`, `unit = opts.unit.lower()`,
    `m = SEMVER.fullmatch(version)`) stands for that input (`extract.input_origins`); one computed
    from several (`area = width * height`), or a handle made with it (`db = open_db(path)`), for
    none."""
    function = message.context.function
    if function is None:
        return {}
    facts = ctx.guard(message)
    params = function.param_names
    namespaces = ctx.namespace_params(message)  # `def cmd_fetch(args):` that argparse calls with its namespace
    ordered = [p for p in params if p in facts.value_subjects] + [p for p in params if p in facts.subjects and p not in facts.value_subjects]
    out: Dict[str, str] = {}
    for name in ordered:
        if name in namespaces:
            out.update((kind_name[1], "option") for kind_name in sorted(origins(message.scope, name, facts.attributes, namespaces)) if kind_name[1] not in out)
            continue
        if name in facts.keys:
            out.update((k, "key") for k in facts.keys[name] if k not in out)
            continue
        if name in CONTEXT_OBJECTS or is_flag(function, name):
            continue
        if is_container(function, name) or is_model(function, name):
            # `params.limit` of a pydantic model or an arguments object: the field is the input
            out.update((a.split(".", 1)[1], "key") for a in sorted(facts.attributes) if a.split(".", 1)[0] == name and a.split(".", 1)[1] not in out)
            continue
        out.setdefault(name, "param")
    options = None
    # values that failed a check first (a bound, a set, a format), then any other tested value
    # (`if m is None` for `m = SEMVER.fullmatch(version)`, `if ext in BLOCKED`)
    others = sorted((facts.value_subjects | set(facts.zero_bounds)) - set(params)) + sorted(facts.subjects - facts.value_subjects - set(facts.zero_bounds) - set(params))
    for subject in others:
        if not subject or subject in CONTEXT_OBJECTS:
            continue
        if subject in facts.keys and holds_request_fields(message.scope, subject):
            out.update((k, "key") for k in facts.keys[subject] if k not in out)  # `body = request.get_json(); body.get("sort")`
            continue
        found = origins(message.scope, subject, facts.attributes, namespaces)
        if len(found) != 1:
            continue  # `area = width * height`: which of the two failed?
        kind, name = next(iter(found))
        if name in out or name in CONTEXT_OBJECTS or kind == "param" and is_container(function, name):
            continue
        if kind == "option":
            options = ctx.argparse_options() if options is None else options
            if options.get(name, ((), False))[1] or FLAG_NAME.match(name):
                continue  # `--dry-run` declared `store_true`: a switch, not the value that failed
        elif name in facts.keys or is_flag(function, name):
            continue
        out[name] = kind
    return out


def first_failing_input(message: Message, ctx) -> str:
    found = failing_inputs(message, ctx)
    return found[0] if found else ""


REQUIRED_TEXT = re.compile(
    r"\b(?:is|are)\s+(?:required|missing|needed)\b|\bmust\s+(?:be\s+)?(?:specified|provided|given|set|passed|supplied|included)\b"
    r"|\b(?:specify|provide|pass|supply|set|add|include)\b|\bmissing\b|\brequired\b",
    re.I,
)


def reports_missing_input(template, facts) -> bool:
    """The message is about an input the guard found absent (`other_table is None`), named as
    required ("other_table must be specified for a compound key"): the other values the guard tests
    are the circumstance, not the rejected value, so there is nothing to echo or to bound."""
    if not facts.empty_subjects or not REQUIRED_TEXT.search(template.prose):
        return False
    tested = facts.value_subjects | {b[0] for b in facts.bounds} | {m.subject for m in facts.memberships}
    return any(s and s not in CONTEXT_OBJECTS and s not in tested and mentions(template, s) for s in facts.empty_subjects)


FIELD_HOOKS = ("process_formdata", "process_data", "pre_validate", "post_validate")


def form_rendered(message: Optional[Message]) -> bool:
    """A form field's own hook (WTForms `__call__(form, field)`, `process_formdata`): the form is
    shown again with the message beside the field, holding the value the user typed."""
    function = message.context.function if message is not None else None
    if function is not None and function.name.startswith("clean_") and message.callee.rsplit(".", 1)[-1] == "ValidationError":
        return True  # Django's `Form.clean_<field>`: the form is shown again, the field's error beside its value
    return function is not None and (function.name in FIELD_HOOKS or {"form", "field"} <= set(function.param_names))


def field_scoped(message: Optional[Message]) -> bool:
    """A form-field validator (WTForms `__call__(form, field)`, `process_formdata`, Django/DRF
    `validate_<field>`): the framework shows the message beside the field and its value, so the
    message need not name them."""
    function = message.context.function if message is not None else None
    return form_rendered(message) or function is not None and (
        function.name.startswith("validate_") and message.callee.rsplit(".", 1)[-1] == "ValidationError"
    )
