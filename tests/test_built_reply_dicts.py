"""Error envelopes however the reply dict is built (`error_envelopes.reply_fields`): bound to a local
first, made with `dict(...)`, filled in by subscript assignment, serialised with `json.dumps`, or
returned from a helper. The reader of the tool's result gets the same success-shaped failure as from
a dict literal in the `return`; a local that holds a success, a job's recorded state or a
validator's verdict stays data.
"""
from __future__ import annotations

import pytest

from conftest import at

FASTMCP = 'import json\nfrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP("x")\n\n'


@pytest.mark.parametrize("source, row", [
    # a local, then json.dumps of it, in a guard branch
    (FASTMCP + "@mcp.tool()\ndef get_user(user_id: str) -> str:\n    user = USERS.get(user_id)\n    if user is None:\n"
     "        result = {'success': False, 'error': f'user {user_id} not found'}\n        return json.dumps(result)\n"
     "    return json.dumps({'success': True, 'user': user})\n", 10),
    # a dict filled in by subscript assignment in the handler
    (FASTMCP + "@mcp.tool()\ndef rotate(key_id: str) -> dict:\n    try:\n        new = kms.rotate(key_id)\n    except KmsError as e:\n"
     "        response = {'ok': False}\n        response['error'] = f'could not rotate {key_id}: {e}'\n        return response\n"
     "    return {'ok': True, 'key': new}\n", 12),
    # dict(...) with keywords, bound twice in the function: the reaching binding decides
    (FASTMCP + "@mcp.tool()\ndef export(table: str) -> dict:\n    out = dict(ok=True, rows=[])\n    try:\n        out['rows'] = dump(table)\n"
     "    except DumpError as exc:\n        out = dict(ok=False, message=str(exc))\n        return out\n    return out\n", 12),
    # dict(base, **) copying a flagged dict, serialised by str()
    (FASTMCP + "BASE = {'ok': False}\n\n@mcp.tool()\ndef ping(host: str) -> str:\n    try:\n        return str(probe(host))\n"
     "    except OSError as err:\n        return str(dict(BASE, error=f'{host} unreachable: {err}'))\n", 12),
])
def test_a_built_envelope_is_a_success_to_the_client(source, row):
    assert at(source, select=["AEM601"]) == [(row, "AEM601")]


def test_a_helper_that_builds_the_envelope_with_dict_is_reported_at_the_helper():
    source = (FASTMCP + "def fail(msg):\n    return dict(success=False, error=msg)\n\n\n@mcp.tool()\ndef get_order(order_id: str) -> str:\n"
              "    if order_id not in ORDERS:\n        return json.dumps(fail(f'order {order_id} not found'))\n    return json.dumps(ORDERS[order_id])\n")
    assert at(source, select=["AEM601"]) == [(6, "AEM601")]


@pytest.mark.parametrize("source", [
    # the reaching binding is the success: the failure dict was only the other branch's
    FASTMCP + "@mcp.tool()\ndef stats(name: str) -> dict:\n    if name in CACHE:\n        reply = {'ok': True, 'stats': CACHE[name]}\n"
    "    else:\n        reply = {'ok': True, 'stats': compute(name)}\n    return reply\n",
    # a job's recorded state beside its payload, outside any handler: what the tool reports on
    FASTMCP + "@mcp.tool()\ndef job_status(job_id: str) -> str:\n    job = JOBS[job_id]\n    summary = dict(status='failed', error=job.reason, job_id=job_id, started=job.started)\n"
    "    return json.dumps(summary)\n",
    # the error key is cleared by assignment: no error text
    FASTMCP + "@mcp.tool()\ndef sync(repo: str) -> dict:\n    state = {'synced': 0}\n    state['error'] = None\n    state['synced'] = pull(repo)\n    return state\n",
    # a validator's verdict is its answer
    FASTMCP + "@mcp.tool()\ndef check_sql(query: str) -> str:\n    try:\n        parse(query)\n    except ParseError as e:\n"
    "        verdict = dict(valid=False, error=str(e))\n        return json.dumps(verdict)\n    return json.dumps(dict(valid=True))\n",
])
def test_a_built_dict_that_is_data_is_not_reported(source):
    assert at(source, select=["AEM601"]) == []


NESTED = FASTMCP + "@mcp.tool()\ndef get_user(user_id: str) -> dict:\n    user = USERS.get(user_id)\n    if user is None:\n        return {body}\n    return {{'user': user}}\n"


@pytest.mark.parametrize("body, code", [
    ("{'error': {'code': 'not_found', 'message': 'Lookup failed. Please check your input.'}}", "AEM102"),
    ("{'ok': False, 'error': {'type': 'busy', 'detail': 'The directory is busy; try again later.'}}", "AEM103"),
])
def test_the_text_of_a_nested_error_object_is_read(body, code):
    assert at(NESTED.format(body=body), select=["AEM102", "AEM103"]) == [(9, code)]


def test_a_nested_error_object_without_text_has_nothing_to_read():
    body = "{'error': {'code': 404, 'retryable': False}}"
    assert at(NESTED.format(body=body), select=["AEM601", "AEM102", "AEM103"]) == [(9, "AEM601")]
