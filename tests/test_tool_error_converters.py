"""AEM603 and converters: a tool that runs inside a decorator or context manager catching the raised
class and raising the stack's ToolError lets the text through, so nothing is masked; and a project
subclass of ToolError defined in another module passes through too (`extract.tool_error_converters`,
`project_scan.PassThroughScan`)."""
from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner

from conftest import preview_rows

from errlint.cli import main
from errlint.project_scan import PassThroughScan, scan_stack_imports

HEAD = ("import functools\nfrom contextlib import contextmanager\nfrom mcp.server.mcpserver import MCPServer\n"
        "from mcp.server.mcpserver.exceptions import ToolError\nmcp = MCPServer('x')\n")


def masked_rows(code: str) -> list:
    return preview_rows(HEAD + textwrap.dedent(code), ["AEM603"])


CONVERTED = {
    "decorator_wrapper_with_try": """
        def tool_errors(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                try:
                    return fn(*args, **kwargs)
                except (ValueError, KeyError) as e:
                    raise ToolError(str(e)) from e
            return wrapper

        @mcp.tool()
        @tool_errors
        def get(item_id: str) -> str:
            if not item_id.isdigit():
                raise ValueError(f"item_id must be digits (got {item_id!r})")
            return item_id
    """,
    "context_manager_in_a_decorator_reaching_a_helper": """
        ANTICIPATED = (ValueError, OSError)

        @contextmanager
        def reported_to_model():
            try:
                yield
            except ANTICIPATED as e:
                raise ToolError(str(e)) from e

        def reports_failures(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                with reported_to_model():
                    return fn(*args, **kwargs)
            return wrapper

        def checked_target(target):
            if target.startswith("-"):
                raise ValueError(f"target {target!r} cannot start with '-'")
            return target

        @mcp.tool()
        @reports_failures
        def diff(target: str) -> str:
            return checked_target(target)
    """,
    "context_manager_around_the_tool_body": """
        @contextmanager
        def as_tool_errors():
            try:
                yield
            except LookupError as e:
                raise ToolError(f"lookup failed: {e}") from e

        def row(table, key):
            if key not in table:
                raise KeyError(f"no row {key!r}; call list_rows")
            return table[key]

        @mcp.tool()
        def read(key: str) -> str:
            with as_tool_errors():
                return row({}, key)
    """,
    "converter_raising_a_subclass_of_this_module": """
        class KbError(ToolError):
            pass

        def kb_errors(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                try:
                    return fn(*args, **kwargs)
                except LookupError as e:
                    raise KbError(f"lookup failed: {e}") from e
            return wrapper

        @mcp.tool()
        @kb_errors
        def article(slug: str) -> str:
            raise KeyError(f"no article {slug!r}; call search_articles")
    """,
    "async_wrapper_catching_everything": """
        def guarded(fn):
            @functools.wraps(fn)
            async def wrapper(*args, **kwargs):
                try:
                    return await fn(*args, **kwargs)
                except Exception as e:
                    raise ToolError(f"{type(e).__name__}: {e}") from e
            return wrapper

        @mcp.tool()
        @guarded
        async def fetch(url: str) -> str:
            if not url.startswith("https://"):
                raise RuntimeError(f"url must start with https:// (got {url!r})")
            return url
    """,
    # a library class's superclasses are not in the project: a converter catching a library class
    # may catch it (mcp-server-git: FlagInjectionError(git.exc.BadName), converted as gitdb's ODBError)
    "library_subclass_converted_as_another_library_class": """
        from git.exc import BadName
        from gitdb.exc import ODBError

        class FlagInjectionError(BadName):
            pass

        @contextmanager
        def reported_to_model():
            try:
                yield
            except (ValueError, ODBError) as e:
                raise ToolError(str(e)) from e

        def tool_errors(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                with reported_to_model():
                    return fn(*args, **kwargs)
            return wrapper

        @mcp.tool()
        @tool_errors
        def show(revision: str) -> str:
            if revision.startswith("-"):
                raise FlagInjectionError(f"revision {revision!r} cannot start with '-'")
            return revision
    """,
    "library_class_raised_directly_under_a_library_catch": """
        import httpx

        def http_errors(fn):
            @functools.wraps(fn)
            async def wrapper(*args, **kwargs):
                try:
                    return await fn(*args, **kwargs)
                except httpx.HTTPError as e:
                    raise ToolError(f"request failed: {e}") from e
            return wrapper

        @mcp.tool()
        @http_errors
        async def fetch(url: str) -> str:
            if not url.startswith("https://"):
                raise httpx.InvalidURL(f"url must start with https:// (got {url!r})")
            return url
    """,
    # the standard library's classes are read: json.JSONDecodeError is a ValueError
    "stdlib_subclass_under_a_builtin_catch": """
        import json

        class BadPayload(json.JSONDecodeError):
            pass

        def tool_errors(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                try:
                    return fn(*args, **kwargs)
                except ValueError as exc:
                    raise ToolError(str(exc)) from exc
            return wrapper

        @mcp.tool()
        @tool_errors
        def parse(payload: str) -> dict:
            if not payload.strip().startswith("{"):
                raise BadPayload("payload must be a JSON object starting with '{'", payload, 0)
            return json.loads(payload)
    """,
    "project_class_two_steps_from_a_library_class": """
        from sqlalchemy.exc import IntegrityError, SQLAlchemyError

        class StoreError(IntegrityError):
            pass

        class DuplicateRow(StoreError):
            pass

        @contextmanager
        def as_tool_errors():
            try:
                yield
            except SQLAlchemyError as e:
                raise ToolError(str(e)) from e

        @mcp.tool()
        def insert(key: str) -> str:
            with as_tool_errors():
                if key == "taken":
                    raise DuplicateRow(f"row {key!r} exists; call update instead")
                return key
    """,
}


