"""The command line: `errlint [check] PATH...`, `errlint rule CODE`, `errlint clean`.

Exit status (ruff's contract): 0 when no diagnostics remain, 1 when some do, 2 for bad usage, bad
configuration or an internal error. `--exit-zero` turns 1 into 0, never 2.
"""
from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

import click

from . import __version__
from .config import ConfigError
from .families import whole_file_code
from .model import Diagnostic
from .output import FORMATS, render
from .output.statistics import STATISTICS_FORMATS
from .packs import PackError
from .runner import RunResult, Selection, check_paths
from .usage import fail, split_list as _split

OUTPUT_FORMATS = tuple(FORMATS)
COMMANDS = ("check", "rule", "clean", "probe")


class DefaultToCheck(click.Group):
    """`errlint PATH` means `errlint check PATH`, as with ruff's implicit `check`."""

    def parse_args(self, ctx: click.Context, args: List[str]) -> List[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["check", *args]
        elif not args:
            args = ["check"]
        return super().parse_args(ctx, args)


@click.group(cls=DefaultToCheck, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="errlint")
def main() -> None:
    """errlint: lint error messages for AI agents and people.

    Finds raised exceptions, MCP tool errors, CLI error output and logged errors, and flags vague prose,
    missing next steps, leaked secrets and credential paths, and oversized messages.

    `errlint PATH` is `errlint check PATH`; run `errlint check --help` for its options (--select,
    --output-format, --fix, ...).
    """


@main.command()
@click.argument("paths", nargs=-1, type=str)
@click.option("--select", multiple=True, help="Rules to enable: codes, prefixes, names or ALL (comma-separated). Replaces the config's `select`.")
@click.option("--extend-select", multiple=True, help="Rules to enable on top of `select`.")
@click.option("--ignore", multiple=True, help="Rules to disable.")
@click.option("--output-format", type=click.Choice(OUTPUT_FORMATS), envvar="ERRLINT_OUTPUT_FORMAT", default="concise", show_default=True)
@click.option("-o", "--output-file", type=click.Path(dir_okay=False), help="Write the diagnostics to this file instead of stdout.")
@click.option("--statistics", is_flag=True, help="Show counts per rule instead of each diagnostic (a table, or JSON with --output-format json).")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when diagnostics remain (errors still exit 2).")
@click.option("--stdin-filename", type=str, help="The name to report (and match config against) when checking `-` (stdin).")
@click.option("--color/--no-color", default=None, help="Colour the output (default: on a terminal, unless NO_COLOR is set).")
@click.option("--exclude", multiple=True, help="Replace the exclude patterns.")
@click.option("--extend-exclude", multiple=True, help="Add exclude patterns.")
@click.option("--force-exclude/--no-force-exclude", default=False, help="Apply excludes to files passed explicitly too (for pre-commit).")
@click.option("--respect-gitignore/--no-respect-gitignore", default=None, help="Skip files ignored by .gitignore (default: on).")
@click.option("--preview/--no-preview", default=None, envvar="ERRLINT_PREVIEW",
              help="Also run the rules that have not yet earned their place on real code (see `errlint rule CODE`).")
@click.option("--config", "config_path", type=str, metavar="PATH", help="Use this pyproject.toml or errlint.toml.")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
@click.option("--show-settings", is_flag=True, help="Print the resolved settings and which rules are on and why, then exit.")
@click.option("--show-files", is_flag=True, help="Print the files that would be checked, then exit.")
@click.option("--ignore-noqa", is_flag=True, help="Report diagnostics even on lines with `# noqa`.")
@click.option("--add-noqa", is_flag=True, help="Add `# noqa: CODES` to every line with a finding (keeps existing codes), then exit.")
@click.option("--fix/--no-fix", default=False, help="Apply safe fixes (exit 1 when files changed or findings remain).")
@click.option("--unsafe-fixes/--no-unsafe-fixes", default=False, help="Also apply unsafe fixes (they change message text).")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff and write nothing (exit 1 if there are changes).")
@click.option("--fix-only", is_flag=True, help="Apply fixes and report nothing else (exit 0 unless --exit-non-zero-on-fix).")
@click.option("--show-fixes", is_flag=True, help="List the fixes applied.")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when a file was changed, even if no finding remains.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Worker processes (default: all CPUs; small runs use one).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--cache-dir", type=str, envvar="ERRLINT_CACHE_DIR", help="Cache directory (default: .errlint_cache in the project root).")
@click.option("-q", "--quiet", is_flag=True, help="Print diagnostics only, no summary.")
@click.option("--show-audience", metavar="FILE:LINE", help="Print the entry points found and the call chain that gives the message at FILE:LINE its audience, then exit.")
def check(paths: Tuple[str, ...], select, extend_select, ignore, output_format, output_file, statistics, exit_zero,
          stdin_filename, color, exclude, extend_exclude, force_exclude, respect_gitignore, preview, config_path, isolated,
          show_settings, show_files, ignore_noqa, add_noqa, fix, unsafe_fixes, diff, fix_only, show_fixes, exit_non_zero_on_fix,
          jobs, no_cache, cache_dir, quiet, show_audience) -> None:
    """Check PATHS (files or directories; default: the current directory). Use `-` for stdin."""
    from .project import load_project

    paths = paths or (".",)
    stdin = paths == ("-",)
    if "-" in paths and not stdin:
        fail("`-` (read the code from stdin) cannot be combined with other paths; run errlint once on stdin and once on the paths")
    overrides = {
        "exclude": tuple(_split(exclude)) or None,
        "extend_exclude": tuple(_split(extend_exclude)) or None,
        "respect_gitignore": respect_gitignore,
        "preview": preview,
    }
    selection = Selection(_split(select) or None, _split(extend_select), _split(ignore))
    if statistics and output_format not in STATISTICS_FORMATS:
        fail(f"--statistics prints a table or JSON, not {output_format!r}; pass --output-format concise, full or json with --statistics")
    if add_noqa and diff:
        fail("--add-noqa writes files and --diff writes nothing; run `errlint --diff` first, then `errlint --add-noqa` (or `--fix --add-noqa`)")
    fixing = fix or fix_only or diff
    if cache_dir and not no_cache and Path(cache_dir).exists() and not Path(cache_dir).is_dir():
        fail(f"--cache-dir {cache_dir!r} is a file, not a directory; pass a directory (errlint creates it) or --no-cache")
    try:
        project = load_project([stdin_filename] if stdin and stdin_filename else list(paths), config_path, isolated, overrides,
                               tolerant=show_settings)
        settings = project.settings
        if show_settings:
            from .show_settings import show_settings as print_settings

            print_settings(project, selection, cache_dir=cache_dir, no_cache=no_cache)
            if project.config_errors:
                sys.exit(2)
            return
        if stdin and force_exclude and stdin_filename and _excluded(settings, stdin_filename):
            if fixing or add_noqa:
                _write_source(sys.stdin.buffer.read())  # an editor piping the file through: it comes back as it was
            return  # `--force-exclude`: an excluded file is not checked, whether named or piped in
        if stdin:
            result, data = _check_stdin(settings, selection, stdin_filename, ignore_noqa)
        else:
            result = check_paths(paths, settings, selection, force_exclude=force_exclude, ignore_noqa=ignore_noqa,
                                 jobs=jobs, use_cache=not no_cache and not show_files and not show_audience, cache_dir=cache_dir,
                                 keep_text=fixing or add_noqa or output_format == "full", locate_all=bool(show_audience),
                                 progress=None if quiet or show_files or show_audience else _progress(), owns_process=True)
    except (ConfigError, PackError) as exc:
        fail(str(exc))
    if result.discovery.missing:
        fail(f"path {result.discovery.missing[0]!r} does not exist; pass existing files or directories (see `errlint check --help`)")
    if show_files:
        for file in result.discovery.files:
            click.echo(str(file))
        return
    if show_audience:
        from .show_audience import TargetError, describe

        try:
            click.echo("\n".join(describe(result, show_audience)))
        except TargetError as exc:
            fail(str(exc))
        return
    if not result.discovery.files and not quiet and not stdin:
        found = result.discovery
        note = "errlint: no Python files to check under the given paths"
        if found.gitignored:
            note += f"; {found.gitignored} ignored by .gitignore (pass --no-respect-gitignore to include them)"
        if found.excluded:
            note += f"; {found.excluded} excluded by the exclude settings (see `errlint --show-settings`)"
        if not found.gitignored and not found.excluded:
            note += "; pass .py/.pyi files or a directory that contains them"
        click.echo(note, err=True)
    fixed: List[Diagnostic] = []
    changed = 0
    # With stdin, stdout carries the source (fixed or annotated): every other line goes to stderr.
    source_out = stdin and (fix or fix_only or add_noqa)
    if fixing:
        from .runner import fix_result, write_fixes

        reports = [fix_result(r, result.run, unsafe_fixes) for r in result.results]
        fixed = [d for r in reports for d in r.fixed]
        changed = sum(1 for r in reports if r.fixed_text is not None)
        if diff:
            _emit(_diffs(reports), None)
            click.echo(_diff_summary(reports), err=True)
            sys.exit(1 if changed else 0)
        if not stdin:
            errors = write_fixes(reports, {r.path: r.encoding for r in result.results})
            for message in errors:
                click.echo(f"errlint: {message}", err=True)
            if errors:
                sys.exit(2)
        for r, report in zip(result.results, reports):
            r.diagnostics = report.remaining
            if report.fixed_text is not None:
                r.text = report.fixed_text
        if show_fixes and fixed:
            click.echo(_fixed_list(fixed), err=source_out)
    if add_noqa:
        if fixing and not quiet:
            click.echo(f"Fixed {len(fixed)} error{'s' if len(fixed) != 1 else ''} in {changed} file{'s' if changed != 1 else ''}.", err=stdin)
        if stdin and changed:
            data = result.results[0].text.encode(_codec(result.results[0].encoding))
        _add_noqa(result, data if stdin else None)
        if not (result.results and result.results[0].internal_error):
            return
        sys.exit(2)
    if stdin and fixing:
        r = result.results[0]
        _write_source(data if r.text is None or not changed else r.text.encode(_codec(r.encoding)))
    if fix_only:
        if not quiet:
            click.echo(f"Fixed {len(fixed)} error{'s' if len(fixed) != 1 else ''} in {changed} file{'s' if changed != 1 else ''}.", err=source_out)
        internal = any(r.internal_error for r in result.results)
        sys.exit(2 if internal else 1 if exit_non_zero_on_fix and changed else 0)
    diagnostics = sorted(result.diagnostics, key=Diagnostic.sort_key)
    use_color = _use_color(color, output_file, source_out)
    if statistics:
        from .output.statistics import render as render_statistics

        text = render_statistics(output_format, diagnostics, unsafe_fixes)
    else:
        sources = {r.path: r.text if r.text is not None else _read(r.path) for r in result.results} if output_format == "full" else {}
        from .engine import display_name

        text = render(output_format, diagnostics, color=use_color, sources=sources, files=[display_name(r.path) for r in result.results])
    _emit(text, output_file, err=source_out)
    machine = output_format not in ("concise", "full")
    if not quiet and not machine:
        summary = _summary(diagnostics, len(result.results), len(fixed) if fixing else None, unsafe_fixes)
        if summary:
            click.echo(summary, err=source_out)
    internal = any(r.internal_error for r in result.results)
    if internal:
        sys.exit(2)
    if diagnostics and not exit_zero:
        sys.exit(1)
    if fixing and changed and (fix or exit_non_zero_on_fix) and not exit_zero:
        sys.exit(1)  # files were rewritten: pre-commit and CI must see that something changed


def _excluded(settings, name: str) -> bool:
    from .discovery import Excluder

    return Excluder(settings).excluded(Path(name)) is not None


def _check_stdin(settings, selection: Selection, stdin_filename: Optional[str], ignore_noqa: bool) -> Tuple[RunResult, bytes]:
    """Check the bytes piped in. `--stdin-filename` names them for reports and config matching;
    nothing is ever written to that file."""
    from .discovery import Discovery
    from .engine import check_file
    from .runner import build_run, registry_files

    data = sys.stdin.buffer.read()
    name = stdin_filename or "-"
    run, reasons = build_run(settings, selection, registry_files(settings, []), ignore_noqa)
    result = RunResult(discovery=Discovery(), settings=settings, reasons=reasons, run=run)
    checked = check_file(name, data, run)
    if checked.text is None and not checked.internal_error:
        from .source_decoding import _decode

        checked.text = _decode(data, checked.encoding)
    result.results.append(checked)
    return result, data


def _codec(encoding: str) -> str:
    from .runner import _codec as codec

    return codec(encoding)


def _write_source(data: bytes) -> None:
    sys.stdout.flush()
    out = sys.stdout.buffer  # the bytes as read: no newline or encoding translation
    out.write(data)
    out.flush()


def _progress():
    """A progress reporter for stderr at a terminal (None elsewhere); see `errlint.progress`."""
    from .progress import Progress

    return Progress.for_terminal()


def _add_noqa(result: RunResult, stdin_data: Optional[bytes] = None) -> None:
    """Add `# noqa: CODES` on every line with a finding; idempotent (found lines are suppressed).

    Files are rewritten in place; piped input (`-`) is printed on stdout instead (`stdin_data`
    when no line needs a comment), and the count goes to stderr."""
    from .engine import display_name
    from .fixes import write_atomic
    from .noqa import add_noqa

    total = 0
    touched: List[Tuple[str, int]] = []
    for r in result.results:
        rows = {}
        for d in r.diagnostics:
            if not whole_file_code(d.code):
                rows.setdefault(d.location.row, []).append(d.code)
        text = r.text if r.text is not None else _read(r.path)
        new, count = add_noqa(text, rows) if rows and text is not None else (text, 0)
        if stdin_data is not None:
            _write_source(new.encode(_codec(r.encoding)) if count else stdin_data)
        elif count and new != text:
            try:
                write_atomic(r.path, new, r.encoding)
            except OSError as exc:
                fail(f"cannot write {r.path!r} ({exc.strerror}); check its permissions")
        if count:
            total += count
            touched.append((display_name(r.path), count))
    for name, count in touched if stdin_data is None else ():
        click.echo(f"{name}: added {count} noqa directive{'s' if count != 1 else ''}")
    files = f" to {len(touched)} file{'s' if len(touched) != 1 else ''}" if stdin_data is None and touched else ""
    click.echo(f"Added {total} noqa directive{'s' if total != 1 else ''}{files}.", err=stdin_data is not None)


def _read(path: str) -> Optional[str]:
    """A file errlint could not parse, decoded for its source snippet as CPython would (its coding
    cookie), else as UTF-8 with replacement."""
    from .source_decoding import source_text

    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    try:
        return source_text(data)
    except Exception:  # an undecodable byte or a bad cookie: show what can be shown
        return data.decode("utf-8", errors="replace")


def _use_color(flag: Optional[bool], output_file: Optional[str], err: bool = False) -> bool:
    if flag is not None:
        return flag
    if output_file or os.environ.get("NO_COLOR"):
        return False
    return (sys.stderr if err else sys.stdout).isatty()


def _emit(text: str, output_file: Optional[str], err: bool = False) -> None:
    if output_file:
        path = Path(output_file)
        try:
            path.write_text(text, encoding="utf-8", errors="backslashreplace")
        except OSError as exc:
            fail(f"cannot write --output-file {output_file!r} ({exc.strerror}); pass a writable path")
    elif text:
        click.echo(text, nl=False, err=err)


def _summary(diagnostics: Sequence[Diagnostic], files: int, fixed: Optional[int] = None, unsafe: bool = False) -> str:
    """ruff's summary lines, each naming the next command."""
    plural = lambda n, word: f"{n} {word}{'s' if n != 1 else ''}"  # noqa: E731
    if not diagnostics:
        if fixed:
            return f"Found {plural(fixed, 'error')} ({fixed} fixed, 0 remaining)."
        if not files:
            return ""  # the "no Python files" note said it; "All checks passed!" would contradict it
        return f"All checks passed! ({plural(files, 'file')} checked)"
    n = len(diagnostics)
    counts = Counter(d.code for d in diagnostics)
    top = min(counts, key=lambda code: (-counts[code], code))  # the most frequent; the lowest code on a tie
    if fixed is not None:
        lines = [f"Found {plural(n + fixed, 'error')} ({fixed} fixed, {n} remaining)."]
    else:
        lines = [f"Found {plural(n, 'error')}."]
    if not whole_file_code(top):
        lead = f"{top} is the most frequent ({counts[top]}): run" if len(counts) > 1 else "Run"
        lines.append(f"{lead} `errlint rule {top}` to see why and how to fix it, or add `# noqa: {top}` to accept one.")
    safe = sum(1 for d in diagnostics if d.fix is not None and d.fix.applicability.value == "safe")
    more = sum(1 for d in diagnostics if d.fix is not None and d.fix.applicability.value == "unsafe")
    if unsafe:
        safe, more = safe + more, 0
    if safe:
        hidden = f" ({more} more with `--unsafe-fixes`)" if more else ""
        lines.append(f"[*] {safe} fixable with `--fix`{hidden}.")
    elif more:
        lines.append(f"No fixes available with `--fix` ({more} hidden {'fix' if more == 1 else 'fixes'} can be enabled with `--unsafe-fixes`).")
    return "\n".join(lines)


def _diff_summary(reports) -> str:
    """`--diff`'s last line (stderr): how many fixes in how many files, as ruff says it."""
    fixes = sum(len(r.fixed) for r in reports if r.fixed_text is not None)
    files = sum(1 for r in reports if r.fixed_text is not None)
    if not files:
        return "No errors would be fixed."
    return f"Would fix {fixes} error{'s' if fixes != 1 else ''} in {files} file{'s' if files != 1 else ''}."


def _diffs(reports) -> str:
    import difflib

    from .noqa import physical_lines

    out = []
    for report in reports:
        if report.fixed_text is None or report.original is None:
            continue
        out.extend(difflib.unified_diff(
            physical_lines(report.original), physical_lines(report.fixed_text),
            fromfile=f"a/{report.path}", tofile=f"b/{report.path}",
        ))
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in out)


