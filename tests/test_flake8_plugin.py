"""The flake8 plugin (errlint/flake8_plugin.py) run through the real flake8, compared with the CLI.

flake8 prints `path:row:col: CODE text` with col = the plugin's col0 + 1, so a (file, row, col, code)
from flake8 must equal the CLI's JSON (filename, location.row, location.column, code).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Optional, Set, Tuple

import pytest

import errlint
from errlint.flake8_plugin import ErrlintChecker

ROOT = Path(__file__).resolve().parent.parent
CASES = [json.loads(line) for line in (ROOT / "tests" / "data" / "dev_cases.jsonl").read_text().splitlines() if line.strip()]
LINE = re.compile(r"^(?P<path>.+?):(?P<row>\d+):(?P<col>\d+): (?P<code>[A-Z]+\d+) ")
Key = Tuple[str, int, int, str]

# two findings on one message (a generic "Failed." gets one AEM101 that covers the missing step)
SNIPPET = 'import sys\nsys.exit("Please try again later.")\n'
SNIPPET_FINDINGS = {("src/cli.py", 2, 10, "AEM103"), ("src/cli.py", 2, 10, "AEM201")}
# flake8's own code under an audit hook that records every open() of a file named cli.py
AUDITED_FLAKE8 = (
    "import sys\n"
    "def hook(event, args):\n"
    "    if event == 'open' and isinstance(args[0], (str, bytes)) and str(args[0]).endswith('cli.py'):\n"
    "        sys.stderr.write('OPENED %s\\n' % (args[0],))\n"
    "sys.addaudithook(hook)\n"
    "from flake8.main.cli import main\n"
    "sys.exit(main())\n"
)


def flake8(*args: str, cwd: Path, stdin: Optional[str] = None, isolated: bool = True) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "flake8", *(["--isolated"] if isolated else []), *args]
    return subprocess.run(command, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=300)


def flake8_keys(result: subprocess.CompletedProcess) -> Set[Key]:
    assert "Traceback" not in result.stderr, result.stderr
    out = set()
    for line in result.stdout.splitlines():
        m = LINE.match(line)
        assert m, f"unexpected flake8 output line {line!r}"
        out.add((os.path.normpath(m["path"]), int(m["row"]), int(m["col"]), m["code"]))
    return out


def cli_keys(*args: str, cwd: Path, stdin: Optional[str] = None) -> Set[Key]:
    command = [sys.executable, "-m", "errlint", "check", "--output-format", "json", *args]
    result = subprocess.run(command, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 1), result.stderr
    return {(os.path.normpath(d["filename"]), d["location"]["row"], d["location"]["column"], d["code"])
            for d in json.loads(result.stdout)}


def write_cases(root: Path) -> Path:
    root.mkdir()
    for case in CASES:
        (root / f"{case['id']}.py").write_text(case["code"])
    return root


# ------------------------------------------------------------------ the plugin as flake8 sees it


def test_plugin_is_a_tree_plugin_flake8_can_load():
    from flake8.plugins.finder import _parameters_for

    assert _parameters_for(ErrlintChecker) == {"tree": True, "lines": True, "filename": True}
    assert (ErrlintChecker.name, ErrlintChecker.version) == ("errlint", errlint.__version__)


def test_flake8_version_lists_the_plugin():
    result = flake8("--version", cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert f"errlint: {errlint.__version__}" in result.stdout


def test_run_uses_lines_and_never_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    checker = ErrlintChecker(None, SNIPPET.splitlines(keepends=True), str(tmp_path / "missing" / "cli.py"))
    assert sorted(checker.run()) == [
        (2, 9, 'AEM103 retry advice "Please try again later" says neither when nor whether a retry helps; give the wait (e.g. `retry after 30 s`) or say retrying will not help', ErrlintChecker),
        (2, 9, 'AEM201 "Please try again later." gives no next step; say what to call, pass, set or retry', ErrlintChecker),
    ]


# ------------------------------------------------------------------ same findings as the CLI


def test_examples_match_the_cli():
    got = flake8_keys(flake8("--select", "AEM", "examples", cwd=ROOT))
    want = cli_keys("examples", cwd=ROOT)
    assert len(want) == 16 and {k[0] for k in want} == {"examples/cli.py", "examples/mcp_server.py"}
    assert got == want


@pytest.mark.parametrize("with_config", [False, True], ids=["no-config", "pyproject"])
def test_every_dev_case_matches_the_cli(tmp_path, with_config):
    root = write_cases(tmp_path / "cases")
    if with_config:
        (root / "pyproject.toml").write_text("[tool.errlint]\n")
    got = flake8_keys(flake8("--select", "AEM", ".", cwd=root))
    want = cli_keys(".", cwd=root)
    assert len(want) >= 50 and len({k[0] for k in want}) >= 30  # the comparison is not vacuous
    assert got == want


def test_the_registry_is_the_whole_project_like_the_cli(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.errlint]\n")
    (tmp_path / "server.py").write_text(
        "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('p')\n\n\n@mcp.tool()\n"
        "def list_projects() -> list:\n    return []\n"
    )
    (tmp_path / "other.py").write_text(
        "from mcp.server.fastmcp.exceptions import ToolError\n\n\ndef find(project: str) -> None:\n"
        "    raise ToolError(f\"Unknown project {project!r:.80}. Call list_project to see ids.\")\n"
    )
    want = {("other.py", 5, 21, "AEM209")}
    assert cli_keys("other.py", cwd=tmp_path) == want
    assert flake8_keys(flake8("--select", "AEM", "other.py", cwd=tmp_path)) == want


# ------------------------------------------------------------------ stdin


@pytest.mark.parametrize("text", [
    SNIPPET,
    "\f" + SNIPPET,                # a form feed at the start of a line
    SNIPPET + "\f\n",              # a form-feed line after the message
    SNIPPET.replace("\n", "\r\n"),
], ids=["plain", "form-feed-start", "form-feed-line", "crlf"])
def test_stdin_with_display_name(tmp_path, text):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "cli.py").write_text("raise ValueError('Oops.')\n" * 5)  # must not be read
    command = [sys.executable, "-c", AUDITED_FLAKE8, "--isolated", "--select", "AEM", "--stdin-display-name=src/cli.py", "-"]
    result = subprocess.run(command, cwd=tmp_path, input=text, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1
    assert "OPENED" not in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert result.stdout.splitlines() == [
        'src/cli.py:2:10: AEM103 retry advice "Please try again later" says neither when nor whether a retry helps; give the wait (e.g. `retry after 30 s`) or say retrying will not help',
        'src/cli.py:2:10: AEM201 "Please try again later." gives no next step; say what to call, pass, set or retry',
    ]
    assert flake8_keys(result) == SNIPPET_FINDINGS == cli_keys("--stdin-filename", "src/cli.py", "-", cwd=tmp_path, stdin=text)


def test_stdin_form_feed_line_before_the_message_matches_the_cli(tmp_path):
    text = "import sys\n\f\nsys.exit(\"Please try again later.\")\n"
    got = flake8_keys(flake8("--select", "AEM", "-", cwd=tmp_path, stdin=text))
    assert got == {("stdin", 3, 10, "AEM103"), ("stdin", 3, 10, "AEM201")}
    assert {("stdin", r, c, code) for _, r, c, code in cli_keys("-", cwd=tmp_path, stdin=text)} == got


# ------------------------------------------------------------------ noqa


@pytest.mark.parametrize("source, codes", [
    ('import sys\nsys.exit("Please try again later.")  # noqa: AEM103\n', {"AEM201"}),
    ('import sys\nsys.exit("Please try again later.")  # noqa: AEM1\n', {"AEM201"}),
    ('import sys\nsys.exit("Please try again later.")  # noqa\n', set()),
    ('import sys\nsys.exit(\n    "Please try again later."\n)  # noqa\n', {"AEM103", "AEM201"}),  # a closing bracket covers nothing
    ('import sys\nsys.exit("""Please try again later.\n""")  # noqa: AEM201\n', {"AEM103"}),   # a multi-line string's group
    ('# errlint: noqa: AEM103\nimport sys\nsys.exit("Please try again later.")\n', {"AEM201"}),
    ('# errlint: noqa\nimport sys\nsys.exit("Please try again later.")\n', set()),
    ('# flake8: noqa\nimport sys\nsys.exit("Please try again later.")\n', set()),
], ids=["code", "prefix", "bare", "closing-bracket", "multiline-string", "errlint-file-codes", "errlint-file", "flake8-file"])
def test_noqa_in_flake8_equals_the_cli(tmp_path, source, codes):
    (tmp_path / "cli.py").write_text(source)
    got = flake8_keys(flake8("--select", "AEM", "cli.py", cwd=tmp_path))
    assert {k[3] for k in got} == codes
    assert got == cli_keys("cli.py", cwd=tmp_path)


def test_noqa_below_a_form_feed_line_equals_the_cli(tmp_path):
    (tmp_path / "cli.py").write_text('import sys\n\f\nsys.exit("Please try again later.")  # noqa: AEM103\n')
    got = flake8_keys(flake8("--select", "AEM", "cli.py", cwd=tmp_path))
    assert got == {("cli.py", 3, 10, "AEM201")}
    assert cli_keys("cli.py", cwd=tmp_path) == got


# ------------------------------------------------------------------ options


LONG = ('def set_limit(limit: int) -> None:\n    if limit > 100:\n        raise ValueError(f"limit must be between 1 and 100 '
        '(got {limit!r:.80}); pass --limit 50 or a smaller value.")\n')


def test_max_message_tokens_option_reaches_aem401(tmp_path):
    (tmp_path / "tok.py").write_text(LONG)
    assert flake8_keys(flake8("--select", "AEM", "tok.py", cwd=tmp_path)) == set()
    result = flake8("--select", "AEM", "--errlint-max-message-tokens", "10", "tok.py", cwd=tmp_path)
    assert result.stdout.startswith("tok.py:3:26: AEM401 the message is about ")
    assert "(limit 10)" in result.stdout
    assert flake8_keys(result) == {("tok.py", 3, 26, "AEM401")}


def test_options_from_flake8_config_and_errlint_config(tmp_path):
    (tmp_path / "tok.py").write_text(LONG)
    (tmp_path / "strict.toml").write_text("max-message-tokens = 12\n")
    (tmp_path / ".flake8").write_text("[flake8]\nerrlint-max-message-tokens = 10\n")
    assert "(limit 10)" in flake8("--select", "AEM", "tok.py", cwd=tmp_path, isolated=False).stdout
    (tmp_path / ".flake8").write_text("[flake8]\nerrlint-config = strict.toml\n")
    assert "(limit 12)" in flake8("--select", "AEM", "tok.py", cwd=tmp_path, isolated=False).stdout
    (tmp_path / "pyproject.toml").write_text("[tool.errlint]\nmax-message-tokens = 11\n")
    assert "(limit 11)" in flake8("--select", "AEM", "tok.py", cwd=tmp_path).stdout
    assert "(limit 10)" in flake8("--select", "AEM", "--errlint-max-message-tokens=10", "tok.py", cwd=tmp_path).stdout


def test_tool_registry_extra_and_logger_objects_options(tmp_path):
    (tmp_path / "reg.py").write_text(
        "from mcp.server.fastmcp.exceptions import ToolError\n\n\ndef find(project: str) -> None:\n"
        "    raise ToolError(f\"Unknown project {project!r:.80}. Call list_project to see ids.\")\n"
    )
    (tmp_path / "log.py").write_text("from myapp.obs import AUDIT\n\nAUDIT.error(\"Failed.\")\n")
    assert flake8_keys(flake8("--select", "AEM", "reg.py", "log.py", cwd=tmp_path)) == set()
    got = flake8_keys(flake8("--select", "AEM", "--errlint-tool-registry-extra=list_projects, other",
                             "--errlint-logger-objects=myapp.obs.AUDIT", "reg.py", "log.py", cwd=tmp_path))
    assert got == {("reg.py", 5, 21, "AEM209"), ("log.py", 3, 13, "AEM101")}
    (tmp_path / "pyproject.toml").write_text(
        '[tool.errlint]\ntool-registry-extra = ["list_projects"]\nlogger-objects = ["myapp.obs.AUDIT"]\n')
    assert cli_keys("reg.py", "log.py", cwd=tmp_path) == got


# ------------------------------------------------------------------ errors never crash flake8


def test_bad_config_is_reported_not_raised(tmp_path):
    (tmp_path / "cli.py").write_text(SNIPPET)
    result = flake8("--select", "AEM", "--errlint-config", "missing.toml", "cli.py", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stdout.startswith("cli.py:1:1: AEM000 errlint configuration error: config file ")
    (tmp_path / "pyproject.toml").write_text("[tool.errlint]\nmax-message-tokenz = 3\n")
    result = flake8("--select", "AEM", "cli.py", cwd=tmp_path)
    assert result.stdout.startswith("cli.py:1:1: AEM000 errlint configuration error: ")
    assert "unknown key 'max-message-tokenz'" in result.stdout


def test_a_file_python_cannot_parse_is_flake8s_e999(tmp_path):
    # flake8 reports E999 and runs no tree plugin on it; the CLI reports the same file as AEM001
    (tmp_path / "broken.py").write_text("def f(:\n    raise ValueError('Failed.')\n")
    result = flake8("--select", "AEM,E999", "broken.py", cwd=tmp_path)
    assert "Traceback" not in result.stderr
    # flake8's own column: Python's offset (7) plus one on 3.10+; on 3.9 flake8 subtracts the one it
    # adds (flake8/checker.py `_extract_syntax_information`, for 3.9's 4-item SyntaxError args)
    column = 8 if sys.version_info >= (3, 10) else 7
    assert [line.split(" ")[0:2] for line in result.stdout.splitlines()] == [[f"broken.py:1:{column}:", "E999"]]
    assert cli_keys("broken.py", cwd=tmp_path) == {("broken.py", 1, 7, "AEM001")}
