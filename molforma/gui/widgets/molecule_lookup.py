"""Looking atoms of the shown structure up by id through its columns (Qt-free).

The Molecule tab asks about a few atoms after every click (the selection's records, the
positions of a measurement, the ``C1``-style labels): at 1,000,000 atoms building every
atom's record or an id → record dict for that costs seconds. Here a look-up costs what
is asked: the rows of the ids come from the id column (``AtomTable.rows_of``, a
``searchsorted``), and only those rows' values are read. A document still held as lists
of records (an old project, a small structure) is read record by record, as before.

:func:`valence_problem_ids` is the document's check, with its cheap first pass done on
the columns: the atoms that are plainly fine are settled with numpy, and only the rest
(with their neighbours) go to the same RDKit check, so the answer is the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from molforma.document import building
from molforma.document.chemistry import is_metal
from molforma.document.elements import symbol_of
from molforma.document.molecule import AtomTable, BondTable
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.document import valence_columns
else:  # imported on first use (start-up time): molforma.lazy
    valence_columns = lazy_import("molforma.document.valence_columns")

# How many records count calls of :func:`records_of` built (tests check that a change of
# the selection builds the selected atoms' records only, never the whole document's).
built_records = [0]


def _atoms(shown: Mapping[str, Any]) -> Any:
    return shown["document"]["atoms"]


def rows_of(shown: Mapping[str, Any], ids: Sequence[str]) -> np.ndarray:
    """Rows of ``ids`` in the shown structure (-1 for an id that is not there)."""
    atoms = _atoms(shown)
    if isinstance(atoms, AtomTable):
        return atoms.rows_of(ids)
    want = {i: k for k, i in enumerate(ids)}
    out = np.full(len(ids), -1, dtype=np.int64)
    for row, a in enumerate(atoms):
        k = want.get(a.get("id"))
        if k is not None and out[k] < 0:
            out[k] = row
    return out


def positions_of(shown: Mapping[str, Any], ids: Sequence[str]) -> list[np.ndarray] | None:
    """Positions of ``ids`` (in that order), or None when one of them is not shown."""
    rows = rows_of(shown, ids)
    if (rows < 0).any():
        return None
    atoms = _atoms(shown)
    if isinstance(atoms, AtomTable):
        return [np.array(atoms.xyz[r], dtype=float) for r in rows.tolist()]
    return [
        np.array([atoms[r]["x"], atoms[r]["y"], atoms[r]["z"]], dtype=float) for r in rows.tolist()
    ]


def labels_of(shown: Mapping[str, Any], ids: Sequence[str]) -> dict[str, str]:
    """``C1``-style labels (element and 1-based row, the table's row) of the ids shown."""
    rows = rows_of(shown, ids)
    atoms = _atoms(shown)
    table = isinstance(atoms, AtomTable)
    out: dict[str, str] = {}
    for aid, r in zip(ids, rows.tolist(), strict=True):
        if r >= 0:
            # the element of that row only (the symbols column would be built whole)
            element = symbol_of(int(atoms.z[r])) if table else atoms[r]["element"]
            out[aid] = f"{element}{r + 1}"
    return out


def records_of(shown: Mapping[str, Any], ids: Sequence[str]) -> list[dict[str, Any]]:
    """The records of the ids shown, in document order (the ids not shown are left out)."""
    if not ids:
        return []
    rows = rows_of(shown, ids)
    rows = np.unique(rows[rows >= 0])
    built_records[0] += len(rows)
    atoms = _atoms(shown)
    if isinstance(atoms, AtomTable):
        return atoms.take(rows).to_records()
    return [atoms[r] for r in rows.tolist()]


def valence_problem_ids(shown: Mapping[str, Any]) -> list[str]:
    """:func:`molforma.document.building.valence_problem_ids`, of the column tables
    without a record per atom (:mod:`molforma.document.valence_columns`)."""
    atoms, bonds = _atoms(shown), shown["document"]["bonds"]
    if not isinstance(atoms, AtomTable) or not isinstance(bonds, BondTable):
        return building.valence_problem_ids(shown)  # type: ignore[arg-type]
    return valence_columns.valence_problem_ids(atoms, bonds)


def metal_ids(shown: Mapping[str, Any]) -> list[str]:
    """Ids of the metal atoms in document order (:func:`molforma.document.building.metal_ids`
    over the element column: one test per element present, not per atom)."""
    atoms = _atoms(shown)
    if not isinstance(atoms, AtomTable):
        return building.metal_ids(shown)  # type: ignore[arg-type]

    z = np.asarray(atoms.z, dtype=np.int64)
    if not len(z):
        return []
    metal_z = np.zeros(int(z.max()) + 1, dtype=bool)
    for k in np.flatnonzero(np.bincount(z)).tolist():
        metal_z[k] = bool(k) and is_metal(symbol_of(k))
    rows = np.flatnonzero(metal_z[z])
    return [f"a{i}" for i in atoms.ids[rows].tolist()]


def column_labels(shown: Mapping[str, Any], mode: str) -> dict[str, str] | None:
    """The view's atom labels of ``mode`` read from the columns (None when the atoms are
    records): ``charge`` and ``name`` visit the charged and named rows only."""
    atoms = _atoms(shown)
    if not isinstance(atoms, AtomTable):
        return None
    if mode == "charge":
        rows = np.flatnonzero(atoms.charge)
        return {
            f"a{i}": f"{int(c):+d}"
            for i, c in zip(atoms.ids[rows].tolist(), atoms.charge[rows].tolist(), strict=True)
        }
    if mode == "name":
        if atoms.names is None:
            return {}
        rows = np.flatnonzero(atoms.names.astype(bool))
        return {
            f"a{i}": str(nm)
            for i, nm in zip(atoms.ids[rows].tolist(), atoms.names[rows].tolist(), strict=True)
        }
    if mode == "element_index":
        syms = atoms.symbols.tolist()
        return {
            f"a{i}": f"{s}{k}"
            for k, (i, s) in enumerate(zip(atoms.ids.tolist(), syms, strict=True), start=1)
        }
    return None
