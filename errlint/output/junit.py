"""JUnit XML, for CI test-report views (GitLab, Jenkins, Azure): one test case per checked file.

Shape (Jenkins' junit-10.xsd allows several `<failure>`s per test case):

    <testsuites name="errlint" tests="2" failures="1" errors="0">
      <testsuite name="errlint" tests="2" failures="1" errors="0" skipped="0">
        <testcase name="pkg/a.py" classname="pkg.a" file="pkg/a.py">
          <failure message="generic message ..." type="AEM101">5:22: AEM101 generic message ...

    Say which operation failed ...</failure>
        </testcase>
        <testcase name="pkg/b.py" classname="pkg.b" file="pkg/b.py" />
      </testsuite>
    </testsuites>

`files` (the CLI passes every checked file) gives the passing test cases; without it, only files with
diagnostics appear. `tests` counts test cases (files) and `failures` the files with a diagnostic, as
ruff's `render/junit.rs` counts per case. Text is made XML-safe: characters XML 1.0 cannot hold are
written as `\\xNN`/`\\uNNNN` escapes, and ElementTree escapes the rest.
"""
from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from typing import Dict, Iterable, List, Optional

from ..model import Diagnostic

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """`text` with the characters XML 1.0 forbids replaced by a visible Python-style escape."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text)


def _classname(path: str) -> str:
    stem = path.replace(os.sep, "/")
    if stem.endswith((".py", ".pyi")):
        stem = stem.rsplit(".", 1)[0]
    return stem.strip("/").replace("/", ".") or path


def _ordered_files(diagnostics: List[Diagnostic], files: Optional[Iterable[object]]) -> List[str]:
    names = [str(f) for f in files] if files is not None else []
    seen = set(names)
    return names + sorted({d.filename for d in diagnostics} - seen)


def report(diagnostics: List[Diagnostic], files: Optional[Iterable[object]] = None) -> ET.Element:
    """The `<testsuites>` element: one `<testcase>` per file, one `<failure>` per diagnostic."""
    by_file: Dict[str, List[Diagnostic]] = {}
    for d in diagnostics:
        by_file.setdefault(d.filename, []).append(d)
    names = list(dict.fromkeys(_ordered_files(diagnostics, files)))
    failing = sum(1 for name in names if by_file.get(name))
    counts = {"tests": str(len(names)), "failures": str(failing), "errors": "0"}
    root = ET.Element("testsuites", {"name": "errlint", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": "errlint", **counts, "skipped": "0"})
    for name in names:
        attrib = {"name": xml_text(name), "classname": xml_text(_classname(name)), "file": xml_text(name)}
        case = ET.SubElement(suite, "testcase", attrib)
        for d in by_file.get(name, []):
            failure = ET.SubElement(case, "failure", {"message": xml_text(d.message), "type": d.code})
            text = f"{d.location.row}:{d.location.column}: {d.code} {d.message}"
            failure.text = xml_text(text + (f"\n\n{d.suggestion}" if d.suggestion else ""))
    return root


def render(diagnostics: List[Diagnostic], files: Optional[Iterable[object]] = None, **_: object) -> str:
    """The report as indented UTF-8 XML text with an XML declaration and a final newline."""
    root = report(diagnostics, files)
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
