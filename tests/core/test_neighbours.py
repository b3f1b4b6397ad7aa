"""The cell-grid searches find exactly the close pairs a brute-force search finds."""

from __future__ import annotations

import time

import numpy as np
import pytest

from molforma.document import neighbours
from molforma.formats import connectivity


def _brute(xyz: np.ndarray, cutoff: float) -> set[tuple[int, int]]:
    d = np.linalg.norm(xyz[:, None, :] - xyz[None, :, :], axis=2)
    i, j = np.nonzero(np.triu(d <= cutoff, k=1))
    return set(zip(i.tolist(), j.tolist(), strict=True))


@pytest.mark.parametrize(
    ("n", "box", "cutoff"),
    [
        (2, 1.0, 1.5),  # one cell
        (400, 12.0, 1.8),  # dense grid, a few pairs per point
        (300, 6.0, 2.5),  # crowded: many candidates per point
        (200, 5000.0, 3.0),  # spread far apart: the grid grows
    ],
)
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
    monkeypatch: pytest.MonkeyPatch,
) -> None:
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


@pytest.mark.parametrize(
    ("jitter", "fraction"),
    [
        (0.0, 0.01),
        (0.0, 0.6),
        (0.1, 0.03),
        (0.1, 0.97),
        (1.3, 0.1),  # 1.3 Å: H-H contacts
    ],
)
def test_cross_pairs_are_the_whole_structures_bonds_across_the_two_sets(
    jitter: float, fraction: float
) -> None:
    xyz, els = _water_box(3000, jitter, seed=int(fraction * 100))
    side = np.random.default_rng(1).random(len(els)) < fraction
    a, b = connectivity.bonded_pairs(xyz, els)
    across = side[a] != side[b]
    ca, cb = connectivity.cross_pairs(xyz, els, side)
    assert len(a[across]), "the case should have bonds across"
    assert ca.tolist() == a[across].tolist() and cb.tolist() == b[across].tolist()


def _brute_below(xyz: np.ndarray, cutoff: float) -> set[tuple[int, int]]:
    d = np.linalg.norm(xyz[:, None, :] - xyz[None, :, :], axis=2)
    i, j = np.nonzero(np.triu(d < cutoff, k=1))
    return set(zip(i.tolist(), j.tolist(), strict=True))


@pytest.mark.parametrize(
    ("n", "box", "cutoff", "dups"),
    [
        (300, 10.0, 0.1, 0),  # no close pair
        (300, 10.0, 0.1, 3),  # a few duplicates among spread points
        (400, 2.0, 0.3, 0),  # dense: many points per cell, some closer than the cutoff
        (200, 5000.0, 0.1, 2),  # spread far apart
    ],
)
def test_first_close_pairs_are_real_close_pairs_and_found_whenever_one_exists(
    n: int, box: float, cutoff: float, dups: int
) -> None:
    rng = np.random.default_rng(n + dups)
    xyz = rng.uniform(0, box, (n, 3))
    for k in range(dups):
        xyz[n - 1 - k] = xyz[k] + rng.uniform(-0.03, 0.03, 3)
    brute = _brute_below(xyz, cutoff)
    for query in (None, np.arange(n // 2, n)):
        i, j, d = neighbours.first_pairs_closer_than(xyz, cutoff, query, limit=4)
        pairs = set(zip(i.tolist(), j.tolist(), strict=True))
        wanted = {p for p in brute if query is None or p[0] in query or p[1] in query}
        assert pairs <= wanted
        assert bool(pairs) == bool(wanted)
        assert len(pairs) <= 4 and (i < j).all()
        assert np.allclose(d, np.linalg.norm(xyz[i] - xyz[j], axis=1), rtol=0, atol=1e-12)


def test_ten_thousand_points_on_one_spot_give_the_first_pair_at_once() -> None:
    xyz = np.zeros((10_000, 3))
    t0 = time.perf_counter()
    i, j, d = neighbours.first_pairs_closer_than(xyz, 0.1, limit=5)
    assert (i.tolist(), j.tolist()) == ([0], [1]) and d.tolist() == [0.0]
    # a query of every point, as moving all of them asks
    qi, qj, _ = neighbours.first_pairs_closer_than(xyz, 0.1, np.arange(10_000), limit=5)
    assert (qi.tolist(), qj.tolist()) == ([0], [1])
    assert time.perf_counter() - t0 < 2.0  # milliseconds; the pair list would be 50 million


def test_a_query_point_beside_a_pile_of_others_is_found_among_them() -> None:
    xyz = np.zeros((5000, 3))
    xyz[:4999] += [5.0, 5.0, 5.0]  # a pile away from the query point, which is alone
    xyz[4999] = [5.0, 5.0, 5.06]  # 0.06 Å above the pile, in another half cell
    i, j, d = neighbours.first_pairs_closer_than(xyz, 0.1, [4999], limit=3)
    assert len(i) == 3 and set(j.tolist()) == {4999} and np.allclose(d, 0.06)


def test_bond_perception_stops_at_thousands_of_atoms_on_one_spot_and_says_so() -> None:
    xyz = np.zeros((10_000, 3))
    seen: dict[str, float] = {}
    t0 = time.perf_counter()
    a, b = connectivity.bonded_pairs(xyz, ["C"] * 10_000, seen)
    assert time.perf_counter() - t0 < 2.0
    assert len(a) == len(b) == 0 and seen["crowded"]
    assert "closest" not in seen  # unmeasured: whoever loads the atoms checks them


def _packed(n: int, spacing: float = 0.11) -> np.ndarray:
    """n points on a cubic grid ``spacing`` apart: legal atoms (over 0.1 Å), no matter."""
    side = int(np.ceil(n ** (1 / 3)))
    k = np.arange(n)
    return np.stack([k % side, k // side % side, k // side // side], axis=1) * spacing


@pytest.mark.parametrize("n", [1000, 10_000])
def test_atoms_packed_denser_than_matter_get_no_bonds_at_once(n: int) -> None:
    from molforma.formats.rdkit_bridge import perceive_bonds

    xyz = _packed(n)
    t0 = time.perf_counter()
    seen: dict[str, float] = {}
    a, _ = connectivity.bonded_pairs(xyz, ["C"] * n, seen)
    assert len(a) == 0 and seen["crowded"] and connectivity.crowded(xyz, ["C"] * n)
    atoms = [
        {"id": f"a{k + 1}", "element": "C", "x": x, "y": y, "z": z}
        for k, (x, y, z) in enumerate(xyz.tolist())
    ]
    assert perceive_bonds(atoms, 0) == []  # RDKit is not asked about them
    assert time.perf_counter() - t0 < 10.0  # seconds at most; RDKit alone took minutes


def test_a_real_structure_is_not_crowded() -> None:
    xyz, els = _water_box(3000, 0.1, seed=5)
    assert not connectivity.crowded(xyz, els)
    assert len(connectivity.bonded_pairs(xyz, els)[0]) == 2000
