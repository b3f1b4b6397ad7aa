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
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen

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
        font = overlay_font(p.font())
        p.setFont(font)
        if sd.count and (view.measurements or view.labels):
            screen = cam.to_screen(sd.pos, w, h)
            metrics = QFontMetricsF(font)
            labels = _label_places(view, screen, metrics)
            _draw_measurements(p, view, screen, metrics, [r for _a, _t, r in labels])
            for at, text, _rect in labels:
                _text(p, at, text, LABEL_COLOUR)
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


def overlay_font(base: QFont) -> QFont:
    """The font of the overlay's texts: the widget's, at least 9 points."""
    font = QFont(base)
    font.setPointSizeF(max(font.pointSizeF(), 9.0))
    return font


def _text_rect(at: QPointF, text: str, metrics: QFontMetricsF) -> QRectF:
    """Where ``text`` drawn with its baseline at ``at`` lands (its outline included)."""
    return metrics.boundingRect(text).translated(at).adjusted(-1, -1, 1, 1)


def _measurement_anchor(pts: list[QPointF]) -> QPointF:
    if len(pts) == 2:
        return (pts[0] + pts[1]) / 2
    if len(pts) == 3:
        return pts[1]
    return (pts[1] + pts[2]) / 2


def _measurement_place(
    anchor: QPointF, text: str, metrics: QFontMetricsF, taken: list[QRectF]
) -> tuple[QPointF, QRectF]:
    """The baseline point of a measurement's value near ``anchor`` whose text covers no
    atom label nor another value (``taken``): above right first, as before, then the
    other sides and further out; the first place when every one is covered."""
    width, height = metrics.horizontalAdvance(text), metrics.height()
    first: tuple[QPointF, QRectF] | None = None
    for step in range(4):
        out = step * height
        for dx, dy in (
            (6, -6 - out),
            (6, height + 4 + out),
            (-width - 6, -6 - out),
            (-width - 6, height + 4 + out),
        ):
            at = anchor + QPointF(dx, dy)
            rect = _text_rect(at, text, metrics)
            if first is None:
                first = (at, rect)
            if not any(rect.intersects(t) for t in taken):
                return at, rect
    assert first is not None
    return first


def _measurement_places(
    view: RenderedView, screen: np.ndarray, metrics: QFontMetricsF, labels: list[QRectF]
) -> list[tuple[list[QPointF], QPointF, str, QRectF]]:
    """Each measurement's screen points, the place of its value, the value and its rect."""
    sd = view.scene
    taken = list(labels)
    out = []
    for ids in view.measurements:
        rows = [sd.index_of(i) for i in ids]
        if any(r is None for r in rows) or not 2 <= len(rows) <= 4:
            continue
        pts = [QPointF(float(screen[r, 0]), float(screen[r, 1])) for r in rows]
        value = measurement_value([sd.pos[r] for r in rows])
        at, rect = _measurement_place(_measurement_anchor(pts), value, metrics, taken)
        taken.append(rect)
        out.append((pts, at, value, rect))
    return out


def _draw_measurements(
    p: QPainter,
    view: RenderedView,
    screen: np.ndarray,
    metrics: QFontMetricsF,
    labels: list[QRectF],
) -> None:
    pen = QPen(MEASURE_COLOUR, 1.6, Qt.PenStyle.DashLine)
    for pts, at, value, _rect in _measurement_places(view, screen, metrics, labels):
        p.setPen(pen)
        for a, b in itertools.pairwise(pts):
            p.drawLine(a, b)
        _text(p, at, value, MEASURE_COLOUR)


def _label_places(
    view: RenderedView, screen: np.ndarray, metrics: QFontMetricsF
) -> list[tuple[QPointF, str, QRectF]]:
    """The atom labels to draw: baseline point, text and the rect the text covers."""
    labels = view.labels
    if not labels:
        return []
    sd = view.scene
    # the labelled atoms only (a few among many), each drawn at its shown row
    rows = sorted(r for r in map(sd.index_of, labels) if r is not None)
    out = []
    for r in rows:
        text = labels.get(str(sd.ids[r]))
        if not text or not sd.pickable[r]:
            continue
        rad = float(sd.radius[r] * view.camera.scale)
        at = QPointF(float(screen[r, 0]) + rad * 0.6, float(screen[r, 1]) - rad * 0.6)
        out.append((at, text, _text_rect(at, text, metrics)))
    return out


def text_rects(
    view: RenderedView, w: float, h: float, font: QFont
) -> tuple[list[QRectF], list[QRectF]]:
    """The rects of the atom labels and of the measurement values the overlay draws into
    a ``w`` × ``h`` view with the widget font ``font`` (what a test checks for overlap)."""
    sd = view.scene
    if not sd.count or not (view.measurements or view.labels):
        return [], []
    screen = view.camera.to_screen(sd.pos, w, h)
    metrics = QFontMetricsF(overlay_font(font))
    labels = [r for _a, _t, r in _label_places(view, screen, metrics)]
    return labels, [m[3] for m in _measurement_places(view, screen, metrics, labels)]


def band_rect(a: QPointF, b: QPointF) -> QRectF:
    """The normalised rectangle between two corners."""
    return QRectF(a, b).normalized()
