"""What a statement's shape tells the walk, read without walking into it.

For one statement or block: the exit status a statement ends the process with, the runs of
consecutive output lines that make one message, `if x == "a": return` chains whose values a later
statement falls through past, the values a `match` case names, whether an `if` test guards a
developer-only (debug) branch, and whether an except handler reports anything before it exits.
"""
from __future__ import annotations

import re
from typing import FrozenSet, List, Optional, Sequence, TYPE_CHECKING, Tuple

import libcst as cst

from . import nodes

if TYPE_CHECKING:
    from .walker import Walker

DEBUG_NAME = re.compile(r"^(__debug__|debug|verbose|verbosity|trace|dev_mode|show_traceback|show_tracebacks)$|_debug$|^debug_", re.I)
# calls that tell the user something: a handler that makes one before exiting is not silent, even
# when errlint cannot tell which channel the output goes to
OUTPUT_CALL = re.compile(r"print|echo|log|write|error|warn|exception|critical|fail|abort|report|show|display|notify|emit", re.I)


def is_debug_test(test: cst.CSTNode) -> bool:
    """`if debug:`, `if self.verbose`, `if __debug__`, `if settings.DEBUG`, `if not quiet and verbose`,
    `if os.environ.get("DEBUG")`: a developer-only branch. Only the test's shallow shape is read."""
    stack = [test]
    while stack:
        node = stack.pop()
        kind = node.__class__  # exact class tests: see `nodes`
        if kind is cst.Name:
            if DEBUG_NAME.match(node.value):
                return True
        elif kind is cst.Attribute:
            if DEBUG_NAME.match(node.attr.value):
                return True
        elif kind is cst.BooleanOperation:
            stack.extend((node.left, node.right))
        elif kind is cst.UnaryOperation:
            stack.append(node.expression)
        elif kind is cst.Call:
            args = nodes.positional_args(node)
            value = nodes.string_value(args[0]) if args else None
            if value and DEBUG_NAME.match(value):
                return True
        elif kind is cst.Comparison:
            stack.append(node.left)
    return False


# exceptions that report an interruption the user made or asked for: Ctrl-C, a reader that closed the
# pipe (`tool | head`); a handler that exits quietly on them follows the shell's convention
USER_INTERRUPTIONS = frozenset({"KeyboardInterrupt", "BrokenPipeError"})
STATUS_EXIT_CALLS = frozenset({"sys.exit", "exit", "quit", "os._exit"})  # calls that end the process with their argument
EXIT_FUNCTIONS = STATUS_EXIT_CALLS | {"SystemExit", "builtins.exit"}  # what `exit_status_functions` reads, as written


def exit_status_functions(body: Sequence[cst.CSTNode]) -> FrozenSet[str]:
    """The module's functions whose return value is its exit status: `sys.exit(main())`, `raise
    SystemExit(main(argv))`, at the top level or in the `if __name__ == "__main__":` block (a
    `[project.scripts]` wrapper makes the same call)."""
    out = set()
    stack = list(body)
    while stack:
        stmt = stack.pop()
        if stmt.__class__ is cst.If:
            stack.extend(_suite(stmt.body))
            continue
        for small in stmt.body if stmt.__class__ is cst.SimpleStatementLine else ():
            call = small.value if small.__class__ is cst.Expr else small.exc if small.__class__ is cst.Raise else None
            if call.__class__ is cst.Call and nodes.dotted(call.func) in EXIT_FUNCTIONS and call.args:
                inner = call.args[0].value
                if inner.__class__ is cst.Call and inner.func.__class__ is cst.Name:
                    out.add(inner.func.value)
    if out:
        out |= _dispatched_commands(body, out)
    return frozenset(out)


def _dispatched_commands(body: Sequence[cst.CSTNode], mains: set) -> set:
    """The argparse sub-command handlers whose return value a status-returning `main` returns:
    `return args.func(args)` in `main`, with `sub.set_defaults(func=cmd_sync)` in the module."""
    attrs = set()
    for stmt in body:
        if stmt.__class__ is cst.FunctionDef and stmt.name.value in mains:
            for node in nodes.iter_expr(stmt, stop=(cst.Lambda, cst.FunctionDef, cst.ClassDef)):
                value = node.value if node.__class__ is cst.Return else None
                if value.__class__ is cst.Call and value.func.__class__ is cst.Attribute:
                    attrs.add(value.func.attr.value)
    if not attrs:
        return set()
    found = set()
    for stmt in body:
        for node in nodes.iter_expr(stmt):
            if node.__class__ is cst.Call and node.func.__class__ is cst.Attribute and node.func.attr.value == "set_defaults":
                for arg in node.args:
                    if arg.keyword is not None and arg.keyword.value in attrs and arg.value.__class__ is cst.Name:
                        found.add(arg.value.value)
    return found


