"""Bad input never crashes errlint: each unreadable, undecodable or unparsable file is one AEM001 at
Python's position and the run goes on; a bug in one rule is one AEM000 naming it (exit 2); `--fix`
leaves every file old or new even when killed, and reports files it may not write.

The corpus is tests/robustness/: `cases/<name>.txt` hold exact bytes (stored with a `.txt` suffix so
no tool scanning the repository parses them), `expected.json` the expected (code, row, column) of
each file; the big and the file-system cases are generated here in a temp dir.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from errlint.api import run_context
from errlint.cli import main
from errlint.engine import check_file

CORPUS = Path(__file__).parent / "robustness"
EXPECTED = json.loads((CORPUS / "expected.json").read_text("utf-8"))
EXIT = b'import sys\nprint("error: bad input")\nsys.exit(1)\n'
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def cli(*args, cwd=None, timeout=300, env=None):
    """`python -m errlint ARGS` in a subprocess (a crash or a hang cannot take pytest with it)."""
    return subprocess.run([sys.executable, "-m", "errlint", *map(str, args)], capture_output=True, cwd=cwd,
                          timeout=timeout, env=env)


def invoke(args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def checked_in_cases(directory: Path) -> None:
    for case in sorted((CORPUS / "cases").glob("*.txt")):
        (directory / case.name[: -len(".txt")]).write_bytes(case.read_bytes())


def generated_cases(directory: Path) -> None:
    """The inputs too big, too odd or too file-system specific to check in."""
    (directory / "nul_byte.py").write_bytes(b"x = 1\nyy = 2\x00\n")
    with open(directory / "big_20mb.py", "wb") as fh:  # 20 MB of valid code
        line = b'def f(x):\n    raise ValueError(f"x must be positive, got {x!r}")\n'
        fh.write(line * (20_000_000 // len(line) + 1))
    pieces = " ".join(f'"Step {i} failed. "' for i in range(1000))  # AEM401: about 5,000 tokens
    (directory / "pieces_1000.py").write_text(f"raise ValueError({pieces})\n")
    plus = " + ".join(f'"Step {i} failed. "' for i in range(1000))
    (directory / "plus_1000.py").write_text(f"raise ValueError({plus})\n")
    (directory / "parens_500.py").write_text("x = " + "(" * 500 + "1" + ")" * 500 + "\n")
    os.symlink("does-not-exist.py", directory / "broken_link.py")
    os.symlink("loop_b.py", directory / "loop_a.py")
    os.symlink("loop_a.py", directory / "loop_b.py")
    (directory / os.fsdecode(b"\xff\xfename.py")).write_bytes(EXIT)
    (directory / "package.py").mkdir()
    (directory / "package.py" / "module.py").write_bytes(EXIT)
    os.mkfifo(directory / "fifo.py")  # skipped by the walk: reading it would block


# Errors CPython 3.9 places elsewhere than 3.10+ (`except E, e:` is "invalid syntax" at the colon, the
# octal literal's error is after it, a duplicate argument is at the `def`, an unclosed `(` is found
# at the next line): errlint reports the running Python's place.
CPYTHON_POSITIONED = ("python2_except.py", "python2_octal.py", "duplicate_argument.py", "cr_only_syntax_error.py")


def python_position(path: Path):
    try:
        compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    except SyntaxError as exc:
        return [exc.lineno, exc.offset]
    raise AssertionError(f"{path.name} compiles on this Python")


def found(stdout: bytes, root: Path):
    out = {}
    for d in json.loads(stdout):
        name = os.path.relpath(d["filename"], root) if os.path.isabs(d["filename"]) else d["filename"]
        out.setdefault(name.replace(os.sep, "/"), []).append([d["code"], d["location"]["row"], d["location"]["column"]])
    return out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX symlinks, FIFOs and bytes file names")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_corpus(tmp_path, jobs):
    root = tmp_path / "corpus"
    root.mkdir()
    checked_in_cases(root)
    generated_cases(root)
    expected = {**EXPECTED["checked_in"], **EXPECTED["generated"]}
    for name in CPYTHON_POSITIONED:  # AEM001 sits where the running Python puts its syntax error
        assert expected[name][0][0] == "AEM001", name
        here = python_position(root / name)
        if sys.version_info >= (3, 10):
            assert [expected[name][0][1], expected[name][0][2]] == here, name  # expected.json is 3.10+'s
        expected[name] = [["AEM001", *here]]
    # --jobs 2 sends the files through the process pool (the 20 MB file makes the run big enough)
    result = cli("--no-cache", "--isolated", "--select", "AEM606,AEM401", "--output-format", "json", "--jobs", jobs, ".", cwd=root)
    assert b"Traceback" not in result.stderr, result.stderr.decode(errors="replace")
    assert result.returncode == 1, result.stderr.decode(errors="replace")
    got = found(result.stdout, root)
    for name, want in expected.items():
        assert sorted(got.get(name, [])) == sorted(want), name
    assert set(got) <= set(expected), set(got) - set(expected)


def test_every_case_agrees_with_compile():
    """AEM001 exactly when the running Python's compile() rejects the file (CPython decides)."""
    run = run_context(select=["AEM606"])
    for case in sorted((CORPUS / "cases").glob("*.txt")):
        data = case.read_bytes()
        try:
            compile(data, case.name, "exec", dont_inherit=True)
            rejected = False
        except (SyntaxError, ValueError):
            rejected = True
        codes = [d.code for d in check_file(case.name, data, run).diagnostics]
        assert ("AEM001" in codes) == rejected, case.name
        assert codes.count("AEM001") <= 1


