"""History scan speed on 1,000 job folders, as a ratio to a plain job.json walk.

Run: ``.venv/bin/python bench/history_bench.py [N] [--repeat 9]``. It builds N (default 1,000)
synthetic job folders in a temporary directory: 60 % written by the job runner
(``job.json`` + ``input.nw`` + ``output.out``, a few without ``finalEnergy`` in the
record so their output is searched), 40 % plain NWChem runs (``*.nw`` + ``*.out``)
of which one in four has a ~1 MB output and some of those have no energy near the
end (the worst case for the backwards search). The baseline, measured in the same
run, is an ``os.scandir`` walk that reads and ``json.loads`` every ``job.json``.
Both are timed warm (page cache filled), alternately (A B A B ...); the figures
are median, min and max of each and the median of the per-pair ratios, written to
bench/results/history_bench.json. Target: ratio <= 10 and the whole scan well under
a second. Cancelling a background scan is timed too.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from harness import Report, Sample, add_output_argument, compare, measure

from molforma.history.folder_scan import HistoryScanner, scan

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
FILLER = (
    "   iter       energy          gnorm     gmax       time\n"
    "     1      -75.9876543210  1.23D-01  4.56D-02      0.1\n"
)
ENDING = (
    "         Total SCF energy =    -76.010746508431\n"
    " Total times  cpu:        0.9s     wall:        1.0s\n"
)


def build(root: Path, n: int) -> dict[str, int]:
    """Write ``n`` job folders under ``root``; return counts by kind."""
    counts = {"job": 0, "job_no_energy": 0, "plain": 0, "plain_1mb": 0, "plain_1mb_no_end": 0}
    big_body = FILLER * (1_000_000 // len(FILLER))
    for i in range(n):
        folder = root / f"2026{i:06d}-H2O-optimize"
        folder.mkdir()
        if i % 5 < 3:  # job runner folders
            record = {
                "format": "molforma-job",
                "version": 1,
                "id": f"j{i}",
                "title": f"water {i}",
                "formula": "H2O",
                "task": "optimize+frequencies",
                "theory": "scf",
                "basis": "6-31g*",
                "functional": "",
                "charge": 0,
                "multiplicity": 1,
                "status": "finished",
                "createdAt": f"2026-11-{1 + i % 28:02d}T10:{i % 60:02d}:00+00:00",
                "startedAt": None,
                "finishedAt": None,
                "exitCode": 0,
                "command": ["nwchem", "input.nw"],
                "processes": 1,
                "threads": 1,
                "timeLimit": None,
                "scfConverged": True,
                "optimizationConverged": True,
                "finalEnergy": -76.010746508431,
                "progress": None,
                "error": None,
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


def cancel_latency(root: Path) -> Sample:
    """Seconds from cancel() to the end of a background scan (which must end cancelled)."""
    handle = HistoryScanner().start([str(root)])
    # Let it get going, then cancel and time how long it takes to stop.
    deadline = time.perf_counter() + 2.0
    while handle.progress < 25 and not handle.done and time.perf_counter() < deadline:
        time.sleep(0.0005)
    t0 = time.perf_counter()
    handle.cancel()
    handle.wait(30)
    elapsed = time.perf_counter() - t0
    if handle.status != "cancelled" and not handle.done:
        raise RuntimeError(f"the scan did not stop: {handle.status}")
    return Sample(elapsed)


def main(argv: list[str] | None = None) -> int:
    """Build the folders, run the bench, print it and write bench/results/history_bench.json."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="?", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=9)
    add_output_argument(ap)
    args = ap.parse_args(argv)
    n = args.folders
    report = Report("history_bench", f"python bench/history_bench.py {n} --repeat {args.repeat}")
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
        c = compare(lambda: scan([str(root)]), lambda: baseline(root), repeat=args.repeat)
        report.add(
            "scan",
            f"scan of {n:,} job folders ({size_mb:.0f} MB), warm cache",
            c,
            candidate="history scan (a row per folder)",
            baseline="scandir + json.loads of every job.json",
            target="ratio ≤ 10, scan < 1 s",
            met=c.ratio.median <= 10 and c.candidate.time.median < 1,
            note="rows for plain NWChem folders also read the input head and output tail",
        )
        latency = measure(lambda: cancel_latency(root), repeat=max(3, args.repeat // 3), warmup=0)
        report.add_single(
            "cancel",
            "cancel of a background scan: cancel() to stopped",
            latency,
            label="HistoryScanner cancel",
            target="< 50 ms",
            met=latency.time.median < 0.05,
        )
        statuses: dict[str, int] = {}
        for r in rows:
            statuses[r.status] = statuses.get(r.status, 0) + 1
        print(
            f"statuses: {statuses}; rows with an energy: "
            f"{sum(r.finalEnergy is not None for r in rows)}"
        )
    report.write(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
