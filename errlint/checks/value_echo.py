"""AEM202 and AEM203: whether a message raised under a guard on caller input shows the rejected value
(AEM202) and names the input that failed (AEM203). The guard's subjects are traced back to the
caller's inputs; a bounded summary, a stated bound or the name of a missing key counts as the echo.
"""
from __future__ import annotations

import re
from typing import Iterable, Optional, Set, Tuple

import libcst as cst

from ..extract import nodes
from ..extract.context import GuardFacts
from ..extract.fixability import is_unbounded_param
from ..extract.guards import DOCUMENT_FORMS
from ..extract.input_origins import option_flags, origins
from ..extract.provenance import REQUEST_OBJECTS, provenance
from ..fixes import insert_in_fstring
from ..model import Applicability, Finding, Fix, Message, Template
from .base import FileContext, Option as RuleOption, complete_templates
from .nouns import plurals, singular, spelled_out
from .inputs import CONTEXT_OBJECTS, failing_input_kinds, form_rendered, failing_inputs, is_flag, reports_missing_input
from .signals import interpolates, mentions, signals, value_placeholders
from .part_rule import PART_SINKS, PartRule, _contains


class MissingValueEcho(PartRule):
    """## What it does
    Flags a message raised under a guard that tests a value the caller passed (`if x not in ...`,
    `if len(x) > 5`, `if not re.match(..., x)`, `if not x.endswith(".md")`) when the message does not
    interpolate that value. Emptiness checks (`if not x`, `x is None`) and pydantic validators are
    exempt; for dicts and lists a bounded summary (the missing keys, `len(x)`) is expected. So is a
    message that names the input and says what to send (what the value must be, or a step) when the
    value is the one the caller sent as is (a parameter of a tool, a CLI command or an argparse
    `type=` converter, a field read by its key such as `request.args.get("_size")` or
    `arguments["amount"]`, or the one value computed from one; not an element of a collection or a
    count): the caller knows what it sent. "Currency not supported." names the input and says
    neither, so it still owes the value. A document that fails to parse still needs the parser's
    position.

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
        if not facts.has_guard or facts.status_tested:
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
        if any(interpolates(t, n) for t in message.templates for n in shown):
            return  # variants of one expression (`kind = args["type"] if ... else "content"`): one shows the value, the other inlines it
        for template in complete_templates(message):
            if any(v and _contains(template, v) for _, v in facts.equalities):
                continue
            measured_only = not any(p[0] in names for p in facts.patterns) and not any(f[0] in names for f in facts.formats)
            if names <= facts.counted and measured_only and _states_bound(template, facts):
                continue  # "pass at most 3 paths": the limit says enough about a count (not about a pattern the value also failed)
            if _names_missing_key(template, facts):
                continue  # `"itemId" not in args`: naming the missing key is the echo
            if reports_missing_input(template, facts):
                continue  # "other_table must be specified": an absent input, no value to show
            single = [m.values[0] for m in facts.memberships if m.allowed and m.values and len(m.values) == 1 and not m.collection]
            if single and len(single) == len([m for m in facts.memberships if m.allowed]) and not (facts.bounds or facts.formats or facts.patterns) and any(s.lower() in template.literal.lower() for s in single):
                continue  # `if x != "http"` with "only handles HTTP" in the text: the requirement is stated
            unbounded = all(is_unbounded_param(function, n) for n in names)
            if unbounded and value_placeholders(template):
                continue
            ranked = [n for n in failing_inputs(message, ctx) if n in names]
            name = ranked[0] if ranked else sorted(names)[0]
            form = next((f for s, f, _ in facts.parse_forms if s == name and f in DOCUMENT_FORMS), "")
            if not form and form_rendered(message):
                return  # a form field's validator: the form shows the message beside the value the user typed
            labels = set(facts.keys[name]) if name in facts.keys else _sent_as_is(message, name)
            if not unbounded and not form and name not in facts.counted and labels and _names_input(template, name, message, labels) \
                    and _says_what_to_send(template, ctx):
                continue  # the reader sent this one value itself; the message names it and says what to send: the echo adds nothing
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
            if form:  # a JSON/YAML/TOML document: where it broke, not the whole document
                caught = message.context.handlers[0].name if message.context.handlers else ""
                err = caught or "e"
                yield self.finding(
                    message,
                    f"the message does not say where `{name}` fails to parse as {form}; append the parser's error \" ({{{err}}})\"",
                    "Show the parser's position and reason" + ("" if caught else f" (catch it `as {err}`)") + f": f\"... ({{{err}}})\", not the whole document.",
                )
                return
            shown_field = facts.field_of(name)  # `args.port`: the field that failed, not the namespace
            fix = None
            if not unbounded and shown_field == name and len(message.templates) == 1 and function is not None and name in function.param_names:
                edits = insert_in_fstring(template, ctx.code, f" (got {{{name}!r:.{width}}})")
                if edits:
                    fix = Fix(Applicability.UNSAFE, f"Append the rejected value of `{name}`", tuple(edits))
            name = shown_field
            hint = f"name the offending entries or `len({name})`" if unbounded else f"append \" (got {{{name}!r:.{width}}})\""
            yield self.finding(
                message,
                f"the message does not show the rejected value of `{name}`; {hint}",
                f"Echo the value the caller sent: f\"... (got {{{name}!r:.{width}}})\"." if not unbounded else f"Name what is wrong in `{name}` (the missing keys, the count), not the whole value.",
                fix=fix,
            )
            return


def _sent_as_is(message: Message, name: str) -> Set[str]:
    """The names the reader knows the value of `name` by, when it is one value the reader sent as
    is: a field of its request or arguments read by its key (`args["size"]`,
    `request.args.get("_size")`; not the environment or a config file), a parameter of the
    entry point itself (an MCP tool, a CLI command or callback, an argparse `type=` converter), or
    the one value computed from either (`n = int(size)`, `doc = json.loads(text)`). Empty for an
    element of a collection (a loop target, a lookup by a computed key), a value computed from
    several parameters, or a helper's parameter: the reader cannot tell which of its values failed."""
    function = message.context.function
    scope = message.scope
    if function is None or scope is None:
        return set()
    chain = {name} | provenance(message).ancestors({name})
    keys: Set[str] = set()
    containers: Set[str] = set()
    for n in chain:
        for binding in scope.lookup(n):
            if binding.kind in ("loop", "with"):
                return set()
            if binding.value is None:
                continue
            for node in nodes.iter_expr(binding.value):
                found = _field_key(node)
                if found is None:
                    continue
                container, key = found
                if key is None:
                    return set()  # `row = rows[i]`: one of many
                if container not in function.param_names and container not in REQUEST_OBJECTS:
                    return set()  # `os.environ.get("APP_TIMEOUT")`, a config file: set by someone else, maybe long ago
                keys.add(key)
                containers.add(container)
    params = (chain & set(function.param_names)) - containers
    if len(params) > 1:
        return set()  # `span = end - start`: which of the two is wrong?
    if keys:
        return params | keys
    if function.role not in ("tool", "lowlevel", "cli"):
        return set()  # a helper's parameter may be one of many entries (`for v in values: check(v)`)
    return params


