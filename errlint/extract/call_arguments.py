"""What each argument of a call carries, for the project model's parameter inputs
(`errlint.parameter_inputs`): a helper's parameter is caller input only when some call passes input.

One call site is a list of `[slot, kind]`: `slot` is the argument's position (an int) or keyword (a
str); `kind` is
- "c": fixed, whatever the caller sent: a literal, a constant, the outcome of I/O or a lookup
  (`member.name` of an archive, `TABLE[key]`), a value computed from those;
- "s": input from a source of its own (a request, `sys.argv`, the environment);
- "p:a,b": computed from the calling function's parameters `a` and `b` (input when they are);
- "d:a": parameter `a` itself, converted or transformed at most (`int(a)`, `a.strip()`): input when
  `a` is, and the callee's parameter stands for `a` (`errlint.parameter_inputs.forwarded_params`);
- "*": a spread (`*args`, `**kw`): any parameter may receive anything.
"""
from __future__ import annotations

import builtins
import sys
from typing import List, Sequence, Tuple, Union

import libcst as cst

from . import nodes
from .builtin_methods import dispatchable
from .input_origins import CONVERSIONS, VALUE_METHODS
from .provenance import Provenance

Site = List[List[Union[int, str]]]

_BUILTINS = frozenset(dir(builtins))
# the standard library's top-level modules (`sys.stdlib_module_names` from 3.10; on 3.9, the usual ones)
STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) or frozenset({
    "os", "sys", "re", "json", "logging", "subprocess", "pathlib", "time", "datetime", "collections", "itertools",
    "functools", "typing", "asyncio", "shutil", "tempfile", "io", "math", "random", "hashlib", "base64", "uuid",
    "urllib", "http", "socket", "threading", "inspect", "textwrap", "string", "struct", "copy", "enum", "dataclasses",
    "ssl", "concurrent", "configparser", "csv", "decimal", "email", "ftplib", "sqlite3", "tarfile", "zipfile", "xml",
    "zlib", "binascii",
})


def may_be_project_call(target: str) -> bool:
    """False for a callee that is a builtin or in the standard library: it cannot be a project
    function, so its arguments are not worth classifying."""
    head = target.split(".", 1)[0]
    return head not in _BUILTINS and head not in STDLIB


def classify_call(call: cst.Call, source: Provenance, fixed: Provenance, params: Sequence[str], alone=None) -> Site:
    """The argument kinds of one call. `source` is the calling function's provenance; `fixed` the
    same with its parameters not counted as input (so "s" and "p:" can be told apart); `alone(p)`
    the same with only parameter `p` counted."""
    site: Site = []
    position = 0
    for arg in call.args:
        if arg.star:
            site.append(["*", "*"])
            continue
        slot: Union[int, str]
        if arg.keyword is not None:
            slot = arg.keyword.value
        else:
            slot = position
            position += 1
        if not source.is_input(arg.value):
            kind = "c"
        elif fixed.is_input(arg.value):
            kind = "s"
        else:
            names = {n.value for n in nodes.iter_expr(arg.value) if n.__class__ is cst.Name}
            candidates = sorted(set(params) & (names | source.ancestors(names)))
            # a parameter counts when the argument is input with it alone carrying input: `history`
            # filled with `history.append(response)` names `request` among its ancestors, but the
            # response is the world's answer, so only `history` counts
            used = [p for p in candidates if alone is None or alone(p).is_input(arg.value)] or candidates
            kind = "p:" + ",".join(used) if used else "s"
            if len(used) == 1 and passes_on(arg.value, used[0], source.scope):
                kind = "d:" + used[0]
        site.append([slot, kind])
    return site


def passes_on(expr: cst.CSTNode, param: str, scope, depth: int = 0) -> bool:
    """`expr` is parameter `param`'s value as the caller sent it, or converted or transformed
    (`limit`, `int(limit)`, `name.strip().lower()`, `n` for `n = int(limit)`): the callee's parameter
    then stands for that input. A value built from it (`f"SELECT ... {sort_by}"`), a field or a
    record reached through it (`ctx.client`, `db.get(key)`) stands for something else."""
    cls = expr.__class__
    if cls is cst.Name:
        bindings = scope.lookup(expr.value) if scope is not None else ()
        if expr.value == param and any(b.kind == "param" for b in bindings):
            return all(b.kind == "param" for b in bindings)
        return depth < 4 and bool(bindings) and all(
            b.kind == "assign" and b.value is not None and passes_on(b.value, param, scope, depth + 1) for b in bindings)
    if cls is cst.Call:
        func = expr.func
        name = nodes.last_name(func)
        if func.__class__ is cst.Attribute and name in VALUE_METHODS:
            return passes_on(func.value, param, scope, depth)
        positional = [a for a in expr.args if a.keyword is None and not a.star]
        return name in CONVERSIONS and len(positional) == 1 and passes_on(positional[0].value, param, scope, depth)
    return False


