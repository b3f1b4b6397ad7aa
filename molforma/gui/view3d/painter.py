"""QPainter renderer of the 3D view (Qt layer): depth-sorted shaded balls and sticks.

Works everywhere, including the offscreen platform where OpenGL is unavailable,
so tests, screenshots without a display and MCP captures use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import numpy as np
from PySide6.QtCore import QCoreApplication, QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QGradient,
    QImage,
    QLinearGradient,
    QPainter,
    QPaintEvent,
    QPen,
    QRadialGradient,
)
from PySide6.QtWidgets import QWidget

from molforma.gui.view3d.arrows import draw_arrows
from molforma.gui.view3d.forwarding import ForwardsInput
from molforma.gui.view3d.overlay import draw_overlay
from molforma.gui.view3d.scene import BACKGROUND, mark_colour
from molforma.gui.view3d.surfaces import draw_surfaces

if TYPE_CHECKING:
    from molforma.gui.view3d.rendered import RenderedView


def _qcolor(rgb: np.ndarray | tuple[float, ...], alpha: float = 1.0, factor: float = 1.0) -> QColor:
    r, g, b = (min(max(float(v) * factor, 0.0), 1.0) for v in rgb[:3])
    return QColor.fromRgbF(r, g, b, alpha)


class PainterCanvas(ForwardsInput, QWidget):
    """Draws the view's scene with QPainter, far items first."""

    renderer_name = "painter"

    def __init__(self, view: RenderedView) -> None:
        super().__init__(cast(QWidget, view))  # the view is the canvas's parent widget
        self._view = view
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)

    def scene_changed(self, _parts: Sequence[str] | None = None) -> None:
        """Nothing to upload: repaint."""
        self.update()

    def paintEvent(self, _ev: QPaintEvent) -> None:
        """Paint the whole scene."""
        self._view.before_paint()
        p = QPainter(self)
        try:
            render_scene(p, self._view, float(self.width()), float(self.height()))
        finally:
            p.end()


_LIGHT = np.array([-0.35, -0.4]) / np.hypot(0.35, 0.4)  # towards the light, screen y down


class _Shades:
    """The gradient stops of balls and sticks, made once per colour and frame.

    Building QColors per item costs more than drawing it, and a scene has only a
    few distinct colours (one per element, plus the candidate's ghost alpha).
    """

    def __init__(self) -> None:
        self._ball: dict[tuple[float, ...], list[tuple[float, QColor]]] = {}
        self._stick: dict[tuple[float, ...], list[tuple[float, QColor]]] = {}

    def ball(self, col: np.ndarray) -> list[tuple[float, QColor]]:
        key = tuple(col.tolist())
        stops = self._ball.get(key)
        if stops is None:
            alpha = float(col[3])
            stops = self._ball[key] = [
                (0.0, _qcolor((1.0, 1.0, 1.0), alpha)),
                (0.25, _qcolor(col, alpha)),
                (1.0, _qcolor(col, alpha, 0.35)),
            ]
        return stops

    def stick(self, col: np.ndarray) -> list[tuple[float, QColor]]:
        # Across the width, from the lit edge: dim rim, highlight, body colour, dark rim.
        key = tuple(col.tolist())
        stops = self._stick.get(key)
        if stops is None:
            alpha = float(col[3])
            stops = self._stick[key] = [
                (0.0, _qcolor(col, alpha, 0.55)),
                (0.3, _qcolor(np.asarray(col[:3]) * 0.6 + 0.4, alpha)),
                (0.55, _qcolor(col, alpha)),
                (1.0, _qcolor(col, alpha, 0.3)),
            ]
        return stops


