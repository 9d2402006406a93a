"""A message built with `if c: msg += a` is one of several texts, not their concatenation. The
branches of one `if`/`elif`/`else` exclude each other, and so do sibling `if`s that compare one
subject with different constants; independent `if`s may all run. Size (AEM401) is judged on a text
the program can print (pipx's InterpreterResolutionError summed four exclusive hints to 140 tokens)."""
from __future__ import annotations

import textwrap

import pytest

import libcst as cst

from conftest import lint

from errlint.config import Settings
from errlint.extract.walker import extract

PREVIEW = Settings(preview=True)
# about 30 tokens each: two fit under the 120-token limit with the base sentence, five do not
_GUIDE = "; the installation guide gives the exact steps for each platform and shell"
HINTS = [h + _GUIDE for h in [
    "listed when you run `py --list`, which prints every interpreter that the launcher can find here",
    "on your PATH, or that the file path is valid, because both were searched without a match",
    "set to an executable name such as python3.10 or a full path such as /usr/bin/python3.10",
    "published in the standalone builds index, which lists each version that can be fetched",
    "installed for this user account, since the system interpreters are not searched at all",
]]


def codes(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(textwrap.dedent(code), select=["AEM401"], settings=PREVIEW))


def texts(code: str) -> list:
    facts = extract(cst.parse_module(textwrap.dedent(code)))
    return [t.text for m in facts.messages for t in m.templates]


def test_sibling_ifs_on_one_subject_are_one_of_the_hints():
    branches = "".join(f"    if source == 's{i}':\n        message += '{h}'\n" for i, h in enumerate(HINTS))
    code = ("def fail(version, source):\n    message = f'No Python {version!r} found in {source}. Make sure it is '\n"
            + branches + "    raise LookupError(message)\n")
    assert codes(code) == []


def test_elif_chain_inside_an_exception_class():
    arms = "".join(f"        {'if' if i == 0 else 'elif'} source == 's{i}':\n            message += '{h}'\n" for i, h in enumerate(HINTS))
    code = ("class NoInterpreter(Exception):\n    def __init__(self, source, version):\n"
            "        message = f'No Python {version!r} found in {source}. Make sure it is '\n" + arms
            + "        super().__init__(message)\n\ndef find(version):\n    raise NoInterpreter('s0', version)\n")
    assert codes(code) == []


def test_independent_ifs_may_all_run():
    # nothing says `verbose` and `strict` exclude each other: the text with every hint can be printed
    branches = "".join(f"    if flag{i}:\n        message += '{h}. '\n" for i, h in enumerate(HINTS))
    code = ("import sys\ndef fail(" + ", ".join(f"flag{i}" for i in range(len(HINTS))) + "):\n"
            "    message = 'No interpreter was found. Make sure it is '\n" + branches
            + "    print(message, file=sys.stderr)\n    sys.exit(1)\n")
    assert codes(code) == [(4 + 2 * len(HINTS), "AEM401")]


def test_one_branch_alone_too_long_is_still_reported():
    long_hint = " ".join(HINTS)
    code = (f"def fail(source):\n    message = 'No interpreter found. '\n    if source == 'a':\n        message += 'Try again.'\n"
            f"    else:\n        message += '{long_hint}'\n    raise LookupError(message)\n")
    assert codes(code) == [(7, "AEM401")]


def test_nested_if_in_a_branch_adds_its_own_choice():
    code = '''
        def fail(source, looks_like_path):
            message = "No interpreter found. "
            if source == "PATH":
                message += "Check PATH."
                if looks_like_path:
                    message += " The value looks like a path."
            else:
                message += "Check the launcher."
            raise LookupError(message)
    '''
    assert texts(code) == [
        "No interpreter found. Check PATH. The value looks like a path.",
        "No interpreter found. Check PATH.",
        "No interpreter found. Check the launcher.",
    ]


def test_a_branch_that_rebinds_the_name_leaves_it_opaque():
    # `message = ...` in a branch is not an addition: which text reaches the raise depends on the path
    code = '''
        def fail(source):
            message = "No interpreter found. "
            if source == "PATH":
                message = "PATH is empty."
            else:
                message += "Check the launcher."
            raise LookupError(message)
    '''
    assert texts(code) == ["{message}"]


# -- sibling `if`s exclude each other only when no value passes both tests --------------------------

TWO_HINTS = (HINTS[0] + " " + HINTS[2], HINTS[1] + " " + HINTS[3])


def two_ifs(first: str, second: str, between: str = "", inside: str = "") -> str:
    return (f"def export(mode):\n    msg = 'The export failed during the final commit step. '\n"
            f"    if {first}:\n        msg += '{TWO_HINTS[0]}'\n" + (f"        {inside}\n" if inside else "")
            + (f"    {between}\n" if between else "")
            + f"    if {second}:\n        msg += '{TWO_HINTS[1]}'\n    raise RuntimeError(msg)\n")


@pytest.mark.parametrize("first, second, between, inside", [
    ('mode == "a"', 'mode == "a"', "", ""),  # the same constant twice: both run
    ('mode in ("a", "x")', 'mode in ("x", "b")', "", ""),  # "x" passes both
    ('mode == "a"', 'mode == "b"', "", 'mode = "b"'),  # the first branch makes the second test pass
    ('mode == "a"', 'mode == "b"', "mode = mode.replace('a', 'b')", ""),  # rebound between the tests
])
def test_siblings_that_can_both_run_are_measured_together(first, second, between, inside):
    code = two_ifs(first, second, between, inside)
    assert codes(code) == [(code.count("\n"), "AEM401")]


def test_siblings_on_disjoint_constants_are_alternatives():
    assert codes(two_ifs('mode in ("a", "x")', 'mode == "b"')) == []
