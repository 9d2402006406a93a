"""Fuzzing: errlint never raises, never reports an internal error, reports AEM001 exactly when the
running Python's compile() rejects a file, and `--fix --unsafe-fixes` output parses whenever the
input did. Inputs: hypothesmith programs, generated error-message programs (every sink, quoting and
formatting style, so that rules and fixes run), and byte-level mutations of real files.

CI runs a few hundred examples in about a minute; set ERRLINT_FUZZ_EXAMPLES=5000 for a longer run.
"""
from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from errlint.api import run_context
from errlint.engine import check_file
from errlint.syntax_errors import _compile_problem
from errlint.runner import fix_result

pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")  # hypothesmith compiles odd programs
ROOT = Path(__file__).resolve().parent.parent
SCALE = int(os.environ.get("ERRLINT_FUZZ_EXAMPLES", "0"))
RUN = run_context(select=["ALL"])


def examples(default: int) -> settings:
    return settings(max_examples=SCALE or default, deadline=None, database=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


def compiles(data: bytes) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(data, "<fuzz>", "exec", dont_inherit=True)
        return True
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False


def check_invariants(data: bytes, fix: bool = True) -> None:
    result = check_file("fuzz.py", data, RUN)
    codes = [d.code for d in result.diagnostics]
    assert "AEM000" not in codes, [d.message for d in result.diagnostics if d.code == "AEM000"]
    assert codes.count("AEM001") <= 1
    aem001 = next((d for d in result.diagnostics if d.code == "AEM001"), None)
    if compiles(data):
        # the only AEM001 allowed on a file Python compiles names a libcst limitation
        assert aem001 is None or "libcst cannot parse this file although Python can" in aem001.message, aem001
    elif aem001 is None:
        # documented exception: only this Python's grammar rejects the file, at a newer construct
        problem = _compile_problem(data)
        assert problem is not None and problem[1], "compile() rejects the file but errlint checked it"
    if fix and result.text is not None:
        report = fix_result(result, RUN, unsafe=True)
        if report.fixed_text is not None:
            assert compiles(report.fixed_text.encode(result.encoding)), report.fixed_text


# ---------------------------------------------------------------------- hypothesmith


@examples(200)
@given(hypothesmith.from_grammar())
def test_hypothesmith_grammar_programs(source):
    check_invariants(source.encode("utf-8"))


@examples(25)
@given(hypothesmith.from_node())
def test_hypothesmith_node_programs(source):
    check_invariants(source.encode("utf-8"))


# ---------------------------------------------------------------------- error-message programs

NAMES = ("value", "path", "api_key", "token", "e", "user_id", "limit", "exc", "password", "url", "choices")
TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40) | st.sampled_from([
    "Something went wrong", "error: bad input", "Invalid value", "failed to connect; retry later",
    "Please contact support", "AKIAIOSFODNN7EXAMPLE", "see /home/alice/.aws/credentials", "Error: ", "not found",
    "%s", "{0}", "{}", "{{x}}", "100%", "\\", "'", '"', "\n", "\r\n", "\t", "\x00", "\u2028", "\x0c", "é",
])


def escape(text: str, quote: str, style: str) -> str:
    out = text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\x00", "\\x00")
    out = out.replace(quote[0], "\\" + quote[0])
    if style in ("f", "format"):
        out = out.replace("{", "{{").replace("}", "}}")
    if style == "percent":
        out = out.replace("%", "%%")
    return out


@st.composite
def message(draw):
    """A message expression in one of the formatting styles errlint understands."""
    parts = draw(st.lists(st.one_of(TEXT.map(lambda t: ("text", t)), st.sampled_from(NAMES).map(lambda n: ("field", n))), min_size=1, max_size=5))
    style = draw(st.sampled_from(["plain", "f", "percent", "format", "concat", "implicit", "plus_str"]))
    quote = draw(st.sampled_from(["'", '"', "'''", '"""']))
    if style == "f":
        prefix = draw(st.sampled_from(["f", "F", "rf"]))
        if prefix == "rf":
            parts = [p for p in parts if p[0] == "field" or not any(c in p[1] for c in "\\\n\r\x00'\"")]
        body = "".join(escape(p[1], quote, "f") if p[0] == "text" and prefix != "rf" else
                       p[1].replace("{", "{{").replace("}", "}}") if p[0] == "text" else
                       "{" + p[1] + draw(st.sampled_from(["", "!r", "!s", ":>10", "!r:.80", "="])) + "}"
                       for p in parts)
        return f"{prefix}{quote}{body}{quote}"
    texts = [escape(p[1], quote, style if style in ("percent", "format") else "plain") if p[0] == "text" else
             ("%s" if style == "percent" else "{}" if style == "format" else "") for p in parts]
    fields = [p[1] for p in parts if p[0] == "field"]
    body = f"{quote}{''.join(texts)}{quote}"
    if style == "percent" and fields:
        return f"{body} % ({', '.join(fields)},)"
    if style == "format" and fields:
        return f"{body}.format({', '.join(fields)})"
    if style == "concat":
        return " + ".join([f"{quote}{escape(p[1], quote, 'plain')}{quote}" if p[0] == "text" else f"str({p[1]})" for p in parts])
    if style == "implicit":
        return "(" + " ".join(f"{quote}{escape(p[1], quote, 'plain')}{quote}" for p in parts if p[0] == "text") + f" {quote}{quote})"
    if style == "plus_str" and fields:
        return f"{body} + repr({fields[0]})"
    return body


