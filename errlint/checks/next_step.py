"""AEM201 and AEM206: whether a message tells its reader what to do next. AEM201 looks for a
prescribed step (an imperative, a code span, a flag, a tool, allowed values or retry timing) in the
message or on a following line of the same output run; AEM206 asks a transient failure (timeout,
rate limit, 5xx) to say when to retry or that retrying will not help.
"""
from __future__ import annotations

import re
from typing import Iterable

import libcst as cst

from ..extract.fixability import is_transient
from ..extract import framework_sinks, nodes
from ..model import RETRY_AFTER, TRACEBACK, Finding, Message
from ..prose import statements
from .base import FileContext, complete_templates, later_lines, quote, traceback_attached, translator
from .inputs import first_failing_input
from .signals import value_placeholders
from .part_rule import NOT_FOUND_TEXT, PART_SINKS, PartRule, listing_tool_for, passthrough_only
from .allowed_values import states_requirement
from .fault_location import locates_fault
from .recovery import fixable, internal_invariant
from .vague import messageless_matters, signals

FRAMEWORK_USAGE = (
    "click.UsageError", "click.BadParameter", "click.MissingParameter", "click.NoSuchOption",
    "click.BadOptionUsage", "click.BadArgumentUsage", "click.exceptions.UsageError",
    "click.exceptions.BadParameter", "typer.BadParameter", "click.Context.fail",
    "argparse.ArgumentParser.error", "argparse.ArgumentTypeError", "argparse.ArgumentError",
)
RECOVERED = re.compile(r"\b(continuing|waiting (?:for|on)|falling back|fall(?:ing)? back to|ignoring|skipping|will (?:retry|try again)|retrying(?! (?:will|won't) help)|using (?:the )?default|proceeding (?:with|without))\b", re.I)
PATH_NAME = re.compile(r"(^|_)(path|file|filename|dir|directory|folder)$")
FILE_NOUN = re.compile(r"\b(?:file|directory|folder|path|dir)s?\b", re.I)
# the file, archive or document the reader named is broken: the step (pass another one, or repair it
# outside) is plain, and no tool lists sound ones. What a reader hands a program as content:
_CONTENT = (r"(?:file|archive|document|workbook|worksheet|spreadsheet|image|attachment|upload|zip|xml|json|"
            r"yaml|toml|csv|pdf)s?")
_FORMAT = r"(?:file|archive|zip|xml|json|yaml|toml|csv|pdf|image|document)"
CONTENT_NOUN = re.compile(rf"\b{_CONTENT}\b", re.I)
BROKEN_CONTENT = re.compile(
    r"\b(?:damaged|corrupt(?:ed)?|not well-formed|truncated|unreadable|malformed|"
    r"(?:has|have|with|uses?) an? (?:unexpected|unknown|unsupported) (?:layout|structure|format|encoding|code page))\b"
    # "not a valid OLE compound file", "not a valid zip archive"; not "not a valid project"
    rf"|\bnot an? valid (?:[\w-]+ ){{0,2}}{_FORMAT}\b(?! (?:name|id|type|number|key|path)s?\b)", re.I)
# a message that names the required input the call left out states the step (pass it): "Missing
# insight argument", "missing required parameter: {name}", "`query` is required"; a bare "Missing
# arguments" names nothing to pass
_INPUT_WORD = r"(?:argument|parameter|field|option|key|flag)"
NAMED_MISSING_INPUT = re.compile(
    rf"\bmissing\s+(?:required\s+)?(?!(?:the|an?|some|required|{_INPUT_WORD}s?|values?|data|input)\b)[`'\"]?[A-Za-z_{{][\w.{{}}-]*[`'\"]?\s+{_INPUT_WORD}\b"
    rf"|\bmissing\s+(?:required\s+)?{_INPUT_WORD}s?\b(?:\s*[:=]\s*|\s+)[`'\"{{]?[A-Za-z_{{]"
    r"|[`'\"][A-Za-z_][\w.-]*[`'\"] is required\b"
    rf"|\b(?!(?:the|an?|some|this|that|one|required)\b)[`'\"]?[A-Za-z_][\w.-]*[`'\"]?\s+{_INPUT_WORD}s?\s+(?:(?:is|are)\s+)?(?:missing|required)\b",
    re.I,
)
TYPED_TIMEOUT = re.compile(r"TIMEOUT|^-?408$")