def _field_key(node: cst.CSTNode) -> Optional[Tuple[str, Optional[str]]]:
    """(container, key) for a lookup of one field: `args["size"]` and `args.get("size")` give the key;
    a lookup by a computed key or a position (`rows[i]`, `size[:-1]`) gives None for it. None when
    `node` is no lookup."""
    if isinstance(node, cst.Subscript):
        index = node.slice[0].slice if len(node.slice) == 1 else None
        key = nodes.string_value(index.value) if isinstance(index, cst.Index) else None
        return nodes.root_name(node.value), key  # a slice or an index: a part of the value, not the value
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get" and node.args:
        key = nodes.string_value(node.args[0].value)
        if key is not None:
            return nodes.root_name(node.func.value), key
    return None


def _names_input(template: Template, name: str, message: Message, labels: Iterable[str] = ()) -> bool:
    """The message names the input: its name, the parameter or field it came from (`labels`), a
    command-line flag, or a word of its name (`url_str` -> "URL")."""
    function = message.context.function
    candidates = {name} | set(labels) | (provenance(message).ancestors({name}) & set(function.param_names) if function is not None else set())
    for candidate in candidates:
        if mentions(template, candidate) or function is not None and any(mentions(template, flag.lstrip("-")) for flag in function.aliases.get(candidate, ())):
            return True
        if any(len(word) >= 3 and mentions(template, word) for word in candidate.split("_")):
            return True
    return bool(re.search(r"(?<![\w-])--[a-z][\w-]+", template.literal))


