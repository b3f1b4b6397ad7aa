"""Displacement arrows of a normal mode, drawn over the 3D view by either renderer (Qt layer).

The arrows start at the atoms as they are drawn now (so they ride along while a
mode plays) and point along the mode's displacement; the longest is
:data:`ARROW_LENGTH` Å at the default amplitude and grows with the amplitude, as
in other viewers. Atoms that hardly move get no arrow.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.gui.view3d import overlay
    from molforma.gui.view3d.rendered import RenderedView
else:  # imported on first use (start-up time): molforma.lazy
    overlay = lazy_import("molforma.gui.view3d.overlay")

ARROW_LENGTH = 1.2  # Å, the longest arrow at the reference amplitude
REFERENCE_AMPLITUDE = 0.5
MIN_FRACTION = 0.05  # of the largest displacement: below it, no arrow
ARROW_COLOUR = QColor("#0a8f3c")


def arrow_vectors(
    base: np.ndarray, displacement: np.ndarray, amplitude: float
) -> tuple[np.ndarray, np.ndarray]:
    """``(starts, vectors)`` (model Å) of the arrows of ``displacement`` at ``base``."""
    disp = np.asarray(displacement, dtype=float).reshape(-1, 3)
    pos = np.asarray(base, dtype=float).reshape(-1, 3)
    norms = np.linalg.norm(disp, axis=1)
    top = float(norms.max()) if norms.size else 0.0
    if top <= 0 or len(pos) != len(disp):
        return np.zeros((0, 3)), np.zeros((0, 3))
    keep = norms >= MIN_FRACTION * top
    scale = ARROW_LENGTH * (amplitude / REFERENCE_AMPLITUDE) / top
    return pos[keep], disp[keep] * scale


def draw_arrows(p: QPainter, view: RenderedView, w: float, h: float) -> None:
    """Draw ``view``'s displacement arrows (if it shows any) over what is painted."""
    starts, vectors = view.displacement_arrows()
    if len(starts) == 0:
        return
    cam = view.camera
    a = cam.to_screen(starts, w, h)
    b = cam.to_screen(starts + vectors, w, h)
    width = max(2.0, min(5.0, 0.06 * cam.scale))
    pen = QPen(ARROW_COLOUR, width)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.setBrush(QBrush(ARROW_COLOUR))
    for (x1, y1, _z1), (x2, y2, _z2) in zip(a.tolist(), b.tolist(), strict=True):
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy)
        if length < 2.0:
            continue  # pointing at the viewer: nothing to see
        ux, uy = dx / length, dy / length
        head = min(max(3.5 * width, 8.0), 0.45 * length)
        bx, by = x2 - ux * head, y2 - uy * head
        p.setPen(pen)
        p.drawLine(QPointF(x1, y1), QPointF(bx, by))
        p.setPen(QPen(ARROW_COLOUR, 1.0))
        half = head * 0.45
        p.drawPolygon(
            QPolygonF(
                [
                    QPointF(x2, y2),
                    QPointF(bx - uy * half, by + ux * half),
                    QPointF(bx + uy * half, by - ux * half),
                ]
            )
        )


class ArrowOverlay(QWidget):
    """A transparent child of the OpenGL canvas that paints ``view``'s flat glyphs:
    displacement arrows, then measurements, atom labels and the rubber band.

    Painting them with QPainter inside ``paintGL`` shows on screen but not in
    ``QWidget.grab()`` (screenshots); a child widget is composed in both.
    """

    def __init__(self, view: RenderedView, canvas: QWidget) -> None:
        super().__init__(canvas)
        self.setObjectName("arrowOverlay")
        self._view = view
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground, True)
        self.hide()

    def paintEvent(self, _event: Any) -> None:  # Qt override
        """Draw the arrows in the canvas's pixel frame."""
        w, h = float(self.width()), float(self.height())
        p = QPainter(self)
        try:
            if self._view.show_arrows:
                draw_arrows(p, self._view, w, h)
            overlay.draw_overlay(p, self._view, w, h)
        finally:
            p.end()

    def wanted(self) -> bool:
        """Whether there is anything to paint now."""
        view = self._view
        return bool(
            view.show_arrows or view.measurements or view.labels or view.rubber_band is not None
        )


__all__ = ["ARROW_LENGTH", "ArrowOverlay", "arrow_vectors", "draw_arrows"]
