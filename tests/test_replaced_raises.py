"""A raise that every call path from an entry point catches and replaces is read by nobody: the
handler's own message (or none) is what the reader gets, so the raise gets no findings
(`extract.catching`, `reachability.Reach.raise_audience`). A raise caught in its own function is
control flow when the handler replaces it or it has no text (`checks.base.caught_locally`)."""
from __future__ import annotations

from click.testing import CliRunner

from errlint.cli import main
from errlint.extract.catching import ancestors, catches

from test_audience import found, make_project, run_json

HELPER = '''
def load(data):
    if not data.startswith("{"):
        raise ValueError("Invalid JSON")
    return data
'''


def cli_calling(body: str) -> str:
    return "import click\nimport helpers\n\n@click.command()\n@click.argument('data')\ndef main(data):\n" + body


def findings_in_helper(tmp_path, monkeypatch, cli_body: str, helper: str = HELPER, extra: dict = None) -> set:
    files = {"helpers.py": helper, "cli.py": cli_calling(cli_body), **(extra or {})}
    diagnostics = run_json(make_project(tmp_path, files), monkeypatch, "--preview", "--select", "AEM101")
    return {(d["row"] if "row" in d else d["location"]["row"], d["code"], d["audience"]) for d in diagnostics if d["filename"] == "helpers.py"}


def test_caller_catches_by_name_and_falls_back(tmp_path, monkeypatch):
    body = "    try:\n        obj = helpers.load(data)\n    except ValueError:\n        obj = data\n    click.echo(obj)\n"
    assert findings_in_helper(tmp_path, monkeypatch, body) == set()


def test_caller_catches_a_builtin_superclass(tmp_path, monkeypatch):
    helper = "def check(n):\n    if n > 10:\n        raise OverflowError('too large')\n"
    body = "    try:\n        helpers.check(len(data))\n    except ArithmeticError:\n        raise click.ClickException(f'{data!r} is longer than 10 characters; pass a shorter value')\n"
    assert findings_in_helper(tmp_path, monkeypatch, body, helper) == set()


def test_caller_that_shows_the_exception_text_keeps_the_findings(tmp_path, monkeypatch):
    body = "    try:\n        helpers.load(data)\n    except ValueError as exc:\n        raise click.ClickException(f'cannot read DATA: {exc}')\n"
    assert findings_in_helper(tmp_path, monkeypatch, body) == {(4, "AEM101", "cli")}


def test_caller_that_re_raises_keeps_the_findings(tmp_path, monkeypatch):
    body = "    try:\n        helpers.load(data)\n    except ValueError:\n        click.echo('logging it', err=True)\n        raise\n"
    assert findings_in_helper(tmp_path, monkeypatch, body) == {(4, "AEM101", "cli")}


def test_one_unprotected_call_keeps_the_findings(tmp_path, monkeypatch):
    # the same callee called once inside the try and once outside it: the second call passes the raise on
    body = "    try:\n        helpers.load(data)\n    except ValueError:\n        pass\n    helpers.load(data[1:])\n"
    assert findings_in_helper(tmp_path, monkeypatch, body) == {(4, "AEM101", "cli")}


def test_a_second_entry_point_that_does_not_catch_keeps_the_findings(tmp_path, monkeypatch):
    body = "    try:\n        helpers.load(data)\n    except ValueError:\n        pass\n"
    server = ("from fastmcp import FastMCP\nimport helpers\nmcp = FastMCP('x')\n\n@mcp.tool()\n"
              "def read(data: str) -> str:\n    return helpers.load(data)\n")
    assert findings_in_helper(tmp_path, monkeypatch, body, extra={"server.py": server}) == {(4, "AEM101", "agent")}