def _names_missing_key(template: Template, facts: GuardFacts) -> bool:
    """For `"key" not in args` checks, the message names the key that is missing."""
    keys = [lit for _, method, lits, required in facts.formats if method == "contains" and required for lit in lits if len(lit) > 1]
    return bool(keys) and any(_contains(template, k) for k in keys)


def _says_what_to_send(template: Template, ctx: FileContext) -> bool:
    """The message says what the value must be ("--cooldown must be a non-negative integer") or what
    to do ("run `tool enable-stats DB` first"). "Invoice amount rejected." and "Currency not
    supported." name the input and say neither: the value the caller sent is then worth showing."""
    sig = signals(ctx)
    return bool(sig.allowed_clause(template) or sig.next_step(template, ctx.registry, action=True))


def _states_bound(template: Template, facts: GuardFacts) -> bool:
    for value in facts.bound_values:
        if _contains(template, value):
            return True
    return any(label and interpolates(template, label) for _, _, label in facts.bounds)


def _names_param(template: Template, param: str, function, declared: Tuple[str, ...] = (), failing: Set[str] = frozenset()) -> bool:
    """The message names `param`, or the CLI flag it is declared as (`--p-name`, `--format` for `fmt`;
    `declared`: an argparse option's own flags)."""
    flags = ("--" + param.replace("_", "-"),) + function.aliases.get(param, ()) + declared
    if mentions(template, param) or any(mentions(template, flag) or mentions(template, flag.lstrip("-")) for flag in flags):
        return True
    words = _own_words(param, function, failing)
    words |= {full for word in words for full in spelled_out(word)}  # `dest_path` named "destination"
    return any(_failing_subject(template.literal, form) for word in words for form in {word, singular(word)} | plurals(singular(word)))


# a noun the failure is said of: "Invalid input", "unknown column", "column types must ...", "the
# range is empty"; not a noun the text mentions otherwise ("add a geometry column before ...")
# ("Retired vehicle", "Vehicle retired": a state said of the noun in a headline's few words; "needs two
# listings": what the input must hold)
_FAILED_BEFORE = (r"\b(?:(?:invalid|unknown|bad|wrong|malformed|unsupported|missing|empty|illegal|unrecognized|unrecognised|too many|too few|\w+ed)\s+(?:\w+\s+)?"
                  r"|(?:not|n't)(?: look| seem)?(?: like| to be)? (?:a|an|the) (?:valid |proper |well-formed )?"
                  r"|(?:needs?|requires?|expects?|takes?|accepts?)\s+(?:\w+\s+){0,2}"
                  # what the reader is asked for, in the same clause: "Please specify a database + schema"
                  r"|\b(?:specify|provide|supply|pass|enter|choose|select|give)\s+[^.;:!?]{0,40}?\b)")
_FAILED_AFTER = r"(?:\s+\w+)?\s+(?:is|are|was|were|must|should|cannot|can't|needs?|has|have|does|do|did|looks?|contains?|exceeds?|not|already|\w+ed)\b"


def _failing_subject(text: str, word: str) -> bool:
    if word.lower() not in text.lower():  # most words are absent: no pattern to build
        return False
    name = re.escape(word)
    return bool(re.search(rf"{_FAILED_BEFORE}{name}\b|\b{name}{_FAILED_AFTER}", text, re.I))


def _own_words(param: str, function, failing: Set[str] = frozenset()) -> Set[str]:
    """The words of `param`'s name (3 letters or more, as the name spells them) that no other
    parameter's name has; `_names_param` counts one when the failure is said of it: "Invalid input"
    names `input_data` beside `pages`; "date" names neither `start_date` nor `end_date`, and "add a
    geometry column first" says nothing failed about `column_name`. "ID" names the one input whose
    name ends in `_id`."""
    def words(name: str) -> Set[str]:  # (and `id`: "the specified ID is invalid" names the only `*_id` input)
        return {w for w in name.lower().split("_") if len(w) >= 3 or w in ("id", "ids")}
    # (the other failing inputs share the words they may: "Passwords do not match" names `password` and `confirm_password`)
    others = {singular(w) for p in function.param_names if p != param and p not in failing for w in words(p)} if function is not None else set()
    return {w for w in words(param) if singular(w) not in others}  # as the name spells it: "statements" is no `statement`


