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
    from errlint.project_scan import scan_caught_names

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


def test_an_upstream_errors_fallback_text_is_not_the_message():
    """`result.get("error", "Unknown error")` relays the upstream's own text; the default shows only
    when the upstream says nothing. A message with words of its own is judged by them, not by the
    fallback; one with none of its own says only "Unknown error" whenever the upstream is silent."""
    for shape in (
        'raise ToolError(f"Failed to create issue: {result.get(\'error\', \'Unknown error\')}")',
        'msg = result.get("message") or "Unknown error"\n    raise ToolError(f"Creating the issue failed: {msg}")',
        'raise ToolError("Could not create the issue: " + result.get("error_description", "unknown error"))',
        'raise ToolError("Issue API error: %s" % result.get("err", "Request failed"))',
    ):
        source = f'''
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("x")
@mcp.tool()
def create_issue(title: str) -> str:
    result = api.post("/issues", {{"title": title}})
    {shape}
'''
        found = lint(source)
        assert not [d for d in found if d.code in ("AEM101", "AEM103") or "nknown error" in d.message or "went wrong" in d.message], (shape, [(d.code, d.message) for d in found])
    # no words of its own: the fallback is all the reader gets when the upstream is silent
    assert codes('''
        def send_command(sock, payload: dict) -> dict:
            reply = json.loads(sock.recv(65536))
            if reply.get("status") == "error":
                raise Exception(reply.get("message", "Unknown error"))
            return reply
    ''', select=["AEM101"]) == ["AEM101"]
    found = lint('''
        def wrap_failure(outcome: dict) -> dict:
            reason = outcome.get("error") or "Unknown error"
            return {"isError": True, "content": [{"type": "text", "text": f"Tool failed: {reason}"}]}
    ''')
    assert [(d.code, d.message) for d in found] == [
        ("AEM101", 'generic message "Tool failed: {outcome.get("error")}" names no input, value or next step'),
        ("AEM207", '"Tool failed: {outcome.get("error")}" only passes the upstream\'s error text through'),
    ]


def test_a_next_step_printed_on_the_following_line_belongs_to_the_message():
    found = at('''
        import sys, logging
        import click
        logger = logging.getLogger(__name__)
        def load(path):
            if not path.exists():
                print("Error: no config found", file=sys.stderr)
                print("Run `tool init` to create one.", file=sys.stderr)
                sys.exit(1)
        def push(remote):
            if remote is None:
                click.echo("Push failed.", err=True)
                click.echo("Hint: pass --remote origin", err=True)
                raise SystemExit(2)
        def sync(repo):
            if repo.dirty:
                sys.stderr.write("Cannot sync a dirty tree.\\n")
                sys.exit("Commit or stash your changes, then run `tool sync` again.")
        def fetch(url):
            if not url:
                print("Fetch failed.", file=sys.stderr)
                print("", file=sys.stderr)
                sys.exit(1)
    ''', select=["AEM101", "AEM201"])
    # only the last one, whose following line gives no step, is reported
    assert found == [(21, "AEM101")]
    # a step printed before the failure, or after other code, is not the message's
    assert codes('''
        import sys
        def load(path):
            print("Run `tool init` to create a config.", file=sys.stderr)
            x = 1
            if not path.exists():
                print("Error: no config found", file=sys.stderr)
                sys.exit(1)
    ''', select=["AEM201"]) == ["AEM201"]


def test_cli_error_channel_judges_the_report_and_leaves_wizards_alone():
    found = lint('''
        import sys
        import click
        from rich.prompt import Prompt
        def wizard():
            name = input("Project name: ")
            if not name:
                print("Error: a project name is required")
                sys.exit(1)
        def wizard2():
            region = Prompt.ask("Region")
            if region not in ("eu", "us"):
                print(f"Invalid region {region!r}; choose eu or us")
                sys.exit(1)
        def wizard3():
            if not click.confirm("Overwrite the config?"):
                click.echo("Error: nothing was written")
                sys.exit(1)
        def report(results):
            print("Validation report")
            print(f"  Error: {len(results)} files failed validation")
            print("  see report.html")
            sys.exit(1)
    ''', select=["AEM606"])
    assert [(d.location.row, d.message) for d in found] == [(20, "an error is printed to stdout (3 lines) before a non-zero exit")]
    edits = found[0].fix.edits
    assert [e.content for e in edits][:3] == [", file=sys.stderr"] * 3 and {e.location.row for e in edits[:3]} == {20, 21, 22}


