"""Overhead of MolForma's remote SLURM path (over ssh) over the same job typed by hand, in one run.

Run: ``.venv/bin/python bench/remote_bench.py [--repeat N]`` (root, with slurm-wlm, munge,
openssh-server and NWChem installed). It starts its own single-node cluster
(tests/slurm_cluster.py) and a real sshd in front of it (tests/ssh_rig.py, the alias
``molforma-rig``; the sshd hands ``SLURM_CONF`` to its sessions as a login node does, and
this process runs without ``SLURM_CONF``, so both sides reach SLURM only through ssh).
Both are stopped at the end, by the pids recorded at start, and the bench checks that
neither left a process behind.

Each round submits a water SCF/STO-3G energy (real NWChem, ~1 s) twice, alternately
(which side goes first alternates too):

- candidate, the user's path: ``JobManager.start`` of a project whose execution names the
  cluster profile ``rig`` (stored in a Preferences file of a temporary
  ``MOLFORMA_CONFIG_DIR``). MolForma writes the local job folder, opens one ssh
  connection for the profile (a ControlMaster, reused by every later command of the
  run, as in the program), copies the input and its batch script, submits with
  ``sbatch --parsable``, looks at the job four times a second and, when it ends, copies
  its files home (output, movecs, ...). Timed from the call until the job reads
  ``running`` and until it reads ``finished`` (the files are home then).
- baseline, the floor: what a person types, each command a fresh ssh login (no
  ControlMaster, no connection reuse): ``ssh host mkdir -p``, ``scp`` of the same
  ``input.nw`` and a plain batch script (``nwchem input.nw``, output to
  ``output.out``), ``ssh host sbatch --parsable``, then ``ssh host squeue -h -j ID -o
  %T`` every 0.2 s until the job leaves the queue or reaches a final state (a tighter
  watch than a person keeps), then ``scp`` of ``output.out`` alone home (MolForma brings
  every file back). Timed from the first ``ssh`` until ``squeue`` says RUNNING and until
  ``output.out`` is home.

The energies of both sides are compared in every round (a difference stops the bench).
Printed (and written to bench/results/remote_bench.json through bench/harness.py):
medians, min/max of both and the medians of the per-round ratios. Target: ratio <= 1.5
for both.
"""

from __future__ import annotations

import argparse
import json
import os
import re
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
from tests.ssh_rig import ALIAS, SshRig  # noqa: E402

WATCH = 0.2  # seconds between the baseline's squeue looks
PROFILE = "rig"
# SLURM's states after which a job never runs again (those of molforma.jobs.batch).
FINAL = frozenset(
    {
        "COMPLETED",
        "FAILED",
        "CANCELLED",
        "TIMEOUT",
        "NODE_FAIL",
        "OUT_OF_MEMORY",
        "BOOT_FAIL",
        "DEADLINE",
        "PREEMPTED",
        "SPECIAL_EXIT",
        "REVOKED",
    }
)
ATOMS = [
    {"id": "a1", "element": "O", "x": 0.0, "y": 0.0, "z": 0.1173},
    {"id": "a2", "element": "H", "x": 0.0, "y": 0.7572, "z": -0.4692},
    {"id": "a3", "element": "H", "x": 0.0, "y": -0.7572, "z": -0.4692},
]
BARE_SCRIPT = (
    "#!/bin/bash\n#SBATCH --partition=debug\n#SBATCH --ntasks=1\n"
    "#SBATCH --cpus-per-task=1\n#SBATCH --output=output.out\n"
    "#SBATCH --error=error.err\nexport OMP_NUM_THREADS=1\nnwchem input.nw\n"
)
_ENERGY = re.compile(r"Total SCF energy\s*=\s*(-?\d+\.\d+)")


def write_preferences(config_dir: Path, profile: dict[str, Any]) -> None:
    """Preferences holding the one cluster profile, where MolForma reads them."""
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "preferences.json").write_text(
        json.dumps({"scheduler": "slurm", "profiles": [profile]})
    )


def project(jobs: Path) -> dict[str, Any]:
    """Water SCF/STO-3G energy, to run on the cluster profile ``rig``."""
    p = new_project(job_root=str(jobs), scheduler="slurm", remote_profile=PROFILE)
    p["document"]["atoms"] = [dict(a) for a in ATOMS]
    p["calculation"].update({"task": "energy", "theory": "scf", "basis": "sto-3g"})
    return p


def energy_of(output: str) -> float:
    """The SCF energy NWChem printed, in hartree."""
    m = _ENERGY.search(output)
    if m is None:
        raise SystemExit("no 'Total SCF energy' in the output")
    return float(m.group(1))


def candidate(manager: JobManager, proj: dict[str, Any]) -> tuple[float, float, float, Path]:
    """MolForma's path: (submit → running, submit → results home, energy, job folder)."""
    t0 = time.perf_counter()
    job = manager.start(proj)
    running = None
    while not job.wait(0.005):
        if running is None and job.status == "running":
            running = time.perf_counter() - t0
    home = time.perf_counter() - t0
    rec = job.snapshot()
    if job.status != "finished":
        raise SystemExit(f"candidate job ended {job.status}: {rec.get('error')}")
    energy = energy_of((job.folder / "output.out").read_text())
    return (running if running is not None else home), home, energy, job.folder


