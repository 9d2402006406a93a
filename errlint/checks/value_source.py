"""AEM205 and AEM209: the tools a message points its reader to. AEM205 asks a not-found or
invalid-identifier error in an MCP tool to name the server's listing tool; AEM209 reports a message
that refers to a tool the project's registry does not have.
"""
from __future__ import annotations

import difflib
import re
from typing import Iterable

from ..extract.fixability import is_id_param, tested_params
from ..extract.provenance import provenance
from ..fixes import append_edit
from ..model import Applicability, Finding, Fix, Message
from ..project_scan import scan_tool_names
from .base import FileContext, Option as RuleOption, Rule, complete_templates
from .inputs import failing_inputs, first_failing_input
from .signals import tool_references
from .part_rule import NOT_FOUND_TEXT, PART_SINKS, VALUE_SOURCE, PartRule, _root, listing_tools, listing_tools_for
from .vague import signals


class MissingValueSource(PartRule):
    """## What it does
    In an MCP tool, flags a not-found or invalid-identifier error (a guard on an `*_id`/`key`/`name`/
    `path`-like parameter, or text such as "not found", "unknown", "no such") that names no tool and no
    command for finding valid values, when the server registers the tool that lists that value: a
    listing or search tool whose name ends with the plural of the noun the input names (`issue_id` ->
    `list_issues`, `category_id` -> `list_categories`, `person_id` -> `list_people`, `index_name` ->
    `list_indices`), of the failing tool's noun for a bare `id` (`get_issue`), or of the one listed
    noun the message names ("No such file" -> `list_files`). The input may be a field of a low-level
    tool's arguments (`arguments["ticket_id"]`). Silent when no tool lists that value:
    `list_presentations` is no source of an image id; silent on a conflict, a value rejected
    because it is already there ("Project 'x' already exists"), and on a state or relation of a value
    that exists (`if owner == user_id`), where a listing is no way out.

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
    Unsafe: append "; call list_issues to see valid values" (one template, one listing tool; with two,
    the suggestion names both and no fix is offered).

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
        listing = listing_tools(server_tools(ctx))
        function = message.context.function
        if not listing or function is None or not (function.role in ("tool", "lowlevel") or function.reachable_from_tool):
            return
        facts = ctx.guard(message)
        open_sets = {_root(m.subject) for m in facts.memberships if m.allowed and m.closed is False}  # records, not a fixed list
        tested = tested_params(message, facts)
        # a field of the arguments (`arguments["ticket_id"]`) or a value computed from one input
        tested += [n for n in failing_inputs(message, ctx) if n not in tested]
        id_params = [p for p in tested if is_id_param(p) or p in open_sets]
        for template in complete_templates(message):
            if not (id_params or NOT_FOUND_TEXT.search(template.prose)):
                continue
            if _conflict(facts, template):
                continue  # "Project 'x' already exists": the value is taken; a list of the taken ones is no way out
            if not NOT_FOUND_TEXT.search(template.prose) and not _looked_up(facts, id_params):
                continue  # `if workspace.owner == user_id`: the user exists; a state or relation check failed
            if not id_params and not _about_input(message, facts, template):
                continue  # "Downloaded file is not a valid PDF": the world's answer, no value the reader can pick
            if facts.bounds or facts.patterns and not NOT_FOUND_TEXT.search(template.prose):
                continue
            if tool_references(template) or VALUE_SOURCE.search(template.prose) or any(re.search(rf"\b{re.escape(t)}\b", template.prose) for t in ctx.registry):
                continue
            if signals(ctx).code.search(template.prose) or signals(ctx).allowed_clause(template):
                continue
            found = listing_tools_for(id_params[0] if id_params else first_failing_input(message, ctx) or _shown_input(message, template),
                                      listing, function.name, template.prose)
            if not found:
                return  # no listing tool lists this value: there is no source to name
            tool = " or ".join(found[:3])
            fix = None
            if len(found) == 1 and len(message.templates) == 1:
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


# the value is rejected because it is present: a name taken, an id used twice
ALREADY_TEXT = re.compile(r"\balready (?:exists?|taken|in use|used|registered|defined|present|added|been)\b|\bduplicate\b|\bconflicts? with\b", re.I)


def _looked_up(facts, inputs) -> bool:
    """The guard looks the input up, checks its form or finds it absent: a membership (`x not in
    TABLE`, a lookup that returned None), a format or pattern test, `not x`; not an equality or a
    state of a record (`owner == user_id`)."""
    roots = set(inputs)
    return any(_root(m.subject) in roots for m in facts.memberships) or any(s in roots for s, *_ in facts.formats) \
        or any(s in roots for s, *_ in facts.patterns) or bool(facts.enum_lookup) or bool(roots & facts.empty_subjects)


def _conflict(facts, template) -> bool:
    """The guard rejects a value because it is in a set (`if name in PROJECTS:`), or the text says
    it is taken ("already exists"), and nothing says it was not found."""
    if NOT_FOUND_TEXT.search(template.prose):
        return False
    denied = [m for m in facts.memberships if not m.allowed]
    return bool(denied) and not any(m.allowed for m in facts.memberships) or bool(ALREADY_TEXT.search(template.prose))


def _shown_input(message: Message, template) -> str:
    """The parameter the message shows (`{issue_id}`), when no guard names the input."""
    params = set(message.context.function.param_names) if message.context.function is not None else set()
    return next((n.split(".", 1)[0] for h in template.placeholders for n in h.names if n.split(".", 1)[0] in params), "")


def _about_input(message: Message, facts, template) -> bool:
    """The value the message rejects comes from the reader: the guard tests caller input, or the
    message shows a value computed from it."""
    shown = {n.split(".", 1)[0] for h in template.placeholders for n in h.names}
    return bool(provenance(message).inputs(facts.subjects | facts.value_subjects | shown))


# how a message tells the reader to call a tool by name: "call X", "use X", "run X", "try X", "the X
# tool", "X tool" (with or without backticks around X)
# ("use `created_at`", "use `utf_8` for encoding" name values to pass: "use" and "try" say tool only
# with a purpose, "use `list_docs` to browse")
def _said_as_tool(prose: str, ref: str) -> bool:
    name = re.escape(ref)
    span = rf"`?{name}(?:\(\))?`?(?![\w:.=/-])"
    return bool(re.search(rf"\b(?i:call(?:ing)?|run|invoke)\s+(?:the\s+)?{span}"
                          rf"|\b(?i:use|using|try|via)\s+(?:the\s+)?{span}\s+(?:to\s+\w+|first|instead|tool)\b"
                          rf"|\b{span}\s+tool\b", prose))


def _in_longer_span(prose: str, ref: str) -> bool:
    """`ref` is only part of a code span (`label_name:value`, `a_b.c`): a piece of syntax, no name."""
    name = re.escape(ref)
    return bool(re.search(rf"`{name}[^`\s(]", prose)) and not re.search(rf"(?<!`){name}(?![\w`])|`{name}(?:\(\))?`", prose)


def _server_size(ctx: FileContext) -> int:
    """How many tools the file's server registers: its decorated and added tools, or the tools a
    low-level server declares in its `list_tools` handler (`Tool(name=...)`)."""
    declared = len(set(scan_tool_names(ctx.text.encode("utf-8", "replace")))) if "Tool(" in ctx.text else 0
    return max(len(ctx.file_tools), declared)


def _input_names(message: Message, ctx: FileContext) -> frozenset:
    """The names of the inputs the reader passes: the parameters of the enclosing function and of
    the file's tools."""
    function = message.context.function
    names = set(function.param_names) if function is not None else set()
    for tool in ctx.facts.tools:
        names.update(tool.params)
    return frozenset(names)


