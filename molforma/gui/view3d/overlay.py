"""What both renderers draw over the molecule with QPainter (Qt layer): measurements as
dashed lines with their values, atom labels, the rubber band of a box selection and the
bond being drawn with the Add-atom tool.

The QPainter renderer calls :func:`draw_overlay` after the atoms; the OpenGL renderer
from a transparent child widget over its GL frame. Positions come from the scene and
camera, so the overlay follows rotation, zoom, candidates and animation.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen

from molforma.document.geometry import angle, dihedral

if TYPE_CHECKING:
    from molforma.gui.view3d.rendered import RenderedView

MEASURE_COLOUR = QColor(255, 230, 120)
LABEL_COLOUR = QColor(235, 240, 250)
BAND_COLOUR = QColor(120, 190, 255)
DRAW_COLOUR = QColor(150, 230, 150)


def measurement_value(pos: list[np.ndarray]) -> str:
    """``1.430 Å``, ``109.5°`` or ``-60.0°`` for 2, 3 or 4 positions."""
    if len(pos) == 2:
        return f"{float(np.linalg.norm(pos[0] - pos[1])):.3f} Å"
    if len(pos) == 3:
        return f"{angle(*pos):.1f}°"
    return f"{dihedral(*pos):.1f}°"


def _text(p: QPainter, at: QPointF, text: str, colour: QColor) -> None:
    """Text with a dark outline so it reads on any atom colour."""
    p.setPen(QPen(QColor(0, 0, 0, 200)))
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        p.drawText(at + QPointF(dx, dy), text)
    p.setPen(QPen(colour))
    p.drawText(at, text)


def draw_overlay(p: QPainter, view: RenderedView, w: float, h: float) -> None:
    """Draw measurements, labels and the rubber band of ``view`` into ``p`` (w × h)."""
    sd, cam = view.scene, view.camera
    p.save()
    try:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        font = QFont(p.font())
        font.setPointSizeF(max(font.pointSizeF(), 9.0))
        p.setFont(font)
        if sd.count and (view.measurements or view.labels):
            screen = cam.to_screen(sd.pos, w, h)
            _draw_measurements(p, view, screen)
            _draw_labels(p, view, screen)
        line = getattr(view, "draw_line", None)
        if line is not None:
            # The bond being drawn with the Add-atom tool, from its atom to the pointer.
            p.setPen(QPen(DRAW_COLOUR, 3.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLine(line[0], line[1])
            p.setBrush(DRAW_COLOUR)
            p.drawEllipse(line[1], 5.0, 5.0)
        band = view.rubber_band
        if band is not None:
            pen = QPen(BAND_COLOUR, 1.0, Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(QColor(120, 190, 255, 40))
            p.drawRect(band)
    finally:
        p.restore()


def _draw_measurements(p: QPainter, view: RenderedView, screen: np.ndarray) -> None:
    sd = view.scene
    pen = QPen(MEASURE_COLOUR, 1.6, Qt.PenStyle.DashLine)
    for ids in view.measurements:
        rows = [sd.index_of(i) for i in ids]
        if any(r is None for r in rows) or not 2 <= len(rows) <= 4:
            continue
        pts = [QPointF(float(screen[r, 0]), float(screen[r, 1])) for r in rows]
        p.setPen(pen)
        for a, b in itertools.pairwise(pts):
            p.drawLine(a, b)
        value = measurement_value([sd.pos[r] for r in rows])
        if len(pts) == 2:
            at = (pts[0] + pts[1]) / 2
        elif len(pts) == 3:
            at = pts[1]
        else:
            at = (pts[1] + pts[2]) / 2
        _text(p, at + QPointF(6, -6), value, MEASURE_COLOUR)


def _draw_labels(p: QPainter, view: RenderedView, screen: np.ndarray) -> None:
    labels = view.labels
    if not labels:
        return
    sd = view.scene
    # the labelled atoms only (a few among many), each drawn at its shown row
    rows = sorted(r for r in map(sd.index_of, labels) if r is not None)
    for r in rows:
        text = labels.get(str(sd.ids[r]))
        if not text or not sd.pickable[r]:
            continue
        rad = float(sd.radius[r] * view.camera.scale)
        at = QPointF(float(screen[r, 0]) + rad * 0.6, float(screen[r, 1]) - rad * 0.6)
        _text(p, at, text, LABEL_COLOUR)


def band_rect(a: QPointF, b: QPointF) -> QRectF:
    """The normalised rectangle between two corners."""
    return QRectF(a, b).normalized()
