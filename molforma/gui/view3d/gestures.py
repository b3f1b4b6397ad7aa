"""Mouse gestures of the 3D view (Qt layer): clicks, drags, the rubber band and hovering.

:class:`PointerGestures` keeps the state of one press until its release (where it
started, whether it became a drag, what the drag moves) and turns it into the view's
signals. The view owns the scene, the camera and the selection; the gesture only reads
them and asks the view to redraw, so the two renderers share one reading of the mouse.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from PySide6.QtCore import QObject, QPointF, Qt, QTimer

from molforma.gui.view3d.scene import pick
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from PySide6.QtCore import QRectF, SignalInstance
    from PySide6.QtGui import QMouseEvent

    from molforma.gui.view3d import overlay
    from molforma.gui.view3d.scene import Camera, SceneData
else:  # imported on first use (start-up time): molforma.lazy
    overlay = lazy_import("molforma.gui.view3d.overlay")

_CLICK_SLOP = 4.0  # pixels a press may travel and still count as a click
# Interactive level of detail: while a mouse drag or the wheel turns, pans or zooms the
# camera, a renderer may draw a cheaper picture of a large structure (see
# GLCanvas.paintGL); the full one is drawn this long after the last such move.
SETTLE_MS = 180

_SHIFT = Qt.KeyboardModifier.ShiftModifier
_CTRL = Qt.KeyboardModifier.ControlModifier
_LEFT = Qt.MouseButton.LeftButton


class CameraMotion:
    """The level-of-detail clock: ``moving`` is True while a drag or the wheel moves the
    camera, and turns False ``SETTLE_MS`` after the last such move (or at a drag's end)."""

    def __init__(self, parent: QObject, redraw: Callable[[], None]) -> None:
        self._redraw = redraw
        self.moving = False
        self.timer = QTimer(parent)
        self.timer.setSingleShot(True)
        self.timer.setInterval(SETTLE_MS)
        self.timer.timeout.connect(self.settled)

    def moved(self) -> None:
        """The camera moved: cheap frames until the motion settles."""
        self.moving = True
        self.timer.start()
        self._redraw()

    def settled(self) -> None:
        """The motion ended: draw the full picture again."""
        self.timer.stop()
        if self.moving:
            self.moving = False
            self._redraw()


class GestureView(Protocol):
    """What the gestures read and call of the view (MoleculeView has them); a protocol,
    not an import of the view's module, which imports this one."""

    scene: SceneData
    camera: Camera
    canvas: Any
    motion: CameraMotion
    band_select: bool
    move_mode: bool
    draw_mode: bool
    draw_line: tuple[QPointF, QPointF] | None
    rubber_band: QRectF | None
    camera_touched: bool

    def _size(self) -> tuple[float, float]: ...
    def selection(self) -> list[str]: ...
    def atom_screen_pos(self, atom_id: str) -> QPointF | None: ...
    def atoms_in_rect(self, rect: QRectF) -> list[str]: ...
    def bond_at(self, pos: QPointF, tolerance: float = ...) -> tuple[str, str] | None: ...
    def positions_changed(self) -> None: ...
    def camera_moving(self) -> None: ...
    # The view's signals, emitted when a gesture ends (see MoleculeView).
    @property
    def atomClicked(self) -> SignalInstance: ...
    @property
    def backgroundClicked(self) -> SignalInstance: ...
    @property
    def atomsDragged(self) -> SignalInstance: ...
    @property
    def atomHovered(self) -> SignalInstance: ...
    @property
    def boxSelected(self) -> SignalInstance: ...
    @property
    def contextRequested(self) -> SignalInstance: ...
    @property
    def drawDragged(self) -> SignalInstance: ...
    @property
    def bondClicked(self) -> SignalInstance: ...
    @property
    def pointerHovered(self) -> SignalInstance: ...


class PointerGestures:
    """One press at a time: a click picks, a drag turns, pans, moves atoms, draws a bond
    (draw mode) or a rubber band; without a button the pointer reports what is under it."""

    def __init__(self, view: GestureView) -> None:
        self._view = view
        self.press: QPointF | None = None
        self._last: QPointF | None = None
        self.dragging = False
        self.drag_atoms = False
        self.drag_total = np.zeros(3)
        self.band_start: QPointF | None = None
        self.draw_from: str | None = None  # atom a draw drag started on ("" empty space)
        self.hovered = ""
        self.hover_state: tuple[str, tuple[str, str] | None] | None = None

    def _pick(self, pos: QPointF) -> int | None:
        v = self._view
        w, h = v._size()
        return pick(v.scene, v.camera, pos.x(), pos.y(), w, h)

    def _picked_id(self, pos: QPointF) -> str | None:
        i = self._pick(pos)
        return None if i is None else str(self._view.scene.ids[i])

    def press_at(self, ev: QMouseEvent) -> None:
        """Start a click, a rotation, a pan or an atom drag."""
        v = self._view
        self.press = ev.position()
        self._last = ev.position()
        self.dragging = False
        self.drag_total = np.zeros(3)
        self.drag_atoms = False
        self.band_start = None
        mods = ev.modifiers()
        left = ev.button() == _LEFT
        # Select tool: a drag from the background draws a box (Shift keeps panning);
        # Ctrl + drag draws one in every tool.
        boxing = (v.band_select and not mods & _SHIFT) or bool(mods & _CTRL)
        if boxing and left and self._pick(ev.position()) is None:
            self.band_start = ev.position()
        self.draw_from = None
        if v.draw_mode and self.band_start is None and left and not mods & (_SHIFT | _CTRL):
            self.draw_from = self._picked_id(ev.position()) or ""
        selection = v.selection()
        if v.move_mode and left and selection:
            atom = self._picked_id(ev.position())
            self.drag_atoms = atom is not None and atom in selection

    def move_to(self, ev: QMouseEvent) -> None:
        """Rotate, pan or drag atoms; without a button pressed, report the atom hovered."""
        v = self._view
        if self.press is None or self._last is None:
            self.hover(ev.position())
            return
        p = ev.position()
        if not self.dragging and (
            abs(p.x() - self.press.x()) + abs(p.y() - self.press.y()) > _CLICK_SLOP
        ):
            self.dragging = True
        if not self.dragging:
            return
        dx, dy = p.x() - self._last.x(), p.y() - self._last.y()
        self._last = p
        buttons = ev.buttons()
        if self.draw_from is not None:
            start = v.atom_screen_pos(self.draw_from) if self.draw_from else None
            v.draw_line = (start if start is not None else QPointF(self.press), QPointF(p))
            v.canvas.update()
        elif self.band_start is not None:
            v.rubber_band = overlay.band_rect(self.band_start, p)
            v.canvas.update()
        elif self.drag_atoms:
            delta = v.camera.screen_delta_to_model(dx, dy)
            self.drag_total += delta
            sel = [v.scene.index_of(s) for s in v.selection()]
            idx = [i for i in sel if i is not None]
            v.scene.pos[idx] += delta
            v.positions_changed()
        elif v.draw_mode and buttons & Qt.MouseButton.MiddleButton:
            # The left button draws in the Add-atom tool; the middle one turns the molecule.
            v.camera.rotate(dx, dy)
            v.camera_moving()
        elif buttons & (Qt.MouseButton.RightButton | Qt.MouseButton.MiddleButton) or (
            ev.modifiers() & _SHIFT
        ):
            v.camera.pan += np.array([dx, -dy])
            v.camera_touched = True
            v.camera_moving()
        elif buttons & _LEFT:
            v.camera.rotate(dx, dy)
            v.camera_moving()

    def release_at(self, ev: QMouseEvent) -> None:
        """Finish: a click picks, an atom drag reports its displacement."""
        v = self._view
        if self.press is None:
            return
        was_drag, drag_atoms = self.dragging, self.drag_atoms
        band, self.band_start = self.band_start, None
        draw_from, self.draw_from = self.draw_from, None
        if v.draw_line is not None:
            v.draw_line = None
            v.canvas.update()
        press = self.press
        self.press = None
        self.dragging = False
        self.drag_atoms = False
        v.motion.settled()  # a drag of the camera ended: the full picture at once
        if band is not None and v.rubber_band is not None:
            rect, v.rubber_band = v.rubber_band, None
            v.canvas.update()
            if was_drag:
                v.boxSelected.emit(v.atoms_in_rect(rect), ev.modifiers())
                return
        if was_drag and draw_from is not None:
            to = self._picked_id(ev.position())
            v.drawDragged.emit(draw_from, to or "", QPointF(press), QPointF(ev.position()))
            return
        if was_drag:
            if drag_atoms and np.linalg.norm(self.drag_total) > 0:
                total = tuple(float(x) for x in self.drag_total)
                v.atomsDragged.emit(v.selection(), total)
            return
        atom = self._picked_id(ev.position())
        if ev.button() == Qt.MouseButton.RightButton:
            bond = v.bond_at(ev.position()) if atom is None else None
            v.contextRequested.emit(atom or "", bond, ev.globalPosition().toPoint())
            return
        if ev.button() != _LEFT:
            return
        bond = v.bond_at(ev.position()) if atom is None and v.draw_mode else None
        if bond is not None:
            v.bondClicked.emit(bond[0], bond[1], ev.modifiers())
        elif atom is None:
            v.backgroundClicked.emit(QPointF(ev.position()))
        else:
            v.atomClicked.emit(atom, ev.modifiers())

    def hover(self, pos: QPointF) -> None:
        """Report the atom under the pointer (a tooltip, ``atomHovered``) and, in draw
        mode, the atom or bond a click would act on (``pointerHovered``)."""
        v = self._view
        i = self._pick(pos)
        atom_id = "" if i is None else str(v.scene.ids[i])
        if atom_id != self.hovered:
            self.hovered = atom_id
            if i is None:
                v.canvas.setToolTip("")
            else:
                x, y, z = (float(c) for c in v.scene.pos[i])
                v.canvas.setToolTip(
                    f"{atom_id}  {v.scene.symbols[i]}  ({x:.3f}, {y:.3f}, {z:.3f}) Å"
                )
            v.atomHovered.emit(atom_id)
        if v.draw_mode:
            bond = v.bond_at(pos) if i is None else None
            if (atom_id, bond) != (self.hover_state or ("", None)):
                self.hover_state = (atom_id, bond)
                v.pointerHovered.emit(atom_id, bond)

    def forget_hover(self) -> None:
        """Report the pointer again at its next move (the tool or the molecule changed)."""
        self.hover_state = None
        self.hovered = ""
