"""Chemistry edits and checks: hydrogens, internal coordinates, fragments, measure, validate."""

from __future__ import annotations

import copy
import itertools
import math
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from molforma.catalog import get_catalog
from molforma.document import chemistry as ch
from molforma.document.elements import covalent_radius
from molforma.document.envelope import check_structure, formula, new_atom, new_project
from molforma.document.geometry import angle, dihedral, distance
from molforma.errors import UnknownAtomError, ValidationError

Atoms = list[tuple[str, tuple[float, float, float]]]


def project(atoms: Atoms, bonds: list[tuple[int, int, int]] = (), **props: Any) -> dict[str, Any]:
    """A project from (element, xyz) tuples; atom k gets id a{k+1}; bonds are 1-based."""
    p = new_project()
    p["document"]["atoms"] = [new_atom(f"a{i + 1}", e, *xyz) for i, (e, xyz) in enumerate(atoms)]
    p["document"]["bonds"] = [{"a": f"a{i}", "b": f"a{j}", "order": o} for i, j, o in bonds]
    p["document"]["nextAtomId"] = len(atoms) + 1
    for aid, values in props.items():
        atom(p, aid).update(values)
    return p


def atom(p: dict[str, Any], aid: str) -> dict[str, Any]:
    return next(a for a in p["document"]["atoms"] if a["id"] == aid)


def xyz(p: dict[str, Any], aid: str) -> np.ndarray:
    a = atom(p, aid)
    return np.array([a["x"], a["y"], a["z"]])


def neighbours(p: dict[str, Any], aid: str) -> list[str]:
    return [
        b["b"] if b["a"] == aid else b["a"]
        for b in p["document"]["bonds"]
        if aid in (b["a"], b["b"])
    ]


def hydrogens_of(p: dict[str, Any], aid: str) -> list[str]:
    return [n for n in neighbours(p, aid) if atom(p, n)["element"] == "H"]


def bond_angles(p: dict[str, Any], center: str) -> list[float]:
    c = xyz(p, center)
    return [
        angle(xyz(p, a), c, xyz(p, b)) for a, b in itertools.combinations(neighbours(p, center), 2)
    ]


def hill(p: dict[str, Any]) -> str:
    return formula(p["document"]["atoms"])


def min_nonbonded(p: dict[str, Any]) -> float:
    """Shortest distance between atoms more than two bonds apart."""
    ids = [a["id"] for a in p["document"]["atoms"]]
    adj = {i: set(neighbours(p, i)) for i in ids}
    best = math.inf
    for a, b in itertools.combinations(ids, 2):
        if b in adj[a] or adj[a] & adj[b]:
            continue
        best = min(best, distance(xyz(p, a), xyz(p, b)))
    return best


def close_contacts(p: dict[str, Any]) -> list[tuple[str, str]]:
    """Pairs closer than half the sum of their covalent radii (validate's rule)."""
    out = []
    for a, b in itertools.combinations(p["document"]["atoms"], 2):
        limit = 0.5 * (covalent_radius(a["element"]) + covalent_radius(b["element"]))
        if distance(xyz(p, a["id"]), xyz(p, b["id"])) < limit:
            out.append((a["id"], b["id"]))
    return out


def methane() -> dict[str, Any]:
    p = project([("C", (0.0, 0.0, 0.0))])
    ch.add_hydrogens(p)
    return p


def benzene() -> dict[str, Any]:
    ring = [
        ("C", (1.39 * math.cos(k * math.pi / 3), 1.39 * math.sin(k * math.pi / 3), 0.0))
        for k in range(6)
    ]
    p = project(ring, [(k + 1, (k + 1) % 6 + 1, 2 if k % 2 == 0 else 1) for k in range(6)])
    ch.add_hydrogens(p)
    return p


def butane() -> dict[str, Any]:
    p = project(
        [
            ("C", (0.0, 0.0, 0.0)),
            ("C", (1.54, 0.0, 0.0)),
            ("C", (2.05, 1.45, 0.0)),
            ("C", (3.59, 1.45, 0.0)),
        ],
        [(1, 2, 1), (2, 3, 1), (3, 4, 1)],
    )
    ch.add_hydrogens(p)
    return p


# ---------------------------------------------------------------------------------------------
# add_hydrogens


@pytest.mark.parametrize(
    ("atoms", "bonds", "expected_formula", "ch_length", "bond_angle"),
    [
        ([("C", (0, 0, 0))], [], "CH4", 1.09, 109.47),
        ([("C", (0, 0, 0)), ("C", (1.34, 0, 0))], [(1, 2, 2)], "C2H4", 1.08, 120.0),
        ([("C", (0, 0, 0)), ("C", (1.20, 0, 0))], [(1, 2, 3)], "C2H2", 1.06, 180.0),
        ([("C", (0, 0, 0)), ("C", (1.54, 0, 0))], [(1, 2, 1)], "C2H6", 1.09, 109.47),
        ([("N", (0, 0, 0))], [], "H3N", 1.01, 109.47),
        ([("O", (0, 0, 0))], [], "H2O", 0.96, 109.47),
    ],
)
def test_add_hydrogens_fills_valences_with_vsepr_geometry(
    atoms: Atoms,
    bonds: list[tuple[int, int, int]],
    expected_formula: str,
    ch_length: float,
    bond_angle: float,
) -> None:
    p = project(atoms, bonds)
    res = ch.add_hydrogens(p)
    check_structure(p)
    assert hill(p) == expected_formula
    assert sorted(res.added) == sorted(res.touched)
    for h in hydrogens_of(p, "a1"):
        assert distance(xyz(p, "a1"), xyz(p, h)) == pytest.approx(ch_length, abs=0.005)
    assert bond_angles(p, "a1") == pytest.approx([bond_angle] * len(bond_angles(p, "a1")), abs=0.1)


