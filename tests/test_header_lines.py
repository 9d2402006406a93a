"""A header (a line ending with a colon that the block follows with more output) is judged with the
lines it introduces, by AEM101 as by the missing-part rules: "Validation Error:" then the path and the
validator's message says what failed (pagerduty-mcp's validate_server_json.py). A line ending with a
colon that nothing follows is still a message of its own."""
from __future__ import annotations

import textwrap

from conftest import PREVIEW, lint

MAIN = '''

def main():
    validate(load(sys.argv[1]), SCHEMA)


if __name__ == "__main__":
    main()
'''


def rows(body: str) -> list:
    code = "import sys\nimport jsonschema\n" + textwrap.dedent(body) + MAIN
    return sorted(d.location.row for d in lint(code, select=["AEM101"], settings=PREVIEW))


def test_header_before_the_path_and_the_validator_message():
    body = '''
        def validate(data, schema):
            try:
                jsonschema.validate(instance=data, schema=schema)
            except jsonschema.ValidationError as e:
                print("❌ Validation Error:", file=sys.stderr)
                print(f"   Path: {'/'.join(str(p) for p in e.path)}", file=sys.stderr)
                print(f"   Message: {e.message}", file=sys.stderr)
                sys.exit(1)
    '''
    assert rows(body) == []


def test_header_before_a_loop_over_the_failures():
    body = '''
        def validate(data, schema):
            errors = list(jsonschema.Draft7Validator(schema).iter_errors(data))
            if errors:
                print("Validation failed:", file=sys.stderr)
                for error in errors:
                    print(f"  {error.json_path}: {error.message}", file=sys.stderr)
                sys.exit(1)
    '''
    assert rows(body) == []


def test_colon_line_that_nothing_follows_is_still_judged():
    body = '''
        def validate(data, schema):
            try:
                jsonschema.validate(instance=data, schema=schema)
            except jsonschema.ValidationError:
                print("❌ Validation Error:", file=sys.stderr)
                sys.exit(1)
    '''
    assert rows(body) == [8]