_CHAINS = frozenset({cst.Attribute, cst.Call, cst.Subscript})
_NAMED = frozenset({cst.Name, cst.Attribute})


def _may_resolve(func: cst.CSTNode, scope) -> bool:
    """False for a call that cannot reach a project function: a builtin container's, string's or
    file's method (`parts.append(x)`, `result.get(k)`) on a local value that is no instance the code
    made of a class. A method the project defines, called on a value of unknown class
    (`store = storage.load(cfg); store.acquire_lock("r")`), can: the project model reaches it by
    dispatch over the class hierarchy, and its arguments decide whether its parameters carry input."""
    if func.__class__ is cst.Attribute and dispatchable(func.attr.value):
        return True
    root = func
    while root.__class__ in _CHAINS:  # exact class tests: see `nodes`
        root = root.func if root.__class__ is cst.Call else root.value
    if root.__class__ is not cst.Name or root is func and not scope.bindings.get(func.value):
        return True  # a plain call of a name not bound in the function: a module function, maybe defined further down
    if root.value in ("self", "cls"):
        return True
    bindings = scope.lookup(root.value)
    if not bindings or any(b.kind in ("import", "def", "class") for b in bindings):
        return True
    # `budget = _Budget(limit); budget.decompress(data)`: an instance the code made of a class, whose
    # methods the project model reaches through the receiver's class
    return any(b.kind == "assign" and isinstance(b.value, cst.Call) and nodes.last_name(b.value.func).lstrip("_")[:1].isupper() for b in bindings)


# runners that call a function passed to them on another thread or process, or on a later turn of
# the event loop, or at exit: what it raises is printed by the runtime (or handed to the loop's
# exception handler) and never comes back to the function that passed it
DETACHED_RUNNERS = frozenset({
    "Thread", "Process", "Timer", "start_new_thread", "call_soon", "call_soon_threadsafe", "call_later",
    "call_at", "add_done_callback", "add_reader", "add_writer", "add_signal_handler"})
DETACHED_DOTTED = frozenset({"atexit.register", "weakref.finalize"})


def runs_detached(runner: str) -> bool:
    """A call (by its dotted name as written) that runs the function passed to it detached from the
    caller: `threading.Thread(target=f)`, `multiprocessing.Process(target=f)`, `loop.call_soon(f)`,
    `future.add_done_callback(f)`, `atexit.register(f)`. `asyncio.to_thread(f)`, `pool.submit(f)`
    and `run_in_executor(None, f)` are not: their future hands the raise back to whoever awaits it."""
    return runner.rsplit(".", 1)[-1] in DETACHED_RUNNERS or runner in DETACHED_DOTTED


def classify_calls(calls: Sequence[Tuple[str, cst.Call]], scope, params: Sequence[str]) -> Tuple[dict, List[List[str]]]:
    """(`{callee: [site, ...]}`, `[name, callee]` for each name passed as an argument) for the calls
    one function makes. A function passed on as a value (`asyncio.to_thread(load, x)`,
    `pool.submit(self.job, x)`, `sorted(xs, key=rank)`) is called by the code it is passed to, on
    behalf of this function, with arguments errlint does not see."""
    source = Provenance(scope)
    fixed = Provenance(scope, internal=True)
    models: dict = {}

    def alone(param: str) -> Provenance:
        found = models.get(param)
        if found is None:
            found = models[param] = Provenance(scope, internal=set(params) - {param})
        return found

    out: dict = {}
    refs = set()
    local = scope.bindings
    for target, call in calls:
        if may_be_project_call(target) and _may_resolve(call.func, scope):
            out.setdefault(target, []).append(classify_call(call, source, fixed, params, alone))
        for arg in call.args:
            if arg.value.__class__ in _NAMED:
                name = nodes.dotted(arg.value)
                head = name.split(".", 1)[0] if name else ""
                nested = name == head and head in local and all(b.kind == "def" for b in local[head])  # `Thread(target=work)`
                if name and (head not in local or nested or head in ("self", "cls") and "." in name) and may_be_project_call(name):
                    refs.add((name, target))
    return out, [list(ref) for ref in sorted(refs)]
