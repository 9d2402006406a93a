"""AEM303 needs a secret in the URL: the request behind an HTTP error's text or a response's `.url`
must have put one there (a token query parameter, a secret value in the URL, a secret in `params=`).
A URL the caller sent, a key sent in a header, or a request made out of sight shows nothing secret
(`secret_requests.request_carries_secret`)."""
from __future__ import annotations

import pytest

from conftest import preview_rows


def url_rows(code: str) -> list:
    return preview_rows(code, ["AEM303"])


LEAKS = {
    "secret_key_in_params": ("""
        import requests
        def weather(city, key):
            try:
                requests.get("https://api.example.com/w", params={"q": city, "api_key": key}).raise_for_status()
            except requests.HTTPError as e:
                raise RuntimeError(f"Weather API failed: {e}")
    """, 7),
    "secret_value_in_an_fstring_url": ("""
        import os
        import httpx
        API_KEY = os.environ["WEATHER_API_KEY"]
        async def weather(client: httpx.AsyncClient, city: str):
            try:
                r = await client.get(f"https://api.example.com/w?q={city}&appid={API_KEY}")
                r.raise_for_status()
            except httpx.HTTPStatusError as exc:
                raise RuntimeError(f"Weather lookup failed: {exc}") from exc
    """, 10),
    "token_concatenated_into_the_url": ("""
        import requests
        def search(term, access_token):
            response = requests.get("https://graph.example.com/search?q=" + term + "&access_token=" + access_token)
            if response.status_code != 200:
                raise RuntimeError(f"search failed for {response.url}")
    """, 6),
    "request_url_of_the_caught_error": ("""
        import httpx
        def fetch(secret):
            try:
                httpx.get("https://hooks.example.com/x", params={"signature": secret}).raise_for_status()
            except httpx.HTTPStatusError as e:
                raise RuntimeError(f"upload to {e.request.url} failed")
    """, 7),
    "key_formatted_into_a_url_template": ("""
        import os
        import requests
        KEY = os.environ["OWM_API_KEY"]
        URL = "https://api.example.com/w?q={city}&appid={key}"
        def weather(city):
            try:
                requests.get(URL.format(city=city, key=KEY)).raise_for_status()
            except requests.HTTPError as e:
                raise RuntimeError(f"Weather API failed: {e}")
    """, 10),
    "key_in_an_urlencoded_query": ("""
        import os
        from urllib.parse import urlencode
        import requests
        KEY = os.environ["OWM_API_KEY"]
        def weather(city):
            try:
                requests.get(f"https://api.example.com/w?{urlencode({'q': city, 'key': KEY})}").raise_for_status()
            except requests.HTTPError as e:
                raise RuntimeError(f"Weather API failed: {e}")
    """, 10),
    "key_in_the_clients_params": ("""
        import httpx
        def weather(city, token):
            client = httpx.Client(params={"api_key": token})
            try:
                client.get("https://api.example.com/w", params={"q": city}).raise_for_status()
            except httpx.HTTPStatusError as e:
                raise RuntimeError(f"Weather API failed: {e}")
    """, 8),
}


@pytest.mark.parametrize("name", sorted(LEAKS))
def test_a_url_the_code_put_a_secret_in_is_reported(name):
    code, row = LEAKS[name]
    assert url_rows(code) == [row]


NO_SECRET = {
    "url_the_caller_sent": """
        import httpx
        def fetch(url: str) -> str:
            try:
                response = httpx.get(url, follow_redirects=True)
                response.raise_for_status()
            except httpx.HTTPStatusError as e:
                return f"Failed to fetch {url}: {e}"
            return response.text
    """,
    "key_in_a_header": """
        import requests
        def alerts(base, token, query):
            try:
                r = requests.get(f"{base}/api/v2/alerts", params={"filter": query}, headers={"Authorization": f"Bearer {token}"})
                r.raise_for_status()
            except requests.HTTPError as e:
                raise RuntimeError(f"Alertmanager said: {e}")
    """,
    "demo_key_literal_in_a_template": """
        import requests
        URL = "https://api.example.com/w?q={city}&appid={key}"
        def weather(city):
            try:
                requests.get(URL.format(city=city, key="demo")).raise_for_status()
            except requests.HTTPError as e:
                raise RuntimeError(f"Weather API failed: {e}")
    """,
    "request_made_in_a_helper": """
        import httpx
        def rule(rule_id, client):
            try:
                response = client.fetch_rule(rule_id)
                response.raise_for_status()
            except httpx.HTTPError as e:
                raise RuntimeError(f"could not load rule {rule_id}: {e}")
    """,
    "response_url_with_public_params": """
        import logging
        import requests
        log = logging.getLogger(__name__)
        def page(n):
            response = requests.get("https://export.example.org/api/query", params={"start": n, "max_results": 50})
            log.info("fetched %s", response.url)
    """,
}


@pytest.mark.parametrize("name", sorted(NO_SECRET))
def test_a_url_with_no_secret_the_code_put_in_is_not_reported(name):
    assert url_rows(NO_SECRET[name]) == []
