"""Is a success reply (isError=false) an error in disguise? Read it the way an agent would.

Classified by structure and statement shape, as the static rules do, not by a word anywhere:

- JSON (the whole reply, each text item, and JSON held in a string inside JSON, at any depth): an
  object whose error field (`error`, `errors`, `exception`, `error_message`, ...) holds something, whose
  status field (`status`, `state`, `result`, `outcome`) says error/failed/not found/invalid, or whose
  `success`/`ok` is false; a list is an error when all of its items are, and in a list only error
  fields count (a job record whose status is "failed" is data);
- statements: the reply's first line and its headings, sentence by sentence, when one is an error
  statement: headed ("Error: ...", "Database error: ...", "# Move Failed - ...") or not ("Document
  example does not exist", "Project x not found", "Failed to open ...", "Invalid path ...");
- Python exception text anywhere ("'NoneType' object has no attribute ...", a traceback, "KeyError: ...").

Zero-result answers ("No results found", "0 errors") are not errors. `disguised_error(text, items)`
returns a `Disguise` (its shape and the whole sentence or JSON object that says it) or None.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence

ERROR_KEYS = {"error", "errors", "err", "exception", "error_message", "errormessage", "error_msg", "errmsg", "fault"}
STATUS_KEYS = {"status", "state", "result", "outcome"}
SUCCESS_KEYS = {"success", "ok", "succeeded", "successful"}
FLAG_KEYS = {"iserror", "is_error", "failed"}
MESSAGE_KEYS = {"message", "msg", "detail", "details", "result", "text", "description", "reason"}
FAIL_STATUS = re.compile(r"^(?:error|errored|err|fail|failed|failure|not[ _-]?found|invalid|denied|forbidden|"
                         r"unauthori[sz]ed|rejected|aborted|exception)$", re.I)

PYTHON_EXCEPTION = re.compile(
    r"Traceback \(most recent call last\)"
    r"|'\w+' object (?:has no attribute|is not (?:subscriptable|iterable|callable)|cannot be interpreted)"
    r"|(?:^|\n)\s*(?:[A-Z]\w*(?:Error|Exception)|KeyError|StopIteration)(?::\s|$)"
    r"|\[Errno \d+\]"
    r"|\btakes \d+ positional arguments? but \d+ (?:were|was) given"
    r"|\bunsupported operand type\(s\)|\b(?:list|string|tuple) index out of range\b"
    r"|\bunexpected keyword argument '\w+'"
)
# statement shapes: a heading that names the failure, or a subject with a failure predicate
_HEADED = re.compile(r"^(?:[A-Za-z][\w' .-]{0,40}?\s)?(?:error|errors|exception|failure|failed)\s*(?::|\s[-–—]\s|$)", re.I)
_PREDICATE = re.compile(
    r"\b(?:does|do|did)\s*(?:not|n't)\s+exist\b"
    r"|\b(?:was|were|is|are|could\s*(?:not|n't)\s+be|cannot\s+be|can't\s+be)?\s*not\s+found\b"
    r"|\bno\s+such\s+\w+"
    r"|\bcould\s*(?:not|n't)\s+(?:find|locate|open|read|load|parse|resolve|access|connect)\b"
    r"|\b(?:cannot|can't|unable\s+to)\s+(?:find|locate|open|read|load|parse|resolve|access|connect)\b"
    r"|^failed\b|\bfailed\s+to\b|\bfailed\s*[:!.]?$|\bhas\s+failed\b"
    r"|^invalid\b|\b(?:is|are|was)\s+(?:not\s+(?:a\s+)?valid|invalid)\b",
    re.I,
)
_NOT_ERROR = re.compile(
    r"^\W*no\s+(?:results?|matches|matching|items|entries|records|rows|documents|files|issues|errors|problems|failures)\b"
    r"|\b(?:no|0|zero|without)\s+(?:errors?|failures?|failed)\b|\bfailed:\s*0\b|\berrors?:\s*(?:0|none)\b",
    re.I,
)
_MARKUP = re.compile(r"^[\s#>*_`~|\-+•·]+|[*_`]+|^[^\w'\"(\[]+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")


@dataclass(frozen=True)
class Disguise:
    """`shape` is "json-error-field", "json-status-field", "statement" or "python-exception";
    `evidence` the whole sentence, or the JSON object, that says the call failed."""

    shape: str
    evidence: str


def disguised_error(text: str, items: Sequence[str] = ()) -> Optional[Disguise]:
    """The error a success reply states (see the module docstring), or None for a real success."""
    pieces = [t for t in (list(items) if len(items) > 1 else []) + [text] if t and t.strip()]
    for piece in pieces:
        data = _json(piece)
        if data is not _NO_JSON:
            found = _in_json(data, 0)
            if found:
                return found
    for piece in pieces:
        if _json(piece) is not _NO_JSON:
            continue
        found = _in_text(piece)
        if found:
            return found
    return None


_NO_JSON = object()


def _json(text: str) -> Any:
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[":
        return _NO_JSON
    try:
        return json.loads(stripped)
    except ValueError:
        return _NO_JSON


def _compact(value: Any, width: int = 400) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= width else text[: width - 1] + "…"


def _in_json(value: Any, depth: int, record: bool = False) -> Optional[Disguise]:
    """`record`: `value` sits in a list, so it is a data record (a job whose status is "failed" is
    data); only its error fields count. JSON held in a string is an envelope again."""
    if depth > 8:
        return None
    if isinstance(value, dict):
        for key, inner in value.items():
            name = str(key).lower()
            if name in ERROR_KEYS and inner not in (None, False, "", [], {}, 0):
                return Disguise("json-error-field", _compact(value))
            if record:
                continue
            if name in STATUS_KEYS and isinstance(inner, str) and FAIL_STATUS.match(inner.strip()):
                return Disguise("json-status-field", _compact(value))
            if name in SUCCESS_KEYS and inner is False:
                return Disguise("json-status-field", _compact(value))
            if name in FLAG_KEYS and inner is True:
                return Disguise("json-status-field", _compact(value))
        for key, inner in value.items():
            if isinstance(inner, (dict, list)):
                found = _in_json(inner, depth + 1, record)
            elif isinstance(inner, str):
                nested = _json(inner)
                if nested is not _NO_JSON:
                    found = _in_json(nested, depth + 1)
                elif str(key).lower() in MESSAGE_KEYS and len(value) <= 3 and not record:
                    found = _in_text(inner)  # {"result": "Document x does not exist"}
                else:
                    found = None
            else:
                found = None
            if found:
                return found
        return None
    if isinstance(value, list):
        if not value:
            return None
        found_all = [_in_json(item, depth + 1, True) for item in value]
        if all(found_all):
            return found_all[0]
        return None
    if isinstance(value, str):
        nested = _json(value)
        if nested is not _NO_JSON:
            return _in_json(nested, depth + 1)
        return _in_text(value)
    return None


def _statements(text: str) -> List[str]:
    """The sentences of the first non-empty line, then each heading line, without markdown."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return []
    chosen = [lines[0]] + [line for line in lines[1:] if line.lstrip().startswith("#")]
    out: List[str] = []
    for line in chosen:
        clean = _MARKUP.sub("", line.strip()).strip()
        out.extend(s.strip() for s in _SENTENCE.split(clean) if s.strip())
    return out


def _in_text(text: str) -> Optional[Disguise]:
    exception = PYTHON_EXCEPTION.search(text)
    if exception:
        if exception.group(0).startswith("Traceback"):  # quote the exception line, not the header
            last = [m for m in re.finditer(r"(?m)^\s*[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit)\b.*$", text)]
            if last:
                return Disguise("python-exception", last[-1].group(0).strip()[:400])
        return Disguise("python-exception", sentence_at(text, exception.start()))
    for statement in _statements(text):
        if _NOT_ERROR.search(statement):
            continue
        if _HEADED.match(statement) or _PREDICATE.search(statement):
            return Disguise("statement", statement)
    return None


def sentence_at(text: str, index: int, limit: int = 400) -> str:
    """The whole sentence (or line) of `text` that contains position `index`, up to `limit` characters."""
    start = max(text.rfind("\n", 0, index) + 1, 0)
    for match in _SENTENCE.finditer(text, start, index):
        start = match.end()
    end = len(text)
    newline = text.find("\n", index)
    if newline != -1:
        end = newline
    match = _SENTENCE.search(text, index, end)
    if match:
        end = match.start()
    out = text[start:end].strip()
    return out if len(out) <= limit else out[: limit - 1] + "…"
