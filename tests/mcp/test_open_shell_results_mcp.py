"""get_results over the real ``molforma --mcp``: HOMO/LUMO/gap per spin channel, spin
populations per atom, a MOLDEN file's orbital list, and the level of the density the
moments come from (an MP2 job's dipole is the SCF density's)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import FIXTURES, TASKS, McpProcess, wait_until

TASK_CAPS = {"extensions": {TASKS: {}}}


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


def test_the_summary_of_a_radical_gives_each_spins_frontier_and_no_mixed_pair(
    server: McpProcess,
) -> None:
    doc_id, rev = server.doc()
    _open(server, doc_id, rev, FIXTURES / "ch3_udft_molden.out")
    s = server.ok("get_results", {"documentId": doc_id})["summary"]
    frontier = {f["spin"]: f for f in s["frontier"]}
    assert set(frontier) == {"alpha", "beta"}
    assert (frontier["alpha"]["homo"], frontier["alpha"]["lumo"]) == (-0.2242485, 0.115963)
    assert (frontier["beta"]["homo"], frontier["beta"]["lumo"]) == (-0.4075285, -0.0479971)
    assert frontier["beta"]["gapEv"] == pytest.approx((-0.0479971 + 0.4075285) * 27.211386)
    assert (s["homo"], s["lumo"]) == (frontier["alpha"]["homo"], frontier["alpha"]["lumo"])
    orbs = server.ok(
        "get_results",
        {
            "documentId": doc_id,
            "section": "orbitals",
            "offset": frontier["beta"]["lumoIndex"],
            "limit": 1,
        },
    )
    [lumo] = orbs["items"]
    assert (lumo["spin"], lumo["energy"], lumo["occupation"]) == ("beta", -0.0479971, 0.0)
    charges = server.ok("get_results", {"documentId": doc_id, "section": "charges"})
    assert [c["mullikenSpin"] for c in charges["items"]] == [1.15533, -0.05178, -0.05178, -0.05178]
    assert s["moments"]["level"] == "dft"


def test_a_molden_file_summary_has_the_same_frontier_as_its_output(server: McpProcess) -> None:
    doc_id, rev = server.doc()
    _open(server, doc_id, rev, FIXTURES / "ch3_udft_molden.molden")
    s = server.ok("get_results", {"documentId": doc_id})["summary"]
    assert s["orbitalCount"] == 42
    beta = next(f for f in s["frontier"] if f["spin"] == "beta")
    assert beta["lumo"] == pytest.approx(-0.0479971, abs=1e-6)


def test_an_mp2_summary_keeps_the_mp2_energy_and_labels_the_scf_dipole(server: McpProcess) -> None:
    doc_id, rev = server.doc()
    _open(server, doc_id, rev, FIXTURES / "water_mp2_property.out")
    s = server.ok("get_results", {"documentId": doc_id})["summary"]
    assert s["finalEnergyLevel"] == "mp2"
    assert s["finalEnergy"] == pytest.approx(-76.199026586480, abs=1e-10)
    assert s["moments"]["level"] == "scf"
    assert s["moments"]["dipoleDebye"] == pytest.approx(2.2260423959)


def _wait_task(server: McpProcess, task_id: str, timeout: float = 300) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        t = server.result("tasks/get", {"taskId": task_id}, caps=TASK_CAPS)
        return t if t["status"] in ("completed", "failed", "cancelled") else None

    return wait_until(done, timeout, 0.5)  # type: ignore[no-any-return]


@pytest.mark.nwchem
def test_a_real_mp2_job_with_properties_reports_mp2_energy_and_the_scf_dipole(
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
            "values": {"task": "energy", "theory": "mp2", "basis": "sto-3g"},
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
    assert "task scf property" in (folder / "input.nw").read_text()
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
    assert s["finalEnergyLevel"] == "mp2"
    assert s["finalEnergy"] == pytest.approx(s["energiesByKind"]["mp2"])
    assert s["finalEnergy"] < s["energiesByKind"]["scf"]
    assert s["moments"]["source"] == "property" and s["moments"]["level"] == "scf"


# -- the Orbitals tab driven over MCP (--mcp-gui, offscreen) ----------------------------------


def _node(server: McpProcess, name: str) -> dict[str, Any]:
    nodes = server.ok("get_ui", {"query": name, "includeHidden": True})["nodes"]
    (found,) = [n for n in nodes if n["objectName"] == name]
    return found


def _gui_with(spawn: Any, tmp_path: Path, fixture: str) -> tuple[McpProcess, Path]:
    from tests.mcp.conftest import GUI_ENV

    molden = tmp_path / fixture
    shutil.copy(FIXTURES / fixture, molden)
    server = spawn("--mcp-allow-dir", str(tmp_path), env=GUI_ENV, flag="--mcp-gui")
    doc_id, rev = server.doc()
    server.ok(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "open_file", "path": str(molden)},
    )
    wait_until(lambda: _node(server, "orbitalSurfaceCombo")["enabled"], 120)
    return server, molden


def test_the_spin_density_is_drawn_through_the_window_tools(spawn: Any, tmp_path: Path) -> None:
    from tests.mcp.conftest import run_window_command

    server, _ = _gui_with(spawn, tmp_path, "ch3_udft_molden.molden")
    rec = run_window_command(
        server, "ui_set_value", {"target": "orbitalSurfaceCombo", "value": "Spin density (α − β)"}
    )
    assert rec["status"] == "done", rec
    assert _node(server, "orbitalIsovalue")["value"] == "0.005"
    rec = run_window_command(server, "ui_activate", {"target": "orbitalShowButton"})
    assert rec["status"] == "done", rec
    text = wait_until(lambda: "2S = 1" in (t := _node(server, "orbitalMessage")["text"]) and t, 120)
    assert "∫(ρα − ρβ) = 1.000" in text or "∫(ρα − ρβ) = 0.99" in text


def test_a_closed_shells_spin_density_is_refused_with_the_reason(
    spawn: Any, tmp_path: Path
) -> None:
    from tests.mcp.conftest import run_window_command

    server, _ = _gui_with(spawn, tmp_path, "methane_b3lyp_molden.molden")
    run_window_command(
        server, "ui_set_value", {"target": "orbitalSurfaceCombo", "value": "Spin density (α − β)"}
    )
    rec = run_window_command(server, "ui_activate", {"target": "orbitalShowButton"})
    assert rec["status"] == "failed", rec
    assert "closed shell" in rec["error"]["message"]
