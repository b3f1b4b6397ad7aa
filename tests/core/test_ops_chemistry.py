"""The chemistry operations through the document: candidates, fixed atoms, nothing changed on failure."""

from __future__ import annotations

import json

import pytest

from molforma.app import ops
from molforma.document.document import Document
from molforma.errors import MolFormaError


def test_add_hydrogens_to_a_carbon_skeleton_gives_ethane(tmp_path) -> None:
    doc = Document()
    ops.add_atoms(
        doc,
        [{"element": "C", "position": [0, 0, 0]}, {"element": "C", "position": [1.54, 0, 0]}],
        [{"a": "#0", "b": "#1"}],
        preview=False,
    )
    out = ops.add_hydrogens(doc)
    assert out["candidate"] == {"formula": "C2H6", "atomCount": 8}
    assert len(out["addedIds"]) == 6
    ops.history(doc, "confirm")
    m = ops.measure(doc, distances=[["a1", out["addedIds"][0]]])
    assert m["distances"][0]["value"] == pytest.approx(1.09, abs=0.03)


def test_place_fragment_on_a_hydrogen_site_replaces_it(water_doc: Document) -> None:
    out = ops.place_fragment(water_doc, "methyl", "a2", preview=False)
    assert out["project"]["formula"] == "CH4O"
    assert ops.validate_document(water_doc)["ok"] is True


def test_setting_a_distance_moves_the_smaller_fragment_and_respects_fixed_atoms(
    water_doc: Document,
) -> None:
    ops.set_internal_coordinate(water_doc, ["a1", "a2"], 1.2, preview=False)
    assert ops.measure(water_doc, distances=[["a1", "a2"]])["distances"][0][
        "value"
    ] == pytest.approx(1.2)
    o = water_doc.project["document"]["atoms"][0]
    assert (o["x"], o["y"], o["z"]) == (0.0, 0.0, 0.1173)
    ops.set_atom_properties(
        water_doc, [{"id": "a2", "fixed": True}, {"id": "a1", "fixed": True}], preview=False
    )
    before = json.dumps(water_doc.project)
    with pytest.raises(MolFormaError) as err:
        ops.set_internal_coordinate(water_doc, ["a1", "a2"], 1.0)
    assert err.value.code == "fixed_atom"
    assert json.dumps(water_doc.project) == before


def test_validation_reports_parity_and_fragments(water_doc: Document) -> None:
    ops.set_molecule(water_doc, multiplicity=2, preview=False)
    ops.add_atoms(water_doc, [{"element": "He", "position": [8, 0, 0]}], preview=False)
    res = ops.validate_document(water_doc)
    codes = {c["code"] for c in res["checks"]}
    assert res["ok"] is False
    assert any("parity" in c or "multiplicity" in c for c in codes)
    assert any("fragment" in c or "unconnected" in c for c in codes)


def test_catalogue_lists_fragments_basis_sets_and_advanced_keys() -> None:
    cat = ops.get_catalog()
    for kind in ("fragments", "ligands", "basis_sets", "functionals", "tasks", "advanced_keys"):
        assert cat[kind], kind
    assert "optimize+frequencies" in json.dumps(cat["tasks"])
