"""Whether a message points at the place in the reader's own file or settings where the fault is, as
a compiler diagnostic does: "Error reading schema at line {n}: {e}", "Invalid value for option {o} in
section {s}", "Key '{k}' in {path} does not contain the expected text". Its reader edits that place,
so the step is plain (AEM201).

A place is a line number, a section of a settings file, or an entry (an option, key, field,
setting...) named inside a file or section the message shows. A message that says the thing is
absent ("Column {c} not found in table {t}", "Unknown option {o} in section {s}") locates nothing the
reader can edit: it needs where to find the valid ones, so it does not count.
"""
from __future__ import annotations

import re

from ..model import PLACEHOLDER_MARK, Template

_MARK = PLACEHOLDER_MARK
_NAME = rf"(?:{_MARK}|[\w.\[\]/-]+)"
_QUOTED_NAME = rf"['\"`\[]?{_NAME}['\"`\]]?"
# "at line {n}", "line 12", "on line no. {n}"; not "pipeline {x}" or "command line {args}"
LINE_NUMBER = re.compile(rf"(?<!command )(?<![\w-])line\s+(?:no\.?\s*|number\s+)?(?:{_MARK}|\d+(?!\w))", re.I)
# "in section {s}", "in the [server] section", "under section 'auth'"
IN_SECTION = re.compile(rf"\b(?:in|under|of)\s+(?:the\s+)?(?:section\s+{_QUOTED_NAME}|{_QUOTED_NAME}\s+section\b)", re.I)
# an entry named, then the file or section that holds it: "Key '{k}' in {path}", "option already
# exists in {section}", "Duplicate entry {name} in {manifest_path}"
ENTRY_IN = re.compile(
    rf"\b(?:option|key|setting|field|entry|property|parameter|variable|value)s?\b(?:\s+[^\s{_MARK}]+|\s*['\"`]?{_MARK}['\"`]?){{0,3}}?"
    rf"\s+(?:in|under|of)\s+(?:the\s+)?['\"`]?{_MARK}", re.I)
CONTAINER_NAME = re.compile(r"(?:^|_)(?:path|file|filename|fname|section|source|config_file|config_path|manifest)$", re.I)
ABSENT = re.compile(r"\b(?:not found|(?:does|do) not exist|doesn't exist|unknown|no such|not defined|undefined|not recogni[sz]ed)\b", re.I)


def locates_fault(template: Template) -> bool:
    """The message names the line, the section, or an entry of a file or section it shows, and
    does not say the thing is absent."""
    prose = template.prose
    if ABSENT.search(prose):
        return False
    if LINE_NUMBER.search(prose) or IN_SECTION.search(prose):
        return True
    for match in ENTRY_IN.finditer(prose):
        index = prose.count(_MARK, 0, match.end()) - 1  # the placeholder the entry sits in
        if 0 <= index < len(template.placeholders):
            holder = template.placeholders[index]
            if any(CONTAINER_NAME.search(name.rsplit(".", 1)[-1]) for name in holder.names):
                return True
    return False