def baseline(rig: SshRig, folder: Path, remote: str, input_text: str) -> tuple[float, float, float]:
    """The bare commands, each a fresh login: (submit → running, submit → output home, energy)."""
    folder.mkdir(parents=True)
    (folder / "input.nw").write_text(input_text)
    (folder / "job.sh").write_text(BARE_SCRIPT)
    cfg = ["-F", str(rig.ssh_config), "-o", "BatchMode=yes"]

    def ssh(*argv: str) -> str:
        return subprocess.run(
            ["ssh", *cfg, ALIAS, *argv],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        ).stdout

    def scp(*argv: str) -> None:
        subprocess.run(["scp", "-q", *cfg, *argv], check=True, timeout=60, stdin=subprocess.DEVNULL)

    t0 = time.perf_counter()
    ssh("mkdir", "-p", remote)
    scp(str(folder / "input.nw"), str(folder / "job.sh"), f"{ALIAS}:{remote}/")
    native = ssh("sbatch", "--parsable", f"--chdir={remote}", f"{remote}/job.sh")
    native = native.strip().split(";")[0]
    running = None
    while True:
        state = ssh("squeue", "-h", "-j", native, "-o", "%T").strip()
        if running is None and state in ("RUNNING", "COMPLETING", "COMPLETED"):
            running = time.perf_counter() - t0
        if state == "" or state in FINAL:
            break
        time.sleep(WATCH)
    if state not in ("", "COMPLETED"):
        raise SystemExit(f"baseline job ended {state}")
    scp(f"{ALIAS}:{remote}/output.out", str(folder))
    home = time.perf_counter() - t0
    energy = energy_of((folder / "output.out").read_text())
    return (running if running is not None else home), home, energy


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def main(argv: list[str] | None = None) -> int:
    """Start the cluster and the rig, run the interleaved rounds, print and write the results."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="interleaved rounds")
    add_output_argument(ap)
    args = ap.parse_args(argv)
    # MolForma must reach SLURM through ssh only; its Preferences live in a folder of the run.
    os.environ.pop("SLURM_CONF", None)
    cand_run, cand_home, base_run, base_home = Side(), Side(), Side(), Side()
    energies: list[tuple[float, float]] = []
    cluster = SlurmCluster().start()
    rig: SshRig | None = None
    try:
        rig = SshRig(cluster.conf).start()
        with tempfile.TemporaryDirectory(prefix="remote-bench-") as tmp:
            base = Path(tmp)
            os.environ["MOLFORMA_CONFIG_DIR"] = str(base / "config")
            write_preferences(base / "config", rig.profile(PROFILE))
            manager = JobManager()
            proj = project(base / "jobs")
            bare_root = str(rig.remote_folder.parent / "bare")
            try:
                # Warm-up, thrown away: the first job after start-up is slower for both paths,
                # and it gives the baseline the very input MolForma wrote.
                *_, folder = candidate(manager, proj)
                text = (folder / "input.nw").read_text()
                baseline(rig, base / "bare" / "warm", f"{bare_root}/warm", text)
                for i in range(args.repeat):

                    def cand() -> tuple[float, float, float]:
                        return candidate(manager, proj)[:3]

                    def bare(i: int = i) -> tuple[float, float, float]:
                        return baseline(rig, base / "bare" / f"r{i}", f"{bare_root}/r{i}", text)

                    pair = [
                        ("cand", cand_run, cand_home, cand),
                        ("bare", base_run, base_home, bare),
                    ]
                    if i % 2:
                        pair.reverse()  # neither side always goes first
                    got: dict[str, float] = {}
                    for name, run_side, home_side, fn in pair:
                        run, home, energy = fn()
                        run_side.seconds.append(run)
                        home_side.seconds.append(home)
                        got[name] = energy
                    if abs(got["cand"] - got["bare"]) > 1e-6:
                        raise SystemExit(f"round {i}: energies differ: {got}")
                    energies.append((got["cand"], got["bare"]))
            finally:
                manager.stop_all()
    finally:
        from molforma.jobs import ssh

        ssh.close_all()  # MolForma's shared connection, before its sshd goes
        if rig is not None:
            rig.stop()
        cluster.stop()
    left = [
        p
        for p in [*cluster.pids.values(), *([rig.proc.pid] if rig and rig.proc else [])]
        if _alive(p)
    ]
    if left:
        raise SystemExit(f"processes left behind: {left}")
    report = Report(
        "remote_bench",
        f"python bench/remote_bench.py --repeat {args.repeat}",
        notes=[
            "remote_bench: water SCF/STO-3G, real NWChem, on the single-node test cluster behind a "
            "real sshd on 127.0.0.1 (tests/ssh_rig.py); both sides reach SLURM only over ssh. "
            "Baseline: each command a fresh ssh login, squeue every 0.2 s, only output.out "
            f"fetched; both sides gave E = {energies[0][0]:.6f} Eh in every round."
        ],
    )
    to_run = Comparison(cand_run, base_run)
    to_home = Comparison(cand_home, base_home)
    common = {
        "candidate": "MolForma, cluster profile (one ssh link)",
        "baseline": "bare ssh, scp, sbatch, squeue",
        "target": "ratio ≤ 1.5",
    }
    report.add(
        "running",
        "Remote SLURM job over ssh: submission → running",
        to_run,
        met=to_run.ratio.median <= 1.5,
        **common,
    )
    report.add(
        "home",
        "Remote SLURM job over ssh: submission → results at home",
        to_home,
        met=to_home.ratio.median <= 1.5,
        **common,
    )
    report.write(args.out)
    return 0 if max(to_run.ratio.median, to_home.ratio.median) <= 1.5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
