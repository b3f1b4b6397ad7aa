"""The chemist's task in one call per intent, headless as in the window: a structure from
SMILES, a force-field clean-up, the optimised structure taken from the results, results
loaded when a calculation ends, and a first run inside the allowed directories."""

from __future__ import annotations

import json
import queue
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import FIXTURES, STAND_IN, TASKS, McpProcess, meta, wait_until

TASK_CAPS = {"extensions": {TASKS: {}}}
GUI_ENV = {"QT_QPA_PLATFORM": "offscreen", "MOLFORMA_RENDERER": "painter"}
OPTIMISATION = FIXTURES / "water_scf_optfreq.out"


def _smiles(server: McpProcess, smiles: str, preview: bool = True) -> dict[str, Any]:
    doc_id, rev = server.doc()
    return server.call(
        "import_document",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "text": smiles,
            "format": "smiles",
            "preview": preview,
        },
    )


def _xyz_rows(text: str) -> list[tuple[str, float, float, float]]:
    lines = text.strip().splitlines()
    n = int(lines[0])
    rows = []
    for line in lines[2 : 2 + n]:
        el, x, y, z = line.split()[:4]
        rows.append((el, float(x), float(y), float(z)))
    return rows


def _wait_task(server: McpProcess, task_id: str, timeout: float = 120) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        t = server.result("tasks/get", {"taskId": task_id}, caps=TASK_CAPS)
        return t if t["status"] in ("completed", "failed", "cancelled") else None

    return wait_until(done, timeout, 0.2)


def _optimise_water(
    server: McpProcess, doc_id: str, rev: str, timeout: float = 120
) -> tuple[dict[str, Any], str]:
    """A real SCF/STO-3G optimisation of the document's water, followed to its end: the
    ended task and the document's revision after setting it up."""
    rev = server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"task": "optimize", "theory": "scf", "basis": "sto-3g"},
        },
    )["revision"]
    res = server.call(
        "calculation",
        {"documentId": doc_id, "expectedRevision": rev, "action": "start"},
        caps=TASK_CAPS,
    )
    return _wait_task(server, res["taskId"], timeout), rev


def _distance(atoms: list[dict[str, Any]], a: str, b: str) -> float:
    pa = next(x for x in atoms if x["id"] == a)
    pb = next(x for x in atoms if x["id"] == b)
    return sum((pa[k] - pb[k]) ** 2 for k in "xyz") ** 0.5


# -- SMILES ------------------------------------------------------------------------------------
def test_import_document_smiles_makes_a_3d_candidate_with_hydrogens(server: McpProcess):
    res = _smiles(server, "CCO")
    assert res["isError"] is False, res
    sc = res["structuredContent"]
    assert sc["candidate"] == {"formula": "C2H6O", "atomCount": 9}
    assert sc["project"]["atomCount"] == 0  # a candidate by default
    cand = server.ok("get_document", {"documentId": server.doc()[0], "include": ["candidate"]})[
        "candidate"
    ]["document"]
    atoms = cand["atoms"]
    assert sorted(a["element"] for a in atoms) == ["C", "C", "H", "H", "H", "H", "H", "H", "O"]
    for axis in "xyz":  # 3D: spread along every axis, not a flat drawing
        values = [a[axis] for a in atoms]
        assert max(values) - min(values) > 0.5, axis
    assert len(cand["bonds"]) == 8
    carbons = [a["id"] for a in atoms if a["element"] == "C"]
    assert 1.45 < _distance(atoms, *carbons) < 1.60  # cleaned up by the force field


def test_a_bad_smiles_is_refused_and_nothing_changes(server: McpProcess):
    doc_id, rev = server.doc()
    err = server.err(
        "import_document",
        {"documentId": doc_id, "expectedRevision": rev, "text": "C1CC1((", "format": "smiles"},
    )
    assert err["code"] == "smiles_invalid"
    assert "C1CC1((" in err["message"]
    after = server.ok("list_documents")["documents"][0]
    assert after["revision"] == rev and after["hasCandidate"] is False
    assert after["atomCount"] == 0


def test_smiles_with_preview_false_is_one_undo_step(server: McpProcess):
    sc = _smiles(server, "O", preview=False)["structuredContent"]
    assert sc["candidate"] is None and sc["project"] == {"formula": "H2O", "atomCount": 3}
    doc_id, rev = server.doc()
    undone = server.ok("history", {"documentId": doc_id, "expectedRevision": rev, "action": "undo"})
    assert undone["project"]["atomCount"] == 0


