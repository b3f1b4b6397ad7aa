"""One mechanism for a command: the Molecule tab's Undo, Redo, Confirm, Cancel and Load
buttons are the window's actions, and an action's callback takes the application
context plus a small window facade."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtGui import QAction

from molforma.app import ops
from molforma.gui.actions import ACTIONS_BY_ID
from tests.gui.helpers import WATER

BUTTONS = {
    "undoButton": "molforma.edit.undo",
    "redoButton": "molforma.edit.redo",
    "confirmButton": "molforma.edit.confirm",
    "cancelButton": "molforma.edit.cancel",
    "loadStructureButton": "molforma.file.load_structure",
}


@pytest.mark.parametrize(("button", "action"), list(BUTTONS.items()))
def test_a_tab_button_that_repeats_a_menu_command_is_that_menu_action(
    make_main_window: Any, button: str, action: str
) -> None:
    win = make_main_window()
    tab_button = win.molecule_tab.findChild(object, button)
    assert tab_button.defaultAction() is win.findChild(QAction, action)


def test_clicking_the_undo_button_triggers_the_undo_action_and_follows_its_state(
    make_main_window: Any,
) -> None:
    win = make_main_window()
    doc = win.ctx.document
    act = win.findChild(QAction, "molforma.edit.undo")
    fired: list[bool] = []
    act.triggered.connect(lambda *_: fired.append(True))
    assert not act.isEnabled() and not win.molecule_tab.undo_button.isEnabled()
    ops.add_atoms(doc, WATER, preview=False)
    assert act.isEnabled() and win.molecule_tab.undo_button.isEnabled()
    assert win.molecule_tab.undo_button.text() == "Undo Add atoms"
    win.molecule_tab.undo_button.click()
    assert fired == [True]
    assert doc.project["document"]["atoms"] == []
    assert not win.molecule_tab.undo_button.isEnabled()
    # The menu keeps its own title; the button its short wording.
    ops.add_atoms(doc, WATER, preview=True)
    assert win.findChild(QAction, "molforma.edit.confirm").text() == "&Confirm Candidate"
    assert win.molecule_tab.confirm_button.text() == "Confirm"


def test_history_actions_need_only_the_application_context(make_main_window: Any) -> None:
    win = make_main_window()
    doc = win.ctx.document
    ops.add_atoms(doc, WATER, preview=True)
    facade = SimpleNamespace(molecule_tab=SimpleNamespace(worker_running=False))
    confirm = ACTIONS_BY_ID["molforma.edit.confirm"]
    assert confirm.enabled is not None and confirm.enabled(win.ctx, facade)
    confirm.callback(win.ctx, facade)
    assert doc.candidate is None and len(doc.project["document"]["atoms"]) == 3
    ACTIONS_BY_ID["molforma.edit.undo"].callback(win.ctx, facade)
    assert doc.project["document"]["atoms"] == []
    busy = SimpleNamespace(molecule_tab=SimpleNamespace(worker_running=True))
    assert not ACTIONS_BY_ID["molforma.edit.redo"].enabled(win.ctx, busy)
    assert ACTIONS_BY_ID["molforma.edit.redo"].enabled(win.ctx, facade)
