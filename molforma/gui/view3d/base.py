"""The 3D molecule view: one widget, two interchangeable renderers (Qt layer).

:class:`MoleculeView` owns the scene, the camera, the selection, mouse handling,
picking and the vibration animation; a *canvas* child (QPainter or OpenGL) only
draws what the view holds. Mouse: left drag rotates, right or middle drag (or
Shift + left drag) pans, the wheel zooms, a click picks an atom (``atomClicked``)
or the background (``backgroundClicked``). In move mode a left drag that starts
on a selected atom moves the selection instead (``atomsDragged``).

Draw mode (the Add-atom tool, as Avogadro's Draw tool): a left drag draws a bond from
the atom pressed (or from empty space) to where it is released (``drawDragged``), a
click on a bond reports it (``bondClicked``), the middle button rotates instead of
panning, and the pointer reports the atom or bond under it (``pointerHovered``) so the
tool can say what a click would do. Keys typed into the canvas go to ``key_handler``
first; ``wants_key`` claims a key ahead of the window's shortcuts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from molforma.document.arrays import runs
from molforma.gui.view3d.columns import StructureArrays, empty_structure, structure_arrays
from molforma.gui.view3d.scene import (
    GRID_MIN_ATOMS,
    MARK_SELECTED,
    Camera,
    SceneData,
    atoms_near_ray,
    outside_view,
    pick,
    rebuild_segments,
    scene_from_arrays,
)

_CLICK_SLOP = 4.0  # pixels a press may travel and still count as a click
# Interactive level of detail: while a mouse drag or the wheel turns, pans or zooms the
# camera, a renderer may draw a cheaper picture of a large structure (see
# GLCanvas.paintGL); the full one is drawn this long after the last such move.
SETTLE_MS = 180


class Canvas(Protocol):
    """What a renderer provides to :class:`MoleculeView`."""

    renderer_name: str

    def scene_changed(self, parts: Sequence[str] | None = None) -> None:
        """Atoms or bonds changed: refresh buffers and repaint. ``parts`` narrows what
        changed: ``"marks"`` (selection rings) or ``"positions"`` (a drag, a vibration)."""

    def update(self) -> None:
        """Schedule a repaint (camera change)."""


class MoleculeView(QWidget):
    """Ball-and-stick 3D view with picking, selection and mode animation."""

    atomClicked = Signal(str, object)  # atom id, Qt.KeyboardModifier flags
    backgroundClicked = Signal(QPointF)
    atomsDragged = Signal(list, tuple)  # atom ids, model displacement (dx, dy, dz) in Angstrom
    selectionChanged = Signal()
    atomHovered = Signal(str)  # atom id under the pointer, "" when none
    boxSelected = Signal(list, object)  # atom ids inside a rubber band, modifiers
    # Right click: atom id ("" for none), bond (a, b) or None, global position.
    contextRequested = Signal(str, object, QPoint)
    # Draw mode: a drag from atom ("" for empty space) to atom ("" for none), with the
    # press and release positions in widget pixels.
    drawDragged = Signal(str, str, QPointF, QPointF)
    bondClicked = Signal(str, str, object)  # draw mode: the bond's atom ids, modifiers
    pointerHovered = Signal(str, object)  # draw mode: atom id ("" none), bond (a, b) or None

    def __init__(self, renderer: str = "painter", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("moleculeView")
        self.camera = Camera()
        self.scene = SceneData()
        # The shown structures as columns (the confirmed one and the candidate over it).
        self._base: StructureArrays = empty_structure()
        self._cand: StructureArrays | None = None
        self._selection: list[str] = []
        self._flagged: set[str] = set()
        self._hold_camera = False
        self.band_select = False  # Select tool: a left drag from the background draws a box
        self._band_start: QPointF | None = None
        self.rubber_band: QRectF | None = None
        self.measurements: list[tuple[str, ...]] = []  # dashed lines with values
        self.labels: dict[str, str] = {}  # atom id -> text drawn beside the atom
        self._style = "ball_and_stick"
        self._fitted_once = False
        self.move_mode = False
        self.draw_mode = False  # the Add-atom tool: drags draw bonds, bonds are clickable
        self.draw_line: tuple[QPointF, QPointF] | None = None  # the bond being drawn
        self._draw_from: str | None = None  # atom a draw drag started on ("" empty space)
        # Keys typed into the canvas: the handler returns True when it used the key;
        # wants_key says beforehand (a key it claims beats an application shortcut).
        self.key_handler: Callable[[QKeyEvent], bool] | None = None
        self.wants_key: Callable[[QKeyEvent], bool] | None = None
        self._press: QPointF | None = None
        self._last: QPointF | None = None
        self._dragging = False
        self._drag_atoms = False
        self._drag_total = np.zeros(3)
        self._hovered = ""
        self._camera_touched = False  # the person zoomed or panned since the last fit
        # True while the camera is moved by a drag or the wheel (level of detail): the
        # full picture follows SETTLE_MS after the last move or at the drag's end.
        self.moving = False
        self._settle_timer = QTimer(self)
        self._settle_timer.setSingleShot(True)
        self._settle_timer.setInterval(SETTLE_MS)
        self._settle_timer.timeout.connect(self._settled)
        self.surfaces: list[Any] = []  # view3d.surfaces.Surface meshes drawn over the atoms
        # Vibration animation
        self._anim_base: np.ndarray | None = None
        self._anim_disp: np.ndarray | None = None
        self._anim_amp = 0.0
        self._anim_phase = 0.0
        self.show_arrows = False  # displacement arrows of the mode set for animation
        self._anim_timer = QTimer(self)
        self._anim_timer.setInterval(40)
        self._anim_timer.timeout.connect(self._anim_step)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.canvas: Any = None
        self._install_canvas(renderer)
        self.setMinimumSize(200, 200)

    # -- renderer --------------------------------------------------------------------------
    def _install_canvas(self, renderer: str) -> None:
        if self.canvas is not None:
            self.layout().removeWidget(self.canvas)
            self.canvas.deleteLater()
        gl_canvas = None
        if renderer == "opengl":
            try:
                from molforma.gui.view3d.opengl import GLCanvas
            except ImportError:  # no QtOpenGL: the painter still shows the molecule
                GLCanvas = None
            if GLCanvas is not None:
                gl_canvas = GLCanvas(self)
        if gl_canvas is not None:
            self.canvas = gl_canvas
        else:
            from molforma.gui.view3d.painter import PainterCanvas

            self.canvas = PainterCanvas(self)
        # Each view names its own canvas (moleculeView → moleculeCanvas, resultsView →
        # resultsCanvas), also when a failing OpenGL canvas is replaced later.
        view_name = self.objectName() or "moleculeView"
        self.canvas.setObjectName(view_name.removesuffix("View") + "Canvas")
        self.canvas.setMouseTracking(True)
        self.canvas.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # Ctrl+C and Delete reach it
        self.layout().addWidget(self.canvas)
        self.canvas.scene_changed()

    @property
    def renderer_name(self) -> str:
        """``"opengl"`` or ``"painter"``."""
        return str(self.canvas.renderer_name)

    def fall_back_to_painter(self) -> None:
        """Replace the OpenGL canvas by the QPainter one (OpenGL failed at run time)."""
        QTimer.singleShot(0, self, lambda: self._install_canvas("painter"))

    # -- public API ------------------------------------------------------------------------
    def set_molecule(self, atoms: Sequence[dict[str, Any]] | StructureArrays,
                     bonds: Sequence[dict[str, Any]], *,
                     candidate_atoms: Sequence[dict[str, Any]] | StructureArrays | None = None,
                     candidate_bonds: Sequence[dict[str, Any]] | None = None,
                     flagged: Sequence[str] = ()) -> None:
        """Show a molecule (and a candidate over a ghost of it); refit if it left the view.

        The structures are taken as columns (:func:`~molforma.gui.view3d.columns.structure_arrays`,
        the one adapter from the document); ``flagged`` atoms are ringed red (impossible
        valences).
        """
        self.stop()
        self._anim_base = self._anim_disp = None  # no mode of another structure lingers
        hold, self._hold_camera = self._hold_camera, False
        self._flagged = set(flagged)
        self._base = structure_arrays(atoms, bonds)
        self._cand = None if candidate_atoms is None else structure_arrays(
            candidate_atoms, candidate_bonds or [])
        shown = self._cand if self._cand is not None else self._base
        self._selection = [s for s in self._selection if shown.row_of(s) is not None]
        self._rebuild()
        w, h = self._size()
        if not self._fitted_once and self.scene.count:
            if (self.scene.count == 1 or hold) and not outside_view(self.scene, self.camera,
                                                                     w, h):
                # The first atom drawn with the add-atom tool (with the hydrogens that
                # "Adjust hydrogens" gives it) stays where it was clicked.
                self._fitted_once = True
            else:
                self.reset_view()
        elif outside_view(self.scene, self.camera, w, h):
            self.fit()

    def shown_structure(self) -> StructureArrays:
        """The structure shown solid (the candidate while there is one) as columns: what
        the coordinate table lists, without converting the document a second time."""
        return self._cand if self._cand is not None else self._base

    def set_measurements(self, measurements: Sequence[Sequence[str]]) -> None:
        """Draw these distances, angles and dihedrals (2, 3 or 4 atom ids each)."""
        new = [tuple(m) for m in measurements if 2 <= len(m) <= 4]
        if new != self.measurements:
            self.measurements = new
            self.canvas.update()

    def set_labels(self, labels: dict[str, str]) -> None:
        """Texts drawn beside atoms (``{}`` for none)."""
        if labels != self.labels:
            self.labels = dict(labels)
            self.canvas.update()

    def atoms_in_rect(self, rect: QRectF) -> list[str]:
        """Shown atoms whose centres are drawn inside ``rect`` (widget pixels)."""
        sd = self.scene
        if not sd.count:
            return []
        w, h = self._size()
        s = self.camera.to_screen(sd.pos, w, h)
        inside = ((s[:, 0] >= rect.left()) & (s[:, 0] <= rect.right())
                  & (s[:, 1] >= rect.top()) & (s[:, 1] <= rect.bottom()) & sd.pickable)
        return [sd.ids[i] for i in np.nonzero(inside)[0]]

    def bond_at(self, pos: QPointF, tolerance: float = 5.0) -> tuple[str, str] | None:
        """The bond drawn under ``pos`` (nearest within its half width + ``tolerance``).

        A large structure tests only the bonds with an atom near the line of sight (the
        picking grid), with the same arithmetic as testing them all."""
        sd = self.scene
        if not len(sd.bond_pairs):
            return None
        w, h = self._size()
        limit = 0.12 * self.camera.scale + tolerance
        pairs = sd.bond_pairs
        bonds = None
        if sd.count >= GRID_MIN_ATOMS:
            longest = sd.cache.get("longest_bond")
            if longest is None:
                longest = sd.cache["longest_bond"] = float(np.max(np.linalg.norm(
                    sd.pos[pairs[:, 0]] - sd.pos[pairs[:, 1]], axis=1)))
            near = atoms_near_ray(sd, self.camera, pos.x(), pos.y(), w, h,
                                  limit / self.camera.scale + longest)
            mask = np.zeros(sd.count, dtype=bool)
            if near is not None:
                mask[near] = True
            bonds = np.flatnonzero(mask[pairs[:, 0]] | mask[pairs[:, 1]])
            if len(bonds) == 0:
                return None
            pairs = pairs[bonds]
        used = runs(np.sort(pairs.ravel()))[0] if bonds is not None else None
        if used is None:
            s = self.camera.to_screen(sd.pos, w, h)[:, :2]
            a, b = s[pairs[:, 0]], s[pairs[:, 1]]
        else:
            su = self.camera.to_screen(sd.pos[used], w, h)[:, :2]
            a, b = su[np.searchsorted(used, pairs[:, 0])], su[np.searchsorted(used, pairs[:, 1])]
        q = np.array([pos.x(), pos.y()])
        ab = b - a
        t = np.clip(np.einsum("ij,ij->i", q - a, ab) / np.maximum(
            np.einsum("ij,ij->i", ab, ab), 1e-9), 0.0, 1.0)
        d = np.linalg.norm(a + ab * t[:, None] - q, axis=1)
        k = int(np.argmin(d))
        if d[k] > limit:
            return None
        i, j = (int(v) for v in pairs[k])
        return str(sd.ids[i]), str(sd.ids[j])

    def hold_camera_once(self) -> None:
        """Keep the camera at the next :meth:`set_molecule` of an unfitted view (an atom
        clicked into an empty view must stay under the pointer)."""
        self._hold_camera = True

    def set_mode_animation(self, atoms: list[dict[str, Any]],
                           displacement: Sequence[tuple[float, float, float]] | None,
                           amplitude: float) -> None:
        """Show ``atoms`` (no bonds given: they are perceived by distance) ready to animate."""
        self.stop()
        atoms = [{"id": f"a{i + 1}", **a} for i, a in enumerate(atoms)]
        bonds = _distance_bonds(atoms)
        self._base = structure_arrays(atoms, bonds)
        self._cand = None
        self._selection = []
        self._flagged = set()
        self._rebuild()
        self._anim_base = self.scene.pos.copy()
        self._anim_disp = None if displacement is None else np.asarray(displacement, float)
        self._anim_amp = float(amplitude)
        self.reset_view()

    def set_show_arrows(self, on: bool) -> None:
        """Draw the displacement arrows of the mode set with :meth:`set_mode_animation`
        (still or playing); the view refits so the arrows stay inside it."""
        on = bool(on)
        if on != self.show_arrows:
            self.show_arrows = on
            if self._anim_disp is not None:
                self.fit()
            self.canvas.update()

    def displacement_arrows(self) -> tuple[np.ndarray, np.ndarray]:
        """``(starts, vectors)`` in model Å of the arrows drawn now (empty when none)."""
        from molforma.gui.view3d.arrows import arrow_vectors

        disp = self._anim_disp
        if not self.show_arrows or disp is None or len(disp) != self.scene.count:
            return np.zeros((0, 3)), np.zeros((0, 3))
        return arrow_vectors(self.scene.pos, disp, self._anim_amp)

    def _fit_points(self) -> tuple[np.ndarray, np.ndarray]:
        """What a fit must keep in view: the atoms, and for a mode set for animation both
        turning points of every atom (and the arrow tips when shown), so a playing mode
        never leaves the view."""
        pos, radius = self.scene.pos, self.scene.radius
        base, disp = self._anim_base, self._anim_disp
        if base is None or disp is None or len(base) != len(disp) or len(base) != len(pos):
            return pos, radius
        swing = disp * self._anim_amp
        points = [base, base + swing, base - swing]
        radii = [radius, radius, radius]
        if self.show_arrows:
            from molforma.gui.view3d.arrows import arrow_vectors

            for sign in (1.0, -1.0):
                starts, vectors = arrow_vectors(base + sign * swing, disp, self._anim_amp)
                points.append(starts + vectors)
                radii.append(np.full(len(starts), 0.3))
        return np.concatenate(points), np.concatenate(radii)

    def set_surfaces(self, surfaces: Sequence[Any]) -> None:
        """Draw these :class:`~molforma.gui.view3d.surfaces.Surface` meshes (an orbital's
        lobes) over the molecule; an empty list removes them."""
        self.surfaces = list(surfaces)
        self.canvas.scene_changed(("surfaces",))

    def play(self) -> None:
        """Start the vibration animation set with :meth:`set_mode_animation`."""
        if self._anim_base is not None and self._anim_disp is not None \
                and len(self._anim_disp) == len(self._anim_base):
            self._anim_phase = 0.0
            self._anim_timer.start()

    def stop(self) -> None:
        """Stop the animation and show the reference structure."""
        if self._anim_timer.isActive():
            self._anim_timer.stop()
            if self._anim_base is not None and len(self._anim_base) == self.scene.count:
                self.scene.pos = self._anim_base.copy()
                self._positions_changed()

    @property
    def playing(self) -> bool:
        """True while the animation runs."""
        return self._anim_timer.isActive()

    def fit(self) -> None:
        """Centre and scale the molecule to the view."""
        self._fit_camera()
        self._fitted_once = True
        self._camera_touched = False
        self.canvas.update()

    def _fit_camera(self) -> None:
        w, h = self._size()
        pos, radius = self._fit_points()
        self.camera.fit(pos, radius, w, h)
        self._fit_size = (w, h)

    _fit_size: tuple[float, float] | None = None

    def _fit_is_stale(self) -> bool:
        """A fitted molecule (no zoom or pan since) fitted for another canvas size."""
        return (self._fitted_once and not self._camera_touched and bool(self.scene.count)
                and self._size() != self._fit_size)

    def resizeEvent(self, ev: Any) -> None:
        """Keep a fitted molecule fitted while the view changes size (until zoom or pan)."""
        super().resizeEvent(ev)
        # after the canvas got its new size, unless a frame drawn since has refitted
        QTimer.singleShot(0, self, self._refit_if_stale)

    def _refit_if_stale(self) -> None:
        if self._fit_is_stale():
            self.fit()

    def before_paint(self) -> None:
        """The canvas is about to draw: a fit made for another size is made again now, so
        the first frame after a resize (the window's first frame too) is fitted, not the
        one after it (which was a whole extra draw of a large molecule at start)."""
        if self._fit_is_stale():
            self._fit_camera()

    def reset_view(self) -> None:
        """Principal-axes orientation (largest extent across the screen), then fit."""
        self.camera.rot = principal_rotation(self.scene.pos)
        self.fit()

    def rotate_by(self, dx_degrees: float, dy_degrees: float) -> None:
        """Turn the molecule about the screen y axis and x axis."""
        self.camera.rot = _rot_y(math.radians(dx_degrees)) @ _rot_x(math.radians(dy_degrees)) \
            @ self.camera.rot
        self.canvas.update()

    def zoom_by(self, factor: float) -> None:
        """Zoom in (factor > 1) or out."""
        self._camera_touched = True
        self.camera.scale = float(np.clip(self.camera.scale * factor, 0.2, 5000.0))
        self.canvas.update()

    @property
    def style(self) -> str:
        """``ball_and_stick``, ``spacefill`` or ``sticks``."""
        return self._style

    def set_style(self, style: str) -> None:
        """Change the drawing style (see :data:`molforma.gui.view3d.scene.STYLES`)."""
        from molforma.gui.view3d.scene import STYLES

        if style not in STYLES:
            raise ValueError(f"unknown style {style!r}; use one of {', '.join(STYLES)}")
        if style != self._style:
            self._style = style
            self._rebuild()

    def selection(self) -> list[str]:
        """Selected atom ids in selection order."""
        return list(self._selection)

    def set_selection(self, ids: Sequence[str]) -> None:
        """Replace the selection (ids not shown are dropped)."""
        sd = self.scene
        new = [i for i in dict.fromkeys(ids) if sd.index_of(i) is not None]
        if new != self._selection:
            self._selection = new
            # Only the rings change: the marks are updated in place (a selection in a
            # large structure must not rebuild and re-upload all of it).
            sd.mark &= ~MARK_SELECTED
            rows = np.fromiter((r for r in map(sd.index_of, new) if r is not None),
                               dtype=np.int64)
            rows = rows[sd.pickable[rows]]
            sd.mark[rows] |= MARK_SELECTED
            self.canvas.scene_changed(("marks",))
            self.selectionChanged.emit()

    def atom_screen_pos(self, atom_id: str) -> QPointF | None:
        """Where an atom's centre is drawn, in widget pixels (for tests and tools)."""
        i = self.scene.index_of(atom_id)
        if i is None:
            return None
        w, h = self._size()
        s = self.camera.to_screen(self.scene.pos[i:i + 1], w, h)[0]
        return QPointF(float(s[0]), float(s[1]))

    def model_point_at(self, pos: QPointF) -> tuple[float, float, float]:
        """The model point under a widget position, in the plane of the view centre."""
        w, h = self._size()
        p = self.camera.from_screen(pos.x(), pos.y(), w, h)
        return (float(p[0]), float(p[1]), float(p[2]))

    # -- internals -------------------------------------------------------------------------
    def _size(self) -> tuple[float, float]:
        c = self.canvas
        w = c.width() if c is not None and c.width() > 10 else max(self.width(), 200)
        h = c.height() if c is not None and c.height() > 10 else max(self.height(), 200)
        return float(w), float(h)

    def _rebuild(self) -> None:
        self.scene = scene_from_arrays(self._base, self._cand, selected=self._selection,
                                 style=self._style, flagged=self._flagged)
        self.canvas.scene_changed()

    def _positions_changed(self) -> None:
        rebuild_segments(self.scene)
        self.canvas.scene_changed(("positions",))

    def _anim_step(self) -> None:
        if self._anim_base is None or self._anim_disp is None:
            return
        self._anim_phase += 2 * math.pi / 25
        self.scene.pos = self._anim_base + self._anim_disp * (self._anim_amp
                                                              * math.sin(self._anim_phase))
        self._positions_changed()

    # -- mouse (called by the canvas) ------------------------------------------------------
    def handle_press(self, ev: QMouseEvent) -> None:
        """Start a click, a rotation, a pan or an atom drag."""
        self._press = ev.position()
        self._last = ev.position()
        self._dragging = False
        self._drag_total = np.zeros(3)
        self._drag_atoms = False
        self._band_start = None
        mods = ev.modifiers()
        # Select tool: a drag from the background draws a box (Shift keeps panning);
        # Ctrl + drag draws one in every tool.
        boxing = (self.band_select and not mods & Qt.KeyboardModifier.ShiftModifier) \
            or bool(mods & Qt.KeyboardModifier.ControlModifier)
        if boxing and ev.button() == Qt.MouseButton.LeftButton:
            w, h = self._size()
            if pick(self.scene, self.camera, ev.position().x(), ev.position().y(), w, h) is None:
                self._band_start = ev.position()
        self._draw_from = None
        if (self.draw_mode and self._band_start is None and ev.button() == Qt.MouseButton.LeftButton
                and not mods & (Qt.KeyboardModifier.ShiftModifier
                                | Qt.KeyboardModifier.ControlModifier)):
            w, h = self._size()
            i = pick(self.scene, self.camera, ev.position().x(), ev.position().y(), w, h)
            self._draw_from = "" if i is None else str(self.scene.ids[i])
        if self.move_mode and ev.button() == Qt.MouseButton.LeftButton and self._selection:
            w, h = self._size()
            i = pick(self.scene, self.camera, ev.position().x(), ev.position().y(), w, h)
            self._drag_atoms = i is not None and str(self.scene.ids[i]) in self._selection

    def handle_move(self, ev: QMouseEvent) -> None:
        """Rotate, pan or drag atoms; without a button pressed, report the atom hovered."""
        if self._press is None or self._last is None:
            self._hover(ev.position())
            return
        p = ev.position()
        if not self._dragging and (abs(p.x() - self._press.x()) + abs(p.y() - self._press.y())
                                   > _CLICK_SLOP):
            self._dragging = True
        if not self._dragging:
            return
        dx, dy = p.x() - self._last.x(), p.y() - self._last.y()
        self._last = p
        buttons = ev.buttons()
        if self._draw_from is not None:
            start = self.atom_screen_pos(self._draw_from) if self._draw_from else None
            self.draw_line = (start if start is not None else QPointF(self._press), QPointF(p))
            self.canvas.update()
        elif self._band_start is not None:
            from molforma.gui.view3d.overlay import band_rect

            self.rubber_band = band_rect(self._band_start, p)
            self.canvas.update()
        elif self._drag_atoms:
            delta = self.camera.screen_delta_to_model(dx, dy)
            self._drag_total += delta
            sel = [self.scene.index_of(s) for s in self._selection]
            idx = [i for i in sel if i is not None]
            self.scene.pos[idx] += delta
            self._positions_changed()
        elif self.draw_mode and buttons & Qt.MouseButton.MiddleButton:
            # The left button draws in the Add-atom tool; the middle one turns the molecule.
            self.camera.rotate(dx, dy)
            self.camera_moving()
        elif buttons & (Qt.MouseButton.RightButton | Qt.MouseButton.MiddleButton) or (
                ev.modifiers() & Qt.KeyboardModifier.ShiftModifier):
            self.camera.pan += np.array([dx, -dy])
            self._camera_touched = True
            self.camera_moving()
        elif buttons & Qt.MouseButton.LeftButton:
            self.camera.rotate(dx, dy)
            self.camera_moving()

    def camera_moving(self) -> None:
        """The person moves the camera (a drag or the wheel): draw the next frames at the
        renderer's interactive level of detail until the motion settles."""
        self.moving = True
        self._settle_timer.start()
        self.canvas.update()

    def _settled(self) -> None:
        """The motion ended: draw the full picture again."""
        self._settle_timer.stop()
        if self.moving:
            self.moving = False
            self.canvas.update()

    def handle_release(self, ev: QMouseEvent) -> None:
        """Finish: a click picks, an atom drag reports its displacement."""
        if self._press is None:
            return
        was_drag, drag_atoms = self._dragging, self._drag_atoms
        band, self._band_start = self._band_start, None
        draw_from, self._draw_from = self._draw_from, None
        if self.draw_line is not None:
            self.draw_line = None
            self.canvas.update()
        press = self._press
        self._press = None
        self._dragging = False
        self._drag_atoms = False
        self._settled()  # a drag of the camera ended: the full picture at once
        if band is not None and self.rubber_band is not None:
            rect, self.rubber_band = self.rubber_band, None
            self.canvas.update()
            if was_drag:
                self.boxSelected.emit(self.atoms_in_rect(rect), ev.modifiers())
                return
        w, h = self._size()
        if was_drag and draw_from is not None and press is not None:
            j = pick(self.scene, self.camera, ev.position().x(), ev.position().y(), w, h)
            self.drawDragged.emit(draw_from, "" if j is None else str(self.scene.ids[j]),
                                  QPointF(press), QPointF(ev.position()))
            return
        if was_drag:
            if drag_atoms and np.linalg.norm(self._drag_total) > 0:
                total = tuple(float(v) for v in self._drag_total)
                self.atomsDragged.emit(list(self._selection), total)
            return
        i = pick(self.scene, self.camera, ev.position().x(), ev.position().y(), w, h)
        if ev.button() == Qt.MouseButton.RightButton:
            atom = "" if i is None else str(self.scene.ids[i])
            bond = self.bond_at(ev.position()) if i is None else None
            self.contextRequested.emit(atom, bond, ev.globalPosition().toPoint())
            return
        if ev.button() != Qt.MouseButton.LeftButton:
            return
        bond = self.bond_at(ev.position()) if i is None and self.draw_mode else None
        if bond is not None:
            self.bondClicked.emit(bond[0], bond[1], ev.modifiers())
        elif i is None:
            self.backgroundClicked.emit(QPointF(ev.position()))
        else:
            self.atomClicked.emit(str(self.scene.ids[i]), ev.modifiers())

    def _hover(self, pos: QPointF) -> None:
        w, h = self._size()
        i = pick(self.scene, self.camera, pos.x(), pos.y(), w, h)
        atom_id = "" if i is None else str(self.scene.ids[i])
        if atom_id != self._hovered:
            self._hovered = atom_id
            if i is None:
                self.canvas.setToolTip("")
            else:
                x, y, z = (float(v) for v in self.scene.pos[i])
                self.canvas.setToolTip(f"{atom_id}  {self.scene.symbols[i]}  "
                                       f"({x:.3f}, {y:.3f}, {z:.3f}) Å")
            self.atomHovered.emit(atom_id)
        if self.draw_mode:
            bond = self.bond_at(pos) if i is None else None
            if (atom_id, bond) != (self._hover_state or ("", None)):
                self._hover_state = (atom_id, bond)
                self.pointerHovered.emit(atom_id, bond)

    _hover_state: tuple[str, tuple[str, str] | None] | None = None

    def hover_state(self) -> tuple[str, tuple[str, str] | None] | None:
        """The atom and bond last reported under the pointer (draw mode), or None."""
        return self._hover_state

    def forget_hover(self) -> None:
        """Report the pointer again at its next move (the tool or the molecule changed)."""
        self._hover_state = None
        self._hovered = ""

    def handle_key(self, ev: QKeyEvent) -> bool:
        """A key typed into the canvas: True when the key handler used it."""
        return bool(self.key_handler is not None and self.key_handler(ev))

    def claims_key(self, ev: QKeyEvent) -> bool:
        """True when a key typed into the canvas is the tool's, ahead of any shortcut."""
        return bool(self.wants_key is not None and self.wants_key(ev))

    def handle_wheel(self, ev: QWheelEvent) -> None:
        """Zoom about the view centre."""
        steps = ev.angleDelta().y() / 120.0
        if steps:
            self.zoom_by(1.15 ** steps)
            self.camera_moving()


def principal_rotation(pos: np.ndarray) -> np.ndarray:
    """A rotation putting the largest spread along screen x and the smallest along the view
    axis, tilted a little so that flat and linear molecules still look three-dimensional."""
    if len(pos) < 2:
        return _rot_y(math.radians(-25)) @ _rot_x(math.radians(20))
    centred = pos - pos.mean(axis=0)
    _vals, vecs = np.linalg.eigh(centred.T @ centred)
    axes = vecs[:, ::-1].T  # rows: largest, middle, smallest spread
    if np.linalg.det(axes) < 0:
        axes[2] = -axes[2]
    return _rot_y(math.radians(-15)) @ _rot_x(math.radians(12)) @ axes


def _rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rot_y(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def _distance_bonds(atoms: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Bonds by covalent radii (for result structures, which carry no bonds)."""
    from molforma.document import elements
    from molforma.document.coordinates import xyz_array

    n = len(atoms)
    if n < 2 or n > 3000:
        return []
    xyz = xyz_array(atoms)
    rad = np.array([elements.covalent_radius(a["element"])
                    if elements.normalize_symbol(str(a["element"])) else 0.77 for a in atoms])
    d = np.linalg.norm(xyz[:, None, :] - xyz[None, :, :], axis=2)
    lim = (rad[:, None] + rad[None, :]) * 1.2
    ii, jj = np.nonzero(np.triu((d < lim) & (d > 0.1), 1))
    return [{"a": atoms[i]["id"], "b": atoms[j]["id"], "order": 1} for i, j in zip(ii, jj, strict=True)]
