"""Inside `except ... as e`, `e` is the exception that clause caught, even when the function binds the
same name elsewhere: in another clause of the same `try`, in a later `try`, or by an assignment before
the `try`. Before, a name bound twice lost its provenance, so `{e}` read as an unknown value (the
relayed exception text was judged as the program's own words and a home path in an OSError was missed),
or as the value assigned before the `try` ("failed: default")."""
from __future__ import annotations

import textwrap

import libcst as cst

from conftest import PREVIEW, lint
from errlint.extract.walker import extract


def found(code: str) -> list:
    return sorted((d.location.row, d.code) for d in lint(code, settings=PREVIEW))


def kinds_of(code: str, text: str) -> list:
    """The kinds of each placeholder of the template whose text contains `text`."""
    facts = extract(cst.parse_module(textwrap.dedent(code)))
    return [sorted(h.kinds) for m in facts.messages for t in m.templates if text in t.text for h in t.placeholders]


TWO_CLAUSES_OF_ONE_TRY = """
    import subprocess
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError

    mcp = FastMCP("x")

    @mcp.tool
    def logs(name: str) -> str:
        try:
            out = subprocess.run(["tilt", "logs", name], check=True, capture_output=True, text=True)
        except subprocess.CalledProcessError as e:
            raise ToolError(f"`tilt logs {name}` exited with {e.returncode}; call list_resources for valid names.")
        except Exception as e:
            raise ToolError(f"Error: {e}")
        return out.stdout
    """


def test_the_second_clause_relays_its_own_exception():
    # the relayed text is the exception's (AEM207, and AEM101 for the bare prefix), not a message
    # of the program's own that lacks a next step (AEM201)
    assert kinds_of(TWO_CLAUSES_OF_ONE_TRY, "Error: ") == [["exception"]]
    assert found(TWO_CLAUSES_OF_ONE_TRY) == [(15, "AEM101"), (15, "AEM207")]


TWO_TRIES_AND_A_HOME_PATH = """
    import os
    import sys

    def load():
        try:
            profile = os.environ["APP_PROFILE"]
        except KeyError as e:
            sys.exit(f"APP_PROFILE is not set ({e}); export it, e.g. `export APP_PROFILE=prod`.")
        try:
            with open(os.path.expanduser("~/.aws/credentials")) as fh:
                return fh.read(), profile
        except OSError as e:
            sys.exit(f"Could not read the AWS credentials file: {e}. Run `aws configure` to create it.")

    if __name__ == "__main__":
        load()
    """


def test_a_later_try_keeps_the_oserror_and_the_path_it_failed_on():
    assert kinds_of(TWO_TRIES_AND_A_HOME_PATH, "AWS credentials") == [["exception", "home-path"]]
    assert found(TWO_TRIES_AND_A_HOME_PATH) == [(14, "AEM302")]


ASSIGNED_BEFORE_THE_TRY = """
    import sys

    def main():
        e = "default"
        try:
            run()
        except ValueError as e:
            print(f"failed: {e}", file=sys.stderr)
            sys.exit(1)
        print(f"done: {e}", file=sys.stderr)

    def run():
        pass

    if __name__ == "__main__":
        main()
    """


def test_the_clause_shadows_an_assignment_before_the_try():
    facts = extract(cst.parse_module(textwrap.dedent(ASSIGNED_BEFORE_THE_TRY)))
    texts = sorted(t.text for m in facts.messages for t in m.templates)
    # inside the clause `e` is the exception, not the string assigned before the `try` (after the
    # `try`, `e` may be either, so it stays a placeholder)
    assert texts == ["done: {e}", "failed: {e}"]
    assert kinds_of(ASSIGNED_BEFORE_THE_TRY, "failed") == [["exception"]]


NESTED_CLAUSES = """
    import json
    import sys

    def main(path):
        try:
            with open(path) as fh:
                try:
                    return json.load(fh)
                except json.JSONDecodeError as err:
                    sys.exit(f"{path} is not JSON ({err.msg} at line {err.lineno}); fix that line.")
        except OSError as err:
            sys.exit(f"Error: {err}")

    if __name__ == "__main__":
        main(sys.argv[1])
    """


def test_nested_clauses_each_see_their_own_exception():
    assert kinds_of(NESTED_CLAUSES, "Error: ") == [["exception"]]
    assert found(NESTED_CLAUSES) == [(13, "AEM101")]  # as for a single clause: AEM207 is for replies to an agent


HTTP_CLAUSES = """
    import requests
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError

    mcp = FastMCP("x")

    @mcp.tool
    def fetch(url: str) -> str:
        try:
            r = requests.get(url, timeout=10)
            r.raise_for_status()
        except requests.Timeout as exc:
            raise ToolError(f"Timed out after 10s fetching {url}; retry in 30 seconds. ({exc})")
        except requests.RequestException as exc:
            raise ToolError(str(exc))
        return r.text
    """


def test_a_relayed_request_error_in_a_second_clause():
    assert kinds_of(HTTP_CLAUSES, "Timed out") == [["unknown"], ["exception"]]  # `url`, then the clause's `exc`
    assert found(HTTP_CLAUSES) == [(16, "AEM207")]


# a name the clause itself rebinds is no longer the exception from that point on
REBOUND_BY_A_LOOP_OVER_ITS_ERRORS = """
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    from pydantic import BaseModel, ValidationError

    mcp = FastMCP("orders")

    class Order(BaseModel):
        sku: str

    @mcp.tool
    def place_order(order: dict) -> str:
        try:
            parsed = Order.model_validate(order)
        except ValidationError as e:
            for e in e.errors():
                raise ToolError(f"Error: {e['msg']}")
            raise
        return parsed.sku
    """

REBOUND_BY_A_LOOP_OVER_CONSTANTS = """
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError

    mcp = FastMCP("warehouse")
    PROBLEMS = [
        "The warehouse is in maintenance mode; call get_status and retry once it reports 'ready'.",
    ]

    @mcp.tool
    def stock(sku: str) -> int:
        try:
            conn = connect()
        except ConnectionError as e:
            for e in PROBLEMS:
                raise ToolError(e)
            raise
        return conn.stock(sku)

    def connect():
        return None
    """


def test_a_loop_over_the_errors_rebinds_the_name():
    # `e['msg']` is a field of one error record the validator returned, relayed as it is
    assert kinds_of(REBOUND_BY_A_LOOP_OVER_ITS_ERRORS, "Error: ") == [["exception", "relayed"]]
    assert found(REBOUND_BY_A_LOOP_OVER_ITS_ERRORS) == [(17, "AEM101"), (17, "AEM207")]


def test_a_loop_over_constants_rebinds_the_name():
    # `e` is the constant text, which already says what to call and when to retry
    assert kinds_of(REBOUND_BY_A_LOOP_OVER_CONSTANTS, "maintenance") == []
    assert found(REBOUND_BY_A_LOOP_OVER_CONSTANTS) == []
