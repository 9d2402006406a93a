"""The default set is earned on real code: errlint/measured.py decides which designed-default rules stay on."""
from __future__ import annotations

import os

import pytest

from errlint import earned
from errlint.docs import rule_text, rules_table
from errlint.measured import MEASURED
from errlint.registry import rule_catalog


def entry(status, findings=40, agreed=25, tp=20):
    return {"findings": findings, "judged": agreed, "agreed": agreed, "tp": tp, "precision": tp / agreed if agreed else None,
            "low": 0.6, "high": 0.9, "status": status}


@pytest.fixture
def measured(monkeypatch):
    table = {}
    monkeypatch.setattr(earned, "MEASURED", table)
    return table


def rule(code):
    return rule_catalog()[code]


@pytest.mark.parametrize("status,on", [("earned", True), ("unmeasured", True), ("below bar", False),
                                       ("under review", False)])
def test_a_designed_default_stays_on_only_when_earned_or_unmeasured(measured, status, on):
    measured["AEM201"] = entry(status)
    assert earned.on_by_default(rule("AEM201")) is on


def test_an_opt_in_rule_is_not_switched_on_by_a_good_measure(measured):
    measured["AEM104"] = entry("earned", tp=25)
    assert earned.on_by_default(rule("AEM104")) is False


def test_a_rule_below_the_bar_says_why_and_how_to_select_it(measured):
    measured["AEM201"] = entry("below bar", agreed=25, tp=14)
    text = rule_text(rule("AEM201"))
    assert "preview: off by default until it earns its place (run it with --preview or --extend-select AEM201)" in text
    assert "Agreed precision on real code 0.56 (14 of 25 judged findings" in text
    assert "in preview until it reaches 0.90 (run it with --preview)" in text


def test_the_rule_table_carries_the_measured_precision(measured):
    measured["AEM201"] = entry("below bar", agreed=25, tp=14)
    measured["AEM606"] = entry("unmeasured", findings=3, agreed=0, tp=0)
    table = rules_table([rule("AEM201"), rule("AEM606")])
    assert "| preview | 0.56 (14/25) |" in table
    assert "| on | unmeasured (3 found) |" in table


def test_the_default_selection_follows_the_measure(measured):
    from errlint.config import Settings
    from errlint.packs import bundled
    from errlint.registry import select_rules
    measured["AEM201"] = entry("below bar")
    enabled, reasons = select_rules(Settings(preview=False), bundled())
    codes = {r.code for r in enabled}
    assert "AEM201" not in codes and "AEM101" in codes
    # a designed rule below the bar is in preview, not opt-in (a new user read "opt-in" as "designed off")
    assert reasons["AEM201"] == "preview: off until it earns its place on real code (--preview)"
    assert reasons["AEM105"] == "off by default (opt-in)"
    enabled, _ = select_rules(Settings(preview=False), bundled(), cli_extend=["AEM201"])
    assert "AEM201" in {r.code for r in enabled}
    enabled, reasons = select_rules(Settings(preview=True), bundled())
    assert "AEM201" in {r.code for r in enabled}
    assert reasons["AEM201"] == "preview (not yet earned on real code)"
    assert "AEM104" not in {r.code for r in enabled}  # preview never turns on a designed opt-in rule


def _cli(args, cwd, env_preview=None):
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "ERRLINT_PREVIEW"}
    if env_preview is not None:
        env["ERRLINT_PREVIEW"] = env_preview
    return subprocess.run([sys.executable, "-m", "errlint", "check", "--no-cache", *args], cwd=cwd,
                          capture_output=True, text=True, env=env)


SNIPPET = "def f(n):\n    if n > 3:\n        raise ValueError('Something went wrong')\n"