def test_ethylene_gets_a_planar_structure() -> None:
    p = project([("C", (0, 0, 0)), ("C", (1.34, 0, 0))], [(1, 2, 2)])
    ch.add_hydrogens(p)
    h1, h2 = hydrogens_of(p, "a1")
    for h in hydrogens_of(p, "a2"):
        for ref in (h1, h2):
            value = abs(dihedral(xyz(p, ref), xyz(p, "a1"), xyz(p, "a2"), xyz(p, h)))
            assert min(value, abs(180 - value)) == pytest.approx(0.0, abs=1e-6)


def test_ethane_hydrogens_are_staggered() -> None:
    p = project([("C", (0, 0, 0)), ("C", (1.54, 0, 0))], [(1, 2, 1)])
    ch.add_hydrogens(p)
    ref = hydrogens_of(p, "a1")[0]
    twists = sorted(
        abs(dihedral(xyz(p, ref), xyz(p, "a1"), xyz(p, "a2"), xyz(p, h)))
        for h in hydrogens_of(p, "a2")
    )
    assert twists == pytest.approx([60.0, 60.0, 180.0], abs=0.01)


def test_benzene_ring_gets_six_in_plane_hydrogens() -> None:
    p = benzene()
    assert hill(p) == "C6H6"
    for k in range(1, 7):
        (h,) = hydrogens_of(p, f"a{k}")
        assert atom(p, h)["z"] == pytest.approx(0.0, abs=1e-9)
        assert bond_angles(p, f"a{k}") == pytest.approx([120.0, 120.0, 120.0], abs=0.1)
    assert close_contacts(p) == []


@pytest.mark.parametrize(
    ("element", "props", "expected_formula", "planar"),
    [
        ("C", {"unpairedElectrons": 1}, "CH3", True),  # methyl radical
        ("C", {"formalCharge": 1}, "CH3", True),  # methyl cation
        ("C", {"formalCharge": -1}, "CH3", False),  # methyl anion (pyramidal)
        ("N", {"formalCharge": 1}, "H4N", False),  # ammonium
        ("O", {"formalCharge": -1}, "HO", False),  # hydroxide
        ("B", {}, "BH3", True),  # borane
    ],
)
def test_charges_and_radicals_change_the_hydrogen_count_and_shape(
    element: str, props: dict[str, int], expected_formula: str, planar: bool
) -> None:
    p = project([(element, (0, 0, 0))], a1=props)
    ch.add_hydrogens(p)
    assert hill(p) == expected_formula
    if len(hydrogens_of(p, "a1")) == 3:
        total = sum(bond_angles(p, "a1"))
        assert (total == pytest.approx(360.0, abs=0.1)) is planar


def test_saturated_atoms_metals_and_hydrogens_get_no_hydrogens() -> None:
    p = methane()
    before = copy.deepcopy(p)
    res = ch.add_hydrogens(p)
    assert res.added == []
    assert p == before
    fe = project([("Fe", (0, 0, 0)), ("H", (5, 0, 0))])
    assert ch.add_hydrogens(fe).added == []


def test_only_the_given_atoms_get_hydrogens_and_new_ids_are_never_reused() -> None:
    p = project([("C", (0, 0, 0)), ("O", (1.43, 0, 0))], [(1, 2, 1)])
    p["document"]["nextAtomId"] = 10  # ids a3..a9 were used and deleted before
    res = ch.add_hydrogens(p, ["a2"])
    assert res.added == ["a10"]
    assert hill(p) == "CHO"  # C keeps its open valences
    assert p["document"]["nextAtomId"] == 11
    res = ch.add_hydrogens(p)
    assert res.added == ["a11", "a12", "a13"]
    assert hill(p) == "CH4O"


def test_add_hydrogens_never_moves_fixed_atoms_and_rejects_unknown_ids() -> None:
    p = project([("C", (0.1, 0.2, 0.3)), ("C", (1.64, 0.2, 0.3))], [(1, 2, 1)], a1={"fixed": True})
    before = (atom(p, "a1")["x"], atom(p, "a1")["y"], atom(p, "a1")["z"])
    ch.add_hydrogens(p)
    assert (atom(p, "a1")["x"], atom(p, "a1")["y"], atom(p, "a1")["z"]) == before
    with pytest.raises(UnknownAtomError):
        ch.add_hydrogens(p, ["a99"])


def test_ligands_bound_to_a_metal_get_no_spurious_hydrogens() -> None:
    # Fe–PMe3 (dative) and Fe–CH3 (covalent): both are already complete.
    p = project([("Fe", (0, 0, 0))])
    ch.place_fragment(p, "PMe3", "a1", kind="ligand")
    ch.place_fragment(p, "methyl", "a1", kind="fragment")
    ch.place_fragment(p, "NH3", "a1", kind="ligand")
    before = hill(p)
    assert ch.add_hydrogens(p).added == []
    assert hill(p) == before == "C4H15FeNP"


