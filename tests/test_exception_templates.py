"""Issue 14 item 7: an exception class's message (from `__str__`, `__init__` and class attributes) is
joined to each raise site and judged there, where the guards and the caller are."""
from __future__ import annotations

import textwrap

import libcst as cst
from conftest import at

from errlint.extract.walker import extract

SELECT = ["AEM101", "AEM201", "AEM202", "AEM203", "AEM204", "AEM301", "AEM302"]


def found(code):
    return at(code, select=SELECT)


def texts(code, callee):
    """The template texts errlint reads for the raises of `callee`."""
    facts = extract(cst.parse_module(textwrap.dedent(code)))
    return [t.text for m in facts.messages if m.callee == callee for t in m.templates]


def test_issue_example_str_is_read_at_the_raise():
    code = '''
        class BudgetExceeded(Exception):
            def __str__(self):
                return "Budget exceeded."

        def spend(amount, budget):
            if amount > budget:
                raise BudgetExceeded()
            return budget - amount
    '''
    # before: "raised without a message" (AEM101); now the text is read and judged at the raise
    assert found(code) == [(8, "AEM202")]  # a library raise: AEM201 is opt-in for `exc`
    assert texts(code, "BudgetExceeded") == ["Budget exceeded."]


def test_init_parameters_map_to_the_raise_arguments_in_an_mcp_tool():
    code = '''
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("shop")

        class UnknownSku(ToolError):
            def __init__(self, sku):
                super().__init__(f"SKU {sku!r} is not in the catalog. Call list_skus to see valid SKUs.")

        class StockError(ToolError):
            def __init__(self, sku, wanted):
                self.sku = sku
                super().__init__(f"Something went wrong")

        @mcp.tool()
        def order(sku: str, count: int) -> str:
            if sku not in CATALOG:
                raise UnknownSku(sku)
            if count > CATALOG[sku]:
                raise StockError(sku, wanted=count)
            return "ok"
    '''
    # the composed text names neither the SKU nor the count the guard rejected
    assert found(code) == [(21, "AEM101"), (21, "AEM202"), (21, "AEM204")]  # AEM101 names the step and input: one verdict
    assert texts(code, "UnknownSku") == ["SKU {sku} is not in the catalog. Call list_skus to see valid SKUs."]


def test_str_reads_an_attribute_stored_by_init_from_a_secret_argument():
    code = '''
        class AuthError(Exception):
            def __init__(self, token):
                self.token = token

            def __str__(self):
                return f"Token {self.token!r} was rejected by the server; create a new one with `cli login`."

        def call(api_token):
            if not api_token.startswith("sk-"):
                raise AuthError(api_token)
    '''
    assert found(code) == [(11, "AEM204"), (11, "AEM301")]


def test_drf_default_detail_and_inherited_class_attribute():
    code = '''
        from rest_framework.exceptions import APIException

        class QuotaExceeded(APIException):
            status_code = 429
            default_detail = "An error occurred."

        class ReportQuotaExceeded(QuotaExceeded):
            pass

        def export(request, rows):
            if len(rows) > 10000:
                raise ReportQuotaExceeded()
    '''
    assert found(code) == [(13, "AEM101"), (13, "AEM202"), (13, "AEM204")]  # at most two wording findings


def test_message_attribute_read_by_base_str_with_subclass_override():
    code = '''
        class AppError(Exception):
            message = "Application error"

            def __str__(self):
                return self.message

        class PortInUse(AppError):
            message = "Port in use"

        def serve(port):
            if port < 1024:
                raise PortInUse()
    '''
    assert found(code) == [(13, "AEM202"), (13, "AEM204")]  # the base's "Application error" is never read
    assert texts(code, "PortInUse") == ["Port in use"]


def test_unraised_class_is_still_judged_at_its_definition_and_plain_subclasses_keep_the_raise_text():
    code = '''
        class ConfigError(Exception):
            def __init__(self, key):
                super().__init__(f"An error occurred")

        class ParseError(ValueError):
            pass

        def parse(text):
            if not text.strip():
                raise ParseError(f"Empty config text; pass a non-empty TOML document.")
    '''
    assert found(code) == [(4, "AEM101")]


def test_str_that_wraps_the_base_text_keeps_the_raise_argument():
    code = '''
        class ExportError(Exception):
            def __str__(self):
                return f"export: {super().__str__()}"

        class Choice(Exception):
            def __str__(self):
                if self.args:
                    return self.args[0]
                return "no choice"

        def export(fmt):
            if fmt not in ("csv", "json"):
                raise ExportError("Something went wrong")
            raise Choice(f"fmt {fmt!r} is fine")
    '''
    assert texts(code, "ExportError") == ["export: Something went wrong"]
    assert texts(code, "Choice") == ["fmt {fmt} is fine"]  # a `__str__` with two returns is not guessed


def test_composed_text_of_a_masked_exception_in_an_mcp2_tool_still_gets_aem603():
    code = '''
        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("x")

        class BadRegion(Exception):
            def __init__(self, region):
                super().__init__(f"Region {region!r} is unknown; call list_regions.")

        @mcp.tool()
        def launch(region: str) -> str:
            raise BadRegion(region)
    '''
    assert at(code, select=["AEM603"]) == [(12, "AEM603")]


def test_text_assembled_in_init_locals_stays_judged_in_init():
    code = '''
        class ResolutionError(Exception):
            def __init__(self, source, version):
                message = f"No interpreter {version!r} found in {source}."
                if source == "PATH":
                    message += " Something went wrong."
                super().__init__(message)

        def find(version):
            raise ResolutionError(source="PATH", version=version)
    '''
    # the `+=` under the `if` is one of two texts, not always part of the message
    assert texts(code, "ResolutionError") == [
        "No interpreter {version} found in {source}. Something went wrong.",
        "No interpreter {version} found in {source}.",
    ]


def test_a_text_str_assembles_step_by_step_is_not_one_template():
    # `__str__` returns a local it built with `+=` under conditions: the raise's own text is judged
    code = '''
        class ClientError(Exception):
            def __init__(self, text=None, status_code=None):
                self.text = text
                self.status_code = status_code

            def __str__(self):
                t = f"HTTP {self.status_code}"
                if self.text:
                    t += f" text: {self.text}"
                return t

        def login(user):
            if user is None:
                raise ClientError(f"Can not log in with {user}")
    '''
    assert texts(code, "ClientError") == ["Can not log in with {user}"]


def test_an_init_that_hands_the_base_different_texts_is_not_one_template():
    code = '''
        class ToolFailure(Exception):
            def __init__(self, message, *, wrap_message=True):
                if wrap_message:
                    super().__init__(wrap(message))
                else:
                    super().__init__(message)

        def run(code):
            if code:
                raise ToolFailure(f"Backend exited with code {code}", wrap_message=False)
    '''
    # (the texts `__init__` hands up are judged there, as for any class whose message is unknown)
    assert texts(code, "ToolFailure")[-1] == "Backend exited with code {code}"
    assert "Backend exited with code {code}" not in texts(code, "ToolFailure")[:-1]
