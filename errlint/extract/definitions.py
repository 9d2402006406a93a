"""What `def` and `class` statements contribute to the walk.

A `def` becomes a `FunctionInfo`: its parameters, decorators, qualified name, its role (MCP tool,
low-level tool handler, resource, CLI command, validator, dunder) read from its decorators, and the
click/typer flags of its parameters; its body is walked in a new function scope. A `class` records
its bases; an exception class records its default message attributes, its template for raise sites
(`exception_templates`) and any framework error table (`framework_sinks`), then its body is walked.
`Definitions` is one part of `Walker` and works on its state.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Dict, FrozenSet, List, Set, Tuple

import libcst as cst

from ..model import FunctionInfo, Param
from . import exception_templates, nodes
from .call_arguments import classify_calls
from .scope import Binding, Scope
from .sinks import BUILTIN_EXCEPTIONS

if TYPE_CHECKING:
    from .walker import Walker

DEFAULT_MESSAGE_ATTRS = {
    "message", "msg", "detail", "default_detail", "default_message", "template", "message_template",
    "description", "error_message", "default_msg", "msg_template", "reason",
}
VALIDATOR_DECORATORS = {"field_validator", "model_validator", "validator", "root_validator"}


class Definitions:
    """The `def`/`class` handling of `Walker` (a mixin: it uses the walker's scope and state)."""

    def st_FunctionDef(self, stmt: cst.FunctionDef) -> None:
        for deco in stmt.decorators:
            self.scan(deco.decorator)
        params = _params(stmt.params, self)
        decorators = tuple(self.qualify(_decorator_target(d.decorator)) or self.code(_decorator_target(d.decorator)) for d in stmt.decorators)
        info = FunctionInfo(
            name=stmt.name.value,
            params=params,
            decorators=decorators,
            class_name=self.class_name,
            is_async=stmt.asynchronous is not None,
            node=stmt,
            parent=self.func,
            qualname=(self.func.qualname + "." if self.func is not None else self.class_name + "." if self.class_name else "") + stmt.name.value,
        )
        self._role(info, stmt)
        info.aliases, info.switches, credentials = self._cli_options(stmt)
        credentials |= _validated_secret(stmt, params)
        if credentials:
            params = tuple(replace(p, credential=True) if p.name in credentials else p for p in params)
            info.params = params
        self.functions.append(info)
        binding = Binding("def", stmt)
        self.scope.bind(stmt.name.value, binding)
        self.returns.append(binding.returned)
        scope = Scope("function", parent=self.scope if self.scope.kind == "function" else self.module_scope)
        for p in params:
            scope.bind(p.name, Binding("param", param=p))
        saved = (self.func, self.scope, self.handlers, self.guards, self.collectors, self.catching, self.tries, self.debug_depth, self.returned,
                 self.after_retries)
        self.func, self.scope, self.returned, self.after_retries = info, scope, binding.returned, False
        self.handlers, self.guards, self.collectors, self.catching, self.tries, self.debug_depth = [], [], [], [], [], 0
        try:
            self.body_of(stmt)
            if info.call_nodes:
                info.call_args, info.refs = classify_calls(info.call_nodes, scope, info.param_names)
                info.call_nodes = []
        finally:
            self.func, self.scope, self.handlers, self.guards, self.collectors, self.catching, self.tries, self.debug_depth, self.returned, self.after_retries = saved

    def st_ClassDef(self, stmt: cst.ClassDef) -> None:
        bases = [self.qualify(arg.value) or self.code(arg.value) for arg in stmt.bases if arg.keyword is None]
        if self.func is None:
            self.links.classes[stmt.name.value] = tuple(bases)
        is_exc = any(looks_exception(b) or self.exception_classes.get(b) is not None for b in bases)
        self.class_bases[stmt.name.value] = tuple(bases)
        self.scope.bind(stmt.name.value, Binding("class", stmt))
        saved = (self.class_name, self.class_is_exception, self.scope)
        self.class_name, self.class_is_exception = stmt.name.value, is_exc
        self.scope = Scope("class", parent=self.module_scope if saved[2].kind == "module" else saved[2])
        has_default = False
        try:
            body = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else stmt.body.body
            for item in body:
                smalls = item.body if isinstance(item, cst.SimpleStatementLine) else []
                for small in smalls:
                    if is_exc and isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None:
                        target = small.targets[0].target if isinstance(small, cst.Assign) else small.target
                        if isinstance(target, cst.Name) and target.value in DEFAULT_MESSAGE_ATTRS and nodes.string_value(small.value) is not None:
                            has_default = True
                            self.record("class-default", stmt.name.value, small, small.value, judged_at=stmt.name.value)
                if isinstance(item, cst.FunctionDef) and item.name.value == "__init__":
                    has_default = True
            self.exception_classes[stmt.name.value] = has_default if is_exc else None  # type: ignore[assignment]
            if is_exc:
                self.exc_registry.add(exception_templates.collect(stmt, bases))
            self.error_tables.define(self, stmt, bases)
            if not is_exc:
                self.exception_classes.pop(stmt.name.value, None)
            self.body_of(stmt)
        finally:
            self.class_name, self.class_is_exception, self.scope = saved

    def _role(self, info: FunctionInfo, stmt: cst.FunctionDef) -> None:
        name = info.name
        if name in ("__str__", "__repr__", "__format__"):
            info.role = "dunder"
            return
        for deco in stmt.decorators:
            target = deco.decorator
            func = target.func if isinstance(target, cst.Call) else target
            qualified = self.qualify(func)
            last = qualified.rsplit(".", 1)[-1]
            if last in VALIDATOR_DECORATORS:
                info.role = "validator"
                return
            if not isinstance(func, cst.Attribute):
                if last == "command" and qualified.startswith(("click.", "typer.")):
                    info.role = "cli"
                continue
            server = nodes.dotted(func.value)
            stack = self.servers.get(server, "")
            if last == "tool":
                if stack or self.stacks & {"mcp1", "mcp2", "fastmcp"}:
                    tool_name = info.name
                    if isinstance(target, cst.Call):
                        named = nodes.string_value(nodes.call_arg(target, 0, "name"))
                        tool_name = named or tool_name
                    info.role = "tool"
                    info.stack = stack or next(iter(sorted(self.stacks - {"lowlevel", "lowlevel2"})), "")
                    info.tool_name = tool_name
                    return
            elif last == "call_tool" and (stack in ("lowlevel", "") and self.stacks & {"lowlevel", "mcp1"}):
                info.role = "lowlevel"
                info.stack = "lowlevel1"
                return
            elif last in ("resource", "prompt") and (stack or self.stacks):
                info.role = "resource"
                return
            elif last in ("command", "group", "callback") and (qualified.startswith(("click.", "typer.")) or "app" in server or "cli" in server):
                info.role = "cli"
                return

    def _cli_options(self, stmt: cst.FunctionDef) -> Tuple[Dict[str, Tuple[str, ...]], FrozenSet[str], FrozenSet[str]]:
        """click/typer `@option("--format", "fmt")` declarations: parameter name -> flags, the
        parameters declared as on/off switches (`is_flag=True`, `count=True`, `"--x/--no-x"`,
        `type=bool`), and those declared as credentials (`hide_input=True`, an `envvar` named for a
        secret)."""
        out: Dict[str, Tuple[str, ...]] = {}
        switches: Set[str] = set()
        credentials: Set[str] = set()
        for deco in stmt.decorators:
            call = deco.decorator
            if not isinstance(call, cst.Call):
                continue
            callee = self.qualify(call.func)
            if callee.rsplit(".", 1)[-1] not in ("option", "argument") or callee.split(".", 1)[0] not in ("click", "typer"):
                continue
            decls = [v for v in (nodes.string_value(a) for a in nodes.positional_args(call)) if v]
            flags = tuple(d.split("/")[0] for d in decls if d.startswith("-"))
            plain = [d for d in decls if not d.startswith("-")]
            if plain:
                param = plain[0]
            elif flags:
                param = max(flags, key=len).lstrip("-").replace("-", "_")
            else:
                continue
            self._declare(call, decls, param, out, switches, credentials)
        for param, call in self._typer_declarations(stmt.params):
            decls = [v for v in (nodes.string_value(a) for a in nodes.positional_args(call)) if v]
            self._declare(call, decls, param, out, switches, credentials)
        return out, frozenset(switches), frozenset(credentials)

    def _declare(self, call: cst.Call, decls: List[str], param: str, out: Dict[str, Tuple[str, ...]], switches: Set[str], credentials: Set[str]) -> None:
        out[param] = tuple(d.split("/")[0] for d in decls if d.startswith("-"))
        if any("/" in d for d in decls if d.startswith("-")) or _declares_switch(call):
            switches.add(param)
        if CREDENTIAL_DECLARATION.search(self.code(call)):
            credentials.add(param)

    def _typer_declarations(self, params: cst.Parameters) -> List[Tuple[str, cst.Call]]:
        """typer's declarations on the parameter itself: `out: str = typer.Option("x", "--out")` and
        `out: Annotated[str, typer.Option("--out")]`."""
        found = []
        for p in list(params.params) + list(params.kwonly_params):
            candidates = [p.default] if p.default is not None else []
            annotation = p.annotation.annotation if p.annotation is not None else None
            if isinstance(annotation, cst.Subscript) and nodes.last_name(annotation.value) == "Annotated":
                candidates += [getattr(e.slice, "value", None) for e in annotation.slice[1:]]
            for node in candidates:
                if isinstance(node, cst.Call) and self.qualify(node.func).split(".", 1)[0] == "typer" and nodes.last_name(node.func) in ("Option", "Argument"):
                    found.append((p.name.value, node))
        return found


# A parameter declared as a credential: a request header or cookie, an auth scheme's dependency
# (FastAPI `Header()`, `Cookie()`, `Security(...)`, `Depends(oauth2_scheme)`), a prompt that hides
# what is typed, an option read from an env var named for a secret (click/typer `hide_input=True`,
# `envvar="GITHUB_TOKEN"`). It decides only for a name that may or may not be a secret (`token`,
# `session_id`: `placeholder_kinds.MAYBE_SECRET`).
CREDENTIAL_DECLARATION = re.compile(
    r"\b(?:Header|Cookie|Security|APIKey(?:Header|Cookie|Query)|HTTPBearer|HTTPBasic\w*|OAuth2\w*)\s*\("
    r"|\bDepends\(\s*[\w.]*(?i:oauth|auth|bearer|api_?key|token)"
    r"|\bhide_input\s*=\s*True"
    r"|\benvvar\s*=\s*[\"'][A-Za-z0-9_]*(?i:token|key|secret|password|passwd|pat|credentials?)[\"']"
)


def _declares_switch(call: cst.Call) -> bool:
    for name in ("is_flag", "count"):
        arg = nodes.keyword_arg(call, name)
        if isinstance(arg, cst.Name) and arg.value == "True":
            return True
    kind = nodes.keyword_arg(call, "type")
    return isinstance(kind, cst.Name) and kind.value == "bool"


def _params(params: cst.Parameters, walker: Walker) -> Tuple[Param, ...]:
    out: List[Param] = []
    items = list(params.posonly_params) + list(params.params) + list(params.kwonly_params)
    if isinstance(params.star_arg, cst.Param):
        items.append(params.star_arg)
    if params.star_kwarg is not None:
        items.append(params.star_kwarg)
    for p in items:
        annotation = walker.code(p.annotation.annotation) if p.annotation is not None else ""
        default = walker.code(p.default) if p.default is not None else ""
        out.append(Param(p.name.value, annotation, default, bool(CREDENTIAL_DECLARATION.search(annotation + " " + default))))
    return tuple(out)


def _decorator_target(node: cst.CSTNode) -> cst.CSTNode:
    return node.func if isinstance(node, cst.Call) else node


_FIELD_VALIDATOR = re.compile(r"^validate_(\w+)$")
_FIELD_VALIDATOR_DECORATORS = frozenset({"field_validator", "validator"})


def _validated_secret(stmt: cst.FunctionDef, params) -> FrozenSet[str]:
    """The parameter that holds a secret field's value in that field's validator: DRF's
    `validate_old_password(self, value)`, pydantic's `@field_validator("api_key")` method's `v`."""
    from .value_names import is_secret_name

    names = [p.name for p in params if p.name not in ("self", "cls")]
    if not names:
        return frozenset()
    fields = []
    match = _FIELD_VALIDATOR.match(stmt.name.value)
    if match is not None:
        fields.append(match.group(1))
    for deco in stmt.decorators:
        call = deco.decorator
        if isinstance(call, cst.Call) and nodes.last_name(call.func) in _FIELD_VALIDATOR_DECORATORS:
            fields.extend(v for v in (nodes.string_value(a.value) for a in call.args if a.keyword is None) if v)
    return frozenset({names[0]}) if fields and all(is_secret_name(f) for f in fields) else frozenset()


def looks_exception(name: str) -> bool:
    """A class name that says it is an exception (`ValueError`, `RateLimitFailure`)."""
    last = name.rsplit(".", 1)[-1]
    return last in BUILTIN_EXCEPTIONS or last.endswith(("Error", "Exception", "Warning", "Failure", "Fault"))
