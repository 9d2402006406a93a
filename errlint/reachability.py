"""Audience by reachability, and helper return values that flow into tool replies.

- A raise takes the audience of the entry points that reach its function (agent before http before
  cli when several do); calls made inside a `try` that catches every exception do not pass a raise on
  (the handler's own message is what the reader sees, and it is judged itself).
- A raise no entry point reaches, in a project with entry points, and every raise of a library (no
  entry point), is `exc`.
- A helper's return value is part of a tool's reply when the tool returns it, directly or through
  other helpers; the helper's error text is then judged as a tool reply, naming the tool(s).

Each file's per-file pass leaves its audience-dependent findings as variants (one set per possible
audience); `judge` picks the variant the project model gives.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Dict, List, Optional, Sequence, Set, Tuple

from .entry_points import AUDIENCE_ORDER
from .extract.catching import catches, crashes_a_command, not_an_http_error
from .checks.inputs import CONTAINERS, CONTEXT_OBJECTS
from .model import Diagnostic
from .parameter_inputs import ParameterInputs
from .project_model import DETACHED, RELAYED, ProjectModel, is_test_module

MAX_NAMED = 3
NOT_INPUTS = frozenset(CONTEXT_OBJECTS | CONTAINERS)  # parameters of an entry point that carry no one input
NOBODY = "none"  # the variant of a raise that every path from an entry point catches and replaces
INTERNAL = "|internal"  # suffix of a variant judged with the function's parameters carrying no input
# suffix of the findings a helper's message adds when its parameters receive an entry point's inputs
# (`parameter_inputs.forwarded_params`): judged with them as that entry point's inputs
FORWARDED = "|forwarded"


def audience_of(key: str) -> str:
    """The audience of a variant key (`cli` for `cli|internal` or `cli|forwarded`)."""
    for suffix in (INTERNAL, FORWARDED):
        if key.endswith(suffix):
            return key[:-len(suffix)]
    return key


class Reach:
    """Which entry points reach each function, with one call chain per audience."""

    def __init__(self, model: ProjectModel):
        self.model = model
        self.entries = model.entry_points()
        self.labels: Dict[str, str] = {node: label for node, _, label in self.entries}
        self.parent: Dict[str, Dict[str, Optional[str]]] = {}
        self.roots: Dict[str, Set[str]] = {}
        for node, aud, _ in self.entries:
            self.roots.setdefault(node, set()).add(aud)
        # every call edge between reached functions, by callee: (caller, classes caught and replaced)
        self.callers: Dict[str, List[Tuple[str, Tuple[str, ...]]]] = {}
        edges: Dict[str, List[Tuple[str, Tuple[str, ...]]]] = {}

        def step(node: str) -> List[str]:
            if node not in edges:
                edges[node] = model.calls(node)
                for target, types in edges[node]:
                    self.callers.setdefault(target, []).append((node, types))
            return [target for target, _ in edges[node]]

        for audience in AUDIENCE_ORDER:
            roots = [node for node, aud, _ in self.entries if aud == audience]
            self.parent[audience] = self._walk(roots, step)
        self._edges = edges
        self._screen: Optional[Dict[str, Optional[str]]] = None
        self._raised: Dict[Tuple[str, str, str], Tuple[Optional[str], Tuple[str, ...]]] = {}
        self.exc_reason: Dict[Tuple[str, str, str], str] = {}  # see raise_audience
        self.crashes: Set[Tuple[str, str, str]] = set()  # see raise_audience
        # the entry points whose inputs are their parameters: MCP tools, click and typer commands
        named = {node: aud for node, aud, label in self.entries if label.startswith(("MCP tool", "CLI command"))}
        self.params = ParameterInputs(model, set(self.roots), named)
        self._replaced: Dict[Tuple[str, str], bool] = {}
        self.entry_modules = {model.module_of.get(node, node.partition(":")[2]) for node, _, _ in self.entries}
        tools = [node for node, aud, _ in self.entries if aud == "agent"]
        self.reply_tools: Dict[str, List[str]] = {}
        for tool in tools:
            for helper in self._walk([tool], model.returned):
                if helper != tool:
                    self.reply_tools.setdefault(helper, []).append(tool)

    @staticmethod
    def _walk(roots: Sequence[str], step) -> Dict[str, Optional[str]]:
        parent: Dict[str, Optional[str]] = {root: None for root in roots}
        queue = list(roots)
        while queue:
            node = queue.pop()
            for target in step(node):
                if target not in parent:
                    parent[target] = node
                    queue.append(target)
        return parent

    def on_screen(self, fq: str) -> bool:
        """A CLI command reaches `fq` other than through a function that starts a server: what `fq`
        writes to stderr is then on the screen of the person who ran the command. Past a
        `mcp.run()` or `uvicorn.run(app)`, stderr is the server's log (the launcher's own lines,
        before it serves, are still the command's)."""
        if self._screen is None:
            roots = [node for node, aud, _ in self.entries if aud == "cli"]
            serving = self.model.serving
            self._screen = self._walk(roots, lambda n: [] if n in serving else [t for t, _ in self._edges.get(n, ())])
        return fq in self._screen

    @property
    def library(self) -> bool:
        return not self.entries

    def audience(self, fq: str) -> Tuple[str, Tuple[str, ...]]:
        """(audience, chain from the entry point to `fq`) of a raise in function `fq`."""
        for audience in AUDIENCE_ORDER:
            if fq in self.parent[audience]:
                return audience, self.chain(audience, fq)
        return "exc", ()

    def raise_audience(self, fq: str, cls: str, plain: str = "") -> Tuple[Optional[str], Tuple[str, ...]]:
        """(audience, chain) of a raise of class `cls` in `fq`, following only the calls whose
        caller does not catch and replace `cls` (`extract.catching`); (None, ()) when every path
        from an entry point replaces it (nobody reads its text). ("exc", ()) when no entry point's
        reader gets the text (`exc_reason` says why):
        - "detached": the paths that do not replace it all run a function detached (a thread or
          process target, a loop callback): the runtime prints the raise;
        - "masked": a raise of a `plain` class (its qualified name, known not to be a web
          framework's error class: `catching.not_an_http_error`) that only HTTP handlers reach, and
          that nothing on the way or in the project (`ProjectModel.http_catchers`) turns into a
          response of its own: the framework answers a bare 500 ("Internal Server Error") and logs
          the text.
        A `cli` raise of a `plain` class that stops the program with a traceback
        (`catching.crashes_a_command`), and that no handler on the way uses, is added to `crashes`:
        its text reaches the user only inside the traceback of a crash (see `choose`).
        Call only for a reached `fq`."""
        key = (fq, cls, plain)
        if key not in self._raised:
            bases = self.model.class_bases
            child: Dict[str, Optional[str]] = {fq: None}
            queue = [fq]
            found: Dict[str, str] = {}
            detached = relayed = False
            screen: Optional[Tuple[str, str]] = None  # (a CLI's function that starts a thread, the target side)
            while queue:
                node = queue.pop(0)
                for audience in self.roots.get(node, ()):
                    found.setdefault(audience, node)
                for caller, types in self.callers.get(node, ()):
                    if DETACHED in types:
                        detached = True
                        if screen is None and self.on_screen(caller):
                            screen = (caller, node)  # the runtime prints the traceback on the user's terminal
                    elif caller not in child and not catches(types, cls, bases):
                        relayed = relayed or catches([t[len(RELAYED):] for t in types if t.startswith(RELAYED)], cls, bases)
                        child[caller] = node
                        queue.append(caller)
            masked = ("http" in found and not relayed and not self.model.http_catchers
                      and not_an_http_error(plain, self.model.qualified_bases))
            if masked:
                del found["http"]

            def down(step: Optional[str]) -> Tuple[str, ...]:  # from a caller down to `fq`
                chain: List[str] = []
                while step is not None and len(chain) < 50:
                    chain.append(step)
                    step = child[step]
                return tuple(chain)

            best = next((a for a in AUDIENCE_ORDER if a in found), None)
            if best == "cli" and not relayed and crashes_a_command(plain, self.model.qualified_bases):
                self.crashes.add(key)
            if best is None and screen is not None:
                # a thread or process a CLI command starts: what it raises is printed, with its
                # traceback, on the terminal of the person who ran the command
                caller, node = screen
                self._raised[key] = ("cli", self.chain("cli", caller) + down(node))
            elif best is None and (detached or masked):
                self.exc_reason[key] = "masked" if masked else "detached"
                self._raised[key] = ("exc", ())
            else:
                self._raised[key] = (best, down(found[best]) if best is not None else ())
        return self._raised[key]

    def crash_only(self, fq: str, record: dict) -> bool:
        """A raise that reaches a CLI user only as the traceback of a crash (`raise_audience`), on a
        check of the program's own state (`recovery.internal_invariant` with `state_is_own`: the
        test reads no caller input and calls nothing that may read the world). It reports a bug;
        its reader is whoever debugs the crash (`exc`)."""
        return bool(record.get("own")) and (fq, record["cls"], record.get("qcls", "")) in self.crashes

    def replaced_by_callers(self, fq: str, cls: str, depth: int = 0) -> bool:
        """For code no entry point reaches in an application: every project caller of `fq` (tests
        left out) catches and replaces `cls`, or passes it on to callers that all do. A function
        with no such caller, or reached another way, may have callers errlint does not see."""
        if self.library or fq in self.roots or depth > 8:
            return False
        key = (fq, cls)
        if key in self._replaced:
            return self._replaced[key]
        self._replaced[key] = False  # a cycle of callers replaces nothing by itself
        calls, other = self.model.incoming()
        edges = [e for e in calls.get(fq, ()) if not is_test_module(self.model.module_of[e[0]])]
        bases = self.model.class_bases
        found = fq not in other and bool(edges) and all(
            catches(types, cls, bases) or self.replaced_by_callers(caller, cls, depth + 1) for caller, _, types in edges)
        self._replaced[key] = found
        return found

    def chain(self, audience: str, fq: str) -> Tuple[str, ...]:
        out = [fq]
        parent = self.parent[audience]
        while parent.get(out[-1]) is not None and len(out) < 50:
            out.append(parent[out[-1]])  # type: ignore[arg-type]
        return tuple(reversed(out))

    def inputs_of(self, node: str) -> List[str]:
        """The inputs an entry point takes as its parameters: context objects and containers of
        arguments left out."""
        params = (self.model.functions.get(node) or {}).get("params") or [[], [], "", ""]
        return [p for p in params[0] + params[1] if p not in NOT_INPUTS]

    def entry_label(self, node: str) -> str:
        return f"{node} ({self.labels.get(node, 'entry point')})"