def _fixed_list(fixed: Sequence[Diagnostic]) -> str:
    return "Fixed:\n" + "".join(f"  {d.filename}:{d.location.row}:{d.location.column}: {d.code} {d.fix.title}\n" for d in fixed if d.fix)


@main.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Show every rule.")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rule(code: Optional[str], show_all: bool, output_format: str) -> None:
    """Show a rule's documentation (by code or name), or every rule with --all."""
    from .docs import rule_json, rule_text
    from .registry import rule_catalog

    catalog = rule_catalog()
    if show_all:
        selected = list(catalog.values())
    elif code:
        selected = [r for c, r in catalog.items() if c == code.upper() or r.name == code.lower()]
        if not selected and code.upper() == "AEM000":
            click.echo("# internal-error (AEM000)\n\nNot a rule: errlint reports AEM000 when one of its rules failed on a file (the "
                       "other rules still ran) or when the flake8 plugin's settings are invalid. Please report it with the file at "
                       "https://github.com/errlint/errlint/issues; meanwhile exclude the file with --extend-exclude.")
            return
        if not selected:
            from .config import close_match

            hint = close_match(code.upper(), catalog) or close_match(code.lower(), [r.name for r in catalog.values()])
            listing = f" (`errlint rule --all` lists the {len(catalog)} rules)" if hint else f"; run `errlint rule --all` to list the {len(catalog)} rules"
            fail(f"no rule has the code or name {code!r}{hint}{listing}")
    else:
        fail("pass a rule code or name (e.g. `errlint rule AEM101`), or --all")
    if output_format == "json":
        import json

        payload = [rule_json(r) for r in selected]
        click.echo(json.dumps(payload if show_all else payload[0], indent=2))
    else:
        click.echo("\n\n".join(rule_text(r) for r in selected))


