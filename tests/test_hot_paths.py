"""What errlint's speed-ups rely on, and what they must leave as it was.

The hot paths test libcst node classes exactly (`node.__class__ is cst.Name`, see
`errlint.extract.nodes`), which is right only while libcst's concrete node classes have no
subclasses; `engine.check_file` pauses Python's cyclic garbage collector for one file and must hand
it back as it found it.
"""
from __future__ import annotations

import gc
import inspect

import libcst as cst
import pytest

from errlint import engine
from errlint.api import run_context
from errlint.extract import nodes

SOURCE = b"def f(path):\n    raise ValueError('Request rejected. Please check your credentials.')\n"


def _concrete_node_classes():
    return [c for c in vars(cst).values()
            if inspect.isclass(c) and issubclass(c, cst.CSTNode) and not inspect.isabstract(c)]


def test_libcst_node_classes_used_exactly_are_final():
    classes = _concrete_node_classes()
    assert cst.Name in classes and cst.Call in classes and cst.SimpleStatementLine in classes
    subclassed = sorted(c.__name__ for c in classes if c.__subclasses__())
    assert subclassed == []


def test_exact_class_helpers_read_the_same_shapes():
    expr = cst.parse_expression("self.a[0].b(x)")
    assert nodes.root_name(expr) == "self"
    assert nodes.last_name(expr) == "b"
    assert nodes.dotted(expr.func) == ""  # a subscript in the chain
    assert nodes.dotted(cst.parse_expression("a . b.c")) == "a.b.c"
    assert nodes.dotted(cst.parse_expression("name")) == "name"
    assert nodes.dotted(None) == ""
    assert nodes.last_name(cst.parse_expression('d["KEY"]')) == "KEY"
    assert nodes.root_name(cst.parse_expression("(1).real")) == ""


def test_check_file_pauses_the_collector_and_restores_it(monkeypatch):
    seen = []
    extract = engine.extract

    def spy(module, *args):
        seen.append(gc.isenabled())
        return extract(module, *args)

    monkeypatch.setattr(engine, "extract", spy)
    run = run_context()
    assert gc.isenabled()
    result = engine.check_file("example.py", SOURCE, run)
    assert seen == [False]
    assert gc.isenabled()
    assert [d.code for d in result.diagnostics] == ["AEM102"]  # the file was checked, not skipped


def test_check_file_leaves_a_disabled_collector_disabled():
    run = run_context()
    gc.disable()
    try:
        engine.check_file("example.py", SOURCE, run)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_check_file_restores_the_collector_when_a_file_cannot_be_checked():
    run = run_context()
    result = engine.check_file("broken.py", b"def f(:\n", run)
    assert [d.code for d in result.diagnostics] == ["AEM001"]
    assert gc.isenabled()


# The project scan's substring pre-filters must find exactly what the regular expressions alone find.
HINT_SHAPES = [
    (b"from fastapi import FastAPI\n", {"http"}),
    (b"  import   flask\n", {"http"}),
    (b"# fastapi is not imported here\nx = 1\n", set()),
    (b"import argparse\n", {"cli"}),
    (b"if __name__ == '__main__':\n    main()\n", {"cli"}),
    (b"ns = p.parse_known_args()\n", {"cli"}),
    (b"@mcp.tool()\ndef f():\n    pass\n", {"agent"}),
    (b"server.add_tool(f)\n", {"agent"}),
    (b"Tool.from_function(f)\n", {"agent"}),
    (b"tools = []  # a toolbox\n", set()),
    (b"x = 1\n", set()),
]


def test_audience_hints_find_what_the_patterns_find():
    from errlint.entry_points import audience_hints

    for data, expected in HINT_SHAPES:
        assert audience_hints(data) == expected, data
    assert audience_hints(b"import click\n", "__main__.py") == {"cli"}
    assert audience_hints(b"x = 1\n", "views.py") == {"http"}