@pytest.mark.parametrize("name", sorted(CONVERTED))
def test_a_converter_around_every_reaching_tool_masks_nothing(name):
    assert masked_rows(CONVERTED[name]) == []


# a decorator whose wrapper runs `body` (lines), around a tool whose guard raises ValueError
WRAPPED_TOOL = """
def tool_errors(fn):
    def wrapper(*args, **kwargs):
{body}
    return wrapper

@mcp.tool()
@tool_errors
def get(item_id: str) -> str:
    if not item_id.isdigit():
        raise ValueError(f"item_id must be digits (got {{item_id!r}})")
    return item_id
"""


def wrapped(*body: str) -> str:
    return WRAPPED_TOOL.format(body="\n".join("        " + line for line in body))


def converting(caught: str, raised: str) -> str:
    return wrapped("try:", "    return fn(*args, **kwargs)", f"except {caught} as e:", f"    raise {raised}(str(e)) from e")


STILL_MASKED = {
    # one of the two tools reaching the helper runs without the converter
    "one_tool_unwrapped": ("""
        def tool_errors(fn):
            def wrapper(*args, **kwargs):
                try:
                    return fn(*args, **kwargs)
                except ValueError as e:
                    raise ToolError(str(e)) from e
            return wrapper

        def checked(name):
            if not name:
                raise ValueError("name is required; pass a project name")
            return name

        @mcp.tool()
        @tool_errors
        def open_project(name: str) -> str:
            return checked(name)

        @mcp.tool()
        def close_project(name: str) -> str:
            return checked(name)
    """, 17),
    # the converter catches another class
    "other_class_converted": (converting("KeyError", "ToolError"), 19),
    # the handler raises a class the framework masks as well
    "converted_to_a_masked_class": (converting("ValueError", "RuntimeError"), 19),
    # the wrapper converts what its own check raises, not what the tool raises
    "wrapper_converts_only_its_own_check": (wrapped(
        "try:", "    check_quota()", "except ValueError as e:", "    raise ToolError(str(e)) from e", "return fn(*args, **kwargs)"), 20),
    # the handler re-raises what it does not convert
    "conversion_only_on_one_branch": (wrapped(
        "try:", "    return fn(*args, **kwargs)", "except ValueError as e:", "    if getattr(e, 'public', False):",
        "        raise ToolError(str(e)) from e", "    raise"), 21),
    # the converter sits above the registration: the framework calls the unwrapped function
    "converter_above_the_registration": ("""
        def tool_errors(fn):
            def wrapper(*args, **kwargs):
                try:
                    return fn(*args, **kwargs)
                except ValueError as e:
                    raise ToolError(str(e)) from e
            return wrapper

        @tool_errors
        @mcp.tool()
        def get(item_id: str) -> str:
            if not item_id.isdigit():
                raise ValueError(f"item_id must be digits (got {item_id!r})")
            return item_id
    """, 19),
    # the `with` covers only the first part of the tool body
    "context_manager_around_part_of_the_body": ("""
        @contextmanager
        def as_tool_errors():
            try:
                yield
            except ValueError as e:
                raise ToolError(str(e)) from e

        @mcp.tool()
        def read(key: str) -> str:
            with as_tool_errors():
                pass
            if not key.isdigit():
                raise ValueError(f"key must be digits (got {key!r})")
            return key
    """, 19),
    # a library class under a converter that catches only builtin classes: nothing says it is one
    "library_class_under_a_builtin_only_converter": (converting("KeyError", "ToolError").replace(
        "raise ValueError(", "raise LibError(").replace("def tool_errors", "from lib.errors import LibError\n\ndef tool_errors"), 21),
    # a library class under a converter that catches another library's class
    "library_class_under_another_librarys_catch": ("""
        import httpx
        import sqlalchemy.exc

        class StaleConnection(sqlalchemy.exc.OperationalError):
            pass

        def reports_failures(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                try:
                    return fn(*args, **kwargs)
                except httpx.HTTPError as exc:
                    raise ToolError(str(exc)) from exc
            return wrapper

        @mcp.tool()
        @reports_failures
        def run_query(sql: str) -> str:
            if "drop" in sql.lower():
                raise StaleConnection(f"query {sql[:30]!r} rejected; retry with SELECT.", None, None)
            return "ok"
    """, 26),
    # a decorator that only logs lets the class reach the framework
    "decorator_that_does_not_convert": (wrapped('print("calling", fn.__name__)', "return fn(*args, **kwargs)"), 17),
}


