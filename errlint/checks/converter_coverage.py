"""Whether a converter on the way turns a raised class into the stack's ToolError (AEM603).

A tool that runs inside a decorator or context manager catching the raised class and raising the
stack's ToolError lets the text through (`extract.tool_error_converters` finds the converters). The
raised class is covered when one of its ancestors is caught: the project's own classes and builtins
by name, the standard library's read from the class itself, and a third-party library's, whose
hierarchy errlint cannot read, by a catch of a class from the same or a companion package.
"""
from __future__ import annotations

import re

from ..extract.call_arguments import STDLIB
from ..extract.catching import ancestors, is_builtin_exception, stdlib_ancestors
from ..model import Message
from .base import FileContext


def converted_on_the_way(message: Message, ctx: FileContext) -> bool:
    """Every tool that reaches the raise runs inside a converter (a decorator or context manager
    that catches this class and raises the stack's ToolError), so the framework never sees the class
    (`extract.tool_error_converters`)."""
    function = message.context.function
    converted = function.converted if function is not None else frozenset()
    if not converted:
        return False
    if "" in converted:
        return True
    cls = message.callee.rsplit(".", 1)[-1]
    qualified = ctx.facts.class_bases
    bases = {name: [b.rsplit(".", 1)[-1] for b in found] for name, found in qualified.items()}
    lineage = set(ancestors(cls, bases))
    # the ancestors the project does not define, by dotted name: the standard library's are read
    # from the class (`json.JSONDecodeError` is a ValueError); a library's cannot be
    outside = {}
    for name in lineage:
        for dotted in qualified.get(name, ()):
            last = dotted.rsplit(".", 1)[-1]
            if last not in qualified and not is_builtin_exception(last):
                outside[last] = dotted
    if cls not in qualified and not is_builtin_exception(cls) and "." in message.callee:
        outside[cls] = message.callee  # `raise httpx.InvalidURL(...)`
    for dotted in outside.values():
        lineage.update(stdlib_ancestors(dotted))
    if converted & lineage:
        return True
    # a library's error class (`class FlagInjectionError(git.exc.BadName)`) has superclasses errlint
    # cannot read: a converter that catches a class of the same library, or of a companion package
    # (gitdb's ODBError for GitPython's BadName), may well catch it
    libraries = {d.split(".", 1)[0] for d in outside.values()} - STDLIB
    caught = {_package_of(c, ctx) for c in converted if not is_builtin_exception(c)}
    return any(a and b and (a.startswith(b) or b.startswith(a)) for a in libraries for b in caught)


def _package_of(short: str, ctx: FileContext) -> str:
    """The top-level package a caught class `short` comes from: its import, or the dotted name the
    file writes it with (`httpx.HTTPError`); "" when neither says."""
    imports = ctx.facts.imports
    if short in imports:
        return imports[short].split(".", 1)[0]
    found = re.search(rf"\b([A-Za-z_]\w*)(?:\.\w+)*\.{re.escape(short)}\b", ctx.text)
    return imports.get(found.group(1), found.group(1)).split(".", 1)[0] if found else ""
