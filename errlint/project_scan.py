"""Project-wide facts found without parsing: registered tool names, caught exception classes,
project subclasses of the classes an MCP stack passes through, module-level `Literal` aliases,
entry-point audiences and the MCP library versions a project uses.

These are read from every file of the project (regular expressions over bytes, no libcst), so a
file's result does not depend on which other files are passed in one run.
"""
from __future__ import annotations

import builtins
import re
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from .config import Settings, detect_versions
from .line_patterns import LinePattern

_TOOL_DECORATOR = re.compile(
    rb"@[\w.]+\.tool\b(?P<args>\([^)]*\))?[^\n]*\n(?:[ \t]*@[^\n]*\n)*[ \t]*(?:async[ \t]+)?def[ \t]+(?P<fn>\w+)"
)
# `mcp.add_tool(fn)`, `Tool.from_function(fn)`, and the decorator called on a function, `mcp.tool(fn, name="x")`
_TOOL_CALL = re.compile(rb"(?:add_tool|Tool\.from_function|(?<!@)\b[a-z_]\w*\.tool)\(\s*(?P<fn>[A-Za-z_]\w*)\b(?!\s*=)(?P<rest>[^)]*)\)")
_TOOL_DECL = re.compile(rb"\bTool\(\s*name\s*=\s*[\"'](?P<name>[\w.-]+)[\"']")
_NAME_KW = re.compile(rb"name\s*=\s*[\"'](?P<name>[\w.-]+)[\"']")


def scan_tool_names(data: bytes) -> List[str]:
    """Tool names registered in a file, found with regular expressions (no parse): `@x.tool` and
    `@x.tool(name=...)` decorators, `add_tool(fn, name=...)`, `x.tool(fn, name=...)`,
    `Tool.from_function(fn)`, `Tool(name=...)`."""
    if b"tool" not in data and b"Tool" not in data:  # every pattern below has one of them (no lowered copy)
        return []
    out: List[str] = []
    # (a substring test first: a failing search with each pattern costs far more)
    for match in _TOOL_DECORATOR.finditer(data) if b".tool" in data else ():
        named = _NAME_KW.search(match.group("args") or b"")
        out.append((named.group("name") if named else match.group("fn")).decode("ascii", "replace"))
    for match in _TOOL_CALL.finditer(data) if b"tool(" in data or b"Tool.from_function(" in data else ():
        named = _NAME_KW.search(match.group("rest"))
        out.append((named.group("name") if named else match.group("fn")).decode("ascii", "replace"))
    for match in _TOOL_DECL.finditer(data) if b"Tool(" in data else ():
        out.append(match.group("name").decode("ascii", "replace"))
    return out


_EXCEPT = LinePattern(r"[ \t]*except\*?[ \t]*\(?[ \t]*([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*)", re.M)
_BUILTIN_NAMES = frozenset(dir(builtins))


_FROM_IMPORT = LinePattern(r"[ \t]*from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t]+\(?([^)\n#]*)", re.M)


def scan_caught_names(text: str) -> frozenset:
    """Exception classes caught by name in a file (`except X`, `except (X, Y) as e`), builtins left
    out; found with regular expressions (no parse). A name the file imports from a package (`from
    pydantic import ValidationError`) is kept qualified (`pydantic.ValidationError`), so it is not
    taken for another package's class of the same name; any other by its last name."""
    if "except" not in text:
        return frozenset()
    imported = {}
    if "import" in text:
        for match in _FROM_IMPORT.finditer(text):
            for part in match.group(2).split(","):
                words = part.split()
                if words:
                    imported[words[-1]] = f"{match.group(1)}.{words[0]}"
    names = set()
    for match in _EXCEPT.finditer(text):
        for part in match.group(1).split(","):
            written = part.strip()
            last = written.rsplit(".", 1)[-1]
            if last and last not in _BUILTIN_NAMES:
                names.add(imported.get(written, last))
    return frozenset(names)


