"""QPainter renderer of the 3D view (Qt layer): depth-sorted shaded balls and sticks.

Works everywhere, including the offscreen platform where OpenGL is unavailable,
so tests, screenshots without a display and MCP captures use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QLinearGradient,
    QPainter,
    QPaintEvent,
    QPen,
    QRadialGradient,
)
from PySide6.QtWidgets import QWidget

from molforma.gui.view3d.forwarding import ForwardsInput
from molforma.gui.view3d.scene import BACKGROUND, mark_colour

if TYPE_CHECKING:
    from molforma.gui.view3d.base import MoleculeView


def _qcolor(rgb: np.ndarray | tuple[float, ...], alpha: float = 1.0, factor: float = 1.0) -> QColor:
    r, g, b = (min(max(float(v) * factor, 0.0), 1.0) for v in rgb[:3])
    return QColor.fromRgbF(r, g, b, alpha)


class PainterCanvas(ForwardsInput, QWidget):
    """Draws the view's scene with QPainter, far items first."""

    renderer_name = "painter"

    def __init__(self, view: MoleculeView) -> None:
        super().__init__(view)
        self._view = view
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)

    def scene_changed(self) -> None:
        """Nothing to upload: repaint."""
        self.update()

    def paintEvent(self, _ev: QPaintEvent) -> None:
        """Paint the whole scene."""
        p = QPainter(self)
        try:
            render_scene(p, self._view, float(self.width()), float(self.height()))
        finally:
            p.end()



_LIGHT = np.array([-0.35, -0.4]) / np.hypot(0.35, 0.4)  # towards the light, screen y down


def _draw_ball(p: QPainter, x: float, y: float, r: float, col: np.ndarray, ring: object) -> None:
    alpha = float(col[3])
    if ring is not None:
        p.setPen(QPen(_qcolor(ring), max(2.0, r * 0.18)))  # type: ignore[arg-type]
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(QPointF(x, y), r * 1.22, r * 1.22)
    grad = QRadialGradient(QPointF(x + _LIGHT[0] * 0.53 * r, y + _LIGHT[1] * 0.53 * r), r * 1.3)
    grad.setColorAt(0.0, _qcolor((1.0, 1.0, 1.0), alpha))
    grad.setColorAt(0.25, _qcolor(col, alpha))
    grad.setColorAt(1.0, _qcolor(col, alpha, 0.35))
    p.setPen(QPen(Qt.PenStyle.NoPen))
    p.setBrush(QBrush(grad))
    p.drawEllipse(QPointF(x, y), r, r)


def _draw_stick(p: QPainter, a: np.ndarray, b: np.ndarray, width: float, col: np.ndarray) -> None:
    """A half-bond from screen point a to b, shaded across its width like a lit cylinder."""
    d = b[:2] - a[:2]
    length = float(np.hypot(d[0], d[1]))
    if length < 0.5:  # seen end-on: its ball covers it
        return
    n = np.array([-d[1], d[0]]) / length
    if n @ _LIGHT < 0:
        n = -n  # the gradient starts on the lit edge
    alpha = float(col[3])
    mid = (a[:2] + b[:2]) / 2
    lit, dark = mid + n * width / 2, mid - n * width / 2
    grad = QLinearGradient(QPointF(float(lit[0]), float(lit[1])),
                           QPointF(float(dark[0]), float(dark[1])))
    grad.setColorAt(0.0, _qcolor(col, alpha, 0.55))
    grad.setColorAt(0.3, _qcolor(np.asarray(col[:3]) * 0.6 + 0.4, alpha))
    grad.setColorAt(0.55, _qcolor(col, alpha))
    grad.setColorAt(1.0, _qcolor(col, alpha, 0.3))
    pen = QPen(QBrush(grad), width)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    p.setPen(pen)
    p.drawLine(QPointF(float(a[0]), float(a[1])), QPointF(float(b[0]), float(b[1])))


def render_scene(p: QPainter, view: MoleculeView, w: float, h: float) -> None:
    """Draw ``view``'s scene into ``p`` (a widget or a QImage) of size w × h.

    Atoms and half-bonds are drawn far to near in one order. A half-bond sorts at
    the farther of its ball's centre and its own middle, and just before its ball,
    so the ball always covers the bond's end and a bond pointing at the viewer never
    paints over the ball it leaves; balls nearer than a bond still cover it.
    """
    p.fillRect(QRectF(0, 0, w, h), _qcolor(BACKGROUND))
    sd, cam = view.scene, view.camera
    if sd.count == 0:
        return
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    s = cam.to_screen(sd.pos, w, h)
    rad = sd.radius * cam.scale
    n_atoms = sd.count
    n_seg = len(sd.seg_start)
    if n_seg:
        ss = cam.to_screen(sd.seg_start, w, h)
        se = cam.to_screen(sd.seg_end, w, h)
        seg_depth = np.minimum((ss[:, 2] + se[:, 2]) / 2, s[sd.seg_atom, 2])
    else:
        ss = se = np.zeros((0, 3))
        seg_depth = np.zeros(0)
    # Ties (a half-bond at its ball's depth) go bond first: the second key puts halves before balls.
    depth = np.concatenate([s[:, 2], seg_depth])
    kind = np.concatenate([np.ones(n_atoms), np.zeros(n_seg)])
    order = np.lexsort((kind, depth))
    for k in order:
        k = int(k)
        if k < n_atoms:
            x, y, r = float(s[k, 0]), float(s[k, 1]), float(max(rad[k], 1.5))
            if x + r < 0 or y + r < 0 or x - r > w or y - r > h:
                continue
            _draw_ball(p, x, y, r, sd.colour[k], mark_colour(int(sd.mark[k])))
        else:
            j = k - n_atoms
            width = float(max(sd.seg_radius[j] * 2 * cam.scale, 1.0))
            _draw_stick(p, ss[j], se[j], width, sd.seg_colour[j])
