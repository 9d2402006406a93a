"""The HTTP error of a response checked in a `try` leaks what the request put in its URL (#14 kind 11).

`resp = client.get(url, params={"appid": KEY})` before the `try`, `resp.raise_for_status()` in it:
the error the handler catches is that request's, and its text carries the full URL, query string
included. A key sent in a header, or a request with no secret in its URL, shows nothing secret.
"""
from __future__ import annotations

from conftest import at

SELECT = ["AEM301", "AEM303"]


def test_an_async_client_response_checked_in_a_tool():
    code = '''
    import os
    import httpx
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("weather")
    API_KEY = os.environ["OPENWEATHER_API_KEY"]


    @mcp.tool
    async def weather(city: str) -> dict:
        params = {"q": city, "appid": API_KEY}
        async with httpx.AsyncClient() as client:
            resp = await client.get("https://api.example.org/weather", params=params)
            try:
                resp.raise_for_status()
            except httpx.HTTPStatusError as e:
                raise ToolError(f"Weather API error: {e}") from e
        return resp.json()
    '''
    assert at(code, select=SELECT) == [(18, "AEM303")]


def test_a_requests_response_with_the_key_in_its_url_in_a_cli():
    code = '''
    import os
    import sys
    import requests

    TOKEN = os.environ["SERVICE_TOKEN"]


    def main():
        r = requests.get(f"https://api.example.org/v1/items?token={TOKEN}", timeout=10)
        try:
            r.raise_for_status()
        except requests.HTTPError as exc:
            sys.exit(f"Listing failed: {exc}")
        print(r.text)


    if __name__ == "__main__":
        main()
    '''
    assert at(code, select=SELECT) == [(14, "AEM303")]


def test_a_key_in_a_header_or_no_secret_shows_nothing_secret():
    code = '''
    import os
    import sys
    import requests

    TOKEN = os.environ["SERVICE_TOKEN"]


    def main():
        r = requests.get("https://api.example.org/v1/items", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
        try:
            r.raise_for_status()
        except requests.HTTPError as exc:
            sys.exit(f"Listing failed: {exc}")
        page = requests.get("https://api.example.org/v1/status", timeout=10)
        try:
            page.raise_for_status()
        except requests.HTTPError as exc:
            sys.exit(f"Status check failed: {exc}")


    if __name__ == "__main__":
        main()
    '''
    assert at(code, select=SELECT) == []
