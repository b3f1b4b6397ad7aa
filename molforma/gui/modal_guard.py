"""MCP document edits are refused while a modal dialog of the window is open (Qt layer).

SPEC.md section 9.1: actions inside an open modal dialog are accepted, document
edits behind it are refused. A person answering a dialog (the "untrusted settings"
confirmation, a save question) must see the document they are answering about,
not one an agent changes underneath.

:func:`refuse_edits_behind_modal` is the one check, run on the GUI thread just
before an edit reaches the window's document: the MCP server calls it through
:meth:`~molforma.gui.dispatcher.GuiDispatcher.check_document_edit` for every
document-changing tool, and a window command runner calls it directly before a
command that changes the document.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QWidget

from molforma.errors import MolFormaError
from molforma.i18n import register

register({
    "modal_dialog_open": {
        "en": "The window has a dialog open ('{title}'), so document edits are refused "
              "until it is closed. Answer or close the dialog first, then try again.",
        "ja": "ウィンドウでダイアログ（「{title}」）が開いているため、閉じるまで文書の編集は"
              "できません。先にダイアログに応答するか閉じてから、もう一度実行してください。",
    },
})


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
