"""False positives found by hand-checking findings on click, libcst, mcp 2.3.0 and fastmcp 4.2.3.

Each input is a trimmed copy of the real code; each test pins the fixed behaviour and, where it
matters, that the true positive next to it is still reported.
"""
from __future__ import annotations

from conftest import EXC_STEPS, at, codes, lint

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


def test_an_exception_whose_job_is_to_show_help_may_carry_it():
    assert codes('''
        class NoArgsIsHelpError(UsageError):
            def __init__(self, ctx):
                super().__init__(ctx.get_help(), ctx=ctx)
    ''', select=["AEM403"]) == []
    assert codes('''
        def fail(parser):
            raise ValueError(f"Bad arguments. {parser.format_help()}")
    ''', select=["AEM403"]) == ["AEM403"]


def test_allowed_values_and_close_matches_are_not_unbounded():
    assert codes('''
        import difflib
        def pick(name, options: list):
            if name not in options:
                close = difflib.get_close_matches(name, options, n=3)
                raise ValueError(f"Unknown option {name!r}; allowed: {', '.join(options)}; did you mean {close}?")
    ''', select=["AEM402"]) == []


def test_exceptions_raised_as_internal_signals_owe_no_step():
    assert codes('''
        class _ArityError(Exception):
            pass
        def convert(node):
            if node is None:
                raise _ArityError()
    ''', select=PARTS + ["AEM101"], settings=EXC_STEPS) == []
    caught = '''
        class HorizonResponseError(Exception):
            pass
        def fetch(payload):
            if "id" not in payload:
                raise HorizonResponseError("Horizon returned an invalid response")
        def command(payload):
            try:
                fetch(payload)
            except HorizonResponseError:
                print("Horizon returned an unexpected response. Try again in 30 s.")
    '''
    assert codes(caught, select=PARTS + ["AEM101"], settings=EXC_STEPS) == []
    # the same raise, when nothing in the project catches the class, still owes a step (when plain
    # raises are asked for steps at all)
    assert "AEM201" in codes(caught.split("        def command")[0], select=PARTS, settings=EXC_STEPS)


def test_caught_names_come_from_every_file_of_the_project(tmp_project):
    import json

    from click.testing import CliRunner

    from errlint.cli import main
    from errlint.engine import scan_caught_names

    assert scan_caught_names("try:\n    x()\nexcept (pkg.HorizonError, ValueError) as e:\n    pass\nexcept* _Arity:\n    pass\n") == {"HorizonError", "_Arity"}
    (tmp_project / "pyproject.toml").write_text('[tool.errlint.profiles]\nAEM201 = ["agent", "cli", "http", "exc"]\n')
    (tmp_project / "client.py").write_text(
        "class HorizonError(Exception):\n    pass\n\n\ndef fetch(payload):\n    if 'id' not in payload:\n"
        "        raise HorizonError('Horizon returned an invalid response')\n"
    )

    def codes_in_client():
        result = CliRunner().invoke(main, ["--no-cache", "--output-format", "json", "--select", "AEM201", "client.py"])
        return [d["code"] for d in json.loads(result.output)]

    assert codes_in_client() == ["AEM201"]
    (tmp_project / "command.py").write_text(
        "from client import HorizonError, fetch\n\n\ndef main(p):\n    try:\n        fetch(p)\n"
        "    except HorizonError:\n        print('Horizon sent an unexpected reply; retry in 30 s.')\n"
    )
    assert codes_in_client() == []


def test_exception_to_error_mappers_pass_the_text_on():
    assert codes('''
        from mcp.shared.exceptions import MCPError
        def to_mcp_error(error: Exception, error_type: type) -> MCPError:
            if issubclass(error_type, LookupError):
                return MCPError(-32001, f"Not found: {error!s}")
            if issubclass(error_type, TimeoutError):
                raise MCPError(-32000, f"Request timeout: {error!s}")
            raise MCPError(-32603, f"Internal error: {error!s}")
    ''', select=PARTS + ["AEM101"]) == []


def test_typed_timeouts_and_permanent_unavailability_are_not_transient():
    assert codes('''
        import httpx
        from mcp.shared.exceptions import MCPError
        from mcp.types import REQUEST_TIMEOUT
        async def send(client, url):
            try:
                return await client.get(url)
            except httpx.ConnectTimeout:
                raise MCPError(REQUEST_TIMEOUT, "Timed out while waiting for response.")
    ''', select=["AEM206"]) == []
    assert codes('''
        from fastmcp.exceptions import ToolError
        def elicit(version):
            if version == "2026-07-28":
                raise ToolError("Elicitation via server-initiated requests is unavailable on 2026-07-28 connections.")
    ''', select=["AEM206"]) == []


