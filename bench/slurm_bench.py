"""Overhead of MolForma's SLURM path over a bare ``sbatch`` of the same job, in one run.

Run: ``.venv/bin/python bench/slurm_bench.py [ROUNDS]`` (root, with slurm-wlm and munge
installed; it starts its own single-node cluster from tests/slurm_cluster.py and stops
it at the end). Each round submits a water SCF/STO-3G energy (real NWChem, ~1 s) twice,
alternately:

- candidate: ``JobManager.start`` of a project with ``scheduler: slurm`` (input and
  folder written, checked against ``sinfo``, submitted through PSI/J), timed from the
  call until the job reads ``running`` and until it reads ``finished``;
- baseline: the same input in a folder of its own, a plain batch script that runs
  ``nwchem input.nw > output.out``, submitted with ``sbatch --parsable`` and watched with
  ``scontrol show job`` every 0.1 s (a tight hand-written watcher), timed from the
  ``sbatch`` call until SLURM says RUNNING and until it says COMPLETED.

Printed (and written to bench/results/slurm_bench.json through bench/harness.py):
medians, min/max of both and the medians of the per-round ratios. Target: ratio <= 1.5
for both.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import Comparison, Report, Side, add_output_argument

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from molforma.document.envelope import new_project  # noqa: E402
from molforma.jobs.manager import JobManager  # noqa: E402
from tests.slurm_cluster import SlurmCluster  # noqa: E402

WATCH = 0.1  # the baseline watcher's interval, seconds
ATOMS = [
    {"id": "a1", "element": "O", "x": 0.0, "y": 0.0, "z": 0.1173},
    {"id": "a2", "element": "H", "x": 0.0, "y": 0.7572, "z": -0.4692},
    {"id": "a3", "element": "H", "x": 0.0, "y": -0.7572, "z": -0.4692},
]


def project(jobs: Path) -> dict[str, Any]:
    p = new_project(job_root=str(jobs), scheduler="slurm", partition="debug")
    p["document"]["atoms"] = [dict(a) for a in ATOMS]
    p["calculation"].update({"task": "energy", "theory": "scf", "basis": "sto-3g"})
    return p


def candidate(manager: JobManager, proj: dict[str, Any]) -> tuple[float, float]:
    t0 = time.perf_counter()
    job = manager.start(proj)
    running = None
    while not job.wait(0.005):
        if running is None and job.status == "running":
            running = time.perf_counter() - t0
    finished = time.perf_counter() - t0
    if job.status != "finished":
        raise SystemExit(f"candidate job ended {job.status}: {job.snapshot().get('error')}")
    return (running if running is not None else finished), finished


def baseline(cluster: SlurmCluster, folder: Path, input_text: str) -> tuple[float, float]:
    folder.mkdir()
    (folder / "input.nw").write_text(input_text)
    script = folder / "job.sh"
    script.write_text(
        "#!/bin/bash\n"
        f"#SBATCH --chdir={folder}\n#SBATCH --partition=debug\n#SBATCH --ntasks=1\n"
        "#SBATCH --cpus-per-task=1\n#SBATCH -o /dev/null\n#SBATCH -e /dev/null\n"
        "export OMP_NUM_THREADS=1\nnwchem input.nw > output.out 2> error.err\n"
    )
    env = {**os.environ, **cluster.env}
    t0 = time.perf_counter()
    job_id = (
        subprocess.run(
            ["sbatch", "--parsable", str(script)],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        .stdout.strip()
        .split(";")[0]
    )
    running = None
    while True:
        state = cluster.job_state(job_id)
        now = time.perf_counter() - t0
        if running is None and state in ("RUNNING", "COMPLETING", "COMPLETED"):
            running = now
        if state == "COMPLETED":
            return running if running is not None else now, now
        if state in ("FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL"):
            raise SystemExit(f"baseline job ended {state}")
        time.sleep(WATCH)


def main(argv: list[str] | None = None) -> int:
    """Start a cluster, run the interleaved rounds, print and write the results."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=9, help="interleaved rounds")
    add_output_argument(ap)
    args = ap.parse_args(argv)
    cluster = SlurmCluster().start()
    os.environ.update(cluster.env)
    cand_run, cand_fin, base_run, base_fin = Side(), Side(), Side(), Side()
    try:
        with tempfile.TemporaryDirectory(prefix="slurm-bench-") as tmp:
            base = Path(tmp)
            manager = JobManager()
            proj = project(base / "jobs")
            from molforma.nwchem.input import render_input

            text = render_input(proj, prefix="molforma")
            # Warm-up: the first job after start-up is slower for both paths.
            candidate(manager, proj)
            baseline(cluster, base / "warm", text)
            for i in range(args.repeat):
                pair = [
                    (cand_run, cand_fin, lambda: candidate(manager, proj)),
                    (base_run, base_fin, lambda i=i: baseline(cluster, base / f"b{i}", text)),
                ]
                if i % 2:
                    pair.reverse()  # neither side always goes first
                for run_side, fin_side, fn in pair:
                    run, fin = fn()
                    run_side.seconds.append(run)
                    fin_side.seconds.append(fin)
    finally:
        cluster.stop()
    report = Report(
        "slurm_bench",
        f"python bench/slurm_bench.py --repeat {args.repeat}",
        notes=[
            "slurm_bench: water SCF/STO-3G, real NWChem, on the single-node test cluster "
            "(tests/slurm_cluster.py); baseline watcher polls scontrol every 0.1 s."
        ],
    )
    to_run = Comparison(cand_run, base_run)
    to_fin = Comparison(cand_fin, base_fin)
    common = {
        "candidate": "MolForma (checks, folder, PSI/J, following)",
        "baseline": "bare sbatch + scontrol watcher",
        "target": "ratio ≤ 1.5",
    }
    report.add(
        "running",
        "SLURM batch job: submission → running",
        to_run,
        met=to_run.ratio.median <= 1.5,
        **common,
    )
    report.add(
        "finished",
        "SLURM batch job: submission → finished",
        to_fin,
        met=to_fin.ratio.median <= 1.5,
        **common,
    )
    report.write(args.out)
    return 0 if max(to_run.ratio.median, to_fin.ratio.median) <= 1.5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
