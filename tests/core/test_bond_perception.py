"""Bond perception for large structures agrees with RDKit's connect-the-dots rule."""

from __future__ import annotations

import numpy as np
import pytest

from molforma.formats import rdkit_bridge as rb
from molforma.formats import read_text


def _cluster(n: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    els = ["C", "H", "O", "N", "S", "Cl", "Fe"]
    pts = rng.uniform(0, (n / 0.05) ** (1 / 3), (n, 3))
    return [
        {
            "id": f"a{i + 1}",
            "element": els[i % len(els)],
            "x": float(p[0]),
            "y": float(p[1]),
            "z": float(p[2]),
        }
        for i, p in enumerate(pts)
    ]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_sweep_finds_exactly_the_bonds_rdkit_finds(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    atoms = _cluster(600, seed)
    monkeypatch.setattr(rb, "ORDER_PERCEPTION_LIMIT", 10**6)  # force RDKit's own path
    ref = rb.perceive_bonds([dict(a) for a in atoms], orders=False)
    index = {a["id"]: i for i, a in enumerate(atoms)}
    expected = sorted(tuple(sorted((index[b["a"]], index[b["b"]]))) for b in ref)
    assert expected, "the cluster should have bonds"
    assert rb.connectivity(atoms) == expected


def test_a_large_xyz_gets_its_bonds_from_the_sweep() -> None:
    side = 11
    pts = [
        (i * 1.5, j * 1.5, k * 1.5) for i in range(side) for j in range(side) for k in range(side)
    ]
    text = f"{len(pts)}\ngrid\n" + "".join(f"C {x} {y} {z}\n" for x, y, z in pts)
    s = read_text(text, "xyz")
    assert len(s.atoms) == 1331
    # each interior carbon has 6 neighbours at 1.5 Å (1.3 × 1.52 Å reach), none diagonal
    assert len(s.bonds) == 3 * side * side * (side - 1)
    assert all(b["order"] == 1 for b in s.bonds)


def test_the_radius_table_is_the_one_rdkit_bonds_with_for_every_element() -> None:
    from molforma.document import elements
    from molforma.formats.connectivity import RADII

    for symbol in sorted(elements.SYMBOLS):
        assert RADII[symbol] == pytest.approx(rb.measured_radius(symbol), abs=1e-6), symbol


def test_atoms_spread_far_apart_get_the_same_bonds_as_from_rdkit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # two clusters 1,500 Å apart on the diagonal: the grid must not grow with the empty space
    # between them (RDKit keeps coordinates in single precision: further would blur them)
    atoms = _cluster(300, 6) + [
        dict(a, x=a["x"] + 900, y=a["y"] + 900, z=a["z"] + 900) for a in _cluster(300, 7)
    ]
    atoms = [dict(a, id=f"a{i + 1}") for i, a in enumerate(atoms)]
    monkeypatch.setattr(rb, "ORDER_PERCEPTION_LIMIT", 10**6)
    ref = rb.perceive_bonds([dict(a) for a in atoms], orders=False)
    index = {a["id"]: i for i, a in enumerate(atoms)}
    expected = sorted(tuple(sorted((index[b["a"]], index[b["b"]]))) for b in ref)
    assert expected
    assert rb.connectivity(atoms) == expected


def test_hydrogen_hydrogen_candidates_keep_one_bond_per_hydrogen() -> None:
    # H2 beside a water: no H-H bond between the molecules, the H2 bond stays
    atoms = [
        {"id": f"a{i + 1}", "element": e, "x": x, "y": y, "z": z}
        for i, (e, x, y, z) in enumerate(
            [
                ("O", 0.0, 0.0, 0.0),
                ("H", 0.96, 0.0, 0.0),
                ("H", -0.24, 0.93, 0.0),
                ("H", 2.6, 0.0, 0.0),
                ("H", 3.34, 0.0, 0.0),
            ]
        )
    ]
    assert rb.connectivity(atoms) == [(0, 1), (0, 2), (3, 4)]


def test_the_covalent_radii_and_default_valences_are_rdkits() -> None:
    from rdkit import Chem

    from molforma.document import elements

    pt = Chem.GetPeriodicTable()
    assert elements.COVALENT_RADII[1:] == tuple(pt.GetRcovalent(z) for z in range(1, 119))
    assert all(
        elements.default_valence(elements.symbol_of(z)) == pt.GetDefaultValence(z)
        for z in range(1, 119)
    )