def function_key(module: str, record: dict) -> str:
    fn = record["fn"]
    if fn == "<main>":
        return f"<main>:{module}"
    return f"{module}.{fn}" if fn else f"<module>:{module}"


def choose(reach: Reach, module: str, record: dict) -> Tuple[str, Tuple[str, ...], str]:
    """(variant key, entry points, text to add to the message) for one audience-dependent message."""
    node = function_key(module, record)
    if record["kind"] == "reply":
        tools = reach.reply_tools.get(node, [])
        if not tools:
            return "", (), ""
        names = sorted({reach.model.tool_name(t) for t in tools})
        shown = ", ".join(f"`{n}`" for n in names[:MAX_NAMED]) + (f" and {len(names) - MAX_NAMED} more" if len(names) > MAX_NAMED else "")
        return "reply", tuple(reach.entry_label(t) for t in sorted(tools)[:MAX_NAMED]), f" (returned to the agent by tool {shown})"
    if record["kind"] == "sink":  # the sink names its reader, if anything reaches the code at all
        if reach.library:
            return record["fixed"], (), ""
        for audience in AUDIENCE_ORDER:
            if node in reach.parent[audience]:
                if "cls" in record:
                    audience, chain = reach.raise_audience(node, record["cls"])
                    if audience is None:
                        return NOBODY, (), ""
                    if not chain:  # run detached: the runtime prints it, no entry point reads it
                        return record["fallback"], (), ""
                else:
                    chain = reach.chain(audience, node)
                if record.get("stream") and not reach.on_screen(node):
                    # a server's stderr (an MCP server's over stdio, a web app's) is its operator's log
                    return record["fallback"], (reach.entry_label(chain[0]),), ""
                return record["fixed"], (reach.entry_label(chain[0]),), ""
        if "cls" in record and reach.replaced_by_callers(node, record["cls"]):
            return NOBODY, (), ""
        if module not in reach.entry_modules and module not in reach.model.linked_modules():
            return record["fixed"], (), ""  # a module nothing imports (a plugin, a script): trust the sink
        return record["fallback"], (), ""
    if record.get("signal"):
        return "exc", (), ""
    if record["fn"] == "<main>":
        return "cli", (f"<main>:{module} (`if __name__ == \"__main__\":` block)",), ""
    if node.startswith("<module>:") and not node.endswith("__main__"):
        return "exc", (), ""
    audience, chain = reach.audience(node)
    if chain and "cls" in record:
        raised, chain = reach.raise_audience(node, record["cls"], record.get("qcls", ""))
        if raised is None:
            return NOBODY, (), ""
        if reach.crash_only(node, record):
            return "exc", (), ""
        audience = raised
    elif "cls" in record and reach.replaced_by_callers(node, record["cls"]):
        return NOBODY, (), ""
    return audience, ((reach.entry_label(chain[0]),) if chain else ()), ""


