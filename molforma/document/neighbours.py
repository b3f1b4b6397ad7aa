"""Pairs of points closer than a distance, found with a cell grid in numpy (no Qt).

Bond perception and the duplicate-atom check both ask "which atoms are within r
of each other" for up to 10,000 atoms. Atoms are sorted into cubic cells of a
side of at least ``r``; every close pair then lies in one cell or in two
neighbouring cells. A dense grid (an array indexed by cell) answers "how many
atoms in this cell, from where" for all atoms and all 13 half-shell neighbours at
once, so there is no Python loop per atom or per cell (one per neighbouring cell
offset). When the points are spread
so far apart that a dense grid would be large, a sorted list of occupied cells is
searched instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from molforma.document.arrays import runs

# Half of the 26 neighbour offsets (each neighbouring pair of cells is visited once).
_HALF_SHELL = [
    (dx, dy, dz)
    for dx in (-1, 0, 1)
    for dy in (-1, 0, 1)
    for dz in (-1, 0, 1)
    if (dx, dy, dz) > (0, 0, 0)
]
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


def _keys(cells: Any, span: Any) -> Any:
    """One integer per cell (row-major over the grid's span)."""
    return (cells[:, 0] * span[1] + cells[:, 1]) * span[2] + cells[:, 2]


def _offsets(shell: list[tuple[int, int, int]], span: Any) -> Any:
    """The key steps to the neighbouring cells of ``shell``."""
    return np.array([(dx * span[1] + dy) * span[2] + dz for dx, dy, dz in shell], dtype=np.int64)


def _dense(
    xyz: Any, cells: Any, span: Any, ncells: int, cutoff: float
) -> tuple[Any, Any, Any] | None:
    """Close pairs from a dense grid, one neighbour offset at a time.

    Each offset's candidates are measured and filtered at once, so no array larger than
    the points themselves lives long: on a machine where fresh memory is dear (page
    faults), that is most of the time of a search over 10,000 points.
    """
    keys = _keys(cells, span)
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]
    x, y, z = np.ascontiguousarray(xyz[order].T)
    counts = np.bincount(skeys, minlength=ncells)
    first = np.cumsum(counts) - counts
    n = len(skeys)
    pos = np.arange(n)
    offsets = _offsets(_HALF_SHELL, span).tolist()
    # own cell: the points after this one; neighbour cells: all their points
    per_offset = [(pos + 1, first[skeys] + counts[skeys] - pos - 1)]
    per_offset += [(first[skeys + off], counts[skeys + off]) for off in offsets]
    if sum(int(c.sum()) for _, c in per_offset) > _CANDIDATES_PER_POINT * n + 10_000:
        return None
    found_i, found_j, found_d = [], [], []
    for begins, cnt in per_offset:
        i, j = _expand(pos, cnt, begins)
        d = _distance(x, y, z, i, j)
        keep = d <= cutoff
        found_i.append(i[keep])
        found_j.append(j[keep])
        found_d.append(d[keep])
    i, j = order[np.concatenate(found_i)], order[np.concatenate(found_j)]
    return np.minimum(i, j), np.maximum(i, j), np.concatenate(found_d)


class CrowdedError(ValueError):
    """More candidate pairs than the caller allowed: points packed far closer than atoms."""


def _sparse(xyz: Any, side: float, max_candidates: int | None = None) -> tuple[Any, Any]:
    """Candidate pairs from the occupied cells only (points spread far apart).

    Raises:
        CrowdedError: more than ``max_candidates`` candidates (before any is made).
    """
    cells, span, _ = _grid(xyz, side)
    keys = _keys(cells, span)
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]
    uniq, first, counts = runs(skeys)
    cell_of = np.repeat(np.arange(len(uniq)), counts)
    pos = np.arange(len(skeys))
    rows_l = [pos]
    counts_l = [first[cell_of] + counts[cell_of] - pos - 1]
    begins_l = [pos + 1]
    for step in _offsets(_HALF_SHELL, span):
        target = uniq + step
        at = np.minimum(np.searchsorted(uniq, target), len(uniq) - 1)
        hit = uniq[at] == target
        rows_l.append(pos)
        counts_l.append(np.where(hit, counts[at], 0)[cell_of])
        begins_l.append(first[at][cell_of])
    all_counts = np.concatenate(counts_l)
    if max_candidates is not None and int(all_counts.sum()) > max_candidates:
        raise CrowdedError(f"{int(all_counts.sum())} candidate pairs")
    i, j = _expand(np.concatenate(rows_l), all_counts, np.concatenate(begins_l))
    i, j = order[i], order[j]
    return np.minimum(i, j), np.maximum(i, j)