def _preview_codes(tmp_path, *args, env_preview=None, config=""):
    (tmp_path / "m.py").write_text(SNIPPET)
    (tmp_path / "pyproject.toml").write_text("[tool.errlint]\n" + config)
    proc = _cli(["--output-format", "json", *args, "m.py"], tmp_path, env_preview)
    assert proc.returncode in (0, 1), proc.stderr
    import json
    return sorted({d["code"] for d in json.loads(proc.stdout)})


def test_preview_turns_on_the_designed_default_set_from_flag_config_and_environment(tmp_path):
    """Whatever the shipped measures say, --preview runs every designed-default rule; without it only
    the rules that earned their place (or are unmeasured) run."""
    designed = {c for c, r in rule_catalog().items() if r.DEFAULT}
    earned_now = {c for c, r in rule_catalog().items() if earned.on_by_default(r)}
    hit = {"AEM101", "AEM202", "AEM204"} & designed  # one verdict: AEM101 names the missing input and step
    assert set(_preview_codes(tmp_path, "--preview")) == hit
    assert set(_preview_codes(tmp_path, env_preview="1")) == hit
    assert set(_preview_codes(tmp_path, config="preview = true\n")) == hit
    assert set(_preview_codes(tmp_path, "--no-preview", config="preview = true\n")) == hit & earned_now
    assert set(_preview_codes(tmp_path)) == hit & earned_now


def test_a_preview_setting_that_is_not_a_boolean_is_a_config_error(tmp_path):
    (tmp_path / "m.py").write_text(SNIPPET)
    (tmp_path / "pyproject.toml").write_text("[tool.errlint]\npreview = \"yes\"\n")
    proc = _cli(["m.py"], tmp_path)
    assert proc.returncode == 2
    assert "preview" in proc.stderr and "use true or false" in proc.stderr


def test_shipped_measures_agree_with_the_bar():
    """Every rule marked earned in errlint/measured.py really has >= 0.90 agreed precision on enough findings."""
    for code, e in MEASURED.items():
        assert code in rule_catalog()
        if e["status"] == "earned":
            assert e["judged"] >= min(25, e["findings"]) and e["tp"] / e["agreed"] >= 0.90
        if e["status"] == "unmeasured":
            assert e["findings"] < 5
            # a few verdicts can already show a rule below the bar: then it is not left on as unmeasured
            assert not e["agreed"] or e["high"] >= 0.90, code
        if e["status"] == "below bar" and e["findings"] < 5:
            assert e["agreed"] and e["high"] < 0.90, code
        for audience, sub in e.get("audiences", {}).items():  # earned for one reader: the same bar
            assert e["status"] in ("below bar", "under review") and audience in rule_catalog()[code].PROFILES
            assert sub["findings"] >= 5 and sub["judged"] >= min(25, sub["findings"]) and sub["tp"] / sub["agreed"] >= 0.90, code


def partial(agreed=6, tp=6):
    """A rule below the bar overall that earned its place for the agent audience."""
    e = entry("below bar", agreed=25, tp=10)
    e["audiences"] = {"agent": {"findings": agreed, "judged": agreed, "agreed": agreed, "tp": tp, "low": 0.61, "high": 1.0}}
    return e


def test_a_rule_below_the_bar_stays_on_for_the_audience_it_earned(measured):
    from errlint.config import Settings
    from errlint.packs import bundled
    from errlint.registry import select_rules
    measured["AEM101"] = partial()
    assert earned.on_by_default(rule("AEM101")) is False
    assert earned.earned_profiles(rule("AEM101")) == ("agent",)
    enabled, reasons = select_rules(Settings(preview=False), bundled())
    assert {r.code: r.profiles for r in enabled}["AEM101"] == ("agent",)
    assert reasons["AEM101"] == "on by default for agent (earned there; --preview for the rest)"
    # --preview, --extend-select and the user's own profiles give it every reader again
    for settings, extend in ((Settings(preview=True), ()), (Settings(preview=False), ["AEM101"]),
                             (Settings(preview=False, profiles=(("AEM101", ("agent", "cli")),)), ())):
        enabled, _ = select_rules(settings, bundled(), cli_extend=extend)
        assert {r.code: r.profiles for r in enabled}["AEM101"] == (("agent", "cli") if settings.profiles else rule("AEM101").PROFILES)
    enabled, reasons = select_rules(Settings(preview=False), bundled(), cli_ignore=["AEM101"])
    assert "AEM101" not in {r.code for r in enabled}


