"""The 3D molecule view: one widget, two interchangeable renderers (Qt layer).

:class:`MoleculeView` owns the scene, the camera and the selection; its collaborators
hold the rest: the mouse gestures and the level-of-detail clock (:mod:`.gestures`),
picking of rubber bands and bonds (:mod:`.picking`) and the vibration animation
(:mod:`.animation`). A *canvas* child (QPainter or OpenGL) only draws what the view holds. Mouse: left drag rotates, right or middle drag (or
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
from itertools import compress, repeat
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from molforma.document import elements
from molforma.document.coordinates import xyz_array
from molforma.gui.view3d.animation import ModeAnimation
from molforma.gui.view3d.gestures import SETTLE_MS, CameraMotion, PointerGestures
from molforma.gui.view3d.picking import atoms_in_rect, bond_at
from molforma.gui.view3d.scene import (
    MARK_SELECTED,
    STYLES,
    Camera,
    SceneData,
    outside_view,
    rebuild_segments,
    scene_from_arrays,
)
from molforma.gui.view3d.structure_arrays import StructureArrays, empty_structure, structure_arrays
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.gui.view3d import painter
else:  # imported on first use (start-up time): molforma.lazy
    painter = lazy_import("molforma.gui.view3d.painter")

__all__ = ["SETTLE_MS", "Canvas", "MoleculeView", "principal_rotation"]


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
        self.rubber_band: QRectF | None = None
        self.measurements: list[tuple[str, ...]] = []  # dashed lines with values
        self.labels: dict[str, str] = {}  # atom id -> text drawn beside the atom
        self._style = "ball_and_stick"
        self._fitted_once = False
        self.move_mode = False
        self.draw_mode = False  # the Add-atom tool: drags draw bonds, bonds are clickable
        self.draw_line: tuple[QPointF, QPointF] | None = None  # the bond being drawn
        # Keys typed into the canvas: the handler returns True when it used the key;
        # wants_key says beforehand (a key it claims beats an application shortcut).
        self.key_handler: Callable[[QKeyEvent], bool] | None = None
        self.wants_key: Callable[[QKeyEvent], bool] | None = None
        self.camera_touched = False  # the person zoomed or panned since the last fit
        self.surfaces: list[Any] = []  # view3d.surfaces.Surface meshes drawn over the atoms
        self.show_arrows = False  # displacement arrows of the mode set for animation
        # Collaborators: the vibration animation, the level-of-detail clock of a moving
        # camera, and the mouse gestures (one press at a time).
        self.animation = ModeAnimation(self, self)
        self.motion = CameraMotion(self, lambda: self.canvas.update())
        self.gestures = PointerGestures(self)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.canvas: Any = None
        self._install_canvas(renderer)
        self.setMinimumSize(200, 200)

    # -- renderer --------------------------------------------------------------------------
    def _install_canvas(self, renderer: str) -> None:
        if self.canvas is not None:
            self._layout.removeWidget(self.canvas)
            self.canvas.deleteLater()
        gl_canvas = None
        if renderer == "opengl":
            try:
                from molforma.gui.view3d.opengl import GLCanvas
            except ImportError:  # no QtOpenGL: the painter still shows the molecule
                pass
            else:
                gl_canvas = GLCanvas(self)
        if gl_canvas is not None:
            self.canvas = gl_canvas
        else:
            self.canvas = painter.PainterCanvas(self)
        # Each view names its own canvas (moleculeView → moleculeCanvas, resultsView →
        # resultsCanvas), also when a failing OpenGL canvas is replaced later.
        view_name = self.objectName() or "moleculeView"
        self.canvas.setObjectName(view_name.removesuffix("View") + "Canvas")
        self.canvas.setMouseTracking(True)
        self.canvas.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # Ctrl+C and Delete reach it
        self._layout.addWidget(self.canvas)
        self.canvas.scene_changed()

    @property
    def renderer_name(self) -> str:
        """``"opengl"`` or ``"painter"``."""
        return str(self.canvas.renderer_name)

    def fall_back_to_painter(self) -> None:
        """Replace the OpenGL canvas by the QPainter one (OpenGL failed at run time)."""
        QTimer.singleShot(0, self, lambda: self._install_canvas("painter"))

    # -- public API ------------------------------------------------------------------------
    def set_molecule(
        self,
        atoms: Sequence[dict[str, Any]] | StructureArrays,
        bonds: Sequence[dict[str, Any]],
        *,
        candidate_atoms: Sequence[dict[str, Any]] | StructureArrays | None = None,
        candidate_bonds: Sequence[dict[str, Any]] | None = None,
        flagged: Sequence[str] = (),
    ) -> None:
        """Show a molecule (and a candidate over a ghost of it); refit if it left the view.

        The structures are taken as columns (:func:`~molforma.gui.view3d.structure_arrays.structure_arrays`,
        the one adapter from the document); ``flagged`` atoms are ringed red (impossible
        valences).
        """
        self.stop()
        self.animation.clear()  # no mode of another structure lingers
        hold, self._hold_camera = self._hold_camera, False
        self._flagged = set(flagged)
        self._base = structure_arrays(atoms, bonds)
        self._cand = (
            None
            if candidate_atoms is None
            else structure_arrays(candidate_atoms, candidate_bonds or [])
        )
        shown = self._cand if self._cand is not None else self._base
        self._selection = [s for s in self._selection if shown.row_of(s) is not None]
        self._rebuild()
        w, h = self._size()
        if not self._fitted_once and self.scene.count:
            if (self.scene.count == 1 or hold) and not outside_view(self.scene, self.camera, w, h):
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
        return atoms_in_rect(self.scene, self.camera, rect, *self._size())

    def bond_at(self, pos: QPointF, tolerance: float = 5.0) -> tuple[str, str] | None:
        """The bond drawn under ``pos`` (nearest within its half width + ``tolerance``)."""
        return bond_at(self.scene, self.camera, pos, *self._size(), tolerance)

    def hold_camera_once(self) -> None:
        """Keep the camera at the next :meth:`set_molecule` of an unfitted view (an atom
        clicked into an empty view must stay under the pointer)."""
        self._hold_camera = True

    def set_mode_animation(
        self,
        atoms: list[dict[str, Any]],
        displacement: Sequence[tuple[float, float, float]] | None,
        amplitude: float,
    ) -> None:
        """Show ``atoms`` (no bonds given: they are perceived by distance) ready to animate."""
        self.stop()
        atoms = [{"id": f"a{i + 1}", **a} for i, a in enumerate(atoms)]
        bonds = _distance_bonds(atoms)
        self._base = structure_arrays(atoms, bonds)
        self._cand = None
        self._selection = []
        self._flagged = set()
        self._rebuild()
        self.animation.set(self.scene.pos.copy(), displacement, amplitude)
        self.reset_view()

    def set_show_arrows(self, on: bool) -> None:
        """Draw the displacement arrows of the mode set with :meth:`set_mode_animation`
        (still or playing); the view refits so the arrows stay inside it."""
        on = bool(on)
        if on != self.show_arrows:
            self.show_arrows = on
            if self.animation.disp is not None:
                self.fit()
            self.canvas.update()

    def displacement_arrows(self) -> tuple[np.ndarray, np.ndarray]:
        """``(starts, vectors)`` in model Å of the arrows drawn now (empty when none)."""
        return self.animation.arrows(self.show_arrows)

    def set_surfaces(self, surfaces: Sequence[Any]) -> None:
        """Draw these :class:`~molforma.gui.view3d.surfaces.Surface` meshes (an orbital's
        lobes) over the molecule; an empty list removes them."""
        self.surfaces = list(surfaces)
        self.canvas.scene_changed(("surfaces",))

    def play(self) -> None:
        """Start the vibration animation set with :meth:`set_mode_animation`."""
        self.animation.play()

    def stop(self) -> None:
        """Stop the animation and show the reference structure."""
        self.animation.stop()

    @property
    def playing(self) -> bool:
        """True while the animation runs."""
        return self.animation.playing

    def fit(self) -> None:
        """Centre and scale the molecule to the view."""
        self._fit_camera()
        self._fitted_once = True
        self.camera_touched = False
        self.canvas.update()

    def _fit_camera(self) -> None:
        w, h = self._size()
        pos, radius = self.animation.fit_points(self.show_arrows)
        self.camera.fit(pos, radius, w, h)
        self._fit_size = (w, h)

    _fit_size: tuple[float, float] | None = None

    def _fit_is_stale(self) -> bool:
        """A fitted molecule (no zoom or pan since) fitted for another canvas size."""
        return (
            self._fitted_once
            and not self.camera_touched
            and bool(self.scene.count)
            and self._size() != self._fit_size
        )

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
        self.camera.rot = (
            _rot_y(math.radians(dx_degrees)) @ _rot_x(math.radians(dy_degrees)) @ self.camera.rot
        )
        self.canvas.update()

    def zoom_by(self, factor: float) -> None:
        """Zoom in (factor > 1) or out."""
        self.camera_touched = True
        self.camera.scale = float(np.clip(self.camera.scale * factor, 0.2, 5000.0))
        self.canvas.update()

    # The public name ``style`` (tests, the window) shadows QWidget.style(), which nothing
    # calls on this widget from Python; Qt's C++ side does not see the property.
    @property
    def style(self) -> str:  # type: ignore[override]
        """``ball_and_stick``, ``spacefill`` or ``sticks``."""
        return self._style

    def set_style(self, style: str) -> None:
        """Change the drawing style (see :data:`molforma.gui.view3d.scene.STYLES`)."""
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
        unique = list(dict.fromkeys(ids))
        # builtin map and dict.get: a million ids are looked up in C
        found = np.fromiter(map(sd.row_map().get, unique, repeat(-1)), np.int64, len(unique))
        shown = found >= 0
        new = unique if shown.all() else list(compress(unique, shown.tolist()))
        if new != self._selection:
            self._selection = new
            # Only the rings change: the marks are updated in place (a selection in a
            # large structure must not rebuild and re-upload all of it).
            sd.mark &= ~MARK_SELECTED
            rows = found[shown]
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
        s = self.camera.to_screen(self.scene.pos[i : i + 1], w, h)[0]
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
        self.scene = scene_from_arrays(
            self._base,
            self._cand,
            selected=self._selection,
            style=self._style,
            flagged=self._flagged,
        )
        self.canvas.scene_changed()

    def positions_changed(self) -> None:
        """Positions moved in place (a drag, a vibration frame): bonds follow, redraw."""
        rebuild_segments(self.scene)
        self.canvas.scene_changed(("positions",))

    # -- mouse and keys (called by the canvas; the gestures read them) ----------------------
    def handle_press(self, ev: QMouseEvent) -> None:
        """Start a click, a rotation, a pan or an atom drag."""
        self.gestures.press_at(ev)

    def handle_move(self, ev: QMouseEvent) -> None:
        """Rotate, pan or drag atoms; without a button pressed, report the atom hovered."""
        self.gestures.move_to(ev)

    def handle_release(self, ev: QMouseEvent) -> None:
        """Finish: a click picks, an atom drag reports its displacement."""
        self.gestures.release_at(ev)

    def camera_moving(self) -> None:
        """The person moves the camera (a drag or the wheel): draw the next frames at the
        renderer's interactive level of detail until the motion settles."""
        self.motion.moved()

    @property
    def moving(self) -> bool:
        """True while the camera is moved by a drag or the wheel (level of detail)."""
        return self.motion.moving

    def hover_state(self) -> tuple[str, tuple[str, str] | None] | None:
        """The atom and bond last reported under the pointer (draw mode), or None."""
        return self.gestures.hover_state

    def forget_hover(self) -> None:
        """Report the pointer again at its next move (the tool or the molecule changed)."""
        self.gestures.forget_hover()

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
            self.zoom_by(1.15**steps)
            self.camera_moving()