def test_an_amide_nitrogen_gets_planar_hydrogens() -> None:
    # formamide skeleton H-C(=O)-N
    p = project(
        [("C", (0, 0, 0)), ("O", (-0.6, 1.05, 0)), ("N", (1.35, 0, 0))], [(1, 2, 2), (1, 3, 1)]
    )
    ch.add_hydrogens(p)
    assert hill(p) == "CH3NO"
    assert sum(bond_angles(p, "a3")) == pytest.approx(360.0, abs=0.1)


# ---------------------------------------------------------------------------------------------
# set_internal_coordinate


def test_butane_dihedral_moves_the_side_of_the_last_atom_and_keeps_the_rest_exactly() -> None:
    p = butane()
    before = copy.deepcopy(p)
    res = ch.set_internal_coordinate(p, ["a1", "a2", "a3", "a4"], 60.0)
    value = dihedral(*(xyz(p, i) for i in ("a1", "a2", "a3", "a4")))
    assert value == pytest.approx(60.0, abs=1e-6)
    moving = {"a4", *hydrogens_of(p, "a3"), *hydrogens_of(p, "a4")}  # equal sides: last id's
    assert set(res.changed) == moving
    for a, b in zip(before["document"]["atoms"], p["document"]["atoms"], strict=True):
        if a["id"] not in moving:
            assert a == b
    # Bond lengths inside the moved part are unchanged.
    assert distance(xyz(p, "a3"), xyz(p, "a4")) == pytest.approx(1.54, abs=1e-9)


def test_the_smaller_side_moves_whatever_the_order_of_the_ids() -> None:
    p = butane()
    ch.place_fragment(p, "phenyl", "a1")  # a big group on the first carbon
    before = copy.deepcopy(p)
    small = {"a4", *hydrogens_of(p, "a4"), *hydrogens_of(p, "a3")}
    res = ch.set_internal_coordinate(p, ["a1", "a2", "a3", "a4"], -70.0)
    assert set(res.changed) == small
    assert dihedral(*(xyz(p, i) for i in ("a1", "a2", "a3", "a4"))) == pytest.approx(-70.0)
    p = before
    res = ch.set_internal_coordinate(p, ["a4", "a3", "a2", "a1"], -70.0)
    assert set(res.changed) == small
    assert dihedral(*(xyz(p, i) for i in ("a4", "a3", "a2", "a1"))) == pytest.approx(-70.0)


def test_fixed_atoms_make_the_other_side_move_and_never_move_themselves() -> None:
    p = butane()
    atom(p, "a4")["fixed"] = True
    fixed_before = xyz(p, "a4").copy()
    res = ch.set_internal_coordinate(p, ["a1", "a2", "a3", "a4"], 75.0)
    assert "a1" in res.changed and "a4" not in res.changed
    assert np.array_equal(xyz(p, "a4"), fixed_before)
    assert dihedral(*(xyz(p, i) for i in ("a1", "a2", "a3", "a4"))) == pytest.approx(75.0)


def test_both_sides_fixed_is_refused_without_changes() -> None:
    p = butane()
    atom(p, "a1")["fixed"] = True
    atom(p, "a4")["fixed"] = True
    with pytest.raises(ValidationError) as exc:
        ch.set_internal_coordinate(p, ["a1", "a2", "a3", "a4"], 75.0)
    assert exc.value.code == "fixed_atom"
    # An atom on the rotation axis may be fixed: it does not move.
    p = butane()
    atom(p, "a3")["fixed"] = True
    ch.set_internal_coordinate(p, ["a1", "a2", "a3", "a4"], 75.0)
    assert dihedral(*(xyz(p, i) for i in ("a1", "a2", "a3", "a4"))) == pytest.approx(75.0)


def test_distance_and_angle_are_set_exactly() -> None:
    p = butane()
    ch.set_internal_coordinate(p, ["a2", "a3"], 1.70)
    assert distance(xyz(p, "a2"), xyz(p, "a3")) == pytest.approx(1.70)
    res = ch.set_internal_coordinate(p, ["a1", "a2", "a3"], 125.0)
    assert angle(xyz(p, "a1"), xyz(p, "a2"), xyz(p, "a3")) == pytest.approx(125.0)
    assert "a1" in res.changed and "a3" not in res.changed  # CH3 is smaller than C3H7
    check_structure(p)


def test_water_angle_moves_one_hydrogen() -> None:
    p = project([("O", (0, 0, 0))])
    ch.add_hydrogens(p)
    res = ch.set_internal_coordinate(p, ["a2", "a1", "a3"], 104.5)
    assert res.changed == ["a3"]
    assert angle(xyz(p, "a2"), xyz(p, "a1"), xyz(p, "a3")) == pytest.approx(104.5)
    assert distance(xyz(p, "a1"), xyz(p, "a3")) == pytest.approx(0.96)


def test_unbonded_molecules_move_as_a_whole() -> None:
    p = project(
        [("O", (0, 0, 0)), ("H", (0.96, 0, 0)), ("N", (3.5, 0, 0)), ("H", (4.5, 0, 0))],
        [(1, 2, 1), (3, 4, 1)],
    )
    res = ch.set_internal_coordinate(p, ["a2", "a3"], 2.0)
    assert sorted(res.changed) == ["a3", "a4"]
    assert distance(xyz(p, "a2"), xyz(p, "a3")) == pytest.approx(2.0)
    assert distance(xyz(p, "a3"), xyz(p, "a4")) == pytest.approx(1.0)


