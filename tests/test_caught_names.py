"""A class caught by name elsewhere in the project is handled there, but only the class the handler
names: `except ValidationError` with `from pydantic import ValidationError` is pydantic's, not the
`django.forms.ValidationError` another file raises. Names caught without a package import (a
project class, a dotted module path) still match by their last name."""
from __future__ import annotations

import json

from click.testing import CliRunner

from errlint.checks.base import caught_by_name
from errlint.cli import main
from errlint.project_scan import scan_caught_names


def test_scan_keeps_a_package_import_qualified():
    text = "from pydantic import BaseModel, ValidationError as VE\nfrom .errors import NotFound\n\ntry:\n    x()\nexcept (VE, NotFound, pkg.HorizonError):\n    pass\n"
    assert scan_caught_names(text) == {"pydantic.ValidationError", "NotFound", "HorizonError"}


def test_a_qualified_catch_matches_its_own_package_and_local_classes():
    caught = {"pydantic.ValidationError", "NotFound"}
    assert caught_by_name("pydantic.ValidationError", caught)
    assert caught_by_name("pydantic_core.ValidationError", caught) is False
    assert caught_by_name("django.forms.ValidationError", caught) is False
    assert caught_by_name("ValidationError", caught)  # a class the file defines under that name
    assert caught_by_name("app.errors.NotFound", caught)


def test_another_packages_class_of_the_same_name_is_still_judged(tmp_project):
    (tmp_project / "api.py").write_text(
        "from pydantic import BaseModel, ValidationError\n\n\nclass Order(BaseModel):\n    n: int\n\n\n"
        "def parse(raw):\n    try:\n        return Order(**raw)\n    except ValidationError as exc:\n        return {'error': str(exc)}\n"
    )
    (tmp_project / "forms.py").write_text(
        "from django import forms\n\n\nclass TagForm(forms.Form):\n    slug = forms.CharField()\n\n"
        "    def clean_slug(self):\n        slug = self.cleaned_data['slug']\n        if ' ' in slug:\n"
        "            raise forms.ValidationError('The data provided is not acceptable.')\n        return slug\n"
    )
    result = CliRunner().invoke(main, ["--no-cache", "--preview", "--output-format", "json", "--select", "AEM101", "."])
    assert [(d["filename"], d["code"]) for d in json.loads(result.output)] == [("forms.py", "AEM101")]
