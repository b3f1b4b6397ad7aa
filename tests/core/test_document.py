"""Candidates, revisions, undo/redo, stale revisions and the rules of docs/reference/document.md."""

from __future__ import annotations

import json

import pytest

from molforma.app import ops
from molforma.app.actor import Actor
from molforma.document.document import Document
from molforma.errors import (
    BusyError,
    CandidateExistsError,
    MolFormaError,
    StaleRevisionError,
    UnknownAtomError,
    ValidationError,
)


def snapshot(doc: Document) -> str:
    return json.dumps({"p": doc.project, "c": doc.candidate}, sort_keys=True)


def test_an_edit_by_default_makes_a_candidate_and_leaves_the_project(water_doc: Document) -> None:
    before = json.dumps(water_doc.project)
    out = ops.add_atoms(water_doc, [{"element": "H", "position": [0, 0, 1.2]}])
    assert json.dumps(water_doc.project) == before
    assert out["candidate"] == {"formula": "H3O", "atomCount": 4}
    assert out["project"] == {"formula": "H2O", "atomCount": 3}
    assert out["addedIds"] == ["a4"]


def test_confirm_makes_the_candidate_the_project_as_one_undo_step(water_doc: Document) -> None:
    ops.add_atoms(water_doc, [{"element": "H", "position": [0, 0, 1.2]}])
    steps = len(water_doc.undo_labels)
    out = ops.history(water_doc, "confirm")
    assert out["project"]["atomCount"] == 4 and out["candidate"] is None
    assert len(water_doc.undo_labels) == steps + 1
    ops.history(water_doc, "undo")
    assert len(water_doc.project["document"]["atoms"]) == 3


def test_cancel_drops_the_candidate(water_doc: Document) -> None:
    before = json.dumps(water_doc.project)
    ops.add_atoms(water_doc, [{"element": "H", "position": [0, 0, 1.2]}])
    ops.history(water_doc, "cancel")
    assert water_doc.candidate is None
    assert json.dumps(water_doc.project) == before


def test_edits_and_undo_are_refused_while_a_candidate_exists(water_doc: Document) -> None:
    ops.add_atoms(water_doc, [{"element": "H", "position": [0, 0, 1.2]}])
    snap = snapshot(water_doc)
    with pytest.raises(CandidateExistsError):
        ops.delete_atoms(water_doc, ["a1"])
    with pytest.raises(CandidateExistsError):
        ops.history(water_doc, "undo")
    assert snapshot(water_doc) == snap


def test_revision_changes_on_every_change_and_never_returns(water_doc: Document) -> None:
    seen = {water_doc.revision}
    for action in (
        lambda: ops.move_atoms(water_doc, translate=[1, 0, 0], preview=False),
        lambda: ops.history(water_doc, "undo"),
        lambda: ops.history(water_doc, "redo"),
        lambda: ops.history(water_doc, "undo"),
        lambda: ops.set_molecule(water_doc, title="w"),
        lambda: ops.history(water_doc, "cancel"),
        lambda: ops.set_molecule(water_doc, title="w"),
        lambda: ops.history(water_doc, "confirm"),
    ):
        action()
        assert water_doc.revision not in seen
        seen.add(water_doc.revision)


def test_a_stale_expected_revision_fails_and_changes_nothing(water_doc: Document) -> None:
    old = water_doc.revision
    ops.set_molecule(water_doc, title="x", preview=False)
    snap = snapshot(water_doc)
    with pytest.raises(StaleRevisionError) as err:
        ops.delete_atoms(water_doc, ["a2"], expected_revision=old, preview=False)
    assert err.value.data == {"expected": old, "actual": water_doc.revision}
    assert snapshot(water_doc) == snap


