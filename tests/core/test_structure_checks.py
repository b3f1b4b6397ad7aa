"""The document checks refuse every broken atom, id and bond of a large structure.

The checks look at whole columns at once; these tests break one value of a
10,000-atom project at a time and expect the same error, naming the same atom or
bond, as the atom-by-atom rule of docs/reference/document.md, Validation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from molforma.document.envelope import check_atom_fields, check_structure, new_atom, new_project
from molforma.errors import ValidationError

N = 10_000


def _big() -> dict[str, Any]:
    proj = new_project()
    side = 22
    atoms = [
        new_atom(
            f"a{k + 1}",
            "C" if k % 2 else "H",
            1.5 * (k % side),
            1.5 * ((k // side) % side),
            1.5 * (k // side // side),
        )
        for k in range(N)
    ]
    bonds = [{"a": f"a{k}", "b": f"a{k + 1}", "order": 1} for k in range(1, N, 2)]
    proj["document"].update(atoms=atoms, bonds=bonds, nextAtomId=N + 1)
    return proj


def _atom(k: int, **change: Any) -> Callable[[dict[str, Any]], None]:
    def apply(p: dict[str, Any]) -> None:
        p["document"]["atoms"][k].update(change)

    return apply


def _bond(k: int, **change: Any) -> Callable[[dict[str, Any]], None]:
    def apply(p: dict[str, Any]) -> None:
        p["document"]["bonds"][k].update(change)

    return apply


def _extra_bond(a: str, b: str) -> Callable[[dict[str, Any]], None]:
    def apply(p: dict[str, Any]) -> None:
        p["document"]["bonds"].append({"a": a, "b": b, "order": 1})

    return apply


BREAKS: list[tuple[str, Callable[[dict[str, Any]], None], str, dict[str, Any]]] = [
    ("an id that is not aN", _atom(7000, id="x7"), "bad_atom_id", {"id": "x7"}),
    ("an id holding a line end", _atom(7000, id="a7001\na9"), "bad_atom_id", {}),
    ("an id that is not text", _atom(7000, id=7001), "bad_atom_id", {"id": 7001}),
    ("a repeated id", _atom(7000, id="a5"), "duplicate_atom_id", {"id": "a5"}),
    ("a bond to a missing atom", _bond(3000, b="a99999"), "bond_unknown_atom", {"b": "a99999"}),
    ("a bond of an atom to itself", _bond(3000, b="a6001"), "bond_self", {"a": "a6001"}),
    ("a repeated bond, reversed", _extra_bond("a6002", "a6001"), "duplicate_bond", {}),
    ("a bond order 4", _bond(3000, order=4), "bad_bond_order", {"order": 4}),
    ("a bond order True", _bond(3000, order=True), "bad_bond_order", {}),
    ("an unknown element", _atom(8000, element="Xx"), "bad_element", {"id": "a8001"}),
    ("an element in lower case", _atom(8000, element="cl"), "bad_element", {}),
    ("a coordinate given as text", _atom(8000, y="1.0"), "bad_coordinate", {"id": "a8001"}),
    ("a coordinate True", _atom(8000, z=True), "bad_coordinate", {}),
    ("an infinite coordinate", _atom(8000, x=float("inf")), "bad_coordinate", {}),
    ("a coordinate beyond 1e5", _atom(8000, x=1e6), "bad_coordinate", {}),
    ("a formal charge of 21", _atom(9000, formalCharge=21), "formal_charge_range", {"id": "a9001"}),
    ("a formal charge True", _atom(9000, formalCharge=True), "formal_charge_range", {}),
    ("nine unpaired electrons", _atom(9000, unpairedElectrons=9), "unpaired_range", {}),
    ("a name of 17 characters", _atom(9000, name="x" * 17), "bad_atom_name", {}),
    ("a name with a control character", _atom(9000, name="C\x07"), "bad_atom_name", {}),
    ("an unknown isotope", _atom(9000, massNumber=99), "unknown_isotope", {"id": "a9001"}),
    ("a negative mass", _atom(9000, mass=-1.0), "bad_mass", {}),
    ("fixed given as 1", _atom(9000, fixed=1), "bad_fixed", {}),
    ("two atoms on one place", _atom(9999, x=0.0, y=0.0, z=0.05), "atoms_too_close", {}),
]


@pytest.mark.parametrize(("what", "brk", "code", "data"), BREAKS, ids=[b[0] for b in BREAKS])
def test_a_large_structure_with_one_bad_value_is_refused_with_the_error_naming_it(
    what: str, brk: Callable[[dict[str, Any]], None], code: str, data: dict[str, Any]
) -> None:
    proj = _big()
    check_structure(proj)  # the unbroken structure passes
    brk(proj)
    with pytest.raises(ValidationError) as err:
        check_structure(proj)
    assert err.value.code == code
    assert {k: err.value.data.get(k) for k in data} == data


def test_the_first_bad_atom_in_file_order_is_the_one_named() -> None:
    proj = _big()
    atoms = proj["document"]["atoms"]
    atoms[9000]["formalCharge"] = 50
    atoms[4000]["element"] = "Qq"
    with pytest.raises(ValidationError) as err:
        check_structure(proj)
    assert err.value.code == "bad_element" and err.value.data["id"] == "a4001"


def test_isotopes_and_masses_that_exist_pass_and_are_each_checked() -> None:
    proj = _big()
    proj["document"]["atoms"][11].update(massNumber=13)  # a carbon-13
    proj["document"]["atoms"][12].update(mass=2.014)
    check_structure(proj)
    check_atom_fields(proj["document"]["atoms"][11])


def test_a_next_atom_id_not_past_every_id_is_refused() -> None:
    proj = _big()
    proj["document"]["nextAtomId"] = N
    with pytest.raises(ValidationError) as err:
        check_structure(proj)
    assert err.value.code == "bad_next_atom_id"