@pytest.mark.parametrize(
    ("smiles", "multiplicity", "formula"),
    [("[CH3]", 2, "CH3"), ("[O][O]", 3, "O2"), ("CCO", 1, "C2H6O")],
)
def test_radical_electrons_from_smiles_set_the_multiplicity(
    server: McpProcess, smiles: str, multiplicity: int, formula: str
) -> None:
    # A methyl radical left a singlet cannot run (odd electrons), and O2 left a singlet
    # would run closed shell without a word: the radicals decide, as M  RAD does.
    doc_id, rev = server.doc()
    server.ok(
        "set_molecule",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "multiplicity": 3 if multiplicity == 1 else 1,
        },
    )
    res = _smiles(server, smiles, preview=False)
    assert res["isError"] is False, res
    assert res["structuredContent"]["project"]["formula"] == formula
    doc = server.ok("get_document", {"documentId": doc_id})["project"]["document"]
    assert doc["multiplicity"] == multiplicity
    checks = server.ok("validate_document", {"documentId": doc_id})["checks"]
    assert not [c for c in checks if c["code"] in ("multiplicity_parity", "unpaired_mismatch")]


# -- clean-up ----------------------------------------------------------------------------------
def _distorted_ethanol(server: McpProcess) -> tuple[str, str, str, str]:
    """A confirmed ethanol whose oxygen was pulled 0.8 A away: (doc, rev, carbon, oxygen)."""
    _smiles(server, "CCO", preview=False)
    doc_id, rev = server.doc()
    atoms = server.project(doc_id)["document"]["atoms"]
    oxygen = next(a for a in atoms if a["element"] == "O")
    carbon = next(
        b["a"] if b["b"] == oxygen["id"] else b["b"]
        for b in server.project(doc_id)["document"]["bonds"]
        if oxygen["id"] in (b["a"], b["b"])
    )
    moved = server.ok(
        "move_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "atomIds": [oxygen["id"]],
            "translate": [0.8, 0.0, 0.0],
            "preview": False,
        },
    )
    return doc_id, moved["revision"], carbon, oxygen["id"]


def test_cleanup_of_a_distorted_structure_makes_a_lower_energy_candidate(server: McpProcess):
    doc_id, rev, carbon, oxygen = _distorted_ethanol(server)
    before = server.ok("measure", {"documentId": doc_id, "distances": [[carbon, oxygen]]})[
        "distances"
    ][0]["value"]
    assert before > 1.9
    sc = server.ok("move_atoms", {"documentId": doc_id, "expectedRevision": rev, "cleanup": True})
    assert sc["candidate"] == {"formula": "C2H6O", "atomCount": 9}
    assert "status" not in sc
    info = sc["info"]["cleanup"]
    assert info["forceField"] == "MMFF94"
    assert info["energyAfter"] < info["energyBefore"] - 10
    after = server.ok(
        "measure", {"documentId": doc_id, "which": "candidate", "distances": [[carbon, oxygen]]}
    )["distances"][0]["value"]
    assert 1.35 < after < 1.50
    assert server.ok("list_documents")["documents"][0].get("busy") is None


def test_cleanup_of_a_clean_structure_is_an_error_and_changes_nothing(server: McpProcess):
    _smiles(server, "CC(=O)Oc1ccccc1C(=O)O", preview=False)
    doc_id, rev = server.doc()
    err = server.err("move_atoms", {"documentId": doc_id, "expectedRevision": rev, "cleanup": True})
    assert err["code"] == "cleanup_no_change"
    assert "already clean" in err["message"]
    after = server.ok("list_documents")["documents"][0]
    assert after["revision"] == rev and after["hasCandidate"] is False


def test_cleanup_cannot_be_mixed_with_a_move(server: McpProcess):
    doc_id, rev, _c, _o = _distorted_ethanol(server)
    err = server.err(
        "move_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "cleanup": True, "translate": [1, 0, 0]},
    )
    assert err["code"] == "cleanup_with_move"
    assert server.doc()[1] == rev


