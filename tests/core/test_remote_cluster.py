"""Remote SLURM jobs through a real sshd in front of a real single-node SLURM.

The rig (tests/ssh_rig.py) listens on 127.0.0.1 with its own host and client keys; its
sshd hands SLURM_CONF to the sessions, while this process runs WITHOUT SLURM_CONF, so
the jobs reach SLURM only through ssh. The remote work folder lies outside the local
job root, so every result read here was fetched.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from molforma.app.ops import add_atoms
from molforma.document.document import Document
from molforma.errors import CalculationError
from molforma.jobs.manager import JobManager
from molforma.preferences import preferences_path
from molforma.results import read_results
from tests.core.conftest import WATER
from tests.ssh_rig import (
    REFUSED_ALIAS,
    UNAUTHORIZED_ALIAS,
    UNTRUSTED_ALIAS,
    SshRig,
    started_rig,
)

pytestmark = [pytest.mark.slurm, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
STAND_IN = f"{sys.executable} {REPO / 'tests' / 'stand_in' / 'fake_nwchem.py'}"


@pytest.fixture(scope="module")
def rig(slurm_cluster: Any) -> Iterator[SshRig]:
    yield from started_rig(slurm_cluster)


@pytest.fixture(scope="module", autouse=True)
def timed_job(rig: SshRig, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A job that never ends, submitted with a 60 s limit before the module's first test,
    so its minute passes while the others run (the last test checks its end)."""
    base = tmp_path_factory.mktemp("timed")
    manager = JobManager()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MOLFORMA_CONFIG_DIR", str(base / "config"))
        mp.delenv("SLURM_CONF", raising=False)
        _prefs(
            rig.profile(nwchem_command=STAND_IN, environment_lines=["export FAKE_NWCHEM_MODE=hang"])
        )
        job = manager.start(_water(base / "jobs", time_limit=60, partition="short"))
    try:
        yield job
    finally:
        if job.status not in ("finished", "failed", "cancelled", "timed_out"):
            job.cancel_and_wait(20)
        manager.stop_all()