# sysexits.h, as `os.EX_*` names it (POSIX only, so not read from `os` at run time)
SYSEXITS = {"EX_OK": 0, "EX_USAGE": 64, "EX_DATAERR": 65, "EX_NOINPUT": 66, "EX_NOUSER": 67, "EX_NOHOST": 68,
            "EX_UNAVAILABLE": 69, "EX_SOFTWARE": 70, "EX_OSERR": 71, "EX_OSFILE": 72, "EX_CANTCREAT": 73,
            "EX_IOERR": 74, "EX_TEMPFAIL": 75, "EX_PROTOCOL": 76, "EX_NOPERM": 77, "EX_CONFIG": 78}


def status_value(arg: cst.CSTNode, walker: Walker) -> int:
    """The exit status `arg` spells (-1 when it is computed): a literal, a name bound once to one
    (`EXIT_USAGE = 2`), a sysexits constant (`os.EX_CONFIG`) or an errno (`errno.ENOENT`, never 0)."""
    value = nodes.int_value(arg)
    if value is not None:
        return value
    if arg.__class__ is cst.Name:
        bound = walker.scope.value(arg.value)
        value = nodes.int_value(bound) if bound is not None else None
        if value is not None:
            return value
    name = walker.qualify(arg)  # `EX_USAGE` imported from os, too
    module, _, last = name.rpartition(".")
    if module == "os" and last in SYSEXITS:
        return SYSEXITS[last]
    if module == "errno" and last.startswith("E"):
        return 1
    return -1


def exit_status(stmt: cst.CSTNode, walker: Walker) -> Optional[int]:
    """The exit status a statement ends the process with (-1 when not a literal), else None: an exit
    call, `raise SystemExit(...)`, click's `ctx.exit(n)`, or a `return n` from a function whose
    value is the exit status (`exit_status_functions`)."""
    call: Optional[cst.CSTNode] = None
    kind = stmt.__class__  # exact class tests: see `nodes`
    if kind is cst.Return:
        func = walker.func
        if func is None or func.parent is not None or func.name not in walker.exit_functions or stmt.value is None:
            return None
        return status_value(stmt.value, walker)
    if kind is cst.Expr and stmt.value.__class__ is cst.Call:
        call = stmt.value
        name = walker.qualify(call.func)
        if name not in STATUS_EXIT_CALLS and not (
                call.func.__class__ is cst.Attribute and call.func.attr.value == "exit" and walker._is_click_context(call.func.value)):
            return None
    elif kind is cst.Raise and isinstance(stmt.exc, (cst.Call, cst.Name, cst.Attribute)):
        target = stmt.exc.func if isinstance(stmt.exc, cst.Call) else stmt.exc
        name = walker.qualify(target)
        last = name.rsplit(".", 1)[-1]
        if last not in ("SystemExit", "Exit"):
            return None
        call = stmt.exc if isinstance(stmt.exc, cst.Call) else None
        if call is None:
            return 0
    else:
        return None
    arg = nodes.call_arg(call, 0, "code", "status") if isinstance(call, cst.Call) else None
    if arg is None:
        return 0
    if nodes.string_value(arg) is not None or isinstance(arg, cst.FormattedString):
        return 1
    return status_value(arg, walker)


OUTPUT_NAMES = {"print", "echo", "secho", "write", "writelines", "error", "warning", "warn", "info", "critical", "exception", "fatal", "log", "debug", "exit", "fail"}


def _is_output(stmt: cst.CSTNode) -> bool:
    """A statement that only prints or logs a line (`print(...)`, `click.echo(...)`, `log.error(...)`,
    `sys.exit("...")` with a message)."""
    if not (stmt.__class__ is cst.Expr and stmt.value.__class__ is cst.Call):  # exact class tests: see `nodes`
        return False
    call = stmt.value
    name = nodes.last_name(call.func)
    if name not in OUTPUT_NAMES:
        return False
    if name == "exit":
        arg = nodes.call_arg(call, 0, "code", "status")
        return arg is not None and nodes.int_value(arg) is None and not isinstance(arg, cst.Name)
    return bool(call.args)


def _suite(block: Optional[cst.CSTNode]) -> Sequence[cst.CSTNode]:
    """The statements of an indented block or a one-line suite (none for `None`)."""
    return block.body if block is not None else ()


def _inner_statements(stmt: cst.CSTNode) -> List[cst.CSTNode]:
    """The statements directly inside a compound statement: its body, `else`/`elif`, handlers and
    `finally`."""
    cls = stmt.__class__  # exact class tests: see `nodes`
    out: List[cst.CSTNode] = list(_suite(stmt.body))
    if cls is cst.With:
        return out
    if cls is cst.Try:
        for handler in stmt.handlers:
            out.extend(_suite(handler.body))
        if stmt.finalbody is not None:
            out.extend(_suite(stmt.finalbody.body))
    orelse = stmt.orelse  # For, While, If, Try
    if orelse is not None and orelse.__class__ is cst.If:
        out.append(orelse)  # an `elif`
    elif orelse is not None:
        out.extend(_suite(orelse.body))
    return out


