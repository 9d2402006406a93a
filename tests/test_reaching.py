"""A local rebound down a function (`msg = ...; raise E(msg)`, ruff's EM101 style) resolves, at each
sink, to the assignment that reaches it; a binding errlint cannot place keeps the name opaque."""
from __future__ import annotations

from errlint.api import run_context
from errlint.engine import check_file


def codes(source: str, select=("AEM101", "AEM402", "AEM302", "AEM201", "AEM204")):
    result = check_file("mod.py", source.encode(), run_context(select=list(select)))
    return sorted((d.location.row, d.code) for d in result.diagnostics)


def test_each_raise_reads_its_own_message_when_msg_is_rebound():
    source = (
        "class AppError(Exception):\n    pass\n\n"
        "def parse(data):\n"
        "    if 'project' not in data:\n"
        "        msg = 'Manifest project must be a table.'\n"
        "        raise AppError(msg)\n"
        "    if not data.get('groups'):\n"
        "        msg = 'Something went wrong'\n"
        "        raise AppError(msg)\n"
        "    msg = f\"Unknown tables: {', '.join(sorted(data))}\"\n"
        "    raise AppError(msg)\n"
    )
    found = codes(source, select=("AEM101", "AEM402"))
    assert found == [(10, "AEM101")]  # at its raise; no "`msg` can be any size"


def test_augmented_message_after_the_reaching_assignment():
    source = (
        "import sys\n\n"
        "def main(argv):\n"
        "    msg = 'usage: tool FILE'\n"
        "    if not argv:\n"
        "        sys.exit(msg)\n"
        "    msg = 'An error occurred'\n"
        "    msg += ' while reading.'\n"
        "    sys.exit(msg)\n"
    )
    assert codes(source, select=("AEM101",)) == [(9, "AEM101")]


def test_annotated_assignment_and_logger_sinks():
    source = (
        "import logging\nlog = logging.getLogger(__name__)\n\n"
        "def sync(items):\n"
        "    text: str = 'Sync failed'\n"
        "    log.error(text)\n"
        "    text = f'Synced {len(items)} items, skipped none'\n"
        "    log.error(text)\n"
    )
    assert [c for _, c in codes(source, select=("AEM101",))] == ["AEM101"]


def test_a_binding_in_a_branch_does_not_reach_past_the_branch():
    """After `if`/`else` rebinds the name, errlint does not pick one branch's text for the raise."""
    source = (
        "def pick(kind):\n"
        "    msg = 'Something went wrong'\n"
        "    if kind:\n"
        "        msg = f'Kind {kind!r} is not one of a, b; pass a or b.'\n"
        "    raise ValueError(msg)\n"
    )
    assert ("AEM101" not in [c for _, c in codes(source, select=("AEM101",))])


def test_raise_of_a_rebound_exception_variable():
    source = (
        "def f(x):\n"
        "    err = ValueError(f'x={x!r} must be positive; pass x > 0.')\n"
        "    if x < 0:\n"
        "        raise err\n"
        "    err = ValueError('Something went wrong')\n"
        "    raise err\n"
    )
    assert codes(source, select=("AEM101",)) == [(6, "AEM101")]


def test_manifest_checks_each_with_its_own_msg_are_not_unbounded():
    """pipx's shape: five checks, each `msg = ...` then `raise PipxError(msg)`; the messages are short
    literals, so no `msg` is 'of unbounded size' and no home path is guessed."""
    source = (
        "from pathlib import Path\n\n"
        "class PipxError(Exception):\n    pass\n\n"
        "def tables(data, keys):\n"
        "    if unknown := sorted(set(data) - keys):\n"
        "        msg = f\"Unknown manifest tables: {', '.join(unknown)}\"\n"
        "        raise PipxError(msg)\n"
        "    if not isinstance(data.get('project'), dict):\n"
        "        msg = 'Manifest project must be a table.'\n"
        "        raise PipxError(msg)\n"
        "    lock = Path(data['lock']).expanduser()\n"
        "    if not lock.name.startswith('pylock'):\n"
        "        msg = 'Manifest lock must be named pylock.toml.'\n"
        "        raise PipxError(msg)\n"
        "    if not isinstance(data.get('tool'), dict):\n"
        "        msg = 'Manifest tool must be a table.'\n"
        "        raise PipxError(msg)\n"
    )
    assert [c for _, c in codes(source, select=("AEM402", "AEM302"))] == []
