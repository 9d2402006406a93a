"""A name's last words say what its value is (`value_names.is_secret_name`): after the last word
that names a secret, only words for a form of the secret itself (`token_value`, `api_key_str`,
`password_hash`) keep it a secret. `password_policy`, `secret_arn`, `password_changed_at`,
`password_strength` and `token_rule` hold something about a secret, and AEM301 leaves them alone.
"""
from __future__ import annotations

import pytest

from conftest import lint
from errlint.extract.value_names import is_secret_name


@pytest.mark.parametrize("name", ["password_policy", "secret_arn", "password_changed_at", "password_strength", "token_rule", "api_key_rotation_schedule"])
def test_words_about_a_secret_are_no_secret(name):
    assert not is_secret_name(name)


@pytest.mark.parametrize("name", ["db_password", "api_key", "client_secret", "github_token", "token_value", "api_key_str", "password_hash", "secret_key", "old_password", "X-Api-Key"])
def test_a_secret_or_a_form_of_it_is_a_secret(name):
    assert is_secret_name(name)


@pytest.mark.parametrize("name, rows", [("password_policy", []), ("secret_arn", []), ("db_password", [9])])
def test_aem301_on_a_setting_named_for_or_about_a_secret(name, rows):
    code = ("from fastapi import FastAPI, HTTPException\nfrom .settings import settings\n\napp = FastAPI()\n\n\n@app.post('/login')\n"
            f"def login(user: str):\n    raise HTTPException(400, f'Login failed under {{settings.{name}}}')\n")
    assert [d.location.row for d in lint(code, select=["AEM301"])] == rows