def judge(base: Sequence[Diagnostic], variants: Sequence[dict], reach: Reach, module: str) -> Tuple[List[Diagnostic], str]:
    """The file's diagnostics under the project model, and a digest of the choices made (what the
    file's findings depend on beyond its own bytes)."""
    out = list(base)
    choices = []
    for record in variants:
        key, entries, note = choose(reach, module, record)
        if key + INTERNAL in record["by"] and reach.params.fixed(function_key(module, record), record.get("gp", ())):
            key += INTERNAL
        added = [] if key == NOBODY or key.endswith(INTERNAL) else _forwarded(reach, module, record, key)
        choices.append(f"{key}|{'/'.join(entries)}|{note}|{len(added)}")
        picked = [] if key == NOBODY else record["by"].get(key)
        if picked is None:  # an audience the per-file pass did not expect: keep the file's own judgement
            key, entries, note = record.get("local", ""), (), ""
            picked = record["by"].get(key)
        if picked is None:
            continue
        audience = audience_of(key)
        for d in picked:
            out.append(replace(d, message=d.message + note if note else d.message, audience="agent" if audience == "reply" else audience, entry_points=entries))
        for d, label in added:
            out.append(replace(d, audience="agent" if audience == "reply" else audience, entry_points=(label,)))
    return out, ";".join(choices)


