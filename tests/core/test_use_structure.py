"""Taking a computed structure back: ops.use_structure and History's final geometry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from molforma.app import ops
from molforma.app.actor import Actor
from molforma.document.document import Document
from molforma.errors import FileAccessError, MolFormaError, ValidationError
from molforma.history.folder_scan import final_structure, reuse
from tests.core.test_jobs_nwchem import run

# A stretched, bent-open water: the optimiser moves it visibly.
WATER = [
    {"element": "O", "position": [0.0, 0.0, 0.0]},
    {"element": "H", "position": [0.0, 0.9, 0.55]},
    {"element": "H", "position": [0.0, -0.9, 0.55]},
]


def water_doc() -> Document:
    doc = Document()
    ops.add_atoms(doc, WATER, preview=False)
    ops.set_molecule(doc, title="wet", preview=False)
    return doc


def xyz(project: dict[str, Any]) -> np.ndarray:
    return np.array([[a["x"], a["y"], a["z"]] for a in project["document"]["atoms"]])


def test_matching_elements_keep_ids_and_bonds_and_make_a_user_candidate() -> None:
    doc = water_doc()
    ids = [a["id"] for a in doc.project["document"]["atoms"]]
    bonds = doc.project["document"]["bonds"]
    new = [[0.0, 0.0, 0.1], [0.0, 0.76, -0.47], [0.0, -0.76, -0.47]]
    ops.use_structure(doc, ["O", "H", "H"], new, preview=True, actor=Actor.PERSON)
    assert doc.candidate is not None
    assert [a["id"] for a in doc.candidate["document"]["atoms"]] == ids
    assert doc.candidate["document"]["bonds"] == bonds
    assert xyz(doc.candidate) == pytest.approx(np.array(new))
    assert xyz(doc.project) == pytest.approx(np.array([a["position"] for a in WATER]))
    doc.confirm(origin="user")
    assert xyz(doc.project) == pytest.approx(np.array(new))
    assert doc.undo_labels[-1] == "Use computed structure"


def test_a_fixed_atom_stays_where_it_is() -> None:
    doc = water_doc()
    first = doc.project["document"]["atoms"][0]["id"]
    ops.set_atom_properties(doc, [{"id": first, "fixed": True}], preview=False)
    ops.use_structure(
        doc, ["O", "H", "H"], [[1, 1, 1], [0, 0.76, -0.47], [0, -0.76, -0.47]], preview=False
    )
    atom = doc.project["document"]["atoms"][0]
    assert (atom["x"], atom["y"], atom["z"]) == (0.0, 0.0, 0.0)


def test_other_elements_replace_the_molecule_with_new_ids_and_perceived_bonds() -> None:
    doc = water_doc()
    old_ids = {a["id"] for a in doc.project["document"]["atoms"]}
    ops.use_structure(doc, ["C", "O"], [[0, 0, 0], [0, 0, 1.13]], preview=False)
    atoms = doc.project["document"]["atoms"]
    assert [a["element"] for a in atoms] == ["C", "O"]
    assert not old_ids & {a["id"] for a in atoms}
    assert len(doc.project["document"]["bonds"]) == 1
    assert doc.project["document"]["title"] == "wet"


def test_bad_structures_are_refused_and_change_nothing() -> None:
    doc = water_doc()
    before = doc.revision
    with pytest.raises(ValidationError):
        ops.use_structure(doc, ["O", "H"], [[0, 0, 0]], preview=False)
    with pytest.raises(ValidationError):
        ops.use_structure(doc, ["Xx"], [[0, 0, 0]], preview=False)
    with pytest.raises(ValidationError):
        ops.use_structure(doc, ["O"], [[float("nan"), 0, 0]], preview=False)
    assert doc.revision == before


def test_history_reuses_the_final_geometry_of_a_real_optimisation(tmp_path: Path) -> None:
    doc = water_doc()
    ops.set_nwchem(doc, {"basis": "sto-3g", "task": "optimize"}, preview=False)
    record = run(doc.project, tmp_path / "jobs")
    assert record["status"] == "finished", record["error"]
    folder = str(record["_folder"])
    symbols, coords = final_structure(folder)
    assert symbols == ["O", "H", "H"]
    start = np.array([a["position"] for a in WATER])
    assert np.abs(np.array(coords) - start).max() > 0.05  # the optimiser moved it
    oh = np.linalg.norm(np.array(coords[1]) - np.array(coords[0]))
    assert 0.95 < oh < 1.02  # the STO-3G O-H length, not the stretched input's

    as_input = reuse(folder)
    as_final = reuse(folder, "final")
    assert xyz(as_input) == pytest.approx(start)
    assert xyz(as_final) == pytest.approx(np.array(coords))
    assert [a["id"] for a in as_final["document"]["atoms"]] == [
        a["id"] for a in as_input["document"]["atoms"]
    ]
    assert as_final["calculation"] == as_input["calculation"]


def test_a_folder_without_output_has_no_final_structure(tmp_path: Path) -> None:
    from molforma.jobs.manager import JobManager

    doc = water_doc()
    ops.set_execution(doc, {"job_root": str(tmp_path)}, preview=False)
    folder = JobManager().save_input_set(doc.project)
    with pytest.raises(MolFormaError) as info:
        final_structure(str(folder))
    assert info.value.code in ("results_no_result_files", "history_no_final_structure")
    with pytest.raises(FileAccessError):
        final_structure(str(tmp_path / "not-a-job"))