def test_cleanup_as_a_task_ends_with_the_candidate_or_the_refusal(server: McpProcess):
    doc_id, rev, _c, _o = _distorted_ethanol(server)
    res = server.call(
        "move_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "cleanup": True},
        caps=TASK_CAPS,
    )
    assert res["resultType"] == "task"
    done = _wait_task(server, res["taskId"])
    assert done["status"] == "completed"
    result = done["result"]
    assert result["isError"] is False
    assert result["structuredContent"]["candidate"]["atomCount"] == 9
    rev = server.ok(
        "history", {"documentId": doc_id, "expectedRevision": server.doc()[1], "action": "confirm"}
    )["revision"]
    again = server.call(
        "move_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "cleanup": True},
        caps=TASK_CAPS,
    )
    refused = _wait_task(server, again["taskId"])
    assert refused["status"] == "completed"
    assert refused["result"]["isError"] is True
    assert refused["result"]["structuredContent"]["code"] == "cleanup_no_change"
    assert server.doc()[1] == rev


def _long_cleanup(server: McpProcess) -> tuple[str, str, str]:
    """A clean-up of seconds started as a task: (doc, rev, taskId)."""
    _smiles(server, "C" * 40, preview=False)  # 122 atoms squeezed: seconds of force field
    doc_id, rev = server.doc()
    atoms = server.project(doc_id)["document"]["atoms"]
    # a bad start: every atom squeezed towards the centre, so the minimiser has work to do
    positions = {a["id"]: [a["x"] * 0.6, a["y"] * 0.6, a["z"] * 0.6] for a in atoms}
    rev = server.ok(
        "move_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "positions": positions, "preview": False},
    )["revision"]
    res = server.call(
        "move_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "cleanup": True},
        caps=TASK_CAPS,
    )
    assert res["resultType"] == "task"
    assert server.ok("list_documents")["documents"][0]["busy"] == "geometry clean-up"
    err = server.err(
        "set_molecule",
        {"documentId": doc_id, "expectedRevision": rev, "title": "x", "preview": False},
    )
    assert err["code"] == "busy"
    return doc_id, rev, res["taskId"]


def _free_and_unchanged(server: McpProcess, rev: str) -> None:
    wait_until(lambda: "busy" not in server.ok("list_documents")["documents"][0], 15)
    after = server.ok("list_documents")["documents"][0]
    assert after["revision"] == rev and after["hasCandidate"] is False


def test_tasks_cancel_stops_a_long_cleanup_and_the_document_is_free_again(server: McpProcess):
    _doc_id, rev, task_id = _long_cleanup(server)
    server.result("tasks/cancel", {"taskId": task_id}, caps=TASK_CAPS)
    t = _wait_task(server, task_id, 30)
    assert t["status"] == "cancelled"
    _free_and_unchanged(server, rev)


def test_history_cancel_stops_a_running_cleanup(server: McpProcess):
    doc_id, rev, task_id = _long_cleanup(server)
    sc = server.ok("history", {"documentId": doc_id, "expectedRevision": rev, "action": "cancel"})
    assert sc["revision"] == rev and sc["candidate"] is None
    _free_and_unchanged(server, rev)
    t = _wait_task(server, task_id, 30)
    assert t["result"]["isError"] is True
    assert t["result"]["structuredContent"]["code"] == "cancelled"


# -- the optimised structure -------------------------------------------------------------------
def _load(server: McpProcess, doc_id: str, rev: str, path: Path) -> None:
    res = server.call(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "open_file", "path": str(path)},
        caps=TASK_CAPS,
    )
    assert _wait_task(server, res["taskId"])["result"]["structuredContent"]["status"] == "completed"


def _final_structure(server: McpProcess, doc_id: str) -> dict[str, Any]:
    items = server.ok("get_results", {"documentId": doc_id, "section": "structures"})["items"]
    return items[-1]


def _assert_exports(server: McpProcess, doc_id: str, final: dict[str, Any]) -> None:
    text = server.ok("export_document", {"documentId": doc_id, "format": "xyz"})["text"]
    rows = _xyz_rows(text)
    assert [r[0] for r in rows] == final["symbols"]
    for row, xyz in zip(rows, final["coordinates"], strict=True):
        assert row[1:] == pytest.approx(tuple(xyz), abs=1e-5)


