"""A fix edits only code of the function the message is in. A literal reached through a module
constant is shared with other messages and cannot see the function's names: appending
`(got {path!r:.80})` to `MSG = "..."` at module level would make the module raise NameError."""
from __future__ import annotations

from conftest import PREVIEW, lint

SHARED = '''\
MSG = "Something went wrong. Please check your input."


def load(path):
    if not path.endswith(".json"):
        raise ValueError(MSG)
'''


def fixes(code, select):
    return [(d.code, d.fix is not None) for d in lint(code, select=select, settings=PREVIEW)]


def test_no_fix_edits_a_module_constant():
    assert fixes(SHARED, ["AEM202"]) == [("AEM202", False)]
    assert fixes(SHARED.replace('.endswith(".json")', " in {'a', 'b'}"), ["AEM204"]) == [("AEM204", False)]


def test_a_class_constant_is_not_the_methods_to_edit():
    code = ('class Loader:\n    MSG = "Something went wrong."\n\n    def load(self, path):\n'
            '        if not path.endswith(".json"):\n            raise ValueError(self.MSG)\n')
    assert all(not fixed for _, fixed in fixes(code, ["AEM202", "AEM204"]))


def test_a_local_literal_of_the_function_is_fixed():
    code = 'def load(path):\n    msg = "Something went wrong."\n    if not path.endswith(".json"):\n        raise ValueError(msg)\n'
    assert fixes(code, ["AEM202"]) == [("AEM202", True)]
    inline = 'def load(path):\n    if not path.endswith(".json"):\n        raise ValueError("Something went wrong.")\n'
    assert fixes(inline, ["AEM202"]) == [("AEM202", True)]
