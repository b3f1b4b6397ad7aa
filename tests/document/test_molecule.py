"""The array-backed document: column tables, their JSON, undo that keeps what changed."""

from __future__ import annotations

import json
import time
from typing import Any

import numpy as np
import pytest

from molforma.app import ops
from molforma.document.document import Document
from molforma.document.envelope import new_atom, new_project, project_from_json
from molforma.document.molecule import AtomTable, BondTable, DocumentBlock, plain_project
from molforma.errors import MolFormaError, ValidationError
from molforma.mcp import paging, table_pages


def _records() -> list[dict[str, Any]]:
    a1 = new_atom("a3", "O", 0.0, 0.0, 0.1173, name="OW", formalCharge=-1, fixed=True)
    a2 = new_atom("a7", "H", 0, 0.7572, -0.4692, massNumber=2)  # an int coordinate
    a2["label3d"] = "ox"  # a field of a newer file
    a3 = new_atom("a9", "H", -0.0, -0.7572, -0.4692, mass=1.5, unpairedElectrons=1)
    return [a1, a2, a3]


def _big_project(n: int, *, bonds: bool = True) -> dict[str, Any]:
    """Waters on a 3.1 Å grid as tables: n atoms (a multiple of 3), O-H bonds."""
    m = n // 3
    side = int(np.ceil(m ** (1 / 3)))
    grid = np.indices((side, side, side)).reshape(3, -1).T[:m] * 3.1
    xyz = np.repeat(grid, 3, axis=0).astype(float)
    xyz[1::3, 0] += 0.9572
    xyz[2::3, 0] -= 0.24
    xyz[2::3, 1] += 0.927
    ids = np.arange(1, n + 1)
    p = new_project()
    p["document"]["atoms"] = AtomTable.from_columns(ids, np.tile(["O", "H", "H"], m), xyz)
    if bonds:
        o = ids[0::3]
        p["document"]["bonds"] = BondTable(np.concatenate([o, o]), np.concatenate([o + 1, o + 2]))
    else:
        p["document"]["bonds"] = BondTable.empty()
    p["document"]["nextAtomId"] = n + 1
    return p


def test_records_round_trip_through_the_columns_exactly() -> None:
    recs = _records()
    table = AtomTable.from_records(recs)
    assert table.to_records() == recs
    assert json.dumps(table.to_records()) == json.dumps(recs)  # 0 stays 0, -0.0 stays -0.0
    assert table.ids.tolist() == [3, 7, 9] and table.symbols.tolist() == ["O", "H", "H"]
    assert not table.xyz.flags.writeable and not table.charge.flags.writeable
    bonds = [
        {"a": "a3", "b": "a7", "order": 1, "style": "dashed"},
        {"a": "a3", "b": "a9", "order": 2},
    ]
    assert BondTable.from_records(bonds).to_records() == bonds
    assert table[1] == recs[1] and table[-1] == recs[2] and table[0:2] == recs[:2]


def test_a_stored_project_is_written_as_the_same_json_as_its_records() -> None:
    p = new_project()
    p["document"]["atoms"] = _records()
    p["document"]["bonds"] = [{"a": "a3", "b": "a7", "order": 1}]
    p["document"]["nextAtomId"] = 10
    p["fromTheFuture"] = {"x": [1, 2.5]}
    text = json.dumps(p, indent=1)
    doc = Document(project_from_json(json.loads(text)))
    assert isinstance(doc.project["document"], DocumentBlock)
    assert isinstance(doc.project["document"]["atoms"], AtomTable)
    assert json.dumps(doc.project, indent=1) == text
    assert json.dumps(doc.project, sort_keys=True) == json.dumps(p, sort_keys=True)


EDITS = {
    "add": lambda d: ops.add_atoms(
        d, [{"element": "N", "position": [5, 5, 5]}], [{"a": "a3", "b": "#0"}], preview=False
    ),
    "delete": lambda d: ops.delete_atoms(d, ["a7"], preview=False),
    "move": lambda d: ops.move_atoms(d, ids=["a7", "a9"], translate=[0.5, 0, 0], preview=False),
    "move one": lambda d: ops.move_atoms(d, positions={"a9": [0, -2, 0]}, preview=False),
    "rotate": lambda d: ops.move_atoms(
        d, ids=["a7", "a9"], rotate={"axis": [0, 0, 1], "angle": 30}, preview=False
    ),
    "properties": lambda d: ops.set_atom_properties(
        d, [{"id": "a7", "name": "HW", "formalCharge": 1}], preview=False
    ),
    "bonds": lambda d: ops.set_bonds(d, [{"a": "a3", "b": "a9", "order": 0}], preview=False),
}


