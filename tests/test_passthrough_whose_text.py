"""AEM207 flags exception text passed on when nobody chose it: a catch-all's text (it may come from
anything in the `try`) or a class whose text is not written for a reader (a KeyError's repr, an HTTP
status line without the reply's body), behind a prefix that names nothing. A specific class the code
caught for its text, or a prefix that names the failed operation or input, is a deliberate relay."""
from __future__ import annotations

import pytest
from conftest import lint

from errlint.config import Settings

PREVIEW = Settings(preview=True)
HEAD = "import sqlite3, shlex, httpx, click\nfrom fastmcp.exceptions import ToolError\n\ndef work(x):\n    return x\n\ndef run(x):\n    try:\n        work(x)\n"


def flagged(handler: str) -> bool:
    return any(d.code == "AEM207" for d in lint(HEAD + handler, select=["AEM207"], settings=PREVIEW))


@pytest.mark.parametrize("handler", [
    "    except Exception as e:\n        raise ToolError(f'An error occurred: {e}')\n",
    "    except Exception as e:\n        raise ToolError(str(e))\n",
    "    except KeyError as e:\n        raise ToolError(f'Error: {e}')\n",
    "    except httpx.HTTPStatusError as e:\n        raise ToolError(str(e))\n",
])
def test_text_nobody_chose_is_flagged(handler):
    assert flagged(handler)


@pytest.mark.parametrize("handler", [
    "    except sqlite3.OperationalError as e:\n        raise click.ClickException(str(e))\n",
    "    except ValueError as error:\n        raise ToolError(str(error))\n",
    "    except Exception as e:\n        raise ToolError(f'Invalid timezone: {e}')\n",
    "    except ValueError as exc:\n        raise ToolError(f'invalid Python arguments: {exc}')\n",
])
def test_chosen_class_or_named_failure_is_a_relay(handler):
    assert not flagged(handler)


def test_a_wrapper_that_only_says_it_caught_something_is_flagged():
    assert flagged("    except Exception as e:\n        raise ToolError(f'Caught Exception. Error: {str(e)}')\n")
