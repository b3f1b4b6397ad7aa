"""Remote jobs through a cluster profile whose scheduler is pbs (qsub, qstat -f, qdel).

The PBS/Torque commands are Debian's slurm-wlm-torque wrappers over the same real
single-node SLURM, reached through the same real sshd (tests/ssh_rig.py) as the SLURM
profile tests; this process runs without SLURM_CONF, so the jobs reach the cluster only
through ssh. What the wrappers do not show (see docs/remote-clusters.md): a real PBS
server's own states and its spooling of a job's output.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from molforma.app.ops import add_atoms
from molforma.document.document import Document
from molforma.errors import MolFormaError
from molforma.jobs.manager import JobManager
from molforma.preferences import Preferences, load_preferences, parse_preferences, preferences_path
from molforma.results import read_results
from tests.core.conftest import WATER
from tests.ssh_rig import SshRig, started_rig

pytestmark = [pytest.mark.slurm, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
STAND_IN = f"{sys.executable} {REPO / 'tests' / 'stand_in' / 'fake_nwchem.py'}"
DOC = REPO / "docs" / "remote-clusters.md"


@pytest.fixture(scope="module")
def rig(slurm_cluster: Any) -> Iterator[SshRig]:
    if shutil.which("qsub") is None:
        pytest.skip("the PBS/Torque wrappers are not installed (apt-get install slurm-wlm-torque)")
    yield from started_rig(slurm_cluster)


@pytest.fixture
def no_local_slurm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SLURM_CONF", raising=False)


def _prefs(*profiles: dict[str, Any]) -> None:
    path = preferences_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"scheduler": "slurm", "profiles": list(profiles)}))


def _pbs(rig: SshRig, **changes: Any) -> dict[str, Any]:
    return rig.profile(name="pbsrig", scheduler="pbs", **changes)


def _water(root: Path, **execution: Any) -> dict[str, Any]:
    doc = Document()
    add_atoms(doc, WATER, [{"a": "#0", "b": "#1"}, {"a": "#0", "b": "#2"}], preview=False)
    project = doc.project
    project["calculation"].update(task="energy", theory="scf", basis="sto-3g")
    project["execution"].update(
        scheduler="slurm", remote_profile="pbsrig", job_root=str(root), **execution
    )
    return project


def _wait(cond: Any, timeout: float = 60.0) -> Any:
    end = time.monotonic() + timeout
    while not (value := cond()):
        assert time.monotonic() < end, "condition not met in time"
        time.sleep(0.1)
    return value


@pytest.mark.nwchem
def test_water_scf_runs_through_qsub_and_its_results_are_read_at_home(
    rig: SshRig, no_local_slurm: None, tmp_path: Path
) -> None:
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed")
    _prefs(_pbs(rig, account="chem"))
    manager = JobManager()
    job = manager.start(_water(tmp_path / "jobs", time_limit=600))
    try:
        assert job.wait(120)
        rec = job.snapshot()
        assert rec["status"] == "finished", rec
        assert rec["exitCode"] == 0 and rec["schedulerState"] == "COMPLETED"
        assert rec["batchSystem"] == "pbs" and rec["nativeId"].isdigit()
        assert rec["finalEnergy"] == pytest.approx(-74.963, abs=1e-3)
        remote_folder = Path(job.snapshot()["remote"]["folder"])
        assert rec["remote"]["folder"] == str(remote_folder)
        # Submitted as a PBS script: its directives, no sbatch ones.
        script = (remote_folder / "job.pbs").read_text()
        assert "#SBATCH" not in script
        for line in (
            "#PBS -q debug",
            "#PBS -A chem",
            "#PBS -l walltime=00:10:00",
            "#PBS -l nodes=1:ppn=1",
            "#PBS -o scheduler.out",
        ):
            assert line in script.splitlines(), script
        assert re.search(r"^#PBS -N molforma-", script, re.M)
        # Fetched home: the same output, the vectors, read as any local result.
        assert (job.folder / "output.out").read_bytes() == (
            remote_folder / "output.out"
        ).read_bytes()
        assert (job.folder / "molforma.movecs").is_file()
        results = read_results(job.folder)
        assert results.summary.finalEnergy == pytest.approx(rec["finalEnergy"], abs=1e-8)
        assert results.summary.scfConverged is True
    finally:
        manager.stop_all()


def test_cancel_runs_qdel_and_slurm_no_longer_lists_the_job(
    rig: SshRig, no_local_slurm: None, tmp_path: Path, slurm_cluster: Any
) -> None:
    _prefs(_pbs(rig, nwchem_command=STAND_IN, environment_lines=["export FAKE_NWCHEM_MODE=hang"]))
    manager = JobManager()
    job = manager.start(_water(tmp_path / "jobs"))
    try:
        _wait(lambda: job.status == "running")
        _wait(lambda: "Total SCF energy" in (job.folder / "output.out").read_text())
        native = job.snapshot()["nativeId"]
        assert slurm_cluster.job_state(native) == "RUNNING"
        assert job.cancel_and_wait(20)
        assert job.status == "cancelled"
        assert slurm_cluster.job_state(native) == "CANCELLED"
        listed = slurm_cluster.run(
            "squeue", "-h", "-j", native, "-t", "PD,R,CG", check=False
        ).stdout
        assert listed.strip() == ""
        pid = json.loads(
            (Path(job.snapshot()["remote"]["folder"]) / "fake_nwchem.info").read_text()
        )["pid"]
        _wait(
            lambda: (
                not Path(f"/proc/{pid}").exists()
                or Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] == "Z"
            ),
            10,
        )
    finally:
        if job.status not in ("finished", "failed", "cancelled", "timed_out"):
            job.cancel_and_wait(20)
        manager.stop_all()


@pytest.mark.parametrize(
    "queue",
    ["debug;touch {canary}", "debug$(touch {canary})", "debug`touch {canary}`", "debug -W x"],
)
def test_a_queue_with_shell_characters_is_refused_and_runs_nothing(
    rig: SshRig, no_local_slurm: None, tmp_path: Path, queue: str
) -> None:
    canary = tmp_path / "canary"
    value = queue.format(canary=canary)
    before = set(rig.remote_folder.iterdir()) if rig.remote_folder.exists() else set()
    # In the profile: the whole preferences file is refused, no profile exists.
    _prefs(_pbs(rig, partition=value))
    assert load_preferences() == Preferences()
    # As the job's own queue (execution partition) with a good profile.
    _prefs(_pbs(rig))
    with pytest.raises(MolFormaError) as info:
        JobManager().start(_water(tmp_path / "jobs", partition=value))
    assert info.value.code == "bad_slurm_name"
    assert not canary.exists()
    assert not (tmp_path / "jobs").exists() or not list((tmp_path / "jobs").iterdir())
    after = set(rig.remote_folder.iterdir()) if rig.remote_folder.exists() else set()
    assert after == before


def test_a_pbs_profile_refuses_slurm_only_settings_before_anything_is_written(
    rig: SshRig, no_local_slurm: None, tmp_path: Path
) -> None:
    _prefs(_pbs(rig))
    for extra in ({"qos": "high"}, {"batch_directives": ["--mem=1G"]}):
        with pytest.raises(MolFormaError) as info:
            JobManager().start(_water(tmp_path / "jobs", **extra))
        assert info.value.code == "remote_submit_refused"
        assert "pbs" in info.value.message("en")
    assert not (tmp_path / "jobs").exists() or not list((tmp_path / "jobs").iterdir())


def test_the_pbs_profile_shown_in_the_docs_is_read_as_it_is_stored() -> None:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)
    pbs = [parse_preferences(b).profile("torque") for b in blocks]
    found = [p for p in pbs if p is not None]
    assert found and found[0].scheduler == "pbs" and found[0].partition == "batch"


def test_test_connection_of_a_pbs_profile_asks_qstat(rig: SshRig, no_local_slurm: None) -> None:
    from molforma.jobs.remote import test_connection
    from molforma.preferences import ClusterProfile

    ok = test_connection(ClusterProfile.model_validate(_pbs(rig)))
    assert ok == {"profile": "pbsrig", "reachable": True, "partitions": []}
    gone = test_connection(ClusterProfile.model_validate(_pbs(rig, host="molforma-rig-refused")))
    assert gone["reachable"] is False and gone["error"]
