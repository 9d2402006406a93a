"""4xx: size. Long messages, unbounded interpolations, schema dumps, validation-error dumps and
unbounded lists of allowed values. Sizes are o200k_base tokens (see `errlint.tokens`)."""
from __future__ import annotations

import re
from typing import Iterable, Optional

from ..model import (
    BOUNDED,
    COLLECTION,
    EXCEPTION,
    PLACEHOLDER_MARK,
    SCHEMA,
    UNBOUNDED,
    VALIDATION,
    Applicability,
    Finding,
    Fix,
    Message,
    Placeholder,
    Template,
)
from .. import tokens
from ..fixes import node_edit
from .base import FileContext, Option, Rule
from .error_replies import ErrorReplyRule

PLACEHOLDER_TOKENS = {"bounded": 4, "exception": 12, "unknown": 8}
PLACEHOLDER_CHARS = 3  # a placeholder counts as "{…}" in character limits


def template_tokens(template: Template) -> int:
    """Estimated tokens of the rendered message: literal text plus a fixed cost per placeholder
    (bounded 4, exception text 12, anything else 8; unbounded values are AEM402's business)."""
    total = tokens.count(template.literal)
    for holder in template.placeholders:
        if holder.has(BOUNDED):
            total += PLACEHOLDER_TOKENS["bounded"]
        elif holder.has(EXCEPTION):
            total += PLACEHOLDER_TOKENS["exception"]
        else:
            total += PLACEHOLDER_TOKENS["unknown"]
    return total


def template_chars(template: Template) -> int:
    return len(template.literal) + PLACEHOLDER_CHARS * len(template.placeholders)


