"""Every modal box of the window goes through this module (Qt layer).

Keeping them in one place lets tests patch them (so no modal blocks a run) and lets
the MCP window tools find and answer them: message boxes carry the objectName
``messageBox`` and file dialogs ``fileDialog``; file dialogs are always Qt's own
(non-native) dialog, so they can be driven and checked like any other widget.

While a box is open it is in :data:`registry` (id, title, text, buttons, Escape
button, the window command that opened it). A box asked with ``private=True`` (the
Run confirmation for untrusted settings) is registered as private: MCP never sees
it in ``get_ui``, can never press it and never gets it as an elicitation.
"""

from __future__ import annotations

import itertools
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field

from PySide6.QtWidgets import QAbstractButton, QDialog, QFileDialog, QMessageBox, QWidget

from molforma.mcp.bridge import DialogInfo


@dataclass
class OpenDialog:
    """One open dialog: what MCP may read of it, and the widget (weakly)."""

    info: DialogInfo
    private: bool
    widget: weakref.ref[QWidget]
    buttons: dict[str, weakref.ref[QAbstractButton]] = field(default_factory=dict)


class DialogRegistry:
    """The dialogs open now (thread-safe: the MCP thread reads snapshots)."""

    def __init__(self) -> None:
        self._open: dict[str, OpenDialog] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.command_id: str | None = None  # the window command running now, if any
        self.on_open: list[object] = []

    def register(
        self,
        widget: QWidget,
        kind: str,
        title: str,
        text: str,
        buttons: dict[str, QAbstractButton] | None = None,
        escape: str | None = None,
        private: bool = False,
        extra: dict[str, str] | None = None,
    ) -> OpenDialog:
        """Record ``widget`` as open (call :meth:`unregister` when it closes)."""
        info = DialogInfo(
            id=f"dialog-{next(self._ids)}",
            kind=kind,
            title=title,
            text=text,
            buttons=tuple((buttons or {}).keys()),
            escape=escape,
            command_id=None if private else self.command_id,
            extra=dict(extra or {}),
        )
        entry = OpenDialog(
            info=info,
            private=private,
            widget=weakref.ref(widget),
            buttons={k: weakref.ref(b) for k, b in (buttons or {}).items()},
        )
        widget.setProperty("molformaDialogId", info.id)
        widget.setProperty("molformaPrivate", private)
        with self._lock:
            self._open[info.id] = entry
        return entry

    def unregister(self, entry: OpenDialog) -> None:
        """The dialog closed."""
        with self._lock:
            self._open.pop(entry.info.id, None)

    def public(self) -> list[DialogInfo]:
        """Infos of the open dialogs MCP may see, oldest first."""
        with self._lock:
            return [e.info for e in self._open.values() if not e.private]

    def find(self, dialog_id: str) -> OpenDialog | None:
        """The open public dialog ``dialog_id`` (a private one is never found)."""
        with self._lock:
            e = self._open.get(dialog_id)
        return None if e is None or e.private else e

    def any_private(self) -> bool:
        """True while a private dialog is open (MCP commands wait or are refused)."""
        with self._lock:
            return any(e.private for e in self._open.values())

    def press(self, dialog_id: str, button: str | None) -> bool:
        """Press ``button`` (None: Escape) in a public dialog (GUI thread)."""
        e = self.find(dialog_id)
        if e is None:
            return False
        label = button if button is not None else e.info.escape
        ref = e.buttons.get(label) if label is not None else None
        btn = ref() if ref is not None else None
        if btn is not None:
            btn.click()
            return True
        w = e.widget()
        if isinstance(w, QDialog):
            w.reject()
            return True
        return False


registry = DialogRegistry()


