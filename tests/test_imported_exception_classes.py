"""An exception class another module of the project defines is joined to each raise, as one of the
module's own (#14, item 7, across modules): `from .errors import NotFound` brings the class's
`__init__`, `__str__` and `default_detail` (read from its module's source by
`project_scan.ExceptionClasses`) and the project classes it derives from. A class that derives from
the MCP SDK's `McpError` raises a protocol error with the code its `__init__` sets.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from click.testing import CliRunner

from errlint.cli import main


def _check(tmp_path, monkeypatch, files, select):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--no-cache", "--preview", "--select", ",".join(select), "--output-format", "json", "."])
    assert result.exit_code in (0, 1), result.output
    return sorted((d["filename"].replace("\\", "/"), d["location"]["row"], d["code"], d["message"]) for d in json.loads(result.output))


def test_the_message_an_imported_class_composes_is_judged_at_the_raise(tmp_path, monkeypatch):
    found = _check(tmp_path, monkeypatch, {
        "shop/__init__.py": "",
        "shop/errors.py": """\
            class BudgetExceeded(Exception):
                def __str__(self):
                    return "Budget exceeded."


            class UnknownSku(LookupError):
                def __init__(self, sku):
                    super().__init__(f"Unknown SKU {sku!r}. Call list_skus to see valid SKUs.")
                    self.sku = sku
        """,
        "shop/cli.py": """\
            import click

            from shop.errors import BudgetExceeded, UnknownSku

            SKUS = {"A1": 3}


            @click.command()
            @click.argument("sku")
            @click.option("--amount", type=int)
            def buy(sku, amount):
                if sku not in SKUS:
                    raise UnknownSku(sku)
                if amount > 100:
                    raise BudgetExceeded()
        """,
    }, ["AEM101", "AEM202", "AEM204"])
    # "Budget exceeded." is all the reader gets; the SKU message shows the value and says where valid
    # ones are (before, neither raise was read: the class was unknown)
    assert [(f, row, code) for f, row, code, _ in found] == [("shop/cli.py", 15, "AEM202"), ("shop/cli.py", 15, "AEM204")]


BASE = """\
class AppError(Exception):
    def __init__(self, what):
        super().__init__(f"Operation failed: {what}")
"""
SUBCLASS = """\
class ExportError(AppError):
    pass
"""
COMMAND = """\
@click.command()
@click.argument("fmt")
def export(fmt):
    if fmt not in ("csv", "json"):
        raise ExportError("export")