def test_audience_hints_skip_the_audiences_already_known():
    from errlint.entry_points import audience_hints

    data = b"from fastapi import FastAPI\nimport argparse\n@app.tool\ndef f(): ...\n"
    assert audience_hints(data) == {"http", "cli", "agent"}
    assert audience_hints(data, known={"http", "agent"}) == {"cli"}
    assert audience_hints(data, known={"http", "agent", "cli"}) == set()


def test_project_registry_reads_tools_caught_classes_and_audiences(tmp_path):
    from errlint.project_scan import project_registry, scan_tool_names

    assert scan_tool_names(b"TOOL = 1\nTOOLS = []\n") == []
    assert scan_tool_names(b'@mcp.tool(name="fetch_page")\ndef fetch(url):\n    pass\n') == ["fetch_page"]
    assert scan_tool_names(b'spec = Tool(name="lookup")\n') == ["lookup"]
    (tmp_path / "a.py").write_bytes(b"import argparse\ntry:\n    go()\nexcept (mod.StoreError, ValueError):\n    pass\n")
    (tmp_path / "b.py").write_bytes(b"@mcp.tool\ndef search(q):\n    pass\n")
    (tmp_path / "c.py").write_bytes(b"x = 1\n")
    audiences: set = set()
    names, caught = project_registry(sorted(tmp_path.glob("*.py")), ["extra_tool"], audiences)
    assert names == {"search", "extra_tool"}
    assert caught == {"StoreError"}
    assert audiences == {"cli", "agent"}


def _children_reference(node):
    """`nodes.children` as it was before fields were pruned by their declared types."""
    import dataclasses

    out = []
    for f in dataclasses.fields(node):
        if f.name.startswith("whitespace") or f.name in ("lpar", "rpar", "comma", "semicolon", "leading_lines", "lines_after_decorators"):
            continue
        value = getattr(node, f.name, None)
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, cst.CSTNode) and not isinstance(item, nodes._SKIP_TYPES):
                out.append(item)
    return out


SHAPES = '''
from . import a
from ..pkg import (b as c, d)
import x.y as z
@deco(1, key=2)
async def f(a, /, b: int = 1, *args: str, c, d=2, **kw) -> "T":
    global g
    x: list[int] = [i for i in range(3) if i]
    y = {k: v for k, v in kw.items()}
    s = {1, *args}
    t = (1,)
    u = a if b else -c
    v = lambda q=1, *r, **s: q
    w = x[1:2:3, ...]
    await f(*args, **kw)
    async with g() as (h, i):
        yield h
    del x[0]
    assert a, f"{a!r:>{b}} {c=}"
    match a:
        case [1, *rest] | {"k": v, **others} if rest:
            pass
        case Point(x=0) as p:
            pass
    try:
        raise ValueError("x") from None
    except* (OSError, KeyError) as e:
        pass
    finally:
        return not a and b or c
class C(B, metaclass=M):
    attr: int
    def m(self): return self.x.y(1)[2] @ 3 ** 4 // 5 << 6
'''


def test_children_reads_every_expression_bearing_child():
    import errlint
    from pathlib import Path

    sources = [SHAPES] + [p.read_text(encoding="utf-8") for p in sorted(Path(errlint.__file__).parent.rglob("*.py"))[:40]]
    checked = 0
    for source in sources:
        stack = [cst.parse_module(source)]
        while stack:
            node = stack.pop()
            expected = _children_reference(node)
            assert nodes.children(node) == expected, type(node).__name__
            checked += 1
            stack.extend(c for c in node.children)
    assert checked > 10_000


def _three_files(tmp_path):
    for i in range(3):
        (tmp_path / f"m{i}.py").write_text(f"def f{i}(x):\n    raise ValueError('Request rejected. Please check your credentials.')\n")
    return sorted(tmp_path.glob("*.py"))


@pytest.fixture
def freeze_counts(monkeypatch):
    """The permanent generation's size each time the project pass starts (a list, filled as runs go)."""
    from errlint import project_audience

    seen = []
    judge_all = project_audience.judge_all

    def spy(results, run):
        seen.append(gc.get_freeze_count())
        return judge_all(results, run)

    monkeypatch.setattr(project_audience, "judge_all", spy)
    return seen