def test_atom_ids_are_never_reused_even_after_undo(water_doc: Document) -> None:
    ops.delete_atoms(water_doc, ["a3"], preview=False)
    out = ops.add_atoms(water_doc, [{"element": "H", "position": [0, -0.76, -0.47]}], preview=False)
    assert out["addedIds"] == ["a4"]
    ops.history(water_doc, "undo")
    ops.history(water_doc, "undo")
    out = ops.add_atoms(water_doc, [{"element": "F", "position": [3, 0, 0]}], preview=False)
    # undo restored a project whose counter says 4, but a4 named an atom once
    assert out["addedIds"] == ["a5"]
    ops.add_atoms(water_doc, [{"element": "F", "position": [5, 0, 0]}])
    ops.history(water_doc, "cancel")
    out = ops.add_atoms(water_doc, [{"element": "F", "position": [5, 0, 0]}])
    assert out["addedIds"] == ["a7"]


def test_undo_history_is_bounded_in_headless_use() -> None:
    doc = Document(undo_limit=100)
    ops.add_atoms(doc, [{"element": "C", "position": [0, 0, 0]}], preview=False)
    for i in range(150):
        ops.set_molecule(doc, title=f"t{i}", preview=False)
    assert len(doc.undo_labels) == 100


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda d: ops.move_atoms(d, positions={"a1": [0, 0, 0.0]}, preview=False), None),
        (lambda d: ops.delete_atoms(d, ["a99"]), "unknown_atom"),
        (
            lambda d: ops.add_atoms(d, [{"element": "C", "position": [0, 0, 0.15]}]),
            "atoms_too_close",
        ),
        (
            lambda d: ops.set_atom_properties(d, [{"id": "a1", "formalCharge": 21}]),
            "formal_charge_range",
        ),
        (
            lambda d: ops.set_atom_properties(d, [{"id": "a1", "formalCharge": -100}]),
            "formal_charge_range",
        ),
        (
            lambda d: ops.set_atom_properties(d, [{"id": "a1", "unpairedElectrons": 9}]),
            "unpaired_range",
        ),
        (lambda d: ops.set_atom_properties(d, [{"id": "a1", "name": "x" * 17}]), "bad_atom_name"),
        (lambda d: ops.set_atom_properties(d, [{"id": "a1", "name": "bad\x07"}]), "bad_atom_name"),
        (lambda d: ops.set_atom_properties(d, [{"id": "a1", "massNumber": 99}]), "unknown_isotope"),
        (lambda d: ops.set_atom_properties(d, [{"id": "a1", "element": "Xx"}]), "bad_element"),
        (lambda d: ops.set_bonds(d, [{"a": "a2", "b": "a3", "order": 4}]), "bad_bond_order"),
        (lambda d: ops.set_bonds(d, [{"a": "a2", "b": "a3", "order": 0}]), "no_bond"),
        (lambda d: ops.set_molecule(d, multiplicity=0), "bad_multiplicity"),
        (
            lambda d: ops.add_atoms(d, [{"element": "C", "position": [float("nan"), 0, 0]}]),
            "invalid_argument",
        ),
        (lambda d: ops.set_nwchem(d, {"theory": "ccsd(t)x"}), "bad_setting"),
        (lambda d: ops.set_nwchem(d, {"bogus": 1}), "unknown_setting"),
        (lambda d: ops.set_execution(d, {"processes": 0}), "bad_setting"),
    ],
)
def test_every_rule_violation_fails_and_changes_nothing(water_doc: Document, call, code) -> None:
    if code is None:
        ops.set_atom_properties(water_doc, [{"id": "a1", "fixed": True}], preview=False)
        code = "fixed_atom"
    snap = snapshot(water_doc)
    rev = water_doc.revision
    with pytest.raises(MolFormaError) as err:
        call(water_doc)
    assert err.value.code == code
    assert snapshot(water_doc) == snap
    assert water_doc.revision == rev


def test_isotopes_come_from_the_real_table(water_doc: Document) -> None:
    ops.set_atom_properties(
        water_doc, [{"id": "a2", "massNumber": 2}, {"id": "a1", "massNumber": 18}], preview=False
    )
    atoms = {a["id"]: a for a in water_doc.project["document"]["atoms"]}
    assert atoms["a2"]["massNumber"] == 2 and atoms["a1"]["massNumber"] == 18
    with pytest.raises(ValidationError):
        ops.set_atom_properties(water_doc, [{"id": "a2", "massNumber": 9}])
    ops.set_atom_properties(water_doc, [{"id": "a3", "mass": 2.5}], preview=False)


