"""get_results over the real server: excitations, orbitals, charges and the chemistry summary."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import FIXTURES, TASKS, McpProcess, wait_until

TASK_CAPS = {"extensions": {TASKS: {}}}


def _wait_task(server: McpProcess, task_id: str, timeout: float = 180) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        t = server.result("tasks/get", {"taskId": task_id}, caps=TASK_CAPS)
        return t if t["status"] in ("completed", "failed", "cancelled") else None

    return wait_until(done, timeout, 0.5)  # type: ignore[no-any-return]


def _open(server: McpProcess, doc_id: str, rev: str, path: Path) -> None:
    server.ok(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "open_file", "path": str(path)},
    )
    wait_until(
        lambda: (
            server.ok("get_app_state", {})["results"].get(doc_id, {}).get("source") == str(path)
        ),
        60,
    )


def test_get_results_serves_tddft_excitations_orbitals_and_the_frontier_gap(
    server: McpProcess,
) -> None:
    doc_id, rev = server.doc()
    _open(server, doc_id, rev, FIXTURES / "water_b3lyp_tddft.out")
    ex = server.ok("get_results", {"documentId": doc_id, "section": "excitations"})
    assert ex["total"] == 6
    first = ex["items"][0]
    assert (first["spin"], first["symmetry"]) == ("singlet", "b2")
    assert first["energyEv"] == pytest.approx(8.0231, abs=1e-4)
    assert first["wavelengthNm"] == pytest.approx(154.53, abs=0.01)
    assert first["oscillatorStrength"] == pytest.approx(0.0143853823)
    orbs = server.ok("get_results", {"documentId": doc_id, "section": "orbitals", "limit": 5})
    assert orbs["total"] == 19 and len(orbs["items"]) == 5 and orbs["nextOffset"] == 5
    assert orbs["homo"] == pytest.approx(-0.2917079) and orbs["gap"] == pytest.approx(0.35744093)
    summary = server.ok("get_results", {"documentId": doc_id})["summary"]
    assert summary["excitationCount"] == 6 and summary["multiplicity"] == 1
    assert summary["gapEv"] == pytest.approx(9.7265, abs=1e-3)


def test_get_results_summary_of_a_ccsd_t_run_and_of_a_radical(server: McpProcess) -> None:
    doc_id, rev = server.doc()
    _open(server, doc_id, rev, FIXTURES / "water_ccsdt.out")
    s = server.ok("get_results", {"documentId": doc_id})["summary"]
    assert s["finalEnergyLevel"] == "ccsd(t)"
    assert s["finalEnergy"] == pytest.approx(-76.120349855891646, abs=1e-10)
    _open(server, doc_id, rev, FIXTURES / "oh_uhf.out")
    s = server.ok("get_results", {"documentId": doc_id})["summary"]
    assert (s["multiplicity"], s["wavefunction"], s["s2"]) == (2, "UHF", 0.7553)
    assert s["spinContaminated"] is False
    charges = server.ok("get_results", {"documentId": doc_id, "section": "charges"})
    assert [c["element"] for c in charges["items"]] == ["O", "H"]
    assert charges["items"][0]["mullikenSpin"] == pytest.approx(1.05)


@pytest.mark.nwchem
def test_a_real_job_with_the_properties_setting_gives_a_dipole_and_charges(
    server: McpProcess,
) -> None:
    if shutil.which("nwchem") is None:
        pytest.fail("NWChem is not installed")
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
        "set_advanced",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"properties": True},
        },
    )["revision"]
    res = server.call(
        "calculation",
        {"documentId": doc_id, "expectedRevision": rev, "action": "start"},
        caps=TASK_CAPS,
    )
    done = _wait_task(server, res["taskId"])
    sc = done["result"]["structuredContent"]
    assert sc["status"] == "finished", sc
    folder = Path(sc["jobDirectory"])
    text = (folder / "input.nw").read_text()
    assert "property\n  dipole\n  quadrupole\n  mulliken\nend" in text
    assert "task scf property" in text
    load = server.call(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "open_directory",
            "path": str(folder),
        },
        caps=TASK_CAPS,
    )
    assert (
        _wait_task(server, load["taskId"], 60)["result"]["structuredContent"]["status"]
        == "completed"
    )
    s = server.ok("get_results", {"documentId": doc_id})["summary"]
    m = s["moments"]
    assert m["source"] == "property" and m["dipoleDebye"] > 1.0
    assert len(m["dipole"]) == 3 and set(m["quadrupole"]) == {"xx", "yy", "zz", "xy", "xz", "yz"}
    charges = server.ok("get_results", {"documentId": doc_id, "section": "charges"})
    assert [c["element"] for c in charges["items"]] == ["O", "H", "H"]
    q = [c["mulliken"] for c in charges["items"]]
    assert q[0] < 0 < q[1] and sum(q) == pytest.approx(0.0, abs=1e-3)
