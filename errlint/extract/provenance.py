"""Input provenance: which values at a sink vary with what the caller sent.

A value is *caller input* when it is read from a source, or computed from one through any number of
steps. Sources (extend `SOURCE_CALLS`, `SOURCE_ATTRS` and `REQUEST_FIELDS`):

- parameters of the enclosing function (entry points and their callees: MCP tools, click/typer
  commands, route handlers, library functions);
- request objects: `request.args`, `.json`, `.get_json()`, `.headers`, `.query_params`, `.form`, ...;
- the command line: `sys.argv`, the namespace `parser.parse_args()` returns, `input()`;
- the environment: `os.environ`, `os.getenv`;
- config read from a path the caller gave (`json.load(open(path))`: `path` is input, so is the result).

Propagation follows every binding of a name (the union of its re-bindings): plain, augmented and
unpacking assignments, `for` targets, `with ... as`, comprehensions, attribute reads and method calls
on an input (`args.unit`, `raw.split(":")[-1]`), and calls that transform one (`int(x)`, `Path(p)`,
`re.search(PATTERN, text)`). For "can the caller fix it" (`outcomes`), a collection the code fills
with an input (`parts.append(query)`) varies with it too.

An *outcome* is not input even when the call that produced it received input: the result of running
a process, sending a request, querying storage or looking a key up in a table (`subprocess.run(cmd)`,
`client.get(url)`, `TABLE.get(key)`, `get_user(user_id)`). Its `returncode`, status or `None` is the
world's answer, not a value the caller chose.
"""
from __future__ import annotations

import re
from typing import Dict, Iterable, Optional, Set

import libcst as cst

from . import nodes

# Calls whose result is caller input whatever their arguments.
SOURCE_CALLS = re.compile(r"(^|\.)(getenv|parse_args|parse_known_args|parse_intermixed_args|get_json|input)$|^os\.environ\.get$")
ENV_CALL = re.compile(r"(^|\.)getenv$|environ")
# Dotted reads that are caller input (`sys.argv[1]`, `os.environ["X"]`).
# A Django form's `self.cleaned_data` and a DRF serializer's `self.initial_data` hold what the user submitted.
SOURCE_ATTRS = re.compile(r"^(sys\.argv|os\.environ|environ|argv|(flask|quart|bottle)\.request|self\.cleaned_data|self\.initial_data)$")
# Fields of a web framework's request object that carry what the client sent.
REQUEST_FIELDS = frozenset({
    "args", "json", "form", "values", "files", "headers", "cookies", "data", "body", "query", "query_params",
    "path_params", "match_info", "GET", "POST", "FILES", "COOKIES", "META", "query_string", "params",
    "rel_url", "url", "path", "content", "text", "stream", "get_json", "post", "media",
})
REQUEST_OBJECTS = frozenset({"request", "req", "flask.request", "self.request", "bottle.request"})
# what a request object carries from the server, not the client: the application and its state
SERVER_STATE = re.compile(r"^(?:self\.)?(?:request|req)\.(?:app|state|config_dict)\b")
# a parameter the framework fills from the server (FastAPI's dependencies): no client input
INJECTED = re.compile(r"\b(?:Depends|Security|Inject|Provide)\(")
# The fields among those that hold a value the client chose, worth showing back (a query argument, a
# header, a path part, the media type); not the body or stream as a whole (`request.stream` of an
# HTTP client's own request is no input to echo). Read by `guard_operands.request_read`.
CLIENT_VALUES = frozenset({
    "args", "json", "form", "values", "files", "headers", "cookies", "query", "query_params", "path_params",
    "match_info", "GET", "POST", "FILES", "COOKIES", "META", "params", "content_type", "mimetype", "method",
    "content_length", "get_json",
})
# Calls whose result is the world's answer (an outcome), unless called on an input itself.
OUTCOME_CALL = re.compile(
    r"^(run|call|check_call|check_output|Popen|communicate|wait|request|get|post|put|patch|delete|head|"
    r"urlopen|send|execute|executemany|fetch\w*|query|find\w*|lookup\w*|search\w*|select|scalar\w*|first|"
    r"one|one_or_none|get_\w+|exists|stat|getattr|filter|filter_by|"
    # a project helper named for what it does to the world: `_send_single_request`, `_download_archive`
    r"_*(send|download|retrieve|request|execute|query|fetch|lookup|search|scrape|crawl|receive|pull)_\w+)$"
)


# The regular-expression modules: `re.search(PATTERN, text)` matches `OUTCOME_CALL` by name only,
# but transforms its text; it does not answer from the world
REGEX_MODULES = frozenset({"re", "regex"})
REGEX_CALL = re.compile(r"^(?:%s)\.\w+$" % "|".join(sorted(REGEX_MODULES)))


