"""How templates join, and how Python's string-formatting operations fill them.

`join` concatenates two templates (merging adjacent text, keeping the tail piece and the fallback
mark); `as_fallback` marks the text shown only when an upstream gives none. `percent_template` maps
the fields of a `"..." % args` format to placeholders of the matching arguments, and
`format_template` does the same for `"...".format(...)` (`{}`, `{0}`, `{name}`, conversions and
format specs).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, List, Sequence

import libcst as cst

from ..model import UNKNOWN, Part, Piece, Placeholder, Template
from . import nodes

if TYPE_CHECKING:
    from .templates import TemplateBuilder


def merge_text(parts: Sequence[Part]) -> List[Part]:
    """Merge adjacent string parts."""
    out: List[Part] = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] = out[-1] + part
        elif part != "":
            out.append(part)
    return out


def join(a: Template, b: Template) -> Template:
    if not b.parts:
        tail, style = a.tail, a.tail_style
    else:
        tail, style = b.tail, b.tail_style
    return Template(tuple(merge_text(a.parts + b.parts)), a.pieces + b.pieces, a.complete and b.complete, tail, style, a.fallback or b.fallback)


def as_fallback(template: Template) -> Template:
    """The same template, marked as the text shown only when the upstream gives none."""
    from dataclasses import replace

    return replace(template, fallback=True)


_PERCENT = re.compile(r"%(?:\((?P<key>[^)]*)\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(?P<conv>[diouxXeEfFgGcrsa%])")
_FORMAT_FIELD = re.compile(r"\{\{|\}\}|\{(?P<field>[^{}!:]*)(?:!(?P<conv>[rsa]))?(?::(?P<spec>[^{}]*))?\}")


def percent_template(fmt: Template, args: object, builder: TemplateBuilder) -> Template:
    """`"..." % args` -> template; `%s` fields become placeholders of the matching argument."""
    text = fmt.literal
    parts: List[Part] = []
    pos = 0
    index = 0
    for match in _PERCENT.finditer(text):
        parts.append(text[pos:match.start()])
        pos = match.end()
        if match.group("conv") == "%":
            parts.append("%")
            continue
        key = match.group("key")
        arg = None
        if key is not None and isinstance(args, dict):
            arg = args.get(key)
        elif isinstance(args, list) and index < len(args):
            arg = args[index]
            index += 1
        if arg is not None:
            holder = builder.placeholder(arg, conversion="r" if match.group("conv") == "r" else "")
        else:
            holder = Placeholder(expr=key or "?", kinds=frozenset({UNKNOWN}), names=(key,) if key else ())
        parts.append(holder)
    parts.append(text[pos:])
    pieces = tuple(Piece(p.text, p.node, "percent", p.container) for p in fmt.pieces)
    return Template(tuple(merge_text(parts)), pieces, True, fmt.tail, "percent")


def format_template(fmt: Template, call: cst.Call, builder: TemplateBuilder) -> Template:
    """`"...".format(...)` -> template; `{}`/`{0}`/`{name}` fields map to the call's arguments."""
    text = fmt.literal
    positional = nodes.positional_args(call)
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    splat = any(a.star == "**" for a in call.args)
    parts: List[Part] = []
    pos = 0
    auto = 0
    for match in _FORMAT_FIELD.finditer(text):
        parts.append(text[pos:match.start()])
        pos = match.end()
        token = match.group(0)
        if token in ("{{", "}}"):
            parts.append(token[0])
            continue
        field = (match.group("field") or "").strip()
        head = re.split(r"[.\[]", field, maxsplit=1)[0]
        arg = None
        if head == "":
            arg = positional[auto] if auto < len(positional) else None
            auto += 1
        elif head.isdigit():
            i = int(head)
            arg = positional[i] if i < len(positional) else None
        else:
            arg = keywords.get(head)
        if arg is not None and head == field:
            holder = builder.placeholder(arg, conversion=match.group("conv") or "", spec=match.group("spec") or "")
        else:
            kinds = frozenset({UNKNOWN}) if arg is None or splat else builder.classify(arg, 0)[0]
            holder = Placeholder(expr=field or "?", kinds=kinds, names=(head,) if head and not head.isdigit() else (), node=arg)
        parts.append(holder)
    parts.append(text[pos:])
    pieces = tuple(Piece(p.text, p.node, "format", p.container) for p in fmt.pieces)
    return Template(tuple(merge_text(parts)), pieces, True, fmt.tail, "format")
