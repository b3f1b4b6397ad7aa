"""Building rules: bonded atoms at the parent's hybridisation angle, hydrogens that follow edits."""

from __future__ import annotations

import pytest

from molforma.app import ops
from molforma.document.building import valence_problem_ids
from molforma.document.document import Document, summary_of
from molforma.document.envelope import atoms_of, bonds_of
from molforma.document.geometry import angle


def _xyz(doc: Document, aid: str) -> list[float]:
    a = next(a for a in atoms_of(doc.project) if a["id"] == aid)
    return [a["x"], a["y"], a["z"]]


def _angle(doc: Document, a: str, b: str, c: str) -> float:
    return angle(_xyz(doc, a), _xyz(doc, b), _xyz(doc, c))


def _formula(doc: Document) -> str:
    return str(summary_of(doc.project)["formula"])


def _neighbours(doc: Document, aid: str) -> list[str]:
    return [
        b["b"] if b["a"] == aid else b["a"]
        for b in bonds_of(doc.project)
        if aid in (b["a"], b["b"])
    ]


def _element(doc: Document, aid: str) -> str:
    return next(a["element"] for a in atoms_of(doc.project) if a["id"] == aid)


def _chain(doc: Document, order: int) -> None:
    """Two carbons with a bond of ``order`` and no hydrogens."""
    ops.add_atoms(
        doc,
        [
            {"element": "C", "position": [0, 0, 0]},
            {"element": "C", "position": [{1: 1.54, 2: 1.34, 3: 1.20}[order], 0, 0]},
        ],
        [{"a": "#0", "b": "#1", "order": order}],
        preview=False,
    )


@pytest.mark.parametrize(("order", "expected"), [(1, 109.47), (2, 120.0), (3, 180.0)])
def test_an_atom_bonded_to_a_carbon_sits_at_its_hybridisation_angle(
    order: int, expected: float
) -> None:
    doc = Document()
    _chain(doc, order)
    out = ops.add_bonded_atom(doc, "a2", "O", adjust_hydrogens=False, preview=False)
    new = out["addedIds"][0]
    assert _angle(doc, "a1", "a2", new) == pytest.approx(expected, abs=1.0)


def test_a_chain_built_atom_by_atom_zig_zags_instead_of_running_straight() -> None:
    doc = Document()
    ops.add_atoms(doc, [{"element": "C", "position": [0, 0, 0]}], preview=False)
    ids = ["a1"]
    for el in ("C", "C", "O"):
        out = ops.add_bonded_atom(doc, ids[-1], el, adjust_hydrogens=False, preview=False)
        ids.append(out["addedIds"][0])
    for a, b, c in zip(ids, ids[1:], ids[2:], strict=False):
        assert _angle(doc, a, b, c) == pytest.approx(109.47, abs=1.0)
    # Anti, not gauche: the ends are as far apart as a zig-zag puts them.
    from molforma.document.geometry import dihedral

    assert abs(dihedral(*(_xyz(doc, i) for i in ids))) == pytest.approx(180.0, abs=2.0)


def test_with_adjust_hydrogens_clicking_methane_gives_ethane_and_then_ethanol() -> None:
    doc = Document()
    ops.add_atoms(
        doc, [{"element": "C", "position": [0, 0, 0]}], preview=False, adjust_hydrogens=True
    )
    assert _formula(doc) == "CH4"
    out = ops.add_bonded_atom(doc, "a1", "C", preview=False)
    c2 = out["addedIds"][0]
    assert _formula(doc) == "C2H6"
    assert len(out["removedIds"]) == 1  # the hydrogen the carbon took the place of
    c1_c2 = sum((p - q) ** 2 for p, q in zip(_xyz(doc, "a1"), _xyz(doc, c2), strict=True)) ** 0.5
    assert c1_c2 == pytest.approx(1.53, abs=0.03)
    for h in (n for n in _neighbours(doc, c2) if _element(doc, n) == "H"):
        assert _angle(doc, "a1", c2, h) == pytest.approx(109.47, abs=1.5)
    ops.add_bonded_atom(doc, c2, "O", preview=False)
    assert _formula(doc) == "C2H6O"
    assert doc.undo_labels == ["Add atoms", "Add atoms", "Add atoms"]
    assert ops.validate_document(doc)["ok"] is True