def test_check_files_keeps_results_frozen_while_it_runs_and_hands_them_back(tmp_path, freeze_counts):
    from errlint import runner

    seen = freeze_counts
    # CPython 3.12 keeps immortal objects in the permanent generation (a few hundred after any full
    # collection), so the count is compared with what it was, not with 0
    gc.collect()
    before = gc.get_freeze_count()
    results = runner.check_files(_three_files(tmp_path), run_context(), jobs=1, owns_process=True)
    assert [[d.code for d in r.diagnostics] for r in results] == [["AEM102"]] * 3
    assert seen and seen[0] > before + 100  # the kept results were out of the collector's way
    gc.collect()
    assert gc.get_freeze_count() == before  # and handed back
    assert gc.isenabled()


def test_check_files_leaves_a_library_callers_collector_alone(tmp_path, freeze_counts):
    from errlint import runner

    seen = freeze_counts
    files = _three_files(tmp_path)
    gc.collect()
    before = gc.get_freeze_count()
    runner.check_files(files, run_context(), jobs=1)  # a library call: the process is the caller's
    assert seen == [before]
    gc.disable()
    try:
        runner.check_files(files, run_context(), jobs=1, owns_process=True)
        assert not gc.isenabled() and seen[1] == gc.get_freeze_count() == before
    finally:
        gc.enable()


def test_the_cli_run_tunes_the_collector(tmp_path, freeze_counts):
    from click.testing import CliRunner
    from errlint.cli import main

    seen = freeze_counts
    _three_files(tmp_path)
    gc.collect()
    before = gc.get_freeze_count()
    out = CliRunner().invoke(main, ["check", "--no-cache", "--jobs", "1", str(tmp_path)])
    assert out.exit_code == 1, out.output
    assert seen and seen[0] > before + 100


CHILDREN_SOURCE = '''
@deco(1, k=v)
async def f(a, /, b: int = 2, *args, c, **kw) -> "T":
    global g
    x, *y = z = await q[1:2, ::3]
    x += [i async for i in a if i] + {k: v for k, v in kw.items()} - {*s, 1}
    print(f"{a!r:>{w}} and {b}" "tail", sep="", **kw) if not x else (lambda m=1: m)(2)
    with open(p) as fh, ctx():
        del fh.attr[0]
    try:
        raise E("bad") from None
    except* (A, B) as e:
        assert e, "msg"
    match x:
        case {"k": [1, *rest]} | Point(x=0) if rest:
            yield from rest
    return t"{x}" if False else ...
'''


def test_children_are_read_field_by_field_as_the_generic_reading_reads_them():
    try:
        module = cst.parse_module(CHILDREN_SOURCE)
    except cst.ParserSyntaxError:  # a libcst without t-strings
        module = cst.parse_module(CHILDREN_SOURCE.replace('t"{x}"', 'f"{x}"'))
    pending, classes = [module], set()
    while pending:
        node = pending.pop()
        got, expected = nodes.children(node), nodes._generic_children(node)
        assert len(got) == len(expected) and all(a is b for a, b in zip(got, expected)), type(node).__name__
        classes.add(type(node))
        pending.extend(node.children)  # every child, whitespace included, so every class is read
    assert {cst.Call, cst.Arg, cst.FormattedString, cst.MatchOr, cst.Lambda, cst.Subscript} <= classes


def test_a_field_that_may_hold_punctuation_is_read_generically():
    # `Arg.star` holds text, `Import.names` holds aliases, `Param.default` an expression or nothing:
    # a field typed with a class some subclass of which is skipped is not read blindly
    assert nodes._field_mode(cst.BaseExpression) == "one"
    assert nodes._field_mode(cst.BaseParenthesizableWhitespace) == ""
    assert nodes._field_mode(cst.CSTNode) == ""  # some node classes are whitespace
