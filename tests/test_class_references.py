"""A name bound only to a class (`obj_type = SnowflakeSchema`, `from .models import UserSchema`) is a
class reference: interpolated, it shows `<class '...UserSchema'>`, not a schema or a record, whatever
its name says (snowflake-labs-mcp's "Invalid object type" was reported as a schema dump)."""
from __future__ import annotations

import textwrap

from conftest import PREVIEW, lint

HEAD = "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\nfrom app.models import DatabaseModel, SnowflakeSchema, UserSchema\nmcp = FastMCP('x')\n"


def rows(body: str, codes=("AEM403", "AEM402")) -> list:
    text = HEAD + textwrap.dedent(body)
    return sorted((d.location.row - HEAD.count("\n"), d.code) for d in lint(text, select=list(codes), settings=PREVIEW))


def test_class_chosen_in_an_elif_chain():
    body = '''
        @mcp.tool()
        def parse(target: str, obj_type: str):
            if obj_type == "database":
                obj_type = DatabaseModel
            elif obj_type == "schema":
                obj_type = SnowflakeSchema
            else:
                raise ToolError(f"Invalid object type: {obj_type}; use database or schema")
            return obj_type(name=target)
    '''
    assert rows(body) == []


def test_imported_model_class_named_schema():
    body = '''
        @mcp.tool()
        def create(payload: str):
            raise ToolError(f"Cannot build {UserSchema} from the payload; pass name and email")
    '''
    assert rows(body) == []


def test_class_defined_in_the_module():
    body = '''
        class ReportSchema:
            pass

        @mcp.tool()
        def report(kind: str):
            raise ToolError(f"{ReportSchema} has no kind {kind!r}; use daily or weekly")
    '''
    assert rows(body) == []


def test_the_schema_of_a_model_class_is_still_a_dump():
    body = '''
        @mcp.tool()
        def create(payload: str):
            raise ToolError(f"Payload must match {UserSchema.model_json_schema()}")
    '''
    assert rows(body, codes=("AEM403",)) == [(4, "AEM403")]