def _stick_geometry(
    ss: np.ndarray, se: np.ndarray, width: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per half-bond: the gradient's line across the width (lit edge → dark edge), and
    whether the half is long enough on screen to draw (one seen end-on is hidden by its ball)."""
    d = se[:, :2] - ss[:, :2]
    length = np.hypot(d[:, 0], d[:, 1])
    visible = length >= 0.5
    n = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.maximum(length, 1e-9)[:, None]
    n[n @ _LIGHT < 0] *= -1  # the gradient starts on the lit edge
    mid = (ss[:, :2] + se[:, :2]) / 2
    half = n * (width / 2)[:, None]
    return np.concatenate([mid + half, mid - half], axis=1), visible


def render_scene(p: QPainter, view: RenderedView, w: float, h: float) -> None:
    """Draw ``view``'s scene into ``p`` (a widget or a QImage) of size w × h.

    Atoms and half-bonds are drawn far to near in one order. A half-bond sorts at
    the farther of its ball's centre and its own middle, and just before its ball,
    so the ball always covers the bond's end and a bond pointing at the viewer never
    paints over the ball it leaves; balls nearer than a bond still cover it. Sticks
    are shaded across their width like lit cylinders, balls like lit spheres.
    """
    p.fillRect(QRectF(0, 0, w, h), _qcolor(BACKGROUND))
    _render_molecule(p, view, w, h)
    draw_overlay(p, view, w, h)


# Above this many atoms the painter draws each atom as a small dot into an image with
# numpy (no bonds), and says so on the view: ball by ball it would take minutes for a
# million atoms. Picking does not depend on the drawing and stays exact.
PAINTER_FULL_ATOMS = 20_000


def points_mode(view: RenderedView) -> bool:
    """True when the painter draws ``view``'s atoms as dots (a large structure)."""
    return view.scene.count > PAINTER_FULL_ATOMS


def points_note(count: int) -> str:
    """The line the painter writes on the view when it draws dots."""
    text = QCoreApplication.translate(
        "MoleculeView", "%1 atoms: drawn as dots without bonds (no OpenGL)"
    )
    return text.replace("%1", f"{count:,}")


def _render_molecule(p: QPainter, view: RenderedView, w: float, h: float) -> None:
    sd, cam = view.scene, view.camera
    if sd.count == 0:
        return
    if points_mode(view):
        _render_points(p, view, w, h)
        return
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    s = cam.to_screen(sd.pos, w, h)
    rad = np.maximum(sd.radius * cam.scale, 1.5)
    n_atoms = sd.count
    n_seg = len(sd.seg_start)
    if n_seg:
        ss = cam.to_screen(sd.seg_start, w, h)
        se = cam.to_screen(sd.seg_end, w, h)
        seg_depth = np.minimum((ss[:, 2] + se[:, 2]) / 2, s[sd.seg_atom, 2])
        widths = np.maximum(sd.seg_radius * 2 * cam.scale, 1.0)
        across, visible = _stick_geometry(ss, se, widths)
        lines = np.concatenate([ss[:, :2], se[:, :2]], axis=1).tolist()
        across_l, visible_l, widths_l = across.tolist(), visible.tolist(), widths.tolist()
    else:
        seg_depth = np.zeros(0)
    # Ties (a half-bond at its ball's depth) go bond first: the second key puts halves first.
    depth = np.concatenate([s[:, 2], seg_depth])
    kind = np.concatenate([np.ones(n_atoms), np.zeros(n_seg)])
    order = np.lexsort((kind, depth)).tolist()
    shades = _Shades()
    xyr = np.concatenate([s[:, :2], rad[:, None]], axis=1).tolist()
    no_pen = QPen(Qt.PenStyle.NoPen)
    for k in order:
        if k < n_atoms:
            x, y, r = xyr[k]
            if x + r < 0 or y + r < 0 or x - r > w or y - r > h:
                continue
            ring = mark_colour(int(sd.mark[k]))
            if ring is not None:
                p.setPen(QPen(_qcolor(ring), max(2.0, r * 0.18)))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawEllipse(QPointF(x, y), r * 1.22, r * 1.22)
            grad: QGradient = QRadialGradient(
                QPointF(x + _LIGHT[0] * 0.53 * r, y + _LIGHT[1] * 0.53 * r), r * 1.3
            )
            grad.setStops(shades.ball(sd.colour[k]))
            p.setPen(no_pen)
            p.setBrush(QBrush(grad))
            p.drawEllipse(QPointF(x, y), r, r)
        else:
            j = k - n_atoms
            if not visible_l[j]:
                continue
            lx, ly, dx, dy = across_l[j]
            grad = QLinearGradient(lx, ly, dx, dy)
            grad.setStops(shades.stick(sd.seg_colour[j]))
            pen = QPen(QBrush(grad), widths_l[j])
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            p.setPen(pen)
            x1, y1, x2, y2 = lines[j]
            p.drawLine(QLineF(x1, y1, x2, y2))
    draw_surfaces(p, view, w, h)
    draw_arrows(p, view, w, h)


# A dot is a small disc: its pixel offsets by radius (0: one pixel, 1: a plus, 2: a disc).
_DOT_OFFSETS = {
    r: [
        (dx, dy)
        for dx in range(-r, r + 1)
        for dy in range(-r, r + 1)
        if dx * dx + dy * dy <= r * r + r
    ]
    for r in (0, 1, 2)
}


def _render_points(p: QPainter, view: RenderedView, w: float, h: float) -> None:
    """Every atom as a dot in its element colour, darker with depth, nearer over farther;
    marked atoms (selection, candidate, fixed) get their ring; a note says so."""
    sd, cam = view.scene, view.camera
    iw, ih = max(int(w), 1), max(int(h), 1)
    s = cam.to_screen(sd.pos, w, h)
    x = np.rint(s[:, 0]).astype(np.int64)
    y = np.rint(s[:, 1]).astype(np.int64)
    order = np.argsort(s[:, 2], kind="stable")  # far first: nearer dots are written later
    depth = s[order, 2]
    span = float(depth[-1] - depth[0]) or 1.0
    cue = 0.45 + 0.55 * (depth - depth[0]) / span
    rgb = np.clip(sd.colour[order, :3] * cue[:, None], 0.0, 1.0)
    packed = (
        0xFF000000
        | (np.rint(rgb[:, 0] * 255).astype(np.uint32) << 16)
        | (np.rint(rgb[:, 1] * 255).astype(np.uint32) << 8)
        | np.rint(rgb[:, 2] * 255).astype(np.uint32)
    )
    r0, g0, b0 = (round(v * 255) for v in BACKGROUND)
    pixels = np.full(iw * ih, 0xFF000000 | (r0 << 16) | (g0 << 8) | b0, dtype=np.uint32)
    radius = int(np.clip(np.rint(np.median(sd.radius) * cam.scale), 0, 2))
    xo, yo = x[order], y[order]
    for dx, dy in _DOT_OFFSETS[radius]:
        px, py = xo + dx, yo + dy
        inside = (px >= 0) & (px < iw) & (py >= 0) & (py < ih)
        # Repeated pixels keep the last value written: the nearest atom's.
        pixels[(py * iw + px)[inside]] = packed[inside]
    img = QImage(pixels.data, iw, ih, iw * 4, QImage.Format.Format_RGB32)
    p.drawImage(QPointF(0, 0), img)
    marked = np.flatnonzero(sd.mark)[:5000]  # rings of the selection stay visible
    if len(marked):
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setBrush(Qt.BrushStyle.NoBrush)
        ring_r = max(radius + 2.5, 3.0)
        for k in marked.tolist():
            ring = mark_colour(int(sd.mark[k]))
            if ring is not None:
                p.setPen(QPen(_qcolor(ring), 1.5))
                p.drawEllipse(QPointF(float(s[k, 0]), float(s[k, 1])), ring_r, ring_r)
    p.setPen(QPen(QColor(235, 240, 250)))
    p.drawText(
        QRectF(8, h - 26, w - 16, 20),
        int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
        points_note(sd.count),
    )
