"""False positives found by hand-checking findings on click, libcst, mcp 2.3.0 and fastmcp 4.2.3.

Each input is a trimmed copy of the real code; each test pins the fixed behaviour and, where it
matters, that the true positive next to it is still reported.
"""
from __future__ import annotations

from conftest import at, codes, lint

PARTS = ["AEM201", "AEM202", "AEM203", "AEM204", "AEM205", "AEM206", "AEM207"]


def test_progress_lines_on_stderr_are_not_error_messages():
    found = at('''
        import sys
        def run(filename):
            print(f"Codemodding {filename}", file=sys.stderr)
            print("Calculating full-repo metadata...", file=sys.stderr)
            print(f"Failed to codemod {filename}", file=sys.stderr)
    ''')
    assert [row for row, _ in found] == [6]


def test_internal_faults_owe_no_missing_part():
    assert codes('''
        from mcp.shared.exceptions import MCPError
        from mcp.types import INTERNAL_ERROR
        def handle(method, result):
            if result is None:
                raise MCPError(INTERNAL_ERROR, f"handler for {method} returned an invalid result")
    ''', select=PARTS) == []
    assert codes('''
        def parse(value):
            if value is None:
                raise Exception("Internal Error: Failed to parse TrailingWhitespace. This should never happen.")
    ''', select=PARTS) == []


def test_logs_that_attach_the_traceback_are_headings():
    assert codes('''
        import logging
        logger = logging.getLogger(__name__)
        async def flow(request):
            try:
                await run(request)
            except Exception:
                logger.exception("OAuth flow error")
                raise
    ''', select=["AEM101", "AEM201"]) == []


def test_operation_and_caught_cause_is_not_generic():
    assert codes('''
        import logging
        logger = logging.getLogger(__name__)
        async def close(client):
            try:
                await client.delete()
            except Exception as exc:
                logger.warning(f"Session termination failed: {exc}")
    ''', select=["AEM101"]) == []


def test_retry_phrase_is_one_finding_not_three():
    found = codes('''
        from fastmcp.exceptions import ToolError
        import httpx
        async def call(url):
            try:
                return await httpx.AsyncClient().get(url)
            except httpx.TimeoutException:
                raise ToolError("Upstream request timed out, please retry")
    ''', select=["AEM101", "AEM103", "AEM206"])
    assert found == ["AEM103"]


def test_session_ids_in_logs_are_correlation_ids_but_not_in_replies():
    assert codes('''
        import logging
        logger = logging.getLogger(__name__)
        def check(session_id):
            if session_id not in SESSIONS:
                logger.warning(f"Received invalid session ID: {session_id}")
    ''', select=["AEM301"]) == []
    assert codes('''
        from fastmcp.exceptions import ToolError
        def check(session_id):
            raise ToolError(f"Session {session_id} expired")
    ''', select=["AEM301"]) == ["AEM301"]


def test_working_directory_in_a_log_is_not_a_home_path():
    assert codes('''
        import logging
        from pathlib import Path
        logger = logging.getLogger(__name__)
        def find():
            config_path = Path.cwd() / "fastmcp.json"
            logger.debug(f"Found configuration file: {config_path}")
    ''', select=["AEM302"]) == []


def test_code_sample_lines_do_not_count_against_max_lines():
    sample = "\\n".join(["    class MyClass:", "        def f(self):", "            pass"] * 3)
    assert codes(f'''
        def tool(fn_name):
            raise TypeError(f"The function '{{fn_name}}' has 'self'. Use the standalone @tool decorator:\\n\\n{sample}\\n")
    ''', select=["AEM401"]) == []


def test_spec_strings_are_not_schemas_but_dumped_specs_are():
    assert codes('''
        def parse(body):
            for spec in body.split(","):
                if spec.endswith("*"):
                    raise ValueError(f"Explode modifier is not supported (in {spec!r})")
    ''', select=["AEM403"]) == []
    assert codes('''
        import json
        def load(spec: dict):
            raise ValueError(f"Bad spec: {json.dumps(spec)}")
    ''', select=["AEM403"]) == ["AEM403"]


def test_rich_console_on_stdout_is_the_stdout_variant_and_output_calls_are_not_silent():
    found = lint('''
        import sys
        from rich.console import Console
        console = Console()
        def a():
            try:
                run()
            except ValueError as exc:
                console.print(f"[bold red]Error:[/bold red] Invalid command: {exc}")
                sys.exit(1)
        def b():
            try:
                run()
            except ValueError as exc:
                show_error(exc)
                sys.exit(1)
    ''', select=["AEM606"])
    assert [(d.location.row, d.message) for d in found] == [
        (9, "an error is printed to stdout (a rich Console without stderr=True) before a non-zero exit")
    ]


def test_a_note_appended_to_real_output_is_a_partial_success():
    assert codes('''
        from fastmcp import FastMCP
        mcp = FastMCP("x")
        @mcp.tool()
        def get_schemas(names: list[str]) -> str:
            result = render([n for n in names if n in TOOLS])
            not_found = [n for n in names if n not in TOOLS]
            if not_found:
                result += f"\\n\\nTools not found: {', '.join(not_found)}"
            return result
    ''', select=["AEM601"]) == []


def test_aem601_suggestion_keeps_the_class_name():
    found = lint('''
        from fastmcp import FastMCP
        mcp = FastMCP("x")
        @mcp.tool()
        def get(names: list[str]) -> str:
            if not names:
                return "Error: no tools found"
            return "ok"
    ''', select=["AEM601"])
    assert found[0].suggestion.startswith("Raise ToolError(...) instead")


def test_module_getattr_dispatch_is_not_a_list_of_allowed_values():
    assert codes('''
        def __getattr__(name: str):
            if name == "Image":
                return 1
            if name == "Audio":
                return 2
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    ''', select=["AEM204"]) == []


def test_relaying_a_tool_error_is_not_a_passthrough():
    assert codes('''
        from mcp.server.mcpserver.exceptions import ToolError
        from mcp.types import CallToolResult, TextContent
        async def call_tool(name, arguments):
            try:
                return await run(name, arguments)
            except ToolError as exc:
                return CallToolResult(content=[TextContent(type="text", text=str(exc))], is_error=True)
    ''', select=["AEM207"]) == []


def test_exception_constructors_and_echoed_values_are_not_unbounded():
    assert codes('''
        class InsufficientScopeError(Exception):
            def __init__(self, message, required_scopes=None):
                super().__init__(message)
    ''', select=["AEM402"]) == []
    assert codes('''
        import codecs
        def check(self):
            encoding = self.encoding
            try:
                codecs.lookup(encoding)
            except LookupError:
                raise ValueError(f"{repr(encoding)} is not a supported encoding")
    ''', select=["AEM402"]) == []


def test_stating_what_is_accepted_is_a_next_step():
    for message in (
        "Only subscripts, names, and attributes are valid base classes",
        "iterable or length is required",
        "Can only compare to tuples of length 2.",
    ):
        assert codes(f'''
            def f(x):
                if not x:
                    raise ValueError("{message}")
        ''', select=["AEM201"]) == [], message
