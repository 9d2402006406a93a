"""AEM301 and what a name says a value is: the last word of an identifier names the value (a delay
about authentication is a delay), a predicate names a switch, an upper-case constant with a word for a
condition is an error code, and `config.get(section, option)` is named by its option. The secret
words still count wherever the value is one (`expired_token`, `config.get("auth", "password")`)."""
from __future__ import annotations

import pytest

from conftest import preview_rows


def secret_rows(code: str) -> list:
    return preview_rows(code, ["AEM301"])


NOT_SECRETS = {
    "delay_about_authentication": """
        import logging
        log = logging.getLogger(__name__)
        def throttle(auth_delay: float):
            log.warning("Failed login: waiting %.1f s before answering", auth_delay)
    """,
    "attribute_timeout_with_a_version_word": """
        import logging
        log = logging.getLogger(__name__)
        class Gate:
            def slow(self):
                failed_auth_delay_old = self._failed_auth_delay
                log.debug("raising the delay from %s", failed_auth_delay_old)
    """,
    "token_interval_in_a_raise": """
        def schedule(token_refresh_interval):
            raise ValueError(f"token_refresh_interval must be positive (got {token_refresh_interval})")
    """,
    "switch_about_tokens": """
        import logging
        log = logging.getLogger(__name__)
        def setup(permit_create_token, allow_token_auth):
            log.info("sharing: permit_create_token=%s allow_token_auth=%s", permit_create_token, allow_token_auth)
    """,
    "error_code_constants": """
        from fastapi import HTTPException
        from .codes import ErrorCode
        def login(user):
            if user is None:
                raise HTTPException(status_code=400, detail=ErrorCode.LOGIN_BAD_CREDENTIALS)
            if user.expired:
                raise HTTPException(status_code=400, detail={"code": ErrorCode.ACCESS_TOKEN_ALREADY_EXPIRED, "reason": "log in again"})
            return user
    """,
    "measures_with_a_unit": """
        def check(token_lifetime_minutes, session_timeout_ms):
            raise ValueError(f"token_lifetime_minutes={token_lifetime_minutes} exceeds session_timeout_ms={session_timeout_ms}")
    """,
    "config_option_names_the_value": """
        import logging
        log = logging.getLogger(__name__)
        def load(configuration):
            auth_type = configuration.get("auth", "type")
            log.info("auth type is %r", auth_type)
            log.info("auth delay is %r", configuration.get("auth", "delay"))
    """,
}


@pytest.mark.parametrize("name", sorted(NOT_SECRETS))
def test_names_that_are_about_a_secret_are_not_one(name):
    assert secret_rows(NOT_SECRETS[name]) == []


STILL_SECRETS = {
    # the condition word is part of what the variable holds: a token that expired
    "expired_token_variable": ("""
        def check(expired_token):
            raise PermissionError(f"token {expired_token} expired; log in again")
    """, 3),
    # an upper-case setting with no condition word is still a secret
    "constant_setting": ("""
        from .settings import Config
        def connect():
            raise ConnectionError(f"cannot connect with key {Config.API_TOKEN}")
    """, 4),
    # the option of a config lookup is a secret
    "config_option_is_a_password": ("""
        import logging
        log = logging.getLogger(__name__)
        def load(configuration):
            password = configuration.get("ldap", "password")
            log.info("binding with %s", password)
    """, 6),
    # a default value is not an option name: the key names the value
    "config_lookup_with_a_default": ("""
        import logging
        log = logging.getLogger(__name__)
        def load(config):
            log.info("connecting with %s", config.get("api_token", ""))
            log.info("connecting with %s", config.get("api_token", os.environ.get("API_TOKEN")))
    """, [5, 6]),
    # a header lookup with a default is not (section, option): its key names the value
    "header_lookup_with_a_default": ("""
        import logging
        log = logging.getLogger(__name__)
        def handle(request):
            log.info("auth header: %s", request.headers.get("Authorization", ""))
    """, 5),
    # a prefix that reads as a predicate but names a vendor's key (Permit.io)
    "vendor_key_constant": ("""
        import os, sys
        PERMIT_API_KEY = os.environ["PERMIT_API_KEY"]
        def main():
            sys.exit(f"Permit rejected the key {PERMIT_API_KEY}")
    """, 5),
    # an upper-case name with a condition word, read from the environment, is a secret
    "condition_word_in_an_env_constant": ("""
        import os, sys
        FAILED_JOB_TOKEN = os.environ["FAILED_JOB_TOKEN"]
        def main():
            sys.exit(f"cannot notify with {FAILED_JOB_TOKEN}")
    """, 5),
    # a section named for secrets holds them, whatever the option is called
    "secret_section": ("""
        import click
        @click.command()
        def main():
            raise click.ClickException(f"Key {config.get('credentials', 'openai')} was refused")
    """, 5),
    # a version word does not hide the secret word it follows
    "old_password": ("""
        def change(old_password, new_password):
            raise ValueError(f"new password must differ from {old_password}")
    """, 3),
}


@pytest.mark.parametrize("name", sorted(STILL_SECRETS))
def test_secret_values_are_still_flagged(name):
    code, rows = STILL_SECRETS[name]
    assert secret_rows(code) == (rows if isinstance(rows, list) else [rows])
