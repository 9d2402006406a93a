"""A small Python API over the engine, for tests, the flake8 plugin and `errlint probe`.

`check_source(code)` lints one module given as text; `check_text(text)` lints a message that is
already rendered (a reply read from a live MCP server).
"""
from __future__ import annotations

from typing import Iterable, List, Optional, Sequence

import libcst as cst

from .checks.base import FileContext
from .config import Settings
from .engine import check_file
from .extract.file_facts import FileFacts
from .families import prefixes
from .run_context import RunContext
from .model import Context, Diagnostic, Finding, Message, Piece, Template
from .packs import Packs, bundled
from .registry import select_rules


def run_context(settings: Optional[Settings] = None, select: Optional[Sequence[str]] = None,
                extend_select: Sequence[str] = (), ignore: Sequence[str] = (), packs: Optional[Packs] = None,
                registry: Iterable[str] = ()) -> RunContext:
    """A RunContext with the rules a selection enables. Raises ConfigError on a bad selector."""
    settings = settings or Settings()
    packs = packs or bundled()
    rules, _ = select_rules(settings, packs, select, extend_select, ignore)
    return RunContext(settings, packs, rules, frozenset(registry) | frozenset(settings.tool_registry_extra))


def check_source(code: str, path: str = "example.py", settings: Optional[Settings] = None,
                 select: Optional[Sequence[str]] = None, extend_select: Sequence[str] = (),
                 ignore: Sequence[str] = (), registry: Iterable[str] = ()) -> List[Diagnostic]:
    """Diagnostics for one module's source text (UTF-8), sorted by position."""
    run = run_context(settings, select, extend_select, ignore, registry=registry)
    return check_file(path, code.encode("utf-8"), run).diagnostics


PROSE_FAMILIES = prefixes("prose")  # the families judged from the text alone (`families`)


def check_text(text: str, profile: str = "agent", select: Sequence[str] = PROSE_FAMILIES,
               tools: Iterable[str] = (), settings: Optional[Settings] = None) -> List[Finding]:
    """Findings of the prose, leak and size rules on an already rendered message.

    The text is judged as a complete template with no placeholders and no surrounding code, so rules
    that need code context (guards, handlers, parameters) stay silent; `tools` are the tool names the
    message may refer to.
    """
    settings = settings or Settings()
    packs = bundled()
    rules, _ = select_rules(settings, packs, list(select))
    module = cst.parse_module("")
    node = cst.SimpleString(repr(text))
    template = Template((text,), (Piece(text, node, "plain"),), True)
    message = Message("tool-result", "reply", profile, (template,), node, node, Context(), {"is_error": True})
    facts = FileFacts(module, [message], [], [], set(), {})
    ctx = FileContext("<reply>", facts, packs, frozenset(tools))
    out: List[Finding] = []
    for rule in rules:
        if rule.applies(message):
            out.extend(rule.check(message, ctx))
    return out