@pytest.fixture
def no_local_slurm(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process cannot reach the cluster by itself: only through ssh."""
    monkeypatch.delenv("SLURM_CONF", raising=False)


def _prefs(*profiles: dict[str, Any]) -> None:
    path = preferences_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"scheduler": "slurm", "profiles": list(profiles)}))


def _water(root: Path, profile: str = "rig", **execution: Any) -> dict[str, Any]:
    doc = Document()
    add_atoms(doc, WATER, [{"a": "#0", "b": "#1"}, {"a": "#0", "b": "#2"}], preview=False)
    project = doc.project
    project["calculation"].update(task="energy", theory="scf", basis="sto-3g")
    project["execution"].update(
        scheduler="slurm", remote_profile=profile, job_root=str(root), **execution
    )
    return project


def _wait(cond: Any, timeout: float = 60.0) -> Any:
    end = time.monotonic() + timeout
    while not (value := cond()):
        assert time.monotonic() < end, "condition not met in time"
        time.sleep(0.1)
    return value


@pytest.mark.nwchem
def test_water_scf_runs_on_the_remote_cluster_and_its_results_are_read_at_home(
    rig: SshRig, no_local_slurm: None, tmp_path: Path
) -> None:
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed")
    _prefs(rig.profile())
    seen: list[tuple[str, Any]] = []
    manager = JobManager(
        on_change=lambda j: seen.append((j.status, j.snapshot()["progress"].get("scfIteration")))
    )
    job = manager.start(_water(tmp_path / "jobs"))
    try:
        assert job.wait(120)
        rec = job.snapshot()
        assert rec["status"] == "finished", rec
        assert rec["exitCode"] == 0 and rec["schedulerState"] == "COMPLETED"
        assert rec["finalEnergy"] == pytest.approx(-74.963, abs=1e-3)
        remote_folder = Path(rec["remote"]["folder"])
        # <id>, or <id>-2 when the module's other job took the name in the same second.
        assert rec["remote"]["folder"] in (
            str(rig.remote_folder / job.id),
            str(rig.remote_folder / f"{job.id}-2"),
        )
        assert rec["remote"] == {
            "profile": "rig",
            "host": "molforma-rig",
            "folder": rec["remote"]["folder"],
        }
        assert rec["nativeId"].isdigit() and rec["survivesExit"] is True
        # The files are home: the local folder is not the remote one and holds the output.
        assert remote_folder.is_dir() and remote_folder != job.folder
        assert not str(remote_folder).startswith(str(tmp_path))
        local = (job.folder / "output.out").read_bytes()
        assert local == (remote_folder / "output.out").read_bytes()
        assert (job.folder / "molforma.movecs").is_file()
        assert "molforma.movecs" in os.listdir(remote_folder)
        # Live progress went through the same tracker as local runs, while running.
        assert any(status == "running" and it for status, it in seen)
        results = read_results(job.folder)
        assert results.summary.finalEnergy == pytest.approx(rec["finalEnergy"], abs=1e-8)
        assert results.summary.scfConverged is True
    finally:
        manager.stop_all()


def test_cancel_runs_scancel_and_the_job_leaves_the_queue(
    rig: SshRig, no_local_slurm: None, tmp_path: Path, slurm_cluster: Any
) -> None:
    _prefs(rig.profile(nwchem_command=STAND_IN, environment_lines=["export FAKE_NWCHEM_MODE=hang"]))
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
        # the stand-in's process on the "remote" machine is gone
        pid_file = Path(job.snapshot()["remote"]["folder"]) / "fake_nwchem.info"
        pid = json.loads(pid_file.read_text())["pid"]
        _wait(
            lambda: (
                not Path(f"/proc/{pid}").exists()
                or Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] == "Z"
            ),
            10,
        )
    finally:
        manager.stop_all()


def test_a_new_manager_reattaches_from_the_record_and_brings_the_results_home(
    rig: SshRig, no_local_slurm: None, tmp_path: Path, slurm_cluster: Any
) -> None:
    _prefs(
        rig.profile(
            nwchem_command=STAND_IN,
            environment_lines=["export FAKE_NWCHEM_MODE=converge", "export FAKE_NWCHEM_DELAY=0.2"],
        )
    )
    first = JobManager()
    job = first.start(_water(tmp_path / "jobs"))
    native = job.snapshot()["nativeId"]
    first.stop_all()  # this "MolForma" ends: the job is left to the cluster
    assert job.status in ("queued", "running")
    assert json.loads((job.folder / "job.json").read_text())["status"] in ("queued", "running")
    assert slurm_cluster.job_state(native) in ("PENDING", "RUNNING", "COMPLETED")
    second = JobManager()
    try:
        found = second.reattach(tmp_path / "jobs")
        assert [j.id for j in found] == [job.id]
        again = found[0]
        assert again.wait(120)
        rec = again.snapshot()
        assert rec["status"] == "finished", rec
        assert rec["nativeId"] == native and rec["optimizationConverged"] is None
        text = (again.folder / "output.out").read_text()
        assert text == (Path(rec["remote"]["folder"]) / "output.out").read_text()
        assert "Optimization converged" in text
        assert (again.folder / "fake_nwchem.info").is_file()  # fetched home
        # the record on disk agrees, and a third manager finds nothing left to follow
        assert json.loads((again.folder / "job.json").read_text())["status"] == "finished"
        assert JobManager().reattach(tmp_path / "jobs") == []
    finally:
        second.stop_all()


def test_a_job_folder_name_another_molforma_took_on_the_cluster_is_never_written_into(
    rig: SshRig, no_local_slurm: None, tmp_path: Path
) -> None:
    # Two computers submitting water in the same second name their remote folders alike:
    # the second takes <id>-2 (the first's folder untouched), and re-attaching follows it.
    import datetime

    _prefs(
        rig.profile(
            nwchem_command=STAND_IN,
            environment_lines=["export FAKE_NWCHEM_MODE=converge", "export FAKE_NWCHEM_DELAY=0.2"],
        )
    )
    now = datetime.datetime.now()
    taken = []
    for dt in range(-2, 8):
        stamp = (now + datetime.timedelta(seconds=dt)).strftime("%Y%m%d-%H%M%S")
        folder = rig.remote_folder / f"{stamp}-H2O-energy"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "theirs.txt").write_text("another computer's job\n")
        taken.append(folder)
    first = JobManager()
    job = first.start(_water(tmp_path / "jobs"))
    assert rig.remote_folder / job.id in taken  # the name was taken indeed
    rec = job.snapshot()
    assert rec["remote"]["folder"] == str(rig.remote_folder / f"{job.id}-2")
    first.stop_all()
    second = JobManager()
    try:
        (again,) = second.reattach(tmp_path / "jobs")
        assert again.wait(120)
        assert again.snapshot()["status"] == "finished"
        assert (again.folder / "output.out").read_text() == (
            rig.remote_folder / f"{job.id}-2" / "output.out"
        ).read_text()
    finally:
        second.stop_all()
    for folder in taken:
        assert os.listdir(folder) == ["theirs.txt"]


def test_a_connection_lost_while_a_job_runs_is_made_again_and_the_job_followed_to_its_end(
    rig: SshRig, no_local_slurm: None, tmp_path: Path
) -> None:
    import signal

    from molforma.jobs import ssh

    _prefs(
        rig.profile(
            nwchem_command=STAND_IN,
            environment_lines=["export FAKE_NWCHEM_MODE=converge", "export FAKE_NWCHEM_DELAY=0.2"],
        )
    )
    manager = JobManager()
    job = manager.start(_water(tmp_path / "jobs"))
    try:
        _wait(lambda: job.status == "running")
        masters = [p for p in ssh._masters.values() if p.poll() is None]
        assert masters
        for proc in masters:
            os.kill(proc.pid, signal.SIGKILL)  # the network drops
        assert job.wait(60)
        rec = job.snapshot()
        assert rec["status"] == "finished", rec
        assert "Optimization converged" in (job.folder / "output.out").read_text()
        assert (job.folder / "output.out").read_bytes() == (
            Path(job.snapshot()["remote"]["folder"]) / "output.out"
        ).read_bytes()
        assert [p for p in ssh._masters.values() if p.poll() is None]  # a new login
    finally:
        manager.stop_all()


def test_a_failure_reported_by_nwchem_is_failed_with_its_error_line(
    rig: SshRig, no_local_slurm: None, tmp_path: Path
) -> None:
    _prefs(
        rig.profile(nwchem_command=STAND_IN, environment_lines=["export FAKE_NWCHEM_MODE=crash"])
    )
    manager = JobManager()
    job = manager.start(_water(tmp_path / "jobs"))
    try:
        assert job.wait(60)
        rec = job.snapshot()
        assert rec["status"] == "failed" and rec["exitCode"] == 255
        assert "scf energy failed" in (rec["error"] or "")
    finally:
        manager.stop_all()


def test_nwchems_own_failure_is_failed_although_slurm_says_completed(
    rig: SshRig, no_local_slurm: None, tmp_path: Path, slurm_cluster: Any
) -> None:
    script = tmp_path / "says_failed.sh"
    rule = " " + "-" * 72
    script.write_text(
        "\n".join(
            [
                "echo ' argument  1 = input.nw'",
                f"echo '{rule}'",
                "echo ' scf energy failed                                        0'",
                f"echo '{rule}'",
                "exit 0",
                "",
            ]
        )
    )
    _prefs(rig.profile(nwchem_command=f"sh {script}"))
    manager = JobManager()
    job = manager.start(_water(tmp_path / "jobs"))
    try:
        assert job.wait(60)
        rec = job.snapshot()
        assert rec["schedulerState"] == "COMPLETED" and rec["exitCode"] == 0
        assert slurm_cluster.job_state(rec["nativeId"]) == "COMPLETED"
        assert rec["status"] == "failed", rec
        assert "scf energy failed" in (rec["error"] or "")
    finally:
        manager.stop_all()


def test_an_untrusted_host_key_is_refused_with_how_to_trust_it_and_nothing_is_written(
    rig: SshRig, no_local_slurm: None, tmp_path: Path
) -> None:
    _prefs(rig.profile(name="untrusted", host=UNTRUSTED_ALIAS))
    empty = rig.root / "client" / "known_hosts_empty"
    before = set(os.listdir(rig.remote_folder)) if rig.remote_folder.exists() else set()
    with pytest.raises(CalculationError) as info:
        JobManager().start(_water(tmp_path / "jobs", profile="untrusted"))
    err = info.value
    assert err.code == "ssh_host_key_unknown"
    en, ja = err.message("en"), err.message("ja")
    assert "'untrusted'" in en and "ssh-keyscan" in en
    assert f"ssh -F {rig.ssh_config} {UNTRUSTED_ALIAS} true" in en
    assert "ssh-keyscan" in ja and "untrusted" in ja
    # Never accepted: the known_hosts file stays empty, no job folder here or there.
    assert empty.read_text() == ""
    assert not (tmp_path / "jobs").exists() or not os.listdir(tmp_path / "jobs")
    after = set(os.listdir(rig.remote_folder)) if rig.remote_folder.exists() else set()
    assert after == before


def test_a_refused_connection_names_the_profile(
    rig: SshRig, no_local_slurm: None, tmp_path: Path
) -> None:
    _prefs(rig.profile(name="down", host=REFUSED_ALIAS))
    with pytest.raises(CalculationError) as info:
        JobManager().start(_water(tmp_path / "jobs", profile="down"))
    assert info.value.code == "ssh_refused"
    assert "'down'" in info.value.message("en") and "refused" in info.value.message("en")
    assert not (tmp_path / "jobs").exists() or not os.listdir(tmp_path / "jobs")


def test_a_login_the_server_refuses_is_an_authentication_failure_with_what_to_do(
    rig: SshRig, no_local_slurm: None, tmp_path: Path
) -> None:
    _prefs(rig.profile(name="stranger", host=UNAUTHORIZED_ALIAS))
    with pytest.raises(CalculationError) as info:
        JobManager().start(_water(tmp_path / "jobs", profile="stranger"))
    err = info.value
    assert err.code == "ssh_auth"
    assert "'stranger'" in err.message(
        "en"
    ) and "never asks for or stores a password" in err.message("en")
    assert "パスワード" in err.message("ja")
    assert "stranger_ed25519" not in err.message("en")  # the key file is not named
    assert not (tmp_path / "jobs").exists() or not os.listdir(tmp_path / "jobs")


def test_an_unknown_partition_is_refused_with_the_remote_ones_before_anything_is_written(
    rig: SshRig, no_local_slurm: None, tmp_path: Path
) -> None:
    _prefs(rig.profile())
    with pytest.raises(CalculationError) as info:
        JobManager().start(_water(tmp_path / "jobs", partition="nosuch"))
    assert info.value.code == "slurm_unknown_partition"
    assert "debug" in info.value.message("en") and "short" in info.value.message("en")
    assert not (tmp_path / "jobs").exists() or not os.listdir(tmp_path / "jobs")


def test_a_job_sbatch_refuses_leaves_no_folder_here_or_on_the_cluster(
    rig: SshRig, no_local_slurm: None, tmp_path: Path
) -> None:
    _prefs(rig.profile())
    before = set(os.listdir(rig.remote_folder))
    with pytest.raises(CalculationError) as info:
        JobManager().start(_water(tmp_path / "jobs", nodes=3))
    assert info.value.code == "remote_submit_refused"
    assert "'rig'" in info.value.message("en") and "nodes" in info.value.message("en")
    assert "ノード" in info.value.message("ja") or "nodes" in info.value.message("ja")
    assert not (tmp_path / "jobs").exists() or not os.listdir(tmp_path / "jobs")
    assert set(os.listdir(rig.remote_folder)) == before


def test_test_connection_lists_the_remote_partitions(rig: SshRig, no_local_slurm: None) -> None:
    from molforma.jobs.remote import test_connection
    from molforma.preferences import ClusterProfile

    ok = test_connection(ClusterProfile(**rig.profile()))
    assert ok["reachable"] is True
    assert {p["name"] for p in ok["partitions"]} == {"debug", "short"}
    bad = test_connection(ClusterProfile(**rig.profile(host=UNTRUSTED_ALIAS)))
    assert bad["reachable"] is False and bad["error"] == "ssh_host_key_unknown"
    # get_execution's cluster entry for a job going to a profile
    from molforma.jobs.remote import cluster_info

    _prefs(rig.profile())
    info = cluster_info("rig")
    assert info["reachable"] is True and info["profile"] == "rig"
    assert {p["name"] for p in info["partitions"]} == {"debug", "short"}
    assert cluster_info("nosuch")["error"] == "remote_profile_unknown"


def test_a_waiting_job_is_queued_with_the_schedulers_reason_and_files_come_home_on_demand(
    rig: SshRig, no_local_slurm: None, tmp_path: Path, slurm_cluster: Any
) -> None:
    from tests.slurm_cluster import NODE_CPUS

    _prefs(rig.profile(nwchem_command=STAND_IN, environment_lines=["export FAKE_NWCHEM_MODE=hang"]))
    manager = JobManager()
    big = manager.start(_water(tmp_path / "jobs"))
    waiting = None
    try:
        _wait(lambda: big.status == "running")
        # the whole node: it cannot start while another job holds a CPU
        waiting = manager.start(_water(tmp_path / "jobs", threads=NODE_CPUS))
        rec = _wait(lambda: (r := waiting.snapshot())["queueReason"] and r, 30)
        assert rec["status"] == "queued" and rec["schedulerState"] == "PENDING"
        assert rec["queueReason"] == "Resources"
        assert slurm_cluster.job_state(rec["nativeId"]) == "PENDING"
        # While the first job runs, its files can be brought home on demand.
        _wait(lambda: (rig.remote_folder / big.id / "fake_nwchem.info").exists())
        assert not (big.folder / "fake_nwchem.info").exists()
        fetched = big.fetch()
        assert "fake_nwchem.info" in fetched and "output.out" not in fetched
        assert (big.folder / "fake_nwchem.info").read_bytes() == (
            rig.remote_folder / big.id / "fake_nwchem.info"
        ).read_bytes()
    finally:
        for job in (waiting, big):
            if job is not None:
                job.cancel_and_wait(20)
        manager.stop_all()
    assert big.status == "cancelled" and waiting is not None and waiting.status == "cancelled"


def test_a_job_past_its_time_limit_is_timed_out_by_the_scheduler(
    timed_job: Any, slurm_cluster: Any
) -> None:
    """Last in the module: the job submitted before the first test with a 60 s limit."""
    assert timed_job.wait(150)
    rec = timed_job.snapshot()
    assert rec["status"] == "timed_out", rec
    assert rec["schedulerState"] == "TIMEOUT" and "time limit of 60" in rec["error"]
    assert slurm_cluster.job_state(rec["nativeId"]) == "TIMEOUT"
    assert json.loads((timed_job.folder / "job.json").read_text())["status"] == "timed_out"
