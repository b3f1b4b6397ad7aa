"""open_file / import_document / export_document through the document operations."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from molforma.app import ops
from molforma.document.document import Document
from molforma.errors import FormatError, MolFormaError
from tests.core.conftest import FIXTURES


def state(doc: Document) -> tuple[str, str, str]:
    return json.dumps(doc.project), json.dumps(doc.candidate), doc.revision


def test_opening_a_structure_replaces_atoms_and_keeps_settings(
    water_doc: Document, tmp_path: Path
) -> None:
    ops.set_nwchem(water_doc, {"basis": "cc-pvdz", "theory": "dft"}, preview=False)
    ops.set_execution(water_doc, {"processes": 2}, preview=False)
    xyz = tmp_path / "nh3.xyz"
    xyz.write_text(
        "4\nammonia\nN 0 0 0.1\nH 0 0.94 -0.25\nH 0.81 -0.47 -0.25\nH -0.81 -0.47 -0.25\n"
    )
    out = ops.open_file(water_doc, str(xyz), preview=False)
    assert out["project"] == {"formula": "H3N", "atomCount": 4}
    assert out["removedIds"] == ["a1", "a2", "a3"]
    assert out["addedIds"] == ["a4", "a5", "a6", "a7"]  # ids are never reused
    p = water_doc.project
    assert p["calculation"]["basis"] == "cc-pvdz" and p["execution"]["processes"] == 2
    assert len(p["document"]["bonds"]) == 3  # perceived
    ops.history(water_doc, "undo")
    assert water_doc.project["document"]["atoms"][0]["element"] == "O"


def test_opening_a_project_is_one_undoable_step_and_a_candidate_by_default(tmp_path: Path) -> None:
    src = Document()
    ops.add_atoms(src, [{"element": "C", "position": [0, 0, 0]}], preview=False)
    ops.set_molecule(src, title="methyl", multiplicity=2, preview=False)
    path = tmp_path / "m.molforma.json"
    ops.save_project(src, str(path))
    doc = Document()
    out = ops.open_file(doc, str(path))
    assert out["candidate"] == {"formula": "C", "atomCount": 1}
    ops.history(doc, "confirm")
    assert doc.project["document"]["title"] == "methyl"
    ops.history(doc, "undo")
    assert doc.project["document"]["atoms"] == []


def test_opening_the_real_nwchem_input_takes_structure_and_conditions(tmp_path: Path) -> None:
    doc = Document()
    nw = tmp_path / "water.nw"
    shutil.copy(FIXTURES / "water_scf_optfreq.nw", nw)
    ops.open_file(doc, str(nw), preview=False)
    p = doc.project
    assert {a["element"] for a in p["document"]["atoms"]} == {"O", "H"}
    assert p["calculation"]["task"] == "optimize+frequencies"
    assert p["calculation"]["theory"] == "scf"
    assert p["calculation"]["basis"].lower() == "6-31g*"


@pytest.mark.parametrize(
    "bad",
    [
        "3\nwater\nO 0 0 0\nH 0 0.76 x\nH 0 -0.76 0.5\n",
        "2\nwater\nO 0 0 0\n",
        "2\nwater\nQq 0 0 0\nH 0 0 1\n",
    ],
)
def test_a_broken_file_changes_nothing(water_doc: Document, tmp_path: Path, bad: str) -> None:
    path = tmp_path / "bad.xyz"
    path.write_text(bad)
    before = state(water_doc)
    with pytest.raises(MolFormaError) as err:
        ops.open_file(water_doc, str(path))
    assert isinstance(err.value, FormatError)
    assert err.value.code.startswith("format_")
    assert "line 4" in err.value.message("en") or "line 3" in err.value.message("en")
    assert state(water_doc) == before


def test_multi_frame_xyz_needs_a_frame(tmp_path: Path) -> None:
    doc = Document()
    frames = "".join(f"1\nframe {i}\nHe 0 0 {i}\n" for i in range(3))
    with pytest.raises(MolFormaError):
        ops.import_document(doc, frames, "xyz")
    out = ops.import_document(doc, frames, "xyz", frame=2, preview=False)
    assert out["project"]["atomCount"] == 1
    assert doc.project["document"]["atoms"][0]["z"] == pytest.approx(2.0)


def test_export_round_trips_through_import(water_doc: Document) -> None:
    for fmt in ("xyz", "mol", "sdf", "pdb", "project"):
        text = ops.export_document(water_doc, fmt)
        doc = Document()
        ops.import_document(doc, text, fmt, preview=False)
        atoms = doc.project["document"]["atoms"]
        assert [a["element"] for a in atoms] == ["O", "H", "H"], fmt
    nw = ops.export_document(water_doc, "nwchem")
    assert "geometry" in nw and "task scf energy" in nw


def test_a_file_over_the_read_limit_is_refused(water_doc: Document, tmp_path: Path) -> None:
    from molforma.fileio import READ_LIMIT

    big = tmp_path / "big.xyz"
    big.write_text("1\nx\nHe 0 0 0\n" + " " * READ_LIMIT)
    before = state(water_doc)
    with pytest.raises(MolFormaError) as err:
        ops.open_file(water_doc, str(big))
    assert err.value.code.endswith("too_large")
    assert str(READ_LIMIT) in err.value.message("en")
    assert state(water_doc) == before


def _grid_xyz(side: int) -> str:
    pts = [
        (i * 1.5, j * 1.5, k * 1.5) for i in range(side) for j in range(side) for k in range(side)
    ]
    return f"{len(pts)}\ngrid\n" + "".join(f"C {x} {y} {z}\n" for x, y, z in pts)


@pytest.mark.parametrize("fmt", ["xyz", "mol"])
def test_a_large_file_opened_into_a_used_document_gets_the_next_ids(
    fmt: str, tmp_path: Path
) -> None:
    doc = Document()
    src = tmp_path / "grid.xyz"
    src.write_text(_grid_xyz(11))  # 1,331 atoms: the readers' own fast paths
    ops.open_file(doc, str(src), preview=False)
    path = tmp_path / f"grid.{fmt}"
    if fmt != "xyz":
        path.write_text(ops.export_document(doc, fmt))
    ops.add_atoms(doc, [{"element": "O", "x": 50.0, "y": 0.0, "z": 0.0}], preview=False)  # a1332
    ops.history(doc, "undo")  # undone: a1332 stays used
    before = [dict(b) for b in doc.project["document"]["bonds"]]
    out = ops.open_file(doc, str(path), preview=False)
    d = doc.project["document"]
    assert [a["id"] for a in d["atoms"]] == [f"a{k}" for k in range(1333, 2664)]
    assert out["addedIds"][0] == "a1333" and d["nextAtomId"] == 2664
    shift = {f"a{k}": f"a{k + 1332}" for k in range(1, 1332)}
    assert d["bonds"] == [{**b, "a": shift[b["a"]], "b": shift[b["b"]]} for b in before]


def test_a_structure_numbered_for_another_start_is_renumbered(tmp_path: Path) -> None:
    from molforma.formats import apply_structure, read_text
    from molforma.formats.common import Structure

    s = read_text(_grid_xyz(11), "xyz", first_id=500)  # read while the document was larger
    assert isinstance(s, Structure) and s.atoms[0]["id"] == "a500"
    doc = Document()
    doc.edit(
        lambda w: apply_structure(w, s, owned=True),
        label="Open",
        preview=False,
        replaces_structure=True,
    )
    d = doc.project["document"]
    assert [a["id"] for a in d["atoms"]] == [f"a{k}" for k in range(1, 1332)]
    ids = {a["id"] for a in d["atoms"]}
    assert len(d["bonds"]) == 3 * 11 * 11 * 10
    assert all(b["a"] in ids and b["b"] in ids for b in d["bonds"])
