"""Fixes: exact output text, CRLF, f-strings with nested quotes, %-escaping, idempotence, safety."""
from __future__ import annotations

import os
import stat
import textwrap

from click.testing import CliRunner

from errlint.api import run_context
from errlint.cli import main
from errlint.engine import check_file
from errlint.fixes import apply_fixes, escape, verify
from errlint.model import Applicability, Diagnostic, Edit, Fix, Level, Location
from errlint.runner import fix_result
from conftest import PREVIEW, lint


def fixed(code: str, unsafe: bool = True, select=None, extend_select=(), path: str = "example.py") -> str:
    """The text after --fix (--unsafe-fixes), as one in-memory run."""
    run = run_context(select=select, extend_select=extend_select)
    result = check_file(path, textwrap.dedent(code).encode(), run)
    report = fix_result(result, run, unsafe)
    return report.fixed_text if report.fixed_text is not None else result.text


def test_fixes_that_change_message_text_are_unsafe():
    """AEM605 and AEM208 rewrite the message text (a `pytest.raises(match=...)` may break): only
    `--unsafe-fixes` applies them; `--fix` alone leaves the file as it is."""
    code = 'from mcp.server.fastmcp.exceptions import ToolError\nraise ToolError("Error: unknown region \'mars\'; use eu or us")\n'
    assert fixed(code, unsafe=False, extend_select=["AEM605"]) == code
    assert fixed(code, unsafe=True, extend_select=["AEM605"]) == code.replace("Error: ", "")
    quoted = "def f(region):\n    raise ValueError(f'Unknown region {region}; use eu or us')\n"
    assert fixed(quoted, unsafe=False, select=["AEM208"]) == quoted


def test_aem606_adds_stderr_and_the_import():
    code = 'def main():\n    print("Error: config not found; run `tool init`")\n    raise SystemExit(1)\n'
    assert fixed(code, unsafe=False) == 'import sys\n' + code.replace('`tool init`")', '`tool init`", file=sys.stderr)')


def test_aem606_click_echo_gets_err_true():
    code = 'import click, sys\nclick.echo("Failed to connect; run `tool login`")\nsys.exit(2)\n'
    assert fixed(code, unsafe=False) == code.replace('login`")', 'login`", err=True)')


def test_aem606_keeps_crlf_line_endings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "win.py"
    path.write_bytes(b'def main():\r\n    print("Error: config not found; run `tool init`")\r\n    raise SystemExit(1)\r\n')
    result = CliRunner().invoke(main, ["win.py", "--fix"])
    data = path.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n")
    assert data.startswith(b"import sys\r\n") and b"file=sys.stderr)" in data
    assert result.exit_code == 1  # a file changed
    again = CliRunner().invoke(main, ["win.py", "--fix"])
    assert again.exit_code == 0 and path.read_bytes() == data


def test_aem404_uses_the_jsonschema_message():
    code = '''
        import jsonschema
        from fastmcp.exceptions import ToolError
        def f(args, schema):
            try:
                jsonschema.validate(args, schema)
            except jsonschema.ValidationError as e:
                raise ToolError(f"Invalid arguments: {e}; fix them")
    '''
    assert "{e.message}" in fixed(code)


def test_aem204_appends_choices_in_an_fstring_and_keeps_final_period():
    code = '''
        FORMATS = {"wheel", "sdist"}
        def f(kind):
            if kind not in FORMATS:
                raise ValueError(f"Invalid kind: {kind}.")
    '''
    out = fixed(code, select=["AEM204"])
    assert 'raise ValueError(f"Invalid kind: {kind}; expected one of: wheel, sdist.")' in out or 'raise ValueError(f"Invalid kind: {kind}; expected one of: sdist, wheel.")' in out


def test_aem204_fix_is_escaped_for_percent_templates():
    code = '''
        def f(pct):
            if pct > 100:
                raise ValueError("share %s is too high" % pct)
    '''
    out = fixed(code, select=["AEM204"])
    assert 'raise ValueError("share %s is too high; pct must be <= 100" % pct)' in out


def test_aem204_fix_escapes_braces_in_format_templates():
    assert escape("{a}", '"', "", "format") == "{{a}}"
    assert escape("50%", '"', "", "percent") == "50%%"
    assert escape('say "x"', '"', "", "plain") == 'say \\"x\\"'
    assert escape("a\\b", "'", "r", "plain") is None