def test_more_than_a_million_atoms_are_refused() -> None:
    import numpy as np

    from molforma.document.envelope import new_project
    from molforma.document.molecule import AtomTable, BondTable

    n = 1_000_000
    grid = np.indices((100, 100, 100)).reshape(3, -1).T * 1.0
    project = new_project()
    project["document"]["atoms"] = AtomTable.from_columns(np.arange(1, n + 1), ["He"] * n, grid)
    project["document"]["bonds"] = BondTable.empty()
    project["document"]["nextAtomId"] = n + 1
    doc = Document(project)
    with pytest.raises(ValidationError) as err:
        ops.add_atoms(doc, [{"element": "He", "position": [0, 0, 150]}])
    assert err.value.code == "too_many_atoms"
    assert "1000001" in err.value.message("en") and "1000000" in err.value.message("en")
    assert len(doc.project["document"]["atoms"]) == n and doc.candidate is None


def test_move_translate_and_rotate(water_doc: Document) -> None:
    ops.move_atoms(water_doc, translate=[1, 2, 3], preview=False)
    o = water_doc.project["document"]["atoms"][0]
    assert (o["x"], o["y"], o["z"]) == pytest.approx((1, 2, 3.1173))
    ops.move_atoms(
        water_doc,
        ids=["a2"],
        rotate={"axis": [0, 0, 1], "angle": 90, "center": [1, 2, 0]},
        preview=False,
    )
    h = water_doc.project["document"]["atoms"][1]
    assert (h["x"], h["y"], h["z"]) == pytest.approx((1 - 0.7572, 2, -0.4692 + 3))


def test_bonds_can_be_added_changed_and_removed(water_doc: Document) -> None:
    ops.set_bonds(water_doc, [{"a": "a1", "b": "a2", "order": 2}], preview=False)
    assert water_doc.project["document"]["bonds"][0]["order"] == 2
    ops.set_bonds(water_doc, [{"a": "a2", "b": "a1", "order": 0}], preview=False)
    assert len(water_doc.project["document"]["bonds"]) == 1
    ops.set_bonds(water_doc, [{"a": "a2", "b": "a3", "order": 1}], preview=False)
    assert len(water_doc.project["document"]["bonds"]) == 2


def test_deleting_atoms_removes_their_bonds(water_doc: Document) -> None:
    out = ops.delete_atoms(water_doc, ["a1"], preview=False)
    assert out["removedIds"] == ["a1"]
    assert water_doc.project["document"]["bonds"] == []


def test_id_lists_in_the_summary_are_capped_at_100() -> None:
    doc = Document()
    out = ops.add_atoms(doc, [{"element": "He", "position": [i * 1.0, 0, 0]} for i in range(150)])
    assert len(out["addedIds"]) == 100 and out["idsTruncated"] is True


def test_protected_settings_are_refused_unless_allowed(water_doc: Document) -> None:
    from molforma.errors import ProtectedSettingError

    snap = snapshot(water_doc)
    with pytest.raises(ProtectedSettingError):
        ops.set_execution(water_doc, {"executable": "/bin/evil"}, allow_protected=False)
    with pytest.raises(ProtectedSettingError):
        ops.set_execution(water_doc, {"environment": {"LD_PRELOAD": "x.so"}}, allow_protected=False)
    with pytest.raises(ProtectedSettingError):
        ops.set_nwchem(water_doc, {"extra_input": "print high"}, allow_protected=False)
    assert snapshot(water_doc) == snap
    # the same value is not a change, and unprotected keys may change
    ops.set_execution(
        water_doc, {"executable": "nwchem", "processes": 2}, allow_protected=False, preview=False
    )
    assert water_doc.project["execution"]["processes"] == 2