def test_use_structure_headless_takes_the_final_geometry_and_keeps_ids(server: McpProcess):
    doc_id, rev = server.water()
    ids = [a["id"] for a in server.project(doc_id)["document"]["atoms"]]
    _load(server, doc_id, rev, OPTIMISATION)
    sc = server.ok(
        "results_action", {"documentId": doc_id, "expectedRevision": rev, "action": "use_structure"}
    )
    edit = sc["edit"]
    assert edit["candidate"] == {"formula": "H2O", "atomCount": 3}
    assert edit["info"]["structureLabel"] == "final" and edit["info"]["structureIndex"] == 5
    assert edit["addedIds"] == [] and edit["removedIds"] == []
    server.ok(
        "history", {"documentId": doc_id, "expectedRevision": edit["revision"], "action": "confirm"}
    )
    assert [a["id"] for a in server.project(doc_id)["document"]["atoms"]] == ids
    _assert_exports(server, doc_id, _final_structure(server, doc_id))


def test_use_structure_refuses_a_missing_structure_or_no_results(server: McpProcess):
    doc_id, rev = server.doc()
    err = server.err(
        "results_action", {"documentId": doc_id, "expectedRevision": rev, "action": "use_structure"}
    )
    assert err["code"] == "results_none_loaded"
    _load(server, doc_id, rev, OPTIMISATION)
    err = server.err(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "use_structure", "index": 6},
    )
    assert err["code"] == "results_bad_structure"
    assert server.doc()[1] == rev
    sc = server.ok(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "use_structure",
            "index": 0,
            "preview": False,
        },
    )
    assert sc["edit"]["candidate"] is None and sc["edit"]["project"]["atomCount"] == 3


def test_use_structure_in_the_window(spawn: Any):
    pytest.importorskip("PySide6")
    server = spawn(env=GUI_ENV, flag="--mcp-gui")
    doc_id, rev = server.doc()
    load = server.ok(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "open_file",
            "path": str(OPTIMISATION),
        },
    )
    assert load["status"] in ("running", "completed")
    wait_until(lambda: server.ok("get_app_state", {})["results"].get(doc_id, {}).get("source"), 60)
    sc = server.ok(
        "results_action", {"documentId": doc_id, "expectedRevision": rev, "action": "use_structure"}
    )
    assert sc["command"]["status"] == "done", sc
    edit = sc["edit"]
    assert edit["candidate"] == {"formula": "H2O", "atomCount": 3}
    assert edit["info"]["structureLabel"] == "final"  # the slider starts at the final one
    server.ok(
        "history", {"documentId": doc_id, "expectedRevision": server.doc()[1], "action": "confirm"}
    )
    _assert_exports(server, doc_id, _final_structure(server, doc_id))


# -- a first run inside the allowed directories ------------------------------------------------
def _stand_in_prefs(mcp_env: dict[str, str]) -> dict[str, str]:
    cfg = Path(mcp_env["MOLFORMA_CONFIG_DIR"])
    exe = f"{sys.executable} {STAND_IN / 'fake_nwchem.py'}"
    (cfg / "preferences.json").write_text(json.dumps({"executable": exe}))
    return {"FAKE_NWCHEM_MODE": "converge", "FAKE_NWCHEM_DELAY": "0.01"}


def _real_nwchem() -> None:
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed")


@pytest.mark.nwchem
def test_with_an_allowed_dir_a_calculation_runs_there_and_its_results_load(
    spawn: Any, tmp_path: Path
):
    _real_nwchem()
    work = tmp_path / "work"
    work.mkdir()
    server = spawn("--mcp-allow-dir", str(work))
    doc_id, rev = server.water()
    execution = server.ok("get_execution", {"documentId": doc_id})["execution"]
    assert execution["job_root"] == str(work.resolve() / "molforma-jobs")
    checks = server.ok("validate_document", {"documentId": doc_id})["checks"]
    assert not [c for c in checks if c["code"].startswith("job_root")]
    done, rev = _optimise_water(server, doc_id, rev)
    sc = done["result"]["structuredContent"]
    assert sc["status"] == "finished", sc
    folder = Path(sc["jobDirectory"])
    assert folder.parent == work.resolve() / "molforma-jobs"
    # The task's final answer says where the results load (loading, or loaded).
    loaded = sc["app"]["results"]
    assert Path(loaded["source"] or (loaded["loading"] or loaded["lastLoad"])["path"]) == folder
    # The results loaded by themselves: no results_action needed.
    summary = server.ok("get_results", {"documentId": doc_id, "section": "summary"})
    assert Path(summary["source"]) == folder
    state = server.ok("get_app_state", {"documentId": doc_id})["results"][doc_id]
    assert Path(state["source"]) == folder


