"""AEM206 (missing-retry-guidance) asks a transient failure to say when to retry or whether retrying
helps. Advice to retry with no wait ("Please retry shortly") says that retrying helps, so AEM206 is
silent there and AEM103 (retry-without-timing) asks for the wait: each missing part has one rule, and
the default run (AEM103 in preview) does not call the message silent on retrying."""
from __future__ import annotations

import pytest
from conftest import PREVIEW, lint

HANDLER = "import httpx\nfrom fastmcp.exceptions import ToolError\n\ndef f(client):\n    try:\n        return client.get('/x')\n    except httpx.TimeoutException:\n        raise ToolError({text!r})\n"


def aem103(text: str) -> list:
    """AEM103's findings on a guarded raise of `text` (no handler: nothing transient)."""
    code = f"from fastmcp.exceptions import ToolError\ndef f(x):\n    if x:\n        raise ToolError({text!r})\n"
    return [d.code for d in lint(code, select=["AEM103"], settings=PREVIEW)]


def codes(text: str, select) -> list:
    return sorted({d.code for d in lint(HANDLER.format(text=text), select=select, settings=PREVIEW)})


@pytest.mark.parametrize("text", [
    "Semantic Scholar API request timed out. The API may be slow or overloaded. Please retry shortly.",
    "Search timed out; try again later.",
    "The index is busy. Retry in a moment.",
    "Upstream timed out, please retry.",
])
def test_retry_advice_without_a_wait_is_aem103s(text):
    assert codes(text, ["AEM206"]) == []
    assert codes(text, ["AEM103", "AEM206"]) == ["AEM103"]


@pytest.mark.parametrize("text", [
    "Report query timed out",
    "Search timed out; the API may be overloaded.",
    "Timed out while retrying the upload",  # a report of retries, not advice to retry
])
def test_no_word_on_retrying_is_still_aem206(text):
    assert codes(text, ["AEM206"]) == ["AEM206"]


def test_a_timed_retry_satisfies_both():
    assert codes("Search timed out; retry after 10 s.", ["AEM103", "AEM206"]) == []


@pytest.mark.parametrize("text", [
    'The parameter is "status", not "statuses", please correct your input and try again',
    "Pass a smaller `limit` and try again.",
    "Narrow the date range, then retry.",
    "Remove the duplicate key and then try again later.",
])
def test_a_retry_that_waits_on_a_step_needs_no_timing(text):
    assert aem103(text) == []


@pytest.mark.parametrize("text", [
    "Service busy, please try again later.",
    "Upstream timed out. Retry later.",
    "Rate limited and please retry shortly.",  # "and" joins no step
    "Index is rebuilding; check back and try again later.",  # "check back" names no concrete object
])
def test_retry_advice_on_its_own_still_needs_timing(text):
    assert aem103(text) == ["AEM103"]


@pytest.mark.parametrize("text", [
    "Invalid input. Pass a smaller `limit` and try again.",
    "Edit config.toml and try again.",
    "Fix the `name` field in settings.yaml and try again.",
    "Set TIMEOUT=2.5 and try again.",
])
def test_the_sentence_of_a_retry_starts_after_a_sentence_end_not_a_dot(text):
    assert aem103(text) == []


@pytest.mark.parametrize("text", [
    "Search timed out: narrow the query, then retry.",
    "Search timed out. Re-run the search later.",
    "Search timed out; retrying may help.",
    "Search timed out; there is no point in trying again later.",
    "Search timed out; call search again later.",
])
def test_aem206_hears_any_word_on_retrying(text):
    assert codes(text, ["AEM206"]) == []


@pytest.mark.parametrize("text", ["Search timed out after 3 retry attempts", "Timed out when retrying the upload"])
def test_a_report_of_retries_is_no_word_on_retrying(text):
    assert codes(text, ["AEM206"]) == ["AEM206"]


@pytest.mark.parametrize("text", ["Upstream unreachable; retry in a minute.", "Rate limited; wait an hour.", "Busy; try again in one minute."])
def test_a_wait_of_one_unit_is_a_timed_retry(text):
    assert codes(text, ["AEM103", "AEM201", "AEM206"]) == []


def test_a_few_minutes_is_still_vague_timing():
    assert codes("Busy; try again in a few minutes.", ["AEM103", "AEM206"]) == ["AEM103"]
