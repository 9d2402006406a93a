"""AEM101 (generic message): a log line right before the traceback is printed or logged
(`traceback.print_exc()`, `logger.error("%s", traceback.format_exc())`) is the traceback's heading,
as with `logger.exception` or `exc_info=True`, and is not judged alone."""
from __future__ import annotations

import pytest

from conftest import preview_rows


def aem101(code: str) -> list:
    return preview_rows(code, ["AEM101"])


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