@pytest.mark.parametrize("kind", list(EDITS))
def test_every_edit_kind_keeps_ids_and_undoes_and_redoes_byte_for_byte(kind: str) -> None:
    p = new_project()
    p["document"]["atoms"] = _records()
    p["document"]["bonds"] = [
        {"a": "a3", "b": "a7", "order": 1},
        {"a": "a3", "b": "a9", "order": 1},
    ]
    p["document"]["nextAtomId"] = 10
    doc = Document(project_from_json(json.loads(json.dumps(p))))
    before = json.dumps(doc.project)
    ids_before = doc.project["document"]["atoms"].ids.tolist()
    EDITS[kind](doc)
    after = json.dumps(doc.project)
    assert after != before
    kept = [i for i in doc.project["document"]["atoms"].ids.tolist() if i in ids_before]
    assert kept == [i for i in ids_before if i in kept]  # no id renamed or reordered
    assert isinstance(doc.project["document"]["atoms"], AtomTable)
    doc.undo()
    assert json.dumps(doc.project) == before
    doc.redo()
    assert json.dumps(doc.project) == after


def test_a_rigid_move_keeps_one_coordinate_array_and_shares_every_other_column() -> None:
    n = 100_002
    doc = Document(_big_project(n))
    old = doc.project["document"]["atoms"]
    ops.move_atoms(doc, translate=[0.1, 0.0, 0.0], preview=False)
    new = doc.project["document"]["atoms"]
    assert new.xyz is not old.xyz and np.allclose(new.xyz, old.xyz + np.array([0.1, 0, 0]))
    assert all(
        a is b
        for a, b in zip(
            new.arrays()[:2] + new.arrays()[3:], old.arrays()[:2] + old.arrays()[3:], strict=True
        )
    )
    assert doc.project["document"]["bonds"] is not None
    assert doc.undo_bytes <= 2 * old.xyz.nbytes
    assert doc.undo_bytes >= old.xyz.nbytes


def test_the_undo_history_keeps_to_its_byte_budget_dropping_the_oldest_steps() -> None:
    doc = Document(_big_project(30_000))
    xyz_bytes = 30_000 * 24
    doc.undo_byte_budget = 3 * xyz_bytes + 100
    for k in range(6):
        ops.move_atoms(doc, translate=[0.01 * (k + 1), 0, 0], preview=False)
    assert len(doc.undo_labels) == 3
    assert doc.undo_bytes <= doc.undo_byte_budget
    for _ in range(3):
        doc.undo()
    assert not doc.can_undo
    # the three newest steps came back: the atoms sit where the first three moves left them
    assert doc.project["document"]["atoms"].xyz[0, 0] == pytest.approx(0.06)


def test_a_page_of_a_table_project_is_the_page_the_list_pager_gives() -> None:
    p = Document(_big_project(3_000)).project
    plain = plain_project(p)
    offset, pages = 0, 0
    while offset is not None:
        got, nxt, complete = table_pages.page_envelope(p, offset, None, 20_000)
        want, wnxt = paging.page_envelope(plain, offset, None, 20_000)
        assert got == want and nxt == wnxt and not complete
        offset, pages = nxt, pages + 1
    assert pages > 5
    got, nxt, complete = table_pages.page_envelope(p, 100, 7, 20_000)
    assert (got, nxt) == paging.page_envelope(plain, 100, 7, 20_000)


def test_a_page_costs_a_page_not_the_document() -> None:
    small = Document(_big_project(999)).project
    large = Document(_big_project(300_000)).project

    def page_time(p: dict[str, Any]) -> float:
        table_pages.page_envelope(p, 300, None, 36_000)  # the bond order is kept with the table
        t0 = time.perf_counter()
        for _ in range(5):
            table_pages.page_envelope(p, 300, None, 36_000)
        return time.perf_counter() - t0

    assert page_time(large) <= 3 * page_time(small) + 0.01


def test_ten_thousand_coincident_atoms_are_refused_in_well_under_a_second() -> None:
    text = "10000\npile\n" + "C 1.0 1.0 1.0\n" * 10_000
    doc = Document()
    rev = doc.revision
    t0 = time.perf_counter()
    with pytest.raises(ValidationError) as err:
        ops.import_document(doc, text, "xyz", preview=False)
    assert time.perf_counter() - t0 < 0.5
    assert err.value.code == "atoms_too_close"
    assert doc.revision == rev and len(doc.project["document"]["atoms"]) == 0


def test_an_edit_that_breaks_a_rule_in_a_table_names_the_same_atom_as_before() -> None:
    doc = Document(_big_project(3_000))
    with pytest.raises(ValidationError) as err:
        ops.move_atoms(doc, positions={"a4": [0.0, 0.0, 0.05]}, preview=False)
    assert err.value.code == "atoms_too_close"
    with pytest.raises(ValidationError) as err:
        ops.set_atom_properties(doc, [{"id": "a5", "formalCharge": 50}], preview=False)
    assert err.value.code == "formal_charge_range"
    assert not doc.can_undo