class MessageTooLong(Rule):
    """## What it does
    Flags a message whose static text is estimated at more than `max-message-tokens` o200k_base tokens
    (default 120), or longer than 8 lines, or, when `max-message-length` is set, longer than that many
    characters. Each placeholder counts as a small fixed size (4 tokens for a bounded value, 12 for
    exception text, 8 otherwise; 3 characters in the character limit), so `{request.payload[...]}` is
    not measured by its source. The static text is read however the code assembles it: literals and
    constants, lines joined with a separator (`"\n".join([...])`), a `textwrap.dedent` block, an
    entry of a module table of texts (`HELP["quota"]`). A message exactly at the limit passes.

    ## Why is this bad?
    Sibling tools in the article answered in 110-150 tokens; a four-part message fits in 25-60. Every
    token of an error is re-read on every later model call.

    ## Example
    ```python
    raise ToolError(QUOTA_HELP)  # a 500-token essay on billing policy
    ```

    Use instead:
    ```python
    raise ToolError("Export allowance used up for this period; it resets 00:00 UTC on the 1st. Call export_data after the reset.")
    ```

    ## Fix safety
    Display-only: keep the fix in the message and move the rest to a docs URL or a `describe_x` tool.

    ## Options
    `max-message-tokens` (int, 120); `max-message-length` (int, unset): a character limit instead;
    `max-lines` (int, 8): blank lines and indented code-sample lines do not count.
    """

    CODE = "AEM401"
    NAME = "message-too-long"
    SUMMARY = "The message is too long"
    PROSE = False
    PROFILES = ("agent", "cli", "http", "exc")
    OPTIONS = {
        "max-message-tokens": Option(120, "int", "Largest estimated o200k_base token count of a message's static text."),
        "max-message-length": Option(None, "int", "Largest character count of a message's static text (unset: not checked)."),
        "max-lines": Option(8, "int", "Most lines of prose a message may have (blank and indented code-sample lines do not count)."),
    }
    VALID = (
        "raise RuntimeError('Python 3.9 or later is required.')\n",
        "raise ValueError(f\"Unknown region {request.payload['settings']['deployment']['region_name']!r}; run `svc regions`.\")\n",
        "import argparse\nparser = argparse.ArgumentParser()\nparser.error('bad --x; pass a number')\n",
    )
    INVALID = (
        "raise RuntimeError('" + "The export could not be produced because the allowance is used up. " * 12 + "')\n",
        "raise RuntimeError('" + "line\\n" * 10 + "')\n",
        "HELP = '''" + "Exports are counted per workspace, which means every export draws from one allowance.\n" * 10 + "'''\ndef f():\n    raise RuntimeError(HELP)\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        limit = self.options["max-message-tokens"]
        chars = self.options["max-message-length"]
        max_lines = self.options["max-lines"]
        for template in message.templates:
            if not template.literal:
                continue
            if chars is not None:
                size = template_chars(template)
                if size > chars:
                    yield self.finding(message, f"the message's static text is {size} characters (limit {chars})", _shorten_hint())
                    return
                continue
            count = template_tokens(template)
            lines = prose_lines(template.literal)
            if count > limit:
                yield self.finding(message, f"the message is about {count} tokens (limit {limit}); keep the fix and drop the rest", _shorten_hint())
                return
            if lines > max_lines:
                yield self.finding(message, f"the message has {lines} lines (limit {max_lines})", _shorten_hint())
                return


def _shorten_hint() -> str:
    return "Keep what failed, what is allowed and the next step; move background to a docs URL or a describe_* tool."


class UnboundedInterpolation(ErrorReplyRule):
    """## What it does
    Flags a placeholder whose value can be any size: `json.dumps(...)`, `repr()` of an object,
    `.model_dump()`, `response.text`/`.json()`, `proc.stderr`, a whole dict or list parameter, `"\\n".join`
    of a non-literal collection, a formatted traceback. Bodies and records returned by I/O are
    unbounded whatever the variable is called: the `.text`/`.content`/`.json()`/`.read()` of what an
    HTTP client or `urlopen` returned, a subprocess's output (`check_output`, `communicate()`), rows
    from `fetchall()`/`fetchone()` or an ORM query's `.all()`, and the lines or rows read from a file,
    listed or filtered (`list(csv.DictReader(fh))`, `[row for row in rows if ...]`). Truncated forms (`x[:200]`,
    `{x!r:.80}`, `textwrap.shorten`) and `len(x)` are fine, and so is a dict or list written in the
    code with a few bounded fields, also through a name or as `dict(a=..., b=...)`
    (`reply = {"error": code, "tool": name}; json.dumps(reply)`): it is as large as its fields. A
    tool's error reply returned as its result is read like a raised error. For a JSON dump the
    suggestion keeps valid JSON. Output passed on to stderr as it is (`os.write(2, buffer)`,
    `print(captured, file=sys.stderr)`, `sys.stderr.write(proc.stdout)`) is a relay, not a message
    built around a value, and is not flagged; the same value raised, or written with text of its own
    (`print(f"pip failed: {proc.stderr}", file=sys.stderr)`), is.

    ## Why is this bad?
    One upstream body echoed into an error cost 14,252 tokens where 256 would do (learn.agentpatterns);
    it can also carry secrets (liwala/ay-framework#352).

    ## Example
    ```python
    raise ToolError("Workflow is not published: " + json.dumps(workflow, indent=2))
    ```

    Use instead:
    ```python
    raise ToolError(f"Workflow {workflow['id']} is {workflow.get('state')!r}, not published. Call publish_workflow first.")
    ```

    ## Fix safety
    Display-only: the suggestion wraps the value (`str(x)[:200]`) or names a count instead; which one
    fits depends on the value.

    ## Options
    None.
    """

    CODE = "AEM402"
    NAME = "unbounded-interpolation"
    SUMMARY = "An interpolated value of unbounded size"
    PROSE = False
    PROFILES = ("agent", "cli", "http", "exc")
    VALID = (
        "import json\ndef f(workflow):\n    raise RuntimeError(f\"Workflow {workflow['id']} is not published\")\n",
        "def f(body):\n    raise RuntimeError(f'Bad body ({len(body)} bytes); send JSON.')\n",
        "def f(resp):\n    raise RuntimeError(f'Upstream said {resp.text[:200]}')\n",
        "import json\ndef f(item_id):\n    reply = {'error': 'not_found', 'id': item_id}\n    raise RuntimeError('Lookup failed: ' + json.dumps(reply))\n",
    )
    INVALID = (
        "import json\ndef f(workflow):\n    raise RuntimeError('Workflow is not published: ' + json.dumps(workflow, indent=2))\n",
        "def f(r):\n    raise RuntimeError(f'CRM lookup failed with {r.status_code}: {r.json()}')\n",
        "import requests\ndef f(u):\n    got = requests.get(u)\n    raise RuntimeError(f'Upstream said {got.text}')\n",
        "def f(tree):\n    raise ValueError('Only SELECT is allowed. Parsed statement: ' + repr(tree))\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if message.sink == "stderr" and message.templates and all(not t.literal.strip() and len(t.placeholders) == 1 for t in message.templates):
            return  # `os.write(2, buffer)`, `print(captured, file=sys.stderr)`: output passed on, not a message built around it
        function = message.context.function
        if message.extra.get("constructor") and function is not None:
            own = set(function.param_names)  # `super().__init__(message)`: judged where the exception is raised
        else:
            own = set()
        rejected = _rejected_values(message, ctx)
        # the allowed values of the guard: AEM204 asks for them, AEM405 judges their size
        allowed = {m.collection.split(".", 1)[0] for m in ctx.guard(message).memberships if m.collection}
        for template in message.templates:
            listed = _listed_values(template)
            for holder in template.placeholders:
                if id(holder) in listed:
                    continue  # "one of {values!r}": the allowed values AEM204 asks for; AEM405 judges their size
                roots = {n.split(".", 1)[0] for n in holder.names} - {"repr", "str", "ascii", "format"}
                if roots and (roots <= own or roots <= allowed or roots <= rejected and holder.expr.startswith(("repr(", "str("))):
                    continue  # the rejected value itself, echoed as AEM202 asks
                if holder.has(UNBOUNDED) and not holder.has(SCHEMA) and not holder.has(VALIDATION) and not holder.has(COLLECTION):
                    yield self.finding(
                        message,
                        f"`{_short(holder.expr)}` can be any size; show a bounded summary",
                        _bound_hint(_short(holder.expr)),
                    )
                    return


LISTED_AFTER = re.compile(r"\b(one of|allowed(?: values)?|expected one of|valid (?:values|options|choices) (?:are|is)|supported(?: values)?|choices|options)\W*$", re.I)
STREAM_TAIL = re.compile(r"\.(stderr|stdout|output)$")


def _listed_values(template) -> set:
    """ids of placeholders that come right after "one of", "allowed:", "choices:" (a list of values)."""
    out, before = set(), ""
    for part in template.parts:
        if isinstance(part, str):
            before += part
        else:
            if LISTED_AFTER.search(before):
                out.add(id(part))
            before = ""
    return out


JSON_DUMP = re.compile(r"^(?:json\.)?dumps\(|\.model_dump_json\(|\.json\(\)$")


def _bound_hint(expr: str) -> str:
    if STREAM_TAIL.search(expr):  # a tool's error is at the end of its output
        return f"Keep the end, where the error is: f\"{{{expr}[-500:]}}\" (or its last lines)."
    if JSON_DUMP.search(expr):  # cutting the dumped text would leave broken JSON
        return "Dump only the fields that matter, each value capped (e.g. {\"id\": x[\"id\"], \"detail\": str(x[\"detail\"])[:200]}), or give a count; cutting the dumped text leaves invalid JSON."
    return f"Truncate or summarise: f\"{{{expr}!r:.200}}\" or the one field that matters."


def _rejected_values(message: Message, ctx: FileContext) -> set:
    """Names whose value the guard leading to the sink rejected, or that the failed try block read."""
    facts = ctx.guard(message)
    names = set() if facts.type_check else set(facts.value_subjects)  # after isinstance(), `repr(tree)` is the whole tree
    for handler in message.context.handlers[:1]:
        names |= set(handler.try_reads)
    return {n.split(".", 1)[0] for n in names}


def _short(expr: str) -> str:
    expr = " ".join(expr.split())
    return expr if len(expr) <= 50 else expr[:49] + "…"


class SchemaDump(Rule):
    """## What it does
    Flags a schema or help text in a message: `Model.model_json_schema()`, `.schema()`,
    `tool.inputSchema`, `parser.format_help()`, a function's `__doc__`, a dict written in the code
    that is a JSON Schema by what it holds (`properties`, `$schema`, `"type": "object"` with
    `required`; from about 40 tokens on) under any name, or any of these, or a name containing
    `schema`, `spec` or `openapi`, serialized by `json.dumps`, `yaml.safe_dump` or `pprint.pformat`. Exceptions whose class name contains `Help` (click's `NoArgsIsHelpError`) exist to
    show help and are exempt.

    ## Why is this bad?
    The article's malformed id cost 12,689 tokens because the error echoed the tool's whole input
    specification; the fix it needed was one line.

    ## Example
    ```python
    raise ValueError(f"Config invalid against schema {schema}: {errors}")
    ```

    Use instead:
    ```python
    raise ValueError(f"Config invalid at {'/'.join(map(str, err.absolute_path))}: {err.message}")
    ```

    ## Fix safety
    Display-only. For CLIs, use `parser.format_usage()` rather than `format_help()`.

    ## Options
    None.
    """

    CODE = "AEM403"
    NAME = "schema-dump"
    SUMMARY = "A schema or help text dumped into the message"
    PROSE = False
    PROFILES = ("agent", "cli", "http", "exc")
    VALID = (
        "def f(err):\n    raise ValueError(f'Config invalid: {err.message}')\n",
        "import argparse\np = argparse.ArgumentParser()\ndef f():\n    raise SystemExit(p.format_usage())\n",
        "def f(schema_name):\n    raise ValueError(f'Unknown schema {schema_name!r}')\n",
    )
    INVALID = (
        "def f(doc, schema: dict):\n    raise ValueError(f'Config invalid against schema {schema}')\n",
        "import json\ndef f(tool):\n    raise ValueError('Bad arguments; expected: ' + json.dumps(tool.inputSchema))\n",
        "from pydantic import BaseModel\nclass M(BaseModel):\n    x: int\ndef f():\n    raise ValueError(f'Expected {M.model_json_schema()}')\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        if "Help" in message.callee.rsplit(".", 1)[-1]:
            return  # click's NoArgsIsHelpError: showing the help is what the exception is for
        for template in message.templates:
            for holder in template.placeholders:
                if holder.has(SCHEMA):
                    yield self.finding(
                        message,
                        f"`{_short(holder.expr)}` dumps a schema or help text into the message",
                        "Name the failing field and its allowed values; link the docs section instead of the schema.",
                    )
                    return


class ValidationErrorDump(Rule):
    """## What it does
    Flags the whole text of a pydantic or jsonschema `ValidationError` in a message: `str(e)`, `{e}`,
    `e.errors()`, `e.json()`. jsonschema's `e.message` is fine.

    ## Why is this bad?
    jsonschema's `str(e)` for one missing field dumped a 10,784-character schema where `e.message` is
    32 characters; pydantic adds an `input_value` and a documentation URL to every error (~20 tokens
    each) and multiplies errors across union branches.

    ## Example
    ```python
    except jsonschema.ValidationError as e:
        raise ToolError(f"Invalid arguments: {e}")
    ```

    Use instead:
    ```python
        raise ToolError(f"Invalid arguments at {'/'.join(map(str, e.absolute_path))}: {e.message}")
    ```

    ## Fix safety
    Unsafe for jsonschema: `{e}` becomes `{e.message}`. For pydantic a display-only snippet: one
    `loc: msg` line per error from `e.errors(include_url=False)`, capped at five.

    ## Options
    None.
    """

    CODE = "AEM404"
    NAME = "validation-error-dump"
    SUMMARY = "A whole validation error dumped into the message"
    PROSE = False
    PROFILES = ("agent", "cli", "http", "exc")
    FIX = Applicability.UNSAFE
    VALID = (
        "import jsonschema\ntry:\n    g()\nexcept jsonschema.ValidationError as e:\n    raise RuntimeError(f'Invalid arguments: {e.message}')\n",
        "from pydantic import ValidationError\ntry:\n    g()\nexcept ValidationError as err:\n    first = err.errors()[0]\n    raise RuntimeError(f\"field {first['loc']} is invalid: {first['msg']}\")\n",
        "import logging\nfrom pydantic import ValidationError\ntry:\n    g()\nexcept ValidationError as e:\n    logging.error('invalid: %s', e)\n",
    )
    INVALID = (
        "import jsonschema\ntry:\n    g()\nexcept jsonschema.ValidationError as e:\n    raise RuntimeError(f'Invalid arguments: {e}')\n",
        "from pydantic import ValidationError\ntry:\n    g()\nexcept ValidationError as e:\n    raise RuntimeError(str(e))\n",
        "from jsonschema import Draft202012Validator\ndef f(doc, schema):\n    errors = list(Draft202012Validator(schema).iter_errors(doc))\n    raise ValueError(f'invalid: {errors}')\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        for template in message.templates:
            for holder in template.placeholders:
                if holder.has(VALIDATION) and not holder.has(BOUNDED):
                    jsonschema = _is_jsonschema(holder, message)
                    fix = _message_fix(holder, ctx) if jsonschema else None
                    suggestion = (
                        f"Use `{holder.names[0] if holder.names else 'e'}.message` (and the path), not the whole error."
                        if jsonschema
                        else "Summarise: '; '.join(f\"{'.'.join(map(str, x['loc']))}: {x['msg']}\" for x in e.errors(include_url=False)[:5])."
                    )
                    yield self.finding(message, f"`{_short(holder.expr)}` dumps the whole validation error", suggestion, fix=fix)
                    return


def _is_jsonschema(holder: Placeholder, message: Message) -> bool:
    for handler in message.context.handlers:
        if any("jsonschema" in t for t in handler.types):
            return True
    return False


def _message_fix(holder: Placeholder, ctx: FileContext) -> Optional[Fix]:
    """`{e}` / `str(e)` -> `e.message` for a caught jsonschema error (its own one-line text)."""
    import libcst as cst

    node = holder.node
    name = None
    if isinstance(node, cst.Name):
        name = node.value
    elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "str" and len(node.args) == 1 and isinstance(node.args[0].value, cst.Name):
        name = node.args[0].value.value
    if name is None:
        return None
    return Fix(Applicability.UNSAFE, f"Use `{name}.message` instead of the whole error", (node_edit(node, ctx.code, f"{name}.message"),))


class UnboundedAllowedList(Rule):
    """## What it does
    Flags an allowed-values list built by joining a collection that is not a literal (a database or
    API result), or a literal list of more than `max-listed-values` items written into the message.
    The list is the one offered after an allowed-values word in its clause ("valid: {ids}"); a
    collection shown before it ("Unknown fields {unknown}; allowed: a, b" echoes what the caller sent)
    is not.

    ## Why is this bad?
    "Valid projects: ..." with 2,000 ids costs more than the call; show the first few and point to the
    listing tool.

    ## Example
    ```python
    raise ToolError(f"Unknown project; valid: {', '.join(p.id for p in db.projects())}")
    ```

    Use instead:
    ```python
    raise ToolError(f"Unknown project {pid!r}. Call list_projects (or search_projects q=...) for valid ids.")
    ```

    ## Fix safety
    Display-only.

    ## Options
    `max-listed-values` (int, 20).
    """

    CODE = "AEM405"
    NAME = "unbounded-allowed-list"
    SUMMARY = "A list of allowed values that can grow without bound"
    PROSE = False
    PROFILES = ("agent", "cli", "http")
    OPTIONS = {"max-listed-values": Option(20, "int", "Most values a message may list.")}
    VALID = (
        "from fastmcp.exceptions import ToolError\nKNOWN = {'a', 'b'}\ndef f(x):\n    raise ToolError(f\"Unknown {x!r}; available: {', '.join(sorted(KNOWN))}\")\n",
        "from fastmcp.exceptions import ToolError\ndef f(x):\n    raise ToolError(f'Unknown {x!r}; call list_projects.')\n",
        "from fastmcp.exceptions import ToolError\ndef f(x):\n    raise ToolError(f'Unknown {x!r}; expected one of: a, b, c')\n",
    )
    INVALID = (
        "from fastmcp.exceptions import ToolError\ndef f(x, db):\n    raise ToolError(f\"Unknown {x!r}; valid: {', '.join(p.id for p in db.projects())}\")\n",
        "from fastmcp.exceptions import ToolError\ndef f(x, names):\n    raise ToolError('Unknown name; valid: ' + ', '.join(names))\n",
        "from fastmcp.exceptions import ToolError\ndef f(x):\n    raise ToolError('Unknown; one of: " + ", ".join(f"v{i}" for i in range(25)) + "')\n",
    )

    def check(self, message: Message, ctx: FileContext) -> Iterable[Finding]:
        limit = self.options["max-listed-values"]
        for template in message.templates:
            marks = [i for i, ch in enumerate(template.prose) if ch == PLACEHOLDER_MARK]
            for n, holder in enumerate(template.placeholders):
                # the list offered as the allowed values ("valid: {ids}"), not another collection the
                # message shows ("Unknown fields {unknown}; allowed: a, b" echoes what was sent)
                if holder.has(COLLECTION) and holder.has(UNBOUNDED) and _offered(template.prose, marks[n] if n < len(marks) else -1):
                    yield self.finding(message, f"`{_short(holder.expr)}` lists a collection that can grow without bound", "Show the first few values and name the listing tool, e.g. \"…and N more; call list_x\".")
                    return
            listed = _longest_list(template.literal)
            if listed > limit:
                yield self.finding(message, f"the message lists {listed} values (limit {limit})", "Show the first few values and name the listing tool.")
                return


def _offered(prose: str, at: int) -> bool:
    """An allowed-values word comes before the placeholder at `at`, in its clause."""
    if at < 0:
        return bool(ALLOWED_LIST.search(prose))
    clause = re.split(r"[.;!?](?:\s|$)", prose[:at])[-1]
    return bool(ALLOWED_LIST.search(clause))


ALLOWED_LIST = re.compile(r"\b(one of|valid|allowed|available|supported|accepted|possible|choices|options|known|existing|registered|expected|try)\b", re.I)


def _longest_list(text: str) -> int:
    best = 0
    for chunk in re.split(r"[.;:\n]", text):
        items = [i for i in chunk.split(",") if i.strip()]
        if len(items) > best:
            best = len(items)
    return best


def prose_lines(literal: str) -> int:
    """Lines of prose in a message: blank lines and lines indented 4+ spaces (a code sample to copy)
    are not counted against `max-lines`; their tokens still count against the token limit."""
    if not literal.strip():
        return 0
    return sum(1 for line in literal.split("\n") if line.strip() and not line.startswith(("    ", "\t")))
