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
    return [{"id": f"a{i + 1}", "element": els[i % len(els)], "x": float(p[0]), "y": float(p[1]),
             "z": float(p[2])} for i, p in enumerate(pts)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_sweep_finds_exactly_the_bonds_rdkit_finds(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    atoms = _cluster(600, seed)
    monkeypatch.setattr(rb, "ORDER_PERCEPTION_LIMIT", 10**6)  # force RDKit's own path
    ref = rb.perceive_bonds([dict(a) for a in atoms], orders=False)
    index = {a["id"]: i for i, a in enumerate(atoms)}
    expected = sorted(tuple(sorted((index[b["a"]], index[b["b"]]))) for b in ref)
    assert expected, "the cluster should have bonds"
    assert rb.connectivity(atoms) == expected


def test_a_large_xyz_gets_its_bonds_from_the_sweep() -> None:
    side = 11
    pts = [(i * 1.5, j * 1.5, k * 1.5) for i in range(side) for j in range(side) for k in range(side)]
    text = f"{len(pts)}\ngrid\n" + "".join(f"C {x} {y} {z}\n" for x, y, z in pts)
    s = read_text(text, "xyz")
    assert len(s.atoms) == 1331
    # each interior carbon has 6 neighbours at 1.5 Å (1.3 × 1.52 Å reach), none diagonal
    assert len(s.bonds) == 3 * side * side * (side - 1)
    assert all(b["order"] == 1 for b in s.bonds)
