"""Mouse input of a renderer's canvas goes to its MoleculeView (Qt layer).

Both renderers (QPainter and OpenGL) draw into their own widget; picking, rotation,
zoom and dragging live once in the view, so each canvas only forwards its events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PySide6.QtGui import QMouseEvent, QWheelEvent


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
