"""AEM103 and a bare retry as the whole instruction ("Wait and retry.", "Service unavailable. Retry.",
"please retry the request", "come back later"): retry advice with no timing, like "try again later".
"Retry" as a noun ("Retry limit reached"), a retry after a step ("fix the url, then retry") and a
timed retry are not.
"""
from __future__ import annotations

import pytest

from conftest import at

HANDLER = """import click


@click.command()
@click.argument("url")
def fetch(url):
    try:
        download(url)
    except ConnectionError:
        raise click.ClickException({text!r})
"""


@pytest.mark.parametrize("text", [
    "The mirror is busy. Wait and retry.",
    "Mirror unavailable. Retry.",
    "Connection dropped; please retry the request.",
    "The mirror is under maintenance. Come back later.",
    "Download interrupted, wait, retry.",
])
def test_a_bare_retry_instruction_without_timing(text):
    assert at(HANDLER.format(text=text), select=["AEM103"]) == [(10, "AEM103")]


@pytest.mark.parametrize("text", [
    "Retry limit reached for this mirror.",  # a noun
    "The mirror rejected the URL; fix the URL, then retry.",  # waits on the step
    "The mirror is busy. Wait 30 seconds and retry.",  # timed
    "Mirror unavailable; retrying will not help until the mirror is back: use --mirror eu.",
])
def test_retry_that_is_not_untimed_advice(text):
    assert at(HANDLER.format(text=text), select=["AEM103"]) == []


@pytest.mark.parametrize("text", [
    "Could not read the file. Make sure the input is valid and try again.",
    "The mirror rejected the request. Check the parameters and retry.",
    "Download failed; please verify your settings, then try again.",
])
def test_a_retry_after_a_vague_step_waits_on_the_step(text):
    """The retry waits on the step before it, even a vague one: AEM102 reports the step, and
    AEM103 does not call the retry untimed."""
    assert at(HANDLER.format(text=text), select=["AEM102", "AEM103"]) == [(10, "AEM102")]


def test_a_retry_later_after_a_vague_step_still_waits_on_time():
    code = HANDLER.format(text="Connection failed. Please check your network and try again later.")
    assert at(code, select=["AEM103"]) == [(10, "AEM103")]
