"""2xx: the missing parts of a good error (input and value, what is allowed, where to get a valid
value, whether to retry), plus exception passthrough and references to tools that do not exist."""
from __future__ import annotations

import difflib
import re
from typing import Iterable

from ..extract.context import (
    GuardFacts,
    is_id_param,
    is_transient,
    is_unbounded_param,
    tested_params,
)
from ..extract.guards import DOCUMENT_FORMS, deny_stated, parse_form_stated
from ..extract.provenance import provenance
from ..extract.value_sets import describe as describe_set
from ..fixes import append_edit, insert_in_fstring
from ..model import COLLECTION, EXCEPTION, HINT, RELAYED, RETRY_AFTER, TRACEBACK, Applicability, Edit, Finding, Fix, Level, Message, Template
from .base import CONTENT_SINKS, FileContext, Option as RuleOption, Rule, complete_templates, internal_fault, internal_signal, later_lines, quote, traceback_attached, translator
from .inputs import CONTEXT_OBJECTS, failing_inputs, first_failing_input, is_flag
from .signals import identifiers, interpolates, mentions, tool_references, value_placeholders
from .no_message import without_text
from .recovery import fixable
from .vague import messageless_matters, signals

PART_SINKS = CONTENT_SINKS - {"warn"}  # a warning is not a failure: it needs no echo, list or step

FRAMEWORK_USAGE = (
    "click.UsageError", "click.BadParameter", "click.MissingParameter", "click.NoSuchOption",
    "click.BadOptionUsage", "click.BadArgumentUsage", "click.exceptions.UsageError",
    "click.exceptions.BadParameter", "typer.BadParameter", "click.Context.fail",
    "argparse.ArgumentParser.error", "argparse.ArgumentTypeError", "argparse.ArgumentError",
)
LISTING_TOOL = re.compile(r"^(list|search|find|get_all|lookup|browse|query)_")
NOT_FOUND_TEXT = re.compile(r"\b(not found|unknown|does not exist|doesn't exist|no such|not a valid|is not valid|invalid id|no \w+ (?:with|named|called|matches))\b", re.I)
VALUE_SOURCE = re.compile(r"\bto see (?:the )?(?:valid|available|allowed|existing|known|supported)\b|\b(?:list|search|find)\w* (?:\w+ )?(?:to|for) (?:see|find|get)\b", re.I)
RANGE_TEXT = re.compile(r"\b(at least|at most|no more than|up to|between|minimum|maximum|max|min|limit|exceeds?|above|below|greater|less|fewer|more than|range|positive|negative|non-negative|non-zero|whole number|single|only one|exactly)\b|[<>]=?|\u2264|\u2265", re.I)
EXAMPLE_TEXT = re.compile(r"\b(e\.g\.|for example|such as|like|format|formatted|must (?:match|be|look|start|end|contain)|expected|should (?:be|look|match)|in the form)\b", re.I)
RECOVERED = re.compile(r"\b(continuing|falling back|fall(?:ing)? back to|ignoring|skipping|will (?:retry|try again)|retrying(?! (?:will|won't) help)|using (?:the )?default|proceeding (?:with|without))\b", re.I)
ZERO_WORDS = re.compile(r"\b(positive|negative|non-negative|nonnegative|non-zero|nonzero|empty|whole number)\b", re.I)
PATH_NAME = re.compile(r"(^|_)(path|file|filename|dir|directory|folder)$")
TYPED_TIMEOUT = re.compile(r"TIMEOUT|^-?408$")
AGENT_FACING_ERROR = re.compile(r"^(ToolError|ResourceError|PromptError|McpError|MCPError|HTTPException|UsageError|BadParameter)$")
EXC_TYPE_NAME = re.compile(r"^(type\(\w+\)\.__(?:qual)?name__|\w+\.__class__\.__(?:qual)?name__)$")