def test_a_project_base_class_caught_by_the_caller(tmp_path, monkeypatch):
    helper = ("class StoreError(Exception):\n    pass\n\nclass Missing(StoreError):\n    pass\n\n"
              "def get(key):\n    if key not in {'a'}:\n        raise Missing('Not found')\n")
    body = "    try:\n        helpers.get(data)\n    except helpers.StoreError:\n        raise click.ClickException(f'no record {data!r}; run `app list` to see the keys')\n"
    assert findings_in_helper(tmp_path, monkeypatch, body, helper) == set()


def test_a_class_the_caller_does_not_catch_passes(tmp_path, monkeypatch):
    body = "    try:\n        helpers.load(data)\n    except KeyError:\n        pass\n"
    assert findings_in_helper(tmp_path, monkeypatch, body) == {(4, "AEM101", "cli")}


def test_show_audience_says_nobody_reads_it(tmp_path, monkeypatch):
    body = "    try:\n        helpers.load(data)\n    except ValueError:\n        pass\n"
    root = make_project(tmp_path, {"helpers.py": HELPER, "cli.py": cli_calling(body)})
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["check", "--show-audience", "helpers.py:4", "."])
    assert result.exit_code == 0, result.output
    assert "read by nobody" in result.output and "catches ValueError" in result.output
    assert "cli.main -> helpers.load" in result.output


def test_a_flag_raised_and_caught_in_its_own_function(tmp_path, monkeypatch):
    # radicale's shape: a message-less raise used as a flag, caught by the function's own catch-all
    helper = ("import sys\n\ndef prepare(items, limit):\n    stored = None\n    try:\n        for item in items:\n"
              "            if len(item) > limit:\n                raise OverflowError\n    except Exception:\n"
              "        stored = sys.exc_info()\n    return stored\n")
    body = "    if helpers.prepare([data], 10):\n        raise click.ClickException('DATA is longer than 10 characters; pass a shorter value')\n"
    assert findings_in_helper(tmp_path, monkeypatch, body, helper) == set()


def test_a_message_raised_in_a_try_whose_handler_shows_it_is_judged(tmp_path, monkeypatch):
    helper = ("def parse(text):\n    try:\n        if not text:\n            raise ValueError('Invalid input')\n"
              "        return int(text)\n    except ValueError as exc:\n        raise RuntimeError(f'parse: {exc}')\n")
    body = "    helpers.parse(data)\n"
    assert (4, "AEM101", "cli") in findings_in_helper(tmp_path, monkeypatch, body, helper)


def test_class_matching():
    assert catches(["ArithmeticError"], "OverflowError", {})
    assert catches(["LookupError"], "KeyError", {})
    assert not catches(["KeyError"], "ValueError", {})
    assert catches([""], "Anything", {})
    assert not catches(["ValueError"], "", {})  # an unknown class: only a catch-all catches it
    bases = {"Missing": ["StoreError"], "StoreError": ["Exception"]}
    assert catches(["StoreError"], "Missing", bases)
    assert ancestors("Missing", bases) >= {"Missing", "StoreError"}
    assert catches(["ValueError"], "UnicodeDecodeError", {})


def test_a_tool_error_raised_in_a_helper_and_replaced_by_the_tool(tmp_path, monkeypatch):
    # a sink that names its reader (ToolError) in a helper: the tool's catch-all replaces it
    helper = "from fastmcp.exceptions import ToolError\n\ndef fetch(key):\n    if not key:\n        raise ToolError('An error occurred')\n    return key\n"
    server = ("from fastmcp import FastMCP\nimport helpers\nmcp = FastMCP('x')\n\n@mcp.tool()\n"
              "def read(key: str) -> str:\n    try:\n        return helpers.fetch(key)\n    except Exception:\n"
              "        return 'Error: key is empty; pass a key from list_keys'\n")
    diagnostics = run_json(make_project(tmp_path, {"helpers.py": helper, "server.py": server}), monkeypatch, "--preview", "--select", "AEM101")
    assert [d for d in diagnostics if d["filename"] == "helpers.py"] == []
    server_shows = server.replace("except Exception:\n        return 'Error: key is empty; pass a key from list_keys'", "except Exception as exc:\n        return f'Error: {exc}'")
    diagnostics = run_json(make_project(tmp_path / "b", {"helpers.py": helper, "server.py": server_shows}), monkeypatch, "--preview", "--select", "AEM101")
    assert found([d for d in diagnostics if d["filename"] == "helpers.py"]) == {("helpers.py", 5, "AEM101")}