def _secret(name: str) -> bool:
    from ..extract.value_names import is_secret_name

    return is_secret_name(name)


# the framework puts the parameter's name before these texts: click's "Invalid value for '--size':"
# when it knows the parameter (a callback or a ParamType's `convert`, or `param=`/`param_hint=`),
# argparse's "argument --cooldown:" (an ArgumentError, or a `type=` converter's ArgumentTypeError)
CLICK_PARAMETER_ERRORS = frozenset({"click.BadParameter", "click.exceptions.BadParameter", "typer.BadParameter", "click.MissingParameter"})


def named_by_framework(message: Message) -> bool:
    callee, function = message.callee, message.context.function
    if callee == "argparse.ArgumentError":
        return True
    if callee == "argparse.ArgumentTypeError":
        return function is not None and (len(function.param_names) == 1 or function.name == "__call__")
    if callee not in CLICK_PARAMETER_ERRORS:
        return False
    call = message.node.exc if isinstance(message.node, cst.Raise) else message.node
    if isinstance(call, cst.Call) and nodes.keyword_arg(call, "param", "param_hint") is not None:
        return True
    return function is not None and (function.name == "convert" or "param" in function.param_names)


class MissingInputName(PartRule):
    """## What it does
    In an MCP tool or a CLI command, flags a message raised under a guard on parameter `p` that names
    neither `p` nor its flag (`--p-name`). A guard on a value computed from one input stands for that
    input (`n = int(limit)` names `limit`), and a field of argparse's namespace (`args.workers`,
    `n = opts.workers`) is named by its option (`--workers`, or the flags its `add_argument`
    declares), a positional by its metavar; a field of a model or arguments dict (`order.quantity`)
    by its field name. A message names the input by its name, its flag, or a word only its name has
    (in any number, or spelled out: `dest_path` is "destination") said as the thing that failed
    ("Invalid input", "Labels must be lowercase", "Vehicle retired"); a relation of two inputs that
    names neither is reported for both. A message that shows the value the caller sent for the
    input ("Issue {issue_id} not found", `{title[:40]!r}`) identifies it, and the errors whose text
    the framework prefixes with the parameter's name are exempt (and anything an argparse `type=`
    converter raises): click's
    `BadParameter` where click knows the parameter (a callback, a ParamType's `convert`, `param=` or
    `param_hint=`), argparse's `ArgumentError` and a `type=` converter's `ArgumentTypeError`.
    Neither is a parameter that only switches the failure on or off (`if not ignore: raise ...`
    with `--ignore` declared `is_flag=True`): it is not the input that failed.

    A helper that a tool or command hands one of its inputs to, as sent or converted
    (`_check_limit(limit)`, `require_positive(int(page_size))`, in any module of the project), is
    judged as that entry point's code when the entry point takes more than one input; the finding
    says which input of which tool the helper's parameter receives. A helper that is given the
    input's name to put in its text (`require("timezone", tz)`) names it.

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
        if function is None or named_by_framework(message) or ctx.type_converter(message):
            return  # (argparse names the argument in front of anything a `type=` converter raises)
        # (not a low-level `call_tool` handler: which arguments the called tool takes, and so whether
        # naming one tells the reader anything, is in its inputSchema, which errlint does not read)
        # (or a helper judged with its parameters as the inputs an entry point passes it: `engine`)
        entry = function.role in ("tool", "cli") or bool(message.extra.get("forwarded_params"))
        facts = ctx.guard(message)
        found = failing_input_kinds(message, ctx)
        # a parameter of the tool or command itself, a field of its arguments (`arguments["issue_id"]`,
        # `params.limit` of a model), or an argparse option wherever its namespace is read
        inputs = [n for n, kind in found.items() if kind == "option" or entry and (kind == "key" or kind == "param" and n in function.param_names)]
        if not inputs:
            return  # only flags, context objects, whole argument containers or a helper's parameters were tested
        options = ctx.argparse_options() if "option" in found.values() else {}
        # a switch tested with the input (`if multi and len(columns) > 1`) names the failing combination
        switches = [p for p in function.param_names if p in facts.subjects and p in function.switches]
        def declared(p: str) -> Tuple[str, ...]:
            return option_flags(options, p) if found.get(p) == "option" else ()

        failing = set(inputs) | set(switches) | (facts.names & set(function.param_names))  # every input the test reads
        for template in complete_templates(message):
            if any(_names_param(template, p, function, declared(p), failing) for p in inputs + switches):
                continue
            if _names_field(template, inputs, facts):
                continue  # `order.quantity <= 0` with "quantity must be positive": the field of the input that failed
            if _names_missing_key(template, facts):
                continue
            if len(function.param_names) == 1 and any(interpolates(template, p) for p in inputs):
                continue
            if _shows_value(template, message, inputs, facts):
                continue  # "Issue 42 not found": the reader matches the value it sent to the input it sent it in
            if message.extra.get("forwarded_params") and _shows_other_param(template, function, inputs):
                continue  # `require("timezone", tz)`: a helper told the input's name shows it
            p = inputs[0]
            shown = _display_name(p, function, declared(p))
            tested = [q for q in inputs if q in facts.value_subjects]
            other = tested[1] if len(tested) == 2 and tested[0] == p else ""
            if other:  # `end < start`: the relation of two inputs failed, and the message names neither
                yield self.finding(message, f"the message does not name the inputs `{shown}` and `{_display_name(other, function, declared(other))}` that failed the check",
                                   f"Name both, e.g. \"{shown} must be ... {_display_name(other, function, declared(other))}\".")
                return
            yield self.finding(message, f"the message does not name the input `{shown}` that failed the check", f"Start with the input's name, e.g. \"{shown}: ...\" or f\"{shown}={{...!r}} ...\".")
            return


def _display_name(p: str, function, declared: Tuple[str, ...]) -> str:
    """How the reader knows input `p`: a command's option as typed (`--out`), an argparse
    positional by its metavar or name, a tool's parameter by its name."""
    flags = declared or tuple(sorted(function.aliases.get(p, ()), key=len, reverse=True))
    return flags[0] if flags else p