class PartRule(Rule):
    """A "missing part" rule: none applies to an internal fault, which no caller can fix, nor to an
    exception a library raises as an internal signal. Subclasses implement `check_part`."""

    def applies(self, message: Message) -> bool:
        return super().applies(message) and not internal_fault(message)

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        function = message.context.function
        if internal_signal(message, ctx) or function is not None and function.name == "__getattr__":
            return ()  # PEP 562 / attribute lookup: "has no attribute {name!r}" is Python's own message
        main = [t for t in message.templates if not t.fallback]
        if self.code in ("AEM202", "AEM203", "AEM204", "AEM205") and main and all(relayed_text(t) for t in main):
            return ()  # `raise ToolError(result.get("error"))`: the text is the upstream's; AEM207 judges relaying it
        if message.extra.get("detached"):
            return ()  # an error-message table entry (Django `error_messages`): no failure site to judge parts at
        return self.check_part(message, ctx)

    def check_part(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        return ()


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
    ("line 90 out of range (file has 40 lines)") or wait ("cooling down for ~{s}s").
    Not reported when AEM204, AEM205, AEM206 or AEM207 is (their fixes supply the step), on an
    internal fault ("Internal error", "should never happen", JSON-RPC INTERNAL_ERROR, HTTP 500: no
    caller can fix those, which holds for every missing-part rule), on log calls that attach the
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
            if message.profile != "agent" and NOT_FOUND_TEXT.search(template.prose) and any(PATH_NAME.search(n) for h in value_placeholders(template) for n in h.names):
                continue  # "File not found: {path}" with the path shown: the step (a path that exists) is plain
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
    listing = sorted(t for t in ctx.registry if LISTING_TOOL.match(t))
    if listing and message.profile == "agent":  # a tool's reader can call the listing tool; a library's cannot
        return f"End with the step, e.g. \"Call {listing[0]} to see valid values.\""
    failed = first_failing_input(message, ctx)  # the input the guard tested, never the first parameter
    if failed:
        return f"End with the step, e.g. \"Pass a different `{failed}`: <what is valid>.\""
    return "End with the step: the command to run, the argument to change, or when to retry."


def passthrough_only(template: Template, sig) -> bool:
    """True for `f"Error: {e}"`, `str(e)`, `f"{type(e).__name__}: {e}"`: a generic prefix plus the
    exception's own text and nothing else (AEM207)."""
    holders = template.placeholders
    if not holders or not any(h.has(EXCEPTION) for h in holders):
        return False
    for h in holders:
        if not (h.has(EXCEPTION) or EXC_TYPE_NAME.match(h.expr.replace(" ", ""))):
            return False
    return len(sig.content_words(template)) <= 2 and not identifiers(template)


def relayed_only(template: Template, sig) -> bool:
    """`f"Tool failed: {outcome.get('error')}"`: no words of its own beside a generic prefix, and the
    rest is the upstream's error text read from a mapping."""
    holders = template.placeholders
    return bool(holders) and all(h.has(RELAYED) or EXC_TYPE_NAME.match(h.expr.replace(" ", "")) for h in holders) and not sig.content_words(template)


def relayed_text(template: Template) -> bool:
    """The whole message is exception or upstream text: what it lacks is AEM207's finding, not a part."""
    return not template.literal.strip() and bool(template.placeholders) and all(h.has(EXCEPTION) for h in template.placeholders)


class MissingValueEcho(PartRule):
    """## What it does
    Flags a message raised under a guard that tests a value the caller passed (`if x not in ...`,
    `if len(x) > 5`, `if not re.match(..., x)`, `if not x.endswith(".md")`) when the message does not
    interpolate that value. Emptiness checks (`if not x`, `x is None`) and pydantic validators are
    exempt; for dicts and lists a bounded summary (the missing keys, `len(x)`) is expected.

    ## Why is this bad?
    "Invalid date" makes the agent search its own call for the culprit; "date '2026-02-30' does not
    exist" shows it at once (Google's guide: show the invalid value; Elm: echo the input as written).

    ## Example
    ```python
    if not path.endswith(".md"):
        raise ToolError("Only Markdown files can be appended to.")
    ```

    Use instead:
    ```python
        raise ToolError(f"path {path!r:.80} is not a .md file; pass a Markdown file.")
    ```

    ## Fix safety
    Unsafe: appending `(got {x!r:.80})` changes the message text.

    ## Options
    `echo-width` (int, 80): the repr width used in the suggested echo.
    """

    CODE = "AEM202"
    SINKS = PART_SINKS
    NAME = "missing-value-echo"
    SUMMARY = "The rejected value is not shown"
    PROFILES = ("agent", "cli", "http", "exc")
    OPTIONS = {"echo-width": RuleOption(80, "int", "Width of the bounded repr in the suggested echo.")}
    FIX = Applicability.UNSAFE
    VALID = (
        "def f(x):\n    if x < 0:\n        raise ValueError(f'x must be >= 0, got {x}')\n",
        "def f(x):\n    if not x:\n        raise ValueError('x is required; pass a name.')\n",
        "def f(d):\n    if d == 0:\n        raise ValueError('d must be non-zero (got 0)')\n",
    )
    INVALID = (
        "def f(path):\n    if not path.endswith('.md'):\n        raise ValueError('Only Markdown files; pass a .md path.')\n",
        "def f(patterns):\n    if len(patterns) > 1:\n        raise ValueError('Too many patterns; pass one.')\n",
        "import re\ndef f(ref):\n    if not re.fullmatch(r'[A-Z]+[0-9]+', ref):\n        raise ValueError('Cell address is malformed; use A1 style.')\n",
    )

    def check_part(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        function = message.context.function
        if function is not None and function.role == "validator" or message.extra.get("silent"):
            return
        facts = ctx.guard(message)
        if not facts.has_guard or facts.statuses:
            return
        checked = set(facts.value_subjects)
        if function is not None and function.role in ("tool", "lowlevel"):
            checked |= set(facts.zero_bounds)  # `amount <= 0` on a tool argument: show what the agent sent
        names = provenance(message).inputs(checked)
        names = {n for n in names if not n.isupper() and not _secret(n) and n not in CONTEXT_OBJECTS and not is_flag(function, n)}
        if facts.type_check and facts.emptiness and not (facts.memberships or facts.bounds or facts.formats or facts.patterns or facts.equalities):
            return  # `not isinstance(p, str) or not p`: "must be a non-empty string" says it all
        if not names:
            return
        shown = names | provenance(message).ancestors(names)  # the value it was computed from shows it too
        for template in complete_templates(message):
            if any(interpolates(template, n) for n in shown):
                continue
            if any(v and _contains(template, v) for _, v in facts.equalities):
                continue
            if names <= facts.counted and _states_bound(template, facts):
                continue  # "pass at most 3 paths": the limit says enough about a count
            if _names_missing_key(template, facts):
                continue  # `"itemId" not in args`: naming the missing key is the echo
            single = [m.values[0] for m in facts.memberships if m.allowed and m.values and len(m.values) == 1 and not m.collection]
            if single and len(single) == len([m for m in facts.memberships if m.allowed]) and not (facts.bounds or facts.formats or facts.patterns) and any(s.lower() in template.literal.lower() for s in single):
                continue  # `if x != "http"` with "only handles HTTP" in the text: the requirement is stated
            unbounded = all(is_unbounded_param(function, n) for n in names)
            if unbounded and value_placeholders(template):
                continue
            ranked = [n for n in failing_inputs(message, ctx) if n in names]
            name = ranked[0] if ranked else sorted(names)[0]
            width = self.options["echo-width"]
            keyed = [(c, k) for c in sorted(names) for k in facts.keys.get(c, ())]
            if keyed and name in facts.keys:  # `args.get("amount", 0) <= 0`: the value that failed is args["amount"]
                container, key = keyed[0]
                yield self.finding(
                    message,
                    f"the message does not show the rejected value of `{key}`; append \" (got {{{container}.get({key!r})!r:.{width}}})\"",
                    f"Echo the value the caller sent for `{key}`: f\"... (got {{{container}.get({key!r})!r:.{width}}})\".",
                )
                return
            form = next((f for s, f, _ in facts.parse_forms if s == name and f in DOCUMENT_FORMS), "")
            if form:  # a JSON/YAML/TOML document: where it broke, not the whole document
                caught = message.context.handlers[0].name if message.context.handlers else ""
                err = caught or "e"
                yield self.finding(
                    message,
                    f"the message does not say where `{name}` fails to parse as {form}; append the parser's error \" ({{{err}}})\"",
                    f"Show the parser's position and reason" + ("" if caught else f" (catch it `as {err}`)") + f": f\"... ({{{err}}})\", not the whole document.",
                )
                return
            hint = f"name the offending entries or `len({name})`" if unbounded else f"append \" (got {{{name}!r:.{width}}})\""
            fix = None
            if not unbounded and len(message.templates) == 1 and function is not None and name in function.param_names:
                edits = insert_in_fstring(template, ctx.code, f" (got {{{name}!r:.{width}}})")
                if edits:
                    fix = Fix(Applicability.UNSAFE, f"Append the rejected value of `{name}`", tuple(edits))
            yield self.finding(
                message,
                f"the message does not show the rejected value of `{name}`; {hint}",
                f"Echo the value the caller sent: f\"... (got {{{name}!r:.{width}}})\"." if not unbounded else f"Name what is wrong in `{name}` (the missing keys, the count), not the whole value.",
                fix=fix,
            )
            return


def _names_missing_key(template: Template, facts: GuardFacts) -> bool:
    """For `"key" not in args` checks, the message names the key that is missing."""
    keys = [lit for _, method, lits, required in facts.formats if method == "contains" and required for lit in lits if len(lit) > 1]
    return bool(keys) and any(_contains(template, k) for k in keys)


def _states_bound(template: Template, facts: GuardFacts) -> bool:
    for value in facts.bound_values:
        if _contains(template, value):
            return True
    return any(label and interpolates(template, label) for _, _, label in facts.bounds)


def _secret(name: str) -> bool:
    from ..extract.value_names import is_secret_name

    return is_secret_name(name)


def _contains(template: Template, value: str) -> bool:
    return bool(re.search(rf"(?<![\w]){re.escape(value)}(?![\w])", template.literal))


class MissingInputName(PartRule):
    """## What it does
    In an MCP tool or a CLI command, flags a message raised under a guard on parameter `p` that names
    neither `p` nor its flag (`--p-name`). One-parameter tools whose message echoes the value, and
    click's `BadParameter` (click adds the parameter name), are exempt.

    ## Why is this bad?
    With several arguments, "must be positive" leaves the agent guessing which one. The MCP spec's
    example names the field: "Invalid departure date: must be in the future".

    ## Example
    ```python
    @mcp.tool()
    def read_graph(statement: str) -> list:
        if not statement.upper().startswith("MATCH"):
            raise ToolError("Only MATCH queries are permitted")
    ```

    Use instead:
    ```python
            raise ToolError(f"statement must start with MATCH (got {statement[:40]!r}); read_graph is read-only.")
    ```

    ## Fix safety
    Display-only: the suggestion prefixes the input's name ("`p`: "), which errlint cannot always
    pick safely when several inputs are in scope.

    ## Options
    None.
    """

    CODE = "AEM203"
    SINKS = PART_SINKS
    NAME = "missing-input-name"
    SUMMARY = "The failing input is not named"
    PROFILES = ("agent", "cli")
    VALID = (
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef f(limit: int, q: str):\n    if limit > 50:\n        raise ToolError(f'limit must be <= 50 (got {limit})')\n",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef f(limit: int):\n    if limit > 50:\n        raise ToolError(f'{limit} is above 50; pass 50 or less.')\n",
        "def helper(limit):\n    if limit > 50:\n        raise ValueError('must be <= 50')\n",
    )
    INVALID = (
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef read_graph(statement: str) -> list:\n    if not statement.startswith('MATCH'):\n        raise ToolError('Only MATCH queries are permitted')\n",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef f(limit: int, q: str):\n    if limit > 50:\n        raise ToolError('must be 50 or less')\n",
        "import click\n@click.command()\n@click.option('--max-size', type=int)\ndef cli(max_size):\n    if max_size > 9:\n        raise click.ClickException('must be below 10')\n",
    )

    def check_part(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        function = message.context.function
        if function is None or function.role not in ("tool", "cli") or message.callee.endswith("BadParameter"):
            return
        facts = ctx.guard(message)
        params = [p for p in failing_inputs(message, ctx) if p in function.param_names]
        if not params:
            return  # only flags, context objects or whole argument containers were tested
        for template in complete_templates(message):
            if any(mentions(template, p) or mentions(template, "--" + p.replace("_", "-")) or any(mentions(template, flag) or mentions(template, flag.lstrip("-")) for flag in function.aliases.get(p, ())) for p in params):
                continue
            if _names_missing_key(template, facts):
                continue
            if len(function.param_names) == 1 and any(interpolates(template, p) for p in params):
                continue
            p = params[0]
            yield self.finding(message, f"the message does not name the input `{p}` that failed the check", f"Start with the input's name, e.g. \"{p}: ...\" or f\"{p}={{{p}!r}} ...\".")
            return


class MissingAllowedValues(PartRule):
    """## What it does
    Flags a message raised when a value is not in a closed set (a literal, an enum, a constant, a
    configured allow-list such as `SETTINGS["themes"]`), fails a range or a bound (`right >
    image.width`), a regular expression, a prefix/suffix check, a deny rule (`".." in path`) or a
    parser in a validating `try` (`int(x)`, `json.loads(x)`, `Decimal(x)`), when the message neither
    lists the allowed values (at least one), nor interpolates the collection or bound, nor gives an
    example or a tool that lists them. Open sets (records from storage or an API) and collections
    longer than `max-listed-values` are left to AEM205 and AEM405.

    ## Why is this bad?
    The agent cannot guess the accepted values; naming them turns a retry loop into one correct call.

    ## Example
    ```python
    FORMATS = {"wheel", "sdist"}
    if kind not in FORMATS:
        raise click.ClickException(f"Invalid kind: {kind}")
    ```

    Use instead:
    ```python
        raise click.ClickException(f"Invalid --kind {kind!r}; expected one of: sdist, wheel.")
    ```

    ## Fix safety
    Unsafe: appending "; expected one of: a, b" changes the message text.

    ## Options
    `max-listed-values` (int, 20): collections longer than this are not expected to be listed.
    """

    CODE = "AEM204"
    SINKS = PART_SINKS
    NAME = "missing-allowed-values"
    SUMMARY = "What is allowed is not said"
    PROFILES = ("agent", "cli", "http", "exc")
    OPTIONS = {"max-listed-values": RuleOption(20, "int", "Longest literal collection a message is expected to list.")}
    FIX = Applicability.UNSAFE
    VALID = (
        "SIZES = {'s', 'm'}\ndef f(size):\n    if size not in SIZES:\n        raise ValueError(f'size={size!r} is invalid; expected one of s, m')\n",
        "def f(page_size):\n    if page_size > 200:\n        raise ValueError(f'page_size={page_size} exceeds the limit of 200')\n",
        "TICKETS = {'T-1': 'open'}\ndef f(ticket_id):\n    if ticket_id not in TICKETS:\n        raise ValueError(f'Unknown ticket {ticket_id!r}. Call list_tickets to see valid ticket IDs.')\n",
        "def f(x, items):\n    if x not in items:\n        raise ValueError(f'{x!r} is not an item')\n",
    )
    INVALID = (
        "FORMATS = {'wheel', 'sdist'}\ndef f(kind):\n    if kind not in FORMATS:\n        raise ValueError(f'Invalid kind: {kind}')\n",
        "def f(kind):\n    if kind == 'fresh':\n        return 1\n    if kind == 'clone':\n        return 2\n    raise ValueError('Unrecognised creation mode {}'.format(kind))\n",
        "import re\ndef f(ref):\n    if not re.fullmatch(r'[A-Z]{1,3}[0-9]+', ref):\n        raise ValueError(f'Cell address {ref} is malformed')\n",
        "def f(patterns):\n    if len(patterns) > 1:\n        raise ValueError('Too many patterns supplied')\n",
    )

    def check_part(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if message.extra.get("silent"):
            return
        facts = ctx.guard(message)
        if not facts.has_guard:
            return
        function = message.context.function
        derived = provenance(message).inputs(facts.subjects | facts.value_subjects)
        if not derived:
            return  # the object's own state, not a value the caller passed
        limit = self.options["max-listed-values"]
        choices = [v for m in facts.memberships if m.allowed and m.values and _root(m.subject) in derived for v in m.values]
        dynamic = [m for m in facts.memberships if m.allowed and m.dynamic and _root(m.subject) in derived and not m.closed]
        closed = [m for m in facts.memberships if m.allowed and m.dynamic and _root(m.subject) in derived and m.closed]
        formats = [f for f in facts.formats if (f[3] or f[2]) and _root(f[0]) in derived]  # required forms and deny rules
        formats += [(subject, "parse", (form,), True) for subject, form, _ in facts.parse_forms if _root(subject) in derived]
        patterns = [p for p in facts.patterns if p[2] and _root(p[0]) in derived]
        ranges = [b for b in facts.bounds if _root(b[0]) in derived]
        if len(choices) > limit:
            choices = []
        if not (choices or formats or patterns or ranges or closed or facts.enum_lookup):
            return
        if dynamic and not choices and not ranges and not closed:
            return
        sig = signals(ctx)
        for template in complete_templates(message):
            if self._satisfied(template, facts, choices, formats, patterns, ranges, ctx, message, sig):
                continue
            what, suggestion = self._describe(choices, formats, patterns, ranges, facts)
            yield self.finding(message, f"the message does not say what is allowed ({what})", suggestion, fix=self._fix(message, template, ctx, choices, dynamic, ranges, facts))
            return

    def _fix(self, message: Message, template: Template, ctx: FileContext, choices, dynamic, ranges, facts: GuardFacts):
        """Append the literal choices or the literal bound (unsafe: the message text changes)."""
        if len(message.templates) != 1 or dynamic:
            return None
        if choices:
            addition = "; expected one of: " + ", ".join(dict.fromkeys(choices))
        elif ranges and facts.bound_values and len(ranges) == 1:
            subject, op, _ = ranges[0]
            addition = f"; {subject} must be {_inverse(op)} {facts.bound_values[0]}"
        else:
            return None
        edit = append_edit(template, ctx.code, addition)
        return Fix(Applicability.UNSAFE, f"Append \"{addition.lstrip('; ')}\"", (edit,)) if edit else None

    def _satisfied(self, template: Template, facts: GuardFacts, choices, formats, patterns, ranges, ctx, message, sig) -> bool:
        prose = template.prose
        if re.search(r"did you mean", prose, re.I) or VALUE_SOURCE.search(prose) or tool_references(template):
            return True
        for holder in template.placeholders:
            if holder.has(COLLECTION) or holder.has(HINT):
                return True
            for m in facts.memberships:
                if m.collection and any(n == m.collection or n.startswith(m.collection + ".") for n in holder.names):
                    return True
        literal = template.literal
        if choices and any(_contains(template, c) or c and len(c) > 2 and c.lower() in literal.lower() or c in NUMBER_WORDS and re.search(rf"\b{NUMBER_WORDS[c]}\b", literal, re.I) for c in choices):
            return True
        for subject, method, lits, required in formats:
            if method == "parse" and parse_form_stated(template, facts, subject, prose, sig):
                return True
            if lits and any(lit.strip() and lit.strip().lower() in literal.lower() for lit in lits):
                return True
            if lits and not required and deny_stated(template, lits):
                return True  # a deny rule stated in words ("cannot contain single quotes")
            if not lits and sig.allowed_clause(template):
                return True
        if patterns and (EXAMPLE_TEXT.search(prose) or sig.allowed_clause(template)):
            return True
        if ranges:
            for _, _, bound in ranges:
                if bound and (bound in literal or any(bound == n or n.startswith(bound + ".") for h in template.placeholders for n in h.names)):
                    return True
            if facts.bound_values and any(_near(v, literal) or v in NUMBER_WORDS and re.search(rf"\b{NUMBER_WORDS[v]}\b", literal, re.I) for v in facts.bound_values):
                return True
            if RANGE_TEXT.search(prose) and (re.search(r"\d", literal) or template.placeholders or ZERO_WORDS.search(prose)):
                return True
        if facts.enum_lookup and (sig.allowed_clause(template) or any(h.has(COLLECTION) for h in template.placeholders)):
            return True
        return False

    def _describe(self, choices, formats, patterns, ranges, facts) -> tuple:
        if choices:
            listed = ", ".join(dict.fromkeys(choices))
            return f"one of: {quote(listed, 60)}", f"Append the choices: \"; expected one of: {quote(listed, 80)}\"."
        closed = [m for m in facts.memberships if m.allowed and m.closed and m.values is None and m.node is not None]
        if closed and not (ranges or formats or patterns):
            shown = describe_set(closed[0].node)
            return f"one of the values of {quote(shown, 40)}", f"Interpolate them at run time, e.g. f\"; expected one of: {{', '.join(sorted({shown}))}}\"."
        if ranges:
            subject, op, bound = ranges[0]
            shown = bound or "the bound"
            return f"{subject} {op} {shown}", f"State the accepted range, e.g. \"{subject} must be {_inverse(op)} {shown}\"."
        if formats:
            subject, method, lits, required = formats[0]
            if method == "parse":
                return f"{subject} must be {lits[0]}", f"Say the accepted form of {subject} ({lits[0]}) and give an example value."
            if not required:
                return f"{subject} must not {_verb(method)} {' or '.join(lits)}", f"Say what {subject} may not {_verb(method)}, e.g. \"{subject} must not {_verb(method)} {' or '.join(repr(x) for x in lits)}\"."
            if lits:
                return f"{subject} must {_verb(method)} {' or '.join(lits)}", f"Say the required form, e.g. \"{subject} must {_verb(method)} {' or '.join(repr(x) for x in lits)}\"."
            return f"{subject} must pass {method}()", f"Say the accepted form of {subject} and give an example."
        if patterns:
            subject, pattern, _ = patterns[0]
            return f"{subject} must match {quote(pattern, 40)}", f"Describe the format in words and give an example value for {subject}."
        return "valid enum values", "List the enum's values or point to the tool that lists them."


def _root(name: str) -> str:
    return name.split(".", 1)[0]


NUMBER_WORDS = {"0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine", "10": "ten", "12": "twelve"}


def _near(value: str, literal: str) -> bool:
    try:
        number = float(value.replace("_", ""))
    except ValueError:
        return False
    for found in re.findall(r"\d[\d_,]*(?:\.\d+)?", literal):
        try:
            other = float(found.replace("_", "").replace(",", ""))
        except ValueError:
            continue
        if abs(other - number) <= 1:
            return True
    return False


def _inverse(op: str) -> str:
    return {">": "<=", ">=": "<", "<": ">=", "<=": ">"}.get(op, "within")


def _verb(method: str) -> str:
    return {"startswith": "start with", "endswith": "end with", "contains": "contain"}.get(method, method)


class MissingValueSource(PartRule):
    """## What it does
    In an MCP tool, flags a not-found or invalid-identifier error (a guard on an `*_id`/`key`/`name`/
    `path`-like parameter, or text such as "not found", "unknown", "no such") that names no tool and no
    command for finding valid values, when the server registers a listing or search tool. Silent for
    servers with no listing tool.

    ## Why is this bad?
    Naming the tool that lists valid values raised recovery to 84-88% in the article's sources; "not
    found" alone leaves the agent guessing ids.

    ## Example
    ```python
    if issue_id not in ISSUES:
        raise ToolError(f"Issue {issue_id} not found")
    ```

    Use instead:
    ```python
        raise ToolError(f"Issue {issue_id!r} not found. Call list_issues to see valid ids.")
    ```

    ## Fix safety
    Unsafe, and only when exactly one registered tool lists that noun (`issue_id` -> `list_issues`):
    append " Call list_issues to see valid ids.".

    ## Options
    None.
    """

    CODE = "AEM205"
    SINKS = PART_SINKS
    NAME = "missing-value-source"
    SUMMARY = "No tool or command named for finding a valid value"
    PROFILES = ("agent",)
    FIX = Applicability.UNSAFE
    VALID = (
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef list_issues() -> list:\n    return []\n@mcp.tool()\ndef get_issue(issue_id: str) -> dict:\n    raise ToolError(f'Issue {issue_id} not found. Call list_issues to see valid ids.')\n",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef get_issue(issue_id: str) -> dict:\n    raise ToolError(f'Issue {issue_id} not found')\n",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef list_issues() -> list:\n    return []\n@mcp.tool()\ndef get_issue(issue_id: str) -> dict:\n    if len(issue_id) > 9:\n        raise ToolError(f'issue_id {issue_id} is too long; ids have at most 9 characters, e.g. ISS-12.')\n",
    )
    INVALID = (
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef list_issues() -> list:\n    return []\n@mcp.tool()\ndef get_issue(issue_id: str) -> dict:\n    raise ToolError(f'Issue {issue_id} not found')\n",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\nISSUES = {}\n@mcp.tool()\ndef search_projects(q: str) -> list:\n    return []\n@mcp.tool()\ndef get_project(project_id: str) -> dict:\n    if project_id not in ISSUES:\n        raise ToolError(f'Unknown project {project_id!r}')\n",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef list_files() -> list:\n    return []\n@mcp.tool()\ndef read(path: str) -> str:\n    raise ToolError(f'No such file: {path}')\n",
    )

    def check_part(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        listing = sorted(t for t in server_tools(ctx) if LISTING_TOOL.match(t))
        function = message.context.function
        if not listing or function is None or not (function.role == "tool" or function.reachable_from_tool):
            return
        facts = ctx.guard(message)
        open_sets = {_root(m.subject) for m in facts.memberships if m.allowed and m.closed is False}  # records, not a fixed list
        id_params = [p for p in tested_params(message, facts) if is_id_param(p) or p in open_sets]
        for template in complete_templates(message):
            if not (id_params or NOT_FOUND_TEXT.search(template.prose)):
                continue
            if facts.bounds or facts.patterns and not NOT_FOUND_TEXT.search(template.prose):
                continue
            if tool_references(template) or VALUE_SOURCE.search(template.prose) or any(re.search(rf"\b{re.escape(t)}\b", template.prose) for t in ctx.registry):
                continue
            if signals(ctx).code.search(template.prose) or signals(ctx).allowed_clause(template):
                continue
            stem = _stem(id_params[0] if id_params else first_failing_input(message, ctx))
            matches = [t for t in listing if stem and stem in t]
            tool = matches[0] if len(matches) == 1 else listing[0]
            fix = None
            if len(matches) == 1 and len(message.templates) == 1:
                addition = f"; call {tool} to see valid values"
                edit = append_edit(template, ctx.code, addition)
                fix = Fix(Applicability.UNSAFE, f"Append \"call {tool} to see valid values\"", (edit,)) if edit else None
            yield self.finding(
                message,
                "the message does not say where to get a valid value; name the listing tool",
                f'Append "; call {tool} to see valid values".',
                fix=fix,
            )
            return


def server_tools(ctx: FileContext) -> frozenset:
    """The tools of the server this file belongs to: the file's own when it registers any (a file is
    one server's module), else every tool of the project."""
    return ctx.file_tools or ctx.registry


def _stem(param: str) -> str:
    base = re.sub(r"(_id|_ids|_key|_name|_slug|_uuid|_path|id)$", "", param.lower()) or param.lower()
    return base.rstrip("s")


class MissingRetryGuidance(PartRule):
    """## What it does
    Flags a message for a transient failure (a handler for timeouts or connection errors, a 429/5xx
    status check, or text such as "rate limit", "timed out", "unavailable") that states neither when to
    retry nor whether retrying helps.

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
    )
    INVALID = (
        "from fastmcp.exceptions import ToolError\nimport concurrent.futures\ndef f(job, limit_s):\n    try:\n        return job.result(timeout=limit_s)\n    except concurrent.futures.TimeoutError:\n        raise ToolError(f'Report query exceeded {limit_s}s and was cancelled')\n",
        "from fastmcp.exceptions import ToolError\ndef f(status):\n    if status == 429:\n        raise ToolError('Too many requests to the CRM; use a smaller batch.')\n",
        "from fastmcp.exceptions import ToolError\nraise ToolError('The search service is unavailable; use the cached index.')\n",
    )

    def check_part(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if TYPED_TIMEOUT.search(str(message.extra.get("code", "") or "")) or translator(message):
            return  # a typed timeout code is the retryability signal; a type-to-code mapper cannot know
        facts = ctx.guard(message)
        sig = signals(ctx)
        for template in complete_templates(message):
            transient = is_transient(message, facts) or re.search(r"\b(rate[- ]limit(?:ed)?|timed out|time ?out|(?<!permanently )unavailable(?! (?:on|in|for|with|before|after|until) )|overloaded|too many requests|throttl\w+)\b", template.prose, re.I)
            if not transient or message.extra.get("messageless"):
                continue
            if sig.retry.search(template.prose) or any(h.has(RETRY_AFTER) for h in template.placeholders):
                continue
            yield self.finding(
                message,
                "transient failure without retry guidance; say when to retry or that retrying will not help",
                "Add the timing, e.g. f\"... Retry after {retry_after} s.\", or \"retrying will not help; <fix>\".",
            )
            return


class ExceptionPassthroughOnly(PartRule):
    """## What it does
    Flags a message that is only a generic prefix plus the caught exception's text:
    `f"Error: {e}"`, `str(e)`, `f"{type(e).__name__}: {e}"`, or plus an upstream's own error text
    read from its reply (`f"Tool failed: {result.get('error')}"`).

    ## Why is this bad?
    The library's text was written for its own developers: it names internals, not the tool's
    arguments, and never the next step (clig: "catch errors and rewrite them").

    ## Example
    ```python
    except Exception as e:
        raise ToolError(f"Error: {e}")
    ```

    Use instead:
    ```python
    except FileNotFoundError:
        raise ToolError(f"No file at {path!r}; call list_files to see the workspace.")
    ```

    ## Fix safety
    Display-only.

    ## Options
    None.
    """

    CODE = "AEM207"
    NAME = "exception-passthrough-only"
    SUMMARY = "Only the caught exception's own text"
    PROFILES = ("agent", "cli", "http")
    VALID = (
        "from fastmcp.exceptions import ToolError\ndef f(path):\n    try:\n        open(path)\n    except OSError as e:\n        raise ToolError(f'Cannot open {path!r}: {e.strerror}. Call list_files.')\n",
        "from fastmcp.exceptions import ToolError\ntry:\n    g()\nexcept ToolError as e:\n    raise ToolError(str(e))\n",
        "import logging\ntry:\n    g()\nexcept Exception as e:\n    logging.error(f'Error: {e}')\n",
    )
    INVALID = (
        "from fastmcp.exceptions import ToolError\ntry:\n    g()\nexcept Exception as e:\n    raise ToolError(f'Error: {e}')\n",
        "from fastmcp.exceptions import ToolError\ntry:\n    g()\nexcept Exception as e:\n    raise ToolError(str(e))\n",
        "from fastmcp.exceptions import ToolError\ntry:\n    g()\nexcept Exception as e:\n    raise ToolError(f'{type(e).__name__}: {e}')\n",
    )

    def check_part(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        sig = signals(ctx)
        handler = message.context.handlers[0] if message.context.handlers else None
        if traceback_attached(message):
            return
        for template in complete_templates(message):
            if not passthrough_only(template, sig):
                continue
            if relayed_only(template, sig):
                yield self.finding(
                    message,
                    f'"{quote(template.text)}" only passes the upstream\'s error text through',
                    "Say what failed, for which input, and the next step; keep the upstream's text as the cause.",
                )
                return
            if handler is None or not handler.name:
                return  # a converter of arbitrary exceptions passes text through by design
            if not any(n == handler.name or n.startswith(handler.name + ".") for h in template.placeholders for n in h.names):
                continue
            if message.callee and any(t.rsplit(".", 1)[-1] == message.callee.rsplit(".", 1)[-1] for t in handler.types):
                return
            if handler.types and all(AGENT_FACING_ERROR.search(t.rsplit(".", 1)[-1]) for t in handler.types):
                return  # relaying a ToolError's own text: it was written for the agent
            yield self.finding(
                message,
                f'"{quote(template.text)}" only passes the exception text through',
                "Catch the specific exceptions and rewrite each: what failed, for which input, and the next step.",
            )
            return


class UnknownToolReference(Rule):
    """## What it does
    Flags a message that tells the reader to call a tool (`Call list_projects`, `` `get_item` ``, "use
    the search_issues tool") that the project's tool registry does not have. The registry is every tool
    registered in the checked files (`@mcp.tool`, `add_tool`, `Tool.from_function`) plus
    `tool-registry-extra`. Silent when no registry is known; reported when the name is a near miss of a
    registered tool, or the file's server registers at least `min-registry-size` tools.

    ## Why is this bad?
    A stale recovery step is worse than none: the agent calls a tool that does not exist.

    ## Example
    ```python
    raise ToolError("Unknown project. Call list_project to see ids.")  # the tool is list_projects
    ```

    Use instead:
    ```python
    raise ToolError("Unknown project. Call list_projects to see ids.")
    ```

    ## Fix safety
    Display-only.

    ## Options
    `min-registry-size` (int, 3): how many tools a server must register before an unknown name is
    reported without a near miss.
    """

    CODE = "AEM209"
    NAME = "unknown-tool-reference"
    SUMMARY = "Refers to a tool that is not registered"
    PROFILES = ("agent", "cli", "http", "exc")
    OPTIONS = {"min-registry-size": RuleOption(3, "int", "Tools a server must register before unknown names are reported without a near miss.")}
    VALID = (
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef list_projects() -> list:\n    return []\n@mcp.tool()\ndef get_project(pid: str) -> dict:\n    raise ToolError('Unknown project. Call list_projects to see ids.')\n",
        "from fastmcp.exceptions import ToolError\nraise ToolError('Unknown project. Call list_projects to see ids.')\n",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef get_project(pid: str) -> dict:\n    raise ToolError('Unknown project. Call list_things to see ids.')\n",
    )
    INVALID = (
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef list_projects() -> list:\n    return []\n@mcp.tool()\ndef get_project(pid: str) -> dict:\n    raise ToolError('Unknown project. Call list_project to see ids.')\n",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef a() -> str:\n    return ''\n@mcp.tool()\ndef b() -> str:\n    return ''\n@mcp.tool()\ndef c(x: str) -> str:\n    raise ToolError('Bad x. Call list_things to see valid values.')\n",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nmcp = FastMCP('x')\n@mcp.tool()\ndef search_issues(q: str) -> list:\n    return []\n@mcp.tool()\ndef get_issue(i: str) -> dict:\n    raise ToolError('No such issue; use `search_issue` first.')\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        registry = ctx.registry
        if not registry:
            return
        file_tools = ctx.file_tools
        for template in message.templates:
            for ref in tool_references(template, strong=True):
                if ref in registry:
                    continue
                near = difflib.get_close_matches(ref, sorted(registry), n=1, cutoff=0.8)
                if not near and len(file_tools) < self.options["min-registry-size"]:
                    continue
                hint = f"did you mean `{near[0]}`?" if near else f"registered tools include {', '.join(sorted(registry)[:5])}"
                yield self.finding(message, f"the message refers to tool `{ref}`, which is not registered; {hint}", f"Replace `{ref}` with a registered tool name" + (f" (`{near[0]}`)." if near else "."))
                return


NUMERIC_HINT = re.compile(r"^(len|int|float|round|sum|min|max|abs)\(|(^|_)(count|total|num|n|size|limit|max|min|seconds|secs|ms|minutes|bytes|pct|percent|ratio|index|idx|line|lineno|row|col|port|code|status|status_code|attempt|attempts|retries)$|\.(status_code|returncode|errno|lineno|count)$")
QUOTES = ("'", '"', "`", "\u2018", "\u201c")


class UnmarkedInterpolation(Rule):
    """## What it does
    Flags an interpolated value that is not marked off from the prose: not inside quotes or
    backticks and not formatted with `!r` or `=`. Numbers and counts are exempt. Off by default.

    ## Why is this bad?
    "The deleted directory could not be deleted" (Google Python style guide 3.10.2): with an empty or
    odd value the reader cannot tell the value from the sentence. Quotes show where it starts and ends.

    ## Example
    ```python
    raise ValueError(f"Unknown region {region}; use eu or us")
    ```

    Use instead:
    ```python
    raise ValueError(f"Unknown region '{region}'; use eu or us")
    ```

    ## Fix safety
    Unsafe: the placeholder is wrapped in single quotes, which changes the message text (a test that
    matches it with `pytest.raises(match=...)` may break). Switching to `!r` is not offered: it also
    changes how non-`str` values print, e.g. `PosixPath('…')`.

    ## Options
    None.
    """

    CODE = "AEM208"
    NAME = "unmarked-interpolation"
    SUMMARY = "An interpolated value not set off by quotes"
    PROFILES = ("agent", "cli", "http", "exc", "log")
    DEFAULT = False
    LEVEL = Level.INFO
    FIX = Applicability.UNSAFE
    VALID = (
        "def f(region):\n    raise ValueError(f\"Unknown region '{region}'; use eu or us\")\n",
        "def f(region):\n    raise ValueError(f'Unknown region {region!r}; use eu or us')\n",
        "def f(items):\n    raise ValueError(f'{len(items)} items is too many; pass 10 or fewer')\n",
    )
    INVALID = (
        "def f(region):\n    raise ValueError(f'Unknown region {region}; use eu or us')\n",
        "def f(name):\n    raise ValueError('No file named {}'.format(name))\n",
        "def f(path):\n    raise ValueError('cannot open %s' % path)\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if without_text(message):
            return  # the whole message is the value (AEM101): no text to set it off from
        for template in message.templates:
            parts = template.parts
            for i, part in enumerate(parts):
                if isinstance(part, str) or part.quoted or part.kinds <= {EXCEPTION} or NUMERIC_HINT.search(part.expr.replace(" ", "")):
                    continue
                before = parts[i - 1] if i > 0 and isinstance(parts[i - 1], str) else ""
                after = parts[i + 1] if i + 1 < len(parts) and isinstance(parts[i + 1], str) else ""
                if before.rstrip().endswith(QUOTES) or after.lstrip().startswith(QUOTES + ("\u2019", "\u201d")):
                    continue
                yield self.finding(
                    message,
                    f"`{part.expr}` is interpolated without quotes; the reader cannot see where the value starts and ends",
                    f"Quote it: '{{{part.expr}}}' (or use {{{part.expr}!r}} for strings).",
                    fix=self._fix(part, template, ctx),
                )
                return

    def _fix(self, part, template: Template, ctx: FileContext):
        """Wrap the f-string field in single quotes (other template styles: no automatic fix)."""
        import libcst as cst

        if template.tail_style != "f" or not isinstance(template.tail, cst.FormattedString):
            return None
        holder_node = part.node
        for item in template.tail.parts:
            if isinstance(item, cst.FormattedStringExpression) and item.expression is holder_node:
                quote = "\\'" if template.tail.quote[0] == "'" else "'"
                code = ctx.code(item)
                return Fix(Applicability.UNSAFE, f"Quote `{part.expr}`", (Edit(0, 0, quote, node=item), Edit(len(code), len(code), quote, node=item)))
        return None