"""


def test_a_base_class_in_a_third_module_composes_for_its_subclass(tmp_path, monkeypatch):
    split = _check(tmp_path / "split", monkeypatch, {
        "app/__init__.py": "",
        "app/base.py": BASE,
        "app/errors.py": "from app.base import AppError\n\n\n" + SUBCLASS,
        "app/cli.py": "import click\n\nfrom app.errors import ExportError\n\n\n" + COMMAND,
    }, ["AEM101", "AEM202", "AEM204"])
    whole = _check(tmp_path / "whole", monkeypatch, {"cli.py": "import click\n\n\n" + BASE + "\n\n" + SUBCLASS + "\n\n" + COMMAND}, ["AEM101", "AEM202", "AEM204"])
    # the same findings as with the classes in the command's own module
    assert [(code, message) for _, _, code, message in split] == [(code, message) for _, _, code, message in whole]
    assert [code for _, _, code, _ in split] == ["AEM202", "AEM204"]


def test_the_raise_reads_the_text_the_imported_classes_compose():
    import libcst as cst

    from errlint.extract.walker import extract

    module = cst.parse_module("from app.errors import ExportError as Failed\n\n\ndef f(x):\n    raise Failed('export')\n")
    classes = [("base.AppError", (("Exception",), BASE.strip())), ("errors.ExportError", (("AppError",), SUBCLASS.strip()))]
    assert [[t.text for t in m.templates] for m in extract(module, imported_classes=classes).messages] == [["Operation failed: export"]]
    assert [[t.text for t in m.templates] for m in extract(module).messages] == [["export"]]


def test_an_imported_mcperror_subclass_raises_a_protocol_error(tmp_path, monkeypatch):
    found = _check(tmp_path, monkeypatch, {
        "vault/__init__.py": "",
        "vault/errors.py": """\
            from mcp.shared.exceptions import McpError
            from mcp.types import INVALID_PARAMS, METHOD_NOT_FOUND, ErrorData


            class VaultArgumentError(McpError):
                def __init__(self, message: str) -> None:
                    super().__init__(ErrorData(code=INVALID_PARAMS, message=message))


            class VaultUnsupported(McpError):
                def __init__(self, feature: str) -> None:
                    super().__init__(ErrorData(code=METHOD_NOT_FOUND, message=f"{feature} is not supported"))
        """,
        "vault/server.py": """\
            from mcp.server.fastmcp import FastMCP

            from .errors import VaultArgumentError, VaultUnsupported

            mcp = FastMCP("vault")


            @mcp.tool()
            def read_secret(path: str, version: int = 0) -> str:
                if not path.startswith("secret/"):
                    raise VaultArgumentError(f"path {path!r} must start with secret/; call list_secrets.")
                if version < 0:
                    raise VaultUnsupported("version pinning")
                return "s3cr3t"
        """,
    }, ["AEM602", "AEM201"])
    # the argument error is a tool failure sent as a protocol error; the capability error is not,
    # and its text is the class's ("version pinning is not supported"), not the bare argument
    assert [(f, row, code) for f, row, code, _ in found] == [("vault/server.py", 11, "AEM602")]


def test_an_imported_drf_exception_brings_its_default_detail(tmp_path, monkeypatch):
    found = _check(tmp_path, monkeypatch, {
        "rates/__init__.py": "",
        "rates/exceptions.py": """\
            from rest_framework import status
            from rest_framework.exceptions import APIException


            class UpstreamUnavailable(APIException):
                status_code = status.HTTP_503_SERVICE_UNAVAILABLE
                default_detail = "The rates service is unavailable."


            class CarrierTimeout(APIException):
                status_code = status.HTTP_504_GATEWAY_TIMEOUT
                default_detail = "The carrier did not answer within 8 s; retry in 30 seconds."
        """,
        "rates/views.py": """\
            import requests
            from rest_framework.views import APIView

            from .exceptions import CarrierTimeout, UpstreamUnavailable


            class RatesView(APIView):
                def post(self, request):
                    try:
                        return requests.post("https://carrier.example/rates", json=request.data, timeout=8)
                    except requests.Timeout:
                        raise CarrierTimeout()
                    except requests.ConnectionError:
                        raise UpstreamUnavailable()
        """,
    }, ["AEM206"])
    assert [(f, row, code) for f, row, code, _ in found] == [("rates/views.py", 14, "AEM206")]


def test_a_plain_imported_subclass_keeps_the_raise_text(tmp_path, monkeypatch):
    files = {
        "tool/__init__.py": "",
        "tool/errors.py": "class ConfigError(Exception):\n    pass\n",
        "tool/cli.py": """\
            import click

            from tool.errors import ConfigError


            @click.command()
            @click.argument("level")
            def main(level):
                if level not in ("a", "b"):
                    raise ConfigError("Something went wrong.")
        """,
    }
    found = _check(tmp_path, monkeypatch, files, ["AEM101"])
    assert [(f, row, code) for f, row, code, _ in found] == [("tool/cli.py", 10, "AEM101")]
    assert '"Something went wrong."' in found[0][3]


def test_the_scan_keeps_exception_classes_with_their_source(tmp_path):
    from errlint.project_scan import ExceptionClasses

    files = {
        "pkg/base.py": b"from mcp.shared.exceptions import McpError\n\n\nclass AppError(Exception):\n    def __init__(self, what):\n        super().__init__(f'failed: {what}')\n\n\nclass Proto(McpError):\n    pass\n\n\nclass Helper:\n    def __init__(self):\n        pass\n",
        "pkg/errors.py": b"from pkg.base import AppError\n\n\nclass NotFound(AppError):\n    code = 404\n\n# a comment\nclass Other(dict):\n    pass\n",
    }
    scan = ExceptionClasses()
    for name, data in files.items():
        path = tmp_path / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        scan.add(path, data)
    found = dict(scan.classes())
    assert sorted(found) == ["base.AppError", "base.Proto", "errors.NotFound"]
    assert found["base.Proto"][0] == ("mcp.shared.exceptions.McpError",)  # qualified through the stack import
    assert found["errors.NotFound"] == (("AppError",), "class NotFound(AppError):\n    code = 404")
