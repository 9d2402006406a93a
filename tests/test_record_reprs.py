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
