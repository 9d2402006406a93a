"""A pydantic model's `Literal` field is checked when the model is built, so an instance holds one of
its values. An `if`/`elif` chain on `instance.field` that handles every one of them raises in its
`else` for no value anyone can send (mcp-server-qdrant's `FilterableField.field_type`), like a chain
on a tool's `Literal` parameter (`test_declared_sets`). The instance's class comes from an
annotation: a parameter's, or that of the mapping or sequence it is taken from."""
from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner

from conftest import preview_rows

from errlint.cli import main
from errlint.project_scan import scan_literal_fields

PARTS = ["AEM201", "AEM202", "AEM203", "AEM204", "AEM205"]
MODEL = """
from typing import Annotated, Literal, Optional
from pydantic import BaseModel, Field

class FilterableField(BaseModel):
    name: str
    field_type: Literal["keyword", "integer"] = Field(description="The type of the field")
    condition: Literal["==", "!="] | None = None
"""


def rows(body: str) -> list:
    code = MODEL + textwrap.dedent(body)
    return [r - MODEL.count("\n") for r in preview_rows(code, PARTS)]


UNREACHABLE = {
    "taken_from_a_mapping_parameter": """
        def make_filter(fields: dict[str, FilterableField], values: dict) -> list:
            out = []
            for raw_name, value in values.items():
                field = fields[raw_name]
                if field.field_type == "keyword":
                    out.append(value)
                elif field.field_type == "integer":
                    out.append(int(value))
                else:
                    raise ValueError(f"Unsupported field type {field.field_type} for field {raw_name}")
            return out
    """,
    "loop_over_the_items_of_a_mapping": """
        def make_indexes(fields: dict[str, FilterableField]) -> dict:
            indexes = {}
            for name, field in fields.items():
                if field.field_type == "keyword":
                    indexes[name] = "KEYWORD"
                elif field.field_type == "integer":
                    indexes[name] = "INTEGER"
                else:
                    raise ValueError(f"Unsupported field type {field.field_type} for field {name}")
            return indexes
    """,
    "a_parameter_of_the_model_type": """
        def python_type(field: FilterableField) -> type:
            if field.field_type in ("keyword",):
                return str
            if field.field_type == "integer":
                return int
            raise ValueError(f"Unsupported field type: {field.field_type}")
    """,
    "loop_over_a_list_parameter": """
        from typing import List

        def names(fields: List[FilterableField]) -> list:
            out = []
            for field in fields:
                if field.field_type == "keyword":
                    out.append(field.name)
                elif field.field_type == "integer":
                    out.append(field.name + ":int")
                else:
                    raise ValueError(f"Unsupported field type: {field.field_type}")
            return out
    """,
}


@pytest.mark.parametrize("name", sorted(UNREACHABLE))
def test_a_chain_over_every_declared_value_of_a_model_field(name):
    assert rows(UNREACHABLE[name]) == []


STILL_JUDGED = {
    # `| None`: None reaches the `else`
    "optional_field": ("""
        def op(field: FilterableField) -> str:
            if field.condition == "==":
                return "eq"
            elif field.condition == "!=":
                return "ne"
            raise ValueError(f"Unsupported condition: {field.condition}")
    """, 7),
    # "integer" is declared but not handled
    "declared_value_left_unhandled": ("""
        def python_type(field: FilterableField) -> type:
            if field.field_type == "keyword":
                return str
            raise ValueError(f"Unsupported field type: {field.field_type}")
    """, 5),
    # a plain dict's values are not the model
    "no_annotation_to_read": ("""
        def python_type(fields, key) -> type:
            field = fields[key]
            if field.field_type == "keyword":
                return str
            elif field.field_type == "integer":
                return int
            raise ValueError(f"Unsupported field type: {field.field_type}")
    """, 8),
}


@pytest.mark.parametrize("name", sorted(STILL_JUDGED))
def test_a_reachable_else_is_still_judged(name):
    body, row = STILL_JUDGED[name]
    assert rows(body) == [row]


def test_a_model_defined_in_another_module(tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "settings.py").write_text(MODEL)
    # one chain over every declared value, one over an optional field that None can pass
    filters = "from pkg.settings import FilterableField\n" + textwrap.dedent(UNREACHABLE["loop_over_the_items_of_a_mapping"]) \
        + textwrap.dedent(STILL_JUDGED["optional_field"][0])
    (tmp_path / "pkg" / "filters.py").write_text(filters)
    raised = filters.splitlines().index('    raise ValueError(f"Unsupported condition: {field.condition}")') + 1
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--preview", "--select", ",".join(PARTS), "--output-format", "json", "."])
    found = sorted({(d["filename"].replace("\\", "/"), d["location"]["row"]) for d in json.loads(result.output)})
    assert found == [("pkg/filters.py", raised)]


def test_the_scan_reads_closed_literal_fields_of_models_only():
    text = textwrap.dedent('''
        class A(BaseModel):
            kind: Literal["a", "b"]
            mode: Annotated[Literal["r", "w"], Field(description="x")] = "r"
            maybe: Literal["x"] | None = None
            unset: Literal["y"] = None
            nested: Optional[Literal["z"]] = None

            def f(self):
                local: Literal["q"] = "q"

        class B(A):
            level: Literal[1, 2] = Field(default=1)

        class Plain:
            kind: Literal["c"]
    ''')
    assert scan_literal_fields(text) == {
        "A.kind": frozenset({"a", "b"}), "A.mode": frozenset({"r", "w"}), "B.level": frozenset({"1", "2"}),
    }