def server_tools(ctx: FileContext) -> frozenset:
    """The tools of the server this file belongs to: the file's own when it registers any on a server
    it makes (a file is one server's module), else every tool of the project (also when its server
    is made by another project module, `from .server import mcp`: the server's tools are spread over
    the modules that import it)."""
    if ctx.facts.server_elsewhere:
        return ctx.file_tools | ctx.registry
    return ctx.file_tools or ctx.registry


class UnknownToolReference(Rule):
    """## What it does
    Flags a message that tells the reader to call a tool (`Call list_projects`, `` `get_item` ``, "use
    the search_issues tool") that the project's tool registry does not have. The registry is every tool
    registered in the checked files (`@mcp.tool`, `add_tool`, `Tool.from_function`) plus
    `tool-registry-extra`. Silent when no registry is known; reported when the name is a near miss of a
    registered tool, or the file's server registers at least `min-registry-size` tools and the
    message says to call or use the name ("call X", "use `X`", "the X tool"). A code span that names
    an input of a tool ("`page_size` must be 100 or less") is not a tool reference.

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
        inputs = _input_names(message, ctx)
        for template in message.templates:
            for ref in tool_references(template, strong=True):
                if ref in registry or ref in inputs or _in_longer_span(template.prose, ref):
                    continue  # "`page_size` must be 100 or less": a code span that names an input, not a tool
                near = difflib.get_close_matches(ref, sorted(registry), n=1, cutoff=0.8)
                if not near and (_server_size(ctx) < self.options["min-registry-size"] or not _said_as_tool(template.prose, ref)):
                    continue  # a bare code span far from every tool name may be a field, a key or a setting
                hint = f"did you mean `{near[0]}`?" if near else f"registered tools include {', '.join(sorted(registry)[:5])}"
                yield self.finding(message, f"the message refers to tool `{ref}`, which is not registered; {hint}", f"Replace `{ref}` with a registered tool name" + (f" (`{near[0]}`)." if near else "."))
                return