def _names_field(template: Template, inputs, facts) -> bool:
    """The message names the field of a failing input that the guard tested (`order.quantity`)."""
    fields = {a.split(".", 1)[1] for a in facts.attributes if a.split(".", 1)[0] in inputs}
    return any(len(f) >= 3 and mentions(template, f) for f in fields)


def _shows_other_param(template: Template, function, inputs) -> bool:
    """The message shows a parameter of the function other than the failing inputs: a helper that
    is passed the input's name, or a label for it, to put in the message."""
    others = set(function.param_names) - set(inputs) - {"self", "cls"}
    return bool({re.match(r"\w*", h.expr.strip()).group(0) for h in template.placeholders} & others)


def _shows_value(template: Template, message: Message, inputs, facts) -> bool:
    """The message shows the value of a failing input as sent (`{issue_id}`, `{limit!r}`, or the
    value the guard tested when it was computed from the input, `{n}` for `n = int(limit)`), not a
    measure of it (`len(x)`)."""
    exprs = {_shown(h.expr.replace(" ", "")) for h in template.placeholders}
    tested = set(facts.value_subjects | facts.subjects)
    for name in inputs:
        derived = {s for s in tested if {("param", name), ("option", name)} & origins(message.scope, s, facts.attributes)}
        if exprs & ({name} | derived | {f"{s}.{name}" for s in tested}):
            return True
        pinned = [v for s, v in facts.equalities if s in {name} | derived and v]
        if any(_contains(template, v) for v in pinned):
            return True  # `if fmt == "parquet":` and "parquet export needs pyarrow": the value the reader sent
    return False


def _shown(expr: str) -> str:
    """The value a placeholder shows, without the bounding that keeps it short (`title[:40]`,
    `str(x)`, `repr(x)`): a slice of the value still shows the value."""
    inner = re.match(r"^(?:str|repr)\((.*)\)$", expr)
    expr = inner.group(1) if inner else expr
    return re.sub(r"\[-?\d*:-?\d*\]$", "", expr)
