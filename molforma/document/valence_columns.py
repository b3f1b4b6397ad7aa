"""The valence checks over the column tables: numpy first, RDKit for the rest (no Qt).

:func:`molforma.document.building.valence_problem_ids` and
:func:`molforma.document.valence.missing_hydrogens` read atom records and ask RDKit about
every atom. On a stored :class:`~molforma.document.molecule.AtomTable` and
:class:`~molforma.document.molecule.BondTable` the same answers come from here without a
record per atom: atoms that are plainly settled (neutral, no unpaired electrons, no bond
to a metal, bond orders summing to at most the element's default valence) are answered in
numpy, where RDKit's rule is plain arithmetic (implicit hydrogens = default valence − bond
orders); only the other atoms, with their neighbours (so that each keeps all its bonds),
become records for the record functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from molforma.document import elements
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.document import valence
    from molforma.document.molecule import AtomTable, BondTable
else:  # imported on first use (RDKit): molforma.lazy
    valence = lazy_import("molforma.document.valence")


@dataclass(frozen=True)
class _FirstPass:
    """What numpy settles about every atom."""

    total: np.ndarray  # bond orders to non-metal atoms
    default: np.ndarray  # the element's default valence (-1: any)
    metal: np.ndarray
    by_metal: np.ndarray  # bonded to a metal
    plain: np.ndarray  # neutral, no unpaired electron, not a metal
    ia: np.ndarray  # rows of both ends of every bond between atoms present
    ib: np.ndarray


def _first_pass(atoms: AtomTable, bonds: BondTable) -> _FirstPass:
    z = np.asarray(atoms.z, dtype=np.int64)
    present = np.flatnonzero(np.bincount(z, minlength=1)).tolist()
    metal_z = np.zeros(int(max(present, default=0)) + 1, dtype=bool)
    default_z = np.full(len(metal_z), -1, dtype=np.int64)
    for k in present:
        if k and valence.is_metal(elements.symbol_of(k)):
            metal_z[k] = True
        elif k:
            default_z[k] = elements.DEFAULT_VALENCE[k]
    metal = metal_z[z]
    ia, ib = bonds.rows_in(atoms)
    order = np.asarray(bonds.order, dtype=np.int64)
    ok = (ia >= 0) & (ib >= 0)
    ia, ib, order = ia[ok], ib[ok], order[ok]
    between = ~metal[ia] & ~metal[ib]
    n = len(atoms)
    total = np.bincount(ia[between], weights=order[between], minlength=n) + np.bincount(
        ib[between], weights=order[between], minlength=n
    )
    by_metal = np.zeros(n, dtype=bool)
    by_metal[ia[metal[ib]]] = True
    by_metal[ib[metal[ia]]] = True
    plain = ~metal & (atoms.charge == 0) & (atoms.unpaired == 0)
    return _FirstPass(total.astype(np.int64), default_z[z], metal, by_metal, plain, ia, ib)


def _records_around(
    atoms: AtomTable, bonds: BondTable, fp: _FirstPass, rows: np.ndarray
) -> dict[str, Any]:
    """A record project of the atoms ``rows`` (mask) and their neighbours, with every bond
    between them: each atom of ``rows`` keeps all its bonds."""
    keep = rows.copy()
    near = rows[fp.ia] | rows[fp.ib]
    keep[fp.ia[near]] = True
    keep[fp.ib[near]] = True
    all_a, all_b = bonds.rows_in(atoms)
    inside = (all_a >= 0) & (all_b >= 0)
    inside[inside] &= keep[all_a[inside]] & keep[all_b[inside]]
    return {
        "document": {
            "atoms": atoms.take(np.flatnonzero(keep)).to_records(),
            "bonds": bonds.records_at(np.flatnonzero(inside)),
        }
    }


def valence_problem_ids(atoms: AtomTable, bonds: BondTable) -> list[str]:
    """:func:`molforma.document.building.valence_problem_ids` of the tables: the same ids."""
    if not len(atoms):
        return []
    fp = _first_pass(atoms, bonds)
    suspicious = ~fp.metal & (~fp.plain | ((fp.default >= 0) & (fp.total > fp.default)))
    if not suspicious.any():
        return []
    flagged = set(atoms.take(np.flatnonzero(suspicious)).id_strings)
    found = valence.valence_exceeded_ids(_records_around(atoms, bonds, fp, suspicious))
    return [i for i in found if i in flagged]


def missing_hydrogens(atoms: AtomTable, bonds: BondTable) -> dict[str, int]:
    """:func:`molforma.document.valence.missing_hydrogens` of the tables: the same counts,
    in atom order."""
    if not len(atoms):
        return {}
    fp = _first_pass(atoms, bonds)
    hydrogen = np.asarray(atoms.z) == 1
    asked = ~fp.metal & ~hydrogen
    settled = asked & fp.plain & ~fp.by_metal & (fp.total <= fp.default)
    count = np.where(settled, fp.default - fp.total, 0)
    rest = asked & ~settled
    if rest.any():
        found = valence.missing_hydrogens(_records_around(atoms, bonds, fp, rest))
        rows = atoms.rows_of(list(found))
        for row, n in zip(rows.tolist(), found.values(), strict=True):
            if row >= 0 and rest[row]:
                count[row] = n
    ids = atoms.ids
    return {f"a{ids[k]}": int(count[k]) for k in np.flatnonzero(count > 0).tolist()}
