"""A bonded atom added on a large structure's columns, around its parent, gives the project
the record edit of the whole structure gives (the Add-atom tool on many atoms)."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from molforma.app import building_ops
from molforma.document import building, table_edits
from molforma.document.document import Document
from molforma.document.molecule import AtomTable, as_table_project

METHANE = [
    ("C", 0.0, 0.0, 0.0),
    ("H", 0.629, 0.629, 0.629),
    ("H", -0.629, -0.629, 0.629),
    ("H", -0.629, 0.629, -0.629),
    ("H", 0.629, -0.629, -0.629),
]


def _box(side: int) -> dict[str, Any]:
    """``side``³ methanes 4 Å apart, as records."""
    atoms, bonds = [], []
    for k, (i, j, m) in enumerate(np.ndindex(side, side, side)):
        base = 5 * k
        for n, (el, x, y, z) in enumerate(METHANE):
            atoms.append(
                {
                    "id": f"a{base + n + 1}",
                    "element": el,
                    "x": x + 4.0 * i,
                    "y": y + 4.0 * j,
                    "z": z + 4.0 * m,
                }
            )
        bonds += [{"a": f"a{base + 1}", "b": f"a{base + n}", "order": 1} for n in range(2, 6)]
    return {"document": {"atoms": atoms, "bonds": bonds, "nextAtomId": len(atoms) + 1}}


def _state(project: dict[str, Any]) -> tuple[dict[str, tuple[str, tuple[float, ...]]], set[Any]]:
    doc = project["document"]
    atoms = doc["atoms"]
    records = atoms.to_records() if isinstance(atoms, AtomTable) else atoms
    at = {a["id"]: (a["element"], tuple(round(float(a[c]), 9) for c in "xyz")) for a in records}
    bonds = {(frozenset((b["a"], b["b"])), int(b["order"])) for b in doc["bonds"]}
    return at, bonds


@pytest.mark.parametrize(
    ("parent", "element", "toward"),
    [("a626", "C", None), ("a626", "O", (0.0, 0.0, 1.0)), ("a627", "C", None)],
)
def test_a_bonded_atom_on_the_columns_is_the_record_edit(
    parent: str, element: str, toward: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = _box(11)  # 6,655 atoms
    assert len(records["document"]["atoms"]) > building_ops.LOCAL_EDIT_FROM
    doc = Document(as_table_project(copy.deepcopy(records)))
    cut: list[int] = []
    original = table_edits.edit_around

    def spy(work: Any, ids: Any, edit: Any) -> Any:
        cut.append(len(work["document"]["atoms"]))
        return original(work, ids, edit)

    # patched where building_ops reads it: a lazy module's stand-in keeps what it read
    monkeypatch.setattr(building_ops.table_edits, "edit_around", spy)
    out = building_ops.add_bonded_atom(doc, parent, element, toward=toward, preview=False)
    assert cut == [len(records["document"]["atoms"])]  # the columns' path ran
    whole = copy.deepcopy(records)
    res = building.add_bonded_atom(whole, parent, element, adjust=True, toward=toward)
    assert isinstance(doc.project["document"]["atoms"], AtomTable)
    assert _state(doc.project) == _state(whole)
    assert sorted(out["addedIds"]) == sorted(res.added)
    assert sorted(out["removedIds"]) == sorted(res.removed)
    assert doc.project["document"]["nextAtomId"] == whole["document"]["nextAtomId"]
    doc.undo()
    assert _state(doc.project) == _state(as_table_project(copy.deepcopy(records)))