def _forwarded(reach: Reach, module: str, record: dict, key: str) -> List[Tuple[Diagnostic, str]]:
    """The findings a helper's message adds when the parameters its guard tests receive the inputs
    of an entry point of the chosen audience (a tool's `limit` passed on to `_check_limit(limit)`):
    each names the helper's parameter, and the entry point's input when it is called otherwise.
    A message that names the entry point's input under its own name is not reported."""
    found = record["by"].get(key + FORWARDED)
    if not found:
        return []
    audience = "agent" if key == "reply" else key
    links = reach.params.forwarded(function_key(module, record), record.get("gp", ()), audience)
    out = []
    words = record.get("words", ())
    for d in found:
        for param, entry, name in links:
            if f"`{param}`" not in d.message or name != param and _word_named(name, words) or name in NOT_INPUTS:
                continue
            if len(reach.inputs_of(entry)) < 2:
                continue  # the entry point's one input: its reader knows which failed
            kind = reach.labels.get(entry, "")
            short = kind if kind.startswith("MCP tool `") else f"command `{entry.rsplit('.', 1)[-1]}`"
            where = f"`{param}` receives the input `{name}` of {short}" if name != param else f"an input of {short}, passed on here"
            out.append((replace(d, message=f"{d.message} ({where})"), reach.entry_label(entry)))
            break
    return out


def _word_named(name: str, words: Sequence[str]) -> bool:
    """`name` (`max_results`) or its words said together (`max results`) are in the message's words."""
    parts = [w for w in name.lower().split("_") if w]
    joined = " ".join(words)
    return name.lower() in words or bool(parts) and f" {' '.join(parts)} " in f" {joined} "


