"""Property test: random valid and invalid edits never change the document on failure,
and undoing everything restores the original project byte for byte."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from molforma.app import ops
from molforma.document.document import Document
from molforma.document.envelope import new_project
from molforma.errors import MolFormaError

coord = st.floats(min_value=-6, max_value=6, allow_nan=False, allow_infinity=False)
atom_id = st.sampled_from([f"a{i}" for i in range(1, 9)])
element = st.sampled_from(["H", "C", "N", "O", "Xx", "Cl"])

edits = st.one_of(
    st.builds(
        lambda e, x, y, z, p: ("add", e, (x, y, z), p), element, coord, coord, coord, st.booleans()
    ),
    st.builds(lambda i, p: ("delete", i, p), atom_id, st.booleans()),
    st.builds(
        lambda i, x, y, z, p: ("move", i, (x, y, z), p), atom_id, coord, coord, coord, st.booleans()
    ),
    st.builds(lambda dx, p: ("translate", dx, p), coord, st.booleans()),
    st.builds(lambda i, q, p: ("charge", i, q, p), atom_id, st.integers(-120, 30), st.booleans()),
    st.builds(lambda i, f: ("fix", i, f), atom_id, st.booleans()),
    st.builds(lambda a, b, o: ("bond", a, b, o), atom_id, atom_id, st.integers(-1, 4)),
    st.builds(lambda m: ("mult", m), st.integers(-1, 4)),
    st.builds(lambda b: ("basis", b), st.sampled_from(["sto-3g", "6-31g*", 5])),
    st.sampled_from([("confirm",), ("cancel",), ("undo",), ("redo",), ("stale",)]),
)


def run(doc: Document, e: tuple) -> None:
    kind = e[0]
    if kind == "add":
        ops.add_atoms(doc, [{"element": e[1], "position": list(e[2])}], preview=e[3])
    elif kind == "delete":
        ops.delete_atoms(doc, [e[1]], preview=e[2])
    elif kind == "move":
        ops.move_atoms(doc, positions={e[1]: list(e[2])}, preview=e[3])
    elif kind == "translate":
        ops.move_atoms(doc, translate=[e[1], 0, 0], preview=e[2])
    elif kind == "charge":
        ops.set_atom_properties(doc, [{"id": e[1], "formalCharge": e[2]}], preview=e[3])
    elif kind == "fix":
        ops.set_atom_properties(doc, [{"id": e[1], "fixed": e[2]}], preview=False)
    elif kind == "bond":
        ops.set_bonds(doc, [{"a": e[1], "b": e[2], "order": e[3]}], preview=False)
    elif kind == "mult":
        ops.set_molecule(doc, multiplicity=e[1], preview=False)
    elif kind == "basis":
        ops.set_nwchem(doc, {"basis": e[1]}, preview=False)
    elif kind == "stale":
        ops.set_molecule(doc, title="stale", expected_revision="r0", preview=False)
    else:
        ops.history(doc, kind)


def state(doc: Document) -> tuple[str, str, str]:
    return json.dumps(doc.project), json.dumps(doc.candidate), doc.revision


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(edits, min_size=1, max_size=30))
def test_failed_edits_change_nothing_and_undo_restores_the_original(seq: list[tuple]) -> None:
    start = new_project()
    start["document"]["title"] = "start"
    start["futureField"] = {"kept": [1, 2, 3]}
    doc = Document(start, undo_limit=None)
    original = json.dumps(doc.project)
    for e in seq:
        before = state(doc)
        try:
            run(doc, e)
        except MolFormaError:
            assert state(doc) == before, e
        else:
            assert doc.revision != before[2]
    if doc.candidate is not None:
        ops.history(doc, "cancel")
    assert doc.project["futureField"] == {"kept": [1, 2, 3]}
    while doc.can_undo:
        ops.history(doc, "undo")
    assert json.dumps(doc.project) == original
