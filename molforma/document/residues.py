"""Residues of a structure read from PDB, and selections over them (no Qt).

An atom read from a PDB file carries its residue (name, number, insertion code) and
chain (:mod:`molforma.formats.pdb_residues` names the fields). :func:`residue_columns`
gives them as numpy columns with one residue index per atom, from the table's
residue columns when it has them, else from the atoms' optional fields. The selections
are masks over the atom rows:

- :func:`select_residues`: residues by name, number and chain;
- :func:`within`: every atom closer than R Å to a selected atom (a cell grid, so a
  handful of ligand atoms among 50,000 looks only at the cells around them), optionally
  grown to whole residues (:func:`whole_residues`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from molforma.document.neighbours import _expand, _grid, _keys, _offsets

# Seeds measured against their neighbourhood at once (bounds the pair arrays' memory).
_SEED_BLOCK = 4096
_WHOLE_SHELL = [(dx, dy, dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)]


@dataclass(frozen=True, eq=False)
class ResidueColumns:
    """Residue fields per atom row; ``index`` numbers the residues (-1: an atom of none)."""

    name: np.ndarray  # object (str), "" for an atom of no residue
    number: np.ndarray  # int64
    chain: np.ndarray  # object (str)
    insertion: np.ndarray  # object (str)
    index: np.ndarray  # int64, residues numbered in order of first appearance

    @property
    def count(self) -> int:
        """How many residues."""
        return int(self.index.max()) + 1 if len(self.index) else 0

    def label(self, row: int) -> str:
        """``ASP A 52A``: the residue of atom ``row`` as people write it."""
        return (
            f"{self.name[row]} {self.chain[row]} {self.number[row]}{self.insertion[row]}".replace(
                "  ", " "
            ).strip()
        )


def residue_columns(atoms: Any) -> ResidueColumns | None:
    """The residue columns of an :class:`~molforma.document.molecule.AtomTable` (or a list
    of atom dicts); None when no atom has a residue."""
    residues = getattr(atoms, "residues", None)
    if residues is not None:
        name = np.asarray(residues.name, dtype=object)
        number = np.asarray(residues.number, dtype=np.int64)
        chain = np.asarray(residues.chain, dtype=object)
        insertion = np.asarray(residues.insertion, dtype=object)
    else:
        extra = getattr(atoms, "extra", None)
        if extra is not None:
            records: Iterable[Any] = (extra.get(i) or {} for i in atoms.ids.tolist())
        else:
            records = atoms
        fields = [
            (r.get("residueName"), r.get("residueNumber"), r.get("chain"), r.get("insertionCode"))
            for r in records
        ]
        if not any(f[0] is not None for f in fields):
            return None
        n = len(fields)
        name = (
            np.array([str(f[0] or "") for f in fields], dtype=object) if n else np.zeros(0, object)
        )
        number = np.array(
            [f[1] if isinstance(f[1], int) and not isinstance(f[1], bool) else 0 for f in fields],
            dtype=np.int64,
        )
        chain = np.array([str(f[2] or "") for f in fields], dtype=object)
        insertion = np.array([str(f[3] or "") for f in fields], dtype=object)
    keys: dict[tuple[Any, ...], int] = {}
    index = np.fromiter(
        (
            keys.setdefault(k, len(keys)) if k[0] else -1
            for k in zip(
                name.tolist(), number.tolist(), chain.tolist(), insertion.tolist(), strict=True
            )
        ),
        dtype=np.int64,
        count=len(name),
    )
    return ResidueColumns(name, number, chain, insertion, index)


def select_residues(
    columns: ResidueColumns,
    *,
    names: Iterable[str] = (),
    numbers: Iterable[int] = (),
    chains: Iterable[str] = (),
) -> np.ndarray:
    """Mask of the atoms whose residue has one of ``names`` (any case) and one of
    ``numbers`` and is in one of ``chains``; a criterion not given takes every residue."""
    mask = columns.index >= 0
    wanted_names = {str(n).strip().upper() for n in names}
    if wanted_names:
        upper = np.array([s.upper() for s in columns.name.tolist()], dtype=object)
        mask &= np.isin(upper, list(wanted_names))
    wanted_numbers = [int(n) for n in numbers]
    if wanted_numbers:
        mask &= np.isin(columns.number, wanted_numbers)
    wanted_chains = [str(c).strip() for c in chains]
    if wanted_chains:
        mask &= np.isin(columns.chain, wanted_chains)
    return mask


def whole_residues(columns: ResidueColumns, mask: np.ndarray) -> np.ndarray:
    """``mask`` grown to every atom of each residue it touches (atoms of no residue stay
    as they are)."""
    touched = np.unique(columns.index[mask & (columns.index >= 0)])
    return mask | np.isin(columns.index, touched)


def within(xyz: Any, seeds: np.ndarray, radius: float) -> np.ndarray:
    """Mask of the points at most ``radius`` Å from a point of the mask ``seeds`` (the
    seeds included), found through a grid of cells of side ``radius``."""
    xyz = np.asarray(xyz, dtype=float).reshape(-1, 3)
    seed_rows = np.flatnonzero(seeds)
    out = np.asarray(seeds, dtype=bool).copy()
    if not len(seed_rows) or radius <= 0:
        return out
    cells, span, _ = _grid(xyz, float(radius) * 1.0001)
    keys = _keys(cells, span)
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]
    offsets = _offsets(_WHOLE_SHELL, span)
    r2 = float(radius) ** 2
    for start in range(0, len(seed_rows), _SEED_BLOCK):
        block = seed_rows[start : start + _SEED_BLOCK]
        wanted = (keys[block][:, None] + offsets[None, :]).ravel()
        lo = np.searchsorted(skeys, wanted, side="left")
        hi = np.searchsorted(skeys, wanted, side="right")
        which, at = _expand(np.repeat(block, len(offsets)), hi - lo, lo)
        other = order[at]
        d = xyz[other] - xyz[which]
        close = np.einsum("ij,ij->i", d, d) <= r2
        out[other[close]] = True
    return out