def prints_later(flat: Sequence[cst.CSTNode], index: int, limit: int = 400) -> bool:
    """Whether a statement after `flat[index]` in its block prints or logs a line, itself or inside a
    loop, `if`, `with` or `try` (the lines a header such as "Errors from pip install:" introduces).
    Looks at no more than `limit` statements."""
    todo = list(reversed(flat[index + 1:]))
    seen = 0
    while todo and seen < limit:
        stmt = todo.pop()
        seen += 1
        if stmt.__class__ is cst.SimpleStatementLine:  # exact class tests: see `nodes`
            todo.extend(reversed(stmt.body))
        elif _is_output(stmt):
            return True
        elif stmt.__class__ in _COMPOUND:
            todo.extend(reversed(_inner_statements(stmt)))
    return False


_COMPOUND = frozenset({cst.For, cst.While, cst.If, cst.With, cst.Try})
# output sinks whose line may be a header for the lines printed after it
HEADER_SINKS = frozenset({"stderr", "stdout", "log", "warn"})


def ends_with_colon(expr: cst.CSTNode) -> bool:
    """The literal text of a message expression ends with a colon ("Errors from pip install:\n")."""
    cls = expr.__class__  # exact class tests: see `nodes`
    if cls is cst.ConcatenatedString:
        return ends_with_colon(expr.right)
    if cls is cst.SimpleString:
        value = expr.evaluated_value
        return isinstance(value, str) and value.rstrip().endswith(":")
    if cls is cst.FormattedString and expr.parts and expr.parts[-1].__class__ is cst.FormattedStringText:
        return expr.parts[-1].value.replace("\\n", "\n").rstrip().endswith(":")
    return False


def output_runs(flat: Sequence[cst.CSTNode]) -> List[Optional[Tuple[int, int, int]]]:
    """For each statement of a block: (id of the run's first statement, position, run size) when it
    belongs to a run of consecutive output lines, else None. The lines of one run are one message
    ("Error: no config" then "Run `tool init` to create one.")."""
    out: List[Optional[Tuple[int, int, int]]] = [None] * len(flat)
    i = 0
    while i < len(flat):
        if not _is_output(flat[i]):
            i += 1
            continue
        j = i
        while j < len(flat) and _is_output(flat[j]):
            j += 1
        for k in range(i, j):
            out[k] = (id(flat[i]), k - i, j - i)
        i = j
    return out


def equality_chain(stmt: cst.CSTNode) -> Optional[Tuple[str, List[str]]]:
    """`if x == "a": return ...` (or `x in ("a", "b")`) whose body leaves: (x, ["a"]); else None."""
    if stmt.__class__ is not cst.If or stmt.orelse is not None and not isinstance(stmt.orelse, cst.If):  # exact class test: see `nodes`
        return None
    subject = ""
    values: List[str] = []
    node: Optional[cst.CSTNode] = stmt
    while isinstance(node, cst.If):
        test = node.test
        if isinstance(test, cst.BooleanOperation):
            test = test.left
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
            return None
        op = test.comparisons[0].operator
        right = test.comparisons[0].comparator
        left_text = nodes.dotted(test.left)
        if not left_text:
            return None
        if subject and left_text != subject:
            return None
        subject = left_text
        if isinstance(op, cst.Equal):
            value = nodes.string_value(right)
            if value is None:
                value = nodes.number_text(right)
            if value is None:
                return None
            values.append(value)
        elif isinstance(op, cst.In):
            listed = nodes.literal_values(right)
            if listed is None:
                return None
            values.extend(listed)
        else:
            return None
        if not _leaves(node.body):
            return None
        node = node.orelse
    return (subject, values) if values else None


def _leaves(body: cst.CSTNode) -> bool:
    stmts = body.body if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)) else []
    if not stmts:
        return False
    last = stmts[-1]
    smalls = last.body if isinstance(last, cst.SimpleStatementLine) else [last]
    if isinstance(last, cst.SimpleStatementSuite):
        smalls = last.body
    return bool(smalls) and isinstance(smalls[-1], (cst.Return, cst.Raise, cst.Continue, cst.Break))


def match_values(pattern: cst.CSTNode) -> List[str]:
    if isinstance(pattern, cst.MatchValue):
        value = nodes.string_value(pattern.value)
        if value is None:
            value = nodes.number_text(pattern.value)
        return [value] if value is not None else []
    if isinstance(pattern, cst.MatchOr):
        out: List[str] = []
        for el in pattern.patterns:
            out.extend(match_values(el.pattern))
        return out
    return []


