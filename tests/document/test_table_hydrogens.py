"""Element changes with hydrogens on the column tables: no atom record copied for the whole
structure, the same project as the record edit, undo and redo byte-identical."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from molforma.app import ops
from molforma.document import building
from molforma.document.document import Document, EditResult
from molforma.document.elements import normalize_symbol
from molforma.document.envelope import atoms_of, check_atom_fields
from molforma.document.molecule import AtomTable, plain_project

ETHANOL = [
    ("C", -1.2, 0.0, 0.0),
    ("C", 0.3, 0.0, 0.0),
    ("O", 0.8, 1.3, 0.0),
    ("H", -1.6, 1.0, 0.0),
    ("H", -1.6, -0.5, 0.9),
    ("H", -1.6, -0.5, -0.9),
    ("H", 0.7, -0.5, 0.9),
    ("H", 0.7, -0.5, -0.9),
    ("H", 1.7, 1.3, 0.0),
]


def _xyz(waters: int) -> str:
    """Ethanol, then ``waters`` water molecules on a grid well away from it."""
    rows = list(ETHANOL)
    side = int(np.ceil(waters ** (1 / 3)))
    for k in range(waters):
        i, j, m = k // (side * side), (k // side) % side, k % side
        x, y, z = 10.0 + 3.1 * i, 3.1 * j, 3.1 * m
        rows += [("O", x, y, z), ("H", x + 0.96, y, z), ("H", x - 0.24, y + 0.93, z)]
    return f"{len(rows)}\nethanol in water\n" + "".join(
        f"{e} {x:.4f} {y:.4f} {z:.4f}\n" for e, x, y, z in rows
    )


def _doc(waters: int) -> Document:
    doc = Document()
    ops.import_document(doc, _xyz(waters), "xyz", preview=False)
    assert isinstance(atoms_of(doc.project), AtomTable)
    return doc


def _dump(doc: Document) -> str:
    return json.dumps(plain_project(doc.project), sort_keys=True)


def _record_edit(
    project: dict[str, Any], changes: list[dict[str, Any]]
) -> tuple[dict[str, Any], EditResult]:
    """What the record edit of ``ops.set_atom_properties`` with hydrogens makes."""
    work = json.loads(json.dumps(plain_project(project)))
    index = {a["id"]: a for a in work["document"]["atoms"]}
    for ch in changes:
        atom = index[ch["id"]]
        el = normalize_symbol(ch["element"]) or ch["element"]
        if el != atom["element"]:
            atom["massNumber"] = None
        atom["element"] = el
        check_atom_fields(atom)
    res = EditResult(changed=[c["id"] for c in changes], touched=[])
    return work, building.merge_adjusted(work, res, [c["id"] for c in changes])


CHANGES = [
    [{"id": "a1", "element": "N"}],  # CH3 -> NH2: three hydrogens out, two in
    [{"id": "a3", "element": "N"}],  # OH -> NH2
    [{"id": "a3", "element": "S"}],  # OH -> SH: the hydrogen stays where it is
    [{"id": "a1", "element": "O"}, {"id": "a2", "element": "N"}, {"id": "a3", "element": "C"}],
]


@pytest.mark.parametrize("changes", CHANGES)
def test_the_column_edit_makes_the_record_edits_project(changes: list[dict[str, Any]]) -> None:
    doc = _doc(200)
    expected, res = _record_edit(doc.project, changes)
    out = ops.set_atom_properties(doc, changes, preview=False, adjust_hydrogens=True)
    got = plain_project(doc.project)["document"]
    want = expected["document"]
    assert got["atoms"] == want["atoms"]
    assert got["bonds"] == want["bonds"]
    assert got["nextAtomId"] == want["nextAtomId"]
    assert out["addedIds"] == res.added and out["removedIds"] == res.removed
    assert out["changedIds"] == res.changed


@pytest.mark.parametrize("changes", CHANGES)
def test_undo_and_redo_of_the_column_edit_are_byte_identical(changes: list[dict[str, Any]]) -> None:
    doc = _doc(200)
    before = _dump(doc)
    ops.set_atom_properties(doc, changes, preview=False, adjust_hydrogens=True)
    after = _dump(doc)
    assert after != before
    doc.undo()
    assert _dump(doc) == before
    doc.redo()
    assert _dump(doc) == after


def test_an_element_change_with_hydrogens_builds_no_record_of_the_whole_structure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    doc = _doc(3000)  # 9,009 atoms
    built: list[int] = []
    real = AtomTable.to_records

    def counted(self: AtomTable, start: int = 0, stop: int | None = None) -> list[Any]:
        out = real(self, start, stop)
        built.append(len(out))
        return out

    monkeypatch.setattr(AtomTable, "to_records", counted)
    ops.set_atom_properties(
        doc, [{"id": "a1", "element": "N"}], preview=False, adjust_hydrogens=True
    )
    monkeypatch.undo()
    assert [a["element"] for a in atoms_of(doc.project)[:3]] == ["N", "C", "O"]
    # the neighbourhood of the changed atom only, never the 9,009 atoms
    assert max(built) < 200, built


def _stripped(waters: int) -> Document:
    """Ethanol with its CH3 and OH hydrogens deleted (open valences), in water."""
    doc = _doc(waters)
    ops.delete_atoms(doc, ["a4", "a5", "a6", "a9"], preview=False)
    return doc


SELECTIONS = [["a1"], ["a3"], ["a1", "a2", "a3"], ["a2"], []]


@pytest.mark.parametrize("ids", SELECTIONS)
def test_hydrogens_of_a_selection_on_the_columns_make_the_record_edits_project(
    ids: list[str],
) -> None:
    from molforma.document import chemistry

    doc = _stripped(200)
    work = json.loads(json.dumps(plain_project(doc.project)))
    res = chemistry.add_hydrogens(work, list(ids))
    before = _dump(doc)
    out = ops.add_hydrogens(doc, ids, preview=False)
    got = plain_project(doc.project)["document"]
    assert got["atoms"] == work["document"]["atoms"]
    assert got["bonds"] == work["document"]["bonds"]
    assert got["nextAtomId"] == work["document"]["nextAtomId"]
    assert out.get("addedIds", []) == res.added
    if res.added:
        after = _dump(doc)
        doc.undo()
        assert _dump(doc) == before
        doc.redo()
        assert _dump(doc) == after


def test_hydrogens_of_a_selection_build_no_record_of_the_whole_structure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    doc = _stripped(3000)
    built: list[int] = []
    real = AtomTable.to_records

    def counted(self: AtomTable, start: int = 0, stop: int | None = None) -> list[Any]:
        out = real(self, start, stop)
        built.append(len(out))
        return out

    monkeypatch.setattr(AtomTable, "to_records", counted)
    out = ops.add_hydrogens(doc, ["a1", "a3"], preview=False)
    monkeypatch.undo()
    assert len(out["addedIds"]) == 4  # CH3 and OH again
    assert max(built) < 200, built


def test_hydrogens_of_an_unknown_atom_are_refused_and_nothing_changes() -> None:
    from molforma.errors import UnknownAtomError

    doc = _stripped(20)
    before, revision = _dump(doc), doc.revision
    with pytest.raises(UnknownAtomError):
        ops.add_hydrogens(doc, ["a1", "a999"], preview=False)
    assert _dump(doc) == before and doc.revision == revision