# Calls that act on the world (run, send, query, stat): an outcome even when called on an input.
ACTION_CALL = re.compile(
    r"^(run|call|check_call|check_output|Popen|communicate|wait|request|post|put|patch|delete|head|urlopen|send|"
    r"execute|executemany|fetch\w*|query|stat|lstat|exists|is_file|is_dir|access|raise_for_status)$"
)


class Provenance:
    """Answers "is this name (or expression) caller input?" for one sink's scope."""

    def __init__(self, scope, max_depth: int = 12, outcomes: bool = False, environment: bool = True, internal=False):
        self.scope = scope
        # parameters that carry no caller input (True: all of them): every call of the function
        # passes them fixed values (`errlint.parameter_inputs`)
        self.internal = internal
        self.environment = environment  # the environment is input for a command's user, not for an agent or a client
        self.max_depth = max_depth
        # count what varies with the input by any path (for "can the caller fix it"): outcomes of calls
        # made with input, and collections the code fills with input (`parts.append(query)`). Without
        # it, a value is input when it is the caller's own or computed from it: a list the code built
        # is not the value the caller sent, so AEM202 does not ask to show it
        self.outcomes = outcomes
        self._names: Dict[str, bool] = {}

    def inputs(self, names: Iterable[str]) -> Set[str]:
        """The subset of `names` (dotted names are judged by their root, and a read of a request
        field such as `self.request.query_params.get("f")` by what it reads) that are caller input."""
        return {n for n in names if n and not SERVER_STATE.match(n)
                and (self.is_input_name(n.split(".", 1)[0]) or _request_read(_LEADING_DOTTED.match(n).group()))}

    def ancestors(self, names: Iterable[str]) -> Set[str]:
        """Names the values of `names` were computed from, transitively (`raw` for `unit =
        raw.split(":")[-1]`); modules and `self` are left out."""
        seen: Set[str] = set()
        todo = [n.split(".", 1)[0] for n in names]
        while todo and len(seen) < 200:
            name = todo.pop()
            values = []
            for binding in self.scope.lookup(name) if self.scope is not None else ():
                if binding.kind not in ("assign", "aug", "other", "loop", "with") or binding.value is None:
                    continue
                values.append(binding.value)
            if self.scope is not None and self.outcomes:
                values.extend(self.scope.mutated(name))
            for value in values:
                for node in nodes.iter_expr(value):
                    if node.__class__ is cst.Name and node.value not in seen and node.value not in ("self", "cls"):
                        if any(b.kind in ("import", "def", "class") for b in self.scope.lookup(node.value)):
                            continue
                        seen.add(node.value)
                        todo.append(node.value)
        return seen - {n.split(".", 1)[0] for n in names}

    def is_input_name(self, name: str, depth: int = 0) -> bool:
        if name in self._names:
            return self._names[name]
        if self.scope is None or depth > self.max_depth:
            return False
        self._names[name] = False  # a cycle (`x = x.strip()`) adds nothing
        found = any(self._binding_input(name, b, depth) for b in self.scope.lookup(name)) or self.outcomes and any(
            self.is_input(v, depth + 1) for v in self.scope.mutated(name))
        self._names[name] = found
        return found

    def _binding_input(self, name: str, binding, depth: int) -> bool:
        kind = binding.kind
        if kind == "param":
            internal = self.internal is True or self.internal and name in self.internal
            if binding.param is not None and INJECTED.search(binding.param.default + " " + binding.param.annotation):
                return False  # `db: Session = Depends(get_db)`: the server injects it, the client sends nothing
            return name not in ("self", "cls") and not internal
        if kind == "import":
            return bool(SOURCE_ATTRS.match(binding.qualified or "")) and (self.environment or "environ" not in binding.qualified)
        if kind in ("assign", "aug", "other", "loop") and binding.value is not None:
            return self.is_input(binding.value, depth + 1)
        if kind == "with" and binding.value is not None:
            # `with open(path) as f`: a file the caller named (config read from it is input); any
            # other context manager is a handle on the world (a client, a stream, a response)
            opened = isinstance(binding.value, cst.Call) and nodes.last_name(binding.value.func) == "open"
            return (opened or self.outcomes) and self.is_input(binding.value, depth + 1)
        return False

    def is_input(self, node: Optional[cst.CSTNode], depth: int = 0) -> bool:
        """True when the value of `node` varies with caller input."""
        if node is None or depth > self.max_depth:
            return False
        cls = node.__class__  # exact class tests: see `nodes`
        if cls is cst.Name:
            return self.is_input_name(node.value, depth)
        if cls is cst.Attribute:
            dotted = nodes.dotted(node)
            if dotted and (SOURCE_ATTRS.match(dotted) or _request_read(dotted)):
                return self.environment or "environ" not in dotted
            if dotted and SERVER_STATE.search(dotted):
                return False  # `request.app["db"]`, `request.app.state.redis`: the server's own objects
            return self.is_input(node.value, depth)  # `args.unit`, `self.path` of an input receiver
        if cls is cst.Subscript:
            if self.is_input(node.value, depth):
                return True
            return False  # `TABLE[key]`: a lookup result, not the key itself
        if cls is cst.Call:
            return self._call_input(node, depth)
        if cls in _OPAQUE:
            return False
        # any other expression (operators, f-strings, containers, comprehensions): walk it without
        # recursion, so a 1,000-piece concatenation cannot hit the recursion limit
        stack = list(nodes.children(node))
        while stack:
            child = stack.pop()
            cls = child.__class__
            if cls in _VALUES:
                if self.is_input(child, depth):
                    return True
            elif cls not in _OPAQUE:
                stack.extend(nodes.children(child))
        return False

    def _call_input(self, call: cst.Call, depth: int) -> bool:
        func = call.func
        dotted = nodes.dotted(func)
        if dotted and SOURCE_CALLS.search(dotted):
            return self.environment or not ENV_CALL.search(dotted)
        last = nodes.last_name(func)
        receiver = func.value if func.__class__ is cst.Attribute else None
        if dotted and REGEX_CALL.match(dotted):
            pass  # `re.search(PATTERN, text)`, `re.findall(...)`: a transform of the text, not the world's answer
        elif receiver is not None:
            if ACTION_CALL.match(last) and not self.outcomes:
                return False  # `path.stat()`, `session.execute(query)`: the world's answer
            if self.is_input(receiver, depth):
                return True  # `raw.split(":")`, `args.get("mode")`, `request.get_json()`
            if OUTCOME_CALL.match(last) and not self.outcomes:
                return False  # `TABLE.get(key)`, `client.get(url)`, `db.query(...)`
        elif (OUTCOME_CALL.match(last) or is_outcome_function(last)) and not self.outcomes:
            return False  # `getattr(mod, name)`, `get_user(user_id)`, `run(cmd)`
        return any(self.is_input(arg.value, depth) for arg in call.args)


