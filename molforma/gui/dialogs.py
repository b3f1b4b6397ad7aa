"""Every modal box of the window goes through this module (Qt layer).

Keeping them in one place lets tests patch them (so no modal blocks a run) and lets
the MCP window tools find and answer them: message boxes carry the objectName
``messageBox`` and file dialogs ``fileDialog``; file dialogs are always Qt's own
(non-native) dialog, so they can be driven and checked like any other widget.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QWidget


def ask(parent: QWidget | None, title: str, text: str, buttons: Sequence[str],
        default: str | None = None, escape: str | None = None) -> str:
    """Ask a question with the given button texts; return the text of the pressed button.

    Closing the box with Escape (or the window's close button) returns ``escape``,
    or the last button when ``escape`` is None.
    """
    box = QMessageBox(parent)
    box.setObjectName("messageBox")
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(title)
    box.setText(text)
    made = {}
    for i, label in enumerate(buttons):
        role = QMessageBox.ButtonRole.AcceptRole if i == 0 else QMessageBox.ButtonRole.RejectRole
        btn = box.addButton(label, role)
        btn.setObjectName(f"messageBoxButton{i}")
        made[label] = btn
    if default is not None and default in made:
        box.setDefaultButton(made[default])
    esc = escape if escape in made else (list(buttons)[-1] if buttons else None)
    if esc is not None:
        box.setEscapeButton(made[esc])
    box.exec()
    clicked = box.clickedButton()
    for label, btn in made.items():
        if btn is clicked:
            return label
    return esc or ""


def _message(parent: QWidget | None, title: str, text: str, icon: QMessageBox.Icon) -> None:
    box = QMessageBox(parent)
    box.setObjectName("messageBox")
    box.setIcon(icon)
    box.setWindowTitle(title)
    box.setText(text)
    ok = box.addButton(QMessageBox.StandardButton.Ok)
    ok.setObjectName("messageBoxButton0")
    box.exec()


def info(parent: QWidget | None, title: str, text: str) -> None:
    """Show an information box with an OK button."""
    _message(parent, title, text, QMessageBox.Icon.Information)


def error(parent: QWidget | None, title: str, text: str) -> None:
    """Show an error box with an OK button."""
    _message(parent, title, text, QMessageBox.Icon.Critical)


def _file_dialog(parent: QWidget | None, caption: str, filters: Sequence[str] | str,
                 mode: QFileDialog.AcceptMode) -> QFileDialog:
    dlg = QFileDialog(parent, caption)
    dlg.setObjectName("fileDialog")
    dlg.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dlg.setAcceptMode(mode)
    flist = [filters] if isinstance(filters, str) else list(filters)
    if flist:
        dlg.setNameFilters(flist)
    return dlg


def get_open_path(parent: QWidget | None, caption: str,
                  filters: Sequence[str] | str) -> str | None:
    """Ask for an existing file to open; None when cancelled."""
    dlg = _file_dialog(parent, caption, filters, QFileDialog.AcceptMode.AcceptOpen)
    dlg.setFileMode(QFileDialog.FileMode.ExistingFile)
    if dlg.exec() != QFileDialog.DialogCode.Accepted or not dlg.selectedFiles():
        return None
    return dlg.selectedFiles()[0]


def get_save_path(parent: QWidget | None, caption: str, filters: Sequence[str] | str,
                  suggested: str = "") -> str | None:
    """Ask for a file name to write; None when cancelled.

    The dialog asks before replacing an existing file (Qt's own confirmation). A name
    typed without any of the filters' extensions gets the chosen filter's extension.
    """
    dlg = _file_dialog(parent, caption, filters, QFileDialog.AcceptMode.AcceptSave)
    dlg.setFileMode(QFileDialog.FileMode.AnyFile)
    flist = [filters] if isinstance(filters, str) else list(filters)
    known = {sx for f in flist if (sx := filter_suffix(f))}
    if suggested:
        dlg.selectFile(suggested)
    if dlg.exec() != QFileDialog.DialogCode.Accepted or not dlg.selectedFiles():
        return None
    path = dlg.selectedFiles()[0]
    wanted = filter_suffix(dlg.selectedNameFilter())
    if wanted and not any(path.endswith(sx) for sx in known):
        path += wanted  # a name typed without extension gets the chosen type's one
    return path


def filter_suffix(name_filter: str) -> str | None:
    """The extension (``.nw``, ``.molforma.json``) of a filter's first pattern, if concrete."""
    inner = name_filter[name_filter.rfind("(") + 1:name_filter.rfind(")")] \
        if "(" in name_filter else name_filter
    first = inner.split()[0] if inner.split() else ""
    if first.startswith("*.") and "*" not in first[1:] and "?" not in first:
        return first[1:]
    return None


def get_directory(parent: QWidget | None, caption: str, start: str = "") -> str | None:
    """Ask for a directory; None when cancelled."""
    dlg = QFileDialog(parent, caption, start)
    dlg.setObjectName("fileDialog")
    dlg.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dlg.setFileMode(QFileDialog.FileMode.Directory)
    dlg.setOption(QFileDialog.Option.ShowDirsOnly, True)
    if dlg.exec() != QFileDialog.DialogCode.Accepted or not dlg.selectedFiles():
        return None
    return dlg.selectedFiles()[0]


def run_dialog(dialog: QDialog) -> int:
    """Run a custom modal dialog (Preferences, PDB model choice) and return its result."""
    return int(dialog.exec())


__all__ = ["ask", "error", "get_directory", "get_open_path", "get_save_path", "info", "run_dialog"]
