"""Adoption tools: --add-noqa, AEM002 unused-noqa, the cache, and --jobs determinism."""
from __future__ import annotations

import json

from click.testing import CliRunner

from conftest import lint

from errlint.cli import main

BAD = 'raise RuntimeError("An unexpected error occurred.")\n'


def run(args, **kw):
    return CliRunner().invoke(main, args, catch_exceptions=False, **kw)


def test_add_noqa_is_idempotent_and_keeps_existing_codes(tmp_project):
    path = tmp_project / "a.py"
    path.write_text(BAD + 'x = """\nAn error occurred"""\nraise ValueError(x)  # noqa: E501\nraise RuntimeError("Something went wrong")  # noqa: E999\n')
    first = run(["--add-noqa", "a.py"])
    assert first.output.strip() == "a.py: added 3 noqa directives\nAdded 3 noqa directives to 1 file."
    text = path.read_text()
    assert 'raise RuntimeError("An unexpected error occurred.")  # noqa: AEM101\n' in text
    # the message comes from `x`, the finding sits at its sink: the raise, never inside the string
    assert 'An error occurred"""\nraise ValueError(x)  # noqa: E501, AEM101\n' in text
    assert '# noqa: E999, AEM101' in text
    assert run(["--add-noqa", "a.py"]).output.strip() == "Added 0 noqa directives."
    assert run(["a.py"]).exit_code == 0


def test_unused_noqa_reports_and_fixes():
    found = [d for d in lint('x = 1  # noqa: AEM101\n' + BAD.rstrip("\n") + "  # noqa: AEM101, AEM301, E501\n", extend_select=["AEM002"]) if d.code == "AEM002"]
    assert [(d.location.row, d.message) for d in found] == [
        (1, "unused noqa code AEM101: nothing on this line is reported"),
        (2, "unused noqa code AEM301: nothing on this line is reported"),
    ]
    assert found[1].fix.edits[0].content == " AEM101, E501"


def test_unused_noqa_reports_an_unknown_code_as_unknown():
    """A typo'd code (`AEM999`, `AEM10x`) names no rule: AEM002 says so instead of accepting it."""
    found = [d for d in lint(BAD.rstrip("\n") + "  # noqa: AEM101, AEM999, AEM7\n", extend_select=["AEM002"]) if d.code == "AEM002"]
    assert [(d.location.row, d.message) for d in found] == [
        (1, "unused noqa codes AEM7, AEM999: nothing on this line is reported (unknown: AEM7, AEM999 names no rule; "
            "`errlint rule --all` lists them)"),
    ]
    assert found[0].fix.edits[0].content == " AEM101"
    # a prefix that names rules (AEM1) and a code of a phrase pack are known
    assert not [d for d in lint(BAD.rstrip("\n") + "  # noqa: AEM1, AEM102\n", extend_select=["AEM002"]) if d.code == "AEM002" and "unknown" in d.message]


def test_unused_noqa_fix_round_trip(tmp_project):
    path = tmp_project / "a.py"
    path.write_text("x = 1  # noqa: AEM101\ny = 2  # noqa\n")
    run(["--extend-select", "AEM002", "--fix", "a.py"])
    assert path.read_text() == "x = 1\ny = 2  # noqa\n"


def test_cache_is_tagged_and_reused(tmp_project):
    (tmp_project / "a.py").write_text(BAD)
    cold = run(["a.py", "--output-format", "json"])
    cache = tmp_project / ".errlint_cache"
    assert (cache / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert (cache / ".gitignore").read_text() == "*\n"
    entries = sorted(p.name.split(".", 1)[1] for p in cache.rglob("*.json"))
    assert entries == ["final.json", "json"]  # the per-file entries, and the run's judged findings
    warm = run(["a.py", "--output-format", "json"])
    assert json.loads(warm.output) == json.loads(cold.output)


def test_cache_notices_content_changes_and_settings(tmp_project):
    path = tmp_project / "a.py"
    path.write_text(BAD)
    assert run(["a.py"]).exit_code == 1
    path.write_text('raise ValueError("size must be one of s, m, l; pass --size s")\n')
    assert run(["a.py"]).exit_code == 0
    path.write_text(BAD)
    assert run(["a.py", "--ignore", "AEM101"]).exit_code == 0
    assert run(["a.py"]).exit_code == 1


def test_cache_dir_env_and_clean(tmp_project, monkeypatch):
    (tmp_project / "a.py").write_text(BAD)
    monkeypatch.setenv("ERRLINT_CACHE_DIR", str(tmp_project / "elsewhere"))
    run(["a.py"])
    assert (tmp_project / "elsewhere" / "CACHEDIR.TAG").exists()
    assert not (tmp_project / ".errlint_cache").exists()
    out = run(["clean"])
    assert "Removed" in out.output and not (tmp_project / "elsewhere").exists()


def test_no_cache_writes_nothing(tmp_project):
    (tmp_project / "a.py").write_text(BAD)
    run(["a.py", "--no-cache"])
    assert not (tmp_project / ".errlint_cache").exists()


def test_jobs_do_not_change_results(tmp_project):
    for i in range(40):
        (tmp_project / f"m{i:02}.py").write_text(("# padding line to make the file bigger\n" * 300) + BAD.replace("occurred", f"occurred {i}" if i % 2 else "occurred"))
    one = run([".", "--no-cache", "--jobs", "1", "--output-format", "json"]).output
    two = run([".", "--no-cache", "--jobs", "2", "--output-format", "json"]).output
    assert one == two and len(json.loads(one)) == 20
