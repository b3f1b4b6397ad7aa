"""Change notices: delivered after the document lock is released, naming exactly what changed."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import pytest

from molforma.app import ops
from molforma.document.changes import Change
from molforma.document.document import Document
from molforma.errors import ValidationError

H = Change.HISTORY


class Heard:
    """A listener that records every notice (and the revision it could see)."""

    def __init__(self, doc: Document) -> None:
        self.changes: list[Change] = []
        self.revisions: list[str] = []
        doc.subscribe(self)

    def __call__(self, doc: Document, change: Change) -> None:
        self.changes.append(change)
        self.revisions.append(doc.revision)


def test_a_listener_that_takes_the_lock_from_another_thread_cannot_deadlock_an_edit(
    water_doc: Document,
) -> None:
    got_lock: list[bool] = []

    def listener(doc: Document, _change: Change) -> None:
        # A GUI relay that waits for another thread which reads the document under its
        # lock: while the edit still held the lock, this would wait forever.
        def reader() -> None:
            ok = doc.lock.acquire(timeout=5)
            if ok:
                doc.lock.release()
            got_lock.append(ok)

        t = threading.Thread(target=reader)
        t.start()
        t.join(timeout=10)

    water_doc.subscribe(listener)
    done = threading.Event()

    def edit() -> None:
        ops.move_atoms(water_doc, positions={"a1": [0.0, 0.0, 0.2]}, preview=False)
        done.set()

    editor = threading.Thread(target=edit, daemon=True)
    editor.start()
    editor.join(timeout=20)
    assert done.is_set(), "the edit did not return"
    assert got_lock == [True], "the listener's thread could not take the lock"


def test_changes_made_inside_an_outer_lock_are_told_only_after_it_is_released(
    water_doc: Document,
) -> None:
    heard = Heard(water_doc)
    free_when_told: list[bool] = []

    def probe(doc: Document, _change: Change) -> None:
        result: list[bool] = []
        t = threading.Thread(
            target=lambda: (
                result.append(doc.lock.acquire(timeout=2)) or (result[0] and doc.lock.release())
            )
        )
        t.start()
        t.join(timeout=5)
        free_when_told.append(bool(result and result[0]))

    water_doc.subscribe(probe)
    with water_doc.lock:
        ops.move_atoms(water_doc, positions={"a1": [0.0, 0.0, 0.2]}, preview=False)
        ops.set_nwchem(water_doc, {"basis": "sto-3g"}, preview=False)
        assert heard.changes == []  # still inside: nothing told yet
    assert heard.changes == [Change.POSITIONS | H, Change.SETTINGS | H]
    assert free_when_told == [True, True]
    assert heard.revisions == [water_doc.revision] * 2  # told once both could be seen


def _move(doc: Document, preview: bool = False) -> Any:
    return ops.move_atoms(doc, positions={"a2": [0.0, 0.8, -0.5]}, preview=preview)


CASES: list[tuple[str, Callable[[Document], Any], Change]] = [
    ("move", _move, Change.POSITIONS | H),
    (
        "translate",
        lambda d: ops.move_atoms(d, translate=[1, 0, 0], preview=False),
        Change.POSITIONS | H,
    ),
    ("basis", lambda d: ops.set_nwchem(d, {"basis": "sto-3g"}, preview=False), Change.SETTINGS | H),
    (
        "advanced",
        lambda d: ops.set_advanced(d, {"scf_maxiter": 50}, preview=False),
        Change.SETTINGS | H,
    ),
    (
        "execution",
        lambda d: ops.set_execution(d, {"processes": 2}, preview=False),
        Change.SETTINGS | H,
    ),
    ("same basis", lambda d: ops.set_nwchem(d, {"basis": "6-31g*"}, preview=False), H),
    (
        "charge",
        lambda d: ops.set_molecule(d, charge=1, multiplicity=2, preview=False),
        Change.MOLECULE | H,
    ),
    ("title", lambda d: ops.set_molecule(d, title="water", preview=False), Change.MOLECULE | H),
    (
        "atom property",
        lambda d: ops.set_atom_properties(d, [{"id": "a1", "formalCharge": -1}], preview=False),
        Change.ATOMS | H,
    ),
    (
        "bond order",
        lambda d: ops.set_bonds(d, [{"a": "a1", "b": "a2", "order": 2}], preview=False),
        Change.BONDS | H,
    ),
    (
        "add an atom",
        lambda d: ops.add_atoms(d, [{"element": "H", "position": [0, 0, 1.2]}], preview=False),
        Change.ATOMS | H,
    ),
    (
        "add a bonded atom",
        lambda d: ops.add_atoms(
            d, [{"element": "H", "position": [0, 0, 1.2]}], [{"a": "a1", "b": "#0"}], preview=False
        ),
        Change.ATOMS | Change.BONDS | H,
    ),
    (
        "delete an atom",
        lambda d: ops.delete_atoms(d, ["a3"], preview=False),
        Change.ATOMS | Change.BONDS | H,
    ),
    ("candidate", lambda d: _move(d, preview=True), Change.CANDIDATE),
]


@pytest.mark.parametrize(("name", "call", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_kind_of_edit_names_exactly_what_it_changed(
    water_doc: Document, name: str, call: Callable[[Document], Any], expected: Change
) -> None:
    heard = Heard(water_doc)
    call(water_doc)
    assert heard.changes == [expected]


@pytest.mark.parametrize(("name", "call", "expected"), CASES[:-1], ids=[c[0] for c in CASES[:-1]])
def test_undo_and_redo_name_what_the_step_changed(
    water_doc: Document, name: str, call: Callable[[Document], Any], expected: Change
) -> None:
    call(water_doc)
    heard = Heard(water_doc)
    water_doc.undo()
    water_doc.redo()
    assert heard.changes == [expected, expected]


def test_a_candidate_tells_its_content_when_confirmed_and_nothing_when_cancelled(
    water_doc: Document,
) -> None:
    heard = Heard(water_doc)
    _move(water_doc, preview=True)
    water_doc.confirm()
    ops.set_nwchem(water_doc, {"basis": "sto-3g"})
    water_doc.cancel()
    assert heard.changes == [
        Change.CANDIDATE,
        Change.POSITIONS | Change.CANDIDATE | H,
        Change.CANDIDATE,
        Change.CANDIDATE,
    ]


def test_loading_a_project_says_load_and_what_differs(water_doc: Document) -> None:
    other = Document()
    ops.add_atoms(other, [{"element": "Ne", "position": [0, 0, 0]}], preview=False)
    heard = Heard(water_doc)
    water_doc.load(other.project)
    # a1 is O there and Ne here, elsewhere: same id, another element and place
    assert heard.changes == [Change.LOAD | Change.ATOMS | Change.POSITIONS | Change.BONDS | H]


def test_busy_is_told_when_it_starts_and_ends_without_a_new_revision(water_doc: Document) -> None:
    heard = Heard(water_doc)
    rev = water_doc.revision
    water_doc.set_busy("geometry clean-up")
    water_doc.set_busy("geometry clean-up")  # already busy: nothing new
    water_doc.set_busy(None)
    assert heard.changes == [Change.BUSY, Change.BUSY]
    assert water_doc.revision == rev


def test_a_refused_edit_tells_nothing(water_doc: Document) -> None:
    heard = Heard(water_doc)
    with pytest.raises(ValidationError):
        ops.move_atoms(water_doc, positions={"a1": [0.0, 0.7572, -0.4692]}, preview=False)
    assert heard.changes == []


def test_a_failing_listener_is_logged_and_neither_hides_the_edit_nor_the_others(
    water_doc: Document, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(_doc: Document, _change: Change) -> None:
        raise RuntimeError("listener bug")

    water_doc.subscribe(broken)
    heard = Heard(water_doc)
    with caplog.at_level(logging.ERROR, logger="molforma.document.document"):
        out = _move(water_doc)
    assert out["revision"] == water_doc.revision
    assert heard.changes == [Change.POSITIONS | H]
    assert "listener bug" in caplog.text


def test_opening_a_file_replaces_the_structure_wholesale_and_says_atoms_and_bonds(
    water_doc: Document, tmp_path: Any
) -> None:
    path = tmp_path / "co2.xyz"
    path.write_text("3\nCO2\nC 0 0 0\nO 0 0 1.16\nO 0 0 -1.16\n", encoding="utf-8")
    before = water_doc.project["document"]["atoms"]
    heard = Heard(water_doc)
    ops.open_file(water_doc, str(path), preview=False)
    (change,) = heard.changes
    assert Change.ATOMS | Change.POSITIONS | Change.BONDS | H in change
    assert [a["element"] for a in water_doc.project["document"]["atoms"]] == ["C", "O", "O"]
    water_doc.undo()
    assert water_doc.project["document"]["atoms"] == before