def test_fstring_with_nested_quotes_is_copied_not_rerendered():
    code = '''
        def check(names, allowed):
            bad = [n for n in names if n not in allowed]
            if bad:
                raise ValueError(f"""Unknown names: {", ".join(f"'{n}'" for n in bad)}.""")
    '''
    out = fixed(code)
    assert '{", ".join(f"\'{n}\'" for n in bad)}' in out
    compile(out, "x", "exec")


def test_aem202_turns_a_plain_literal_into_an_fstring_with_an_echo():
    code = '''
        def f(path):
            if not path.endswith(".md"):
                raise ValueError("Only Markdown {files}; pass a .md path.")
    '''
    out = fixed(code, select=["AEM202"])
    assert 'raise ValueError(f"Only Markdown {{files}}; pass a .md path (got {path!r:.80}).")' in out


def test_aem302_home_path_to_tilde():
    code = 'import sys\nsys.exit("Cannot read /home/bob/keys.txt; run `tool init`")\n'
    assert fixed(code, select=["AEM302"]) == code.replace("/home/bob", "~")


def test_aem103_uses_retry_after_in_scope():
    code = '''
        from fastmcp.exceptions import ToolError
        def f(retry_after):
            raise ToolError("Rate limited; please try again later.")
    '''
    out = fixed(code, select=["AEM103"])
    assert 'raise ToolError(f"Rate limited; retry after {retry_after} s.")' in out


def test_aem601_return_becomes_raise_with_the_stack_import():
    code = '''
        from fastmcp import FastMCP
        mcp = FastMCP("x")
        @mcp.tool()
        def read(path: str) -> str:
            try:
                return open(path).read()
            except OSError as e:
                return f"Error: {e}"
    '''
    out = fixed(code, select=["AEM601"])
    assert 'raise ToolError(f"Error: {e}")' in out
    assert "from fastmcp.exceptions import ToolError\n" in out
    compile(out, "x", "exec")


def test_aem602_and_aem603_switch_to_tool_error():
    code = '''
        from mcp.server.mcpserver import MCPServer
        from mcp import MCPError
        mcp = MCPServer("x")
        @mcp.tool()
        def f(n: int) -> int:
            if n < 0:
                raise MCPError(-32602, f"n must be >= 0, got {n}")
            if n > 9:
                raise ValueError(f"n must be <= 9, got {n}")
            return n
    '''
    out = fixed(code, select=["AEM602", "AEM603"])
    assert 'raise ToolError(f"n must be >= 0, got {n}")' in out
    assert 'raise ToolError(f"n must be <= 9, got {n}")' in out
    assert "from mcp.server.mcpserver.exceptions import ToolError" in out


def test_second_run_changes_nothing_and_fixed_text_raises_nothing_new():
    code = '''
        FORMATS = {"wheel", "sdist"}
        def f(kind):
            if kind not in FORMATS:
                raise ValueError(f"Invalid kind: {kind}")
    '''
    run = run_context()
    first = fixed(code)
    before = {d.code for d in check_file("x.py", textwrap.dedent(code).encode(), run).diagnostics}
    after = {d.code for d in check_file("x.py", first.encode(), run).diagnostics}
    assert after <= before - {"AEM204"}
    assert fixed(first) == first


def test_a_fix_that_breaks_the_file_leaves_it_untouched():
    text = "x = 1\n"
    bad = Diagnostic("AEM101", "n", "m", "f.py", Location(1, 1), Location(1, 1), Level.WARNING, "s",
                     Fix(Applicability.SAFE, "break it", (Edit(0, 0, "def ("),)))
    outcome = apply_fixes(text, [bad], unsafe=False)
    assert outcome.text is None and "would not parse" in outcome.error
    assert verify("x = (\n") and verify(text) == ""


def test_overlapping_fixes_wait_for_the_next_pass():
    text = "abc\n"
    a = Diagnostic("A", "n", "m", "f", Location(1, 1), Location(1, 1), Level.WARNING, "s", Fix(Applicability.SAFE, "a", (Edit(0, 2, "x"),)))
    b = Diagnostic("B", "n", "m", "f", Location(1, 1), Location(1, 1), Level.WARNING, "s", Fix(Applicability.SAFE, "b", (Edit(1, 3, "y"),)))
    outcome = apply_fixes(text, [a, b], unsafe=False)
    assert outcome.text == "xc\n" and [d.code for d in outcome.applied] == ["A"]


def test_unsafe_fixes_need_the_flag_and_display_only_never_apply():
    code = 'from fastmcp.exceptions import ToolError\ndef f(retry_after):\n    raise ToolError("Busy; try again later.")\n'
    assert fixed(code, unsafe=False, select=["AEM103"]) == code


