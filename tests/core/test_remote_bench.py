"""Bench: a remote water SCF/STO-3G through MolForma against bare ssh + sbatch + scp.

One run, the same rig (tests/ssh_rig.py) and the same job: the bare way is what a person
types (``ssh host mkdir``, ``scp`` the input and the script, ``ssh host sbatch
--parsable``, ``ssh host squeue`` until it ends, ``scp`` the output home), each command
a fresh ssh login as in a terminal; MolForma shares one login and polls once a second.
Measured: submit → running, and submit → results at home. The times are printed (``-s``
shows them); the test fails when MolForma is more than a few seconds slower than bare,
which would mean a poll or a transfer too many.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from molforma.jobs.manager import JobManager
from tests.core.test_remote_cluster import _prefs, _water
from tests.ssh_rig import ALIAS, SshRig, sshd_installed

pytestmark = [pytest.mark.slurm, pytest.mark.slow, pytest.mark.nwchem]

SLACK = 4.0  # seconds MolForma may take beyond bare commands (1 s polling, the fetch)


@pytest.fixture(scope="module")
def rig(slurm_cluster: Any) -> Iterator[SshRig]:
    if not sshd_installed():
        pytest.skip("OpenSSH's server is not installed (apt-get install openssh-server)")
    started = SshRig(slurm_cluster.conf).start()
    try:
        yield started
    finally:
        from molforma.jobs import ssh

        ssh.close_all()
        started.stop()


def _bare(rig: SshRig, folder: Path, remote: str) -> tuple[float, float]:
    """The job by hand; returns (submit → running, submit → output at home) in seconds."""
    cfg = ["-F", str(rig.ssh_config), "-o", "BatchMode=yes"]

    def ssh(*argv: str) -> str:
        return subprocess.run(["ssh", *cfg, ALIAS, *argv], capture_output=True, text=True,
                              check=True, timeout=60).stdout

    t0 = time.monotonic()
    ssh("mkdir", "-p", remote)
    subprocess.run(["scp", "-q", *cfg, str(folder / "input.nw"), str(folder / "job.sbatch"),
                    f"{ALIAS}:{remote}/"], check=True, timeout=60)
    native = ssh("sbatch", "--parsable", f"--chdir={remote}", f"{remote}/job.sbatch").strip()
    running = None
    while True:
        state = ssh("squeue", "-h", "-j", native, "-o", "%T").strip()
        if state == "RUNNING" and running is None:
            running = time.monotonic() - t0
        if state in ("", "COMPLETED", "COMPLETING", "FAILED"):
            break
        time.sleep(0.2)
    subprocess.run(["scp", "-q", *cfg, f"{ALIAS}:{remote}/output.out", str(folder)],
                   check=True, timeout=60)
    done = time.monotonic() - t0
    return (running if running is not None else done), done


def test_remote_submission_against_bare_ssh_sbatch_and_scp(
        rig: SshRig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed")
    monkeypatch.delenv("SLURM_CONF", raising=False)
    _prefs(rig.profile())
    manager = JobManager()
    try:
        # a first job warms the cluster up (the very first job after start-up is slower)
        assert manager.start(_water(tmp_path / "warm")).wait(120)
        t0 = time.monotonic()
        job = manager.start(_water(tmp_path / "jobs"))
        submitted = time.monotonic() - t0
        running = None
        while not job.wait(0.05):
            if running is None and job.status == "running":
                running = time.monotonic() - t0
        home = time.monotonic() - t0
        assert job.status == "finished", job.snapshot()
        running = home if running is None else running
        bare_folder = tmp_path / "bare"
        bare_folder.mkdir()
        for name in ("input.nw", "job.sbatch"):
            shutil.copy(job.folder / name, bare_folder / name)
        bare_running, bare_home = _bare(rig, bare_folder,
                                        str(rig.remote_folder / "bare-water"))
        assert "Total SCF energy" in (bare_folder / "output.out").read_text()
    finally:
        manager.stop_all()
    report = {"molforma": {"submit_s": round(submitted, 2), "to_running_s": round(running, 2),
                           "to_results_home_s": round(home, 2)},
              "bare_ssh_sbatch_scp": {"to_running_s": round(bare_running, 2),
                                      "to_results_home_s": round(bare_home, 2)}}
    print("\nremote bench:", json.dumps(report))
    assert home <= bare_home + SLACK, report