def explain(reach: Reach, module: str, record: dict) -> List[str]:
    """Lines that say why a message has its audience: the entry points found and the call chain."""
    node = function_key(module, record)
    lines = []
    if record["kind"] == "reply":
        tools = reach.reply_tools.get(node, [])
        if not tools:
            return [f"{node} returns error text, but no tool returns its value: not a tool reply"]
        for tool in tools:
            path = reach._walk([tool], reach.model.returned)
            chain = [node]
            while path.get(chain[-1]) is not None:
                chain.append(path[chain[-1]])  # type: ignore[arg-type]
            lines.append("tool reply via: " + " -> ".join(reversed(chain)) + f" ({reach.labels.get(tool, 'tool')})")
        return lines
    audience, chain = reach.audience(node)
    if record.get("signal"):
        return ["audience exc: the code handles this exception itself (a private class, one the project "
                "catches by name, or one caught around the raise); the handler's message is judged"]
    plain = record.get("qcls", "") if record["kind"] != "sink" else ""
    raised = reach.raise_audience(node, record["cls"], plain) if chain and "cls" in record else None
    if raised == ("exc", ()) and reach.exc_reason.get((node, record["cls"], plain)) == "masked":
        return [f"audience exc: only HTTP handlers reach {node}, and its class is not an HTTP error: the framework "
                "answers a bare 500 and logs the text (no handler on the way uses it, and the project registers no "
                "exception handler, and no middleware that catches exceptions)",
                "call chain: " + " -> ".join(chain)]
    if raised is not None and raised[0] == "cli" and reach.crash_only(node, record):
        return [f"audience exc: only CLI commands reach {node}, nothing on the way reports {record['cls'] or 'the exception'}, "
                "and its class stops the program with a traceback; the raise checks the program's own state (no caller "
                "input, nothing read from the world), so it reports a bug, and its reader is whoever debugs the crash",
                "call chain: " + " -> ".join(chain)]
    if raised == ("exc", ()):
        return [f"audience exc: every call path from an entry point to {node} runs it detached (a thread or process "
                "target, an event-loop callback, an exit hook): the runtime prints what it raises, and no entry point reads it",
                "call chain (through the detached call): " + " -> ".join(chain)]
    if raised is not None and raised[0] is None:
        cls = record["cls"] or "this exception"
        return [f"read by nobody: every call path from an entry point to {node} catches {cls} and replaces it "
                "(the handler neither re-raises nor uses it); the handler's own message is judged",
                "call chain (ignoring the handlers): " + " -> ".join(chain)]
    if not chain and "cls" in record and reach.replaced_by_callers(node, record["cls"]):
        cls = record["cls"] or "this exception"
        return [f"read by nobody: no entry point reaches {node}, and every caller in the project catches {cls} "
                "and replaces it (the handler neither re-raises nor uses it); the handler's own message is judged"]
    if record["kind"] == "sink":
        picked, _, _ = choose(reach, module, record)
        if chain and picked != record["fixed"]:
            lines.append(f"audience {picked}: stderr reached from {reach.entry_label(chain[0])}, and from no CLI "
                         "command except through a function that starts a server, is the server's log")
            lines.append("call chain: " + " -> ".join(chain))
        elif chain:
            lines.append(f"audience {picked} (set by the sink): reached from {reach.entry_label(chain[0])}")
            lines.append("call chain: " + " -> ".join(chain))
            lines.extend(_dispatch_notes(reach, chain))
        elif reach.library:
            lines.append(f"audience {picked} (set by the sink; the project has no entry point)")
        else:
            lines.append(f"audience {picked}: no entry point reaches this code")
        return lines
    if chain:
        lines.append(f"audience {audience}: reached from {reach.entry_label(chain[0])}")
        lines.append("call chain: " + " -> ".join(chain))
        lines.extend(_dispatch_notes(reach, chain))
    elif reach.library:
        lines.append("audience exc: the project has no entry point (a library)")
    else:
        lines.append("audience exc: no entry point reaches this code")
    return lines


def _dispatch_notes(reach: Reach, chain: Sequence[str]) -> List[str]:
    """A line for each step of the chain that a call resolved over the class hierarchy."""
    out = []
    for caller, target in zip(chain, chain[1:]):
        note = reach.model.dispatch_note(caller, target)
        if note:
            out.append(f"  {caller} -> {target}: {note}")
    return out
