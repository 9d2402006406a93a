"""AEM101 (generic message) and what a message relays.

- A generic prefix over the exception a specific `except` class caught ("Request failed: {e}" under
  `except requests.RequestException as e`) is not generic: the class fixes what failed, its text says
  why. Over a catch-all (`except Exception as exc`) it still says only that something failed.
- A log line right before the traceback is printed or logged (`traceback.print_exc()`,
  `logger.error("%s", traceback.format_exc())`) is the traceback's heading, as with
  `logger.exception` or `exc_info=True`.
"""
from __future__ import annotations

import pytest

from conftest import preview_rows


def aem101(code: str) -> list:
    return preview_rows(code, ["AEM101"])


SPECIFIC_CAUSES = {
    "a_request_error_in_an_mcp_tool": """
        import requests
        from fastmcp import FastMCP
        mcp = FastMCP("x")

        @mcp.tool
        def notes(vault: str) -> list:
            try:
                reply = requests.get(f"http://127.0.0.1:27124/vault/{vault}", timeout=5)
                reply.raise_for_status()
            except requests.exceptions.RequestException as e:
                raise Exception(f"Request failed: {str(e)}")
            return reply.json()
        """,
    "a_json_error_in_a_cli": """
        import json
        import sys

        def main():
            try:
                config = json.load(open(sys.argv[1]))
            except json.JSONDecodeError as err:
                sys.exit(f"Error: {err}")
            print(config)

        if __name__ == "__main__":
            main()
        """,
    "an_integrity_error_in_a_route": """
        import sqlite3
        from fastapi import FastAPI, HTTPException
        app = FastAPI()

        @app.post("/users")
        def create(name: str):
            try:
                sqlite3.connect("app.db").execute("INSERT INTO users(name) VALUES (?)", (name,))
            except sqlite3.IntegrityError as exc:
                raise HTTPException(status_code=409, detail=f"Operation failed: {exc}")
            return {"name": name}
        """,
    "an_os_error_logged": """
        import logging
        logger = logging.getLogger(__name__)

        def rotate(path):
            try:
                open(path, "a").close()
            except OSError as e:
                logger.error("Failed: %s", e)
        """,
}


@pytest.mark.parametrize("name", sorted(SPECIFIC_CAUSES))
def test_a_specific_cause_is_not_generic(name):
    assert aem101(SPECIFIC_CAUSES[name]) == []


CATCH_ALLS = {
    "a_catch_all_in_a_dispatcher": ("""
        from mcp.server.lowlevel import Server
        vault = Server("vault")

        @vault.call_tool()
        async def dispatch(name: str, arguments: dict):
            try:
                return await run(name, arguments)
            except Exception as exc:
                raise RuntimeError(f"An error occurred: {exc}")

        async def run(name, arguments):
            return []
        """, 10),
    "a_tuple_that_holds_a_catch_all": ("""
        import sys

        def main():
            try:
                run()
            except (ValueError, Exception) as e:
                sys.exit(f"Error: {e}")

        def run():
            pass

        if __name__ == "__main__":
            main()
        """, 8),
    "a_specific_class_whose_text_is_not_shown": ("""
        import requests
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        mcp = FastMCP("x")

        @mcp.tool
        def notes(vault: str) -> list:
            try:
                return requests.get(f"http://127.0.0.1/vault/{vault}", timeout=5).json()
            except requests.RequestException:
                raise ToolError("Request failed")
        """, 12),
}


@pytest.mark.parametrize("name", sorted(CATCH_ALLS))
def test_a_catch_all_or_no_cause_stays_generic(name):
    code, row = CATCH_ALLS[name]
    assert aem101(code) == [row]


TRACEBACK_HEADINGS = {
    "a_formatted_traceback_logged_next": """
        import logging
        import traceback
        logger = logging.getLogger(__name__)

        def handle(environ):
            try:
                return dispatch(environ)
            except Exception as e:
                logger.error("Exception: %s", e)
                logger.error("%s", traceback.format_exc())
                return 500

        def dispatch(environ):
            return 200
        """,
    "a_traceback_printed_next": """
        import logging
        import traceback

        def work(job):
            try:
                job()
            except Exception:
                logging.error("An unexpected error occurred")
                traceback.print_exc()
        """,
    "a_traceback_logged_at_debug_next": """
        import logging
        import traceback
        log = logging.getLogger("svc")

        def serve(handler):
            try:
                handler()
            except Exception:
                log.error("Unexpected error")
                log.debug(traceback.format_exc())
        """,
}


@pytest.mark.parametrize("name", sorted(TRACEBACK_HEADINGS))
def test_a_heading_of_the_traceback_is_not_judged_alone(name):
    assert aem101(TRACEBACK_HEADINGS[name]) == []


def test_a_log_line_with_no_traceback_after_it_is_judged():
    code = """
        import logging
        import traceback
        logger = logging.getLogger(__name__)

        def handle(environ):
            try:
                return dispatch(environ)
            except Exception as e:
                logger.error("Exception: %s", e)
                return 500

        def dispatch(environ):
            return traceback.format_exc()
        """
    assert aem101(code) == [10]
