"""AEM304 flags a dump of the environment, request headers or settings: they carry credentials. The
headers of a response are what the server answered (jira's debug log of `response.headers` on a
retry), not the credentials a request carries; dumped into an agent's reply they are still any size
(AEM402). The headers a request sent, or a client sent us, stay a leak."""
from __future__ import annotations

import textwrap

from conftest import PREVIEW, lint

HEAD = "import json\nimport logging\nimport httpx\nfrom fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nlog = logging.getLogger(__name__)\nmcp = FastMCP('x')\n"


def found(body: str) -> list:
    text = HEAD + textwrap.dedent(body)
    return sorted((d.location.row - HEAD.count("\n"), d.code) for d in lint(text, select=["AEM304", "AEM402"], settings=PREVIEW))


def test_debug_log_of_the_response_headers_on_a_retry():
    body = '''
        def on_retry(response):
            log.debug("response.headers:\\n%s", json.dumps(dict(response.headers), indent=4))
    '''
    assert found(body) == []


def test_response_headers_of_a_caught_http_error_in_a_log():
    body = '''
        def fetch(url):
            try:
                return httpx.get(url).raise_for_status()
            except httpx.HTTPStatusError as e:
                log.warning("upstream refused %s; headers %s", url, e.response.headers)
    '''
    assert found(body) == []


def test_response_headers_in_a_tool_error_are_still_any_size():
    body = '''
        @mcp.tool()
        def fetch(url: str) -> str:
            resp = httpx.get(url)
            if resp.status_code >= 400:
                raise ToolError(f"Upstream refused {url}: {resp.headers}")
            return resp.text
    '''
    assert found(body) == [(6, "AEM402")]


def test_headers_a_request_sent_are_still_a_leak():
    body = '''
        def sync(resp):
            log.error("Contact sync failed (%s). Sent headers: %s", resp.status_code, resp.request.headers)
    '''
    assert found(body) == [(3, "AEM304")]


def test_what_the_name_is_bound_to_decides_not_the_name():
    body = '''
        def probe(client, url, token):
            req = httpx.get(url)
            log.error("probe of %s failed; got headers %s", url, req.headers)
            r = client.build_request("GET", url, headers={"Authorization": f"Bearer {token}"})
            log.error("could not send %s", r.headers)
    '''
    assert found(body) == [(6, "AEM304")]
