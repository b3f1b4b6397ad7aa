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
    QPainter,
    QPaintEvent,
    QPen,
    QRadialGradient,
)
from PySide6.QtWidgets import QWidget

from molforma.gui.view3d.forwarding import ForwardsInput
from molforma.gui.view3d.scene import BACKGROUND, mark_colour
from molforma.gui.view3d.surfaces import draw_surfaces

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



def render_scene(p: QPainter, view: MoleculeView, w: float, h: float) -> None:
    """Draw ``view``'s scene into ``p`` (a widget or a QImage) of size w × h."""
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
        seg_depth = (ss[:, 2] + se[:, 2]) / 2
    else:
        ss = se = np.zeros((0, 3))
        seg_depth = np.zeros(0)
    # One ordering for atoms and bond halves so that nearer items cover farther ones;
    # a bond half is pushed slightly back so its atom ball covers its end.
    depth = np.concatenate([s[:, 2], seg_depth - 0.5 * cam.scale * 0.3])
    order = np.argsort(depth, kind="stable")
    light = QPointF(-0.35, -0.4)
    no_pen = QPen(Qt.PenStyle.NoPen)
    for k in order:
        k = int(k)
        if k < n_atoms:
            x, y, r = float(s[k, 0]), float(s[k, 1]), float(max(rad[k], 1.5))
            if x + r < 0 or y + r < 0 or x - r > w or y - r > h:
                continue
            col = sd.colour[k]
            alpha = float(col[3])
            ring = mark_colour(int(sd.mark[k]))
            if ring is not None:
                p.setPen(QPen(_qcolor(ring), max(2.0, r * 0.18)))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawEllipse(QPointF(x, y), r * 1.22, r * 1.22)
            grad = QRadialGradient(QPointF(x + light.x() * r, y + light.y() * r), r * 1.3)
            grad.setColorAt(0.0, _qcolor((1.0, 1.0, 1.0), alpha).lighter(100))
            grad.setColorAt(0.25, _qcolor(col, alpha))
            grad.setColorAt(1.0, _qcolor(col, alpha, 0.35))
            p.setPen(no_pen)
            p.setBrush(QBrush(grad))
            p.drawEllipse(QPointF(x, y), r, r)
        else:
            j = k - n_atoms
            col = sd.seg_colour[j]
            width = float(max(sd.seg_radius[j] * 2 * cam.scale, 1.0))
            pen = QPen(_qcolor(col, float(col[3]), 0.8), width)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            p.setPen(pen)
            p.drawLine(QPointF(float(ss[j, 0]), float(ss[j, 1])),
                       QPointF(float(se[j, 0]), float(se[j, 1])))
    draw_surfaces(p, view, w, h)
