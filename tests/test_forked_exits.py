"""AEM606 reports an error on stdout, or a silent non-zero exit, in command-line code. `os._exit` in
a function that forks is a forked process leaving at once (httpie's double fork that detaches its
update checker): nobody reads its output, so it is no silent failure of the command. Nor is output
right before an interactive debugger session (`--pdb`): the person at the terminal reads it."""
from __future__ import annotations

import textwrap

from conftest import PREVIEW, lint

MAIN = '''

if __name__ == "__main__":
    main()
'''


def rows(code: str) -> list:
    return sorted(d.location.row for d in lint(textwrap.dedent(code) + MAIN, select=["AEM606"], settings=PREVIEW))


def test_double_fork_of_a_detached_daemon():
    code = '''
        import os
        import sys

        def spawn(args):
            try:
                if os.fork() > 0:
                    return
            except OSError:
                os._exit(1)
            os.setsid()
            try:
                if os.fork() > 0:
                    os._exit(0)
            except OSError:
                os._exit(1)
            sys.stdout.close()

        def main():
            spawn(sys.argv[1:])
    '''
    assert rows(code) == []


def test_child_of_a_forkpty_leaving_after_a_failed_exec():
    code = '''
        import os
        import sys

        def run_in_pty(argv):
            pid, fd = os.forkpty()
            if pid == 0:
                try:
                    os.execvp(argv[0], argv)
                except OSError:
                    os._exit(127)
            return fd

        def main():
            run_in_pty(sys.argv[1:])
    '''
    assert rows(code) == []


def test_hard_exit_without_a_fork_is_still_silent():
    code = '''
        import os
        import sys

        def main():
            try:
                config = open(sys.argv[1]).read()
            except OSError:
                os._exit(1)
            print(config)
    '''
    assert rows(code) == [9]


def test_sys_exit_in_a_function_that_forks_is_still_silent():
    code = '''
        import os
        import sys

        def main():
            try:
                pid = os.fork()
            except OSError:
                sys.exit(1)
            print(pid)
    '''
    assert rows(code) == [9]


# -- output before an interactive debugger session ---------------------------------------------------

def test_message_before_a_post_mortem_session():
    code = '''
        import pdb
        import sys

        def main():
            try:
                convert(sys.argv[1])
            except Exception as ex:
                print("Exception raised, dropping into pdb...:", ex)
                pdb.post_mortem(ex.__traceback__)
                sys.exit(1)
    '''
    assert rows(code) == []


def test_message_before_breakpoint():
    code = '''
        import sys

        def main():
            try:
                convert(sys.argv[1])
            except ValueError as ex:
                print(f"Error: {ex}; entering the debugger")
                breakpoint()
                sys.exit(2)
    '''
    assert rows(code) == []


def test_error_on_stdout_without_a_debugger_is_still_reported():
    code = '''
        import sys

        def main():
            try:
                convert(sys.argv[1])
            except ValueError as ex:
                print(f"Error: {ex}")
                sys.exit(2)
    '''
    assert rows(code) == [8]


def test_a_debugger_elsewhere_in_the_function_does_not_excuse_an_error_on_stdout():
    code = '''
        import sys

        def main():
            if "--pdb" in sys.argv:
                breakpoint()
            if len(sys.argv) < 2:
                print("Error: pass a number")
                sys.exit(2)
    '''
    assert rows(code) == [8]


def test_a_hard_exit_before_the_fork_is_the_parents_own():
    code = '''
        import json
        import os
        import sys

        def main():
            try:
                cfg = json.load(open(sys.argv[1]))
            except (OSError, ValueError):
                os._exit(1)
            if "--background" in sys.argv and os.fork() > 0:
                return
            print(cfg)
    '''
    assert rows(code) == [10]
