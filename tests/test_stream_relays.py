"""AEM402 judges a message built around a value, not output passed on to stderr as it is: a
forwarded buffer, a captured usage text, a child's output relayed. The same value raised, or written
with text of its own, is still a message that can be any size."""
from __future__ import annotations

import pytest

from conftest import at


def aem402(code):
    return at(code, select=["AEM402"])


@pytest.mark.parametrize("code", [
    '''
    import os
    def forward(buffer: bytes):
        os.write(2, buffer)
    ''',
    '''
    import io, sys
    def replay(cap: io.StringIO):
        text = cap.read()
        if text:
            print(text, file=sys.stderr)
        raise SystemExit(2)
    ''',
    '''
    import subprocess, sys
    def run(cmd):
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode:
            sys.stderr.write(proc.stderr)
            sys.exit(proc.returncode)
    ''',
    '''
    import click, subprocess
    def run(cmd):
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode:
            click.echo(proc.stdout, err=True)
            raise SystemExit(1)
    ''',
])
def test_output_passed_on_to_stderr_is_a_relay(code):
    assert aem402(code) == []


def test_the_same_value_with_text_of_its_own_or_raised_is_a_message():
    code = '''
    import subprocess, sys
    def run(cmd):
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode:
            print(f"pip failed: {proc.stderr}", file=sys.stderr)
            raise RuntimeError(proc.stderr)
    '''
    assert aem402(code) == [(6, "AEM402"), (7, "AEM402")]
