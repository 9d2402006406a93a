"""A record shows its fields in its text (`extract/record_reprs.py`; #14 item 11: leaks by provenance
and shape, not by names).

A pydantic model, dataclass, attrs class or NamedTuple prints every field in its repr, so interpolating
one whose class declares a credential field leaks it, whatever the variable is called; a list of them
leaks each. `SecretStr`, `repr=False` and a class's own `__repr__` keep the field out.
"""
from __future__ import annotations

import pytest

from conftest import PREVIEW, lint


def found(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, select=["AEM301"], settings=PREVIEW))


FASTAPI = '''from fastapi import HTTPException
from pydantic import BaseModel


class UpstreamServer(BaseModel):
    name: str
    url: str
    {field}


def pick(tool_name: str, allowed: list[UpstreamServer]) -> UpstreamServer:
    for server in allowed:
        if server.name == tool_name:
            return server
    raise HTTPException(status_code=403, detail=f"Not permitted to call {{tool_name}}; permitted: {{allowed}}")
'''

CLICK = '''from dataclasses import dataclass, field

import click


@dataclass
class Profile:
    host: str
    user: str
    {field}


def connect(profile: Profile) -> None:
    raise click.ClickException(f"Could not connect with {{profile}}")
'''

MCP = '''from typing import NamedTuple

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("crm")


class Creds(NamedTuple):
    account: str
    {field}


def login(who: Creds) -> str:
    raise ToolError(f"Login refused for {{who}}")
'''


@pytest.mark.parametrize("shape, row", [(FASTAPI, 15), (CLICK, 14), (MCP, 15)])
def test_a_record_with_a_credential_field_leaks_it(shape, row):
    secret = {"FASTAPI": "client_secret: str | None = None", "CLICK": "password: str = ''", "MCP": "api_key: str"}
    name = {id(FASTAPI): "FASTAPI", id(CLICK): "CLICK", id(MCP): "MCP"}[id(shape)]
    assert found(shape.format(field=secret[name])) == [(row, "AEM301")]


@pytest.mark.parametrize("shape, field", [
    (FASTAPI, "client_secret: SecretStr | None = None"),
    (FASTAPI, "client_secret: str = Field(default='', repr=False)"),
    (CLICK, "password: str = field(default='', repr=False)"),
    (MCP, "region: str"),
])
def test_a_masked_or_harmless_field_does_not(shape, field):
    assert found(shape.format(field=field)) == []


def test_a_plain_class_or_one_with_its_own_repr_does_not():
    plain = CLICK.format(field="password: str = ''").replace("@dataclass\n", "")
    assert found(plain) == []  # `<Profile object at 0x…>`
    own = CLICK.format(field="password: str = ''\n\n    def __repr__(self):\n        return f'Profile({self.user}@{self.host})'")
    assert found(own) == []


# an instance the code makes of such a class (`GATEWAY = GatewayConfig(...)`, `login = Login(...)`)
# shows the same fields as a parameter annotated with it; a record is as big as its fields, so no
# "any size" finding
def found_leaks_and_sizes(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, select=["AEM3", "AEM4"], settings=PREVIEW))


DRF_CONSTANT = '''import os
from dataclasses import dataclass

from rest_framework.response import Response
from rest_framework.views import APIView


@dataclass
class GatewayConfig:
    account: str
    {field}


GATEWAY = GatewayConfig("acct_main", os.environ["STRIPE_SECRET_KEY"])


class ChargeView(APIView):
    def post(self, request):
        return Response({{"detail": f"Charge failed with gateway {{GATEWAY}}"}}, status=502)
'''

CLICK_LOCAL = '''import attr
import click


@attr.s
class Login:
    user = attr.ib()
    {field}


@click.command()
@click.argument("user")
def main(user):
    login = Login(user, click.prompt("Password", hide_input=True))
    raise click.ClickException(f"Login refused: {{login!r}}")
'''

MCP_STR = MCP[:MCP.index("def login")] + '''@mcp.tool()
def login(account: str, region: str) -> str:
    entry = Creds(account, region)
    raise ToolError("Login refused for " + str(entry))
'''


@pytest.mark.parametrize("shape, field, row", [
    (DRF_CONSTANT, "secret_key: str", 19),
    (CLICK_LOCAL, "password = attr.ib()", 15),
    (MCP_STR, "api_key: str", 17),
])
def test_an_instance_made_of_a_record_class_leaks_its_credential_field(shape, field, row):
    assert found_leaks_and_sizes(shape.format(field=field)) == [(row, "AEM301")]


