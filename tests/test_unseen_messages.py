"""Messages errlint used not to see: bytes messages, and a home-directory path leaking through the
text of an OSError (issue 15, item 8)."""
from __future__ import annotations

import textwrap

from click.testing import CliRunner

from conftest import EXC_STEPS, at, lint

from errlint.cli import main


def run(args, **kw):
    return CliRunner().invoke(main, args, catch_exceptions=False, **kw)


# ---------------------------------------------------------------------------- bytes messages


def test_bytes_message_in_a_raise_is_read_like_text():
    assert at('raise ValueError(b"something went wrong")\n') == [(1, "AEM101")]
    assert at('raise ValueError(rb"An unexpected error occurred")\n') == [(1, "AEM101")]
    # implicit concatenation and %-formatting of bytes
    found = lint('def f(n):\n    raise ValueError(b"something " b"went wrong %d" % n)\n', settings=EXC_STEPS)
    assert [(d.location.row, d.code, d.message) for d in found] == [
        (2, "AEM201", '"something went wrong {n}" gives no next step; say what to call, pass, set or retry'),
    ]


def test_bytes_written_to_stderr_are_messages():
    code = '''\
    import os
    import sys
    from sys import stderr


    def a():
        sys.stderr.buffer.write(b"error: failed\\n")
        sys.exit(1)


    def b():
        os.write(2, b"error: something went wrong\\n")
        sys.exit(1)


    def c():
        os.write(sys.stderr.fileno(), "Error: an unexpected error occurred".encode())
        sys.exit(1)


    def d():
        stderr.buffer.write(b"An unexpected error occurred\\n")
    '''
    assert at(code) == [(7, "AEM101"), (12, "AEM101"), (17, "AEM101"), (22, "AEM101")]  # AEM101 covers the step


def test_bytes_to_other_streams_and_good_bytes_messages_are_not_reported():
    code = '''\
    import os
    import sys


    def a(path):
        os.write(1, b"An unexpected error occurred\\n")  # stdout, and no exit after it
        sys.stdout.buffer.write(b"Something went wrong\\n")
        os.write(fd, b"Something went wrong\\n")
        raise ValueError(b"size must be one of s, m, l; pass --size s")
    '''
    assert at(code) == []


def test_bytes_message_fix_never_writes_non_ascii_into_a_bytes_literal():
    found = lint('raise ValueError(b"size must be one of s, m, l; pass --size s")\n' 'raise RuntimeError(b"An unexpected error occurred.")\n')
    for d in found:
        for edit in (d.fix.edits if d.fix else ()):
            assert edit.content.isascii(), (d.code, edit.content)


def test_cli_reports_bytes_messages_in_real_files(tmp_project):
    (tmp_project / "tool.py").write_text(textwrap.dedent('''\
        import os
        import sys


        def main():
            os.write(2, b"error: something went wrong\\n")
            sys.exit(1)
    '''))
    result = run(["--select", "AEM101", "tool.py"])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == 'tool.py:6:17: AEM101 generic message "error: something went wrong" names no input, value or next step'


# ------------------------------------------------------- a home path through an OSError's text

HOME_SERVER = '''\
import os
from pathlib import Path

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("demo")
CREDS = Path.home() / ".aws" / "credentials"
TOKEN_FILE = os.path.join(os.path.expanduser("~"), ".config", "gh", "hosts.yml")


@mcp.tool()
def read_profile(profile: str) -> str:
    """Read a profile."""
    try:
        return CREDS.read_text()
    except OSError as exc:
        raise ToolError(f"Cannot read the AWS profile {profile!r}: {exc}. Run `aws configure` first.")


@mcp.tool()
def read_kube(ctx: str) -> str:
    """Read the kube config."""
    try:
        with open(os.path.expanduser("~/.kube/config")) as fh:
            return fh.read()
    except FileNotFoundError as exc:
        raise ToolError(f"No kubeconfig for context {ctx!r} ({exc}); run `kubectl config use-context {ctx}`.")


@mcp.tool()
def read_token(host: str) -> str:
    """Read a token."""
    try:
        fh = open(TOKEN_FILE)
    except Exception as err:
        raise ToolError("Cannot open the token for " + host + ": " + str(err) + "; run `gh auth login`.")
    return fh.read()


@mcp.tool()
def read_token_name(host: str) -> str:
    """Read a token."""
    try:
        local = Path.home().joinpath(".netrc")
        return local.read_text()
    except PermissionError as err:
        raise ToolError("Cannot read %s for %s; run `chmod 600 ~/.netrc`." % (err.filename, host))
'''


def test_oserror_text_of_a_home_path_is_a_credential_path_leak():
    found = [(d.location.row, d.code, d.message) for d in lint(HOME_SERVER, select=["AEM302"])]
    assert [(row, code) for row, code, _ in found] == [(18, "AEM302"), (28, "AEM302"), (37, "AEM302"), (48, "AEM302")]
    assert found[0][2] == "the message shows `exc`, an OSError whose text holds the home-directory path it failed on (`CREDS`)"
    assert found[1][2].endswith('(`os.path.expanduser("~/.kube/config")`)')
    assert found[2][2].startswith("the message shows `str(err)`, an OSError whose text")


def test_oserror_text_of_a_user_path_or_other_errors_is_not_reported():
    code = '''\
    from pathlib import Path

    CREDS = Path.home() / ".aws" / "credentials"


    def a(name):
        try:
            return Path(name).read_text()
        except OSError as exc:
            raise SystemExit(f"Cannot read {name!r}: {exc}. Pass a path inside the project.")


    def b():
        try:
            return CREDS.read_text()
        except ValueError as exc:
            raise SystemExit(f"The AWS credentials are malformed: {exc}. Run `aws configure`.")


    def c():
        try:
            return CREDS.read_text()
        except OSError as exc:
            raise SystemExit(f"Cannot read the AWS credentials ({exc.strerror}). Run `aws configure`.")
    '''
    assert [d for d in lint(code, select=["AEM302"])] == []


def test_cli_reports_the_oserror_leak_at_the_sink(tmp_project):
    (tmp_project / "server.py").write_text(HOME_SERVER)
    result = run(["--select", "AEM302", "server.py"])
    assert result.exit_code == 1
    rows = [line.split(":")[1] for line in result.output.splitlines() if line.startswith("server.py:")]
    assert rows == ["18", "28", "37", "48"]
