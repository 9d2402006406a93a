"""Entry points: the functions through which a reader reaches the code, and the audience each gives.

- MCP tools (`agent`): FastMCP/MCPServer `@x.tool` with or without a call, `add_tool`,
  `Tool.from_function`, low-level `call_tool` handlers (and, through dispatch tables, the functions
  they dispatch to by tool name), resources and prompts.
- CLI commands (`cli`): click/typer commands, groups and callbacks, argparse `main`s (a function that
  builds an `ArgumentParser` or calls `parse_args`), `set_defaults(func=...)` handlers,
  `[project.scripts]` targets, `if __name__ == "__main__":` blocks and `__main__.py` modules.
- HTTP handlers (`http`): FastAPI/Starlette routes and exception handlers, Flask routes and
  errorhandlers, Django views (function views in a `views` module, class-based views), DRF views,
  serializers and validators, aiohttp handlers.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set, Tuple

from .line_patterns import LinePattern
from .model import FunctionInfo

HTTP_FRAMEWORKS = ("fastapi", "starlette", "flask", "quart", "aiohttp", "django", "rest_framework", "sanic", "litestar", "werkzeug")
HTTP_DECORATOR_METHODS = {
    "get", "post", "put", "patch", "delete", "head", "options", "route", "api_route", "websocket", "exception_handler",
    "errorhandler", "app_errorhandler", "before_request", "middleware", "view", "trace",
}
HTTP_DECORATORS = {"api_view", "action", "require_http_methods", "require_GET", "require_POST", "require_safe", "csrf_exempt", "login_required"}
HTTP_CLASS_BASES = re.compile(r"(^|\.)(View|APIView|GenericAPIView|ViewSet|ModelViewSet|GenericViewSet|ReadOnlyModelViewSet|\w*Serializer|\w*Form|HTTPEndpoint|MethodView|FormView|TemplateView|DetailView|ListView|CreateView|UpdateView|DeleteView|RedirectView)$")
CLI_FRAMEWORKS = ("click", "typer")
AUDIENCE_ORDER = ("agent", "http", "cli")


def function_entry(info: FunctionInfo, imports: Dict[str, str], classes: Dict[str, Tuple[str, ...]],
                   frameworks: Optional[Set[str]] = None) -> Optional[Tuple[str, str]]:
    """(audience, what kind of entry point) when the function itself is one, else None.
    `frameworks` (the top-level packages `imports` names) may be passed in, computed once a module."""
    role = info.role
    if role == "tool":
        return "agent", f"MCP tool `{info.tool_name or info.name}`"
    if role == "lowlevel":
        return "agent", "MCP call_tool handler"
    if role == "resource":
        return "agent", "MCP resource/prompt"
    if role == "cli":
        return "cli", "CLI command"
    if frameworks is None:
        frameworks = imported_packages(imports)
    for deco in info.decorators:
        last = deco.rsplit(".", 1)[-1]
        if "." in deco and last in HTTP_DECORATOR_METHODS and frameworks & set(HTTP_FRAMEWORKS):
            return "http", f"HTTP handler (@{deco})"
        if last in HTTP_DECORATORS and frameworks & {"django", "rest_framework", "flask"}:
            return "http", f"HTTP handler (@{deco})"
        if "." in deco and last in ("command", "group", "callback", "result_callback") and frameworks & set(CLI_FRAMEWORKS):
            return "cli", f"CLI command (@{deco})"
    if info.class_name and info.parent is None and frameworks & {"django", "rest_framework", "starlette", "flask"}:
        if any(HTTP_CLASS_BASES.search(b) for b in classes.get(info.class_name, ())):
            return "http", f"method of HTTP view/serializer `{info.class_name}`"
    if any(c.endswith("ArgumentParser") or c.endswith(".parse_args") or c.endswith(".parse_known_args") for c in info.qcalls):
        return "cli", "argparse main"
    return None


def imported_packages(imports: Dict[str, str]) -> Set[str]:
    return {v.split(".", 1)[0] for v in imports.values()}


def django_view(module: str, info: FunctionInfo) -> bool:
    """A function view: a top-level function of a `views` module whose first parameter is `request`."""
    return module.rsplit(".", 1)[-1] == "views" and info.parent is None and not info.class_name and bool(info.params) and info.params[0].name == "request"


def project_scripts(root: Optional[str]) -> List[str]:
    """`[project.scripts]` (and `[project.gui-scripts]`, poetry's `[tool.poetry.scripts]`) targets of the
    project's pyproject.toml, as `module.function`."""
    if not root:
        return []
    path = Path(root) / "pyproject.toml"
    try:
        import sys

        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover - tomli on 3.9/3.10
            import tomli as tomllib
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, ValueError, ImportError, UnicodeDecodeError):
        return []
    project = data.get("project", {}) if isinstance(data, dict) else {}
    tables = [project.get("scripts", {}), project.get("gui-scripts", {}), data.get("tool", {}).get("poetry", {}).get("scripts", {})]
    out = []
    for table in tables:
        if not isinstance(table, dict):
            continue
        for target in table.values():
            if isinstance(target, dict):
                target = target.get("callable", "")
            if isinstance(target, str) and ":" in target:
                module, _, attr = target.partition(":")
                out.append(f"{module.strip()}.{attr.strip().split('[', 1)[0].strip()}")
    return out


# an import of the framework (the words are tested first: a substring test is far faster than a
# failing search), or a CLI's own words
_CLI_IMPORT = LinePattern(rb"\s*(?:import|from)\s+(?:click|typer|argparse)\b")
_CLI_WORDS = (b"__main__", b"ArgumentParser", b"parse_args", b"parse_known_args", b"set_defaults")
_HTTP_IMPORT = LinePattern(rb"\s*(?:import|from)\s+(?:" + "|".join(HTTP_FRAMEWORKS).encode() + rb")\b")
# a tool, resource or prompt registered on a FastMCP server (a module may register only resources or
# prompts), and the low-level `call_tool` handler
_AGENT_CALLS = (b"add_tool", b"from_function", b"call_tool")  # (`on_call_tool` holds `call_tool`)
_AGENT_ATTRIBUTE = re.compile(rb"\.(?:tool|resource|prompt)\b")
_FRAMEWORK_WORDS = {"cli": (b"click", b"typer", b"argparse"), "http": tuple(f.encode() for f in HTTP_FRAMEWORKS)}


def audience_hints(data: bytes, name: str = "", known: Iterable[str] = ()) -> set:
    """The entry-point audiences a file may hold, from its bytes and name (no parse): which audiences
    a raise must be judged under before the project model is known. Audiences in `known` (already
    found in other files) are not searched for again."""
    out = set()
    if name == "__main__.py":
        out.add("cli")
    if name == "views.py":
        out.add("http")
    if "agent" not in known and (any(word in data for word in _AGENT_CALLS) or _AGENT_ATTRIBUTE.search(data)):
        out.add("agent")
    if "cli" not in known and (any(word in data for word in _CLI_WORDS) or _imports(data, "cli", _CLI_IMPORT)):
        out.add("cli")
    if "http" not in known and _imports(data, "http", _HTTP_IMPORT):
        out.add("http")
    return out


def _imports(data: bytes, audience: str, pattern: LinePattern) -> bool:
    return any(word in data for word in _FRAMEWORK_WORDS[audience]) and pattern.search(data) is not None