def reports_something(handler: cst.CSTNode) -> bool:
    """True when the handler body calls an output-like function (print, echo, log, write, ...)."""
    for node in nodes.iter_expr(handler.body, stop=(cst.Lambda, cst.FunctionDef, cst.ClassDef)):
        if isinstance(node, cst.Call) and OUTPUT_CALL.search(nodes.last_name(node.func)):
            return True
    return False


# an interactive debugger session on the terminal (`--pdb`): what is printed right before it is for
# the person at it
DEBUGGER_CALLS = re.compile(r"^(?:(?:pdb|ipdb|pudb|pdbpp)\.(?:post_mortem|pm|set_trace|run|runcall)|breakpoint|builtins\.breakpoint)$")


def debugger_follows(flat: Sequence[cst.CSTNode], index: int, qualify, limit: int = 3) -> bool:
    """Whether one of the `limit` statements after `flat[index]` in its block starts a debugger
    session (`pdb.post_mortem(...)`, `breakpoint()`)."""
    for stmt in flat[index + 1:index + 1 + limit]:
        for node in nodes.iter_expr(stmt, stop=(cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            if node.__class__ is cst.Call and DEBUGGER_CALLS.match(qualify(node.func) or ""):  # exact class test: see `nodes`
                return True
    return False


TRACEBACK_CALLS = frozenset({"traceback.print_exc", "traceback.print_exception", "traceback.format_exc",
                             "traceback.format_exception", "traceback.format_tb", "traceback.print_tb"})


def traceback_follows(flat: Sequence[cst.CSTNode], index: int, qualify) -> bool:
    """Whether the statement right after `flat[index]` prints or logs the traceback
    (`traceback.print_exc()`, `logger.error("%s", traceback.format_exc())`): the line before it is
    the traceback's heading, as with `logger.exception` or `exc_info=True`."""
    for stmt in flat[index + 1:index + 2]:
        if isinstance(stmt, cst.BaseCompoundStatement):
            return False
        for node in nodes.iter_expr(stmt, stop=(cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            if node.__class__ is cst.Call and qualify(node.func) in TRACEBACK_CALLS:
                return True
    return False


FORK_CALLS = frozenset({"os.fork", "os.forkpty"})


def forked_child_exit(stmt: cst.CSTNode, function: cst.FunctionDef, qualify) -> bool:
    """`os._exit(1)` after an `os.fork()` of its function (in source order): the documented use of
    `os._exit`, a forked process (a daemon whose stdio is detached) leaving at once. No person
    reads its output."""
    if not (stmt.__class__ is cst.Expr and qualify(stmt.value.func) == "os._exit"):  # exact class tests: see `nodes`
        return False
    for node in nodes.iter_expr(function.body):
        if node is stmt:
            return False
        if node.__class__ is cst.Call and qualify(node.func) in FORK_CALLS:
            return True
    return False



# what a statement or expression may be made of when it cannot raise: names, literals and displays of them
_INERT_EXPRESSIONS = (cst.Name, cst.SimpleString, cst.Integer, cst.Float, cst.Imaginary, cst.ConcatenatedString,
                      cst.Tuple, cst.List, cst.Set, cst.Dict, cst.Element, cst.DictElement, cst.Comma,
                      cst.LeftParen, cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket,
                      cst.LeftCurlyBrace, cst.RightCurlyBrace, cst.StarredElement)
_INERT_STATEMENTS = (cst.SimpleStatementLine, cst.Return, cst.Pass, cst.Assign, cst.AssignTarget, cst.AnnAssign,
                     cst.Annotation, cst.Expr, cst.Newline, cst.TrailingWhitespace, cst.EmptyLine, cst.Comment,
                     cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.AssignEqual, cst.Semicolon,
                     cst.IndentedBlock, cst.SimpleStatementSuite, cst.MaybeSentinel)
_INERT = frozenset(_INERT_EXPRESSIONS + _INERT_STATEMENTS)


def cannot_raise(body: cst.CSTNode) -> bool:
    """A `try` body that cannot raise: only `return`s, assignments and `pass` of names, literals and
    tuples, lists, sets and dicts of them (`try: return (statement, params)`). Its handlers never
    run, so what they say reaches nobody. A call, attribute, subscript, operator, `await` or `yield`
    may raise."""
    for node in nodes.iter_expr(body):
        if isinstance(node, cst.AssignTarget) and not isinstance(node.target, cst.Name):
            return False  # `self.x = ...`, `d[k] = ...` call a setter
        if node.__class__ not in _INERT:  # exact class test: see `nodes`
            return False
    return True
