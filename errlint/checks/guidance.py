"""5xx: agent guidance. AEM501-AEM503 are phrase rules in `rules/guidance.toml`; this module holds the
rules that compare typed state with the words."""
from __future__ import annotations

import re
from typing import Iterable

import libcst as cst

from ..extract import nodes
from ..model import Finding, Level, Message
from .base import FileContext, Option, Rule

STOP_WORDS = re.compile(r"\b(do not retry|don't retry|do not try again|give up|stop|cannot (?:continue|proceed)|not retryable)\b", re.I)
RETRY_WORDS = re.compile(r"\b(try again|retry|retrying|in a (?:few|moment))\b", re.I)
# words that deny a retry helps: a retry word inside them advises no retry
DENIED_RETRY = re.compile(
    r"\b(?:(?:do not|don't|never|no need to) (?:retry|try again)|"
    r"(?:retry|retrying|a retry|trying again|another attempt) (?:will not|won't|cannot|can't|would not|wouldn't|does not|doesn't|is not going to|isn't going to) \w+|"
    r"(?:there is |there's )?(?:no|little) (?:use|point|sense) (?:in )?(?:retrying|trying again)|"
    r"(?:retrying|trying again) (?:is|would be) (?:pointless|useless|futile)|not retryable|non-retryable|"
    r"(?:it )?makes? no sense to (?:retry|try again)|no retry (?:can|will|would|could) \w+|even if you (?:retry|try again)[^.;]*)\b", re.I)
FIX_INPUT = re.compile(r"\b(fix (?:your|the) (?:input|arguments?|request)|invalid (?:input|arguments?|request)|check (?:your|the) (?:input|arguments?))\b", re.I)
TRANSIENT_OK = {408, 425, 429}


