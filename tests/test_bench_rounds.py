"""bench/run.py runs the parse floor and errlint in rounds and takes its ratios within a round, so a
slow spell of the machine does not land on one command only."""
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_commands_run_in_rounds(tmp_path):
    bench = load_bench()
    log = tmp_path / "order.txt"
    append = "import sys; open(sys.argv[1], 'a').write(sys.argv[2])"
    runs = bench.interleaved(3, [
        ("a", [sys.executable, "-c", append, str(log), "a"], {}),
        ("b", [sys.executable, "-c", append, str(log), "b"], {}),
    ])
    assert log.read_text() == "ababab"
    assert [len(r) for r in runs] == [3, 3]
    assert {m.name for m in runs[0]} == {"a"} and {m.name for m in runs[1]} == {"b"}


def test_ratio_is_the_median_of_the_ratios_within_a_round():
    bench = load_bench()

    def m(wall):
        return bench.Measure("x", wall, wall, 1.0, 0)
    # round 2 is a slow spell for both commands: its ratio (2.0) still counts as 2.0
    floor = [m(10), m(40), m(10)]
    errlint = [m(12), m(80), m(30)]
    assert bench.paired_ratio(errlint, floor) == 2.0
    # the ratio of the medians would have been 30 / 10 = 3.0
    assert bench.summary(errlint).wall == 30