SINKS = (
    "raise ValueError({m})",
    "raise RuntimeError({m}) from None",
    "raise click.BadParameter({m})",
    "raise ToolError({m})",
    "raise HTTPException(status_code=400, detail={m})",
    "print({m})\n{i}sys.exit(1)",
    "print({m}, file=sys.stderr)\n{i}sys.exit(2)",
    "click.echo({m})\n{i}sys.exit(1)",
    "sys.exit({m})",
    "logger.error({m})",
    "log.exception({m})",
    "warnings.warn({m})",
    "return {{'isError': True, 'content': [{{'type': 'text', 'text': {m}}}]}}",
    "return {m}",
    "parser.error({m})",
    "ctx.fail({m})",
    "abort(404, {m})",
)
HEADER = (
    "import sys, logging, warnings, click\nfrom mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n"
    "from fastapi import HTTPException\nmcp = FastMCP('fuzz')\nlogger = logging.getLogger(__name__)\nlog = logger\n\n"
)


@st.composite
def program(draw):
    sink = draw(st.sampled_from(SINKS))
    decorator = draw(st.sampled_from(["", "@mcp.tool()\n", "@click.command()\n"]))
    params = ", ".join(NAMES)
    shape = draw(st.sampled_from(["plain", "guard", "handler"]))
    msg = draw(message())
    if shape == "plain":
        body = "    " + sink.format(m=msg, i="    ")
    elif shape == "guard":
        body = f"    if not {draw(st.sampled_from(NAMES))}:\n        " + sink.format(m=msg, i="        ")
    else:
        body = "    try:\n        run(value)\n    except Exception as e:\n        " + sink.format(m=msg, i="        ")
    tail = draw(st.sampled_from(["", "    # noqa: AEM101\n", "\n\nif __name__ == '__main__':\n    main()\n"]))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    source = HEADER + f"{decorator}def main({params}):\n{body}\n{tail}"
    return source.replace("\r\n", "\n").replace("\n", newline)


@examples(400)
@given(program())
def test_error_message_programs(source):
    data = source.encode("utf-8")
    assume(compiles(data))  # the generator aims for valid code; the mutation test covers the rest
    check_invariants(data)


# ---------------------------------------------------------------------- byte-level mutations


def real_files():
    files = sorted((ROOT / "examples").glob("*.py"))
    files += sorted(p for p in (ROOT / "errlint").rglob("*.py") if p.stat().st_size < 12_000)
    files += sorted((ROOT / "tests" / "robustness" / "cases").glob("*.txt"))
    return [p.read_bytes() for p in files]


SOURCES = real_files()
PAYLOADS = [b'"', b"'", b'"""', b"(", b")", b"[", b"{", b"}", b":", b"\n", b"\r", b"\r\n", b"\x00", b"\xff", b"\xc3", b"\t",
            b"\x0c", b"\\", b"#", b" ", b"    ", b"f'{", b"raise ", b"print(", b"sys.exit(1)\n", b"# -*- coding: latin-1 -*-\n",
            b"\xef\xbb\xbf", b"\xe2\x80\xa8", b"lambda: ", b"yield ", b"return ", b"await ", b"async ", b"def ", b"class ",
            b"global x\n", b"nonlocal x\n", b"from __future__ import annotations\n", b"*", b"**", b"=", b":=", b"@"]


@st.composite
def mutated(draw):
    data = bytearray(draw(st.sampled_from(SOURCES)))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["insert", "delete", "flip", "duplicate"]))
        if kind == "insert":
            data[at:at] = draw(st.sampled_from(PAYLOADS) | st.binary(min_size=1, max_size=4))
        elif kind == "delete":
            del data[at: at + draw(st.integers(1, 40))]
        elif kind == "flip" and at < len(data):
            data[at] ^= draw(st.integers(1, 255))
        elif kind == "duplicate":
            size = draw(st.integers(1, 200))
            data[at:at] = data[at: at + size]
    return bytes(data)


@examples(300)
@given(mutated())
def test_mutated_real_files(data):
    check_invariants(data)


# ---------------------------------------------------------------------- through the CLI


def test_cli_fix_on_a_directory_of_fuzzed_files(tmp_path):
    """One `errlint --fix --unsafe-fixes` run over generated and mutated files: no traceback, exit
    status 0, 1 or 2, and every file that compiled before compiles after."""
    from hypothesis import Phase

    count = max(60, SCALE // 10)
    written = []

    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(st.one_of(program().map(str.encode), mutated(), hypothesmith.from_grammar().map(str.encode)))
    def collect(data):
        path = tmp_path / f"f{len(written):04}.py"
        path.write_bytes(data)
        written.append((path, compiles(data)))

    collect()
    result = subprocess.run([sys.executable, "-m", "errlint", "--fix", "--unsafe-fixes", "--no-cache", "--isolated", "."],
                            cwd=tmp_path, capture_output=True, timeout=600)
    assert b"Traceback" not in result.stderr, result.stderr.decode(errors="replace")
    assert result.returncode in (0, 1, 2)
    assert b"AEM000" not in result.stdout
    for path, compiled in written:
        if compiled:
            assert compiles(path.read_bytes()), path
    assert not list(tmp_path.glob(".errlint-*"))