def close_pairs(xyz: Any, cutoff: float, max_candidates: int | None = None) -> tuple[Any, Any, Any]:
    """``(i, j, d)`` of every pair of points with distance ``d <= cutoff``, ``i < j``.

    Each pair appears once, in no particular order. Points piled far closer than atoms
    ever are have millions of pairs; ``max_candidates`` bounds the pairs measured.

    Raises:
        CrowdedError: more than ``max_candidates`` candidate pairs.
    """
    xyz = np.asarray(xyz, dtype=float).reshape(-1, 3)
    n = len(xyz)
    if n < 2:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    # rounding never puts two points closer than the cutoff two cells apart
    side = max(float(cutoff), 1e-6) * 1.0001
    limit = _CELLS_PER_POINT * n + 4096
    ext = xyz.max(axis=0) - xyz.min(axis=0)
    grown = side
    # A grid of larger cells is still correct (more candidates to filter) and stays small.
    while float(np.prod(np.floor(ext / grown) + 3)) > limit:
        grown *= 1.5
    cells, span, ncells = _grid(xyz, grown)
    found = _dense(xyz, cells, span, ncells, cutoff)
    if found is not None:
        return found
    i, j = _sparse(xyz, side, max_candidates)
    d = distances(xyz, i, j)
    keep = d <= cutoff
    return i[keep], j[keep], d[keep]


_WHOLE_SHELL = [(dx, dy, dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)]


def near(xyz: Any, seeds: Any, reach: float) -> Any:
    """Boolean mask over the points: every point closer than ``reach`` to a point of
    ``seeds`` (indices), the seeds themselves, and possibly some farther ones.

    Only the cells around the seeds are looked into, so a handful of seeds among
    10,000 points costs one sort of the points' cells.
    """
    xyz = np.asarray(xyz, dtype=float).reshape(-1, 3)
    cells, span, _ = _grid(xyz, max(float(reach), 1e-6) * 1.0001)
    keys = _keys(cells, span)
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]
    offsets = _offsets(_WHOLE_SHELL, span)
    wanted = (keys[np.asarray(seeds, dtype=np.int64)][:, None] + offsets[None, :]).ravel()
    lo = np.searchsorted(skeys, wanted, side="left")
    hi = np.searchsorted(skeys, wanted, side="right")
    _, at = _expand(np.zeros(len(lo), dtype=np.int64), hi - lo, lo)
    mask = np.zeros(len(xyz), dtype=bool)
    mask[order[at]] = True
    return mask


def distances(xyz: Any, i: Any, j: Any) -> Any:
    """Distances between the points ``xyz[i]`` and ``xyz[j]`` (index arrays of one length).

    One coordinate at a time: gathering rows of an n x 3 array and summing along them is
    several times slower in numpy than three 1-D gathers (the sums are the same).
    """
    x, y, z = np.ascontiguousarray(np.asarray(xyz, dtype=float).reshape(-1, 3).T)
    return _distance(x, y, z, i, j)


def _distance(x: Any, y: Any, z: Any, i: Any, j: Any) -> Any:
    dx, dy, dz = x[j] - x[i], y[j] - y[i], z[j] - z[i]
    return np.sqrt(dx * dx + dy * dy + dz * dz)


def pairs_closer_than(xyz: Any, cutoff: float) -> tuple[Any, Any, Any]:
    """``(i, j, d)`` of every pair with distance ``d < cutoff``, ``i < j``, sorted by (i, j)."""
    i, j, d = close_pairs(xyz, cutoff)
    keep = d < cutoff
    i, j, d = i[keep], j[keep], d[keep]
    rank = np.lexsort((j, i))
    return i[rank], j[rank], d[rank]


# Candidate pairs measured at once by :func:`first_pairs_closer_than` (bounds its memory).
_CHUNK = 1 << 22


def _cell_keys(xyz: Any, side: float) -> Any:
    """One int64 key per point naming its cubic cell of ``side`` (a free cell on every face).

    Where the grid's span would not fit in 63 bits (points spread far apart), each axis is
    renumbered by rank first: two neighbouring cells stay neighbours, two distinct cells
    stay distinct, and cells that become neighbours only by the renumbering bring extra
    candidates, never fewer.
    """
    cells = np.floor((xyz - xyz.min(axis=0)) / side).astype(np.int64)
    span = [int(cells[:, k].max()) + 3 for k in range(3)]
    if span[0] * span[1] * span[2] >= 1 << 62:
        for k in range(3):
            cells[:, k] = np.unique(cells[:, k], return_inverse=True)[1].reshape(-1)
        span = [int(cells[:, k].max()) + 3 for k in range(3)]
    cells += 1
    return (cells[:, 0] * span[1] + cells[:, 1]) * span[2] + cells[:, 2], span


