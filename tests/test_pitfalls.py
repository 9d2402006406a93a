"""The pitfalls peer linters fell into (shared cases/pitfalls.md), kept as tests of errlint."""
from __future__ import annotations


from conftest import EXC_STEPS, at, codes

from errlint.config import Settings


def families(found):
    return {c[:4] if not c.startswith("AEM20") else c for c in found}


def test_b01_fstring_with_nested_quotes_is_extracted():
    found = at('''
        def check(names, allowed):
            bad = [n for n in names if n not in allowed]
            if bad:
                raise ValueError(f"""Unknown names: {", ".join(f"'{n}'" for n in bad)}.""")
    ''', settings=EXC_STEPS)
    assert (5, "AEM201") in found


def test_b05_pep701_fstring_parses_and_is_extracted():
    found = at('''
        def check(cols, schema):
            missing = [c for c in cols if c not in schema]
            raise KeyError(f"Missing columns: {", ".join(f"'{c}'" for c in missing)}")
    ''', settings=EXC_STEPS)
    assert "AEM001" not in {c for _, c in found}
    assert (4, "AEM201") in found


def test_b06_stderr_idioms_and_non_messages():
    found = at('''
        import sys
        from sys import stderr as err

        def main(argv):
            if not argv:
                print("No input.", file=err)
                return 2
            if argv[0] == "-":
                sys.stderr.write("Failed.\\n")
                sys.exit(1)
            if len(argv) > 3:
                sys.exit("Too many paths: pass at most 3, e.g. `tool a.txt b.txt c.txt`.")
            print("Failed.")
            sys.exit(run(argv))
    ''')
    rows = {row for row, _ in found}
    assert 7 in rows and 10 in rows
    assert not rows & {11, 13, 14, 15}


def test_b06_raise_systemexit_is_an_exit_message():
    assert "AEM101" in codes('raise SystemExit("Failed.")\n')
    assert codes("import sys\nsys.exit(1)\n") == []


def test_b07_mcp_error_paths():
    code = '''
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        from mcp.types import CallToolResult, TextContent

        mcp = FastMCP("files")

        @mcp.tool
        def read(name: str) -> str:
            if "/" in name:
                raise ToolError("Invalid name.")
            return open(name).read()

        def failed() -> CallToolResult:
            return CallToolResult(isError=True, content=[TextContent(type="text", text="Something went wrong.")])
    '''
    found = at(code)
    # the deny rule (`"/" in name`) makes AEM204 the most specific finding ("name must not contain /")
    assert (11, "AEM101") in found or (11, "AEM201") in found or (11, "AEM204") in found
    assert (15, "AEM101") in found
    ok = code.replace("isError=True", "isError=False")
    assert not [f for f in at(ok) if f[0] == 15]
    v1 = code.replace("from fastmcp.exceptions import ToolError", "from mcp.server.fastmcp.exceptions import ToolError")
    assert {(11, "AEM101"), (11, "AEM201"), (11, "AEM204")} & set(at(v1))


def test_b09_em_style_variables_are_resolved_and_reported_at_the_sink():
    found = at('''
        def connect(url, timeout):
            msg = f"Could not connect to {url} within {timeout}s."
            raise ConnectionError(msg)

        def parse(text):
            if not text:
                error_message = "Invalid input."
                raise ValueError(error_message)
    ''')
    # the text is read from the variable; the finding sits at the raise, where `# noqa` goes (issue 15)
    assert (9, "AEM101") in found
    assert all(row not in (3, 8) for row, _ in found)


def test_b09_reassigned_names_are_skipped_not_guessed():
    assert codes('''
        def f(x):
            msg = "Invalid input."
            msg = compute(x)
            raise ValueError(msg)
    ''') == []


def test_b10_loggers_by_import_and_config():
    code = '''
        import logging as lg
        from myapp.obs import AUDIT

        report = lg.getLogger(__name__).error

        def run(job):
            report("Job failed.")
            lg.getLogger("svc").critical("Unexpected error.")
            AUDIT.error("Something went wrong.")
            job.badge.error("Something went wrong.")
    '''
    rows = {r for r, c in at(code) if c == "AEM101"}
    assert rows == {8, 9}
    configured = {r for r, c in at(code, settings=Settings(logger_objects=("myapp.obs.AUDIT",))) if c == "AEM101"}
    assert configured == {8, 9, 10}


