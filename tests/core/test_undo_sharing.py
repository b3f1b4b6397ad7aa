"""Undo that scales: undo steps share what an edit did not change, and undo stays exact."""

from __future__ import annotations

import gc
import json
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from molforma.app import ops
from molforma.document.changes import Change
from molforma.document.document import Document
from molforma.document.envelope import clone_project, project_from_json

ATOMS = 10_000


def _xyz(n: int) -> str:
    rng = np.random.default_rng(3)
    side = int(np.ceil(n ** (1 / 3)))
    grid = np.array(
        [(i, j, k) for i in range(side) for j in range(side) for k in range(side)][:n], dtype=float
    ) * 1.6 + rng.uniform(-0.2, 0.2, (n, 3))
    return f"{n}\nbig\n" + "".join(
        f"{'CHON'[i % 4]} {x:.6f} {y:.6f} {z:.6f}\n" for i, (x, y, z) in enumerate(grid)
    )


@pytest.fixture(scope="module")
def big_project() -> dict[str, Any]:
    doc = Document()
    ops.import_document(doc, _xyz(ATOMS), "xyz", preview=False)
    assert len(doc.project["document"]["atoms"]) == ATOMS
    return doc.project


def _retained(fn: Callable[[], object]) -> int:
    """Bytes still allocated after ``fn`` returned and its result was dropped."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        fn()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_an_undo_step_of_a_one_atom_move_keeps_at_most_5_percent_of_a_project_copy(
    big_project: dict[str, Any],
) -> None:
    doc = Document(clone_project(big_project))
    full_copy: list[Any] = []
    full = _retained(lambda: full_copy.append(clone_project(doc.project)))
    full_copy.clear()
    step = _retained(
        lambda: ops.move_atoms(doc, positions={"a17": [500.0, 0.0, 0.0]}, preview=False)
    )
    assert doc.undo_labels == ["Move atoms"]
    assert full > 4_000_000  # the copy each step used to keep
    assert step <= 0.05 * full, f"one step kept {step} bytes of a {full}-byte project"


def test_a_settings_edit_keeps_no_atom_data(
    big_project: dict[str, Any], water_doc: Document
) -> None:
    # The process's first settings edit loads the basis-set catalogue once (about 0.5 MB,
    # kept by the catalogue for the process's life, not by any document); whether an
    # earlier test did so depends on the order tests run in. The same edit on a
    # three-atom document loads it first, so the measure below counts what this edit of
    # the 10,000-atom document keeps, and nothing of the big document is warmed.
    ops.set_nwchem(water_doc, {"basis": "sto-3g"}, preview=False)
    doc = Document(clone_project(big_project))
    before = doc.project
    step = _retained(lambda: ops.set_nwchem(doc, {"basis": "sto-3g"}, preview=False))
    after = doc.project
    assert after["calculation"]["basis"] == "sto-3g"
    assert after["document"] is before["document"]  # atoms, bonds and their list: the same
    # Far less than the list of references to 10,000 atoms (80 kB) that a copy would hold.
    assert step < 20_000, f"a settings edit kept {step} bytes"


def test_undo_steps_share_the_atoms_an_edit_left_alone(water_doc: Document) -> None:
    before = water_doc.project
    ops.move_atoms(water_doc, positions={"a2": [0.0, 0.9, -0.5]}, preview=False)
    after = water_doc.project
    old, new = before["document"]["atoms"], after["document"]["atoms"]
    # Columns: the move made a new coordinate array and shares every other column.
    assert new.xyz is not old.xyz and new.ids is old.ids and new.z is old.z
    assert new.charge is old.charge and new.fixed is old.fixed
    assert new[0] == old[0] and new[2] == old[2]
    assert new[1] != old[1] and old[1]["y"] == 0.7572  # the earlier state is untouched
    assert after["document"]["bonds"] is before["document"]["bonds"]
    assert after["calculation"] is before["calculation"]


UNKNOWN_PROJECT: dict[str, Any] = {
    "format": "molforma-project",
    "version": 1,
    "fromTheFuture": {"nested": [1, 2.5, {"deep": None}], "flag": True},
    "document": {
        "title": "water",
        "charge": 0,
        "multiplicity": 1,
        "crystal": {"cell": [1.0, 2.0, 3.0]},
        "atoms": [
            {
                "id": "a1",
                "element": "O",
                "x": 0.0,
                "y": 0.0,
                "z": 0.1173,
                "color": "#ff0000",
                "extra": {"tags": ["donor"]},
            },
            {"id": "a2", "element": "H", "x": 0.0, "y": 0.7572, "z": -0.4692, "note": "one"},
            {"id": "a3", "element": "H", "x": 0.0, "y": -0.7572, "z": -0.4692},
        ],
        "bonds": [
            {"a": "a1", "b": "a2", "order": 1},
            {"a": "a1", "b": "a3", "order": 1, "style": "dashed"},
        ],
        "nextAtomId": 4,
    },
    "calculation": {"basis": "6-31g*", "futureKnob": [3, 4]},
    "execution": {"futureExec": {"a": 1}},
}


def _saved(doc: Document, path: Path) -> bytes:
    ops.save_project(doc, str(path))
    return path.read_bytes()


EDITS: list[tuple[str, Callable[[Document], Any]]] = [
    (
        "move one atom",
        lambda d: ops.move_atoms(d, positions={"a2": [0.1, 0.8, -0.5]}, preview=False),
    ),
    (
        "move it again",
        lambda d: ops.move_atoms(d, positions={"a2": [0.2, 0.8, -0.5]}, preview=False),
    ),
    ("translate all", lambda d: ops.move_atoms(d, translate=[0.5, 0, 0], preview=False)),
    ("basis", lambda d: ops.set_nwchem(d, {"basis": "sto-3g"}, preview=False)),
    ("environment", lambda d: ops.set_execution(d, {"environment": {"OMP": "1"}}, preview=False)),
    ("charge", lambda d: ops.set_molecule(d, charge=1, multiplicity=2, preview=False)),
    (
        "atom property",
        lambda d: ops.set_atom_properties(d, [{"id": "a2", "name": "Hx"}], preview=False),
    ),
    ("bond order", lambda d: ops.set_bonds(d, [{"a": "a1", "b": "a3", "order": 2}], preview=False)),
    (
        "add an atom",
        lambda d: ops.add_atoms(
            d, [{"element": "H", "position": [0, 0, 1.3]}], [{"a": "a1", "b": "#0"}], preview=False
        ),
    ),
    ("delete an atom", lambda d: ops.delete_atoms(d, ["a2"], preview=False)),
    (
        "candidate confirmed",
        lambda d: (ops.move_atoms(d, positions={"a3": [0, -0.9, -0.4]}), d.confirm()),
    ),
]


@pytest.fixture
def unknown_doc() -> Iterator[Document]:
    yield Document(project_from_json(json.loads(json.dumps(UNKNOWN_PROJECT))))


def test_undo_and_redo_restore_every_saved_byte_and_keep_unknown_fields(
    unknown_doc: Document, tmp_path: Path
) -> None:
    path = tmp_path / "p.molforma.json"
    saved = [_saved(unknown_doc, path)]
    for _name, edit in EDITS:
        edit(unknown_doc)
        saved.append(_saved(unknown_doc, path))
    assert len(set(saved)) == len(saved)  # every edit changed the file
    for i in range(len(EDITS), 0, -1):
        unknown_doc.undo()
        assert _saved(unknown_doc, path) == saved[i - 1], f"undo of {EDITS[i - 1][0]}"
    for i in range(1, len(EDITS) + 1):
        unknown_doc.redo()
        assert _saved(unknown_doc, path) == saved[i], f"redo of {EDITS[i - 1][0]}"
    last = json.loads(saved[-1])
    assert last["fromTheFuture"] == UNKNOWN_PROJECT["fromTheFuture"]
    assert last["document"]["crystal"] == {"cell": [1.0, 2.0, 3.0]}
    assert last["document"]["atoms"][0]["extra"] == {"tags": ["donor"]}
    kept = [b for b in last["document"]["bonds"] if (b["a"], b["b"]) == ("a1", "a3")]
    assert kept == [{"a": "a1", "b": "a3", "order": 2, "style": "dashed"}]
    assert last["calculation"]["futureKnob"] == [3, 4]
    assert last["execution"]["futureExec"] == {"a": 1}


def test_an_edit_that_writes_an_equal_number_of_another_type_is_kept_as_written(
    water_doc: Document,
) -> None:
    ops.move_atoms(water_doc, positions={"a1": [0.0, 0.0, 1.0]}, preview=False)

    def to_int(work: dict[str, Any]) -> Any:
        from molforma.document.document import EditResult

        work["document"]["atoms"][0]["z"] = 1  # equal to 1.0, saved as "1"
        return EditResult(changed=["a1"], touched=["a1"], coords_only=True)

    water_doc.edit(to_int, label="Move atoms", preview=False)
    assert json.dumps(water_doc.project["document"]["atoms"][0]["z"]) == "1"


def _water() -> Document:
    doc = Document()
    ops.import_document(doc, "3\nw\nO 0 0 0\nH 0.96 0 0\nH -0.24 0.93 0\n", "xyz", preview=False)
    return doc


def test_a_move_keeps_the_unmoved_records_and_the_bond_list_themselves() -> None:
    doc = _water()
    before = doc.project["document"]
    ops.move_atoms(doc, ids=["a2"], translate=[0.1, 0, 0], preview=False)
    after = doc.project["document"]
    assert after["bonds"] is before["bonds"]
    assert after["atoms"].ids is before["atoms"].ids and after["atoms"].z is before["atoms"].z
    assert after["atoms"][0] == before["atoms"][0] and after["atoms"][2] == before["atoms"][2]
    assert after["atoms"][1] != before["atoms"][1]
    assert after["atoms"][1]["x"] == pytest.approx(1.06)
    assert before["atoms"][1]["x"] == 0.96  # the stored state before the move is untouched
    assert list(after["atoms"][1]) == list(before["atoms"][1])  # key order kept
    assert doc.stored_summary(doc.project) == {"formula": "H2O", "atomCount": 3}


def test_moves_of_every_kind_undo_and_redo_exactly() -> None:
    doc = _water()
    saved = json.dumps(doc.project)
    ops.move_atoms(doc, translate=[1.5, -2, 0.25], preview=False)
    ops.move_atoms(doc, rotate={"axis": [0, 0, 1], "angle": 33.0}, preview=False)
    ops.move_atoms(doc, positions={"a3": [0.1, 0.9, 0.2]}, preview=False)
    moved = json.dumps(doc.project)
    for _ in range(3):
        doc.undo()
    assert json.dumps(doc.project) == saved
    for _ in range(3):
        doc.redo()
    assert json.dumps(doc.project) == moved


def test_a_refused_move_changes_nothing() -> None:
    doc = _water()
    ops.set_atom_properties(doc, [{"id": "a3", "fixed": True}], preview=False)
    saved, revision = json.dumps(doc.project), doc.revision
    for call in (
        lambda: ops.move_atoms(doc, translate=[1, 0, 0], preview=False),
        lambda: ops.move_atoms(doc, positions={"a3": [5, 5, 5]}, preview=False),
        lambda: ops.move_atoms(doc, positions={"a2": [0, 0, 0.01]}, preview=False),
        lambda: ops.move_atoms(doc, ids=["a1", "a9"], translate=[1, 0, 0], preview=False),
    ):
        with pytest.raises(Exception) as info:
            call()
        assert getattr(info.value, "code", None) in {
            "fixed_atom",
            "atoms_too_close",
            "unknown_atom",
        }
    assert json.dumps(doc.project) == saved and doc.revision == revision


def test_a_move_to_where_the_atoms_are_changes_no_position() -> None:
    doc = _water()
    heard: list[Any] = []
    doc.subscribe(lambda _d, change: heard.append(change))
    atoms = doc.project["document"]["atoms"]
    ops.move_atoms(doc, translate=[0, 0, 0], preview=False)
    assert doc.project["document"]["atoms"] is atoms
    assert heard and not any(Change.POSITIONS in c for c in heard)
