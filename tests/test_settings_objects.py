"""A settings object printed whole shows every setting and secret it holds (AEM304), however it is
named: an instance of a pydantic `BaseSettings` class, also when another project module makes it
(`from .config import settings`, `project_scan.ModuleObjects`), and Django's `settings`. One setting
read off it is no dump, nor is a plain dict of options. An instance of a record class that declares
a field named for a secret shows that field: the secret itself (AEM301, `tests/test_record_reprs.py`).

The value a validator of a secret field checks is that secret (AEM301): DRF's
`validate_old_password(self, value)`, pydantic's `@field_validator("api_key")` method's `v`.
"""
from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner

from conftest import lint

from errlint.cli import main

SETTINGS = '''
import dataclasses
import logging

from pydantic_settings import BaseSettings

log = logging.getLogger(__name__)


class Settings(BaseSettings):
    crm_url: str = "https://crm.example.com"
    crm_api_key: str


@dataclasses.dataclass
class Options:
    region: str
    api_token: str


@dataclasses.dataclass
class Layout:
    width: int
    height: int


settings = Settings()
options = Options("eu", "t")
layout = Layout(1, 2)
config = {"retries": 3}


def sync(contact_id):
    if not contact_id:
        {statement}
'''


@pytest.mark.parametrize("statement, codes", [
    ('log.info("contact %s archived; crm=%s", contact_id, settings)', ["AEM304"]),
    ('raise ValueError(f"contact_id is required (settings: {settings})")', ["AEM304"]),
    ('raise ValueError(f"contact_id is required (options: {options!r})")', ["AEM301"]),  # its repr shows `api_token`
    ('raise ValueError(f"contact_id is required; CRM at {settings.crm_url}")', []),
    ('raise ValueError(f"contact_id is required (layout: {layout})")', []),
    ('raise ValueError(f"contact_id is required (config: {config})")', []),
])
def test_a_settings_object_printed_whole_is_a_dump(statement, codes):
    found = [d.code for d in lint(SETTINGS.replace("{statement}", statement), select=["AEM301", "AEM304"])]
    assert found == codes


def test_django_settings_printed_whole():
    code = "from django.conf import settings\n\n\ndef f(x):\n    if not x:\n        raise ValueError(f'x is required; settings: {settings}')\n"
    assert [d.code for d in lint(code, select=["AEM304"])] == ["AEM304"]


def test_a_settings_object_another_module_makes(tmp_path, monkeypatch):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "config.py").write_text(textwrap.dedent("""\
        from pydantic_settings import BaseSettings


        class AppSettings(BaseSettings):
            exports_disabled: bool = False
            bucket_key: str = ""


        settings = AppSettings()
    """))
    (tmp_path / "app" / "api.py").write_text(textwrap.dedent("""\
        from fastapi import FastAPI, HTTPException

        from .config import settings

        app = FastAPI()


        @app.post("/exports")
        def start_export():
            if settings.exports_disabled:
                raise HTTPException(status_code=503, detail=f"Exports are disabled by configuration {settings}")
            return {}
    """))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--select", "AEM304", "--output-format", "json", "."])
    assert [(d["filename"].replace("\\", "/"), d["location"]["row"], d["code"]) for d in json.loads(result.output)] == [("app/api.py", 11, "AEM304")]


# ---- the value a validator of a secret field checks is that secret ----------------------------------

@pytest.mark.parametrize("code, flagged", [
    ('''from rest_framework import serializers


class ChangePassword(serializers.Serializer):
    old_password = serializers.CharField(write_only=True)

    def validate_old_password(self, value):
        if not self.context["request"].user.check_password(value):
            raise serializers.ValidationError(f"The password {value!r} does not match your current password.")
        return value
''', True),
    ('''from pydantic import BaseModel, field_validator


class Connection(BaseModel):
    api_key: str

    @field_validator("api_key")
    @classmethod
    def check_key(cls, v):
        if not v.startswith("sk-"):
            raise ValueError(f"api_key {v} must start with sk-")
        return v
''', True),
    # the length of the secret, another field's validator, a validator of several fields
    ('''from rest_framework import serializers


class ChangePassword(serializers.Serializer):
    def validate_new_password(self, value):
        if len(value) < 12:
            raise serializers.ValidationError(f"new_password must be at least 12 characters (got {len(value)}).")
        return value
''', False),
    ('''from rest_framework import serializers


class Signup(serializers.Serializer):
    def validate_username(self, value):
        if " " in value:
            raise serializers.ValidationError(f"username {value!r} may not contain spaces.")
        return value
''', False),
    ('''from pydantic import BaseModel, field_validator


class Connection(BaseModel):
    @field_validator("name", "api_key")
    @classmethod
    def not_blank(cls, v):
        if not v.strip():
            raise ValueError(f"{v!r} is blank")
        return v
''', False),
])
def test_the_value_a_secret_fields_validator_checks_is_a_secret(code, flagged):
    assert [d.code for d in lint(code, select=["AEM301"])] == (["AEM301"] if flagged else [])