def _shared_half_cells(xyz: Any, side: float, is_query: Any) -> tuple[Any, Any]:
    """One pair ``(i, j)`` per cell of side ``side / 2`` holding two points or more.

    ``i`` is the cell's first point of the query (its first point when ``is_query`` is
    None), ``j`` the first other point; cells with no query point are skipped.
    """
    keys, _ = _cell_keys(xyz, side / 2)
    order = np.argsort(keys, kind="stable")  # stable: a cell's points in index order
    _, first, counts = runs(keys[order])
    shared = counts > 1
    first, counts = first[shared], counts[shared]
    if not len(first):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    if is_query is None:
        return order[first], order[first + 1]
    n = len(order)
    # the first query position of each cell (n when it has none)
    where = np.where(is_query[order], np.arange(n), n)
    firstq = np.minimum.reduceat(where, first)
    has = firstq < first + counts
    first, firstq = first[has], firstq[has]
    i = order[firstq]
    j = order[np.where(firstq == first, first + 1, first)]
    return i, j


def first_pairs_closer_than(
    xyz: Any, cutoff: float, query: Any = None, limit: int = 8
) -> tuple[Any, Any, Any]:
    """``(i, j, d)``, ``i < j``, of at most ``limit`` pairs closer than ``cutoff``, in time
    linear in the number of points whatever they are (no pair at all: empty arrays).

    ``query`` (indices) keeps the pairs with at least one point among them. Meant for
    refusing duplicates: 10,000 points on one spot have 50 million close pairs, and
    :func:`close_pairs` would list them all. Two points in one cube of side
    ``cutoff / 2`` are closer than ``cutoff`` (its diagonal is 0.87 ``cutoff``), so
    such cubes are looked at first; when none holds two points, a cell of side
    ``cutoff`` holds at most eight and the 27 cells around a point at most 216, so
    measuring every candidate is linear. The pairs are in (i, j) order, but they are the
    first ones found, not necessarily the first of all.
    """
    xyz = np.asarray(xyz, dtype=float).reshape(-1, 3)
    n = len(xyz)
    empty = np.zeros(0, dtype=np.int64)
    if n < 2 or not cutoff > 0:
        return empty, empty, np.zeros(0)
    is_query = None
    if query is not None:
        is_query = np.zeros(n, dtype=bool)
        is_query[np.asarray(query, dtype=np.int64).reshape(-1)] = True
        if not is_query.any():
            return empty, empty, np.zeros(0)
    # rounding never puts two points closer than the cutoff two cells apart
    side = float(cutoff) * 1.0001
    i, j = _shared_half_cells(xyz, side, is_query)
    if not len(i) and is_query is None:
        # no half cell holds two points, so a cell holds at most eight: the grid search of
        # every pair is linear here, and several times quicker than measuring by chunks
        i, j, _ = close_pairs(xyz, side)
    elif not len(i):
        i, j = _measured_pairs(xyz, side, cutoff, is_query, limit)
    d = distances(xyz, i, j)
    keep = d < cutoff
    a, b, d = np.minimum(i, j)[keep], np.maximum(i, j)[keep], d[keep]
    rank = np.lexsort((b, a))[:limit]
    return a[rank], b[rank], d[rank]


def _measured_pairs(
    xyz: Any, side: float, cutoff: float, is_query: Any, limit: int
) -> tuple[Any, Any]:
    """Pairs closer than ``cutoff`` around the query points, ``limit`` or a few more."""
    keys, span = _cell_keys(xyz, side)
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]
    x, y, z = np.ascontiguousarray(xyz.T)
    queries = np.arange(len(xyz)) if is_query is None else np.flatnonzero(is_query)
    steps = _offsets(_WHOLE_SHELL, span)
    found_i: list[Any] = []
    found_j: list[Any] = []
    total = 0
    for step in steps.tolist():
        wanted = keys[queries] + step
        lo = np.searchsorted(skeys, wanted, side="left")
        count = np.searchsorted(skeys, wanted, side="right") - lo
        # in slices of at most _CHUNK candidates (one crowded cell may hold many points)
        ends = np.cumsum(count)
        start = 0
        while start < len(queries):
            base = int(ends[start - 1]) if start else 0
            stop = max(int(np.searchsorted(ends, base + _CHUNK, side="right")), start + 1)
            i, at = _expand(queries[start:stop], count[start:stop], lo[start:stop])
            j = order[at]
            d = _distance(x, y, z, i, j)
            keep = (d < cutoff) & (i != j)
            found_i.append(i[keep])
            found_j.append(j[keep])
            total += int(keep.sum())
            start = stop
        if total >= 2 * limit:  # each pair of two query points is met from both ends
            break
    if not found_i:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    i, j = np.concatenate(found_i), np.concatenate(found_j)
    a, b = np.minimum(i, j), np.maximum(i, j)
    # Each pair once, in (a, b) order: one int64 key a pair (a, b < n, n * n < 2**63 up to
    # 3e9 points) sorted, not np.unique(axis=0), whose first call imports numpy.ma (0.5 MB,
    # 20-25 ms) inside the edit that happens to check contacts first.
    n = len(xyz)
    key = np.sort(a * n + b)
    first = np.ones(len(key), dtype=bool)
    first[1:] = key[1:] != key[:-1]
    key = key[first]
    return key // n, key % n