class MissingNextStep(PartRule):
    """## What it does
    Flags a message with no next step: no imperative ("Call list_projects", "Pass --force"), no code
    span, flag or env var, no allowed values, no tool name and no retry timing. Applies to messages
    whose audience is an agent, a CLI user or an HTTP client: the audience comes from the project's
    entry points (MCP tools, CLI commands, HTTP handlers) that reach the message, across modules. A
    raise no entry point reaches, a library's raises and log lines (`exc`, `log`) are opt-in through
    `[tool.errlint.profiles] AEM201 = ["agent", "cli", "http", "exc", "log"]`; there it is reported when
    the caller can fix the error (the raise sits under a guard on a parameter, or in a handler around
    a call that received one).
    A step printed on the following output line of the same run counts (`print("Error: no config",
    file=sys.stderr)` then `print("Run `tool init`.", file=sys.stderr)`), and so does a stated extent
    ("line 90 out of range (file has 40 lines)"), a bound stated with its value ("lower than the
    first value {first}", "file too large (> {MAX_BYTES} bytes)") or wait ("cooling down for
    ~{s}s"). So does a
    message that makes the step plain: it names the required inputs the call left out ("filepath and
    content arguments required"), states the requirement in words of its own ("end before start",
    "not a boolean", "must exist in the schema file"), shows the missing file a CLI user or HTTP
    client named ("File not found: {path}"), says the file or other content the reader handed over is
    broken ("{path} is a damaged zip file", "A part of the workbook is not well-formed XML", "The
    document uses an unsupported encoding"), points at the place in the reader's file or settings
    where the fault is, as a compiler does ("Error reading schema at line {n}: {e}", "Invalid value
    for option {o} in section {s}", "Key '{k}' in {path} does not contain the expected text",
    "{path}:{lineno}: bad indent"; only inside a document the message names or shows, so not an
    order's line, a stadium's section or an S3 key, and not when it says the thing is absent:
    "Key 'token' in {path} is missing"), or says the program is waiting ("Waiting for standard
    input").
    Not reported on a check of the program's own state that an entry point reaches through a helper:
    a plain raise under an `if` that reads no caller input, outside any except handler, showing no
    value, whose test is computed only from the function's own values (parameters every call fills
    with fixed values, locals), module constants and pure operations (`if m is None: raise
    WorkbookError("A worksheet has no sheetData.")` where `m = re.search(P, xml)` on XML the program
    wrote). A test that reads a global or `self` (a connection, a built index: state another entry
    point sets) or calls anything else (a project function, an import probe, a lock, the file system,
    the environment) keeps the rule: the reader may act on it. An own-state check reports a bug; no step
    helps its reader. Nor on a header: a line ending with a colon that the block follows with more
    output ("Some possibly relevant errors from pip install:" then a loop printing them), which every
    missing-part rule judges with the lines it introduces.
    Not reported when AEM204, AEM205, AEM206 or AEM207 is (their fixes supply the step), on an
    internal fault ("Internal error", "should never happen", a catch-all's "Unexpected error in
    {tool}", JSON-RPC INTERNAL_ERROR, HTTP 500: no caller can fix those, which holds for every
    missing-part rule), on log calls that attach the
    traceback (`logger.exception`, `exc_info=`), on stderr output that reports no failure
    (progress lines such as "Codemodding a.py"), or on a library's own exception raised as a signal
    in plain code (a private class such as `_ArityError`, or one the project catches by name).

    ## Why is this bad?
    The agent's next move depends only on the text. Without a step it guesses or stops.

    ## Example
    ```python
    raise ToolError(f"Catalog {catalog} not found")
    ```

    Use instead:
    ```python
    raise ToolError(f"Catalog {catalog!r} not found. Call list_catalogs to see valid names.")
    ```

    ## Fix safety
    Display-only (the step depends on the domain). click's `UsageError`/`BadParameter`, `ctx.fail` and
    argparse's `parser.error` are exempt: the framework prints usage and a `--help` hint.

    ## Options
    None.
    """

    CODE = "AEM201"
    SINKS = PART_SINKS
    NAME = "missing-next-step"
    SUMMARY = "No next step: nothing to call, pass, set or retry"
    PROFILES = ("agent", "cli", "http")  # exc and log: opt-in ([tool.errlint.profiles]), decision of 2026-12-01
    VALID = (
        "from fastmcp.exceptions import ToolError\nraise ToolError('Catalog not found. Call list_catalogs to see valid names.')\n",
        "import click\nraise click.UsageError('Too many patterns')\n",
        "import sys\nsys.exit('No input; pass a path, e.g. `tool a.txt`.')\n",
        "def f(x):\n    if x < 0:\n        raise ValueError(f'x must be >= 0, got {x}')\n",
    )
    INVALID = (
        "from fastmcp.exceptions import ToolError\ndef f(catalog):\n    raise ToolError(f'Catalog {catalog} not found')\n",
        "import sys\nprint('Port busy.', file=sys.stderr)\n",
        "from mcp.types import CallToolResult, TextContent\ndef f(table):\n    msg = f'Refusing to drop {table}: it lacks the required ownership tags'\n    return CallToolResult(isError=True, content=[TextContent(type='text', text=msg)])\n",
        "import click\n@click.command()\ndef connect(url, timeout):\n    if timeout > 0:\n        msg = f'Could not connect to {url} within {timeout}s.'\n        raise ConnectionError(msg)\n",
    )

    def check_part(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if message.callee in FRAMEWORK_USAGE or traceback_attached(message):
            return
        if message.profile == "log" and (message.extra.get("level") not in ("error", "exception", "critical", "fatal") or not fixable(message, ctx, strict=True)):
            return
        if message.profile == "exc" and message.sink != "class-default" and not fixable(message, ctx):
            return
        if message.profile != "exc" and internal_invariant(message, ctx):
            return  # a check of the program's own state, reached through a helper: no step helps its reader
        sig = signals(ctx)
        tools = ctx.registry
        for template in complete_templates(message):
            if message.extra.get("messageless"):
                if messageless_matters(message, ctx):
                    yield self.finding(message, "the error carries no message, so there is no next step", "Add a message that ends with what to do next.")
                return
            if not template.parts or not template.placeholders and not template.literal.strip():
                continue  # a blank line (`print("", file=sys.stderr)`) is spacing, not a message
            if sig.next_step(template, tools) is not None or step_on_a_later_line(message, ctx, sig, tools):
                continue
            if passthrough_only(template, sig) or template.placeholders and not template.literal.strip() and all(h.has(TRACEBACK) for h in template.placeholders):
                continue  # AEM207 (or AEM305 for a bare traceback) reports it
            if RECOVERED.search(template.prose):
                continue  # the program carried on: nothing for the reader to do
            if NAMED_MISSING_INPUT.search(template.text):
                continue  # "Missing insight argument": the step (pass it) is the message
            shown = value_placeholders(template)
            if message.profile != "agent" and NOT_FOUND_TEXT.search(template.prose) and shown and (FILE_NOUN.search(template.prose) or any(PATH_NAME.search(n) for h in shown for n in h.names)):
                continue  # "File not found: {path}" with the path shown: the step (a path that exists) is plain
            if states_requirement(message, template, ctx):
                continue  # "end before start", "not a boolean": the requirement stated is the step
            if BROKEN_CONTENT.search(template.prose) and (shown or CONTENT_NOUN.search(template.prose)):
                continue  # "{path} is a damaged zip file", "A part of the workbook is not well-formed XML": nothing to call or set; another file is the plain step
            if locates_fault(template):
                continue  # "Error reading schema at line {n}: {e}", "option {o} in section {s}": edit it there
            yield self.finding(
                message,
                f'"{quote(template.text)}" gives no next step; say what to call, pass, set or retry',
                suggest_step(message, ctx),
            )
            return


def step_on_a_later_line(message: Message, ctx: FileContext, sig, tools=()) -> bool:
    """The next step printed on a following line of the same output run:
    `print("Error: no config", file=sys.stderr)` then `print("Run `tool init` to create one.", ...)`."""
    return any(sig.next_step(t, tools) is not None for m in later_lines(message, ctx) for t in m.templates if t.complete and not t.fallback)


def suggest_step(message: Message, ctx: FileContext) -> str:
    """The step to suggest: the listing tool for the failed input's noun (an agent can call it; a
    library's reader cannot), else a different value of that input, else the kinds of step. A listing
    tool for another noun is never offered: `list_presentations` does not help with a missing image."""
    failed = first_failing_input(message, ctx)  # the input the guard tested, never the first parameter
    function = message.context.function
    prose = " ".join(t.prose for t in message.templates)
    tool = listing_tool_for(failed, ctx.registry, function.name if function is not None else "", prose) if message.profile == "agent" else None
    if tool:
        return f"End with the step, e.g. \"Call {tool} to see valid values.\""
    if failed:
        return f"End with the step, e.g. \"Pass a different `{failed}`: <what is valid>.\""
    return "End with the step: the command to run, the argument to change, or when to retry."


TIMED_OUT = re.compile(r"\b(?:timed? ?out|took too long|deadline (?:exceeded|passed|expired)|exceeded (?:the |its |a )?(?:deadline|time ?limit|timeout))\b", re.I)


def timed_out(message: Message, prose: str) -> bool:
    """The failure is the call running out of time (not a rate limit or an outage): its text says so,
    or the handler catches timeouts only. The call itself may be too big, so a step that changes it
    ("narrow the date range", "raise the timeout") says what to retry with."""
    if TIMED_OUT.search(prose):
        return True
    handler = message.context.handlers[0] if message.context.handlers else None
    return handler is not None and bool(handler.types) and all("timeout" in t.rsplit(".", 1)[-1].lower() for t in handler.types)


OUTPUT_SINKS = frozenset({"stderr", "stdout", "log", "notify"})
EXITS = frozenset({"exit", "_exit", "quit", "abort", "Exit"})


def moves_on(message: Message) -> bool:
    """An output line in an `except` that neither raises, returns nor exits anywhere in it: the program
    works around the failure and goes on (tries the next candidate, keeps a default), so nobody is to
    retry it."""
    if message.sink not in OUTPUT_SINKS or not message.context.handlers:
        return False
    body = getattr(message.context.handlers[0].node, "body", None)
    if body is None:
        return False
    for node in nodes.iter_expr(body, stop=(cst.Lambda, cst.FunctionDef, cst.ClassDef)):
        if isinstance(node, (cst.Raise, cst.Return)) or isinstance(node, cst.Call) and nodes.last_name(node.func) in EXITS:
            return False
    return True


def call_change(template, ctx: FileContext, sig) -> bool:
    """The message says how to change the call (a step of the caller's own, not a hand-off to a person)."""
    prose = template.prose
    for start, end in statements(ctx.packs).escalations(prose):
        prose = prose[:start] + " " * (end - start) + prose[end:]
    return sig.next_step(template, ctx.registry, prose=prose, action=True) is not None


class MissingRetryGuidance(PartRule):
    """## What it does
    Flags a message for a transient failure that states neither when to retry nor whether retrying
    helps. A failure is transient when the handler catches timeouts or connection errors only; when it
    catches an HTTP client's base class (`httpx.HTTPError`, `requests.RequestException`,
    `aiohttp.ClientError`, `urllib.error.URLError`) that no status error can reach (an earlier
    `except` of the same `try` takes it, or the `try` only sends the request and never calls
    `raise_for_status()`); when a 429/5xx status check leads to it; when a deadline of this run passed
    (`if time.monotonic() - start > limit:`; a stored expiry such as `token.expires_at` is not one); or
    when the text says so ("rate limit", "timed out", "unavailable", "deadline exceeded"). Advice to retry with no wait ("Please retry shortly", "try again
    later") says that retrying helps: AEM103 (retry-without-timing) reports the missing wait there. A
    response or HTTP error that sets a `Retry-After` header (`headers={"Retry-After": "30"}`) gives the
    wait there. A duration that measures the failure ("timed out after 10s") is no retry timing. A
    timeout's message that says how to change the call ("simplify the query or raise the timeout")
    says what to retry with: the call may have been too big, and waiting does not shrink it (a step
    put as a suggestion counts: "consider simplifying the query"). A rate limit or an outage still
    needs the timing. An output line in an `except` that neither raises, returns nor exits is a
    diagnostic of a failure the program works around (it skips the item and goes on): not flagged.

    ## Why is this bad?
    Without timing an agent retries immediately and hits the limit again, or gives up on a failure that
    would pass in 30 seconds (RFC 9110 `Retry-After`; the article's "whether to retry" part).

    ## Example
    ```python
    except httpx.TimeoutException:
        raise ToolError("Report query timed out")
    ```

    Use instead:
    ```python
        raise ToolError(f"Report query exceeded {limit_s}s and was cancelled; retry once with a narrower date_range.")
    ```

    ## Fix safety
    Display-only: the suggestion names the retry timing or the retryability to state. (AEM103 offers
    an unsafe fix when a `retry_after` value is in scope.)

    ## Options
    None.
    """

    CODE = "AEM206"
    SINKS = PART_SINKS
    NAME = "missing-retry-guidance"
    SUMMARY = "Transient failure without retry timing or retryability"
    PROFILES = ("agent", "cli", "http")
    VALID = (
        "from fastmcp.exceptions import ToolError\nimport httpx\ndef f():\n    try:\n        g()\n    except httpx.TimeoutException:\n        raise ToolError('Search timed out; retry after 10 s with a smaller `limit`.')\n",
        "from fastmcp.exceptions import ToolError\ndef f(status):\n    if status == 429:\n        raise ToolError('Rate limited; retrying will not help until 00:00 UTC. Reduce batch_size.')\n",
        "from fastmcp.exceptions import ToolError\ndef f(status):\n    if status == 404:\n        raise ToolError('No such page; call list_pages.')\n",
        "from fastmcp.exceptions import ToolError\nimport asyncio\nasync def f(run, limit_s):\n    try:\n        return await asyncio.wait_for(run(), limit_s)\n    except asyncio.TimeoutError:\n        raise ToolError(f'The query timed out after {limit_s} s; narrow the date range or raise timeout_s.')\n",
    )
    INVALID = (
        "from fastmcp.exceptions import ToolError\nimport concurrent.futures\ndef f(job, limit_s):\n    try:\n        return job.result(timeout=limit_s)\n    except concurrent.futures.TimeoutError:\n        raise ToolError(f'Report query exceeded {limit_s}s and was cancelled')\n",
        "from fastmcp.exceptions import ToolError\ndef f(status):\n    if status == 429:\n        raise ToolError('Too many requests to the CRM; use a smaller batch.')\n",
        "from fastmcp.exceptions import ToolError\nraise ToolError('The search service is unavailable; use the cached index.')\n",
    )

    def check_part(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if TYPED_TIMEOUT.search(str(message.extra.get("code", "") or "")) or translator(message):
            return  # a typed timeout code is the retryability signal; a type-to-code mapper cannot know
        if framework_sinks.sets_retry_after(message.node, lambda name: ctx.resolve(message, name)):
            return  # the `Retry-After` header the response sets says when
        if moves_on(message):
            return  # a diagnostic of a failure the program works around itself ("pre-flight timed out for X")
        facts = ctx.guard(message)
        sig = signals(ctx)
        for template in complete_templates(message):
            worded = re.search(r"\b(rate[- ]limit(?:ed)?|timed out|time ?out|(?<!permanently )unavailable(?! (?:on|in|for|with|before|after|until) )|overloaded|too many requests|throttl\w+|deadline (?:exceeded|passed|expired)|exceeded (?:the |its |a )?deadline|took too long)\b", template.prose, re.I)
            # the words alone do not make a failure transient when a guard rejected the caller's value
            # ("Unknown rate-limit strategy 'x'"): that is a validation the caller fixes, not a wait
            transient = is_transient(message, facts) or worded and not (facts.has_guard and fixable(message, ctx, strict=True))
            if not transient or message.extra.get("messageless"):
                continue
            if sig.retry_statement(template.prose) or any(h.has(RETRY_AFTER) for h in template.placeholders):
                continue
            if sig.retry_advice.search(template.prose):
                continue  # "Please retry shortly", "narrow the query, then retry": it speaks of retrying; AEM103 asks for a wait
            if timed_out(message, template.prose) and call_change(template, ctx, sig):
                continue  # "timed out after 30 s; simplify the query or raise the timeout": what to retry with
            yield self.finding(
                message,
                "transient failure without retry guidance; say when to retry or that retrying will not help",
                "Add the timing, e.g. f\"... Retry after {retry_after} s.\", or \"retrying will not help; <fix>\".",
            )
            return
