"""Security: errlint never imports or runs the code it checks and opens no connection; it does not
follow symbolic links out of the checked tree (unless the path was given); user regexes cannot hang
it; secrets are masked in every output format and in the cache."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KEY = "AKIAIOSFODNN7EXAMPLE"
FORMATS = ("concise", "full", "json", "json-lines", "github", "sarif", "junit")

GUARD = '''
import os, socket, sys

LOG = os.environ["ERRLINT_GUARD_LOG"]
WATCHED = os.environ["ERRLINT_GUARD_DIR"]


def record(what):
    with open(LOG, "a") as fh:
        fh.write(what + "\\n")


def blocked(*args, **kwargs):
    record(f"network: {args!r}")
    raise OSError("network access is blocked in this test")


for name in ("connect", "connect_ex", "sendto"):
    setattr(socket.socket, name, blocked)
socket.create_connection = blocked
socket.getaddrinfo = blocked


def audit(event, args):
    if event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "urllib.Request", "subprocess.Popen",
                 "os.system", "os.exec", "os.posix_spawn", "os.spawn"):
        record(f"{event}: {args!r}"[:300])
    elif event == "exec" and getattr(args[0], "co_filename", "").startswith(WATCHED):
        record(f"exec: {args[0].co_filename}")
    elif event == "import" and args[1] and str(args[1]).startswith(WATCHED):
        record(f"import: {args[1]}")


sys.addaudithook(audit)
'''

EVIL = '''
"""Running or importing this file leaves a marker and phones home."""
import pathlib, socket, sys
pathlib.Path(__file__).with_name("IMPORTED-" + pathlib.Path(__file__).stem).write_text("ran")
socket.create_connection(("example.com", 80), timeout=1)


def main(path):
    raise RuntimeError("An unexpected error occurred.")
'''


def guarded_env(tmp_path: Path, watched: Path) -> dict:
    guard = tmp_path / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(GUARD)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(guard), str(ROOT), env.get("PYTHONPATH", "")])
    env["ERRLINT_GUARD_LOG"] = str(tmp_path / "guard.log")
    env["ERRLINT_GUARD_DIR"] = str(watched)
    return env


def errlint(*args, cwd, env=None, timeout=300):
    return subprocess.run([sys.executable, "-m", "errlint", *map(str, args)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_checked_code_is_never_imported_or_run_and_no_connection_is_opened(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(ROOT / "examples", project / "examples")
    for name in ("evil.py", "conftest.py", "setup.py", "__init__.py", "__main__.py", "sitecustomize.py", "noxfile.py"):
        (project / name).write_text(EVIL)
    (project / "pyproject.toml").write_text('[project]\nname = "victim"\n[tool.errlint]\n')
    env = guarded_env(tmp_path, project)
    sanity = subprocess.run([sys.executable, "-c", "import socket; socket.create_connection(('example.com', 80))"], env=env,
                            capture_output=True, text=True)
    assert "network access is blocked" in sanity.stderr  # the guard works
    (tmp_path / "guard.log").unlink()
    for args in (["project"], ["project", "--output-format", "full", "--no-cache"], ["project", "--fix", "--unsafe-fixes"], ["project/examples", "--jobs", "2"]):
        result = errlint(*args, cwd=tmp_path, env=env)
        assert result.returncode == 1 and "Traceback" not in result.stderr, (args, result.stderr)
        if args[0] == "project" and "--fix" not in args:
            assert "evil.py" in result.stdout and "mcp_server.py" in result.stdout  # both were checked
    log = tmp_path / "guard.log"
    assert not log.exists(), log.read_text()
    assert not list(project.rglob("IMPORTED-*"))


def test_symlinks_out_of_the_tree_are_not_followed_unless_given(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text('raise RuntimeError("An unexpected error occurred.")\n')
    project = tmp_path / "project"
    project.mkdir()
    (project / "own.py").write_text('raise RuntimeError("An unexpected error occurred.")\n')
    os.symlink(outside / "secret.py", project / "linked.py")
    os.symlink(outside, project / "linked_dir")
    walked = errlint("--no-cache", "--isolated", "--output-format", "json", "project", cwd=tmp_path)
    names = {d["filename"] for d in json.loads(walked.stdout)}
    assert names == {os.path.join("project", "own.py")}, names
    explicit = errlint("--no-cache", "--isolated", "--output-format", "json", "project/linked.py", "project/linked_dir", cwd=tmp_path)
    names = {d["filename"] for d in json.loads(explicit.stdout)}
    assert names == {os.path.join("project", "linked.py"), os.path.join("project", "linked_dir", "secret.py")}, names


PACK_RULE = '[[rule]]\ncode = "XYZ901"\nname = "slow-pattern"\ntokens = [{pattern}]\nprofiles = ["exc"]\n'


def pack_project(tmp_path: Path, pattern: str, message: str) -> Path:
    (tmp_path / "pack.toml").write_text(PACK_RULE.format(pattern=json.dumps(pattern)))
    (tmp_path / "pyproject.toml").write_text('[tool.errlint]\npacks = ["pack.toml"]\n')
    (tmp_path / "big.py").write_text(f"def f(x):\n    if x:\n        raise ValueError({message!r})\n")
    return tmp_path


def test_a_slow_but_accepted_pattern_on_a_1mb_message_completes(tmp_path):
    """`x.*y.*z` backtracks in quadratic time; only the first packs.MAX_MATCH_CHARS characters of a
    message are matched, so a 1 MB message still finishes (a timeout, not a duration, is asserted)."""
    pack_project(tmp_path, "x.*y.*z", "xy" * 500_000)
    result = errlint("--no-cache", "--select", "XYZ901,AEM401", "big.py", cwd=tmp_path, timeout=240)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "AEM401" in result.stdout


def test_nested_repeats_in_a_user_pack_stop_the_run(tmp_path):
    pack_project(tmp_path, "(a+)+b", "a")
    result = errlint("--no-cache", "big.py", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "pack.toml" in result.stderr and "nests an unbounded repeat" in result.stderr


def test_exponential_alternation_is_refused():
    from errlint.packs import PackError, check_regex

    with pytest.raises(PackError, match="repeats an alternation"):
        check_regex("(a|a)*b", "pack x")
    with pytest.raises(PackError, match="three or more unbounded repeats"):
        check_regex(r"\s*\s*\s*x", "pack x")
    assert check_regex(r"(?:retry|wait)\s+\d+\s*s", "pack x")


SECRETS = textwrap.dedent(f'''
    import logging
    import sys

    log = logging.getLogger(__name__)


    def connect(api_key):
        if not api_key.startswith("sk-"):
            raise ValueError(f"invalid api key {{api_key}}")
        raise RuntimeError("login failed with {KEY}")


    def other():
        log.error("AWS key {KEY} was rejected")
        sys.exit("AWS key {KEY} was rejected by the server")
''')


def test_secrets_are_masked_in_every_format_and_in_the_cache(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.errlint]\n")
    (tmp_path / "app.py").write_text(SECRETS)
    outputs = {}
    for fmt in FORMATS:
        result = errlint("--output-format", fmt, "app.py", cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        outputs[fmt] = result.stdout + result.stderr
        errlint("--output-format", fmt, "-o", tmp_path / f"out.{fmt}", "app.py", cwd=tmp_path)
        outputs[f"{fmt} -o"] = (tmp_path / f"out.{fmt}").read_text("utf-8")
    for fmt, text in outputs.items():
        assert KEY not in text and KEY[4:] not in text, fmt
    assert "AKIA…" in outputs["concise"]
    assert "`api_key`" in outputs["concise"]  # the placeholder is named, never a value
    cache = [p for p in (tmp_path / ".errlint_cache").rglob("*") if p.is_file()]
    assert cache
    for path in cache:
        assert KEY[4:] not in path.read_text("utf-8", errors="replace"), path


def test_full_format_source_excerpt_masks_secrets(tmp_path):
    (tmp_path / "app.py").write_text(SECRETS)
    result = errlint("--no-cache", "--isolated", "--output-format", "full", "app.py", cwd=tmp_path)
    assert KEY not in result.stdout