@pytest.mark.parametrize("name", sorted(STILL_MASKED))
def test_a_raise_some_tool_reaches_unconverted_is_still_masked(name):
    code, row = STILL_MASKED[name]
    assert masked_rows(code) == [row]


# -- a ToolError subclass defined in another module --------------------------------------------------

SERVER = """\
from mcp.server.mcpserver import MCPServer
from pkg.errors import DocError, NotFoundError, PlainError
from pkg.fast import AppError

mcp = MCPServer("docs")


@mcp.tool()
def read(url: str) -> str:
    if not url.endswith(".html"):
        raise DocError(f"url must end with .html (got {url!r})")
    if "missing" in url:
        raise NotFoundError(f"no page at {url!r}; call search_docs")
    if "old" in url:
        raise PlainError(f"page {url!r} is archived; call search_docs")
    if "draft" in url:
        raise AppError(f"page {url!r} is a draft; call search_docs")
    return url
"""

# fastmcp's ToolError: MCPServer masks it like any other class
FAST = """\
from fastmcp.exceptions import ToolError


class AppError(ToolError):
    pass
"""

ERRORS = """\
from mcp.server.mcpserver.exceptions import (
    ResourceError,
    ToolError as SDKToolError,
)


class DocError(SDKToolError, ValueError):
    pass


class NotFoundError(DocError):
    pass


class ToolError(Exception):
    \"\"\"the project's own class of the same name as the SDK's\"\"\"


class PlainError(ToolError):
    pass
"""


def test_a_subclass_from_another_module_passes_through(tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "docs"\ndependencies = ["mcp>=2.1"]\n')
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "errors.py").write_text(ERRORS)
    (tmp_path / "pkg" / "fast.py").write_text(FAST)
    (tmp_path / "pkg" / "server.py").write_text(SERVER)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--preview", "--select", "AEM603", "--output-format", "json", "."])
    assert result.exit_code == 1, result.output
    rows = [(d["filename"].replace("\\", "/"), d["location"]["row"]) for d in json.loads(result.output)]
    # DocError (direct, through an alias) and NotFoundError (two modules away) pass; the project's own
    # `ToolError` is not the SDK's, and fastmcp's is not MCPServer's, so their subclasses are masked
    assert rows == [("pkg/server.py", 15), ("pkg/server.py", 17)]


def test_a_project_without_an_mcp_import_reads_no_class(tmp_path):
    from errlint.project_scan import project_registry

    (tmp_path / "a.py").write_text("class A(ToolError):\n    pass\n")
    scan = PassThroughScan()
    project_registry([tmp_path / "a.py"], (), None, scan)
    assert scan.classes() == frozenset() and scan.definitions == {}


def test_the_scan_links_classes_by_the_stack_imports_of_their_own_file():
    scan = PassThroughScan()
    scan.add("from fastmcp import exceptions as fx\nclass A(fx.ToolError):\n    pass\n")
    scan.add("class B(A):\n    pass\nclass C(Exception):\n    pass\n")
    scan.add("class D(ToolError):\n    pass\n")  # no import of ToolError from a stack here
    scan.add("import mcp.server.mcpserver.exceptions as mcp_exc\nclass E(mcp_exc.ToolError):\n    pass\n")
    # F is defined twice: once from mcp's ToolError, once from Exception; a raise of F may be either
    scan.add("from mcp.server.mcpserver.exceptions import ToolError\nclass F(ToolError):\n    pass\n")
    scan.add("class F(Exception):\n    pass\n")
    assert scan.classes() == frozenset({"fastmcp:A", "fastmcp:B", "mcp2:E"})
    assert scan_stack_imports("from mcp.server.mcpserver.exceptions import ToolError as TE, ResourceError\n") == {
        "TE": "mcp.server.mcpserver.exceptions.ToolError",
        "ResourceError": "mcp.server.mcpserver.exceptions.ResourceError",
    }
