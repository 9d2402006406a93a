"""A NUL byte in a source file: on Python 3.13 the tokenizer can raise SystemError ("returned a
result with an exception set") instead of a TokenError, for a file a fuzzer produced (a class body
whose docstring has a stray line break, then a NUL in a string). Every reader that tokenizes (noqa
comments, the prefilter, the syntax-error locator, the probe's source index) takes that as "cannot
tokenize": the file is reported as unreadable, never as an internal error (AEM000)."""
from __future__ import annotations

from errlint.api import run_context
from errlint.engine import check_file
from errlint.noqa import Suppressions

# the fuzzer's file, cut to the lines that still make 3.13's tokenizer raise SystemError
SOURCE = '    """## �nWhat it does\n    Reports a file errlint cannot read, decode or parse, at Python\'s line and column. The run goes on\n    with the other files and exits 1.\n\n    ## Why is this bad?\n    A file that does not parse is not checked at all; its messages may hide every other defect.\n\n    ## Example\n    ```python\n    def f(:\n        pass\n    ```\n\n    Use instead:\n    ```pytho\nn\n    def f():\n        pass\n    ```\n\n    ## Fix safety\n    No fix.\n\n    ## Options\n    None.\n    """\n\n    CODE = "AEM001"\n    NAME = "syntax-error"\n    SUMMARY = "The file c\x00annot be read or parsed"\n'


def test_a_nul_byte_is_no_internal_error():
    result = check_file("nul.py", SOURCE.encode("utf-8"), run_context())
    codes = [d.code for d in result.diagnostics]
    assert "AEM000" not in codes and codes == ["AEM001"]


def test_noqa_comments_are_read_by_lines_when_tokenizing_fails():
    text = SOURCE + "x = 1  # noqa: AEM101\n"
    assert Suppressions(text).comments()[-1][3] == frozenset({"AEM101"})