def test_ring_bonds_cannot_be_stretched() -> None:
    p = benzene()
    with pytest.raises(ValidationError) as exc:
        ch.set_internal_coordinate(p, ["a1", "a2"], 1.6)
    assert exc.value.code == "in_ring"
    # A substituent on the ring can still be bent: its own side moves.
    h = hydrogens_of(p, "a1")[0]
    res = ch.set_internal_coordinate(p, ["a2", "a1", h], 110.0)
    assert res.changed == [h]


@pytest.mark.parametrize(
    ("ids", "value", "code"),
    [
        (["a1", "a2"], 0.05, "bad_internal_value"),
        (["a1", "a2"], float("nan"), "bad_internal_value"),
        (["a1", "a2", "a3"], 180.0, "bad_internal_value"),
        (["a1", "a2", "a3"], 0.0, "bad_internal_value"),
        (["a1"], 1.0, "bad_internal_ids"),
        (["a1", "a1"], 1.0, "bad_internal_ids"),
        (["a1", "a2", "a3", "a4", "a5"], 1.0, "bad_internal_ids"),
    ],
)
def test_bad_internal_coordinate_requests_are_refused(
    ids: list[str], value: float, code: str
) -> None:
    p = butane()
    before = copy.deepcopy(p)
    with pytest.raises(ValidationError) as exc:
        ch.set_internal_coordinate(p, ids, value)
    assert exc.value.code == code
    assert p == before


def test_unknown_ids_and_undefined_dihedrals_are_refused() -> None:
    with pytest.raises(UnknownAtomError):
        ch.set_internal_coordinate(butane(), ["a1", "a99"], 1.5)
    line = project(
        [("C", (0, 0, 0)), ("C", (1.2, 0, 0)), ("C", (2.4, 0, 0)), ("C", (3.6, 1, 0))],
        [(1, 2, 1), (2, 3, 1), (3, 4, 1)],
    )
    with pytest.raises(ValidationError) as exc:
        ch.set_internal_coordinate(line, ["a1", "a2", "a3", "a4"], 30.0)
    assert exc.value.code == "undefined_dihedral"


def test_dihedral_values_wrap_into_minus_180_to_180() -> None:
    p = butane()
    res = ch.set_internal_coordinate(p, ["a1", "a2", "a3", "a4"], 270.0)
    assert res.info["to"] == pytest.approx(-90.0)
    assert dihedral(*(xyz(p, i) for i in ("a1", "a2", "a3", "a4"))) == pytest.approx(-90.0)


# ---------------------------------------------------------------------------------------------
# place_fragment


def test_methyl_on_a_benzene_hydrogen_gives_toluene() -> None:
    p = benzene()
    h = hydrogens_of(p, "a1")[0]
    h_dir = xyz(p, h) - xyz(p, "a1")
    res = ch.place_fragment(p, "methyl", "a1")
    check_structure(p, res.touched)
    assert hill(p) == "C7H8"
    assert res.removed == [h]
    c = res.info["attachment"]
    assert atom(p, c)["element"] == "C"
    assert distance(xyz(p, "a1"), xyz(p, c)) == pytest.approx(1.51, abs=1e-6)  # C(ar)–CH3
    # The new carbon takes the hydrogen's direction: in the ring plane, 120° to the ring.
    assert angle(xyz(p, c) - xyz(p, "a1"), (0, 0, 0), h_dir) == pytest.approx(0.0, abs=1e-6)
    assert close_contacts(p) == []
    assert min_nonbonded(p) > 2.0
    assert len(hydrogens_of(p, c)) == 3


@pytest.mark.parametrize("name", [e["name"] for e in get_catalog("fragments")["fragments"]])
def test_every_fragment_fits_on_methane_without_clashes(name: str) -> None:
    entry = next(
        e for e in get_catalog("fragments", geometry=True)["fragments"] if e["name"] == name
    )
    p = methane()
    res = ch.place_fragment(p, name, "a1")
    check_structure(p, res.touched)
    expected = Counter({"C": 1, "H": 3}) + Counter(a["element"] for a in entry["atoms"])
    assert Counter(a["element"] for a in p["document"]["atoms"]) == expected
    assert len(res.added) == len(entry["atoms"]) and len(res.removed) == 1
    assert close_contacts(p) == []
    assert min_nonbonded(p) > 1.9
    attach = res.info["attachment"]
    unsaturated = int(any(o > 1 and entry["attachment"] in (i, j) for i, j, o in entry["bonds"]))
    assert distance(xyz(p, "a1"), xyz(p, attach)) == pytest.approx(
        ch.bond_length("C", atom(p, attach)["element"], 1, unsaturated), abs=1e-6
    )
    # Tetrahedral carbon stays tetrahedral.
    assert bond_angles(p, "a1") == pytest.approx([109.47] * 6, abs=0.1)
    # The fragment's own geometry is kept: every internal bond has its catalogue length.
    for i, j, _order in entry["bonds"]:
        d_cat = distance(
            [entry["atoms"][i][k] for k in "xyz"], [entry["atoms"][j][k] for k in "xyz"]
        )
        assert distance(xyz(p, res.added[i]), xyz(p, res.added[j])) == pytest.approx(
            d_cat, abs=1e-6
        )
    assert ch.add_hydrogens(p).added == []  # nothing left open


