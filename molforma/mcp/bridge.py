"""The window seen from the MCP server: reads, queued commands, dialogs (no Qt).

The window tools (``molforma.mcp.tools.window``) never touch Qt. They read the
window through :meth:`WindowBridge.read`, which runs a function on the GUI thread
with the window's :class:`WindowReader` and waits for its answer (reads also run
while a modal dialog is open, so ``get_ui`` can show it), and they change the
window through :meth:`WindowBridge.submit`, which queues a
:class:`~molforma.mcp.window_commands.WindowCommand` and returns its record at once.
The window implements both in ``molforma.gui.services`` and ``molforma.gui.commands``.

:class:`ModalFlag` is the window's open modal dialog as the GUI thread keeps it: a
document edit of MCP checks it and edits under the document's lock, in one step
(docs/reference/window.md, Commands), with no call to the GUI thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from molforma.errors import MolFormaError
from molforma.i18n import register
from molforma.mcp.window_commands import CommandRecord, CommandStore, WindowCommand

if TYPE_CHECKING:
    from molforma.document.document import Document

register(
    {
        "modal_dialog_open": {
            "en": "The window has a dialog open ('{title}'), so document edits are refused "
            "until it is closed. Answer or close the dialog first, then try again.",
            "ja": "ウィンドウでダイアログ（「{title}」）が開いているため、閉じるまで文書の編集は"
            "できません。先にダイアログに応答するか閉じてから、もう一度実行してください。",
        },
    }
)

T = TypeVar("T")


@dataclass(frozen=True)
class DialogInfo:
    """A message box or file dialog the window shows (never a private one).

    Attributes:
        id: ``dialog-N``, unique in the process.
        kind: ``message`` or ``file``.
        title: Window title.
        text: The question or message.
        buttons: Button texts in order.
        escape: Text of the button Escape presses.
        command_id: The window command that opened it, if any.
    """

    id: str
    kind: str
    title: str
    text: str
    buttons: tuple[str, ...] = ()
    escape: str | None = None
    command_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``get_ui`` and ``get_app_state``."""
        return {
            "dialogId": self.id,
            "kind": self.kind,
            "title": self.title,
            "text": self.text,
            "buttons": list(self.buttons),
            "escapeButton": self.escape,
            "commandId": self.command_id,
            **self.extra,
        }


class WindowReader(Protocol):
    """What a read may ask of the window (runs on the GUI thread)."""

    def get_ui(self, args: dict[str, Any]) -> dict[str, Any]:
        """Widgets, active modal and blocked list (``get_ui``)."""
        ...

    def get_ui_item(self, args: dict[str, Any]) -> dict[str, Any]:
        """One widget in detail (``get_ui_item``)."""
        ...

    def screenshot(self, target: str | None) -> tuple[bytes, int, int]:
        """PNG bytes, width, height of a widget or the main window."""
        ...

    def app_part(self) -> dict[str, Any]:
        """Window part of get_app_state: workers, tab, active modal."""
        ...


class WindowBridge(Protocol):
    """The window as the server's tools see it."""

    commands: CommandStore

    def read(self, fn: Callable[[WindowReader], T], timeout: float = 15.0) -> T:
        """Run ``fn(reader)`` on the GUI thread and return its result (exceptions re-raised)."""
        ...

    def submit(self, command: WindowCommand) -> CommandRecord:
        """Queue ``command`` (``gui_queue_full`` beyond the limit); returns the queued record."""
        ...

    def dialogs(self) -> list[DialogInfo]:
        """The open dialogs MCP may see (private ones never appear), oldest first."""
        ...

    def answer(self, dialog_id: str, button: str | None) -> bool:
        """Press ``button`` (None: the Escape button) in a dialog; False when it is gone."""
        ...

    def workers(self) -> list[dict[str, Any]]:
        """Window workers running now (clean-up, history scan), as plain data."""
        ...

    def document_edit(
        self, document: Document, *, hold: bool = True
    ) -> AbstractContextManager[None]:
        """Hold ``document``'s lock for one MCP edit, refused (``modal_dialog_open``) while
        a modal dialog is open: the check and the edit are one step. ``hold=False``:
        the check alone (a call that waits for work which edits from another thread)."""
        ...


class ModalFlag:
    """The modal dialogs the window shows, newest last, as the GUI thread keeps them.

    The GUI thread calls :meth:`shown` and :meth:`hidden` while it holds the document's
    lock, so a dialog about to be shown waits for an MCP edit in progress; an MCP edit
    runs inside :meth:`edit`, which checks the flag and edits under that lock. Nothing
    can edit the document behind a dialog, and no edit waits for the GUI thread.
    """

    def __init__(self) -> None:
        self._shown: list[tuple[int, str, str]] = []  # (key, title, objectName)
        self._guard = threading.Lock()  # the list itself, read from any thread

    def shown(self, key: int, title: str, object_name: str) -> None:
        """A modal dialog (``key``: any id of it) is now shown."""
        with self._guard:
            self._shown = [d for d in self._shown if d[0] != key]
            self._shown.append((key, title, object_name))

    def hidden(self, key: int) -> None:
        """The modal dialog ``key`` is hidden or gone."""
        with self._guard:
            self._shown = [d for d in self._shown if d[0] != key]

    def holds(self, key: int) -> bool:
        """Whether the dialog ``key`` counts as shown."""
        with self._guard:
            return any(d[0] == key for d in self._shown)

    def open_dialog(self) -> tuple[str, str] | None:
        """(title, objectName) of the newest modal dialog shown, or None."""
        with self._guard:
            return self._shown[-1][1:] if self._shown else None

    def refuse_edits(self) -> None:
        """Raise ``modal_dialog_open`` naming the dialog while one is shown.

        Raises:
            MolFormaError: ``modal_dialog_open`` with its ``title`` and ``objectName``.
        """
        dialog = self.open_dialog()
        if dialog is not None:
            raise MolFormaError("modal_dialog_open", title=dialog[0], objectName=dialog[1])

    @contextmanager
    def edit(self, document: Document, *, hold: bool = True) -> Iterator[None]:
        """Hold ``document``'s lock, refuse while a dialog is shown, then let the edit run
        (``hold=False``: check under the lock, then run without it).

        Raises:
            MolFormaError: ``modal_dialog_open`` (nothing is edited).
        """
        with document.lock:
            self.refuse_edits()
            if hold:
                yield
                return
        yield
