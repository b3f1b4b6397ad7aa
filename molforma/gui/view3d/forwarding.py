"""Mouse input of a renderer's canvas goes to its MoleculeView (Qt layer).

Both renderers (QPainter and OpenGL) draw into their own widget; picking, rotation,
zoom and dragging live once in the view, so each canvas only forwards its events.
Keys typed into the canvas go to the view too (the Add-atom tool's element keys); a key
the tool claims is taken ahead of the window's shortcuts (Qt's ShortcutOverride), so
"F" chooses fluorine there instead of fitting the view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent

if TYPE_CHECKING:
    from PySide6.QtGui import QKeyEvent, QMouseEvent, QWheelEvent


class ForwardsInput:
    """Mixin for a canvas widget with a ``_view`` (put it before the Qt base class)."""

    _view: Any

    def mousePressEvent(self, ev: QMouseEvent) -> None:
        """Forward to the view."""
        self._view.handle_press(ev)

    def mouseMoveEvent(self, ev: QMouseEvent) -> None:
        """Forward to the view."""
        self._view.handle_move(ev)

    def mouseReleaseEvent(self, ev: QMouseEvent) -> None:
        """Forward to the view."""
        self._view.handle_release(ev)

    def wheelEvent(self, ev: QWheelEvent) -> None:
        """Forward to the view."""
        self._view.handle_wheel(ev)

    def keyPressEvent(self, ev: QKeyEvent) -> None:
        """Give the view the key first; keys it does not use go on to the parents."""
        if self._view.handle_key(ev):
            ev.accept()
            return
        super().keyPressEvent(ev)  # type: ignore[misc]

    def event(self, ev: QEvent) -> bool:
        """Claim the keys the view's tool uses before the window's shortcuts see them."""
        if ev.type() == QEvent.Type.ShortcutOverride and self._view.claims_key(ev):
            ev.accept()
            return True
        return bool(super().event(ev))  # type: ignore[misc]