def test_b11_click_error_paths():
    found = at('''
        import click
        from click import BadParameter as BP

        @click.command()
        @click.option("--port", type=int, default=8080)
        @click.pass_context
        def serve(ctx, port):
            if port < 1024:
                raise BP("Invalid value.")
            if port > 65535:
                ctx.fail("Bad port.")
            click.echo("Port busy.", err=True)
            click.echo("Listening...")
    ''')
    rows = {r for r, _ in found}
    assert {10, 12, 13} <= rows
    assert 14 not in rows


def test_b13_words_about_credentials_are_not_leaks():
    clean = '''
        class AuthError(Exception):
            pass

        def check(password, cfg):
            if len(password) < 12:
                raise AuthError("Password must have at least 12 characters; choose a longer one.")
            if cfg.expired:
                raise AuthError("API token expired. Run `acme login` to get a new token.")
            raise KeyError("Config key 'db.password_ref' is empty; set it in settings.toml.")
    '''
    assert not [c for c in codes(clean) if c.startswith("AEM3")]
    assert "AEM301" in codes("def f(password):\n    raise ValueError(f'Rejected password {password!r}')\n")
    assert "AEM302" in codes("import sys\nfrom pathlib import Path\nsys.exit(f\"Cannot read {Path.home() / '.aws' / 'credentials'}\")\n")


def test_b14_word_boundaries_code_spans_placeholders_and_case():
    found = at('''
        raise RuntimeError(f"{n} retries exceeded errors_total={total}; raise --max-errors or fix host {h}.")
        raise ValueError(f"{failed_jobs} jobs could not start; see `jobctl logs --failed` for details.")
        raise KeyError("Unknown error_code 'E42'. List valid codes with `tool codes`.")
        raise RuntimeError("AN ERROR OCCURRED.")
    ''')
    vague = {r for r, c in found if c.startswith("AEM1")}
    assert vague == {5}


def test_b16_length_limit_on_static_text_with_a_tested_boundary():
    settings = Settings(max_message_length=60)
    code = '''
        raise RuntimeError("Python 3.9 or later is required.")
        raise OSError("Cache dir is read-only; pass --cache-dir to pick another one")
        raise OSError("Cache dir is read-only; pass --cache-dir to pick another one.")
        raise ValueError(f"Unknown region {request.payload['settings']['deployment']['region_name']!r}; run `svc regions`.")
    '''
    rows = {r for r, c in at(code, settings=settings) if c == "AEM401"}
    assert rows == {4}


def test_b16_default_token_limit_leaves_one_sentence_messages_alone():
    assert "AEM401" not in codes('raise OSError("Cache dir is read-only; pass --cache-dir to pick another one.")\n')


def test_b22_latin1_cookie_and_undecodable_bytes(tmp_path):
    from errlint.api import run_context
    from errlint.engine import check_file

    run = run_context()
    good = check_file("l1.py", b'# -*- coding: latin-1 -*-\nraise ValueError("Fichier absent : r\xe9essayez.")\n', run)
    assert all(d.code != "AEM001" for d in good.diagnostics)
    bad = check_file("bad.py", b'raise ValueError("caf\xe9 closed")\n', run)
    assert [d.code for d in bad.diagnostics] == ["AEM001"]
    assert "UTF-8" in bad.diagnostics[0].message or "utf-8" in bad.diagnostics[0].message


def test_b23_deep_concatenation_does_not_crash():
    pieces = " ".join(repr(f"Step {i} failed. ") for i in range(600))
    found = codes(f"raise RuntimeError({pieces})\n")
    assert "AEM401" in found or "AEM001" in found


def test_b24_syntax_error_position_is_pythons():
    from errlint.api import run_context
    from errlint.engine import check_file

    result = check_file("broken.py", b"def f(:\n    pass\n", run_context())
    d = result.diagnostics[0]
    assert (d.code, d.location.row, d.location.column) == ("AEM001", 1, 7)