def test_table_edits_copy_only_the_columns_they_write_and_undo_exactly() -> None:
    from molforma.document import table_edits

    doc = Document(_big_project(3_000))
    before = json.dumps(doc.project)
    old = doc.project["document"]["atoms"]
    doc.edit(
        lambda w: table_edits.set_atom_properties(
            w, [{"id": "a5", "formalCharge": 1}, {"id": "a6", "name": "HX"}]
        ),
        label="Set atom properties",
        preview=False,
        tables=True,
    )
    new = doc.project["document"]["atoms"]
    assert new.charge is not old.charge and new.names is not None
    assert new.xyz is old.xyz and new.ids is old.ids and new.z is old.z
    assert new[4]["formalCharge"] == 1 and new[5]["name"] == "HX" and new[6] == old[6]
    doc.edit(
        lambda w: table_edits.delete_atoms(w, ["a1"]),
        label="Delete atoms",
        preview=False,
        tables=True,
    )
    assert len(doc.project["document"]["atoms"]) == 2_999
    assert len(doc.project["document"]["bonds"]) == 2_000 - 2
    for _ in range(2):
        doc.undo()
    assert json.dumps(doc.project) == before
    with pytest.raises(ValidationError) as err:
        doc.edit(
            lambda w: table_edits.set_atom_properties(w, [{"id": "a5", "unpairedElectrons": 9}]),
            label="Set atom properties",
            preview=False,
            tables=True,
        )
    assert err.value.code == "unpaired_range"


def test_the_first_structure_of_an_empty_document_is_told_to_listeners() -> None:
    from molforma.document.changes import Change

    doc = Document()
    heard: list[Change] = []
    doc.subscribe(lambda _d, change: heard.append(change))
    ops.add_atoms(
        doc,
        [{"element": "O", "position": [0, 0, 0]}, {"element": "H", "position": [0.96, 0, 0]}],
        [{"a": "#0", "b": "#1"}],
        preview=False,
    )
    assert isinstance(doc.project["document"]["atoms"], AtomTable)
    assert Change.ATOMS | Change.BONDS in heard[-1]


def test_adding_atoms_to_a_large_document_works_on_the_columns_and_checks_as_before() -> None:
    doc = Document(_big_project(30_000))
    old = doc.project["document"]["atoms"]
    out = ops.add_atoms(
        doc,
        [{"element": "N", "position": [-5, -5, -5]}, {"element": "H", "position": [-5, -5, -4]}],
        [{"a": "#0", "b": "#1"}, {"a": "a1", "b": "#0", "order": 2}],
        preview=False,
    )
    assert out["addedIds"] == ["a30001", "a30002"]
    new = doc.project["document"]["atoms"]
    assert len(new) == 30_002 and new[-2]["element"] == "N" and new[0] == old[0]
    assert doc.project["document"]["bonds"][-1] == {"a": "a1", "b": "a30001", "order": 2}
    rev = doc.revision
    for atoms, bonds, code in (
        ([{"element": "Xx", "position": [9, 9, 9]}], [], "bad_element"),
        ([{"element": "C", "position": [0, 0, 0]}], [], "atoms_too_close"),
        (
            [{"element": "C", "position": [-9, -9, -9]}],
            [{"a": "#0", "b": "a99999"}],
            "unknown_atom",
        ),
        (
            [{"element": "C", "position": [-9, -9, -9]}],
            [{"a": "#0", "b": "#3"}],
            "bad_new_atom_ref",
        ),
        (
            [{"element": "C", "position": [-9, -9, -9]}],
            [{"a": "#0", "b": "a1", "order": 4}],
            "bad_bond_order",
        ),
        ([{"element": "C", "position": [-9, -9, -9]}], [{"a": "a1", "b": "a2"}], "duplicate_bond"),
    ):
        with pytest.raises(MolFormaError) as err:
            ops.add_atoms(doc, atoms, bonds, preview=False)
        assert err.value.code == code
    assert doc.revision == rev and len(doc.project["document"]["atoms"]) == 30_002


def test_ids_parsed_at_once_answer_as_one_by_one() -> None:
    """int_ids (one regular expression over the joined ids) and int_id agree on every
    spelling; anything that is not an atom id, or too large for one, is -1."""
    from molforma.document.columns import int_id, int_ids

    good = [f"a{i}" for i in (1, 7, 42, 10**17, 999_999_999_999_999_999)]
    assert int_ids(good).tolist() == [int_id(i) for i in good]
    odd = ["a1", "a01", "a", "b2", "a-3", "a+4", " a5", "a6 ", "a1_0", "a²", "a\n7", 8, None]
    odd += ["a" + "9" * 19, "a١"]
    assert int_ids(odd).tolist() == [1] + [-1] * (len(odd) - 1)
    assert int_ids([]).tolist() == []
    assert int_ids(iter(["a3", "a2"])).tolist() == [3, 2]