_CLASS = re.compile(r"^[ \t]*class[ \t]+(\w+)[ \t]*\(([^)]*)\)", re.M)
_USES_STACK = re.compile(rb"^[ \t]*(?:from|import)[ \t]+(?:mcp|fastmcp)\b", re.M)
_STACK_IMPORT = re.compile(r"^[ \t]*from[ \t]+((?:mcp|fastmcp)(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_STACK_MODULE_IMPORT = re.compile(r"^[ \t]*import[ \t]+((?:mcp|fastmcp)(?:\.\w+)*)(?:[ \t]+as[ \t]+(\w+))?[ \t]*$", re.M)


def scan_class_bases(text: str) -> List[Tuple[str, Tuple[str, ...]]]:
    """Every class a file defines with its bases as written (`NotFound`, `exc.ToolError`); keyword
    arguments (`metaclass=...`) left out."""
    if "class" not in text:
        return []
    out = []
    for match in _CLASS.finditer(text):
        bases = tuple(b.strip() for b in match.group(2).split(",") if b.strip() and "=" not in b)
        out.append((match.group(1), bases))
    return out


def scan_stack_imports(text: str) -> Dict[str, str]:
    """Names a file imports from mcp or fastmcp, by the name they are bound to (`from
    fastmcp.exceptions import ToolError as TE`: TE -> fastmcp.exceptions.ToolError)."""
    out: Dict[str, str] = {}
    if "mcp" not in text:
        return out
    for match in _STACK_IMPORT.finditer(text):
        for part in match.group(2).strip("()").replace("\\", " ").split(","):
            words = part.split("#", 1)[0].split()
            if len(words) == 1 or len(words) == 3 and words[1] == "as":
                out[words[-1]] = f"{match.group(1)}.{words[0]}"
    for match in _STACK_MODULE_IMPORT.finditer(text):  # `import mcp.server.mcpserver.exceptions as mcp_exc`
        if match.group(2):
            out[match.group(2)] = match.group(1)
    return out


class PassThroughScan:
    """Project classes that derive, across modules, from a class an MCP stack passes through with its
    text (`class DocumentationToolError(ToolError)` in util.py, raised in server.py), per stack:
    `classes()` holds "mcp2:Name" and "fastmcp:Name" entries, since each stack passes only its own
    classes through. Classes are linked by their last name; a root's base must be imported from the
    stack in its own file; a name that some module defines without such a base is left out (the
    raise may be that other class)."""

    def __init__(self) -> None:
        # class name -> each definition: (its base names, the stacks whose pass-through class it names)
        self.definitions: Dict[str, List[Tuple[Set[str], Set[str]]]] = {}
        self._paths: List[Path] = []  # files that define classes, read only if the project uses a stack
        self._stack = False

    def note(self, path: Path, data: bytes) -> None:
        """Remember a project file; its classes are read only when some file imports mcp or fastmcp
        (a project that does not use an MCP stack pays no more than this test)."""
        if b"class" in data:
            self._paths.append(path)
        if not self._stack and b"mcp" in data and _USES_STACK.search(data):
            self._stack = True

    def add(self, text: str) -> None:
        from .extract.tool_error_converters import stack_passing

        classes = scan_class_bases(text)
        if not classes:
            return
        imported = scan_stack_imports(text)
        for name, bases in classes:
            stacks = set()
            for base in bases:
                head, _, rest = base.partition(".")
                stack = stack_passing(base) or (stack_passing(imported[head] + ("." + rest if rest else "")) if head in imported else "")
                if stack:
                    stacks.add(stack)
            self.definitions.setdefault(name, []).append(({b.rsplit(".", 1)[-1] for b in bases}, stacks))

    def classes(self) -> frozenset:
        if self._stack:
            for path in self._paths:
                try:
                    self.add(path.read_bytes().decode("latin-1"))
                except OSError:
                    continue
        self._paths = []
        found: Dict[str, Set[str]] = {}
        changed = True
        while changed:
            changed = False
            for name, definitions in self.definitions.items():
                for stack in ("mcp2", "fastmcp"):
                    # every definition of the name derives from a class passing through on this stack
                    if stack not in found.get(name, ()) and all(
                            stack in roots or any(stack in found.get(b, ()) for b in bases) for bases, roots in definitions):
                        found.setdefault(name, set()).add(stack)
                        changed = True
        return frozenset(f"{stack}:{name}" for name, stacks in found.items() for stack in stacks)


_MODULE_ASSIGN = re.compile(r"^([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*([A-Za-z_][\w.]*)[ \t]*\(", re.M)


class ServerObjects:
    """MCP server objects a project module makes at module level (`mcp = MCPServer("x")` in
    `common/server.py`), so that a module importing one (`from .common.server import mcp`) and
    decorating its tools with `@mcp.tool()` is read as that stack's, though it imports no stack
    itself. `objects()` holds (`"server.mcp"`, stack) pairs: the defining module's last name (its
    package's for an `__init__.py`) and the object's name."""

    def __init__(self) -> None:
        self.found: Dict[str, str] = {}

    def add(self, path: Path, data: bytes) -> None:
        if b"mcp" not in data or not _USES_STACK.search(data):
            return
        from .extract.sinks import server_stack

        text = data.decode("utf-8", "replace")
        imported = scan_stack_imports(text)
        module = path.parent.name if path.stem == "__init__" else path.stem
        for match in _MODULE_ASSIGN.finditer(text):
            head, _, rest = match.group(2).partition(".")
            qualified = imported.get(head, "") + ("." + rest if rest and head in imported else "")
            stack = server_stack(qualified) if head in imported else ""
            if stack:
                self.found[f"{module}.{match.group(1)}"] = stack

    def objects(self) -> Tuple[Tuple[str, str], ...]:
        return tuple(sorted(self.found.items()))


# `NOTES: dict[str, Note] = {}`, `_jobs = defaultdict(list)`: a container made empty at module level
_EMPTY_STORE = LinePattern(rb"([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*(?:\{\}|\[\]|(?:collections\.)?(?:set|dict|list|OrderedDict|defaultdict|Counter|deque)\((?:[A-Za-z_][\w.]*)?\))[ \t]*(?:#.*)?$", re.M)


_SETTINGS_CLASS = LinePattern(rb"class[ \t]+(\w+)[ \t]*\([^)]*\bBaseSettings\b[^)]*\)", re.M)


class ModuleObjects:
    """What some module-level objects of the project are, for the modules that import them:
    "store", a container made empty for the program to fill as it runs (`NOTES: dict[str, Note] =
    {}` in `store.py`: a check against it checks an open set, `extract.value_sets`), and "settings",
    an instance of a pydantic `BaseSettings` class of its module (`settings = Settings()`: printed
    whole, it shows every setting and secret). `objects()` holds ("store.NOTES", kind) pairs (the
    defining module's last name, as `ServerObjects`)."""

    def __init__(self) -> None:
        self.found: Dict[str, str] = {}

    def add(self, path: Path, data: bytes) -> None:
        module = path.parent.name if path.stem == "__init__" else path.stem
        for match in _EMPTY_STORE.finditer(data):
            self.found[f"{module}.{match.group(1).decode('ascii', 'replace')}"] = "store"
        if b"BaseSettings" in data:
            for cls in _SETTINGS_CLASS.finditer(data):
                made = re.compile(rb"^(\w+)[ \t]*(?::[^=\n]*)?=[ \t]*" + re.escape(cls.group(1)) + rb"\(", re.M)
                for match in made.finditer(data):
                    self.found[f"{module}.{match.group(1).decode('ascii', 'replace')}"] = "settings"

    def objects(self) -> Tuple[Tuple[str, str], ...]:
        return tuple(sorted(self.found.items()))


_TOP_CLASS = LinePattern(rb"class[ \t]+(\w+)[ \t]*\(([^)]*)\)[ \t]*:", re.M)
_TOP_LEVEL = re.compile(r"^(?=[^\s#)\]}])", re.M)  # a line that ends the indented body before it
_TRAILING_COMMENTS = re.compile(r"(?:\s*\n#[^\n]*)*\s*$")  # comments at column 0 after the body
MAX_CLASS_TEXT = 8_000


class ExceptionClasses:
    """The exception classes project modules define at module level, as source text: a module that
    imports one (`from .errors import NotFound`) joins its message to each raise there
    (`extract.exception_templates`), as for a class of its own; a class deriving from the MCP SDK's
    `McpError` there raises a protocol error. `classes()` maps "errors.NotFound" (as
    `ServerObjects`) to (its bases, qualified through the stack imports of its module; its source).
    A class is an exception when a base's name says so or is such a class of the project. Only the
    class headers are read while the project is scanned; the files that define exception classes
    are read again for their bodies once, at the end."""

    def __init__(self) -> None:
        self.headers: List[Tuple[Path, str, str, Tuple[str, ...]]] = []  # (file, module, class name, bases as written)

    def add(self, path: Path, data: bytes) -> None:
        if b"class" not in data:
            return
        module = path.parent.name if path.stem == "__init__" else path.stem
        for match in _TOP_CLASS.finditer(data):
            bases = tuple(b.strip().decode("ascii", "replace") for b in match.group(2).split(b",") if b.strip() and b"=" not in b)
            self.headers.append((path, module, match.group(1).decode("ascii", "replace"), bases))

    def classes(self) -> Tuple[Tuple[str, Tuple[Tuple[str, ...], str]], ...]:
        from .extract.definitions import looks_exception

        exceptions = {name for _, _, name, bases in self.headers if any(looks_exception(b) for b in bases)}
        grown = True
        while grown:  # `class NotFound(AppError)` where `class AppError(Exception)`, in any module
            more = {name for _, _, name, bases in self.headers if any(b.rsplit(".", 1)[-1] in exceptions for b in bases)}
            grown = bool(more - exceptions)
            exceptions |= more
        out: Dict[str, Tuple[Tuple[str, ...], str]] = {}
        for path in dict.fromkeys(p for p, _, name, _ in self.headers if name in exceptions):
            try:
                out.update(_exception_class_texts(path, path.read_bytes().decode("utf-8", "replace"), exceptions))
            except OSError:
                continue
        return tuple(sorted(out.items()))


def _exception_class_texts(path: Path, text: str, exceptions: Set[str]) -> Dict[str, Tuple[Tuple[str, ...], str]]:
    """The module's exception classes (those named in `exceptions`): "module.Name" -> (bases, source)."""
    module = path.parent.name if path.stem == "__init__" else path.stem
    imported = scan_stack_imports(text)
    out: Dict[str, Tuple[Tuple[str, ...], str]] = {}
    for match in _CLASS_HEADER.finditer(text):
        if match.group(1) not in exceptions:
            continue
        end = _TOP_LEVEL.search(text, match.end())
        body = _TRAILING_COMMENTS.sub("", text[match.start():end.start() if end else len(text)])
        if len(body) > MAX_CLASS_TEXT:
            continue
        bases = []
        for base in (b.strip() for b in match.group(2).split(",")):
            if not base or "=" in base:
                continue
            head, _, rest = base.partition(".")
            bases.append(imported[head] + ("." + rest if rest else "") if head in imported else base)
        out[f"{module}.{match.group(1)}"] = (tuple(bases), body)
    return out


_CLASS_HEADER = LinePattern(_TOP_CLASS.pattern.pattern[2:-1].decode())


_LITERAL_ALIAS = re.compile(r"^([A-Za-z_]\w*)[ \t]*(?::[ \t]*(?:typing\.)?TypeAlias[ \t]*)?=[ \t]*(?:typing\.|t\.)?Literal\[([^\]]*)\]", re.M)
_LITERAL_MEMBER = re.compile(r"^\s*(?:\"([^\"\\]*)\"|'([^'\\]*)'|(-?\d+))\s*$")


def _literal_members(text: str) -> Optional[frozenset]:
    """The members of `Literal[...]`'s text when every one is a string or an integer, else None."""
    values = []
    for part in text.split(","):
        if not part.strip():
            continue
        member = _LITERAL_MEMBER.match(part)
        if member is None:
            return None
        values.append(next(g for g in member.groups() if g is not None))
    return frozenset(values) if values else None


def scan_literal_aliases(text: str) -> Dict[str, frozenset]:
    """Module-level aliases of a `Literal` of strings or integers (`ObjectType = Literal["table",
    "view"]`), by name; found with a regular expression (no parse)."""
    out: Dict[str, frozenset] = {}
    if "Literal[" not in text:
        return out
    for match in _LITERAL_ALIAS.finditer(text):
        values = _literal_members(match.group(2))
        if values:
            out[match.group(1)] = values
    return out


_MODEL_CLASS = re.compile(r"^([ \t]*)class[ \t]+(\w+)[ \t]*\(([^)]*)\)[ \t]*:[ \t]*(?:#.*)?$", re.M)
_MODEL_BASE = re.compile(r"\b(?:BaseModel|BaseSettings|RootModel)\b")
# `field_type: Literal["a", "b"] = Field(...)`, also inside `Annotated[...]`; `| None`, `Optional` or a
# None default leave the field open
_LITERAL_FIELD = re.compile(
    r"^(\w+)[ \t]*:[ \t]*(?:(?:typing\.)?Annotated\[[ \t]*)?(?:typing\.)?Literal\[([^\]]*)\][ \t]*(?:,.*?\])?[ \t]*(?:=[ \t]*(.*))?$")
_NONE_DEFAULT = re.compile(r"^(?:None\b|Field\([ \t]*(?:None\b|default[ \t]*=[ \t]*None\b))")


def scan_literal_fields(text: str) -> Dict[str, frozenset]:
    """The `Literal` fields of pydantic models (`class FilterableField(BaseModel): field_type:
    Literal["keyword", "integer"]`), as "Class.field": pydantic checks them when the model is built,
    so an instance holds one of those values. A subclass of a model of the same module counts; found
    with regular expressions (no parse)."""
    out: Dict[str, frozenset] = {}
    if "Literal[" not in text or "class " not in text:
        return out
    models: Set[str] = set()
    lines = text.splitlines()
    for match in _MODEL_CLASS.finditer(text):
        bases = match.group(3)
        if not (_MODEL_BASE.search(bases) or any(b.strip().rsplit(".", 1)[-1] in models for b in bases.split(","))):
            continue
        name, indent = match.group(2), len(match.group(1).expandtabs())
        models.add(name)
        body_indent = None
        for line in lines[text.count("\n", 0, match.start()) + 1:]:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            depth = len(line) - len(line.lstrip())
            if depth <= indent:
                break
            if body_indent is None:
                body_indent = depth
            if depth != body_indent:
                continue
            field = _LITERAL_FIELD.match(line.strip())
            if field is None or field.group(3) is not None and _NONE_DEFAULT.match(field.group(3).strip()):
                continue
            values = _literal_members(field.group(2))
            if values:
                out[f"{name}.{field.group(1)}"] = values
    return out


class LiteralAliases:
    """`Literal` aliases defined across the project, by name, and the `Literal` fields of its pydantic
    models, by "Class.field"; a name defined with different values in two modules is left out (which
    one a module imports is not known without a parse)."""

    def __init__(self) -> None:
        self.found: Dict[str, frozenset] = {}
        self.clashing: Set[str] = set()

    def add(self, text: str) -> None:
        for name, values in {**scan_literal_aliases(text), **scan_literal_fields(text)}.items():
            if self.found.setdefault(name, values) != values:
                self.clashing.add(name)

    def aliases(self) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
        return tuple(sorted((name, tuple(sorted(values))) for name, values in self.found.items() if name not in self.clashing))


def project_registry(files: Iterable[Path], extra: Sequence[str] = (), audiences: Optional[Set[str]] = None,
                     pass_through: Optional[PassThroughScan] = None, literals: Optional[LiteralAliases] = None,
                     servers: Optional[ServerObjects] = None, objects: Optional[ModuleObjects] = None,
                     exceptions: Optional[ExceptionClasses] = None, constants=None) -> Tuple[frozenset, frozenset]:
    """(every tool name registered in `files` plus `tool-registry-extra`, every non-builtin exception
    class `files` catch by name); `audiences` receives the entry-point audiences the files may hold,
    `pass_through` the classes the files define, `literals` their `Literal` aliases, `servers`
    the MCP server objects they make, `objects` the stores and settings objects they make, `exceptions`
    their exception classes and `constants` their module constants (`module_constants.ModuleConstants`)."""
    from .entry_points import audience_hints

    names = set(extra)
    caught: Set[str] = set()
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        names.update(scan_tool_names(data))
        if b"except" in data:  # else there is nothing to decode and search
            caught |= scan_caught_names(data.decode("latin-1"))
        if pass_through is not None:
            pass_through.note(path, data)
        if servers is not None:
            servers.add(path, data)
        if objects is not None:
            objects.add(path, data)
        if exceptions is not None:
            exceptions.add(path, data)
        if constants is not None:
            constants.add(path, data)
        if literals is not None and b"Literal[" in data:
            literals.add(data.decode("utf-8", "replace"))
        if audiences is not None and len(audiences) < 3:
            audiences |= audience_hints(data, path.name, audiences)
    return frozenset(names), frozenset(caught)


def project_versions(settings: Settings) -> Dict[str, str]:
    versions = detect_versions(Path(settings.project_root)) if settings.project_root else {}
    if settings.mcp_version:
        versions["mcp"] = settings.mcp_version
    if settings.fastmcp_version:
        versions["fastmcp"] = settings.fastmcp_version
    return versions
