"""The bench harness measures side by side and writes what update_readme.py reads."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

from tests.paths import REPO


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look their module up while the class is built
    spec.loader.exec_module(mod)
    return mod


harness = _load("harness", REPO / "bench" / "harness.py")
update_readme = _load("update_readme", REPO / "scripts" / "update_readme.py")


def test_compare_runs_candidate_and_baseline_alternately_after_the_warm_up() -> None:
    order: list[str] = []
    c = harness.compare(lambda: order.append("A"), lambda: order.append("B"), repeat=3, warmup=1)
    assert order == ["A", "B"] * 4
    assert len(c.candidate.seconds) == len(c.baseline.seconds) == len(c.ratios) == 3


def test_the_ratio_is_the_median_of_the_per_pair_ratios_of_self_timed_samples() -> None:
    a = iter([1.0, 2.0, 9.0])
    b = iter([2.0, 2.0, 3.0])
    c = harness.compare(
        lambda: harness.Sample(next(a), 100),
        lambda: harness.Sample(next(b), 50),
        repeat=3,
        warmup=0,
    )
    assert c.ratios == [0.5, 1.0, 3.0]
    assert (c.ratio.median, c.ratio.min, c.ratio.max) == (1.0, 0.5, 3.0)
    assert c.candidate.time.median == 2.0 and c.candidate.time.max == 9.0
    assert c.rss_ratio is not None and c.rss_ratio.median == 2.0


def test_a_python_child_reports_its_own_peak_memory_not_the_parents() -> None:
    ballast = bytearray(300 * 1024 * 1024)  # the parent grows; the small child must not
    ballast[::4096] = b"x" * len(ballast[::4096])  # touch every page so it is resident
    small = harness.python_child("x = 1")
    big = harness.python_child(
        "b = bytearray(200 * 1024 * 1024)\nb[::4096] = b'x' * len(b[::4096])"
    )
    del ballast
    assert small.rss is not None and big.rss is not None
    assert small.rss < 150e6
    assert big.rss > small.rss + 190e6


def test_a_child_process_is_timed_to_its_end_with_its_memory_sampled() -> None:
    s = harness.run_child(
        [
            sys.executable,
            "-c",
            "import time; b = bytearray(80 * 2**20); "
            "b[::4096] = b'x' * len(b[::4096]); time.sleep(0.3)",
        ]
    )
    assert s.seconds >= 0.3
    assert s.rss is not None and s.rss > 80e6


def test_a_report_written_as_json_becomes_a_row_of_readmes_performance_table(
    tmp_path: Path,
) -> None:
    report = harness.Report(
        "demo_bench", "python bench/demo_bench.py --repeat 2", notes=["demo: a note"]
    )
    a = iter([0.002, 0.004])
    c = harness.compare(
        lambda: harness.Sample(next(a)), lambda: harness.Sample(0.010), repeat=2, warmup=0
    )
    report.add(
        "parse",
        "parse a file",
        c,
        candidate="ours",
        baseline="theirs",
        target="ratio ≤ 0.5",
        met=True,
    )
    path = report.write(tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["machine"]["cores"] >= 1 and doc["date"]
    assert doc["rows"][0]["ratio"]["median"] == pytest.approx(0.3)
    table = update_readme.performance_table(tmp_path)
    row = next(line for line in table.splitlines() if "parse a file" in line)
    assert "`demo_bench.py`" in row and "ours: **3.0 ms** (2.0 ms–4.0 ms)" in row
    assert "theirs: **10 ms**" in row and "ratio **0.30**" in row and "2 pairs" in row
    assert f"{doc['machine']['cores']} cores" in row and doc["date"][:10] in row
    assert "ratio ≤ 0.5 ✓" in row
    assert (
        "`.venv/bin/python bench/demo_bench.py --repeat 2`" in table and "- demo: a note" in table
    )


def test_readmes_performance_table_is_the_one_rendered_from_the_committed_bench_results() -> None:
    readme = (REPO / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert update_readme.render(readme) == readme, "run: .venv/bin/python scripts/update_readme.py"
    written = {p.stem for p in (REPO / "bench" / "results").glob("*.json")}
    # Every bench built on the harness has its results committed (and so a row in docs/benchmarks.md).
    benches = {
        p.stem
        for p in (REPO / "bench").glob("*_bench.py")
        if re.search(r"^from harness import|^import harness", p.read_text(encoding="utf-8"), re.M)
    }
    assert {
        "core_bench",
        "history_bench",
        "mcp_bench",
        "render_bench",
        "results_bench",
        "scale_bench",
    } <= benches
    assert benches <= written, "a bench has no committed results: run it, then update_readme.py"


def test_sizes_measured_alternately_become_a_row_in_bytes(tmp_path: Path) -> None:
    order: list[str] = []
    a, b = harness.compare_bytes(
        lambda: order.append("A") or 82_000, lambda: order.append("B") or 8_000_000, repeat=2
    )
    assert order == ["A", "B", "A", "B"] and a == [82_000] * 2 and b == [8_000_000] * 2
    report = harness.Report("size_bench", "python bench/size_bench.py")
    report.add_bytes(
        "step",
        "memory a step keeps",
        a,
        b,
        candidate="one step",
        baseline="one copy",
        target="ratio ≤ 0.05",
        met=True,
    )
    row_json = json.loads(report.write(tmp_path).read_text(encoding="utf-8"))["rows"][0]
    assert row_json["kind"] == "bytes" and row_json["ratio"]["median"] == pytest.approx(0.01025)
    table = update_readme.performance_table(tmp_path)
    row = next(line for line in table.splitlines() if "memory a step keeps" in line)
    assert "one step: **82 kB** (82 kB–82 kB)" in row and "one copy: **8.0 MB**" in row
    assert "ratio **0.010**" in row and "ratio ≤ 0.05 ✓" in row


def test_the_first_frame_is_the_first_capture_of_the_screen_the_window_settles_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import numpy as np

    scale_bench = _load("scale_bench", REPO / "bench" / "scale_bench.py")
    empty = np.zeros(10_000, dtype=np.uint8)
    dialog = empty.copy()
    dialog[:2_000] = 1  # a window with a progress dialog over an empty view
    final = dialog.copy()
    final[2_000:5_000] = 2  # the molecule drawn
    blink = final.copy()
    blink[0] = 9  # a text cursor blinking: 0.01 % of the bytes
    # nothing, then the dialog (six captures alike), then the final screen with a
    # blinking cursor from then on
    shots = [empty] * 10 + [dialog] * 6 + [final, final, blink, final] * 20
    clock = iter(np.arange(0.0, 100.0, 0.1))
    now = [0.0]

    def tick() -> float:
        now[0] = float(next(clock))
        return now[0]

    captures = iter(shots)
    monkeypatch.setattr(scale_bench, "_capture", lambda: next(captures))
    monkeypatch.setattr(scale_bench.time, "perf_counter", tick)
    with tempfile.TemporaryFile() as err:
        sample = scale_bench._watch(
            [sys.executable, "-c", "import time; time.sleep(30)"], {}, 60.0, empty, err
        )
    # the clock advances 0.1 s at each reading, two per capture: capture k is taken at
    # 0.2 (k + 1) s; the first final screen is capture 16 (3.4 s), the stable dialog's
    # first is capture 10 (2.2 s, what a "two equal captures" rule would report)
    assert abs(sample.seconds - 3.4) < 1e-9
