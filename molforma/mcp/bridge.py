"""The window seen from the MCP server: reads, queued commands, dialogs (no Qt).

The window tools (``molforma.mcp.tools.window``) never touch Qt. They read the
window through :meth:`WindowBridge.read`, which runs a function on the GUI thread
with the window's :class:`WindowReader` and waits for its answer (reads also run
while a modal dialog is open, so ``get_ui`` can show it), and they change the
window through :meth:`WindowBridge.submit`, which queues a
:class:`~molforma.mcp.window_commands.WindowCommand` and returns its record at once.
The window implements both in ``molforma.gui.services`` and ``molforma.gui.commands``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from molforma.mcp.window_commands import CommandRecord, CommandStore, WindowCommand

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
        return {"dialogId": self.id, "kind": self.kind, "title": self.title, "text": self.text,
                "buttons": list(self.buttons), "escapeButton": self.escape,
                "commandId": self.command_id, **self.extra}


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

    def check_document_edit(self) -> None:
        """Raise ``modal_dialog_open`` while a modal dialog is open (before a document edit)."""
        ...
