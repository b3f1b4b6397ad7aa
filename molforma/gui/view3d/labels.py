"""Text labels drawn over a :class:`MoleculeView` (charges, for example), for any renderer.

A transparent child widget covers the view and paints one text per atom at the
atom's screen position; it repaints whenever the canvas does, so labels follow
rotation, zoom and animation with the painter and the OpenGL canvas alike.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QWidget

LABEL_COLOUR = QColor("#0b3d91")
SPIN_LABEL_COLOUR = QColor("#8b1a6b")  # spin populations: told apart from charges at a glance


class AtomLabelOverlay(QWidget):
    """Labels over the atoms of ``view`` (index i of the labels = atom i of the scene)."""

    def __init__(self, view: Any) -> None:
        super().__init__(view)
        self.setObjectName("atomLabelOverlay")
        self._view = view
        self._labels: list[str] = []
        self._colour = LABEL_COLOUR
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground, True)
        view.installEventFilter(self)
        self._watch_canvas()
        self.hide()

    def _watch_canvas(self) -> None:
        canvas = getattr(self._view, "canvas", None)
        if canvas is not None:
            canvas.installEventFilter(self)

    def set_labels(self, labels: list[str] | None, colour: QColor | None = None) -> None:
        """Show ``labels`` (one per atom) in ``colour`` (default: the charges' blue);
        None or [] hides the overlay."""
        self._labels = list(labels or [])
        self._colour = QColor(colour) if colour is not None else LABEL_COLOUR
        self.setVisible(bool(self._labels))
        if self._labels:
            self.setGeometry(self._view.rect())
            self.raise_()
            self.update()

    def labels(self) -> list[str]:
        """The labels shown now (empty when hidden)."""
        return list(self._labels) if self.isVisible() else []

    def colour(self) -> QColor:
        """The colour the labels are drawn in."""
        return QColor(self._colour)

    def _cover_view(self) -> None:
        self.setGeometry(self._view.rect())

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override
        """Follow the view's size and repaint after the canvas paints."""
        if obj is self._view and event.type() == QEvent.Type.Resize:
            self._cover_view()
        elif event.type() == QEvent.Type.Paint and self._labels and obj is not self:
            self.update()
        return False

    def paintEvent(self, _event: Any) -> None:  # Qt override
        """Draw each label just right of its atom."""
        sd, cam = self._view.scene, self._view.camera
        n = min(len(self._labels), sd.count)
        if n == 0:
            return
        canvas = getattr(self._view, "canvas", None) or self
        s = cam.to_screen(sd.pos, float(canvas.width()), float(canvas.height()))
        offset = canvas.mapTo(self._view, canvas.rect().topLeft()) if canvas is not self else None
        p = QPainter(self)
        try:
            font = QFont(self.font())
            font.setBold(True)
            p.setFont(font)
            p.setPen(QPen(self._colour))
            dx = float(offset.x()) if offset is not None else 0.0
            dy = float(offset.y()) if offset is not None else 0.0
            for i in range(n):
                r = float(sd.radius[i] * cam.scale)
                p.drawText(
                    QPointF(float(s[i, 0]) + dx + r * 0.7, float(s[i, 1]) + dy - r * 0.7),
                    self._labels[i],
                )
        finally:
            p.end()
