"""Leaks and channels by origin, with inputs a hunter wrote against the rule docs:

- a service's key read from the environment (`STRIPE_KEY`, `OWM_KEY`) is a secret, as `*_API_KEY` is,
  and a request that sent it in its query puts it in the URL an HTTP error shows; a key that names
  data (`SORT_KEY`, `PUBLIC_KEY`) is not;
- a CLI's crash handler that prints the traceback and, on the next line, how to report the bug is a
  crash report, not a leak (AEM305);
- a runner called with the server's stdio entry uncalled (`anyio.run(mcp.run_stdio_async)`) serves
  over stdio, so stdout is the protocol stream (AEM607).
"""
from __future__ import annotations

import pytest

from conftest import at


@pytest.mark.parametrize("var, expected", [
    ("STRIPE_KEY", [(10, "AEM301")]),
    ("SENDGRID_KEY", [(10, "AEM301")]),
    ("KEY", [(10, "AEM301")]),
    ("SORT_KEY", []),
    ("PUBLIC_KEY", []),
    ("REDIS_KEY", []),
    # keys that name data or are public by design
    ("LOCK_KEY", []),
    ("AMQP_ROUTING_KEY", []),
    ("STRIPE_PUBLISHABLE_KEY", []),
    ("RECAPTCHA_SITE_KEY", []),
    ("FEATURE_FLAG_KEY", []),
])
def test_a_service_key_from_the_environment(var, expected):
    code = f"""
    import os
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("x")

    @mcp.tool()
    def charge(amount: int) -> str:
        value = os.environ["{var}"]
        raise ToolError(f"The service refused {{value}}; amount was {{amount}}.")
    """
    assert at(code, select=["AEM301"]) == expected


def test_a_key_sent_in_the_query_shows_in_the_http_error():
    code = """
    import os
    import requests
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("weather")
    OWM_KEY = os.environ["OWM_KEY"]

    @mcp.tool()
    def forecast(city: str) -> dict:
        try:
            r = requests.get("https://api.openweathermap.org/data/2.5/weather", params={"q": city, "appid": OWM_KEY}, timeout=10)
            r.raise_for_status()
        except requests.RequestException as e:
            raise ToolError(f"Weather API failed: {e}")
        return r.json()
    """
    assert at(code, select=["AEM303"]) == [(15, "AEM303")]


@pytest.mark.parametrize("report, expected", [
    ('sys.stderr.write("This is a bug in tidyup; please report it at https://github.com/acme/tidyup/issues\\n")', []),
    ('print("Please open an issue with the trace above.", file=sys.stderr)', []),
    ('print("tidyup crashed.", file=sys.stderr)', [(9, "AEM305")]),
])
def test_a_crash_report_across_lines(report, expected):
    code = ("import sys\nimport traceback\n\n\ndef main():\n    try:\n        run()\n    except Exception:\n"
            f"        sys.stderr.write(traceback.format_exc())\n        {report}\n        sys.exit(70)\n\n\n"
            "if __name__ == '__main__':\n    main()\n")
    assert at(code, select=["AEM305"]) == expected


@pytest.mark.parametrize("runner", ["anyio.run(mcp.run_stdio_async)", "asyncio.run(mcp.run_stdio_async())", "trio.run(mcp.run_stdio_async)",
                                    "anyio.run(mcp.run_async)", "trio.run(mcp.run_async)"])  # run_async's default transport is stdio
def test_a_runner_called_with_the_stdio_entry(runner):
    code = f"""
    import anyio, asyncio, sys, trio
    from mcp.server.fastmcp import FastMCP
    mcp = FastMCP("indexer")

    @mcp.tool()
    def index(done: int, total: int) -> str:
        sys.stdout.write(f"indexed {{done}}/{{total}}\\n")
        return "ok"

    if __name__ == "__main__":
        {runner}
    """
    assert at(code, select=["AEM607"]) == [(8, "AEM607")]


@pytest.mark.parametrize("runner", ["anyio.run(mcp.run_sse_async)", "anyio.run(worker.run_async)", "anyio.run(partial(mcp.run_async, transport='sse'))"])
def test_a_runner_of_another_transport_or_object_is_not_stdio(runner):
    code = f"""
    import anyio
    from functools import partial
    from mcp.server.fastmcp import FastMCP
    mcp = FastMCP("indexer")
    worker = Worker()

    @mcp.tool()
    def index(done: int, total: int) -> str:
        print(f"indexed {{done}}/{{total}}")
        return "ok"

    if __name__ == "__main__":
        {runner}
    """
    assert at(code, select=["AEM607"]) == []


def test_a_url_with_a_password_is_found_where_a_word_starts():
    """The scheme of a URL starts a word (the scan does not retry inside a long token, which was
    quadratic); URLs with a password are still found after a space, a quote or a bracket."""
    from errlint.extract.value_origins import USERINFO

    for text in ("postgres://u:pw@h/db", "see https://user:secret@x.org/a", "(redis://:pw@cache:6379)", "'amqp://u:p@mq'"):
        assert USERINFO.search(text), text
    assert USERINFO.search("db=" + "postgres://u:pw@h/db")
