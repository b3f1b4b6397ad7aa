"""History scan speed on 1,000 job folders, as a ratio to a plain job.json walk.

Run: ``.venv/bin/python bench/history_bench.py [N]``. It builds N (default 1,000)
synthetic job folders in a temporary directory: 60 % written by the job runner
(``job.json`` + ``input.nw`` + ``output.out``, a few without ``finalEnergy`` in the
record so their output is searched), 40 % plain NWChem runs (``*.nw`` + ``*.out``)
of which one in four has a ~1 MB output and some of those have no energy near the
end (the worst case for the backwards search). The baseline, measured in the same
run, is an ``os.scandir`` walk that reads and ``json.loads`` every ``job.json``.
Both are timed warm (page cache filled), alternately, several times; the figures
printed are the median times and the median of the paired ratios. Target: ratio <= 10 and the
whole scan well under a second. Cancelling a background scan is timed too.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from molforma.history.scan import HistoryScanner, scan

NW = """start {name}
title "{title}"
geometry units angstrom
  O    0.000000    0.000000    0.117300
  H    0.000000    0.757200   -0.469200
  H    0.000000   -0.757200   -0.469200
end
basis
  * library 6-31g*
end
task scf optimize
task scf freq
"""
FILLER = "   iter       energy          gnorm     gmax       time\n" \
         "     1      -75.9876543210  1.23D-01  4.56D-02      0.1\n"
ENDING = "         Total SCF energy =    -76.010746508431\n" \
         " Total times  cpu:        0.9s     wall:        1.0s\n"


def build(root: Path, n: int) -> dict[str, int]:
    """Write ``n`` job folders under ``root``; return counts by kind."""
    counts = {"job": 0, "job_no_energy": 0, "plain": 0, "plain_1mb": 0, "plain_1mb_no_end": 0}
    big_body = FILLER * (1_000_000 // len(FILLER))
    for i in range(n):
        folder = root / f"2026{i:06d}-H2O-optimize"
        folder.mkdir()
        if i % 5 < 3:  # job runner folders
            record = {
                "format": "molforma-job", "version": 1, "id": f"j{i}", "title": f"water {i}",
                "formula": "H2O", "task": "optimize+frequencies", "theory": "scf",
                "basis": "6-31g*", "functional": "", "status": "finished",
                "createdAt": f"2026-11-{1 + i % 28:02d}T10:{i % 60:02d}:00+00:00",
                "startedAt": None, "finishedAt": None, "exitCode": 0,
                "command": ["nwchem", "input.nw"], "processes": 1, "threads": 1,
                "timeLimit": None, "scfConverged": True, "optimizationConverged": True,
                "finalEnergy": -76.010746508431, "progress": None, "error": None,
                "savedOnly": False,
            }
            if i % 50 == 0:
                record["finalEnergy"] = None
                counts["job_no_energy"] += 1
            else:
                counts["job"] += 1
            (folder / "job.json").write_text(json.dumps(record), encoding="utf-8")
            (folder / "input.nw").write_text(NW.format(name="input", title=f"water {i}"))
            (folder / "output.out").write_text(FILLER * 200 + ENDING)
        else:
            (folder / "water.nw").write_text(NW.format(name="water", title=f"plain {i}"))
            if i % 4 == 3:
                if i % 20 == 19:
                    # Energy only at the very start: the backwards search reads it all.
                    body = ENDING.splitlines(keepends=True)[0] + big_body
                    counts["plain_1mb_no_end"] += 1
                else:
                    body = big_body + ENDING
                    counts["plain_1mb"] += 1
            else:
                body = FILLER * 200 + ENDING
                counts["plain"] += 1
            (folder / "water.out").write_text(body)
    return counts


def baseline(root: Path) -> int:
    """A plain walk: list every sub-folder and json.loads every job.json."""
    found = 0
    with os.scandir(root) as top:
        for entry in top:
            if not entry.is_dir(follow_symlinks=False):
                continue
            with os.scandir(entry.path) as inner:
                for f in inner:
                    if f.name == "job.json":
                        with open(f.path, "rb") as fh:
                            json.loads(fh.read())
                        found += 1
    return found


def paired_times(a: Callable[[], object], b: Callable[[], object],
                 repeat: int = 9) -> dict[str, float]:
    """``a`` and ``b`` timed alternately: median wall and CPU times and paired ratios b/a.

    Alternating keeps a changing machine load from favouring either side; the CPU
    (process) time is printed too because wall time on a busy machine mostly
    measures waiting for a core.
    """
    out: dict[str, list[float]] = {k: [] for k in ("a", "b", "ratio", "a_cpu", "b_cpu",
                                                   "ratio_cpu")}
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        a()
        t1, c1 = time.perf_counter(), time.process_time()
        b()
        t2, c2 = time.perf_counter(), time.process_time()
        out["a"].append(t1 - t0)
        out["b"].append(t2 - t1)
        out["ratio"].append((t2 - t1) / (t1 - t0))
        out["a_cpu"].append(c1 - c0)
        out["b_cpu"].append(c2 - c1)
        out["ratio_cpu"].append((c2 - c1) / max(c1 - c0, 1e-6))
    return {k: statistics.median(v) for k, v in out.items()}


def cancel_latency(root: Path) -> tuple[float, str]:
    """Seconds from cancel() to the end of a background scan, and its final status."""
    handle = HistoryScanner().start([str(root)])
    # Let it get going, then cancel and time how long it takes to stop.
    deadline = time.perf_counter() + 2.0
    while handle.progress < 25 and not handle.done and time.perf_counter() < deadline:
        time.sleep(0.0005)
    t0 = time.perf_counter()
    handle.cancel()
    handle.wait(30)
    return time.perf_counter() - t0, handle.status


def main(argv: list[str]) -> int:
    n = int(argv[1]) if len(argv) > 1 else 1000
    with tempfile.TemporaryDirectory(prefix="molforma-history-bench-") as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        counts = build(root, n)
        built = time.perf_counter() - t0
        size_mb = sum(f.stat().st_size for f in root.rglob("*") if f.is_file()) / 1e6
        print(f"built {n} folders ({size_mb:.0f} MB) in {built:.1f} s: {counts}")
        rows = scan([str(root)])  # warm the page cache and the lazy imports
        assert len(rows) == n, len(rows)
        assert baseline(root) == counts["job"] + counts["job_no_energy"]
        t = paired_times(lambda: baseline(root), lambda: scan([str(root)]))
        print(f"baseline (scandir + json.loads of every job.json): wall {t['a'] * 1000:7.1f} ms"
              f"  cpu {t['a_cpu'] * 1000:7.1f} ms")
        print(f"scan (rows for every folder, newest first):         wall {t['b'] * 1000:7.1f} ms"
              f"  cpu {t['b_cpu'] * 1000:7.1f} ms")
        print(f"ratio scan / baseline (median of paired runs):      wall {t['ratio']:7.2f}"
              f"     cpu {t['ratio_cpu']:7.2f}")
        latency, status = cancel_latency(root)
        print(f"cancel latency of a background scan: {latency * 1000:.1f} ms ({status})")
        statuses: dict[str, int] = {}
        for r in rows:
            statuses[r.status] = statuses.get(r.status, 0) + 1
        print(f"statuses: {statuses}; rows with an energy: "
              f"{sum(r.finalEnergy is not None for r in rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
