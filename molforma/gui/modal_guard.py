"""MCP document edits are refused while a modal dialog of the window is open (Qt layer).

docs/reference/window.md, Commands: actions inside an open modal dialog are accepted, document
edits behind it are refused. A person answering a dialog (the "untrusted settings"
confirmation, a save question) must see the document they are answering about,
not one an agent changes underneath.

:class:`ModalWatcher` keeps :class:`~molforma.mcp.bridge.ModalFlag` as modal dialogs
show and hide, under the document's lock: the MCP server's document tools check the
flag and edit under that lock, in one step, without a call to the GUI thread. A window
command runner, on the GUI thread already, calls :func:`refuse_edits_behind_modal`
before a command that changes the document.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget

from molforma.errors import MolFormaError
from molforma.mcp.bridge import ModalFlag  # registers modal_dialog_open

if TYPE_CHECKING:
    from molforma.document.document import Document


def open_modal_dialog() -> QWidget | None:
    """The modal dialog open in the window now, or None (GUI thread only)."""
    return QApplication.activeModalWidget()


def refuse_edits_behind_modal() -> None:
    """Raise ``modal_dialog_open`` naming the open dialog, if one is open (GUI thread only).

    Raises:
        MolFormaError: ``modal_dialog_open`` with the dialog's ``title`` (its window
            title) and ``objectName``.
    """
    dialog = open_modal_dialog()
    if dialog is None:
        return
    title = dialog.windowTitle() or dialog.objectName() or type(dialog).__name__
    raise MolFormaError("modal_dialog_open", title=title, objectName=dialog.objectName())


def _title(dialog: QWidget) -> str:
    return dialog.windowTitle() or dialog.objectName() or type(dialog).__name__


class ModalWatcher(QObject):
    """Keeps ``flag`` as the window's modal dialogs show and hide (GUI thread).

    An application event filter: a modal window shown or hidden changes the flag while
    the current document's lock is held, so a dialog appears only after an MCP edit in
    progress has ended, and no MCP edit begins behind it.
    """

    def __init__(
        self, flag: ModalFlag, document: Callable[[], Document], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.flag = flag
        self._document = document
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)
        # A dialog open already (the watcher is made while one shows) counts too.
        modal = QApplication.activeModalWidget()
        if modal is not None:
            self._shown(modal)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        """Follow Show and Hide of modal windows; never consumes the event."""
        kind = event.type()
        if (
            kind in (QEvent.Type.Show, QEvent.Type.Hide)
            and isinstance(obj, QWidget)
            and obj.isWindow()
        ):
            if kind == QEvent.Type.Show and obj.isModal():
                self._shown(obj)
            elif kind == QEvent.Type.Hide:
                self._hidden(id(obj))
        return False

    def _shown(self, dialog: QWidget) -> None:
        key = id(dialog)
        dialog.destroyed.connect(lambda *_: self._hidden(key))
        with self._document().lock:
            self.flag.shown(key, _title(dialog), dialog.objectName())

    def _hidden(self, key: int) -> None:
        if not self.flag.holds(key):
            return  # a menu, a tooltip, a window that was never modal: no lock needed
        with self._document().lock:
            self.flag.hidden(key)
