"""Records whose text shows their fields: what interpolating one puts in a message.

A pydantic model, a dataclass, an attrs class or a NamedTuple prints every field in its repr
(`UpstreamServer(name='a', url='…', authentication_token='sk-…')`), and a list of them prints each. So
a record whose class declares a credential field (`authentication_token: str | None`, `client_secret:
str`) leaks it when the record is interpolated, whatever the variable is called. A field typed
`SecretStr`/`SecretBytes`, or declared `repr=False`, is masked, and a class with its own
`__repr__`/`__str__` prints what that returns, which is not known here.
"""
from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from ..model import SECRET
from . import nodes
from .value_names import is_secret_name, secret_kind

RECORD_BASES = re.compile(r"^(?:pydantic\.)?(?:BaseModel|BaseSettings|RootModel)$|^(?:typing\.)?NamedTuple$|^SQLModel$")
RECORD_DECORATORS = re.compile(r"^(?:dataclasses\.)?dataclass$|^(?:attr\.)?(?:s|attrs|define|frozen|mutable)$|^attrs\.(?:define|frozen|mutable)$|^pydantic\.dataclasses\.dataclass$")
ATTRS_FIELDS = re.compile(r"^(?:attr\.(?:ib|attrib)|attrs\.field|attr\.field)$")
MASKED_TYPES = re.compile(r"\bSecret(?:Str|Bytes)\b")
CLASS_NAMES = re.compile(r"\b[A-Z]\w*")


def secret_field(class_def: cst.ClassDef, qualify) -> str:
    """The credential field a record class shows in its text ("" for none): the first named surely
    for one (`client_secret`) before one named maybe for one (`authentication_token`)."""
    if not _is_record(class_def, qualify):
        return ""
    body = class_def.body.body if isinstance(class_def.body, cst.IndentedBlock) else ()
    for item in body:
        if isinstance(item, cst.FunctionDef) and item.name.value in ("__repr__", "__str__"):
            return ""
    shown = []
    for item in body:
        if not isinstance(item, cst.SimpleStatementLine):
            continue
        for small in item.body:
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and is_secret_name(small.target.value):
                annotation = nodes.dotted(small.annotation.annotation) or _code(small.annotation.annotation)
                if not (MASKED_TYPES.search(annotation) or _hidden(small.value)):
                    shown.append(small.target.value)
            elif isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
                    and _attrs_field(small.value, qualify) and is_secret_name(small.targets[0].target.value) and not _hidden(small.value):
                shown.append(small.targets[0].target.value)  # attrs' own spelling: `password = attr.ib()`
    return next((name for name in shown if secret_kind(name) == SECRET), shown[0] if shown else "")


def _attrs_field(value: cst.CSTNode, qualify) -> bool:
    """`attr.ib()`, `attr.attrib()`, `attrs.field()`: a field declared without an annotation."""
    if not isinstance(value, cst.Call):
        return False
    return bool(ATTRS_FIELDS.match(qualify(value.func) or nodes.dotted(value.func) or ""))


def annotated_record(annotation: str, scope, qualify) -> Optional[str]:
    """"Class.field" for the first class the annotation names (`UpstreamServer`,
    `list[UpstreamServer]`, `Optional[Creds]`) that is a record of this module with a credential field."""
    for name in CLASS_NAMES.findall(annotation or ""):
        found = scope.lookup(name)
        if len(found) == 1 and found[0].kind == "class" and isinstance(found[0].value, cst.ClassDef):
            field = secret_field(found[0].value, qualify)
            if field:
                return f"{name}.{field}"
    return None


def attribute_type(owner: cst.ClassDef, attr: str, code) -> str:
    """The type a class gives its attribute `attr`, as written: a class-level annotation (`settings:
    SmtpSettings`), or what its `__init__` assigns (`self.settings: T = ...`, `self.settings =
    SmtpSettings(...)`, `self.settings = settings` of a parameter annotated `T`); "" when unknown."""
    init = None
    for item in owner.body.body if isinstance(owner.body, cst.IndentedBlock) else ():
        if isinstance(item, cst.SimpleStatementLine):
            for small in item.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.target.value == attr:
                    return code(small.annotation.annotation)
        elif isinstance(item, cst.FunctionDef) and item.name.value == "__init__":
            init = item
    if init is None:
        return ""
    params = {p.name.value: p for p in list(init.params.params) + list(init.params.kwonly_params)}
    for node in nodes.iter_expr(init.body, stop=(cst.FunctionDef, cst.ClassDef, cst.Lambda)):
        if node.__class__ is cst.AnnAssign and _self_attribute(node.target, attr):
            return code(node.annotation.annotation)
        if node.__class__ is cst.Assign and len(node.targets) == 1 and _self_attribute(node.targets[0].target, attr):
            value = node.value
            if value.__class__ is cst.Call:
                return nodes.dotted(value.func)  # `self.settings = SmtpSettings(...)`: an instance of that class
            param = params.get(value.value) if value.__class__ is cst.Name else None
            return code(param.annotation.annotation) if param is not None and param.annotation is not None else ""
    return ""


def _self_attribute(target: cst.CSTNode, attr: str) -> bool:
    return target.__class__ is cst.Attribute and target.attr.value == attr and nodes.dotted(target.value) == "self"


def _is_record(class_def: cst.ClassDef, qualify) -> bool:
    if any(RECORD_BASES.match(qualify(b.value) or nodes.dotted(b.value) or "") for b in class_def.bases):
        return True
    for deco in class_def.decorators:
        target = deco.decorator.func if isinstance(deco.decorator, cst.Call) else deco.decorator
        if RECORD_DECORATORS.match(qualify(target) or nodes.dotted(target) or ""):
            return True
    return False


def _hidden(value: Optional[cst.CSTNode]) -> bool:
    """`Field(repr=False)`, `field(repr=False)`, `attr.ib(repr=False)`: left out of the repr."""
    if not isinstance(value, cst.Call):
        return False
    flag = nodes.keyword_arg(value, "repr")
    return flag is not None and nodes.dotted(flag) == "False"


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)
