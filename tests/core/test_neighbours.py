"""The cell-grid searches find exactly the close pairs a brute-force search finds."""

from __future__ import annotations

import numpy as np
import pytest

from molforma.document import neighbours
from molforma.formats import connectivity


def _brute(xyz: np.ndarray, cutoff: float) -> set[tuple[int, int]]:
    d = np.linalg.norm(xyz[:, None, :] - xyz[None, :, :], axis=2)
    i, j = np.nonzero(np.triu(d <= cutoff, k=1))
    return set(zip(i.tolist(), j.tolist(), strict=True))


@pytest.mark.parametrize(("n", "box", "cutoff"), [
    (2, 1.0, 1.5),  # one cell
    (400, 12.0, 1.8),  # dense grid, a few pairs per point
    (300, 6.0, 2.5),  # crowded: many candidates per point
    (200, 5000.0, 3.0),  # spread far apart: the grid grows
])
def test_close_pairs_are_exactly_the_brute_force_pairs(n: int, box: float, cutoff: float) -> None:
    rng = np.random.default_rng(n)
    xyz = rng.uniform(0, box, (n, 3))
    if box > 1000:
        xyz[: n // 2] = rng.uniform(0, 10, (n // 2, 3))  # a tight cluster far from the rest
    i, j, d = neighbours.close_pairs(xyz, cutoff)
    pairs = list(zip(i.tolist(), j.tolist(), strict=True))
    assert len(pairs) == len(set(pairs))  # each pair once
    assert set(pairs) == _brute(xyz, cutoff)
    assert (i < j).all()
    assert np.allclose(d, np.linalg.norm(xyz[i] - xyz[j], axis=1), rtol=0, atol=1e-12)


def test_the_sparse_search_finds_the_same_pairs_as_the_dense_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    xyz = rng.uniform(0, 9.0, (500, 3))
    monkeypatch.setattr(neighbours, "_CANDIDATES_PER_POINT", 0)  # the dense grid gives up
    i, j, _ = neighbours.close_pairs(xyz, 1.7)
    assert set(zip(i.tolist(), j.tolist(), strict=True)) == _brute(xyz, 1.7)


def test_points_near_the_seeds_are_all_marked() -> None:
    rng = np.random.default_rng(3)
    xyz = rng.uniform(0, 30.0, (2000, 3))
    seeds = np.array([5, 700, 1999])
    mask = neighbours.near(xyz, seeds, 2.0)
    d = np.linalg.norm(xyz[:, None, :] - xyz[seeds][None, :, :], axis=2).min(axis=1)
    assert mask[d < 2.0].all() and mask[seeds].all()
    assert mask.sum() < 200  # the cells around three seeds, not the whole box


def _water_box(n: int, jitter: float, seed: int) -> tuple[np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    side = int(np.ceil((n / 3) ** (1 / 3)))
    rows, els = [], []
    for k in range(n // 3):
        o = np.array([k % side, (k // side) % side, k // side // side]) * 3.1
        rows += [o, o + np.array([0.957, 0, 0]), o + np.array([-0.24, 0.927, 0])]
        els += ["O", "H", "H"]
    xyz = np.array(rows) + rng.uniform(-jitter, jitter, (len(rows), 3))
    return xyz, els


@pytest.mark.parametrize(("jitter", "fraction"), [
    (0.0, 0.01), (0.0, 0.6), (0.1, 0.03), (0.1, 0.97), (1.3, 0.1),  # 1.3 Å: H-H contacts
])
def test_cross_pairs_are_the_whole_structures_bonds_across_the_two_sets(
        jitter: float, fraction: float) -> None:
    xyz, els = _water_box(3000, jitter, seed=int(fraction * 100))
    side = np.random.default_rng(1).random(len(els)) < fraction
    a, b = connectivity.bonded_pairs(xyz, els)
    across = side[a] != side[b]
    ca, cb = connectivity.cross_pairs(xyz, els, side)
    assert len(a[across]), "the case should have bonds across"
    assert ca.tolist() == a[across].tolist() and cb.tolist() == b[across].tolist()