def ask(
    parent: QWidget | None,
    title: str,
    text: str,
    buttons: Sequence[str],
    default: str | None = None,
    escape: str | None = None,
    *,
    private: bool = False,
) -> str:
    """Ask a question with the given button texts; return the text of the pressed button.

    Closing the box with Escape (or the window's close button) returns ``escape``,
    or the last button when ``escape`` is None. ``private=True`` keeps the box out
    of MCP's reach (the person alone answers it).
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
    entry = registry.register(box, "message", title, text, dict(made), esc, private=private)
    try:
        box.exec()
    finally:
        registry.unregister(entry)
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
    entry = registry.register(box, "message", title, text, {ok.text(): ok}, ok.text())
    try:
        box.exec()
    finally:
        registry.unregister(entry)


def info(parent: QWidget | None, title: str, text: str) -> None:
    """Show an information box with an OK button."""
    _message(parent, title, text, QMessageBox.Icon.Information)


def error(parent: QWidget | None, title: str, text: str) -> None:
    """Show an error box with an OK button."""
    _message(parent, title, text, QMessageBox.Icon.Critical)


def _file_dialog(
    parent: QWidget | None, caption: str, filters: Sequence[str] | str, mode: QFileDialog.AcceptMode
) -> QFileDialog:
    dlg = QFileDialog(parent, caption)
    dlg.setObjectName("fileDialog")
    dlg.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dlg.setAcceptMode(mode)
    flist = [filters] if isinstance(filters, str) else list(filters)
    if flist:
        dlg.setNameFilters(flist)
    return dlg


def get_open_path(parent: QWidget | None, caption: str, filters: Sequence[str] | str) -> str | None:
    """Ask for an existing file to open; None when cancelled."""
    dlg = _file_dialog(parent, caption, filters, QFileDialog.AcceptMode.AcceptOpen)
    dlg.setFileMode(QFileDialog.FileMode.ExistingFile)
    if (
        _exec_file_dialog(dlg, caption) != QFileDialog.DialogCode.Accepted
        or not dlg.selectedFiles()
    ):
        return None
    return dlg.selectedFiles()[0]


def get_save_path(
    parent: QWidget | None, caption: str, filters: Sequence[str] | str, suggested: str = ""
) -> str | None:
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
    if (
        _exec_file_dialog(dlg, caption) != QFileDialog.DialogCode.Accepted
        or not dlg.selectedFiles()
    ):
        return None
    path = dlg.selectedFiles()[0]
    wanted = filter_suffix(dlg.selectedNameFilter())
    if wanted and not any(path.endswith(sx) for sx in known):
        path += wanted  # a name typed without extension gets the chosen type's one
    return path


def filter_suffix(name_filter: str) -> str | None:
    """The extension (``.nw``, ``.molforma.json``) of a filter's first pattern, if concrete."""
    inner = (
        name_filter[name_filter.rfind("(") + 1 : name_filter.rfind(")")]
        if "(" in name_filter
        else name_filter
    )
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
    if (
        _exec_file_dialog(dlg, caption) != QFileDialog.DialogCode.Accepted
        or not dlg.selectedFiles()
    ):
        return None
    return dlg.selectedFiles()[0]


def _exec_file_dialog(dlg: QFileDialog, caption: str) -> int:
    """Run a file dialog registered as open (``ui_file_dialog`` drives it)."""
    mode = (
        "directory"
        if dlg.fileMode() == QFileDialog.FileMode.Directory
        else ("save" if dlg.acceptMode() == QFileDialog.AcceptMode.AcceptSave else "open")
    )
    entry = registry.register(dlg, "file", caption, "", None, None, extra={"mode": mode})
    try:
        return int(dlg.exec())
    finally:
        registry.unregister(entry)


def run_dialog(dialog: QDialog, *, private: bool = False) -> int:
    """Run a custom modal dialog (PDB model choice, Preferences) and return its result.

    ``private=True`` (Preferences) keeps it and all it opens out of MCP's reach.
    """
    entry = registry.register(
        dialog, "dialog", dialog.windowTitle(), "", None, None, private=private
    )
    try:
        return int(dialog.exec())
    finally:
        registry.unregister(entry)


__all__ = ["ask", "error", "get_directory", "get_open_path", "get_save_path", "info", "run_dialog"]