@pytest.mark.parametrize("name", [e["name"] for e in get_catalog("ligands")["ligands"]])
def test_every_ligand_binds_to_a_metal_through_its_donor_without_clashes(name: str) -> None:
    entry = next(e for e in get_catalog("ligands", geometry=True)["ligands"] if e["name"] == name)
    alone = project([("Fe", (0, 0, 0))])
    ch.place_fragment(alone, name, "a1", kind="ligand")
    assert close_contacts(alone) == []
    assert min_nonbonded(alone) > 1.8
    # Next to three ammines (fac), the ligand turns to the least crowded orientation.
    p = project([("Fe", (0, 0, 0))])
    for _ in range(3):
        ch.place_fragment(p, "NH3", "a1", kind="ligand")
    res = ch.place_fragment(p, name, "a1", kind="ligand")
    check_structure(p, res.touched)
    donor = res.info["attachment"]
    assert atom(p, donor)["element"] == entry["donorElement"]
    assert "a1" in neighbours(p, donor)
    assert distance(xyz(p, "a1"), xyz(p, donor)) == pytest.approx(
        covalent_radius("Fe") + covalent_radius(entry["donorElement"]), abs=1e-6
    )
    assert res.info["chargeChange"] == entry["charge"]
    assert sum(atom(p, i)["formalCharge"] for i in res.added) == entry["charge"]
    assert close_contacts(p) == []
    assert min_nonbonded(p) > 1.4  # PPh3's ortho hydrogens against the ammines: 1.46 Å
    # Ligand and ammines sit at octahedral positions.
    for ang in bond_angles(p, "a1"):
        assert min(abs(ang - 90.0), abs(ang - 180.0)) < 13.0


def test_six_ammines_make_an_octahedron() -> None:
    p = project([("Co", (0, 0, 0))])
    for _ in range(6):
        ch.place_fragment(p, "NH3", "a1", kind="ligand")
    assert hill(p) == "CoH18N6"
    angles = sorted(bond_angles(p, "a1"))
    assert angles[:12] == pytest.approx([90.0] * 12, abs=0.5)
    assert angles[12:] == pytest.approx([180.0] * 3, abs=0.5)
    assert min_nonbonded(p) > 1.8


def test_single_bonds_next_to_multiple_bonds_are_shorter() -> None:
    assert ch.bond_length("C", "C", 1) == pytest.approx(1.54)
    assert ch.bond_length("C", "C", 1, 1) == pytest.approx(1.51)
    assert ch.bond_length("C", "C", 1, 2) == pytest.approx(1.48)
    assert ch.bond_length("C", "C", 2, 2) == pytest.approx(1.34)
    p = benzene()
    res = ch.place_fragment(p, "phenyl", "a1")  # biphenyl
    assert distance(xyz(p, "a1"), xyz(p, res.info["attachment"])) == pytest.approx(1.48)
    assert hill(p) == "C12H10"
    assert close_contacts(p) == [] and min_nonbonded(p) > 1.9
    # Fe–X without a table entry: the sum of covalent radii.
    assert ch.bond_length("Fe", "N") == pytest.approx(covalent_radius("Fe") + covalent_radius("N"))


def test_four_chlorides_on_platinum_are_square_planar() -> None:
    p = project([("Pt", (0, 0, 0))])
    for _ in range(4):
        ch.place_fragment(p, "Cl-", "a1", kind="ligand")
    assert hill(p) == "Cl4Pt"
    assert sorted(bond_angles(p, "a1")) == pytest.approx([90.0] * 4 + [180.0] * 2, abs=1e-6)
    assert sum(atom(p, i)["formalCharge"] for i in neighbours(p, "a1")) == -4


def test_a_metal_hydride_keeps_its_hydride_while_sites_are_free() -> None:
    p = project([("Fe", (0, 0, 0)), ("H", (1.6, 0, 0))], [(1, 2, 1)])
    for _ in range(5):
        res = ch.place_fragment(p, "CO", "a1", kind="ligand")
        assert res.removed == []
    assert hill(p) == "C5HFeO5"
    res = ch.place_fragment(p, "CO", "a1", kind="ligand")  # now the hydride makes room
    assert res.removed == ["a2"]
    res = ch.place_fragment(p, "Cl-", "a1", kind="ligand")  # a seventh site
    assert res.removed == []


def test_placing_on_an_atom_without_a_hydrogen_uses_a_free_valence() -> None:
    p = project([("C", (0, 0, 0)), ("O", (1.21, 0, 0))], [(1, 2, 2)])
    ch.place_fragment(p, "methyl", "a1")
    ch.place_fragment(p, "methyl", "a1")
    assert hill(p) == "C3H6O"  # acetone
    assert bond_angles(p, "a1") == pytest.approx([120.0] * 3, abs=0.1)
    with pytest.raises(ValidationError) as exc:
        ch.place_fragment(p, "methyl", "a1")
    assert exc.value.code == "no_free_site"


def test_a_methyl_on_a_methyl_is_staggered() -> None:
    p = methane()
    c = ch.place_fragment(p, "methyl", "a1").info["attachment"]
    twists = sorted(
        abs(dihedral(xyz(p, h1), xyz(p, "a1"), xyz(p, c), xyz(p, h2)))
        for h1 in hydrogens_of(p, "a1")
        for h2 in hydrogens_of(p, c)
    )
    assert twists == pytest.approx([60.0] * 6 + [180.0] * 3, abs=5.0)


