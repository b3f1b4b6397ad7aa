"""Constraints and a relaxed scan over the real ``molforma --mcp``: set_nwchem sets them
(refusals in the display language, nothing changed), the calculation runs them with the
real NWChem and get_results lists the profile (section scan)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.core.test_constraints_scan_run import ETHANE, ETHANE_BONDS, HCCH
from tests.mcp.conftest import TASKS, McpProcess, wait_until

TASK_CAPS = {"extensions": {TASKS: {}}}


def set_nwchem(server: McpProcess, doc_id: str, rev: str, values: dict[str, Any]) -> dict[str, Any]:
    return server.call(
        "set_nwchem",
        {"documentId": doc_id, "expectedRevision": rev, "preview": False, "values": values},
    )


def ethane(server: McpProcess) -> tuple[str, str]:
    doc_id, rev = server.doc()
    atoms = [{"element": el, "position": [x, y, z]} for el, x, y, z in ETHANE]
    bonds = [
        {"a": f"#{int(a[1:]) - 1}", "b": f"#{int(b[1:]) - 1}", "order": 1} for a, b in ETHANE_BONDS
    ]
    s = server.ok(
        "add_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "atoms": atoms,
            "bonds": bonds,
            "preview": False,
        },
    )
    return doc_id, s["revision"]


@pytest.mark.parametrize(
    ("values", "code"),
    [
        ({"constraints": [{"atoms": ["a1", "a9"], "value": 1.5}]}, "constraint_unknown_atom"),
        ({"constraints": [{"atoms": ["a1", "a2"], "value": -1.0}]}, "constraint_bad_value"),
        ({"scan": {"atoms": HCCH, "end": 180.0, "steps": 3}}, "scan_needs_optimize"),
        (
            {"scan": {"atoms": HCCH, "end": 180.0, "steps": 500}, "task": "optimize"},
            "scan_bad_steps",
        ),
    ],
)
def test_bad_constraints_are_refused_with_their_reason_and_nothing_changes(
    server: McpProcess, values: dict[str, Any], code: str
) -> None:
    doc_id, rev = ethane(server)
    before = server.project(doc_id)
    res = set_nwchem(server, doc_id, rev, values)
    assert res["isError"] is True
    assert res["structuredContent"]["code"] == code
    assert server.project(doc_id) == before
    assert server.doc()[1] == rev


def test_the_refusal_is_in_japanese_when_the_display_language_is(spawn: Any) -> None:
    server = spawn(env={"MOLFORMA_LANGUAGE": "ja"})
    doc_id, rev = ethane(server)
    res = set_nwchem(server, doc_id, rev, {"constraints": [{"atoms": ["a1", "a9"]}]})
    assert res["structuredContent"]["code"] == "constraint_unknown_atom"
    assert "分子にありません" in res["structuredContent"]["message"]


def test_a_constraint_without_a_value_holds_the_current_one_and_the_input_shows_it(
    server: McpProcess,
) -> None:
    doc_id, rev = ethane(server)
    set_nwchem(server, doc_id, rev, {"task": "optimize", "constraints": [{"atoms": ["a1", "a2"]}]})
    calc = server.project(doc_id)["calculation"]
    assert calc["constraints"] == [
        {"kind": "distance", "atoms": ["a1", "a2"], "value": pytest.approx(1.54)}
    ]
    nw = server.ok("export_document", {"documentId": doc_id, "format": "nwchem"})["text"]
    assert "    bond 1 2 1.540000 c1 constant" in nw


def _wait_task(server: McpProcess, task_id: str, timeout: float = 300) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        t = server.result("tasks/get", {"taskId": task_id}, caps=TASK_CAPS)
        return t if t["status"] in ("completed", "failed", "cancelled") else None

    return wait_until(done, timeout, 0.5)  # type: ignore[no-any-return]


@pytest.mark.nwchem
def test_a_torsion_scan_set_up_and_run_over_mcp_lists_its_profile(server: McpProcess) -> None:
    if shutil.which("nwchem") is None:
        pytest.fail("NWChem is not installed")
    doc_id, rev = ethane(server)
    rev = server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {
                "task": "optimize",
                "theory": "scf",
                "basis": "sto-3g",
                "scan": {"atoms": HCCH, "start": 0.0, "end": 120.0, "steps": 2},
            },
        },
    )["revision"]
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
    page = server.ok("get_results", {"documentId": doc_id, "section": "scan"})
    assert (page["coordinate"], page["atomNumbers"], page["planned"]) == (
        "dihedral",
        [3, 1, 2, 6],
        3,
    )
    points = page["items"]
    assert [p["target"] for p in points] == [0.0, 60.0, 120.0]
    assert all(p["converged"] for p in points)
    assert [p["value"] for p in points] == pytest.approx([0.0, 60.0, 120.0], abs=0.01)
    # Staggered lowest; each eclipsed end 2.87 kcal/mol above (SCF/STO-3G).
    assert [p["relativeKcal"] for p in points] == pytest.approx([2.87, 0.0, 2.87], abs=0.02)


def test_the_window_tools_set_a_scan_through_the_geometry_editor(spawn: Any) -> None:
    from tests.mcp.conftest import GUI_ENV, run_window_command

    server = spawn(env=GUI_ENV, flag="--mcp-gui")
    doc_id, _rev = ethane(server)
    assert (
        run_window_command(server, "ui_select", {"target": "moleculeView", "atomIds": HCCH})[
            "status"
        ]
        == "done"
    )
    assert (
        run_window_command(server, "ui_set_value", {"target": "scanEndInput", "value": "120"})[
            "status"
        ]
        == "done"
    )
    assert (
        run_window_command(server, "ui_set_value", {"target": "scanStepsSpin", "value": 3})[
            "status"
        ]
        == "done"
    )
    rec = run_window_command(server, "ui_activate", {"target": "scanCoordinateButton"})
    assert rec["status"] == "done", rec
    scan = server.project(doc_id)["calculation"]["scan"]
    assert (scan["atoms"], scan["end"], scan["steps"]) == (HCCH, 120.0, 3)
    # A refusal is the command's outcome, with the reason, and changes nothing.
    before = server.project(doc_id)
    run_window_command(server, "ui_set_value", {"target": "scanEndInput", "value": "999"})
    rec = run_window_command(server, "ui_activate", {"target": "scanCoordinateButton"})
    assert rec["status"] == "failed" and "is not a number in" in str(rec), rec
    assert server.project(doc_id) == before
