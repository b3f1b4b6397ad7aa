"""The window's modal dialogs as a flag the GUI thread keeps: an MCP edit checks it and
edits under the document's lock, in one step (docs/reference/window.md, Commands), with no call to the
GUI thread."""

from __future__ import annotations

import threading

import pytest

from molforma.app import ops
from molforma.app.actor import Actor
from molforma.document.document import Document
from molforma.errors import MolFormaError
from molforma.mcp.bridge import ModalFlag

HE = [{"element": "He", "position": [0.0, 0.0, 0.0]}]


def test_an_edit_is_refused_while_a_dialog_is_shown_and_runs_once_it_is_hidden() -> None:
    flag, doc = ModalFlag(), Document()
    with doc.lock:
        flag.shown(1, "Run with these settings?", "runConfirm")
    revision = doc.revision
    with pytest.raises(MolFormaError) as err, flag.edit(doc):
        ops.add_atoms(doc, HE, preview=False, actor=Actor.MCP_TOOL)
    assert err.value.code == "modal_dialog_open"
    assert err.value.data == {"title": "Run with these settings?", "objectName": "runConfirm"}
    assert "Run with these settings?" in err.value.message("en")
    assert "「Run with these settings?」" in err.value.message("ja")
    assert doc.revision == revision and doc.project["document"]["atoms"] == []
    with doc.lock:
        flag.hidden(1)
    with flag.edit(doc):
        ops.add_atoms(doc, HE, preview=False, actor=Actor.MCP_TOOL)
    assert len(doc.project["document"]["atoms"]) == 1


def test_the_newest_of_several_dialogs_is_named_and_all_must_close() -> None:
    flag = ModalFlag()
    flag.shown(1, "Preferences", "prefs")
    flag.shown(2, "Replace the file?", "replace")
    assert flag.open_dialog() == ("Replace the file?", "replace")
    flag.hidden(2)
    assert flag.open_dialog() == ("Preferences", "prefs") and flag.holds(1)
    flag.hidden(1)
    flag.refuse_edits()  # nothing open: nothing to refuse
    assert not flag.holds(1)


def test_a_dialog_shown_during_an_edit_waits_for_the_edit_and_no_edit_starts_behind_it() -> None:
    flag, doc = ModalFlag(), Document()
    editing, release = threading.Event(), threading.Event()
    order: list[str] = []

    def mcp_edit() -> None:
        with flag.edit(doc):
            editing.set()
            release.wait(5)
            ops.add_atoms(doc, HE, preview=False, actor=Actor.MCP_TOOL)
            order.append("edit")

    def gui_shows_dialog() -> None:
        with doc.lock:  # what the window's watcher does as a modal dialog shows
            flag.shown(7, "Question", "box")
            order.append("dialog")

    worker = threading.Thread(target=mcp_edit)
    worker.start()
    assert editing.wait(5)
    gui = threading.Thread(target=gui_shows_dialog)
    gui.start()
    gui.join(0.2)
    assert gui.is_alive() and order == []  # the dialog waits for the edit in progress
    release.set()
    worker.join(5)
    gui.join(5)
    assert order == ["edit", "dialog"]
    with pytest.raises(MolFormaError), flag.edit(doc):  # and the next edit is refused
        ops.add_atoms(doc, HE, preview=False, actor=Actor.MCP_TOOL)
    assert len(doc.project["document"]["atoms"]) == 1


def test_a_check_without_holding_lets_the_call_run_outside_the_lock() -> None:
    flag, doc = ModalFlag(), Document()
    seen: list[bool] = []

    def take() -> None:
        got = doc.lock.acquire(timeout=1)
        seen.append(got)
        if got:
            doc.lock.release()

    with flag.edit(doc, hold=False):
        other = threading.Thread(target=take)
        other.start()
        other.join(2)
    assert seen == [True]
