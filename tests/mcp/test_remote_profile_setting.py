"""Choosing a cluster profile over MCP: ``set_execution remote_profile`` (the real
``molforma --mcp``, the real sshd of tests/ssh_rig.py in front of the real single-node
SLURM). The profile itself is the person's: MCP names one, it never writes one.

The spawned servers run WITHOUT ``SLURM_CONF``: they reach SLURM only through ssh, so a
partition list in ``get_execution`` or a finished job can only come from the profile.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import wait_until
from tests.slurm_cluster import PARTITION
from tests.ssh_rig import SshRig, started_rig

pytestmark = [pytest.mark.slurm, pytest.mark.slow]


@pytest.fixture(scope="module")
def rig(slurm_cluster: Any) -> Iterator[SshRig]:
    yield from started_rig(slurm_cluster)


def _preferences(mcp_env: dict[str, str], rig: SshRig) -> Path:
    mcp_env.pop("SLURM_CONF", None)  # the cluster only through ssh
    path = Path(mcp_env["MOLFORMA_CONFIG_DIR"]) / "preferences.json"
    path.write_text(
        json.dumps(
            {
                "format": "molforma-preferences",
                "version": 1,
                "scheduler": "slurm",
                "profiles": [rig.profile(), rig.profile("other")],
            }
        )
    )
    return path


def _water_scf(server: Any, jobs: Path) -> tuple[str, str]:
    doc_id, rev = server.water()
    rev = server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"task": "energy", "theory": "scf", "basis": "sto-3g"},
        },
    )["revision"]
    rev = server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"job_root": str(jobs)},
        },
    )["revision"]
    return doc_id, rev


def test_set_execution_chooses_a_profile_and_get_execution_asks_that_cluster(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, rig: SshRig
) -> None:
    _preferences(mcp_env, rig)
    server = spawn()
    doc_id, rev = _water_scf(server, tmp_path / "jobs")
    rev = server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"remote_profile": "rig"},
        },
    )["revision"]
    ex = server.ok("get_execution", {"documentId": doc_id})
    assert ex["execution"]["remote_profile"] == "rig"
    cluster = ex["cluster"]
    assert cluster["profile"] == "rig" and cluster["reachable"] is True, cluster
    assert PARTITION in [p["name"] for p in cluster["partitions"]]
    # null clears it like the other nullable keys: the local SLURM again.
    server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"remote_profile": None},
        },
    )
    ex = server.ok("get_execution", {"documentId": doc_id})
    assert ex["execution"]["remote_profile"] is None
    assert ex["cluster"].get("profile") is None


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_unknown_profile_is_refused_with_the_profiles_there_and_nothing_changes(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, rig: SshRig, lang: str
) -> None:
    _preferences(mcp_env, rig)
    mcp_env["MOLFORMA_LANGUAGE"] = lang
    server = spawn()
    doc_id, rev = _water_scf(server, tmp_path / "jobs")
    before = server.ok("get_execution", {"documentId": doc_id})["execution"]
    err = server.err(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"remote_profile": "nowhere"},
        },
    )
    assert err["code"] == "remote_profile_unknown", err
    assert "nowhere" in err["message"] and "rig, other" in err["message"]
    assert ("プロファイル" in err["message"]) == (lang == "ja")
    assert err["details"]["profiles"] == "rig, other"
    after = server.ok("get_execution", {"documentId": doc_id})
    assert after["execution"] == before and after["revision"] == rev


def test_mcp_cannot_write_a_profile_through_set_execution_or_set_advanced(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, rig: SshRig
) -> None:
    prefs = _preferences(mcp_env, rig)
    before = prefs.read_bytes()
    server = spawn()
    doc_id, rev = _water_scf(server, tmp_path / "jobs")
    hostile = rig.profile(
        name="rig", host="attacker-host", environment_lines=[f"export X={tmp_path}"]
    )
    for tool, values in (
        ("set_execution", {"profiles": [hostile]}),
        ("set_execution", {"remote_profile": hostile}),
        ("set_execution", {"job_root": str(prefs.parent)}),
        ("set_advanced", {"profiles": [hostile]}),
        ("set_advanced", {"scratch_dir": str(prefs.parent)}),
    ):
        res = server.call(
            tool,
            {"documentId": doc_id, "expectedRevision": rev, "preview": False, "values": values},
        )
        if res.get("isError") is False:  # a stored key never reaches Preferences
            rev = res["structuredContent"]["revision"]
    assert prefs.read_bytes() == before
    assert sorted(p.name for p in prefs.parent.iterdir()) == ["preferences.json"]
    # The profile MCP may name is still the person's one.
    server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"remote_profile": "rig"},
        },
    )
    assert json.loads(prefs.read_text())["profiles"][0]["host"] == rig.profile()["host"]


@pytest.mark.nwchem
def test_water_through_set_execution_remote_profile_gives_its_energy_in_get_results(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, rig: SshRig
) -> None:
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed")
    _preferences(mcp_env, rig)
    server = spawn()
    jobs = tmp_path / "jobs"
    doc_id, rev = _water_scf(server, jobs)
    rev = server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"remote_profile": "rig"},
        },
    )["revision"]
    started = server.ok(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    assert started["job"]["remote"]["profile"] == "rig"
    final = wait_until(
        lambda: (
            (c := server.ok("get_app_state", {})["calculation"])["status"]
            in ("finished", "failed", "cancelled")
            and c
        ),
        120,
        0.2,
    )
    assert final["status"] == "finished", final["record"]
    folder = Path(final["jobDirectory"])
    assert folder.parent == jobs and (folder / "output.out").is_file()
    summary = wait_until(
        lambda: (
            (s := server.call("get_results", {"documentId": doc_id, "section": "summary"}))[
                "isError"
            ]
            is False
            and s
        ),
        30,
    )
    assert summary["structuredContent"]["summary"]["finalEnergy"] == pytest.approx(
        -74.963, abs=1e-3
    )
