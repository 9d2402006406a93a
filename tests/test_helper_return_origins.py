"""What a value carries from where it was made (`value_origins._returned_by`), through a helper of the
module: `key = api_key()` holds the secret `api_key` returns, `url = share_link(name)` a signed URL,
`details = crash_report()` a traceback. Each `return` is judged in its own function's scope,
helpers of helpers included; a helper that returns something plain, or only its argument, passes
nothing on. A home path is not passed on this way while who may read the local user's own paths is
an open question.
"""
from __future__ import annotations

import pytest

from conftest import at

TOOL = """import os
import traceback
import keyring
from pathlib import Path
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("x")

{helpers}


@mcp.tool()
def sync(account: str) -> str:
    value = {call}
    if account not in ACCOUNTS:
        raise ToolError(f"Cannot sync {{account!r}} with {{value}}; call list_accounts to see the accounts.")
    return "ok"
"""


@pytest.mark.parametrize("helpers, call, code", [
    ('def api_key():\n    return os.environ["BILLING_API_KEY"]', "api_key()", "AEM301"),
    ('def share_link(name):\n    url = s3.generate_presigned_url("get_object", Params={"Key": name}, ExpiresIn=600)\n    return url',
     "share_link(account)", "AEM301"),
    ('def secret():\n    return keyring.get_password("billing", "deploy")\n\n\ndef auth_header():\n    return "Bearer " + secret()',
     "auth_header()", "AEM301"),
    ('def last_error():\n    return traceback.format_exc()', "last_error()", "AEM305"),
])
def test_a_helper_passes_on_where_its_value_was_made(helpers, call, code):
    row = 16 + helpers.count("\n")
    assert at(TOOL.format(helpers=helpers, call=call), select=[code]) == [(row, code)]


@pytest.mark.parametrize("helpers, call", [
    ('def region():\n    return os.environ.get("BILLING_REGION", "eu-west-1")', "region()"),
    ('def label(name):\n    return name.strip().lower()', "label(account)"),
    ('def masked():\n    return "sk-****" + os.environ["BILLING_API_KEY"][-4:]', "masked()"),
    ('def again():\n    return again()', "again()"),  # recursion ends
    # a home path is not passed on through a helper (see `value_origins.ORIGIN_KINDS`)
    ('def credentials_file():\n    return Path.home() / ".billing" / "credentials.json"', "credentials_file()"),
])
def test_a_helper_that_returns_something_plain_passes_nothing_on(helpers, call):
    assert at(TOOL.format(helpers=helpers, call=call), select=["AEM301", "AEM302", "AEM305"]) == []