def test_code_no_entry_point_reaches_whose_callers_all_replace_the_raise(tmp_path, monkeypatch):
    # httpie's shape: a formatter plugin (loaded by name, so no entry point reaches it) calls the helper
    # inside `except ValueError: pass`; the application has a CLI entry point
    plugin = ("import helpers\n\nclass JSONFormatter:\n    def format_body(self, body):\n        try:\n"
              "            return helpers.load(body)\n        except ValueError:\n            return body\n")
    files = {"helpers.py": HELPER, "plugin.py": plugin, "cli.py": cli_calling("    click.echo(data)\n")}
    diagnostics = run_json(make_project(tmp_path, files), monkeypatch, "--preview", "--select", "AEM101")
    assert [d for d in diagnostics if d["filename"] == "helpers.py"] == []
    result = CliRunner().invoke(main, ["check", "--show-audience", "helpers.py:4", "."])
    assert "every caller in the project catches ValueError" in result.output
    # a second caller that lets it through keeps the finding
    files["other.py"] = "import helpers\n\ndef parse(body):\n    return helpers.load(body)\n"
    diagnostics = run_json(make_project(tmp_path / "b", files), monkeypatch, "--preview", "--select", "AEM101")
    assert found([d for d in diagnostics if d["filename"] == "helpers.py"]) == {("helpers.py", 4, "AEM101")}


def test_a_library_keeps_the_raise_its_own_callers_replace(tmp_path, monkeypatch):
    # no entry point: the function is the library's API, called from outside too
    plugin = "import helpers\n\ndef safe_load(body):\n    try:\n        return helpers.load(body)\n    except ValueError:\n        return None\n"
    diagnostics = run_json(make_project(tmp_path, {"helpers.py": HELPER, "api.py": plugin}), monkeypatch, "--preview", "--select", "AEM101")
    assert found([d for d in diagnostics if d["filename"] == "helpers.py"]) == {("helpers.py", 4, "AEM101")}


def test_a_handler_that_reads_only_the_class_replaces_the_text(tmp_path, monkeypatch):
    # opensearch's shape: the parse error may quote a password, so only its class name is logged
    helper = ("import logging\nlog = logging.getLogger(__name__)\n\ndef connect(url):\n    try:\n        if '://' not in url:\n"
              "            raise ValueError('Invalid URL format')\n    except Exception as e:\n"
              "        log.debug(f'URL parse failed: {type(e).__name__}')\n        raise RuntimeError(f'Invalid URL {url!r}; pass scheme://host')\n")
    assert findings_in_helper(tmp_path, monkeypatch, "    helpers.connect(data)\n", helper) == set()
    shown = helper.replace("{type(e).__name__}", "{e}")
    assert findings_in_helper(tmp_path / "b", monkeypatch, "    helpers.connect(data)\n", shown) == {(7, "AEM101", "cli")}


def test_a_handler_that_chains_with_from_replaces_the_text(tmp_path, monkeypatch):
    # postgres-mcp's shape: the agent reads "Error validating query: ...", not the inner reason
    helper = ("def validate(query):\n    try:\n        if 'DROP' in query:\n            raise ValueError('Invalid query')\n"
              "    except Exception as e:\n        raise ValueError(f'Error validating query: {query}') from e\n")
    found_rows = findings_in_helper(tmp_path, monkeypatch, "    helpers.validate(data)\n", helper)
    assert not any(row == 4 for row, _, _ in found_rows)