def test_cli_diff_writes_nothing_and_fix_keeps_mode(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "a.py"
    code = 'import sys\nprint("Error: no config; run `tool init`")\nsys.exit(1)\n'
    path.write_text(code)
    os.chmod(path, 0o640)
    untouched = tmp_path / "b.py"
    untouched.write_text('raise ValueError("size must be one of s, m, l; pass --size s")\n')
    mtime = untouched.stat().st_mtime_ns
    result = CliRunner().invoke(main, [".", "--diff"])
    assert result.exit_code == 1 and "+print(\"Error: no config; run `tool init`\", file=sys.stderr)" in result.output
    assert path.read_text() == code
    result = CliRunner().invoke(main, [".", "--fix", "--show-fixes"])
    assert "Found 1 error (1 fixed, 0 remaining)." in result.output
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert untouched.stat().st_mtime_ns == mtime
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".errlint-")]


def test_summary_counts_fixable(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text('import sys\ndef main():\n    print("Error: config not found; run `tool init`")\n    sys.exit(1)\nFORMATS = {"a"}\ndef f(k):\n    if k not in FORMATS:\n        raise ValueError(f"Invalid k: {k}")\n')
    result = CliRunner().invoke(main, ["a.py"])
    assert "[*] 1 fixable with `--fix` (1 more with `--unsafe-fixes`)." in result.output


def test_aem208_quotes_fields_in_single_and_triple_quoted_fstrings():
    single = "def f(region):\n    raise ValueError(f'Unknown region {region}; use eu or us')\n"
    triple = "def f(region):\n    raise ValueError(f'''Unknown region {region}; use eu or us''')\n"
    assert fixed(single, unsafe=True, select=["AEM208"]) == single.replace("{region}", "\\'{region}\\'")
    out = fixed(triple, unsafe=True, select=["AEM208"])
    assert out == triple.replace("{region}", "\\'{region}\\'")
    compile(out, "x", "exec")


AEM205_SERVER = """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP('x')
ISSUES = {}
@mcp.tool()
def list_issues() -> list:
    return []
@mcp.tool()
def list_projects() -> list:
    return []
@mcp.tool()
def get_issue(issue_id: str) -> dict:
    if issue_id not in ISSUES:
        raise ToolError(f'Unknown issue {issue_id!r}.')
    return ISSUES[issue_id]
"""


def test_aem205_names_the_one_listing_tool_for_the_noun():
    assert fixed(AEM205_SERVER, select=["AEM205"]) == AEM205_SERVER.replace(
        "f'Unknown issue {issue_id!r}.'", "f'Unknown issue {issue_id!r}; call list_issues to see valid values.'"
    )


def test_aem205_offers_no_fix_when_two_tools_list_the_noun():
    ambiguous = AEM205_SERVER.replace("list_projects", "search_issues")
    assert fixed(ambiguous, select=["AEM205"]) == ambiguous
    assert [d.suggestion for d in lint(ambiguous, select=["AEM205"], settings=PREVIEW)] == [
        'Append "; call list_issues or search_issues to see valid values".']


def test_aem205_fixes_with_the_tool_that_lists_the_noun_itself():
    # `list_issue_types` lists types, not issues: `list_issues` is the one source of an issue id
    server = AEM205_SERVER.replace("list_projects", "list_issue_types")
    assert "call list_issues to see valid values" in fixed(server, select=["AEM205"])


def test_control_characters_in_an_appended_value_are_written_as_escapes(tmp_path):
    """A fix that appends allowed values holding a carriage return, a tab or a NUL writes them as
    escape sequences (a raw CR would end the literal: the fixed file would not parse)."""
    import subprocess
    import sys

    path = tmp_path / "seps.py"
    source = (
        "import sys\n\n"
        "def split(text, sep):\n"
        "    if sep not in (\"\\t\", \",\", \"\\r\\n\", \"\\x00\"):\n"
        "        sys.exit(f\"Unknown separator {sep!r}\")\n"
        "    return text.split(sep)\n"
    )
    path.write_text(source)
    proc = subprocess.run([sys.executable, "-m", "errlint", "check", "--no-cache", "--select", "AEM204",
                           "--fix", "--unsafe-fixes", str(path)], capture_output=True, text=True, cwd=tmp_path)
    fixed = path.read_text()
    assert "fix not applied" not in proc.stderr + proc.stdout
    compile(fixed, str(path), "exec")
    line = fixed.splitlines()[4]
    assert line == '        sys.exit(f"Unknown separator {sep!r}; expected one of: \\t, ,, \\r\\n, \\x00")'
