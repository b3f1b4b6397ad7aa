"""Pairs of points closer than a distance, found with a cell grid in numpy (no Qt).

Bond perception and the duplicate-atom check both ask "which atoms are within r
of each other" for up to 10,000 atoms. Atoms are sorted into cubic cells of a
side of at least ``r``; every close pair then lies in one cell or in two
neighbouring cells. A dense grid (an array indexed by cell) answers "how many
atoms in this cell, from where" for all atoms and all 13 half-shell neighbours at
once, so there is no Python loop per atom or per cell. When the points are spread
so far apart that a dense grid would be large, a sorted list of occupied cells is
searched instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from molforma.document.arrays import runs

# Half of the 26 neighbour offsets (each neighbouring pair of cells is visited once).
_HALF_SHELL = [(dx, dy, dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)
               if (dx, dy, dz) > (0, 0, 0)]
# A dense grid may hold this many cells per point (plus a constant) before the side grows.
_CELLS_PER_POINT = 8
# Candidate pairs per point beyond which a grown cell is too coarse: use the sparse search.
_CANDIDATES_PER_POINT = 64


def _expand(rows: Any, counts: Any, begins: Any) -> tuple[Any, Any]:
    """(row repeated count times, begin + 0..count-1) for every (row, count, begin)."""
    total = int(counts.sum())
    if not total:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    starts = np.cumsum(counts) - counts
    offs = np.arange(total) - np.repeat(starts, counts)
    return np.repeat(rows, counts), np.repeat(begins, counts) + offs


def _grid(xyz: Any, side: float) -> tuple[Any, Any, int]:
    """Cell coordinates (from 1, a free cell on every face) and the grid's span and size."""
    cells = np.floor((xyz - xyz.min(axis=0)) / side).astype(np.int64) + 1
    span = cells.max(axis=0) + 2
    return cells, span, int(span[0]) * int(span[1]) * int(span[2])


def _dense(cells: Any, span: Any, ncells: int) -> tuple[Any, Any] | None:
    """Candidate pairs from a dense grid (sorted-position indices are mapped back)."""
    keys = (cells[:, 0] * span[1] + cells[:, 1]) * span[2] + cells[:, 2]
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]
    counts = np.bincount(skeys, minlength=ncells)
    first = np.cumsum(counts) - counts
    n = len(skeys)
    pos = np.arange(n)
    offsets = np.array([(dx * span[1] + dy) * span[2] + dz for dx, dy, dz in _HALF_SHELL],
                       dtype=np.int64)
    neighbour = skeys[:, None] + offsets[None, :]
    # own cell: the atoms after this one; neighbour cells: all their atoms
    own = first[skeys] + counts[skeys] - pos - 1
    ncount = np.concatenate([own, counts[neighbour].ravel()])
    if int(ncount.sum()) > _CANDIDATES_PER_POINT * n + 10_000:
        return None
    nbegin = np.concatenate([pos + 1, first[neighbour].ravel()])
    rows = np.concatenate([pos, np.repeat(pos, len(offsets))])
    i, j = _expand(rows, ncount, nbegin)
    return order[i], order[j]


def _sparse(xyz: Any, side: float) -> tuple[Any, Any]:
    """Candidate pairs from the occupied cells only (points spread far apart)."""
    cells, span, _ = _grid(xyz, side)
    keys = (cells[:, 0] * span[1] + cells[:, 1]) * span[2] + cells[:, 2]
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]
    uniq, first, counts = runs(skeys)
    cell_of = np.repeat(np.arange(len(uniq)), counts)
    pos = np.arange(len(skeys))
    rows_l = [pos]
    counts_l = [first[cell_of] + counts[cell_of] - pos - 1]
    begins_l = [pos + 1]
    for dx, dy, dz in _HALF_SHELL:
        target = uniq + (dx * span[1] + dy) * span[2] + dz
        at = np.minimum(np.searchsorted(uniq, target), len(uniq) - 1)
        hit = uniq[at] == target
        rows_l.append(pos)
        counts_l.append(np.where(hit, counts[at], 0)[cell_of])
        begins_l.append(first[at][cell_of])
    i, j = _expand(np.concatenate(rows_l), np.concatenate(counts_l), np.concatenate(begins_l))
    return order[i], order[j]


def candidate_pairs(xyz: Any, reach: float) -> tuple[Any, Any]:
    """Index arrays ``(i, j)``, ``i < j``, holding every pair closer than ``reach`` (and others).

    Each pair appears once. Callers filter by the distance they need.
    """
    xyz = np.asarray(xyz, dtype=float).reshape(-1, 3)
    n = len(xyz)
    if n < 2:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    # rounding never puts two points closer than reach two cells apart
    side = max(float(reach), 1e-6) * 1.0001
    limit = _CELLS_PER_POINT * n + 4096
    ext = xyz.max(axis=0) - xyz.min(axis=0)
    grown = side
    # A grid of larger cells is still correct (more candidates to filter) and stays small.
    while float(np.prod(np.floor(ext / grown) + 3)) > limit:
        grown *= 1.5
    cells, span, ncells = _grid(xyz, grown)
    found = _dense(cells, span, ncells)
    if found is None:
        found = _sparse(xyz, side)
    i, j = found
    return np.minimum(i, j), np.maximum(i, j)


def pairs_closer_than(xyz: Any, cutoff: float) -> tuple[Any, Any, Any]:
    """``(i, j, d)`` of every pair with distance ``d < cutoff``, ``i < j``, sorted by (i, j)."""
    xyz = np.asarray(xyz, dtype=float).reshape(-1, 3)
    i, j = candidate_pairs(xyz, cutoff)
    d = np.sqrt(((xyz[j] - xyz[i]) ** 2).sum(axis=1))
    keep = d < cutoff
    i, j, d = i[keep], j[keep], d[keep]
    rank = np.lexsort((j, i))
    return i[rank], j[rank], d[rank]
