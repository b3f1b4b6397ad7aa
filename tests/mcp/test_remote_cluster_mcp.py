"""Remote cluster jobs over MCP: the real ``molforma --mcp`` against a real sshd in front of
the real single-node SLURM (tests/ssh_rig.py, tests/slurm_cluster.py).

The spawned servers run WITHOUT ``SLURM_CONF``: they reach SLURM only through ssh. The
profile is the person's, in Preferences; MCP chooses it for a job through the project's
execution setting ``remote_profile`` (a project opened with ``open_file``), and never
sees a key or a secret.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import REPO, McpProcess, wait_until
from tests.ssh_rig import UNTRUSTED_ALIAS, SshRig, started_rig

pytestmark = [pytest.mark.slurm, pytest.mark.slow]

STAND_IN = f"{sys.executable} {REPO / 'tests' / 'stand_in' / 'fake_nwchem.py'}"


@pytest.fixture(scope="module")
def rig(slurm_cluster: Any) -> Iterator[SshRig]:
    yield from started_rig(slurm_cluster)


class Recorder:
    """Every reply of a server, kept to look for secrets afterwards."""

    def __init__(self, server: McpProcess) -> None:
        self.server = server
        self.replies: list[str] = []

    def ok(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        out = self.server.ok(name, args)
        self.replies.append(json.dumps(out, ensure_ascii=False))
        return out

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        out = self.server.call(name, args)
        self.replies.append(json.dumps(out, ensure_ascii=False))
        return out

    def err(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        out = self.server.err(name, args)
        self.replies.append(json.dumps(out, ensure_ascii=False))
        return out


def _setup(mcp_env: dict[str, str], rig: SshRig, **profile: Any) -> None:
    mcp_env.pop("SLURM_CONF", None)  # MolForma reaches the cluster only through ssh
    cfg = Path(mcp_env["MOLFORMA_CONFIG_DIR"])
    (cfg / "preferences.json").write_text(
        json.dumps({"scheduler": "slurm", "profiles": [rig.profile(**profile)]})
    )


def _remote_project(
    rec: Recorder, tmp_path: Path, jobs: Path, profile: str = "rig"
) -> tuple[str, str]:
    """Water SCF/STO-3G whose execution names ``profile``, opened from a project file."""
    server = rec.server
    doc_id, rev = server.water()
    rev = rec.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"task": "energy", "theory": "scf", "basis": "sto-3g"},
        },
    )["revision"]
    rev = rec.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"job_root": str(jobs)},
        },
    )["revision"]
    path = tmp_path / "water.molforma.json"
    rec.ok("save_file", {"documentId": doc_id, "path": str(path), "overwrite": True})
    data = json.loads(path.read_text())
    data["execution"]["remote_profile"] = profile
    path.write_text(json.dumps(data))
    rev = rec.server.doc()[1]
    return doc_id, rec.ok(
        "open_file",
        {"documentId": doc_id, "expectedRevision": rev, "path": str(path), "preview": False},
    )["revision"]


def _calc(rec: Recorder) -> dict[str, Any]:
    return rec.ok("get_app_state", {})["calculation"]


@pytest.mark.nwchem
def test_water_through_a_profile_over_mcp_with_results_at_home_and_no_secret_in_any_reply(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, rig: SshRig
) -> None:
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed")
    _setup(mcp_env, rig)
    rec = Recorder(spawn())
    jobs = tmp_path / "jobs"
    doc_id, rev = _remote_project(rec, tmp_path, jobs)
    ex = rec.ok("get_execution", {"documentId": doc_id})
    assert ex["execution"]["remote_profile"] == "rig" and ex["trusted"] is True
    started = rec.ok(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    assert started["job"]["remote"]["profile"] == "rig"
    final = wait_until(
        lambda: (c := _calc(rec))["status"] in ("finished", "failed") and c, 120, 0.2
    )
    record = final["record"]
    assert final["status"] == "finished", record
    assert record["finalEnergy"] == pytest.approx(-74.963, abs=1e-3)
    folder = Path(final["jobDirectory"])
    assert folder.parent == jobs
    assert record["remote"]["folder"] == str(rig.remote_folder / folder.name)
    assert (folder / "output.out").read_bytes() == (
        rig.remote_folder / folder.name / "output.out"
    ).read_bytes()
    rev = rec.server.doc()[1]
    rec.ok(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "open_directory",
            "path": str(folder),
        },
    )
    summary = wait_until(
        lambda: (
            (s := rec.call("get_results", {"documentId": doc_id, "section": "summary"}))["isError"]
            is False
            and s
        ),
        30,
    )
    assert summary["structuredContent"]["summary"]["finalEnergy"] == pytest.approx(
        record["finalEnergy"], abs=1e-6
    )
    # No key, no key path, no ssh_config text in any reply.
    config_text = rig.ssh_config.read_text()
    for reply in rec.replies:
        for secret in rig.secrets():
            assert secret not in reply
        assert config_text not in reply


def test_an_untrusted_host_over_mcp_is_refused_with_how_to_trust_it_and_no_key_shown(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, rig: SshRig
) -> None:
    _setup(mcp_env, rig, host=UNTRUSTED_ALIAS)
    rec = Recorder(spawn())
    jobs = tmp_path / "jobs"
    doc_id, rev = _remote_project(rec, tmp_path, jobs)
    err = rec.err("calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"})
    assert err["code"] == "ssh_host_key_unknown", err
    assert "ssh-keyscan" in err["message"] and "'rig'" in err["message"]
    assert not jobs.exists() or list(jobs.iterdir()) == []
    assert (rig.root / "client" / "known_hosts_empty").read_text() == ""
    for reply in rec.replies:
        for secret in rig.secrets():
            assert secret not in reply


def test_a_hostile_profile_name_in_a_project_is_refused_and_runs_nothing(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, rig: SshRig
) -> None:
    _setup(mcp_env, rig)
    rec = Recorder(spawn())
    canary = tmp_path / "canary"
    doc_id, rev = rec.server.water()
    path = tmp_path / "hostile.molforma.json"
    rec.ok("save_file", {"documentId": doc_id, "path": str(path), "overwrite": True})
    data = json.loads(path.read_text())
    data["execution"].update(scheduler="slurm", remote_profile=f"rig;touch {canary}")
    path.write_text(json.dumps(data))
    err = rec.err(
        "open_file",
        {"documentId": doc_id, "expectedRevision": rev, "path": str(path), "preview": False},
    )
    assert "profile" in err["message"], err
    assert (
        rec.ok("get_execution", {"documentId": doc_id})["execution"].get("remote_profile") is None
    )
    assert not canary.exists()


def test_a_remote_job_outlives_the_server_and_a_new_one_reattaches_and_fetches_it(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, rig: SshRig, slurm_cluster: Any
) -> None:
    _setup(
        mcp_env,
        rig,
        nwchem_command=STAND_IN,
        environment_lines=["export FAKE_NWCHEM_MODE=converge", "export FAKE_NWCHEM_DELAY=0.3"],
    )
    first = Recorder(spawn())
    jobs = tmp_path / "jobs"
    doc_id, rev = _remote_project(first, tmp_path, jobs)
    started = first.ok(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    native = started["job"]["nativeId"]
    folder = Path(started["jobDirectory"])
    assert first.server.close(15) == 0  # stdin closed: the server ends, the job does not
    assert slurm_cluster.job_state(native) in ("PENDING", "RUNNING", "COMPLETING", "COMPLETED")
    assert json.loads((folder / "job.json").read_text())["status"] in ("queued", "running")

    second = Recorder(spawn())
    doc2, rev2 = second.server.doc()
    second.ok(
        "set_execution",
        {
            "documentId": doc2,
            "expectedRevision": rev2,
            "preview": False,
            "values": {"job_root": str(jobs)},
        },
    )
    attached = wait_until(lambda: (c := _calc(second)) and c, 30)
    assert attached["jobDirectory"] == str(folder)
    assert attached["record"]["nativeId"] == native
    ended = wait_until(
        lambda: (c := _calc(second))["status"] in ("finished", "failed", "cancelled") and c, 90, 0.2
    )
    assert ended["status"] == "finished", ended["record"]
    assert ended["record"]["progress"]["scfIteration"]  # read from the fetched output
    assert (folder / "fake_nwchem.info").is_file()  # brought home by the new server
    assert "Optimization converged" in (folder / "output.out").read_text()


def _ssh_masters_of(pid: int) -> list[int]:
    """The master ssh connections (``ssh … -N``) a process started."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat[1]) == pid and b"-N" in argv and argv[0].endswith(b"ssh"):
            found.append(int(entry.name))
    return found


def _gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_the_shared_ssh_connection_ends_with_a_killed_server_and_the_job_stays(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, rig: SshRig, slurm_cluster: Any
) -> None:
    import os
    import signal

    _setup(
        mcp_env, rig, nwchem_command=STAND_IN, environment_lines=["export FAKE_NWCHEM_MODE=hang"]
    )
    rec = Recorder(spawn())
    doc_id, rev = _remote_project(rec, tmp_path, tmp_path / "jobs")
    started = rec.ok(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    native = started["job"]["nativeId"]
    try:
        masters = wait_until(lambda: _ssh_masters_of(rec.server.proc.pid), 10)
        os.kill(rec.server.proc.pid, signal.SIGKILL)
        rec.server.proc.wait(10)
        if rec.server.proc.stdin is not None:
            rec.server.proc.stdin.close()
        wait_until(lambda: all(_gone(m) for m in masters), 10)
        # The job belongs to the cluster: it still runs there.
        assert slurm_cluster.job_state(native) in ("PENDING", "RUNNING")
    finally:
        slurm_cluster.run("scancel", native, check=False)
