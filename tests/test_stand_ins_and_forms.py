"""Genericity judged by what a message names, from a third fresh hunter's cases (#14 kind 8), with
inputs of my own:

- words that stand where a concrete thing belongs ("a different value", "the data provided") and
  fillers ("Hmm", "unfortunately") name nothing beside a failure statement;
- a headline's passive ("Request rejected.") and a judgment denied ("is not acceptable", "is not
  supported") are failure statements;
- a Django form's `clean_<field>` is shown beside its field (no echo owed), but a failure there that
  names nothing is still generic, and `self.cleaned_data` is what the user submitted;
- "Existing projects: ..." lists the allowed values (a way forward, and its size is judged).
"""
from __future__ import annotations

import pytest

from conftest import at, codes

TOOL = '''
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
mcp = FastMCP("desk")
PRIORITIES = ("low", "high")


@mcp.tool()
def set_priority(priority: str) -> str:
    if priority not in PRIORITIES:
        raise ToolError({text!r})
    return "ok"
'''


@pytest.mark.parametrize("text", [
    "Hmm, that didn't work. Please try a different value.",
    "Request rejected.",
    "Unfortunately the value provided is not acceptable.",
    "The requested operation is not supported.",
])
def test_failures_that_name_nothing_are_generic(text):
    assert "AEM101" in codes(TOOL.format(text=text), select=["AEM101"])


@pytest.mark.parametrize("text", [
    "Priority 'urgent' was rejected: use low or high.",
    "The ticket priority is not supported for archived tickets.",
    "Escalation to the on-call rota was declined by the scheduler.",
])
def test_failures_that_name_their_objects_are_not(text):
    assert codes(TOOL.format(text=text), select=["AEM101"]) == []


def test_a_django_clean_field_hook():
    code = '''
    import re

    from django import forms

    SLUG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


    class TagForm(forms.Form):
        slug = forms.CharField(max_length=50)
        email = forms.CharField()

        def clean_slug(self):
            slug = self.cleaned_data["slug"].strip().lower()
            if not SLUG_RE.fullmatch(slug):
                raise forms.ValidationError("The data provided is not acceptable.")
            return slug

        def clean_email(self):
            email = self.cleaned_data["email"]
            if "@" not in email:
                raise forms.ValidationError("Not a valid email address; it needs an @.")
            return email
    '''
    assert at(code, select=["AEM101", "AEM202", "AEM204"]) == [(16, "AEM101"), (16, "AEM204")]


def test_existing_values_listed_are_a_way_forward_and_judged_for_size():
    code = '''
    import click


    @click.command()
    @click.argument("name")
    def open_project(name):
        projects = list_projects()
        if name not in {p.name for p in projects}:
            raise click.ClickException(f"No project named {name!r}. Existing projects: {', '.join(p.name for p in projects)}")
        if name == "x":
            raise click.ClickException(f"No project named {name!r}. Existing projects: a, b")
    '''
    assert at(code, select=["AEM201", "AEM405"]) == [(10, "AEM405")]
