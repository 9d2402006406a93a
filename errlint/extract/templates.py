"""String expressions -> `Template`s: literal text plus typed placeholders (the placeholder kinds in `model`).

Handles literals, implicit concatenation, f-strings (PEP 701 included), `%` formatting, `.format`,
`+`, `sep.join([...])` of a literal list, `textwrap.dedent`, gettext wrappers, names bound once in the
same scope (EM101-style `msg = ...; raise X(msg)`), entries of a module table (`HELP["quota"]`),
module constants, and fallbacks (`x or "text"`, `d.get(k, "text")`, `a if c else b`), which give one
template per alternative ("variants"). This module holds `TemplateBuilder`'s core: which expression
forms give which templates. Placeholders are classified by what they may contain in
`placeholder_kinds` (with the name tests of `value_names`); joins and `%`/`.format` fields are in
`string_formats`.
"""
from __future__ import annotations

import textwrap
from dataclasses import replace
from typing import Callable, List, Optional, Sequence, Set, Tuple

import libcst as cst

from ..model import (
    ENV_DUMP,
    EXCEPTION,
    SCHEMA,
    TRACEBACK,
    UNBOUNDED,
    UNKNOWN,
    VALIDATION,
    Part,
    Piece,
    Template,
)
from . import nodes
from .placeholder_kinds import MAX_DEPTH, MAX_VARIANTS, PlaceholderKinds
from .conditional_appends import Addition, Choice
from .scope import Scope
from .string_formats import as_fallback, format_template, join, merge_text, percent_template
from .value_names import PROSE_NAME, is_secret_name, relayed_error, snake

NOTHING = Template(())  # what an `if` appends when none of its branches runs
LINE_SEPARATOR = cst.SimpleString('"\\n"')  # `os.linesep`, as a literal the templates can join with


def _dedented(template: Template) -> Template:
    """`textwrap.dedent` of a literal text: the words without the source's indentation (a template
    with placeholders keeps its pieces; the indentation is a few tokens of its measure)."""
    if template.placeholders or len(template.pieces) != 1 or not template.complete:
        return template
    text = textwrap.dedent(template.pieces[0].text)
    return replace(template, parts=(text,), pieces=(replace(template.pieces[0], text=text),))


GETTEXT = {"_", "gettext", "gettext_lazy", "ugettext", "ugettext_lazy", "gettext_noop", "N_", "_lazy", "lazy_gettext"}
GETTEXT_SECOND = {"pgettext", "pgettext_lazy", "npgettext"}
GETTEXT_FIRST_OF_PLURAL = {"ngettext", "ngettext_lazy", "ungettext"}