def test_nul_byte_and_deep_nesting_in_process():
    run = run_context()
    for data in (b"x = 1\nyy = 2\x00\n", ("x = " + "-" * 100_000 + "1\n").encode(), ("x = a" + "[0]" * 5000 + "\n").encode(),
                 ("raise ValueError(" + "(" * 5000 + '"x"' + ")" * 5000 + ")\n").encode()):
        result = check_file("deep.py", data, run)
        try:  # Python 3.13 compiles 5,000 nested subscripts that 3.9-3.12 reject: CPython decides
            compile(data, "deep.py", "exec", dont_inherit=True)
            rejected = False
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            rejected = True
        assert [d.code for d in result.diagnostics] == (["AEM001"] if rejected else []), data[:20]


@pytest.mark.skipif(IS_ROOT or not hasattr(os, "geteuid"), reason="root reads a mode-000 file; see the simulated test below")
def test_unreadable_file(tmp_path):
    (tmp_path / "secret.py").write_bytes(EXIT)
    (tmp_path / "secret.py").chmod(0)
    (tmp_path / "fine.py").write_bytes(EXIT)
    try:
        result = cli("--no-cache", "--isolated", ".", cwd=tmp_path)
    finally:
        (tmp_path / "secret.py").chmod(0o644)
    out = result.stdout.decode()
    assert result.returncode == 1 and b"Traceback" not in result.stderr
    assert "secret.py:1:1: AEM001 the file cannot be read (Permission denied)" in out
    assert "fine.py:2:1: AEM606" in out


def test_unreadable_file_simulated(tmp_path, monkeypatch):
    """The same as root: the read itself fails with EACCES."""
    import builtins

    import errlint.runner

    def deny(file, *args, **kwargs):
        if str(file).endswith("secret.py"):
            raise PermissionError(13, "Permission denied", str(file))
        return builtins.open(file, *args, **kwargs)

    monkeypatch.setattr(errlint.runner, "open", deny, raising=False)
    (tmp_path / "secret.py").write_bytes(EXIT)
    (tmp_path / "fine.py").write_bytes(EXIT)
    result = invoke(["--no-cache", "--isolated", tmp_path])
    assert result.exit_code == 1
    assert f"{tmp_path / 'secret.py'}:1:1: AEM001 the file cannot be read (Permission denied)" in result.output
    assert f"{tmp_path / 'fine.py'}:2:1: AEM606" in result.output


def test_missing_path_exits_2_and_names_it(tmp_path):
    (tmp_path / "fine.py").write_bytes(EXIT)
    result = cli("--no-cache", "--isolated", "fine.py", "nope/missing.py", cwd=tmp_path)
    assert result.returncode == 2 and b"Traceback" not in result.stderr
    assert b"nope/missing.py" in result.stderr and b"does not exist" in result.stderr