def test_an_audience_earns_nothing_for_a_rule_already_on_or_designed_off(measured):
    whole = partial()
    whole["status"] = "earned"
    measured["AEM101"] = whole
    assert earned.earned_profiles(rule("AEM101")) == ()
    measured["AEM104"] = partial()
    assert earned.earned_profiles(rule("AEM104")) == ()


def test_the_docs_say_which_reader_a_rule_is_on_for(measured):
    measured["AEM101"] = partial(agreed=6, tp=6)
    text = rule_text(rule("AEM101"))
    assert "on by default for the agent profile only, where it earned its place" in text
    assert "It earned its place for the messages an agent reads (6 of 6 judged findings for an agent (95% CI 0.61-1.00))" in text
    assert "| on for agent | 0.40 (10/25); agent: 1.00 (6/6) |" in rules_table([rule("AEM101")])


AGENT_AND_LIBRARY = '''from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("files")


@mcp.tool()
def convert(uri: str) -> str:
    try:
        return open(uri).read()
    except OSError:
        raise ToolError("File conversion failed.")
'''


def test_the_default_run_reports_the_earned_audience_only(tmp_path, monkeypatch):
    import json
    import subprocess
    import sys
    (tmp_path / "server.py").write_text(AGENT_AND_LIBRARY)
    (tmp_path / "lib.py").write_text("def load(n):\n    if n > 3:\n        raise ValueError('Conversion failed.')\n")
    env = {k: v for k, v in os.environ.items() if k != "ERRLINT_PREVIEW"}

    def found(*args):
        proc = subprocess.run([sys.executable, "-m", "errlint", "check", "--no-cache", "--output-format", "json", "--select", "AEM101", *args, "."],
                              cwd=tmp_path, capture_output=True, text=True, env=env)
        assert proc.returncode in (0, 1), proc.stderr
        return sorted((d["filename"], d["code"], d["audience"]) for d in json.loads(proc.stdout))

    # selected by code, the rule runs for every reader
    assert found() == [("lib.py", "AEM101", "exc"), ("server.py", "AEM101", "agent")]
    if earned.earned_profiles(rule("AEM101")) == ("agent",):  # the shipped measure: on for agents only
        proc = subprocess.run([sys.executable, "-m", "errlint", "check", "--no-cache", "--output-format", "json", "."],
                              cwd=tmp_path, capture_output=True, text=True, env=env)
        codes = sorted((d["filename"], d["code"]) for d in json.loads(proc.stdout) if d["code"] == "AEM101")
        assert codes == [("server.py", "AEM101")]


def test_sarif_marks_a_rule_on_for_some_readers_as_enabled_for_them(measured):
    from errlint.output.sarif import rule_descriptor
    measured["AEM101"] = partial()
    d = rule_descriptor(rule("AEM101"))
    assert d["defaultConfiguration"]["enabled"] is True and d["properties"]["defaultProfiles"] == ["agent"]
    measured["AEM101"] = entry("below bar")
    d = rule_descriptor(rule("AEM101"))
    assert d["defaultConfiguration"]["enabled"] is False and "defaultProfiles" not in d["properties"]


def test_the_precision_cell_names_every_audience_a_rule_earned(measured):
    two = partial()
    two["audiences"]["http"] = {"findings": 5, "judged": 5, "agreed": 5, "tp": 5, "low": 0.57, "high": 1.0}
    measured["AEM101"] = two
    assert earned.precision_cell("AEM101") == "0.40 (10/25); agent: 1.00 (6/6); http: 1.00 (5/5)"