_VALUES = frozenset({cst.Name, cst.Attribute, cst.Subscript, cst.Call})  # judged by `is_input` itself
_OPAQUE = frozenset({cst.Lambda, cst.SimpleString, cst.Integer, cst.Float})  # never input


_OUTCOME_FUNCTION = re.compile(r"^_*(fetch|find|lookup|query|search|load_record|get|download|retrieve|scrape|crawl|receive|pull)_")


def is_outcome_function(name: str) -> bool:
    """A plain function whose name says it fetches, downloads or runs something (`fetch_page`,
    `lookup_user`, `_download_source_archive`): what it returns is the world's answer."""
    return bool(_OUTCOME_FUNCTION.match(name))


def is_outcome(node: Optional[cst.CSTNode]) -> bool:
    """True for a call whose result is an outcome (see the module docstring), by its shape alone."""
    if not isinstance(node, cst.Call):
        return False
    last = nodes.last_name(node.func)
    return bool(OUTCOME_CALL.match(last)) or is_outcome_function(last)


_LEADING_DOTTED = re.compile(r"[\w.]*")  # `self.request.args.get` of `self.request.args.get("page")`


def _request_read(dotted: str) -> bool:
    if "req" not in dotted:  # every request object's name has it: most attributes end here
        return False
    parts = dotted.split(".")
    for i in range(1, len(parts)):
        base = ".".join(parts[:i])
        if (base in REQUEST_OBJECTS or base.endswith(".request")) and parts[i] in REQUEST_FIELDS:
            return True
    return False


def provenance(message, outcomes: bool = False) -> Provenance:
    """The (cached) provenance model of a message's scope. With `outcomes`, the outcome of a call made
    with input counts too: a 4xx for the version the caller asked for is the caller's to fix."""
    environment = message.profile not in ("agent", "http")  # an agent or a client cannot set the server's environment
    internal = bool(message.extra.get("internal_params"))
    # one model per (reader, parameters) the message is judged under: the engine judges one message
    # once per audience, and the environment is input for some readers only
    cache = getattr(message, "provenance", None)
    if cache is None:
        cache = message.provenance = {}
    key = (environment, internal, outcomes)
    found = cache.get(key)
    if found is None:
        found = cache[key] = Provenance(message.scope, outcomes=outcomes, environment=environment, internal=internal)
    return found