@pytest.mark.nwchem
def test_without_tasks_the_results_of_a_calculation_load_when_it_ends(server: McpProcess):
    _real_nwchem()
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
    sc = server.ok(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    folder = sc["jobDirectory"]
    app = wait_until(
        lambda: (
            (a := server.ok("get_app_state", {"documentId": doc_id}))["results"]
            .get(doc_id, {})
            .get("source")
            and a
        ),
        120,
    )
    assert app["results"][doc_id]["source"] == folder
    summary = server.ok("get_results", {"documentId": doc_id})
    assert summary["source"] == folder and summary["summary"]["finalEnergy"] < -74.0


def test_a_stand_in_run_whose_output_cannot_be_read_says_where_its_folder_is(
    spawn: Any, mcp_env: dict[str, str]
):
    server = spawn(env=_stand_in_prefs(mcp_env))
    doc_id, rev = server.water()
    sc = server.ok(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    wait_until(
        lambda: (
            server.ok("get_app_state", {"documentId": doc_id})["results"]
            .get(doc_id, {})
            .get("lastLoad")
        ),
        60,
    )
    err = server.err("get_results", {"documentId": doc_id})
    assert err["code"] == "results_not_opened_yet"
    assert sc["jobDirectory"] in err["message"]


@pytest.mark.parametrize("flag", ["--mcp", "--mcp-gui"])
def test_validate_document_says_when_the_job_root_is_outside_the_allowed_dirs(
    spawn: Any, tmp_path: Path, flag: str
):
    work = tmp_path / "work"
    work.mkdir()
    server = spawn("--mcp-allow-dir", str(work), env=GUI_ENV, flag=flag)
    doc_id, rev = server.water()
    project = server.project(doc_id)
    outside = tmp_path / "elsewhere"
    project["execution"]["job_root"] = str(outside)
    rev = server.ok(
        "import_document",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "text": json.dumps(project),
            "format": "project",
            "preview": False,
        },
    )["revision"]
    out = server.ok("validate_document", {"documentId": doc_id})
    assert out["ok"] is False
    found = [c for c in out["checks"] if c["code"] == "job_root_not_allowed"]
    assert len(found) == 1 and found[0]["severity"] == "error"
    assert str(outside) in found[0]["message"]
    assert str(work.resolve() / "molforma-jobs") in found[0]["message"]  # the fix
    assert not outside.exists()


def test_a_relative_job_root_says_relative_even_with_allowed_dirs(spawn: Any, tmp_path: Path):
    work = tmp_path / "work"
    work.mkdir()
    server = spawn("--mcp-allow-dir", str(work))
    doc_id, rev = server.doc()
    err = server.err(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "values": {"job_root": "jobs"},
            "preview": False,
        },
    )
    assert err["code"] == "job_root_relative"
    assert server.doc()[1] == rev


def test_smiles_and_cleanup_tools_work_on_the_window_document(spawn: Any):
    pytest.importorskip("PySide6")
    server = spawn(env=GUI_ENV, flag="--mcp-gui")
    doc_id, rev = server.doc()
    err = server.err(
        "import_document",
        {"documentId": doc_id, "expectedRevision": rev, "text": "C1CC1((", "format": "smiles"},
    )
    assert err["code"] == "smiles_invalid" and server.doc()[1] == rev
    sc = _smiles(server, "CCO", preview=False)["structuredContent"]
    assert sc["project"] == {"formula": "C2H6O", "atomCount": 9}
    err = server.err(
        "move_atoms", {"documentId": doc_id, "expectedRevision": sc["revision"], "cleanup": True}
    )
    assert err["code"] == "cleanup_no_change"
    doc_id, rev, carbon, oxygen = _distorted_ethanol(server)
    sc = server.ok("move_atoms", {"documentId": doc_id, "expectedRevision": rev, "cleanup": True})
    assert sc["candidate"]["atomCount"] == 9
    after = server.ok(
        "measure", {"documentId": doc_id, "which": "candidate", "distances": [[carbon, oxygen]]}
    )["distances"][0]["value"]
    assert 1.35 < after < 1.50
    # The window shows the candidate with its Confirm button, as after its own clean-up.
    node = server.ok("get_ui", {"query": "confirmButton", "includeHidden": True})["nodes"]
    assert any(n["objectName"] == "confirmButton" and n["enabled"] for n in node), node


