"""Fixes that keep the program's meaning, from a breaker's hunt (kinds, each with inputs of my own):

- a keyword argument goes right after the last argument's value: before its trailing comma and
  before a comment after it, never into the comment;
- a pass whose fixes change the text but remove no finding is not applied (no fix loop);
- a fix never uses a name the code binds to something else (`sys = argv`, `ToolError =
  RuntimeError`), nor adds `file=` to a call of a rebound `print`;
- an added import goes after the docstring's line (whatever follows the docstring on it) and the
  `from __future__` imports, not after the blank lines that follow them;
- a library exception whose first argument is no message (`PydanticKnownError("greater_than", ...)`)
  gets no message edits; `PydanticCustomError`'s message is its second argument;
- appended text fits what it follows: no second separator after a final `;`, no leading space in an
  empty message;
- a file in newer grammar than the running Python is fixed when libcst reads the result.
"""
from __future__ import annotations

import ast

from test_fixes import fixed


def test_a_keyword_goes_before_a_comment_after_the_last_argument():
    code = 'import sys\n\n\ndef main():\n    print(\n        "Error: bad input"  # why\n    )\n    sys.exit(2)\n'
    out = fixed(code, select=["AEM606"])
    assert out == code.replace('"Error: bad input"  # why', '"Error: bad input", file=sys.stderr  # why')
    assert fixed(out, select=["AEM606"]) == out


def test_a_keyword_goes_before_a_trailing_comma_and_after_a_starred_argument():
    code = 'import sys\n\n\ndef main(parts):\n    print(\n        "Error:", *parts,  # the parts\n    )\n    sys.exit(2)\n'
    out = fixed(code, select=["AEM606"])
    assert '"Error:", *parts, file=sys.stderr,  # the parts\n' in out
    ast.parse(out)


def test_a_name_the_code_binds_otherwise_is_not_used_by_a_fix():
    local_sys = 'def main(argv):\n    sys = argv\n    if not sys:\n        print("Error: no arguments given")\n        raise SystemExit(2)\n'
    assert fixed(local_sys, select=["AEM606"]) == local_sys
    rebound_print = 'import sys\nprint = sys.stdout.write\n\n\ndef main():\n    print("Error: bad")\n    sys.exit(1)\n'
    assert fixed(rebound_print, select=["AEM606"]) == rebound_print
    shadowed_class = (
        'from mcp.server.mcpserver import MCPServer\nmcp = MCPServer("x")\n\n\n@mcp.tool()\ndef rename(title: str) -> str:\n'
        '    ToolError = RuntimeError\n    if len(title) > 80:\n        raise ValueError(f"title is {len(title)} characters; the limit is 80")\n'
        '    return "ok"\n'
    )
    assert fixed(shadowed_class, select=["AEM603"]) == shadowed_class
    assert "import ToolError" in fixed(shadowed_class.replace("    ToolError = RuntimeError\n", ""), select=["AEM603"])


def test_an_import_goes_after_the_docstring_line_and_before_the_blank_lines():
    same_line = '"""Exports rows."""; import os\n\n\ndef main():\n    print("Error: bad input")\n    raise SystemExit(2)\n'
    out = fixed(same_line, select=["AEM606"])
    assert out.startswith('"""Exports rows."""; import os\nimport sys\n\n\ndef main():')
    future = '"""Doc."""\n\nfrom __future__ import annotations\n\n\ndef main():\n    print("Error: bad input")\n    raise SystemExit(2)\n'
    assert fixed(future, select=["AEM606"]).startswith('"""Doc."""\n\nfrom __future__ import annotations\nimport sys\n\n\ndef main():')


def test_a_library_exception_whose_first_argument_is_no_message():
    code = (
        'import sys\nfrom pydantic_core import PydanticCustomError, PydanticKnownError\n\n\ndef check_gt(x, gt):\n'
        '    if not (x > gt):\n        raise PydanticKnownError("greater_than", {"gt": gt})\n    return x\n\n\n'
        'def check_even(x):\n    if x % 2:\n        raise PydanticCustomError("not_even", "Invalid number", {"x": x})\n    return x\n'
    )
    out = fixed(code, select=["AEM202"])
    assert 'PydanticKnownError("greater_than", {"gt": gt})' in out
    assert 'PydanticCustomError("not_even", f"Invalid number (got {x!r:.80})", {"x": x})' in out


def test_appended_text_fits_what_it_follows():
    semicolon = 'def f(mode):\n    if mode not in ("a", "b"):\n        raise ValueError(f"Invalid mode {mode!r};")\n'
    assert 'f"Invalid mode {mode!r}; expected one of: a, b"' in fixed(semicolon, select=["AEM204"])
    colon = 'def f(mode):\n    if mode not in ("a", "b"):\n        raise ValueError(f"Invalid mode {mode!r}:")\n'
    assert 'f"Invalid mode {mode!r}: expected one of: a, b"' in fixed(colon, select=["AEM204"])
    empty = 'def f(mode):\n    if mode not in ("a", "b"):\n        raise ValueError("")\n'
    assert 'ValueError("expected one of: a, b")' in fixed(empty, select=["AEM204"])


def test_newer_grammar_is_fixed_when_libcst_reads_the_result():
    code = 'import sys\ntype Alias = int\n\n\ndef main(name):\n    if name not in ("a", "b"):\n        sys.exit(f"Unknown name {name}")\n'
    assert 'sys.exit(f"Unknown name {name}; expected one of: a, b")' in fixed(code, select=["AEM204"])
