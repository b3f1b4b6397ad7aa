"""The real dialogs module: message boxes return the pressed button, file dialogs are Qt's own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox


@pytest.fixture
def real_dialogs(dialog_log: Any) -> Any:
    import importlib

    from molforma.gui import dialogs

    # Reloading brings back the real functions for this test; the conftest's monkeypatch
    # restores the module attributes at teardown as usual.
    return importlib.reload(dialogs)


def _when_modal(kind: type, action: Any) -> None:
    def poll() -> None:
        w = QApplication.activeModalWidget()
        if isinstance(w, kind):
            action(w)
        else:
            QTimer.singleShot(20, poll)

    QTimer.singleShot(20, poll)


def test_ask_returns_the_text_of_the_pressed_button(real_dialogs: Any, qtbot: Any) -> None:
    seen: list[str] = []

    def press_second(box: QMessageBox) -> None:
        seen.append(box.objectName())
        box.findChild(type(box.buttons()[0]), "messageBoxButton1").click()

    _when_modal(QMessageBox, press_second)
    answer = real_dialogs.ask(
        None, "Title", "Question?", ["Save", "Discard", "Cancel"], default="Save", escape="Cancel"
    )
    assert answer == "Discard"
    assert seen == ["messageBox"]


def test_escape_gives_the_escape_button(real_dialogs: Any, qtbot: Any) -> None:
    from PySide6.QtCore import Qt

    _when_modal(QMessageBox, lambda box: qtbot.keyClick(box, Qt.Key.Key_Escape))
    assert real_dialogs.ask(None, "T", "Q", ["Yes", "No"], escape="No") == "No"


def test_save_dialog_is_qt_own_and_returns_the_chosen_path(
    real_dialogs: Any, qtbot: Any, tmp_path: Path
) -> None:
    target = tmp_path / "out.xyz"
    seen: list[bool] = []

    def choose(dlg: QFileDialog) -> None:
        seen.append(bool(dlg.testOption(QFileDialog.Option.DontUseNativeDialog)))
        from PySide6.QtWidgets import QLineEdit

        dlg.setDirectory(str(tmp_path))
        name = dlg.findChild(QLineEdit, "fileNameEdit")  # what a person types into
        name.setText("out.xyz")
        dlg.accept()

    _when_modal(QFileDialog, choose)
    path = real_dialogs.get_save_path(None, "Export", ["XYZ (*.xyz)"], "x.xyz")
    assert path == str(target)
    assert seen == [True]


def test_cancelled_open_dialog_returns_none(real_dialogs: Any, qtbot: Any) -> None:
    _when_modal(QFileDialog, lambda dlg: dlg.reject())
    assert real_dialogs.get_open_path(None, "Open", "All (*)") is None


def test_a_name_typed_without_extension_gets_the_chosen_types_extension(
    real_dialogs: Any, qtbot: Any, tmp_path: Path
) -> None:
    from PySide6.QtWidgets import QLineEdit

    filters = ["XYZ file (*.xyz)", "MolForma project (*.molforma.json)"]

    def type_bare_name(dlg: QFileDialog) -> None:
        dlg.setDirectory(str(tmp_path))
        dlg.selectNameFilter(filters[1])
        dlg.findChild(QLineEdit, "fileNameEdit").setText("water")
        dlg.accept()

    _when_modal(QFileDialog, type_bare_name)
    path = real_dialogs.get_save_path(None, "Save", filters, "")
    assert path == str(tmp_path / "water.molforma.json")
    assert real_dialogs.filter_suffix("All files (*)") is None
