"""In an `except` handler the failure is the `try` body's operation. A guard around the whole `try`
chose that branch; it is not the rule the input broke, so AEM204 does not ask the message to state
it (`extract.context.guard_facts`). Guards inside the handler still lead to the message."""
from __future__ import annotations

from conftest import lint

from errlint.config import Settings

PREVIEW = Settings(preview=True)


def allowed(code: str) -> list:
    return [d.message for d in lint(code, select=["AEM204"], settings=PREVIEW)]


def test_branch_that_reads_a_file_named_after_an_at_sign():
    code = '''
    import sys
    def value(v: str) -> str:
        if v.startswith("@"):
            try:
                with open(v[1:]) as f:
                    return f.read()
            except OSError as exc:
                print(f"Cannot read {v[1:]}: {exc}", file=sys.stderr)
                sys.exit(1)
        return v
    '''
    assert allowed(code) == []


def test_backend_selected_before_an_upload():
    code = '''
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")
    @mcp.tool()
    def push(backend: str, path: str) -> str:
        if backend == "s3":
            try:
                upload(path)
            except ConnectionError:
                raise ToolError(f"Upload of {path} to s3 failed; the storage endpoint did not answer. Retry in a minute.")
        return "ok"
    '''
    assert allowed(code) == []


def test_an_early_return_before_the_try_is_not_the_broken_rule():
    code = '''
    import click
    @click.command()
    @click.argument("mode")
    def run(mode):
        if mode not in ("fast", "safe"):
            raise click.BadParameter(f"mode must be one of: fast, safe (got {mode!r})")
        try:
            start(mode)
        except RuntimeError:
            raise click.ClickException(f"Starting in {mode} mode failed")
    '''
    assert allowed(code) == []


def test_a_guard_inside_the_handler_still_counts():
    code = '''
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")
    TABLE = {"a": 1, "b": 2}
    @mcp.tool()
    def look(key: str) -> int:
        try:
            return TABLE[key]
        except KeyError:
            if key.startswith("_"):
                raise ToolError(f"Key {key!r} is private")
            raise ToolError(f"No key {key!r}; call list_keys for the keys")
    '''
    messages = allowed(code)
    assert len(messages) == 1 and "must not start with _" in messages[0]
