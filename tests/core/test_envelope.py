"""The project envelope: unknown fields survive edits and saves; saves are atomic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from molforma.app import ops
from molforma.document.document import Document
from molforma.document.envelope import project_from_json
from molforma.errors import FileAccessError, FormatError, MolFormaError, ValidationError

ENVELOPE = {
    "format": "molforma-project",
    "version": 1,
    "savedBy": {"app": "future", "v": 9},
    "document": {
        "title": "water",
        "charge": 0,
        "multiplicity": 1,
        "colourScheme": "cpk",
        "atoms": [
            {
                "id": "a1",
                "element": "O",
                "x": 0.0,
                "y": 0.0,
                "z": 0.117,
                "name": "",
                "formalCharge": 0,
                "unpairedElectrons": 0,
                "massNumber": None,
                "mass": None,
                "fixed": False,
                "label3d": "ox",
            },
            {"id": "a2", "element": "H", "x": 0.0, "y": 0.757, "z": -0.469},
            {"id": "a5", "element": "H", "x": 0.0, "y": -0.757, "z": -0.469},
        ],
        "bonds": [
            {"a": "a1", "b": "a2", "order": 1, "style": "dashed"},
            {"a": "a1", "b": "a5", "order": 1},
        ],
        "nextAtomId": 6,
    },
    "calculation": {"task": "optimize", "theory": "dft", "solvent": "water"},
    "advanced": {"memory_mb": 500, "newKey": True},
    "execution": {"processes": 2, "queue": "short"},
}


def test_unknown_fields_survive_edits_undo_and_save(tmp_path: Path) -> None:
    proj = project_from_json(json.loads(json.dumps(ENVELOPE)))
    doc = Document(proj)
    ops.move_atoms(doc, translate=[1, 0, 0], preview=False)
    ops.set_nwchem(doc, {"basis": "sto-3g"}, preview=False)
    ops.set_advanced(doc, {"scf_maxiter": 50}, preview=False)
    ops.set_execution(doc, {"threads": 2}, preview=False)
    ops.set_atom_properties(doc, [{"id": "a1", "name": "O1"}], preview=False)
    ops.add_atoms(doc, [{"element": "He", "position": [5, 5, 5]}], preview=False)
    path = tmp_path / "w.molforma.json"
    ops.save_project(doc, str(path))
    saved = json.loads(path.read_text())
    assert saved["savedBy"] == {"app": "future", "v": 9}
    assert saved["document"]["colourScheme"] == "cpk"
    assert saved["document"]["atoms"][0]["label3d"] == "ox"
    assert saved["document"]["bonds"][0]["style"] == "dashed"
    assert saved["calculation"]["solvent"] == "water"
    assert saved["advanced"]["newKey"] is True
    assert saved["execution"]["queue"] == "short"
    assert [a["id"] for a in saved["document"]["atoms"]] == ["a1", "a2", "a5", "a6"]


def test_a_project_that_breaks_a_rule_is_refused() -> None:
    bad = json.loads(json.dumps(ENVELOPE))
    bad["document"]["atoms"][1]["x"] = 0.0
    bad["document"]["atoms"][1]["y"] = 0.0
    bad["document"]["atoms"][1]["z"] = 0.12
    with pytest.raises(ValidationError) as err:
        project_from_json(bad)
    assert err.value.code == "atoms_too_close"
    with pytest.raises(FormatError):
        project_from_json({"format": "something-else"})


def test_save_refuses_while_a_candidate_exists_and_leaves_the_file(tmp_path: Path) -> None:
    doc = Document(project_from_json(json.loads(json.dumps(ENVELOPE))))
    path = tmp_path / "p.molforma.json"
    path.write_text("old")
    ops.set_molecule(doc, title="new")
    with pytest.raises(MolFormaError) as err:
        ops.save_project(doc, str(path))
    assert err.value.code == "save_with_candidate"
    assert path.read_text() == "old"


def test_a_failed_save_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    doc = Document(project_from_json(json.loads(json.dumps(ENVELOPE))))
    target = tmp_path / "dir.molforma.json"
    target.mkdir()  # renaming a file over a directory fails
    with pytest.raises(FileAccessError):
        ops.save_project(doc, str(target))
    assert target.is_dir()
    assert [p.name for p in tmp_path.iterdir()] == ["dir.molforma.json"]


def test_a_saved_file_gets_normal_permissions_and_keeps_an_existing_mode(tmp_path: Path) -> None:
    import os

    doc = Document()
    new = tmp_path / "new.molforma.json"
    ops.save_project(doc, str(new))
    mask = os.umask(0)
    os.umask(mask)
    assert new.stat().st_mode & 0o777 == 0o666 & ~mask
    old = tmp_path / "old.molforma.json"
    old.write_text("{}")
    old.chmod(0o640)
    ops.save_project(doc, str(old))
    assert old.stat().st_mode & 0o777 == 0o640