def test_echoing_the_caught_exception_to_stdout_before_exiting_is_reported():
    found = lint('''
        import sys
        import click
        def run(cmd):
            try:
                go(cmd)
            except RuntimeError as e:
                click.echo(e)
                sys.exit(1)
        def run2(cmd):
            try:
                go(cmd)
            except ValueError as exc:
                print(exc)
                raise SystemExit(2)
        def run3(cmd):
            try:
                go(cmd)
            except OSError as err:
                typer_echo = click.secho
                click.secho(f"{err}", fg="red")
                sys.exit(1)
    ''', select=["AEM606"])
    assert [d.location.row for d in found] == [8, 14, 21]
    assert [d.fix.title for d in found] == ["Add `err=True`", "Add `file=sys.stderr`", "Add `err=True`"]


def test_broad_except_around_parsing_the_callers_value_is_caller_fixable():
    source = '''
        import json, datetime, yaml
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")
        def parse_filters(filters: str) -> dict:
            try:
                return json.loads(filters)
            except Exception:
                raise ValueError("Could not parse the filters")
        @mcp.tool()
        def query(filters: str) -> list:
            try:
                data = json.loads(filters)
            except Exception:
                raise ToolError("The filters could not be read. Please contact support.")
            return [data]
        def since(day: str):
            try:
                return datetime.date.fromisoformat(day.strip())
            except Exception:
                raise ValueError("Could not read the date")
        def load(text: str):
            try:
                return yaml.safe_load(text)
            except BaseException:
                raise ValueError("The document could not be loaded")
        def fetch(url: str) -> dict:
            try:
                return json.loads(requests.get(url).text)
            except Exception:
                raise RuntimeError("Could not fetch the document")
    '''
    found = at(source, select=["AEM201", "AEM501"], settings=EXC_STEPS)  # the helpers no tool calls are `exc`
    # line 16: "contact support" is a prescribed step (AEM201 is satisfied); AEM501 judges that it does not fit
    assert found == [(10, "AEM201"), (16, "AEM501"), (22, "AEM201"), (27, "AEM201")]


def test_stdout_in_a_stdio_mcp_server_corrupts_the_json_rpc_stream():
    found = at('''
        import sys, asyncio
        from fastmcp import FastMCP
        mcp = FastMCP("notes")
        def fetch(url):
            sys.stdout.write(f"GET {url}\\n")
            return url
        @mcp.tool()
        def sync(repo: str) -> str:
            print(f"Syncing {repo}...")
            print(f"Synced {repo}", file=sys.stderr)
            return fetch(repo)
        @mcp.resource("notes://{name}")
        def note(name: str) -> str:
            print("reading", name)
            return name
        def export_cli(path):
            print(f"Exported to {path}")  # a CLI helper no tool calls: not while serving
        def main():
            print("Starting the notes server...")
            mcp.run()
            print("Server stopped.")
        if __name__ == "__main__":
            main()
    ''', select=["AEM607"])
    assert found == [(6, "AEM607"), (10, "AEM607"), (15, "AEM607"), (20, "AEM607")]
    lowlevel = at('''
        import anyio
        from mcp.server.lowlevel import Server
        from mcp.server.stdio import stdio_server
        server = Server("x")
        @server.call_tool()
        async def handle(name, arguments):
            print(f"calling {name}")
            return []
        async def serve():
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())
    ''', select=["AEM607"])
    assert lowlevel == [(8, "AEM607")]
    # over HTTP stdout is only a log: nothing to report
    assert codes('''
        from fastmcp import FastMCP
        mcp = FastMCP("notes")
        @mcp.tool()
        def sync(repo: str) -> str:
            print(f"Syncing {repo}...")
            return repo
        mcp.run(transport="streamable-http", port=8000)
    ''', select=["AEM607"]) == []
    fixed_text = lint('''
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("notes")
        def main():
            print("Starting...")
            mcp.run(transport="stdio")
    ''', select=["AEM607"])[0]
    assert fixed_text.fix.applicability.value == "safe"
    assert [e.content for e in fixed_text.fix.edits] == [", file=sys.stderr", "import sys\n"]