@main.command()
@click.argument("paths", nargs=-1, type=str)
@click.option("--cache-dir", type=str, envvar="ERRLINT_CACHE_DIR", help="The cache directory to remove.")
def clean(paths: Tuple[str, ...], cache_dir: Optional[str]) -> None:
    """Remove the cache `errlint check PATHS` uses (default: the current directory's project):
    `.errlint_cache` in the project root."""
    import shutil

    from .project import load_project

    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        fail(f"path {missing[0]!r} does not exist, so no cache was removed; pass the files or folders `errlint check` was run on")
    project = load_project(list(paths) or ["."], tolerant=True)  # a broken config does not move the cache
    target = project.cache_dir(cache_dir)
    if not target.exists():
        click.echo(f"No cache at {target}")
        return
    if not (target / "CACHEDIR.TAG").is_file() or "created by errlint" not in (target / "CACHEDIR.TAG").read_text(errors="replace"):
        # a folder errlint did not make (`--cache-dir src`) or a file: never removed
        fail(f"{str(target)!r} is not an errlint cache (it has no CACHEDIR.TAG written by errlint), so nothing was removed; "
             "pass the folder `errlint check --cache-dir` wrote to")
    shutil.rmtree(target, ignore_errors=True)
    if target.exists():
        fail(f"could not remove {str(target)!r} (a read-only folder or files in use); remove it by hand or check its permissions")
    click.echo(f"Removed {target}")


from .probe.command import probe  # noqa: E402  (registered last: it imports nothing heavy at load time)

main.add_command(probe)


if __name__ == "__main__":  # pragma: no cover
    main()