class TemplateBuilder(PlaceholderKinds):
    """Builds templates for expressions in one scope.

    `qualify(node)` maps a Name/Attribute to its imported dotted name ("" when it is not a name);
    `scope` resolves local and module names.
    """

    def __init__(self, scope: Scope, qualify: Callable[[cst.CSTNode], str], code: Callable[[cst.CSTNode], str],
                 owner: Optional[cst.ClassDef] = None, function=None, module: Optional[cst.Module] = None):
        """`owner`: the class whose method the expressions are in (what its `self.x` attributes hold);
        `function`: the `FunctionInfo` they are in; `module`: the file's module."""
        self.scope = scope
        self.qualify = qualify
        self.code = code
        self.owner = owner
        self.function = function
        self.module = module
        self._active: Set[str] = set()

    # ------------------------------------------------------------------ templates
    def build(self, expr: Optional[cst.CSTNode], depth: int = 0) -> List[Template]:
        """All templates `expr` may produce (at most MAX_VARIANTS), opaque ones included."""
        if expr is None:
            return []
        variants = self._variants(expr, depth, top=True)
        return variants[:MAX_VARIANTS]

    def _variants(self, expr: cst.CSTNode, depth: int, top: bool = False) -> List[Template]:
        if depth > MAX_DEPTH:
            return [self._opaque(expr, top, depth)]
        if isinstance(expr, cst.SimpleString):
            value = nodes.string_value(expr)
            if value is None:
                value = nodes.bytes_text(expr)
            if value is None:
                return [self._opaque(expr, top, depth)]
            return [Template((value,), (Piece(value, expr, "plain"),), True, expr, "plain")]
        if isinstance(expr, cst.ConcatenatedString):
            return self._concat(self._flatten_concat(expr), depth)
        if isinstance(expr, cst.FormattedString):
            return self._fstring(expr, depth)
        if isinstance(expr, cst.BinaryOperation):
            if isinstance(expr.operator, cst.Add):
                return self._concat(self._flatten_add(expr), depth, strict=True)
            if isinstance(expr.operator, cst.Modulo):
                fmt = self._variants(expr.left, depth + 1)
                if fmt and fmt[0].complete and fmt[0].pieces and not fmt[0].placeholders:
                    return [percent_template(fmt[0], self._percent_args(expr.right), self)]
        if isinstance(expr, cst.Call):
            built = self._call(expr, depth)
            if built is not None:
                return built
        if isinstance(expr, cst.Name):
            resolved = self._resolve_name(expr, depth)
            if resolved is not None:
                return resolved
        if isinstance(expr, cst.Subscript):
            entry = self._table_entry(expr)
            if entry is not None:
                return self._variants(entry, depth + 1, top)
        if isinstance(expr, cst.Attribute):
            text = self._class_attribute(expr)
            if text is not None:
                return self._variants(text, depth + 1, top)
        if isinstance(expr, cst.IfExp):
            return (self._variants(expr.body, depth + 1, top) + self._variants(expr.orelse, depth + 1, top))[:MAX_VARIANTS]
        if isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.Or):
            if relayed_error(expr.left):  # `outcome.get("error") or "Unknown error"`: the default is a fallback
                return (self._variants(expr.left, depth + 1, top) + [as_fallback(t) for t in self._variants(expr.right, depth + 1, top)])[:MAX_VARIANTS]
            return (self._variants(expr.left, depth + 1, top) + self._variants(expr.right, depth + 1, top))[:MAX_VARIANTS]
        return [self._opaque(expr, top, depth)]

    def _opaque(self, expr: cst.CSTNode, top: bool, depth: int = 0) -> Template:
        """A template that is one placeholder; incomplete when it may carry prose we cannot see."""
        holder = self.placeholder(expr, depth=depth)
        complete = not top and not PROSE_NAME.search(snake(nodes.last_name(expr) or "x"))
        if top and holder.kinds & {EXCEPTION, VALIDATION, TRACEBACK, SCHEMA, UNBOUNDED, ENV_DUMP}:
            complete = True  # we know what it is: the exception's own text, a dump, ...
        return Template((holder,), (), complete)

    def _flatten_concat(self, expr: cst.ConcatenatedString) -> List[cst.CSTNode]:
        out: List[cst.CSTNode] = []
        stack: List[cst.CSTNode] = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.ConcatenatedString):
                stack.append(node.right)
                stack.append(node.left)
            else:
                out.append(node)
        return out

    def _flatten_add(self, expr: cst.BinaryOperation) -> List[cst.CSTNode]:
        out: List[cst.CSTNode] = []
        stack: List[cst.CSTNode] = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add) and (node is expr or not node.lpar):
                stack.append(node.right)
                stack.append(node.left)
            else:
                out.append(node)
        return out

    def _concat(self, operands: Sequence[cst.CSTNode], depth: int, strict: bool = False) -> List[Template]:
        """Join the templates of `operands`; with `strict`, require at least one string operand."""
        results: List[Template] = [Template((), (), True)]
        saw_string = False
        for operand in operands:
            if isinstance(operand, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
                saw_string = True
                options = self._variants(operand, depth + 1)
            else:
                options = self._variants(operand, depth + 1)
                if any(t.pieces for t in options):
                    saw_string = True
            results = [join(a, b) for a in results for b in options][:MAX_VARIANTS]
        if strict and not saw_string:
            return [Template((self.placeholder(operands[0]),), (), False)]
        return results

    def _fstring(self, expr: cst.FormattedString, depth: int) -> List[Template]:
        """One template per combination of the alternatives of names inlined into the f-string."""
        variants: List[Tuple[List[Part], List[Piece], bool, bool]] = [([], [], True, False)]
        prefix = expr.prefix
        for part in expr.parts:
            if isinstance(part, cst.FormattedStringText):
                text = nodes.fstring_text(part, prefix, expr.quote)
                piece = Piece(text, part, "f", expr)
                variants = [(parts + [text], pieces + [piece], ok, fb) for parts, pieces, ok, fb in variants]
                continue
            if not isinstance(part, cst.FormattedStringExpression):
                continue
            inner = part.expression
            conversion = part.conversion or ""
            spec = self.code(cst.FormattedString(parts=part.format_spec)) if part.format_spec else ""
            inline = None
            if isinstance(inner, cst.Name) and not conversion and not spec and part.equal is None and not is_secret_name(inner.value):
                inline = self._resolve_name(inner, depth + 1)
            if inline and any(t.pieces for t in inline) and all(t.complete for t in inline):
                variants = [
                    (parts + list(t.parts), pieces + list(t.pieces), ok and t.complete, fb or t.fallback)
                    for parts, pieces, ok, fb in variants
                    for t in inline
                ][:MAX_VARIANTS]
                continue
            holder = self.placeholder(inner, conversion=conversion, spec=spec, debug=part.equal is not None, depth=depth + 1)
            if not conversion and isinstance(inner, (cst.Name, cst.Attribute)) and PROSE_NAME.search(snake(nodes.last_name(inner))) and holder.kinds <= {UNKNOWN}:
                variants = [(parts, pieces, False, fb) for parts, pieces, _, fb in variants]  # `{message}`: prose we cannot see
            variants = [(parts + [holder], pieces, ok, fb) for parts, pieces, ok, fb in variants]
        return [Template(tuple(merge_text(parts)), tuple(pieces), ok, expr, "f", fb) for parts, pieces, ok, fb in variants]

    def _json_literal(self, node: cst.CSTNode, depth: int) -> Template:
        """`json.dumps({...})` of a literal: the JSON text with each value's own template inside."""
        if depth > MAX_DEPTH:
            return Template((self.placeholder(node),), (), True)
        if isinstance(node, cst.Dict):
            out = Template(("{",), (), True)
            for i, el in enumerate(node.elements):
                if not isinstance(el, cst.DictElement):
                    out = join(out, Template((self.placeholder(el.value),), (), True))
                    continue
                key = nodes.string_value(el.key)
                label = f'"{key}": ' if key is not None else ""
                out = join(out, Template(((", " if i else "") + label,), (), True))
                out = join(out, self._json_value(el.value, depth))
            return join(out, Template(("}",), (), True))
        out = Template(("[",), (), True)
        for i, el in enumerate(node.elements):
            if i:
                out = join(out, Template((", ",), (), True))
            out = join(out, self._json_value(el.value, depth))
        return join(out, Template(("]",), (), True))

    def _json_value(self, value: cst.CSTNode, depth: int) -> Template:
        if isinstance(value, (cst.Dict, cst.List)):
            return self._json_literal(value, depth + 1)
        if isinstance(value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
            inner = self._variants(value, depth + 1)[0]
            return join(join(Template(('"',), (), True), inner), Template(('"',), (), True))
        return Template((self.placeholder(value),), (), True)

    def _percent_args(self, right: cst.CSTNode) -> object:
        if isinstance(right, cst.Tuple):
            return [el.value for el in right.elements if not isinstance(el, cst.StarredElement)]
        if isinstance(right, cst.Dict):
            return nodes.dict_fields(right)
        return [right]

    def _call(self, call: cst.Call, depth: int) -> Optional[List[Template]]:
        func = call.func
        name = nodes.dotted(func)
        short = name.rsplit(".", 1)[-1]
        args = nodes.positional_args(call)
        if isinstance(func, cst.Name) and not call.args:
            text = self._text_helper(func.value)
            if text is not None:  # `raise ValueError(_tag_rule())`: the text the helper returns
                return self._variants(text, depth + 1)
        if short in GETTEXT and args:
            return self._variants(args[0], depth + 1)
        if short in GETTEXT_FIRST_OF_PLURAL and args:
            return self._variants(args[0], depth + 1)
        if short in GETTEXT_SECOND and len(args) > 1:
            return self._variants(args[1], depth + 1)
        if isinstance(func, cst.Attribute) and func.attr.value == "format":
            base = self._variants(func.value, depth + 1) if isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString, cst.Name)) else []
            if base and base[0].pieces and not base[0].placeholders:
                return [format_template(base[0], call, self)]
        if (name in ("json.dumps", "dumps") or short == "dumps") and args and isinstance(args[0], (cst.Dict, cst.List)):
            return [self._json_literal(args[0], depth + 1)]
        if name == "str" and len(args) == 1 and isinstance(args[0], (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
            return self._variants(args[0], depth + 1)
        if relayed_error(call):
            main = Template((self.placeholder(call, depth=depth + 1),), (), True)
            return [main] + [as_fallback(t) for t in self._variants(args[1], depth + 1)] if len(args) >= 2 else [main]
        if (isinstance(func, cst.Attribute) and func.attr.value in ("get", "getenv", "pop", "setdefault") or name in ("os.getenv", "getenv")) and len(args) >= 2:
            fallback = self._variants(args[1], depth + 1)
            if any(t.pieces and t.literal.strip() for t in fallback):  # an empty default is not a message
                return [Template((self.placeholder(call),), (), True)] + fallback
        if isinstance(func, cst.Attribute) and func.attr.value == "join" and len(call.args) == 1:
            separator = func.value if isinstance(func.value, cst.SimpleString) else LINE_SEPARATOR if self.qualify(func.value) == "os.linesep" else None
            lines = self._literal_lines(args[0])
            if separator is not None and lines:
                # `"\n".join(["line one", f"line {n}"])`, `os.linesep.join(HELP_LINES)`: the lines with the separator between them
                operands: List[cst.CSTNode] = []
                for line in lines:
                    operands += [separator, line] if operands else [line]
                return self._concat(operands, depth + 1)
        if isinstance(func, cst.Attribute) and func.attr.value == "get" and len(call.args) == 1 and isinstance(func.value, cst.Name):
            entry = self._entry(func.value, args[0])
            if entry is not None:  # `ERRORS.get("too_big")`: the table's text for that key
                return self._variants(entry, depth + 1)
        if short in ("dedent", "cleandoc") and name in ("textwrap.dedent", "dedent", "inspect.cleandoc", "cleandoc") and len(args) == 1:
            return [_dedented(t) for t in self._variants(args[0], depth + 1)]
        if isinstance(func, cst.Attribute) and func.attr.value in ("strip", "rstrip", "lstrip", "capitalize", "upper", "lower", "title") and not args:
            return self._variants(func.value, depth + 1)
        if isinstance(func, cst.Attribute) and func.attr.value in ("encode", "decode") and len(call.args) <= 2 and isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return self._variants(func.value, depth + 1)  # `"text".encode()`: the same words, as bytes
        return None

    def _text_helper(self, name: str) -> Optional[cst.CSTNode]:
        """The string a function of the file returns when it takes no arguments and only returns a
        string (`def _tag_rule(): return f"... at most {MAX_TAG_LEN} characters."`)."""
        found = [b for b in self.scope.lookup(name) if b.kind == "def"]
        func = found[0].value if len(found) == 1 else None
        params = func.params if isinstance(func, cst.FunctionDef) else None
        if params is None or params.params or params.posonly_params or params.kwonly_params \
                or isinstance(params.star_arg, (cst.Param, cst.ParamStar)) or params.star_kwarg is not None:
            return None
        body = [s for s in (func.body.body if isinstance(func.body, cst.IndentedBlock) else func.body.body)
                if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Expr) and isinstance(s.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))]
        if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or len(body[0].body) != 1 or not isinstance(body[0].body[0], cst.Return):
            return None
        value = body[0].body[0].value
        return value if isinstance(value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)) else None

    def _addition_variants(self, extra: Addition, depth: int) -> List[Template]:
        """The texts one `+=` addition can append: an expression's variants, or for a `Choice` each
        branch's (appended in order), then nothing when no branch need run."""
        if not isinstance(extra, Choice):
            return self._variants(extra, depth)
        out: List[Template] = []
        for branch in extra.branches:
            texts = [NOTHING]
            for item in branch:
                texts = [join(a, b) for a in texts for b in self._addition_variants(item, depth + 1)][:MAX_VARIANTS]
            out.extend(texts)
        return out[:MAX_VARIANTS] if extra.exhaustive else out[:MAX_VARIANTS - 1] + [NOTHING]

    def _table_entry(self, expr: cst.Subscript) -> Optional[cst.CSTNode]:
        """The text a module table holds under a literal key: `HELP["quota"]` with `HELP = {"quota":
        "..."}` bound once."""
        if not isinstance(expr.value, cst.Name) or len(expr.slice) != 1 or not isinstance(expr.slice[0].slice, cst.Index):
            return None
        return self._entry(expr.value, expr.slice[0].slice.value)

    def _entry(self, table_name: cst.Name, key_node: cst.CSTNode) -> Optional[cst.CSTNode]:
        """The value a table bound once (`{...}` or `dict(k=...)`) holds under a key written as a
        literal or a name bound once to one (`key = "quota"; HELP[key]`)."""
        key = nodes.string_value(key_node)
        if key is None and isinstance(key_node, cst.Name):
            key = nodes.string_value(self.scope.value(key_node.value))
        if key is None or self.scope.mutated(table_name.value):
            return None
        table = self.scope.value(table_name.value)
        if isinstance(table, cst.Dict):
            return nodes.dict_fields(table).get(key)
        if isinstance(table, cst.Call) and nodes.dotted(table.func) == "dict":
            return nodes.keyword_arg(table, key)
        return None

    def _class_attribute(self, expr: cst.Attribute) -> Optional[cst.CSTNode]:
        """The text a class of the module holds in an attribute (`Errors.RATE` with `class Errors:
        RATE = "..."`), or an Enum member's value (`Msg.QUOTA.value`); None for anything else."""
        owner = expr.value
        enum_value = expr.attr.value == "value"
        if enum_value:
            if not isinstance(owner, cst.Attribute):
                return None
            expr, owner = owner, owner.value
        if not isinstance(owner, cst.Name):
            return None
        found = self.scope.lookup(owner.value)
        stmt = found[0].value if len(found) == 1 and found[0].kind == "class" else None
        if not isinstance(stmt, cst.ClassDef) or enum_value != any("Enum" in nodes.last_name(b.value) for b in stmt.bases):
            return None
        values = [small.value for line in stmt.body.body if isinstance(line, cst.SimpleStatementLine) for small in line.body
                  if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
                  and small.targets[0].target.value == expr.attr.value]
        if len(values) != 1 or not isinstance(values[0], (cst.SimpleString, cst.ConcatenatedString)):
            return None
        return values[0]

    def _literal_lines(self, node: cst.CSTNode) -> Optional[List[cst.CSTNode]]:
        """The items of a list or tuple of texts written out, in the call or bound once to a name the
        code does not fill later (`HELP_LINES = [...]`)."""
        if isinstance(node, cst.Name) and not self.scope.mutated(node.value):
            node = self.scope.value(node.value)
        if isinstance(node, (cst.List, cst.Tuple)) and node.elements and all(isinstance(e, cst.Element) for e in node.elements):
            return [e.value for e in node.elements]
        return None

    def _resolve_name(self, expr: cst.Name, depth: int) -> Optional[List[Template]]:
        name = expr.value
        if name in self._active:
            return None
        value = self.scope.value(name)
        if value is None:
            return None
        self._active.add(name)
        try:
            variants = self._variants(value, depth + 1)
            for extra in self.scope.additions(name):
                more = self._addition_variants(extra, depth + 1)
                variants = [join(a, b) for a in variants for b in more][:MAX_VARIANTS]
            if not any(t.pieces for t in variants):
                return None
            return variants
        finally:
            self._active.discard(name)
