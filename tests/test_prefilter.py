"""The byte pre-filter is sound: over the standard library, every file it lets skip the libcst parse
yields no finding when forced through the full path (with every rule on)."""
from __future__ import annotations

import sysconfig
from pathlib import Path

from errlint.api import run_context
from errlint.engine import analyse
from errlint.prefilter import HUGE_FILE_BYTES, code_may_contain_sink, may_contain_sink
from errlint.syntax_errors import parse


def stdlib_files():
    root = Path(sysconfig.get_paths()["stdlib"])
    return [p for p in root.rglob("*.py") if "site-packages" not in p.parts]


def test_skipped_files_have_no_findings_when_forced():
    run = run_context(select=["ALL"], ignore=["AEM002"])
    skipped = 0
    for path in stdlib_files():
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if may_contain_sink(data) and not (len(data) > HUGE_FILE_BYTES and not code_may_contain_sink(data)):
            continue
        skipped += 1
        parsed = parse(data)
        if not isinstance(parsed, tuple):
            continue  # a file libcst cannot parse is reported by the AEM001 path, not the rules
        module, text = parsed
        result = analyse(str(path), module, text, run)
        assert result.diagnostics == [], path
    assert skipped > 0


def test_prefilter_words_cover_every_sink_shape():
    for code in (
        b'raise ValueError("x")', b'print("x", file=sys.stderr)', b'sys.exit("x")', b'log.error("x")',
        b'AUDIT.critical("x")', b'click.echo("x", err=True)', b'ctx.fail("x")', b'abort(404, "x")',
        b'return {"isError": True}', b'CallToolResult(content=[], isError=True)', b'warnings.warn("x")',
        b'raise BadParameter("x")', b'class E(Exception):\n    message = "x"\n',
    ):
        assert may_contain_sink(code), code
        assert code_may_contain_sink(code + b"\n"), code
    assert not may_contain_sink(b"x = 1\ny = [i * 2 for i in range(3)]\n")


def test_token_prefilter_ignores_words_inside_plain_strings_only():
    data_module = b'topics = {"raise": "The raise statement ... print ... exit", "print": "..."}\n'
    assert may_contain_sink(data_module) and not code_may_contain_sink(data_module)
    assert code_may_contain_sink(b'x = f"{sys.exit(1)}"\n')  # code inside an f-string
    assert code_may_contain_sink(b'reply = {"jsonrpc": "2.0", "error": {"code": 1}}\n')
    assert code_may_contain_sink(b"# raise\nx = 1\n")  # comments are kept: cheap and safe
    assert code_may_contain_sink(b'x = "unterminated\n')  # cannot tokenize: the full path decides


def test_huge_data_modules_skip_the_parse():
    import sysconfig

    topics = Path(sysconfig.get_paths()["stdlib"]) / "pydoc_data" / "topics.py"
    if not topics.exists():
        return
    data = topics.read_bytes()
    assert len(data) > HUGE_FILE_BYTES and not code_may_contain_sink(data)


FRAMEWORK_ONLY_SINKS = (
    # the error reply of a route named by nothing but its status
    b'@bp.get("/w/<wid>")\ndef w(wid):\n    return "Something went wrong", 500\n',
    b'@bp.get("/w/<wid>")\ndef w(wid):\n    return "Something went wrong", HTTPStatus.BAD_GATEWAY\n',
    b'@routes.get("/w")\nasync def w(req):\n    return web.Response(text="Something went wrong", status=502)\n',
    b'class Gone(APIException):\n    status_code = 410\n    default_detail = "Something went wrong"\n',
)


def test_prefilter_keeps_routes_whose_error_is_known_by_its_status():
    for code in FRAMEWORK_ONLY_SINKS:
        assert may_contain_sink(code), code
        assert code_may_contain_sink(code), code
    assert not may_contain_sink(b"PORT = 8080\nTIMEOUT = 30.5\nRETRIES = 3\n")  # numbers that are no status


def test_a_flask_blueprint_error_return_is_checked():
    from conftest import lint

    code = '''
        from flask import Blueprint
        bp = Blueprint("widgets", __name__)

        @bp.get("/widgets/<wid>")
        def widget(wid):
            return "Something went wrong", 500
    '''
    assert [(d.location.row, d.code) for d in lint(code, select=["AEM101"])] == [(7, "AEM101")]