def test_a_cleanup_task_with_a_progress_token_reports_its_iterations(server: McpProcess):
    _smiles(server, "C" * 40, preview=False)
    doc_id, rev = server.doc()
    atoms = server.project(doc_id)["document"]["atoms"]
    positions = {a["id"]: [a["x"] * 0.6, a["y"] * 0.6, a["z"] * 0.6] for a in atoms}
    rev = server.ok(
        "move_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "positions": positions, "preview": False},
    )["revision"]
    rid = server.next_id()
    server.send(
        {
            "jsonrpc": "2.0",
            "id": rid,
            "method": "tools/call",
            "params": {
                "name": "move_atoms",
                "arguments": {"documentId": doc_id, "expectedRevision": rev, "cleanup": True},
                "_meta": {**meta(TASK_CAPS), "progressToken": "c1"},
            },
        }
    )
    notes: list[dict[str, Any]] = []
    task_id = None
    final = None
    end = time.monotonic() + 120
    while final is None:
        assert time.monotonic() < end
        try:
            msg = server.recv(0.2)
        except queue.Empty:
            msg = None
        if msg is not None and msg.get("method") == "notifications/progress":
            notes.append(msg["params"])
        elif msg is not None and msg.get("id") == rid:
            task_id = msg["result"]["taskId"]
        elif msg is None and task_id is not None:
            rid2 = server.next_id()
            server.send(
                {
                    "jsonrpc": "2.0",
                    "id": rid2,
                    "method": "tasks/get",
                    "params": {"taskId": task_id, "_meta": meta(TASK_CAPS)},
                }
            )
            while True:
                reply = server.recv(10)
                if reply.get("method") == "notifications/progress":
                    notes.append(reply["params"])
                    continue
                break
            if reply["result"]["status"] != "working":
                final = reply["result"]
    assert final["status"] == "completed" and final["result"]["isError"] is False
    assert notes, "no notifications/progress arrived"
    values = [n["progress"] for n in notes]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert any("iterations" in n.get("message", "") for n in notes), notes
    assert notes[-1]["total"] == notes[-1]["progress"]


@pytest.mark.nwchem
@pytest.mark.parametrize("flag", ["--mcp", "--mcp-gui"])
def test_after_an_optimisation_use_structure_then_export_gives_the_final_geometry(
    spawn: Any, flag: str
):
    """The whole intent in both modes: optimise, results load by themselves, one call takes
    the optimised structure, the export holds it."""
    _real_nwchem()
    server = spawn(env=GUI_ENV, flag=flag)
    doc_id, rev = server.water()
    done, rev = _optimise_water(server, doc_id, rev, 240)
    folder = done["result"]["structuredContent"]["jobDirectory"]
    wait_until(
        lambda: (
            server.ok("get_app_state", {"documentId": doc_id})["results"]
            .get(doc_id, {})
            .get("source")
            == folder
        ),
        60,
    )
    final = _final_structure(server, doc_id)
    assert final["label"] == "final"
    sc = server.ok(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "use_structure",
            "preview": False,
        },
    )
    assert sc["edit"]["candidate"] is None and sc["edit"]["changedIds"]
    _assert_exports(server, doc_id, final)


def _cleanup_children(parent: int) -> list[int]:
    """Pids of clean-up child processes of ``parent`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().split(b"\0")
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if b"molforma.document.cleanup" in cmd and int(stat[1]) == parent and stat[0] != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_closing_stdin_during_a_cleanup_leaves_no_child_process(server: McpProcess):
    _doc_id, _rev, _task_id = _long_cleanup(server)
    children = wait_until(lambda: _cleanup_children(server.proc.pid), 10, 0.05)
    assert server.close(15) == 0
    wait_until(lambda: not any(_alive(pid) for pid in children), 10)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_cleanup_workers_lists_a_running_cleanup():
    """What get_app_state's workers can show of a headless clean-up (in process)."""
    from molforma.mcp.tools import document_tools as tools

    class Child:
        done = False
        last_step = (40, 2400, 12.5)

    tools._RUNNING_CLEANUPS["doc-x"] = Child()
    try:
        assert tools.cleanup_workers() == [
            {
                "kind": "cleanup",
                "documentId": "doc-x",
                "status": "running",
                "progress": 1,
                "iterations": 40,
                "maxIterations": 2400,
                "energy": 12.5,
            }
        ]
        assert tools.cleanup_workers("doc-y") == []
        Child.done = True
        assert tools.cleanup_workers() == []
    finally:
        del tools._RUNNING_CLEANUPS["doc-x"]
