"""The structure as numpy columns, the one seam between the document and the window's
3D view and coordinate table (Qt-free, numpy only).

Renderers, picking and the coordinate table work on :class:`StructureArrays` only:
element kinds, ``xyz`` float64 ``(N, 3)``, fixed flags, bonds as an ``(M, 2)`` index
array with their orders. :func:`structure_arrays` is the only place that knows how the
document stores atoms today (records with ``id``, ``element``, ``x``, ``y``, ``z``,
``fixed``; bonds as ``a``, ``b``, ``order``), so a document that keeps its atoms as
columns changes this function and nothing behind it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter
from typing import Any

import numpy as np

from molforma.document import elements
from molforma.document.coordinates import xyz_array

_ELEMENT = itemgetter("element")
_ID = itemgetter("id")


@dataclass
class StructureArrays:
    """N atoms and M bonds as columns.

    ``kinds[i]`` indexes ``kind_symbols`` (one entry per distinct element symbol), so
    colours and radii are looked up once per element and spread with numpy.
    """

    ids: np.ndarray  # (N,) object: atom ids as the document names them
    kinds: np.ndarray  # (N,) int32 into kind_symbols
    kind_symbols: list[str]
    xyz: np.ndarray  # (N, 3) float64
    fixed: np.ndarray  # (N,) bool
    bonds: np.ndarray  # (M, 2) int64 rows into the atoms
    orders: np.ndarray  # (M,) int8
    _row: dict[Any, int] | None = field(default=None, repr=False)

    @property
    def count(self) -> int:
        """Number of atoms."""
        return len(self.ids)

    @property
    def elements(self) -> np.ndarray:
        """Element symbol of every atom (``(N,)`` str array)."""
        table = np.array(self.kind_symbols or [""], dtype=str)
        return table[self.kinds] if len(self.kinds) else np.zeros(0, dtype=str)

    @property
    def numbers(self) -> np.ndarray:
        """Atomic number of every atom (0 for a symbol that is no element)."""
        z = np.array([_atomic_number(s) for s in self.kind_symbols] or [0], dtype=np.int16)
        return z[self.kinds] if len(self.kinds) else np.zeros(0, dtype=np.int16)

    def row_of(self, atom_id: Any) -> int | None:
        """Row of an atom id (a dict made at the first call, then O(1))."""
        return self.row_map().get(atom_id)

    def row_map(self) -> dict[str, int]:
        """Atom id -> row (what :meth:`row_of` reads)."""
        if self._row is None:
            self._row = {a: i for i, a in enumerate(self.ids.tolist())}
        return self._row

    def rows_of(self, atom_ids: Iterable[Any]) -> np.ndarray:
        """Rows of the ids that are present (others are left out), in the order given."""
        found = (self.row_of(a) for a in atom_ids)
        return np.fromiter((r for r in found if r is not None), dtype=np.int64)


def _atomic_number(symbol: str) -> int:
    try:
        return elements.atomic_number(symbol)
    except (RuntimeError, ValueError, KeyError):
        return 0


def empty_structure() -> StructureArrays:
    """No atoms, no bonds."""
    return StructureArrays(
        np.zeros(0, dtype=object),
        np.zeros(0, dtype=np.int32),
        [],
        np.zeros((0, 3)),
        np.zeros(0, dtype=bool),
        np.zeros((0, 2), dtype=np.int64),
        np.zeros(0, dtype=np.int8),
    )


def structure_arrays(
    atoms: Sequence[Mapping[str, Any]] | StructureArrays, bonds: Sequence[Mapping[str, Any]] = ()
) -> StructureArrays:
    """The columns of a structure held as atom and bond records (the adapter).

    One pass per column, no per-atom objects kept: 1,000,000 records take about a
    second, which a document held as columns would not pay at all. Bonds naming an
    atom that is not in ``atoms`` are left out (a candidate's bonds to removed atoms).
    """
    if isinstance(atoms, StructureArrays):
        return atoms
    if hasattr(atoms, "xyz") and hasattr(atoms, "z") and hasattr(atoms, "id_strings"):
        return _from_tables(atoms, bonds)
    n = len(atoms)
    if n == 0:
        return empty_structure()
    ids = np.empty(n, dtype=object)
    ids[:] = list(map(_ID, atoms))
    table: dict[str, int] = {}
    kinds = np.fromiter(
        (table.setdefault(s, len(table)) for s in map(_ELEMENT, atoms)), dtype=np.int32, count=n
    )
    symbols = [str(s) for s in table]
    fixed = np.fromiter((bool(a.get("fixed")) for a in atoms), dtype=bool, count=n)
    out = StructureArrays(
        ids,
        kinds,
        symbols,
        xyz_array(atoms),
        fixed,
        np.zeros((0, 2), dtype=np.int64),
        np.zeros(0, dtype=np.int8),
    )
    if bonds:
        row = out.row_of  # builds the id → row dict once
        flat = np.fromiter(
            chain.from_iterable((_row_or(row, b["a"]), _row_or(row, b["b"])) for b in bonds),
            dtype=np.int64,
            count=2 * len(bonds),
        ).reshape(-1, 2)
        orders = np.fromiter(
            (int(b.get("order", 1)) for b in bonds), dtype=np.int8, count=len(bonds)
        )
        keep = (flat >= 0).all(axis=1)
        out.bonds = flat[keep] if not keep.all() else flat
        out.orders = orders[keep] if not keep.all() else orders
    return out


def _row_or(row: Any, atom_id: Any) -> int:
    r = row(atom_id)
    return -1 if r is None else int(r)


def _from_tables(atoms: Any, bonds: Any) -> StructureArrays:
    """Columns of a document that keeps them already (``AtomTable``/``BondTable`` of
    :mod:`molforma.document.molecule`): no record is built, the arrays are shared."""
    z = np.asarray(atoms.z, dtype=np.int64)
    # one kind per element present (colours and radii are looked up per kind)
    present = np.flatnonzero(np.bincount(z)) if len(z) else np.zeros(0, dtype=np.int64)
    lookup = np.zeros(int(present[-1]) + 1 if len(present) else 1, dtype=np.int32)
    lookup[present] = np.arange(len(present), dtype=np.int32)
    symbols = [elements.symbol_of(int(k)) if k else "X" for k in present.tolist()]
    out = StructureArrays(
        _id_strings(atoms),
        lookup[z],
        symbols,
        np.asarray(atoms.xyz, dtype=float),
        np.asarray(atoms.fixed, dtype=bool),
        np.zeros((0, 2), dtype=np.int64),
        np.zeros(0, dtype=np.int8),
    )
    if bonds is not None and len(bonds):
        if hasattr(bonds, "rows_in"):
            ia, ib = bonds.rows_in(atoms)
            pairs = np.stack([np.asarray(ia, np.int64), np.asarray(ib, np.int64)], axis=1)
            orders = np.asarray(bonds.order, dtype=np.int8)
            keep = (pairs >= 0).all(axis=1)
            out.bonds, out.orders = pairs[keep], orders[keep]
        else:
            other = structure_arrays(list(atoms), list(bonds))
            out.bonds, out.orders = other.bonds, other.orders
    return out


# The id strings of the last id column seen: the view and the table convert the same
# table, and an edit that keeps the atoms (a move) keeps the same read-only column.
_ID_CACHE: list[tuple[np.ndarray, np.ndarray]] = []


def _id_strings(atoms: Any) -> np.ndarray:
    column = atoms.ids
    if _ID_CACHE and _ID_CACHE[0][0] is column:
        return _ID_CACHE[0][1]
    ids = np.empty(len(column), dtype=object)
    ids[:] = atoms.id_strings
    _ID_CACHE[:] = [(column, ids)]
    return ids
