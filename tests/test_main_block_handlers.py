"""A `try` at a module's top level or in its `if __name__ == "__main__":` block decides what its calls'
raises become, as a `try` in a function does: a handler that replaces the exception means nobody
reads the raise's text, and one that reports it (`sys.exit(f"error: {exc}")`) sends it to the user.
These `try` blocks were not recorded, so a CLI's most common top-level shape was ignored.
"""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from errlint.cli import main
from test_audience import make_project, run_json

HELPER = """
import json
import sys


def load(text):
    data = json.loads(text)
    if "version" not in data:
        raise KeyError("Something went wrong")
    return data


def run():
    print(load(sys.argv[1]))
"""


def raise_line(path) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if line.lstrip().startswith("raise "))


def audience_line(root, where: str) -> str:
    """The line of `--show-audience` that says who reads the first raise in file `where`."""
    where = f"{where}:{raise_line(root / where)}"
    out = CliRunner().invoke(main, ["check", "--show-audience", where, str(root)]).output
    return next(line.strip() for line in out.splitlines() if line.strip().startswith(("audience ", "read by nobody")))


@pytest.mark.parametrize("block", [
    # the main block of the same module
    'if __name__ == "__main__":\n    import sys\n    try:\n        run()\n    except Exception:\n        sys.exit(1)\n',
    # a bare except that prints its own text
    'if __name__ == "__main__":\n    try:\n        run()\n    except:\n        print("usage: tool")\n',
])
def test_a_main_block_that_replaces_the_exception(block, tmp_path, monkeypatch):
    root = make_project(tmp_path, {"tool.py": HELPER + "\n\n" + block})
    monkeypatch.chdir(root)
    assert audience_line(root, "tool.py").startswith("read by nobody")
    assert run_json(root, monkeypatch, "--select", "AEM101") == []


def test_a_main_module_that_replaces_the_exception(tmp_path, monkeypatch):
    main_module = "import sys\nfrom pkg.tool import run\n\ntry:\n    run()\nexcept (KeyError, ValueError):\n    sys.exit(2)\n"
    root = make_project(tmp_path, {"pkg/__init__.py": "", "pkg/__main__.py": main_module, "pkg/tool.py": HELPER})
    monkeypatch.chdir(root)
    assert audience_line(root, "pkg/tool.py").startswith("read by nobody")


def test_a_main_block_that_reports_the_exception_sends_its_text(tmp_path, monkeypatch):
    block = ('if __name__ == "__main__":\n    import sys\n    try:\n        run()\n    except Exception as exc:\n'
             '        sys.exit(f"tool: {exc}")\n')
    root = make_project(tmp_path, {"tool.py": HELPER + "\n\n" + block})
    monkeypatch.chdir(root)
    assert audience_line(root, "tool.py").startswith("audience cli")
    row = raise_line(root / "tool.py")
    assert {(d["location"]["row"], d["code"], d["audience"]) for d in run_json(root, monkeypatch, "--select", "AEM101")} == {(row, "AEM101", "cli")}


def test_a_handler_for_another_class_passes_the_raise_on(tmp_path, monkeypatch):
    block = 'if __name__ == "__main__":\n    try:\n        run()\n    except KeyboardInterrupt:\n        pass\n'
    root = make_project(tmp_path, {"tool.py": HELPER + "\n\n" + block})
    monkeypatch.chdir(root)
    assert audience_line(root, "tool.py").startswith("audience cli")


def test_an_own_state_check_under_a_reporting_main_block_is_the_users(tmp_path, monkeypatch):
    # the raise checks the program's own state; the main block prints it, so no traceback: `cli`
    helper = "_opened = []\n\n\ndef current():\n    if not _opened:\n        raise LookupError('No store is open')\n    return _opened[-1]\n"
    block = ('\n\nif __name__ == "__main__":\n    import sys\n    try:\n        print(current())\n    except LookupError as exc:\n'
             '        print(f"error: {exc}", file=sys.stderr)\n        sys.exit(1)\n')
    root = make_project(tmp_path, {"store.py": helper + block})
    monkeypatch.chdir(root)
    assert audience_line(root, "store.py").startswith("audience cli")
    unreported = helper + block.replace("    try:\n        print(current())\n    except LookupError as exc:\n"
                                        "        print(f\"error: {exc}\", file=sys.stderr)\n        sys.exit(1)\n",
                                        "    print(current())\n")
    (root / "store.py").write_text(unreported)
    assert audience_line(root, "store.py").startswith("audience exc: only CLI commands reach store.current")