def test_busy_document_refuses_edits(water_doc: Document) -> None:
    water_doc.set_busy("geometry clean-up")
    with pytest.raises(BusyError):
        ops.set_molecule(water_doc, title="x")
    water_doc.set_busy(None)
    ops.set_molecule(water_doc, title="x")


def test_unknown_atom_error_names_the_id(water_doc: Document) -> None:
    with pytest.raises(UnknownAtomError) as err:
        ops.move_atoms(water_doc, positions={"a42": [0, 0, 0]})
    assert "a42" in err.value.message("en")
    assert "a42" in err.value.message("ja")


def test_trust_follows_the_person_not_mcp(water_doc: Document) -> None:
    assert water_doc.is_trusted
    ops.set_execution(water_doc, {"executable": "nwchem7"}, actor=Actor.MCP_TOOL, preview=False)
    assert not water_doc.is_trusted
    ops.history(water_doc, "undo")
    assert water_doc.is_trusted
    ops.history(water_doc, "redo")  # redoing an MCP edit by hand does not trust it
    assert not water_doc.is_trusted
    ops.set_execution(water_doc, {"launcher": "mpiexec"}, actor=Actor.MCP_TOOL)
    ops.history(water_doc, "confirm", actor=Actor.PERSON)  # person confirms an MCP candidate
    assert not water_doc.is_trusted
    ops.set_execution(water_doc, {"executable": "nwchem"}, actor=Actor.PERSON, preview=False)
    ops.set_execution(water_doc, {"launcher": "mpirun"}, actor=Actor.PERSON, preview=False)
    assert water_doc.is_trusted


def test_loading_a_project_does_not_trust_its_execution_values() -> None:
    from molforma.document.envelope import new_project

    doc = Document()
    other = new_project(executable="/opt/other/nwchem", environment={"LD_PRELOAD": "x.so"})
    doc.load(other, origin="user")
    assert doc.project["execution"]["executable"] == "/opt/other/nwchem"
    assert not doc.is_trusted
    doc.load(new_project(), origin="user", preview=True)
    doc.confirm()
    assert doc.is_trusted  # back to the values the person trusted
    doc.load(other, origin="launch")  # the file given at launch is the person's choice
    assert doc.is_trusted


def test_undoing_an_open_restores_the_file_name_so_save_cannot_overwrite_it(tmp_path) -> None:
    first = tmp_path / "first.molforma.json"
    second = tmp_path / "second.molforma.json"
    a = Document()
    ops.add_atoms(a, [{"element": "Ne", "position": [0, 0, 0]}], preview=False)
    ops.save_project(a, str(second))
    doc = Document(path=str(first))
    ops.open_file(doc, str(second), preview=False)
    assert doc.path == str(second)
    ops.history(doc, "undo")
    assert doc.path == str(first)  # Save now writes the molecule back where it came from
    ops.history(doc, "redo")
    assert doc.path == str(second)


def test_a_refused_new_atom_is_named_by_its_place_in_the_call(water_doc: Document) -> None:
    with pytest.raises(ValidationError) as err:
        ops.add_atoms(
            water_doc,
            [{"element": "He", "position": [5, 0, 0]}, {"element": "Qq", "position": [7, 0, 0]}],
        )
    assert err.value.data["id"] == "#1"
    out = ops.add_atoms(water_doc, [{"element": "He", "position": [5, 0, 0]}])
    assert out["addedIds"] == ["a4"]


def test_a_computed_structure_with_a_symbol_that_is_no_element_is_refused_and_changes_nothing():
    doc = Document()
    ops.add_atoms(doc, [{"element": "O", "position": [0, 0, 0]}], preview=False)
    before = (doc.revision, json.dumps(doc.project, sort_keys=True))
    with pytest.raises(ValidationError) as exc:
        ops.use_structure(doc, ["O", "Qq"], [[0, 0, 0], [0, 0, 1]], preview=False)
    assert exc.value.code == "bad_element" and exc.value.data["element"] == "Qq"
    assert (doc.revision, json.dumps(doc.project, sort_keys=True)) == before