@pytest.mark.parametrize("shape, field", [
    (DRF_CONSTANT, "secret_key: str = field(default='', repr=False)"),
    (CLICK_LOCAL, "password = attr.ib(repr=False)"),
    (MCP_STR, "region: str"),
])
def test_an_instance_whose_record_masks_or_has_no_credential_shows_nothing_to_report(shape, field):
    assert found_leaks_and_sizes(shape.format(field=field)) == []


def test_an_instance_of_a_plain_class_shows_none_of_its_fields():
    plain = DRF_CONSTANT.format(field="secret_key: str").replace("@dataclass\n", "").replace(
        "    account: str\n    secret_key: str", "    account: str\n    secret_key: str\n\n    def __init__(self, account, secret_key):\n        self.account, self.secret_key = account, secret_key")
    assert found_leaks_and_sizes(plain) == []  # `<GatewayConfig object at 0x…>`


def test_a_field_that_is_only_maybe_a_credential_needs_a_message_about_authentication():
    # a lexer's `token` is no credential; in a message about a refused login it may be one
    code = '''from dataclasses import dataclass


@dataclass
class Lexeme:
    kind: str
    token: str


def expect(found: Lexeme, wanted: str) -> None:
    raise SyntaxError(f"expected {wanted}, got {found}")
'''
    assert found(code) == []
    assert found(code.replace("expected {wanted}, got {found}", "authentication refused for {found}")) == [(11, "AEM301")]


RETURNED = '''from typing import Optional

import pydantic
from fastapi import FastAPI, HTTPException

app = FastAPI()
_PROFILES: dict = {{}}


class Profile(pydantic.BaseModel):
    name: str
    {field}


def current_profile(name: str) -> {returns}:
    return _PROFILES.get(name)


@app.get("/profiles/{{name}}/sync")
def sync(name: str):
    profile = current_profile(name)
    if profile is None or not profile.name:
        raise HTTPException(status_code=409, detail=f"Profile not ready: {{profile}}")
'''


@pytest.mark.parametrize("returns", ["Profile", "Optional[Profile]", '"Profile"'])
def test_what_a_function_declared_to_return_such_a_record_returns_leaks_it(returns):
    assert found(RETURNED.format(field="refresh_token: str", returns=returns)) == [(23, "AEM301")]


@pytest.mark.parametrize("field, returns", [
    ("refresh_token: pydantic.SecretStr", "Profile"),  # masked
    ("region: str", "Profile"),  # no credential
    ("refresh_token: str", "dict"),  # declared to return something else
])
def test_what_a_function_declared_to_return_something_harmless_returns_does_not(field, returns):
    assert found(RETURNED.format(field=field, returns=returns)) == []


OWNER = '''import smtplib
from dataclasses import dataclass

import click


@dataclass
class SmtpSettings:
    host: str
    {field}


class Mailer:
    {declared}

    def send(self, to):
        try:
            smtplib.SMTP(self.settings.host)
        except OSError:
            raise click.ClickException(f"Could not reach the mail server with {{self.settings}}")
'''


@pytest.mark.parametrize("declared", [
    "settings: SmtpSettings",  # a class-level annotation
    "def __init__(self, settings: SmtpSettings):\n        self.settings = settings",  # a parameter kept
    "def __init__(self, host, password):\n        self.settings = SmtpSettings(host, password)",  # an instance made
    "def __init__(self, raw):\n        self.settings: SmtpSettings = load(raw)",  # annotated where assigned
])
def test_an_attribute_the_class_gives_such_a_record_leaks_it(declared):
    assert found(OWNER.format(field="password: str", declared=declared)) == [(20 + declared.count("\n"), "AEM301")]


@pytest.mark.parametrize("field, declared", [
    ("password: str", "def __init__(self, settings):\n        self.settings = settings"),  # type unknown
    ("password: str = field(default='', repr=False)", "settings: SmtpSettings"),  # masked
    ("port: int", "settings: SmtpSettings"),  # no credential
])
def test_an_attribute_of_unknown_or_harmless_type_does_not(field, declared):
    assert found(OWNER.format(field=field, declared=declared).replace("from dataclasses import dataclass", "from dataclasses import dataclass, field")) == []


def test_a_field_surely_named_for_a_credential_counts_before_one_maybe_named_so():
    # `authentication_token` alone would need a message about authentication; `client_secret` does not
    code = FASTAPI.format(field="authentication_token: str | None = None\n    client_secret: str | None = None")
    assert found(code) == [(16, "AEM301")]
