"""The vibration animation of the 3D view (Qt layer): a normal mode played on its atoms.

:class:`ModeAnimation` holds the reference positions, the mode's displacement, its
amplitude and phase and the frame timer; each frame it writes the displaced positions
into the view's scene. It also says what a fit must keep in view (both turning points,
the arrow tips) and which arrows are drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np
from PySide6.QtCore import QObject, QTimer

from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.gui.view3d import arrows
    from molforma.gui.view3d.scene import SceneData
else:  # imported on first use (start-up time): molforma.lazy
    arrows = lazy_import("molforma.gui.view3d.arrows")

_FRAME_MS = 40
_FRAMES_PER_PERIOD = 25


class AnimatedView(Protocol):
    """What the animation uses of the view (MoleculeView has it); a protocol, not an
    import of the view's module, which imports this one."""

    scene: SceneData

    def positions_changed(self) -> None: ...


class ModeAnimation:
    """One mode set for animation on the shown atoms (none after :meth:`clear`)."""

    def __init__(self, view: AnimatedView, parent: QObject) -> None:
        self._view = view
        self.base: np.ndarray | None = None  # reference positions (model Å)
        self.disp: np.ndarray | None = None  # displacement per atom
        self.amp = 0.0
        self.phase = 0.0
        self.timer = QTimer(parent)
        self.timer.setInterval(_FRAME_MS)
        self.timer.timeout.connect(self.step)

    def clear(self) -> None:
        """No mode of another structure lingers."""
        self.base = self.disp = None

    def set(
        self,
        base: np.ndarray,
        displacement: Sequence[tuple[float, float, float]] | None,
        amplitude: float,
    ) -> None:
        """Ready ``displacement`` (None: none) to play about ``base``."""
        self.base = base
        self.disp = None if displacement is None else np.asarray(displacement, float)
        self.amp = float(amplitude)
        self.phase = 0.0

    def step(self) -> None:
        """One frame: the atoms at the next phase of the mode."""
        if self.base is None or self.disp is None:
            return
        self.phase += 2 * math.pi / _FRAMES_PER_PERIOD
        self._view.scene.pos = self.base + self.disp * (self.amp * math.sin(self.phase))
        self._view.positions_changed()

    def play(self) -> None:
        """Start, when a mode of the shown atoms is set."""
        if self.base is not None and self.disp is not None and len(self.disp) == len(self.base):
            self.phase = 0.0
            self.timer.start()

    def stop(self) -> None:
        """Stop and put the atoms back at the reference positions."""
        if self.timer.isActive():
            self.timer.stop()
            if self.base is not None and len(self.base) == self._view.scene.count:
                self._view.scene.pos = self.base.copy()
                self._view.positions_changed()

    @property
    def playing(self) -> bool:
        """True while the animation runs."""
        return self.timer.isActive()

    def arrows(self, show: bool) -> tuple[np.ndarray, np.ndarray]:
        """``(starts, vectors)`` in model Å of the arrows drawn now (empty when none)."""
        sd, disp = self._view.scene, self.disp
        if not show or disp is None or len(disp) != sd.count:
            return np.zeros((0, 3)), np.zeros((0, 3))
        return arrows.arrow_vectors(sd.pos, disp, self.amp)

    def fit_points(self, show_arrows: bool) -> tuple[np.ndarray, np.ndarray]:
        """What a fit must keep in view: the atoms, and for a mode set for animation both
        turning points of every atom (and the arrow tips when shown), so a playing mode
        never leaves the view."""
        pos, radius = self._view.scene.pos, self._view.scene.radius
        base, disp = self.base, self.disp
        if base is None or disp is None or len(base) != len(disp) or len(base) != len(pos):
            return pos, radius
        swing = disp * self.amp
        points = [base, base + swing, base - swing]
        radii = [radius, radius, radius]
        if show_arrows:
            for sign in (1.0, -1.0):
                starts, vectors = arrows.arrow_vectors(base + sign * swing, disp, self.amp)
                points.append(starts + vectors)
                radii.append(np.full(len(starts), 0.3))
        return np.concatenate(points), np.concatenate(radii)