class StateTextMismatch(Rule):
    """## What it does
    Flags typed error state that contradicts the words: a retryable error (arcade's
    `RetryableToolError`, `retryable=True`) whose text says stop; a fatal one (`FatalToolError`,
    `retryable=False`, `can_retry=False`) whose text says retry; an HTTP 4xx (other than 408/425/429)
    that says "try again later"; a 429/503 that says "fix your input".

    ## Why is this bad?
    Agents follow the structured field; the article's server said "re-read, then retry" in the text and
    `human_input` in the guidance, so an agent stopped over a routine retry.

    ## Example
    ```python
    raise HTTPException(status_code=400, detail="Something is off; try again later.")
    ```

    Use instead:
    ```python
    raise HTTPException(status_code=400, detail="start_date must be before end_date; fix the range and resend.")
    ```

    ## Fix safety
    Display-only.

    ## Options
    None.
    """

    CODE = "AEM504"
    NAME = "state-text-mismatch"
    SUMMARY = "Typed error state contradicts the text"
    PROFILES = ("agent", "http")
    VALID = (
        "from fastapi import HTTPException\nraise HTTPException(status_code=429, detail='Rate limited; retry after 30 s.')\n",
        "from fastapi import HTTPException\nraise HTTPException(status_code=400, detail='start must be before end; fix the range.')\n",
        "from arcade_tdk.errors import RetryableToolError\nraise RetryableToolError('Index is rebuilding; retry after 60 s.')\n",
    )
    INVALID = (
        "from fastapi import HTTPException\nraise HTTPException(status_code=400, detail='Something is off; try again later.')\n",
        "from arcade_tdk.errors import RetryableToolError\nraise RetryableToolError('Quota exhausted. Do not retry.')\n",
        "from fastapi import HTTPException\nraise HTTPException(status_code=503, detail='Invalid input; fix your input.')\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        retryable = message.extra.get("retryable") or _kw_bool(message, ("retryable", "can_retry", "is_retryable"), True)
        fatal = message.extra.get("fatal") or _kw_bool(message, ("retryable", "can_retry", "is_retryable"), False)
        status = message.extra.get("status")
        for template in message.templates:
            prose = template.prose
            if retryable and STOP_WORDS.search(prose):
                yield self.finding(message, "the error is typed retryable but the text says to stop", "Make the text and the type agree: say when to retry, or raise a non-retryable error.")
                return
            if fatal and RETRY_WORDS.search(DENIED_RETRY.sub(" ", prose)):
                yield self.finding(message, "the error is typed fatal/non-retryable but the text says to retry", "Drop the retry advice, or type the error as retryable.")
                return
            if isinstance(status, int) and 400 <= status < 500 and status not in TRANSIENT_OK and re.search(r"try again later|retry later", prose, re.I):
                yield self.finding(message, f"HTTP {status} is a client error, but the text says to try again later", "Say what to change in the request; keep \"retry later\" for 429/503.")
                return
            if isinstance(status, int) and status in (429, 503) and FIX_INPUT.search(prose):
                yield self.finding(message, f"HTTP {status} is transient, but the text blames the input", "Say when to retry (Retry-After) instead.")
                return


def _kw_bool(message: Message, names: tuple, value: bool) -> bool:
    call = message.node
    if not isinstance(call, cst.Call):
        return False
    for name in names:
        arg = nodes.keyword_arg(call, name)
        if isinstance(arg, cst.Name) and arg.value == ("True" if value else "False"):
            return True
    return False


class MissingTypedState(Rule):
    """## What it does
    Flags structured error payloads (`HTTPException(detail={...})`, a dict returned as an `isError`
    result) without a state or error-code field from `state-vocabulary` (default fix_args, retry,
    wrong_state, needs_user, stop) or a `code`/`error_code`/`type` key. Off by default.

    ## Why is this bad?
    A typed state lets an agent choose its move without parsing prose (the article's typed refusals;
    RFC 9457 extension members).

    ## Example
    ```python
    raise HTTPException(422, detail={"message": "size is invalid"})
    ```

    Use instead:
    ```python
    raise HTTPException(422, detail={"state": "fix_args", "message": "size must be one of s, m, l"})
    ```

    ## Fix safety
    Display-only.

    ## Options
    `state-vocabulary` (list of str): the accepted state values.
    """

    CODE = "AEM505"
    NAME = "missing-typed-state"
    SUMMARY = "Structured error without a typed state"
    PROFILES = ("agent", "http")
    DEFAULT = False
    LEVEL = Level.INFO
    PROSE = False
    OPTIONS = {"state-vocabulary": Option(["fix_args", "retry", "wrong_state", "needs_user", "stop"], "list[str]", "Accepted values of the state field.")}
    VALID = (
        "from fastapi import HTTPException\nraise HTTPException(422, detail={'state': 'fix_args', 'message': 'size must be s, m or l'})\n",
        "from fastapi import HTTPException\nraise HTTPException(422, detail={'code': 'bad_size', 'message': 'size must be s, m or l'})\n",
        "from fastapi import HTTPException\nraise HTTPException(422, detail='size must be s, m or l')\n",
    )
    INVALID = (
        "from fastapi import HTTPException\nraise HTTPException(422, detail={'message': 'size must be s, m or l'})\n",
        "from fastapi import HTTPException\nraise HTTPException(status_code=409, detail={'error': 'version conflict'})\n",
        "from fastapi import HTTPException\nraise HTTPException(400, detail={'msg': 'bad', 'field': 'size'})\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        expr = message.expr
        if not isinstance(expr, cst.Dict):
            return
        keys = {nodes.string_value(el.key) for el in expr.elements if isinstance(el, cst.DictElement)}
        vocabulary = set(self.options["state-vocabulary"])
        if keys & {"state", "code", "error_code", "type", "kind", "status", "retryable"}:
            return
        values = {nodes.string_value(el.value) for el in expr.elements if isinstance(el, cst.DictElement)}
        if values & vocabulary:
            return
        yield self.finding(message, "structured error without a typed state or error code", f"Add \"state\": one of {', '.join(sorted(vocabulary))} (or a stable \"code\").")