def test_a_message_that_already_states_the_range_or_the_wait_has_its_part():
    for message in (
        'f"Line {line} out of range (file has {len(lines)} lines)"',
        'f"Index {line} is past the end; there are only {len(lines)} lines"',
        'f"The file has {len(lines)} lines, so line {line} is out of range"',
        'f"Line {line} does not exist: the document holds 40 lines"',
    ):
        assert codes(f'''
            from fastmcp import FastMCP
            from fastmcp.exceptions import ToolError
            mcp = FastMCP("x")
            @mcp.tool()
            def read_line(path: str, line: int) -> str:
                lines = open(path).read().splitlines()
                if line < 1 or line > len(lines):
                    raise ToolError({message})
                return lines[line - 1]
        ''', select=["AEM201"]) == [], message
    for message in (
        'f"Cooling down for ~{remaining:.0f}s to respect the rate limit; retry later"',
        'f"Rate limited; please try again in {limiter.seconds()} seconds"',
        'f"Rate limited (about {left} min left); retry later"',
        'f"Quota used up, please wait until {reset_at} and retry"',
        '"Cooling down for ~30s; retry later"',
    ):
        assert codes(f'''
            from fastmcp import FastMCP
            from fastmcp.exceptions import ToolError
            mcp = FastMCP("x")
            @mcp.tool()
            def search(q: str, remaining: float, left: int, reset_at: str) -> str:
                if limiter.blocked():
                    raise ToolError({message})
                return q
        ''', select=["AEM103", "AEM201", "AEM206"]) == [], message
    # the counts that are not a range, and retry advice with no timing, are still reported
    assert codes('''
        def parse(text: str):
            if text.count("{") != text.count("}"):
                raise ValueError(f"Template has {text.count('{')} opening braces")
    ''', select=["AEM201"], settings=EXC_STEPS) == ["AEM201"]
    assert codes('''
        from fastmcp.exceptions import ToolError
        def f(items):
            raise ToolError(f"Rate limited on {len(items)} items; retry later")
    ''', select=["AEM103"]) == ["AEM103"]


def test_a_secret_needs_a_plausible_secret_source_not_just_a_name():
    found = at('''
        import logging, re
        log = logging.getLogger(__name__)
        def parse(expr: str):
            for token in expr.split():
                if token not in OPS:
                    raise ValueError(f"Unknown token {token!r} in {expr!r}")
        def lex(src: str):
            for i, token in enumerate(tokenize(src)):
                if not token.strip():
                    raise SyntaxError(f"Unexpected token {token} at {i}")
        def words(line: str):
            parts = re.findall(r"\\w+", line)
            for secret in parts:
                log.warning("unknown word %s", secret)
        def check(result: dict):
            auth_error = result.get("error_description") or "unknown"
            raise PermissionError(f"Login failed: {auth_error}")
        def check2(resp):
            token_error = resp.json()["error"]
            log.error("Token refresh failed: %s", token_error)
        class Client:
            def login(self):
                raise RuntimeError(f"Cannot log in: {self.password_message}")
        def leak(headers):
            for key, token in headers.items():
                log.info("header %s=%s", key, token)
        def leak2(api_tokens: list):
            for token in api_tokens:
                log.info("trying %s", token)
        def leak3(token: str):
            raise ValueError(f"Token {token} rejected")
    ''', select=["AEM301"])
    assert found == [(27, "AEM301"), (30, "AEM301"), (32, "AEM301")]


def test_a_literal_dict_of_a_few_short_fields_is_bounded_and_json_is_never_cut():
    found = lint('''
        import json
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")
        @mcp.tool()
        def a(name: str, code: int) -> str:
            if not name:
                raise ToolError(f"Bad call: {json.dumps({'field': 'name', 'reason': 'empty', 'hint': 'pass a name'})}")
            try:
                go(name)
            except Exception as e:
                raise ToolError("Upstream refused " + json.dumps({"error": str(e), "code": code, "tool": name}))
            raise ToolError(f"Refused: { {'status': code, 'name': name, 'retry': False} }")
        @mcp.tool()
        def b(payload: dict, resp: object) -> str:
            if not payload:
                raise ToolError(f"Bad payload: {json.dumps(payload)}")
            raise ToolError(f"Upstream said {json.dumps({'status': 1, 'body': resp.text})}")
    ''', select=["AEM402"])
    assert [d.location.row for d in found] == [18, 19]
    for d in found:
        assert "!r:.200" not in d.suggestion and "invalid JSON" in d.suggestion