@pytest.mark.parametrize("name", ["nitro", "vinyl", "carbonyl", "carboxyl"])
def test_pi_groups_on_benzene_lie_in_the_ring_plane(name: str) -> None:
    p = benzene()
    a = ch.place_fragment(p, name, "a1").info["attachment"]
    for n in neighbours(p, a):
        if n != "a1":
            twist = abs(dihedral(xyz(p, "a2"), xyz(p, "a1"), xyz(p, a), xyz(p, n)))
            assert min(twist, 180.0 - twist) < 5.0
    assert close_contacts(p) == [] and min_nonbonded(p) > 1.8


def test_a_hydrogen_given_as_the_site_is_the_one_replaced() -> None:
    p = butane()
    target = hydrogens_of(p, "a2")[1]
    res = ch.place_fragment(p, "chloro", target)
    assert res.removed == [target]
    assert neighbours(p, res.info["attachment"]) == ["a2"]
    assert hill(p) == "C4H9Cl"


def test_fixed_hydrogens_are_not_replaced() -> None:
    p = methane()
    hs = hydrogens_of(p, "a1")
    for h in hs[:3]:
        atom(p, h)["fixed"] = True
    res = ch.place_fragment(p, "hydroxyl", "a1")
    assert res.removed == [hs[3]]
    for h in hs[:3]:
        assert h in [a["id"] for a in p["document"]["atoms"]]


@pytest.mark.parametrize(
    ("written", "name"),
    [
        ("Me", "methyl"),
        ("CH3", "methyl"),
        ("OH", "hydroxyl"),
        ("Ph", "phenyl"),
        ("tBu", "tert-butyl"),
        ("CF3", "trifluoromethyl"),
        ("NO2", "nitro"),
        ("COOH", "carboxyl"),
        ("CN", "cyano"),
        ("cl", "chloro"),
    ],
)
def test_substituent_abbreviations_place_the_fragment_they_stand_for(
    written: str, name: str
) -> None:
    p = methane()
    res = ch.place_fragment(p, written, "a2")
    assert res.info == {**res.info, "kind": "fragment", "name": name}


def test_abbreviations_do_not_shadow_exact_ligand_names_and_are_listed() -> None:
    from molforma.catalog import find_library_entry, get_catalog

    assert find_library_entry("CO") is not None and find_library_entry("CO")[0] == "ligand"
    assert find_library_entry("OH-")[1]["name"] == "OH-"
    assert find_library_entry("CN", "ligand") is None
    methyl = next(f for f in get_catalog("fragments")["fragments"] if f["name"] == "methyl")
    assert {"Me", "CH3"} <= set(methyl["aliases"])


def test_names_aliases_and_kinds_are_looked_up_exactly() -> None:
    p = project([("Ni", (0, 0, 0))])
    assert ch.place_fragment(p, "carbonyl", "a1", kind="ligand").info["name"] == "CO"
    assert ch.place_fragment(p, "carbonyl", "a1").info["name"] == "carbonyl"
    assert ch.place_fragment(p, "ammine", "a1").info["name"] == "NH3"
    before = copy.deepcopy(p)
    for name, kind, code in (
        ("no-such-group", None, "unknown_fragment"),
        ("NH3", "fragment", "unknown_fragment"),
        ("methyl", "residue", "bad_fragment_kind"),
    ):
        with pytest.raises(ValidationError) as exc:
            ch.place_fragment(p, name, "a1", kind=kind)  # type: ignore[arg-type]
        assert exc.value.code == code
    with pytest.raises(UnknownAtomError):
        ch.place_fragment(p, "methyl", "a42")
    assert p == before


# ---------------------------------------------------------------------------------------------
# measure


def test_measure_reports_distances_angles_and_dihedrals_with_ids() -> None:
    p = project([("H", (1, 0, 0)), ("O", (0, 0, 0)), ("O", (0, 0, 1.5)), ("H", (0, 1, 1.5))])
    out = ch.measure(
        p,
        distances=[["a2", "a3"]],
        angles=[["a1", "a2", "a3"]],
        dihedrals=[["a1", "a2", "a3", "a4"]],
    )
    assert out["distances"] == [{"ids": ["a2", "a3"], "value": 1.5, "unit": "angstrom"}]
    assert out["angles"] == [{"ids": ["a1", "a2", "a3"], "value": 90.0, "unit": "degree"}]
    assert out["dihedrals"] == [{"ids": ["a1", "a2", "a3", "a4"], "value": 90.0, "unit": "degree"}]
    assert ch.measure(p) == {"distances": [], "angles": [], "dihedrals": []}


def test_measure_refuses_wrong_groups_and_unknown_atoms() -> None:
    p = butane()
    for kwargs in (
        {"distances": [["a1"]]},
        {"angles": [["a1", "a2"]]},
        {"dihedrals": [["a1", "a2", "a3", "a3"]]},
    ):
        with pytest.raises(ValidationError) as exc:
            ch.measure(p, **kwargs)
        assert exc.value.code == "bad_measure_ids"
    with pytest.raises(UnknownAtomError):
        ch.measure(p, distances=[["a1", "zz"]])


# ---------------------------------------------------------------------------------------------
# validate


def codes(result: dict[str, Any]) -> dict[str, str]:
    return {c["code"]: c["severity"] for c in result["checks"]}


def water() -> dict[str, Any]:
    return project(
        [("O", (0, 0, 0.1173)), ("H", (0, 0.7572, -0.4692)), ("H", (0, -0.7572, -0.4692))],
        [(1, 2, 1), (1, 3, 1)],
    )


def test_a_good_molecule_passes_validation() -> None:
    res = ch.validate(water(), None)
    assert res == {"ok": True, "checks": []}


