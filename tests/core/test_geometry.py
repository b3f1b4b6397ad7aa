"""Pure geometry: measurements, rotations, bond-graph splits and VSEPR directions."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest

from molforma.document import geometry as g
from molforma.document.envelope import new_atom, new_project
from molforma.errors import UnknownAtomError, ValidationError


def _project(
    atoms: list[tuple[str, tuple[float, float, float]]], bonds: list[tuple[int, int]]
) -> dict[str, Any]:
    p = new_project()
    p["document"]["atoms"] = [new_atom(f"a{i + 1}", e, *xyz) for i, (e, xyz) in enumerate(atoms)]
    p["document"]["bonds"] = [{"a": f"a{i}", "b": f"a{j}", "order": 1} for i, j in bonds]
    p["document"]["nextAtomId"] = len(atoms) + 1
    return p


def test_distance_and_angle_of_known_points() -> None:
    assert g.distance((0, 0, 0), (3, 4, 0)) == pytest.approx(5.0)
    assert g.angle((1, 0, 0), (0, 0, 0), (0, 1, 0)) == pytest.approx(90.0)
    assert g.angle((1, 0, 0), (0, 0, 0), (-1, 0, 0)) == pytest.approx(180.0)
    s = 1 / math.sqrt(3)
    assert g.angle((s, s, s), (0, 0, 0), (s, -s, -s)) == pytest.approx(109.4712, abs=1e-3)


@pytest.mark.parametrize("theta", [0.0, 35.0, 90.0, 150.0, 180.0, -60.0, -179.0])
def test_dihedral_follows_the_iupac_sign_convention(theta: float) -> None:
    t = math.radians(theta)
    p, q, r, s = (1, 0, 0), (0, 0, 0), (0, 0, 1), (math.cos(t), math.sin(t), 1)
    value = g.dihedral(p, q, r, s)
    assert -180.0 <= value <= 180.0
    assert math.isclose((value - theta + 180.0) % 360.0 - 180.0, 0.0, abs_tol=1e-9)


def test_dihedral_of_collinear_atoms_is_reported_undefined() -> None:
    assert not g.dihedral_defined((0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0))
    assert g.dihedral_defined((0, 1, 0), (0, 0, 0), (1, 0, 0), (1, 1, 0))


def test_rotation_matrix_is_a_proper_right_handed_rotation() -> None:
    rot = g.rotation_matrix((0, 0, 2), 90)
    assert rot @ np.array([1.0, 0, 0]) == pytest.approx([0.0, 1.0, 0.0], abs=1e-12)
    rot = g.rotation_matrix((1, 1, 1), 123.4)
    assert rot @ rot.T == pytest.approx(np.eye(3), abs=1e-12)
    assert np.linalg.det(rot) == pytest.approx(1.0)
    assert rot @ np.array([1.0, 1.0, 1.0]) == pytest.approx([1.0, 1.0, 1.0])


def test_rotation_about_a_zero_axis_is_refused() -> None:
    with pytest.raises(ValidationError) as exc:
        g.rotation_matrix((0, 0, 0), 10)
    assert exc.value.code == "bad_axis"


def _butane() -> dict[str, Any]:
    return _project(
        [
            ("C", (0, 0, 0)),
            ("C", (1.5, 0, 0)),
            ("C", (2, 1.4, 0)),
            ("C", (3.5, 1.4, 0)),
            ("H", (-0.5, -0.9, 0)),
        ],
        [(1, 2), (2, 3), (3, 4), (1, 5)],
    )


def test_fragments_split_gives_both_sides_of_a_chain_bond() -> None:
    side_a, side_b = g.fragments_split(_butane(), "a2", "a3")
    assert side_a == {"a1", "a2", "a5"}
    assert side_b == {"a3", "a4"}


def test_fragments_split_of_a_ring_bond_is_refused() -> None:
    ring = _project(
        [("C", (math.cos(k * math.pi / 3), math.sin(k * math.pi / 3), 0)) for k in range(6)],
        [(k + 1, (k + 1) % 6 + 1) for k in range(6)],
    )
    with pytest.raises(ValidationError) as exc:
        g.fragments_split(ring, "a1", "a2")
    assert exc.value.code == "in_ring"


def test_unbonded_atoms_split_into_their_connected_components() -> None:
    p = _project(
        [
            ("O", (0, 0, 0)),
            ("H", (0.96, 0, 0)),
            ("N", (4, 0, 0)),
            ("H", (5, 0, 0)),
            ("Ar", (9, 9, 9)),
        ],
        [(1, 2), (3, 4)],
    )
    side_a, side_b = g.fragments_split(p, "a2", "a3")
    assert side_a == {"a1", "a2"}
    assert side_b == {"a3", "a4"}
    with pytest.raises(ValidationError) as exc:
        g.fragments_split(_butane(), "a1", "a4")
    assert exc.value.code == "not_separable"


def test_fragments_split_refuses_unknown_or_identical_atoms() -> None:
    with pytest.raises(UnknownAtomError):
        g.fragments_split(_butane(), "a1", "a9")
    with pytest.raises(ValidationError):
        g.fragments_split(_butane(), "a1", "a1")


def test_components_are_listed_largest_first() -> None:
    p = _project([("Ar", (9, 9, 9)), ("O", (0, 0, 0)), ("H", (0.96, 0, 0))], [(2, 3)])
    assert g.components(p) == [["a2", "a3"], ["a1"]]


def _angles(dirs: list[np.ndarray]) -> list[float]:
    return [g.angle(a, (0, 0, 0), b) for a, b in itertools.combinations(dirs, 2)]


@pytest.mark.parametrize(("steric", "expected"), [(2, 180.0), (3, 120.0), (4, 109.4712)])
def test_free_directions_of_an_empty_centre_are_ideal(steric: int, expected: float) -> None:
    dirs = g.free_directions([], steric)
    assert len(dirs) == steric
    assert _angles(dirs) == pytest.approx([expected] * len(_angles(dirs)), abs=1e-3)


def test_tetrahedral_positions_next_to_one_bond_are_staggered_against_the_reference() -> None:
    bond = np.array([1.0, 0.0, 0.0])
    ref = np.array([0.3, 1.0, 0.0])
    dirs = g.free_directions([bond], 4, reference=ref)
    assert len(dirs) == 3
    for d in dirs:
        assert g.angle(d, (0, 0, 0), bond) == pytest.approx(109.4712, abs=1e-3)
    # The reference is a substituent of the neighbour (at ``bond``); the first free
    # position is anti to it, the others at ±60° (staggered).
    subst = bond + ref
    twists = sorted(abs(g.dihedral(subst, bond, (0, 0, 0), d)) for d in dirs)
    assert twists == pytest.approx([60.0, 60.0, 180.0], abs=1e-6)
    assert abs(g.dihedral(subst, bond, (0, 0, 0), dirs[0])) == pytest.approx(180.0, abs=1e-6)


def test_free_directions_respect_non_ideal_existing_bonds() -> None:
    # A CH2 in a cyclopropane-like ring: the new bonds lie on the bisecting plane.
    a = np.array([1.0, 0.0, 0.0])
    b = np.array([math.cos(math.radians(60)), math.sin(math.radians(60)), 0.0])
    dirs = g.free_directions([a, b], 4)
    assert len(dirs) == 2
    for d in dirs:
        assert g.angle(d, (0, 0, 0), a) == pytest.approx(g.angle(d, (0, 0, 0), b))
    assert g.angle(dirs[0], (0, 0, 0), dirs[1]) == pytest.approx(109.4712, abs=1e-3)


def test_octahedral_free_sites_complete_an_octahedron() -> None:
    existing = [np.array(v, dtype=float) for v in ((1, 0, 0), (0, 1, 0), (-1, 0, 0), (0, 0, 1))]
    dirs = g.free_directions(existing, 6)
    assert len(dirs) == 2
    targets = [np.array([0.0, -1.0, 0.0]), np.array([0.0, 0.0, -1.0])]
    for t in targets:
        assert min(float(np.linalg.norm(d - t)) for d in dirs) < 1e-6