def test_explicit_broken_and_looping_links(tmp_path):
    os.symlink("gone.py", tmp_path / "broken.py")
    os.symlink("loop2.py", tmp_path / "loop1.py")
    os.symlink("loop1.py", tmp_path / "loop2.py")
    result = cli("--no-cache", "--isolated", "--force-exclude", "broken.py", "loop1.py", cwd=tmp_path)
    out = result.stdout.decode()
    assert result.returncode == 1 and b"Traceback" not in result.stderr
    assert "broken.py:1:1: AEM001 the file is a broken symbolic link" in out
    assert "loop1.py:1:1: AEM001 the file is a symbolic link that loops" in out


# ---------------------------------------------------------------------- internal errors


BAD = 'raise RuntimeError("An unexpected error occurred.")\n'


def test_a_crashing_rule_is_reported_and_the_rest_still_runs(tmp_path, monkeypatch):
    from errlint.checks.vague import GenericFailureMessage

    def boom(self, message, ctx):
        raise ZeroDivisionError("rule bug")
        yield  # a generator, like the real check

    monkeypatch.setattr(GenericFailureMessage, "check", boom)
    (tmp_path / "one.py").write_text(BAD)
    (tmp_path / "two.py").write_bytes(EXIT)
    result = CliRunner().invoke(main, ["--no-cache", "--isolated", "--jobs", "1", str(tmp_path)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    line = next(text for text in result.output.splitlines() if "AEM000" in text)
    assert line.startswith(str(tmp_path / "one.py") + ":1:1: AEM000 internal error in rule AEM101 (generic-failure-message)")
    assert "ZeroDivisionError: rule bug" in line
    assert "AEM201" in result.output  # the other rules still ran on one.py
    assert f"{tmp_path / 'two.py'}:2:1: AEM606" in result.output  # and the other files
    payload = json.loads(CliRunner().invoke(main, ["--no-cache", "--isolated", "--output-format", "json", str(tmp_path)]).output)
    crash = next(d for d in payload if d["code"] == "AEM000")
    assert "report it" in crash["suggestion"] and "--ignore AEM101" in crash["suggestion"]


def test_a_crash_outside_the_rules_is_contained(tmp_path, monkeypatch):
    import errlint.engine

    real = errlint.engine.extract

    def extract(module, *args, **kwargs):
        if "BOOM" in module.code:
            raise KeyError("extraction bug")
        return real(module, *args, **kwargs)

    monkeypatch.setattr(errlint.engine, "extract", extract)
    (tmp_path / "one.py").write_text('raise RuntimeError("BOOM")\n')
    (tmp_path / "two.py").write_bytes(EXIT)
    result = CliRunner().invoke(main, ["--no-cache", "--isolated", str(tmp_path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{tmp_path / 'one.py'}:1:1: AEM000 internal error while checking this file: KeyError" in result.output
    assert f"{tmp_path / 'two.py'}:2:1: AEM606" in result.output


def test_a_libcst_panic_is_contained(monkeypatch):
    """pyo3's PanicException derives from BaseException, not Exception."""
    import errlint.engine

    class PanicException(BaseException):
        pass

    def panic(*args, **kwargs):
        raise PanicException("called `Option::unwrap()` on a `None` value")

    monkeypatch.setattr(errlint.engine.cst, "parse_module", panic)
    result = check_file("x.py", b'raise ValueError("bad")\n', run_context())
    [d] = result.diagnostics
    assert d.code == "AEM001" and "libcst cannot parse this file although Python can" in d.message


def pooled_files(monkeypatch, root: Path, names) -> list:
    """Files holding EXIT (one AEM606 each), with the runner set to use its process pool even for
    this few."""
    import errlint.runner

    monkeypatch.setattr(errlint.runner, "PARALLEL_MIN_FILES", 2)
    monkeypatch.setattr(errlint.runner, "PARALLEL_MIN_BYTES", 0)
    files = [root / name for name in names]
    for path in files:
        path.write_bytes(EXIT)
    return files


def test_a_worker_that_dies_marks_only_its_file(tmp_path, monkeypatch):
    """A hard crash in a pool worker (a native abort) becomes AEM000 on that file only."""
    import errlint.runner

    real = errlint.runner.check_file

    def fragile(path, data, run, display=None):
        if path.endswith("crash.py"):
            os._exit(70)  # what a segfault in a native parser looks like from the pool
        return real(path, data, run, display)

    monkeypatch.setattr(errlint.runner, "check_file", fragile)
    files = pooled_files(monkeypatch, tmp_path, [f"m{i}.py" for i in range(6)] + ["crash.py"])
    results = errlint.runner.check_files(files, run_context(select=["AEM606"]), jobs=2)
    codes = {Path(r.path).name: [d.code for d in r.diagnostics] for r in results}
    assert codes.pop("crash.py") == ["AEM000"]
    assert all(c == ["AEM606"] for c in codes.values()) and len(codes) == 6


# ---------------------------------------------------------------------- fixes under faults


def fixable_tree(root: Path, count: int = 40) -> None:
    root.mkdir()
    for i in range(count):
        body = "".join(f'    if x == {j}:\n        print("error: bad value {j} in file {i}")\n        sys.exit(1)\n' for j in range(4))
        (root / f"m{i:03}.py").write_text(f"import sys\n\n\ndef main(x):\n{body}")


def snapshot(root: Path):
    return {p.name: p.read_bytes() for p in root.iterdir() if p.is_file()}


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX only")
def test_sigkill_during_fix_leaves_every_file_old_or_new(tmp_path):
    """Kill `errlint --fix` at random moments: each file is byte-identical to its original or to its
    fully fixed version. A kill may leave `.errlint-*.tmp` files (documented in write_atomic): they
    are never a target, never checked, and the next run finishes the job."""
    original_dir, fixed_dir, work = tmp_path / "original", tmp_path / "fixed", tmp_path / "work"
    fixable_tree(original_dir)
    shutil.copytree(original_dir, fixed_dir)
    started = time.monotonic()
    done = cli("--fix", "--select", "AEM606", "--isolated", "--no-cache", ".", cwd=fixed_dir)
    duration = time.monotonic() - started
    assert done.returncode == 1 and done.stderr == b"", done.stderr  # 1: files were rewritten
    original, fixed = snapshot(original_dir), snapshot(fixed_dir)
    assert all(original[n] != fixed[n] for n in original) and set(fixed) == set(original)
    stamps = sorted((fixed_dir / n).stat().st_mtime_ns for n in fixed)
    write_span = max((stamps[-1] - stamps[0]) / 1e9, 0.01)  # how long the writes took
    rng = random.Random(20260530)
    partial = 0
    for attempt in range(6):
        if work.exists():
            shutil.rmtree(work)
        shutil.copytree(original_dir, work)
        first = work / min(original)  # files are written in path order
        inode = first.stat().st_ino
        proc = subprocess.Popen([sys.executable, "-m", "errlint", "--fix", "--select", "AEM606", "--isolated", ".", "--cache-dir", str(tmp_path / "cache")],
                                cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        if attempt % 2:  # any moment of the run
            time.sleep(rng.uniform(0.2, 1.05) * duration)
        else:  # a moment while files are being written: os.replace gives the first file a new inode
            deadline = time.monotonic() + 10 * duration
            while proc.poll() is None and first.stat().st_ino == inode and time.monotonic() < deadline:
                time.sleep(0.0005)
            time.sleep(rng.uniform(0, 0.9) * write_span)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        now = snapshot(work)
        targets = {n for n in now if n.endswith(".py")}
        assert targets == set(original), f"attempt {attempt}: files appeared or vanished: {targets ^ set(original)}"
        leftovers = [n for n in now if n not in original]
        assert all(n.startswith(".errlint-") and n.endswith(".tmp") for n in leftovers), leftovers
        for name in original:
            assert now[name] in (original[name], fixed[name]), f"attempt {attempt}: {name} is neither old nor new"
        changed = sum(now[n] == fixed[n] for n in original)
        partial += 0 < changed < len(original)
        rerun = cli("--fix", "--select", "AEM606", "--isolated", "--no-cache", ".", cwd=work)  # a later run completes the fix
        assert rerun.returncode in (0, 1) and rerun.stderr == b"", rerun.stderr
        assert {n: snapshot(work)[n] for n in original} == fixed
    assert partial >= 1, "no kill landed while files were being written; the test proved nothing"
    print(f"{partial} of 6 kills landed mid-write; write span {write_span:.3f}s of {duration:.2f}s")


def test_read_only_file_is_reported_not_written(tmp_path):
    """A file without write permission bits is refused even for root, who could replace it."""
    (tmp_path / "locked.py").write_bytes(EXIT)
    (tmp_path / "open.py").write_bytes(EXIT)
    (tmp_path / "locked.py").chmod(0o444)
    try:
        result = cli("--fix", "--no-cache", "--isolated", ".", cwd=tmp_path)
        assert result.returncode == 2 and b"Traceback" not in result.stderr
        assert b"locked.py: cannot write the fixed file (the file is read-only)" in result.stderr
        assert (tmp_path / "locked.py").read_bytes() == EXIT
        assert b"file=sys.stderr" in (tmp_path / "open.py").read_bytes()
        assert not list(tmp_path.glob(".errlint-*"))
    finally:
        (tmp_path / "locked.py").chmod(0o644)


@pytest.mark.skipif(IS_ROOT or not hasattr(os, "geteuid"), reason="root can write into a mode-555 directory")
def test_read_only_directory_is_reported(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "a.py").write_bytes(EXIT)
    folder.chmod(0o555)
    try:
        result = cli("--fix", "--no-cache", "--isolated", "ro", cwd=tmp_path)
        assert result.returncode == 2 and b"Traceback" not in result.stderr
        assert b"a.py: cannot write the fixed file (Permission denied)" in result.stderr
        assert (folder / "a.py").read_bytes() == EXIT
    finally:
        folder.chmod(0o755)


def test_fix_writes_through_a_symlink_once(tmp_path):
    (tmp_path / "real.py").write_bytes(EXIT)
    os.symlink("real.py", tmp_path / "link.py")
    result = cli("--fix", "--no-cache", "--isolated", ".", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr == b"", result.stderr
    assert os.path.islink(tmp_path / "link.py")
    assert (tmp_path / "real.py").read_bytes().count(b"file=sys.stderr") == 1


def test_fix_keeps_mode(tmp_path):
    path = tmp_path / "tool.py"
    path.write_bytes(EXIT)
    path.chmod(0o751)
    assert cli("--fix", "--no-cache", "--isolated", "tool.py", cwd=tmp_path).returncode == 1
    assert stat.S_IMODE(path.stat().st_mode) == 0o751 and b"file=sys.stderr" in path.read_bytes()


def test_a_file_changed_during_the_run_is_not_overwritten(tmp_path):
    from errlint.runner import FixReport, write_fixes

    path = tmp_path / "edited.py"
    path.write_bytes(EXIT)
    report = FixReport(str(path), original=EXIT.decode(), fixed_text=EXIT.decode().replace('input")', 'input", file=sys.stderr)'))
    path.write_bytes(EXIT + b"# the user saved this meanwhile\n")
    errors = write_fixes([report], {str(path): "utf-8"})
    assert len(errors) == 1 and "changed while errlint was checking it" in errors[0]
    assert path.read_bytes().endswith(b"meanwhile\n")


def test_no_working_process_pool_falls_back_to_one_process(tmp_path, monkeypatch):
    """A sandbox without /dev/shm or semaphores cannot start a process pool: check in-process."""
    import concurrent.futures

    import errlint.runner

    def unavailable(*args, **kwargs):
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", unavailable)
    files = pooled_files(monkeypatch, tmp_path, [f"m{i}.py" for i in range(4)])
    results = errlint.runner.check_files(files, run_context(select=["AEM606"]), jobs=2)
    assert [[d.code for d in r.diagnostics] for r in results] == [["AEM606"]] * 4


def test_fix_keeps_bom_line_endings_form_feeds_and_encoding(tmp_path):
    """`--fix` on the corpus files that parse changes exactly the inserted text: the BOM, CRLF/CR
    line endings, form feeds, U+2028 and a latin-1 encoding survive byte for byte."""
    fixable = [name for name, want in EXPECTED["checked_in"].items() if [c for c, _, _ in want] == ["AEM606"]]
    for name in fixable:
        (tmp_path / name).write_bytes((CORPUS / "cases" / f"{name}.txt").read_bytes())
    result = cli("--fix", "--select", "AEM606", "--no-cache", "--isolated", ".", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr == b"", result.stderr
    for name in fixable:
        before = (CORPUS / "cases" / f"{name}.txt").read_bytes()
        after = (tmp_path / name).read_bytes()
        assert after != before and after.replace(b", file=sys.stderr", b"") == before, name
