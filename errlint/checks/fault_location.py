"""Whether a message points at the place in the reader's own file or settings where the fault is, as
a compiler diagnostic does: "Error reading schema at line {n}: {e}", "Invalid value for option {o} in
section {s}", "Key '{k}' in {path} does not contain the expected text", "{path}:{lineno}: bad indent".
Its reader edits that place, so the step is plain (AEM201).

A place counts only inside a document: the message names a file, schema, configuration or other
document, shows a local file path (a placeholder named for one, or a literal file name), or writes a
settings section in brackets. A line, a section or an entry anywhere else is no place to edit: an
order line, a stadium section, a record in a data source, an S3 key under a prefix, or the program's
own code in a traceback. A message that says the thing is absent ("not found in table {t}", "Key
'token' in {path} is missing") locates nothing either: its reader needs where to find valid ones.
"""
from __future__ import annotations

import re
from typing import Optional

from ..model import PLACEHOLDER_MARK, URL, Placeholder, Template

_MARK = PLACEHOLDER_MARK
_NAME = rf"(?:{_MARK}|[\w.\[\]/-]+)"
_QUOTED_NAME = rf"['\"`\[]?{_NAME}['\"`\]]?"
# a position: "at line {n}", "line 12", "on line no. {n}", "at character {offset}"; not "pipeline {x}"
POSITION = re.compile(rf"(?<!command )(?<![\w-])(?:line|character|char|offset|position)\s+(?:no\.?\s*|number\s+)?(?:{_MARK}|\d+(?!\w))", re.I)
# "in section {s}", "in the [server] section", "in the [tool.x] table of {path}"
IN_SECTION = re.compile(rf"\b(?:in|under|of)\s+(?:the\s+)?(?:(?:section|table|block)\s+{_QUOTED_NAME}|{_QUOTED_NAME}\s+(?:section|table|block)\b)", re.I)
# an entry named, then the file or section that holds it: "Key '{k}' in {path}", "option already
# exists in {section}", "Duplicate entry {name} in {manifest_path}", "Option 'workers' in settings.ini"
ENTRY_IN = re.compile(
    rf"\b(?:option|key|setting|field|entry|property|parameter|variable|value)s?\b(?:\s+[^\s{_MARK}]+|\s*['\"`]?{_MARK}['\"`]?){{0,3}}?"
    rf"\s+(?:in|under|of)\s+(?:the\s+)?(?P<container>['\"`]?{_MARK}|['\"`]?[\w./-]+\.(?:ini|cfg|conf|toml|ya?ml|json|env|csv|xml|py|txt)\b)", re.I)
# "{path}:{lineno}:" as compilers write it
PATH_COLON_LINE = re.compile(rf"{_MARK}:(?:{_MARK}|\d+)(?::(?:{_MARK}|\d+))?:")
DOCUMENT = re.compile(
    r"\b(?:files?|documents?|schemas?|config(?:uration)?s?|settings|manifests?|templates?|scripts?|"
    r"spreadsheets?|workbooks?|sheets?|json|yaml|yml|toml|ini|csv|xml|markdown|sql|queries|query|statements?|options?)\b"
    r"|\[[\w.-]+\]|\b[\w-]+\.(?:ini|cfg|conf|toml|ya?ml|json|env|csv|xml|py|txt)\b", re.I)
LOCAL_PATH_NAME = re.compile(r"(?:path|file|filename|fname|manifest)$", re.I)
LINE_NAME = re.compile(r"(?:^|_)(?:line|lineno|line_no|row|lnum)$", re.I)
# a path that is not the reader's to edit: a remote object, or the program's own code in a traceback
FOREIGN_ROOT = re.compile(r"(?:^|_)(?:url|uri|s3|gs|gcs|bucket|remote|http|tb|frame|traceback|stack)(?:$|_|\.)", re.I)
SECTION_NAME = re.compile(r"(?:^|_)section$", re.I)
ABSENT = re.compile(
    r"\b(?:not found|(?:does|do) not exist|doesn't exist|unknown|no such|not defined|undefined|not recogni[sz]ed|missing|"
    r"(?:could not|couldn't|cannot|can't|unable to) (?:find|locate)|cannot be (?:found|located)|(?:has|have) no|not present|absent|not set)\b"
    r"|\bno\b(?:\s+\S+){1,4}?\s+(?:found|present|given|defined|set)\b", re.I)  # "No $schema field found in server.json"
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")


def locates_fault(template: Template) -> bool:
    """The message names a line or position, a settings section, or an entry of a local file or
    section, inside a document, and does not say the thing is absent."""
    prose = template.prose
    if ABSENT.search(QUOTED.sub("", prose)):
        return False
    if any(FOREIGN_ROOT.search(name) for h in template.placeholders for name in h.names):
        return False
    in_document = bool(DOCUMENT.search(prose)) or any(_local_path(h) for h in template.placeholders)
    if in_document and (POSITION.search(prose) or IN_SECTION.search(prose)):
        return True
    for match in PATH_COLON_LINE.finditer(prose):
        first, second = _holder(template, prose, match.start()), _holder(template, prose, match.start() + 2)
        if first is not None and _local_path(first) and (second is None or any(LINE_NAME.search(_last(n)) for n in second.names)):
            return True
    for match in ENTRY_IN.finditer(prose):
        container = match.group("container")
        if _MARK not in container:
            return True  # a literal file name: "Option 'workers' in settings.ini"
        holder = _holder(template, prose, match.start("container") + container.index(_MARK))
        if holder is not None and (_local_path(holder) or in_document and any(SECTION_NAME.search(_last(n)) for n in holder.names)):
            return True
    return False


def _holder(template: Template, prose: str, at: int) -> Optional[Placeholder]:
    """The placeholder whose mark sits at `at` in the prose."""
    if at >= len(prose) or prose[at] != _MARK:
        return None
    index = prose.count(_MARK, 0, at)
    return template.placeholders[index] if index < len(template.placeholders) else None


def _local_path(holder: Placeholder) -> bool:
    return not holder.has(URL) and any(LOCAL_PATH_NAME.search(_last(name)) for name in holder.names)


def _last(name: str) -> str:
    return name.rsplit(".", 1)[-1]