def test_raising_a_bond_order_re_places_the_hydrogens_of_both_ends() -> None:
    doc = Document()
    _chain(doc, 1)
    ops.add_hydrogens(doc, preview=False)
    assert _formula(doc) == "C2H6"
    ops.set_bonds(doc, [{"a": "a1", "b": "a2", "order": 2}], preview=False, adjust_hydrogens=True)
    assert _formula(doc) == "C2H4"
    for c, other in (("a1", "a2"), ("a2", "a1")):
        hs = [n for n in _neighbours(doc, c) if _element(doc, n) == "H"]
        assert len(hs) == 2
        assert all(_angle(doc, other, c, h) == pytest.approx(120.0, abs=1.5) for h in hs)
    ops.set_bonds(doc, [{"a": "a1", "b": "a2", "order": 3}], preview=False, adjust_hydrogens=True)
    assert _formula(doc) == "C2H2"
    ops.set_bonds(doc, [{"a": "a1", "b": "a2", "order": 0}], preview=False, adjust_hydrogens=True)
    assert _formula(doc) == "C2H8"  # two methanes
    assert ops.validate_document(doc)["ok"] is True


def test_erasing_a_heavy_atom_takes_its_hydrogens_and_fills_the_neighbour() -> None:
    doc = Document()
    ops.add_atoms(
        doc, [{"element": "C", "position": [0, 0, 0]}], preview=False, adjust_hydrogens=True
    )
    out = ops.add_bonded_atom(doc, "a1", "O", preview=False)
    o = out["addedIds"][0]
    assert _formula(doc) == "CH4O"
    ops.delete_atoms(doc, [o], preview=False, adjust_hydrogens=True)
    assert _formula(doc) == "CH4"
    # Erasing a hydrogen does not bring it straight back.
    h = next(n for n in _neighbours(doc, "a1"))
    ops.delete_atoms(doc, [h], preview=False, adjust_hydrogens=True)
    assert _formula(doc) == "CH3"


def test_changing_an_element_adjusts_its_hydrogens_and_keeps_unchanged_ones() -> None:
    doc = Document()
    ops.add_atoms(
        doc, [{"element": "C", "position": [0, 0, 0]}], preview=False, adjust_hydrogens=True
    )
    ops.set_atom_properties(
        doc, [{"id": "a1", "element": "N"}], preview=False, adjust_hydrogens=True
    )
    assert _formula(doc) == "H3N"
    kept = sorted(a["id"] for a in atoms_of(doc.project))
    ops.set_atom_properties(doc, [{"id": "a1", "name": "N1"}], preview=False, adjust_hydrogens=True)
    assert sorted(a["id"] for a in atoms_of(doc.project)) == kept


def test_without_adjust_hydrogens_the_tools_change_only_what_they_name() -> None:
    doc = Document()
    ops.add_atoms(doc, [{"element": "C", "position": [0, 0, 0]}], preview=False)
    ops.add_bonded_atom(doc, "a1", "C", adjust_hydrogens=False, preview=False)
    assert _formula(doc) == "C2"


def test_five_bonded_carbon_is_listed_as_a_valence_problem() -> None:
    doc = Document()
    ops.add_atoms(
        doc, [{"element": "C", "position": [0, 0, 0]}], preview=False, adjust_hydrogens=True
    )
    assert valence_problem_ids(doc.project) == []
    ops.add_bonded_atom(doc, "a1", "F", adjust_hydrogens=False, preview=False)
    assert valence_problem_ids(doc.project) == ["a1"]
    checks = ops.validate_document(doc)["checks"]
    assert any(c["code"] == "valence_exceeded" and c["atoms"] == ["a1"] for c in checks)


def test_a_bonded_atom_to_an_unknown_parent_is_refused_and_changes_nothing() -> None:
    from molforma.errors import MolFormaError

    doc = Document()
    rev = doc.revision
    with pytest.raises(MolFormaError) as err:
        ops.add_bonded_atom(doc, "a9", "C", preview=False)
    assert err.value.code == "unknown_atom"
    assert doc.revision == rev