def principal_rotation(pos: np.ndarray) -> np.ndarray:
    """A rotation putting the largest spread along screen x and the smallest along the view
    axis, tilted a little so that flat and linear molecules still look three-dimensional."""
    if len(pos) < 2:
        tilt: np.ndarray = _rot_y(math.radians(-25)) @ _rot_x(math.radians(20))
        return tilt
    centred = pos - pos.mean(axis=0)
    _vals, vecs = np.linalg.eigh(centred.T @ centred)
    axes = vecs[:, ::-1].T  # rows: largest, middle, smallest spread
    if np.linalg.det(axes) < 0:
        axes[2] = -axes[2]
    turned: np.ndarray = _rot_y(math.radians(-15)) @ _rot_x(math.radians(12)) @ axes
    return turned


def _rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], dtype=float)


def _rot_y(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]], dtype=float)


def _distance_bonds(atoms: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Bonds by covalent radii (for result structures, which carry no bonds)."""
    n = len(atoms)
    if n < 2 or n > 3000:
        return []
    xyz = xyz_array(atoms)
    rad = np.array(
        [
            elements.covalent_radius(a["element"])
            if elements.normalize_symbol(str(a["element"]))
            else 0.77
            for a in atoms
        ]
    )
    d = np.linalg.norm(xyz[:, None, :] - xyz[None, :, :], axis=2)
    lim = (rad[:, None] + rad[None, :]) * 1.2
    ii, jj = np.nonzero(np.triu((d < lim) & (d > 0.1), 1))
    return [
        {"a": atoms[int(i)]["id"], "b": atoms[int(j)]["id"], "order": 1}
        for i, j in zip(ii, jj, strict=True)
    ]