def test_echo_is_not_asked_of_context_objects_or_type_and_emptiness_checks():
    assert codes('''
        def add(path):
            if not isinstance(path, str) or not path:
                raise ValueError("Skill file paths must be non-empty strings")
    ''', select=["AEM202"]) == []
    assert codes('''
        from mcp.shared.exceptions import MCPError
        def route(ctx, method):
            if ctx.protocol_version not in {"2025-06-18"}:
                raise MCPError(-32601, "Method not found")
    ''', select=["AEM202"]) == []


def test_listed_values_are_not_unbounded_and_stream_output_keeps_its_tail():
    assert codes('''
        def f(x, values: list):
            if x not in values:
                raise ValueError(f"Input should be one of {values!r}")
    ''', select=["AEM402"]) == []
    found = lint('''
        import subprocess
        def sync(cmd):
            try:
                subprocess.run(cmd, check=True, capture_output=True, text=True)
            except subprocess.CalledProcessError as e:
                raise RuntimeError(f"Failed to sync dependencies: {e.stderr}")
    ''', select=["AEM402"])
    assert [d.suggestion for d in found] == ['Keep the end, where the error is: f"{e.stderr[-500:]}" (or its last lines).']


def test_prohibitions_state_what_is_allowed():
    for message in ("Attempted to convert a callback into a command twice.", "Prompt names cannot contain '@'", "Resolver names must not be empty", "Clamping is not supported for open bounds."):
        assert codes(f'''
            def f(x):
                if x:
                    raise ValueError("{message}")
        ''', select=["AEM201"], settings=EXC_STEPS) == [], message
    assert codes('''
        def f(x):
            if x:
                raise ValueError("Cannot connect to the server")
    ''', select=["AEM201"], settings=EXC_STEPS) == ["AEM201"]  # a failure, not a rule the caller can follow


def test_mixed_handlers_are_not_transient_and_tracebacked_logs_are_not_passthroughs():
    assert codes('''
        from fastmcp.exceptions import ToolError
        def f(x):
            try:
                return call(x)
            except (TimeoutError, ValueError) as e:
                raise ToolError(f"Lookup of {x!r} failed: {e}")
    ''', select=["AEM206"]) == []
    assert codes('''
        import logging
        logger = logging.getLogger(__name__)
        def f(x):
            try:
                return call(x)
            except Exception as e:
                logger.exception(f"Error: {e}")
    ''', select=["AEM207"]) == []


def test_format_suggestions_read_as_english():
    found = lint('''
        def f(path):
            if not path.endswith(".py"):
                raise ValueError(f"Bad script {path!r}")
    ''', select=["AEM204"])
    assert found[0].message == "the message does not say what is allowed (path must end with .py)"


def test_else_of_an_elif_chain_allows_every_branch():
    found = lint('''
        def http_app(transport):
            if transport == "http":
                return 1
            elif transport == "streamable-http":
                return 2
            elif transport == "sse":
                return 3
            else:
                raise ValueError(f"Unknown transport: {transport}")
    ''', select=["AEM204"])
    assert [d.message for d in found] == ["the message does not say what is allowed (one of: http, streamable-http, sse)"]


def test_missing_files_shown_by_path_need_no_step_outside_tools():
    assert codes('''
        import sys, logging
        logger = logging.getLogger(__name__)
        def load(file_path):
            if not file_path.exists():
                logger.error(f"File not found: {file_path}")
                sys.exit(1)
    ''', select=["AEM201"]) == []
    assert codes('''
        def __getattr__(name):
            if name == "Image":
                return 1
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    ''', select=PARTS) == []


def test_parenthesised_concatenation_is_a_percent_template_not_a_value():
    found = lint('''
        def f(rule, transition):
            if rule:
                raise ValueError(("Rule %s is ambiguous; given a %s token, we " + "cannot decide.") % (rule, transition))
    ''', select=["AEM201", "AEM402"], settings=EXC_STEPS)
    assert [(d.code, d.message[:40]) for d in found] == [("AEM201", '"Rule {rule} is ambiguous; given a {tran')]