def test_validation_catches_each_problem() -> None:
    p = water()
    p["document"]["multiplicity"] = 2
    assert codes(ch.validate(p, None)) == {"multiplicity_parity": "error"}
    p = water()
    p["document"]["charge"] = 11
    assert "too_few_electrons" in codes(ch.validate(p, None))
    p = water()
    p["document"]["multiplicity"] = 3
    p["calculation"]["reference"] = "rhf"
    assert codes(ch.validate(p, None))["reference_multiplicity"] == "error"
    p = water()
    atom(p, "a3").update(x=0.0, y=0.75, z=-0.40)  # 0.07 Å from a2
    got = codes(ch.validate(p, None))
    assert got["duplicate_positions"] == "error"
    p = water()
    atom(p, "a3").update(x=0.0, y=0.52, z=-0.35)  # 0.27 Å from a2 (H–H limit 0.31 Å)
    res = ch.validate(p, None)
    contact = next(c for c in res["checks"] if c["code"] == "close_contact")
    assert contact["severity"] == "warning" and sorted(contact["atoms"]) == ["a2", "a3"]
    p = water()
    p["document"]["atoms"].append(new_atom("a4", "Ar", 5, 5, 5))
    p["document"]["nextAtomId"] = 5
    assert codes(ch.validate(p, None))["disconnected_fragments"] == "warning"
    p = project([("O", (0, 0, 0))])
    assert codes(ch.validate(p, None))["open_valences"] == "info"
    p = project(
        [("C", (0, 0, 0))]
        + [
            ("H", (1.09 * v[0], 1.09 * v[1], 1.09 * v[2]))
            for v in np.eye(3).tolist() + (-np.eye(3)).tolist()[:2]
        ],
        [(1, k, 1) for k in range(2, 7)],
    )
    assert codes(ch.validate(p, None))["valence_exceeded"] == "warning"
    p = water()
    atom(p, "a2").update(y=3.0)
    assert codes(ch.validate(p, None))["long_bond"] == "warning"


def test_empty_molecule_is_an_error() -> None:
    res = ch.validate(new_project(), None)
    assert res["ok"] is False
    assert codes(res) == {"empty_molecule": "error"}


def test_elements_missing_from_the_basis_are_errors() -> None:
    p = water()
    p["document"]["atoms"].append(new_atom("a4", "Pt", 4, 0, 0))
    p["document"]["nextAtomId"] = 5
    p["calculation"]["basis"] = "6-31g*"
    res = ch.validate(p, None)
    missing = next(c for c in res["checks"] if c["code"] == "basis_missing_elements")
    assert missing["severity"] == "error" and missing["atoms"] == ["a4"]
    assert "Pt" in missing["message"]
    assert res["ok"] is False
    # The same with the catalogue given as a function or as get_catalog()'s result.
    assert "basis_missing_elements" in codes(ch.validate(p, lambda b: {"H", "O"}))
    assert "basis_missing_elements" in codes(ch.validate(p, get_catalog("basis_sets")))
    p["calculation"]["basis"] = "lanl2dz_ecp"
    got = codes(ch.validate(p, None))
    assert "basis_missing_elements" not in got and got["basis_needs_ecp"] == "info"
    p["calculation"]["basis"] = "no-such-basis"
    assert codes(ch.validate(p, None))["basis_unknown"] == "warning"


@pytest.mark.parametrize(
    ("written", "name"),
    [("6-31G(d)", "6-31G*"), ("6-311++G(d,p)", "6-311++G**"), ("lanl2dz", "lanl2dz_ecp")],
)
def test_a_basis_in_another_common_notation_is_named_as_nwchem_knows_it(
    written: str, name: str
) -> None:
    p = water()
    p["calculation"]["basis"] = written
    res = ch.validate(p, None)
    check = next(c for c in res["checks"] if c["code"] == "basis_other_name")
    assert check["severity"] == "error" and name in check["message"]
    assert res["ok"] is False
    assert "basis_unknown" not in codes(res)
    p["calculation"]["basis"] = name
    got = codes(ch.validate(p, None))
    assert "basis_other_name" not in got and "basis_unknown" not in got


def test_functional_names_nwchem_refuses_get_the_setting_to_use_instead() -> None:
    p = water()
    p["calculation"].update(theory="dft", functional="B3LYP-D3BJ")
    res = ch.validate(p, None)
    check = next(c for c in res["checks"] if c["code"] == "functional_with_dispersion")
    assert check["severity"] == "error" and res["ok"] is False
    assert "b3lyp" in check["message"] and "d3bj" in check["message"]
    assert "dispersion" in check["message"]
    p["calculation"]["functional"] = "pbe"
    check = next(c for c in ch.validate(p, None)["checks"] if c["code"] == "functional_other_name")
    assert "pbe96" in check["message"] and check["severity"] == "error"
    p["calculation"]["functional"] = "no-such-xc"
    assert codes(ch.validate(p, None))["functional_unknown"] == "info"
    p["calculation"]["functional"] = "pbe96"
    assert not [c for c in codes(ch.validate(p, None)) if c.startswith("functional")]


def test_fixed_atoms_and_the_task_are_checked() -> None:
    p = water()
    for a in p["document"]["atoms"]:
        a["fixed"] = True
    p["calculation"]["task"] = "optimize"
    assert codes(ch.validate(p, None))["all_atoms_fixed"] == "error"
    p["calculation"]["task"] = "frequencies"
    assert codes(ch.validate(p, None))["fixed_atoms_frequencies"] == "warning"
    p["calculation"]["task"] = "energy"
    assert ch.validate(p, None)["ok"] is True


