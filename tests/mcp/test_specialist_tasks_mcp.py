"""Excited states, solvation and transition states over the real ``molforma --mcp``:
set_nwchem sets them up (bad values refused in the display language, nothing changed),
``calculation`` runs them with the real NWChem like any task, and get_results gives the
roots with their transitions, the solvation energy and the transition-state check."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import TASKS, McpProcess, wait_until

TASK_CAPS = {"extensions": {TASKS: {}}}
# HCN -> HNC: the hydrogen half-way round the CN bond, bent start (angstrom).
HCN_BENT = [
    {"element": "C", "position": [0.0, 0.0, 0.0]},
    {"element": "N", "position": [1.18, 0.0, 0.0]},
    {"element": "H", "position": [0.45, 1.1, 0.0]},
]


def _set(server: McpProcess, values: dict[str, Any]) -> dict[str, Any]:
    doc_id, rev = server.doc()
    return server.call(
        "set_nwchem",
        {"documentId": doc_id, "expectedRevision": rev, "values": values, "preview": False},
    )


@pytest.mark.parametrize(
    ("values", "code"),
    [
        ({"solvent": "seawater"}, "unknown_solvent"),
        ({"dielectric": 0.5}, "bad_dielectric"),
        ({"solvent": "water", "dielectric": 4.0}, "solvent_and_dielectric"),
    ],
)
def test_bad_solvent_values_are_refused_and_nothing_changes(
    server: McpProcess, values: dict[str, Any], code: str
) -> None:
    doc_id, _rev = server.water()
    before = server.project(doc_id)["calculation"]
    res = _set(server, values)
    assert res["isError"] is True and res["structuredContent"]["code"] == code, res
    assert server.project(doc_id)["calculation"] == before


def test_bad_excited_state_values_are_refused_by_the_schema(server: McpProcess) -> None:
    doc_id, _rev = server.water()
    before = server.project(doc_id)["calculation"]
    for values in ({"excited_roots": 0}, {"excited_spin": "quartets"}, {"task": "excited"}):
        res = _set(server, values)
        assert res["isError"] is True, res
    assert server.project(doc_id)["calculation"] == before


def test_the_refusal_is_in_japanese_when_the_display_language_is(spawn: Any) -> None:
    server = spawn(env={"MOLFORMA_LANGUAGE": "ja"})
    server.water()
    err = _set(server, {"solvent": "seawater"})["structuredContent"]
    assert err["code"] == "unknown_solvent" and "不明な溶媒「seawater」" in err["message"]
    assert _set(server, {"task": "excited-states", "theory": "mp2"})["isError"] is False
    doc_id, rev = server.doc()
    start = server.call(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    assert start["isError"] is True, start
    assert "励起状態は SCF（CIS・TDHF）か DFT（TDDFT）で計算します" in str(start)


def test_a_solvent_replaces_a_custom_constant_and_the_input_says_so(server: McpProcess) -> None:
    doc_id, _rev = server.water()
    assert _set(server, {"dielectric": 12.5})["isError"] is False
    assert _set(server, {"solvent": "Methanol"})["isError"] is False
    calc = server.project(doc_id)["calculation"]
    assert (calc["solvent"], calc.get("dielectric")) == ("methanol", None)
    nw = str(server.ok("export_document", {"documentId": doc_id, "format": "nwchem"}))
    assert "# solvent: methanol (COSMO)" in nw and "dielec 32.6" in nw
    assert _set(server, {"solvent": None})["isError"] is False
    assert "cosmo" not in str(
        server.ok("export_document", {"documentId": doc_id, "format": "nwchem"})
    )


def _wait_task(server: McpProcess, task_id: str, timeout: float = 300) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        t = server.result("tasks/get", {"taskId": task_id}, caps=TASK_CAPS)
        return t if t["status"] in ("completed", "failed", "cancelled") else None

    return wait_until(done, timeout, 0.5)  # type: ignore[no-any-return]


def _run_and_load(server: McpProcess, doc_id: str, rev: str) -> dict[str, Any]:
    res = server.call(
        "calculation",
        {"documentId": doc_id, "expectedRevision": rev, "action": "start"},
        caps=TASK_CAPS,
    )
    sc = _wait_task(server, res["taskId"])["result"]["structuredContent"]
    assert sc["status"] == "finished", sc
    folder = Path(sc["jobDirectory"])
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
    return sc


@pytest.mark.nwchem
def test_an_excited_state_job_in_solvent_runs_and_reads_roots_and_solvation(
    server: McpProcess,
) -> None:
    if shutil.which("nwchem") is None:
        pytest.fail("NWChem is not installed")
    doc_id, _rev = server.water()
    res = _set(
        server,
        {
            "task": "excited-states",
            "theory": "dft",
            "basis": "sto-3g",
            "excited_roots": 3,
            "excited_method": "tda",
            "solvent": "water",
        },
    )
    assert res["isError"] is False, res
    sc = _run_and_load(server, doc_id, res["structuredContent"]["revision"])
    text = (Path(sc["jobDirectory"]) / "input.nw").read_text()
    assert "task tddft energy" in text and "  cis" in text and "  dielec 78.4" in text
    s = server.ok("get_results", {"documentId": doc_id})["summary"]
    assert s["excitationCount"] == 3 and -0.02 < s["solvationEnergy"] < 0
    roots = server.ok("get_results", {"documentId": doc_id, "section": "excitations"})["items"]
    assert [r["spin"] for r in roots] == ["singlet"] * 3
    first = roots[0]
    assert first["energyEv"] == pytest.approx(1239.84198 / first["wavelengthNm"], rel=1e-4)
    assert first["transitions"] and {"occupied", "virtual", "coefficient"} <= set(
        first["transitions"][0]
    )


@pytest.mark.nwchem
def test_a_transition_state_job_reports_its_one_imaginary_mode(server: McpProcess) -> None:
    if shutil.which("nwchem") is None:
        pytest.fail("NWChem is not installed")
    doc_id, rev = server.doc()
    rev = server.ok(
        "add_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "atoms": HCN_BENT, "preview": False},
    )["revision"]
    res = _set(server, {"task": "transition-state", "theory": "scf", "basis": "sto-3g"})
    assert res["isError"] is False, res
    _run_and_load(server, doc_id, res["structuredContent"]["revision"])
    s = server.ok("get_results", {"documentId": doc_id})["summary"]
    assert s["saddlePoint"] is True and s["significantImaginaryModes"] == 1
    assert s["optimizationConverged"] is True
    assert not any(w["message"].startswith("Not a transition state") for w in s["warnings"])


def test_a_transition_state_with_irc_writes_the_mepgs_block_and_task(server: McpProcess) -> None:
    doc_id, _rev = server.water()
    res = _set(server, {"task": "transition-state", "irc": True})
    assert res["isError"] is False, res
    nw = str(server.ok("export_document", {"documentId": doc_id, "format": "nwchem"}))
    assert "task scf saddle" in nw and "task scf freq" in nw and "task scf mepgs" in nw
    assert "maxmep 60" in nw and "inhess 2" in nw
