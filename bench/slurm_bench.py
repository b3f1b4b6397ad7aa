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

Printed: medians, min/max of both, and the medians of the per-round ratios. Target:
ratio <= 1.5 for both. ``--json FILE`` also writes the figures as JSON.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from molforma.document.model import new_project  # noqa: E402
from molforma.jobs.runner import JobManager  # noqa: E402
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
        "export OMP_NUM_THREADS=1\nnwchem input.nw > output.out 2> error.err\n")
    env = {**os.environ, **cluster.env}
    t0 = time.perf_counter()
    job_id = subprocess.run(["sbatch", "--parsable", str(script)], capture_output=True,
                            text=True, check=True, env=env).stdout.strip().split(";")[0]
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


def summary(values: list[float]) -> str:
    return (f"median {statistics.median(values):.3f} s "
            f"(min {min(values):.3f}, max {max(values):.3f})")


def main(argv: list[str]) -> int:
    rounds = int(argv[0]) if argv and argv[0].isdigit() else 7
    out_json = argv[argv.index("--json") + 1] if "--json" in argv else None
    cluster = SlurmCluster().start()
    os.environ.update(cluster.env)
    rows: dict[str, list[float]] = {k: [] for k in ("c_run", "c_fin", "b_run", "b_fin")}
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
            for i in range(rounds):
                pair = [("c", lambda: candidate(manager, proj)),
                        ("b", lambda i=i: baseline(cluster, base / f"b{i}", text))]
                if i % 2:
                    pair.reverse()
                for kind, fn in pair:
                    run, fin = fn()
                    rows[f"{kind}_run"].append(run)
                    rows[f"{kind}_fin"].append(fin)
    finally:
        cluster.stop()
    ratio_run = statistics.median(c / b for c, b in zip(rows["c_run"], rows["b_run"],
                                                         strict=True))
    ratio_fin = statistics.median(c / b for c, b in zip(rows["c_fin"], rows["b_fin"],
                                                         strict=True))
    print(f"water SCF/STO-3G on a single-node SLURM, {rounds} interleaved rounds")
    print(f"  submit -> running   MolForma {summary(rows['c_run'])}")
    print(f"                      sbatch   {summary(rows['b_run'])}")
    print(f"  submit -> finished  MolForma {summary(rows['c_fin'])}")
    print(f"                      sbatch   {summary(rows['b_fin'])}")
    print(f"  ratio running {ratio_run:.2f}, finished {ratio_fin:.2f} (target <= 1.5)")
    if out_json:
        Path(out_json).write_text(json.dumps({
            "bench": "slurm_bench", "rounds": rounds, "ratioRunning": ratio_run,
            "ratioFinished": ratio_fin, **{k: statistics.median(v) for k, v in rows.items()},
        }, indent=2) + "\n")
    return 0 if max(ratio_run, ratio_fin) <= 1.5 else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