def test_unknown_functionals_and_unpaired_electrons_are_reported() -> None:
    p = water()
    p["calculation"].update(theory="dft", functional="b3lyp")
    assert ch.validate(p, None)["checks"] == []
    p["calculation"]["functional"] = "xpbe96 cpbe96"
    assert ch.validate(p, None)["checks"] == []
    p["calculation"]["functional"] = "myfunctional"
    assert codes(ch.validate(p, None)) == {"functional_unknown": "info"}
    p = project([("C", (0, 0, 0))], a1={"unpairedElectrons": 1})
    ch.add_hydrogens(p)
    assert codes(ch.validate(p, None)) == {
        "unpaired_mismatch": "warning",
        "multiplicity_parity": "error",
    }
    p["document"]["multiplicity"] = 2
    assert ch.validate(p, None) == {"ok": True, "checks": []}


def test_validation_messages_follow_the_display_language(monkeypatch: pytest.MonkeyPatch) -> None:
    p = water()
    p["document"]["multiplicity"] = 2
    monkeypatch.setenv("MOLFORMA_LANGUAGE", "ja")
    (check,) = ch.validate(p, None)["checks"]
    assert "スピン多重度" in check["message"]
    monkeypatch.setenv("MOLFORMA_LANGUAGE", "en")
    (check,) = ch.validate(p, None)["checks"]
    assert "multiplicity" in check["message"]


# ---------------------------------------------------------------------------------------------
# Through the document: a failing edit changes nothing, a good one is one undo step


def test_edits_run_through_the_document_and_failures_leave_it_untouched() -> None:
    from molforma.document.document import Document

    doc = Document(butane())
    rev = doc.revision
    project_before = copy.deepcopy(doc.project)

    def both_fixed(work: dict[str, Any]) -> Any:
        atom(work, "a1")["fixed"] = True
        atom(work, "a4")["fixed"] = True
        return ch.set_internal_coordinate(work, ["a1", "a2", "a3", "a4"], 10.0)

    with pytest.raises(ValidationError):
        doc.edit(both_fixed, label="Set dihedral", preview=False)
    assert doc.revision == rev and doc.project == project_before
    summary = doc.edit(
        lambda w: ch.place_fragment(w, "hydroxyl", "a1"), label="Place", preview=False
    )
    assert summary["project"]["formula"] == "C4H10O"
    assert len(summary["addedIds"]) == 2 and len(summary["removedIds"]) == 1
    summary = doc.edit(
        lambda w: ch.set_internal_coordinate(w, ["a1", "a2", "a3", "a4"], 65.0),
        label="Set dihedral",
        preview=True,
    )
    assert summary["candidate"]["formula"] == "C4H10O"
    assert ch.measure(doc.candidate, dihedrals=[["a1", "a2", "a3", "a4"]])["dihedrals"][0][
        "value"
    ] == pytest.approx(65.0)
    assert ch.measure(doc.project, dihedrals=[["a1", "a2", "a3", "a4"]])["dihedrals"][0][
        "value"
    ] == pytest.approx(180.0)
    doc.cancel()
    doc.undo()
    assert doc.project == project_before


# ---------------------------------------------------------------------------------------------
# Properties over many values

_BUTANE = butane()


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(["distance", "angle", "dihedral"]),
    value=st.floats(min_value=-720, max_value=720, allow_nan=False),
    fixed=st.sets(st.sampled_from([f"a{k}" for k in range(1, 15)]), max_size=3),
)
def test_internal_coordinates_reach_their_value_and_never_move_fixed_atoms(
    kind: str, value: float, fixed: set[str]
) -> None:
    p = copy.deepcopy(_BUTANE)
    for aid in fixed:
        atom(p, aid)["fixed"] = True
    ids = {
        "distance": ["a2", "a3"],
        "angle": ["a1", "a2", "a3"],
        "dihedral": ["a1", "a2", "a3", "a4"],
    }[kind]
    if kind == "distance":
        value = 0.5 + abs(value) / 100
    elif kind == "angle":
        value = 1 + abs(value) % 178
    before = copy.deepcopy(p)
    try:
        res = ch.set_internal_coordinate(p, ids, value)
    except ValidationError as exc:
        assert exc.code in ("fixed_atom", "atoms_too_close")
        assert p == before
        return
    got = {"distance": distance, "angle": angle, "dihedral": dihedral}[kind](
        *(xyz(p, i) for i in ids)
    )
    want = (value + 180) % 360 - 180 if kind == "dihedral" else value
    assert (
        math.isclose((got - want + 180) % 360 - 180, 0, abs_tol=1e-6)
        if kind == "dihedral"
        else got == pytest.approx(want, abs=1e-6)
    )
    for a, b in zip(before["document"]["atoms"], p["document"]["atoms"], strict=True):
        if a["fixed"] or a["id"] not in res.changed:
            assert a == b
    # Every bond length is unchanged except the one being set.
    for bond in p["document"]["bonds"]:
        pair = {bond["a"], bond["b"]}
        if kind == "distance" and pair == set(ids):
            continue
        assert distance(xyz(p, bond["a"]), xyz(p, bond["b"])) == pytest.approx(
            distance(xyz(before, bond["a"]), xyz(before, bond["b"])), abs=1e-9
        )
