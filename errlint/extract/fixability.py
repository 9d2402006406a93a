"""Can the caller fix a failure, and is it transient: read from the guard facts (`context.py`) and
the caller input model (`provenance.py`). The 2xx and 5xx rules and `checks/recovery.py` use these.
"""
from __future__ import annotations

import re
from typing import Callable, List, Optional

import libcst as cst

from ..model import FunctionInfo, Message
from . import transient
from .context import GuardFacts
from .provenance import provenance
from .value_names import UNBOUNDED_ANNOTATION, is_secret_name, snake

ARGUMENT_ERROR = re.compile(r"^(ValueError|TypeError|KeyError|IndexError|LookupError)$|(Value|Argument|Param|Parameter|Input|Validation|Usage|Key|Type)Error$|^BadParameter$")
ID_PARAM = re.compile(r"(^|_)(id|ids|key|slug|uuid|name|path|handle|ref|sha|number|code)$")


def caller_fixable(message: Message, facts: GuardFacts, resolve_local: Callable[[str], Optional[cst.CSTNode]], strict: bool = False) -> bool:
    """True when the caller can fix the failure: the gate of AEM201 on a plain raise (docs/rules.md#aem201).

    The sink sits under a guard that tests a parameter of the enclosing function (or a local computed
    from one), inside a pydantic validator, in an except handler around a call that receives one, or
    the message itself interpolates a value computed from the caller's arguments (not with `strict`,
    and not for messages built in an exception's own constructor).
    """
    function = message.context.function
    if function is not None and function.role == "validator":
        return True
    source = provenance(message, outcomes=True)
    if facts.has_guard and source.inputs(facts.subjects or facts.names):
        return True
    for handler in message.context.handlers[:1]:
        if source.inputs(handler.try_reads):
            return True
    if function is None or strict or message.extra.get("constructor") or not ARGUMENT_ERROR.search(message.callee.rsplit(".", 1)[-1]):
        return False
    # a ValueError/TypeError/KeyError about an argument: the message echoes the caller's value
    echoed = {name.split(".", 1)[0] for t in message.templates for h in t.placeholders for name in h.names}
    return bool(source.inputs(echoed - {"self", "cls"}))


def is_transient(message: Message, facts: GuardFacts) -> bool:
    """A timeout, connection failure, deadline that passed, or 429/5xx status: retrying later may work
    (`transient.py`)."""
    return transient.is_transient(message, facts.statuses)


def tested_params(message: Message, facts: GuardFacts) -> List[str]:
    """Parameters of the enclosing function that the guard tests (in order of the signature)."""
    function = message.context.function
    if function is None:
        return []
    return [p for p in function.param_names if p in facts.subjects]


def is_unbounded_param(function: Optional[FunctionInfo], name: str) -> bool:
    if function is None:
        return False
    param = function.param(name)
    if param is None:
        return False
    return bool(param.annotation and UNBOUNDED_ANNOTATION.match(param.annotation))


def is_id_param(name: str) -> bool:
    return bool(ID_PARAM.search(snake(name))) and not is_secret_name(name)
