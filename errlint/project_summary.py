"""The project facts of one file as plain data: what `project_model.ProjectModel` is built from.

`summarize` turns the per-file pass's `FileFacts` into a small JSON-able summary (functions with their
entry-point role, calls, returned callees, exceptions caught around each call, call arguments,
functions passed on; imports, dispatch tables, classes, module-level calls), which the cache keeps
with the file's results, so a warm run builds the project model without parsing anything.
"""
from __future__ import annotations

import libcst as cst

from .entry_points import function_entry, imported_packages
from .extract.receivers import is_stub

Summary = dict


def summarize(facts) -> Summary:
    """The project facts of one file (`extract.walker.FileFacts`), as plain data."""
    links = facts.links
    functions = {}
    frameworks = imported_packages(facts.imports)
    for info in facts.functions:
        entry = function_entry(info, facts.imports, links.classes if links else {}, frameworks)
        functions[info.qualname] = {
            "cls": info.class_name,
            "parent": info.parent.qualname if info.parent is not None else "",
            "entry": list(entry) if entry else None,
            "calls": sorted(info.qcalls),
            "rets": sorted(info.rets),
            "caught": {t: sorted(c) for t, c in sorted(info.caught.items()) if c},
            "relayed": {t: sorted(c) for t, c in sorted(info.relayed.items())},
            "params": signature(info.node),
            "args": info.call_args,
            "refs": info.refs,
            "decos": list(info.decorators),
            "request": bool(info.params) and info.params[0].name == "request",
            "stub": bool(info.class_name) and is_stub(info.node, info.decorators),
        }
    return {
        "fns": functions,
        "imports": dict(facts.imports),
        "stars": list(links.stars) if links else [],
        "tables": {k: list(v) for k, v in links.tables.items()} if links else {},
        "classes": {k: list(v) for k, v in links.classes.items()} if links else {},
        "attrs": {k: sorted(v) for k, v in links.attrs.items()} if links else {},
        "mcalls": sorted(links.module_calls) if links else [],
        "main": sorted(links.main_calls) if links else [],
        "tcaught": {t: sorted(c) for t, c in sorted(links.top_caught.items()) if c} if links else {},
        "trelayed": {t: sorted(c) for t, c in sorted(links.top_relayed.items())} if links else {},
        "entries": [list(e) for e in links.entries] if links else [],
        "tools": [list(t) for t in links.tool_names] if links else [],
        "serving": sorted(links.serving) if links else [],
        "catchers": bool(links and links.catchers),
        "middleware": sorted(links.middleware) if links else [],
    }


def signature(node) -> list:
    """[positional names, keyword-only names, *args name, **kwargs name] of a `def`."""
    params = getattr(node, "params", None)
    if params is None:
        return [[], [], "", ""]
    star = params.star_arg.name.value if isinstance(getattr(params.star_arg, "name", None), cst.Name) else ""
    return [[p.name.value for p in list(params.posonly_params) + list(params.params)], [p.name.value for p in params.kwonly_params],
            star, params.star_kwarg.name.value if params.star_kwarg is not None else ""]
