"""The 3D view's interactive level of detail: a drag or the wheel marks the view as
moving (the OpenGL canvas then draws a cheaper picture of a large structure), the end of
the drag or a short pause brings the full picture back, and picking stays exact while
moving (it uses the grid over the positions, never the drawing). And the point sprites'
guard band: a ball whose centre just left the frame still shows its part on screen."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent

from molforma.gui.view3d.base import SETTLE_MS, MoleculeView
from molforma.gui.view3d.opengl import LOD_MAX_POINTS, lod_stride
from molforma.gui.view3d.scene import pick
from tests.gui.test_large_structure_view import _brute_force, lattice

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton


def _mouse(kind: QEvent.Type, x: float, button: Qt.MouseButton, buttons: Any) -> QMouseEvent:
    at = QPointF(x, 200.0)
    return QMouseEvent(kind, at, at, button, buttons, Qt.KeyboardModifier.NoModifier)


def test_a_drag_moves_the_view_at_low_detail_and_its_end_restores_the_full_picture(
    qtbot: Any,
) -> None:
    v = MoleculeView("painter")
    qtbot.addWidget(v)
    v.resize(600, 400)
    v.set_molecule(lattice(30_000), [])
    rot = np.array(v.camera.rot)
    assert not v.moving
    v.handle_press(_mouse(QEvent.Type.MouseButtonPress, 100, LEFT, LEFT))
    for x in (110, 130, 160):
        v.handle_move(_mouse(QEvent.Type.MouseMove, x, NONE, LEFT))
        assert v.moving  # drawn at the interactive level of detail
    assert not np.allclose(rot, v.camera.rot)  # the drag turned the molecule
    # Picking while moving is the exact answer (the grid, not the drawing).
    w, h = v._size()
    for x, y in ((300.0, 200.0), (280.0, 190.0), (50.0, 50.0)):
        assert pick(v.scene, v.camera, x, y, w, h) == _brute_force(v, x, y)
    v.handle_release(_mouse(QEvent.Type.MouseButtonRelease, 160, LEFT, NONE))
    assert not v.moving  # the full picture as soon as the drag ends


def test_the_wheel_moves_the_view_until_a_short_pause(qtbot: Any) -> None:
    v = MoleculeView("painter")
    qtbot.addWidget(v)
    v.resize(600, 400)
    v.set_molecule(lattice(1000), [])
    scale = v.camera.scale
    wheel = QWheelEvent(
        QPointF(300, 200),
        QPointF(300, 200),
        QPoint(0, 0),
        QPoint(0, 120),
        NONE,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    v.handle_wheel(wheel)
    assert v.camera.scale > scale
    assert v.moving
    qtbot.waitUntil(lambda: not v.moving, timeout=SETTLE_MS * 20)


def test_the_drag_draws_at_most_about_lod_max_points_with_a_stride_not_in_step_with_waters() -> (
    None
):
    assert lod_stride(10_000) == 1
    for n in (100_000, 250_000, 1_000_000, 3_000_000):
        k = lod_stride(n)
        assert k % 3 != 0  # a water box keeps its hydrogens and oxygens alike
        assert (n - 1) // k + 1 <= LOD_MAX_POINTS * 1.01 or k == 97


_GL_DRAG = r"""
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication
app = QApplication([])
from molforma.gui.view3d.base import MoleculeView
from tests.gui.test_large_structure_view import lattice
view = MoleculeView("opengl")
view.resize(600, 400)
view.show()
for _ in range(20):
    app.processEvents()
view.set_molecule(lattice(30_000), [])
canvas = view.canvas
LEFT, NONE = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
def mouse(kind, x, button, buttons):
    at = QPointF(x, 200.0)
    return QMouseEvent(kind, at, at, button, buttons, Qt.KeyboardModifier.NoModifier)
canvas.grabFramebuffer()
still = canvas.lod_frames
view.handle_press(mouse(QEvent.Type.MouseButtonPress, 100, LEFT, LEFT))
for x in (110, 130, 150, 170):
    view.handle_move(mouse(QEvent.Type.MouseMove, x, NONE, LEFT))
    canvas.grabFramebuffer()  # a frame drawn during the drag
during = canvas.lod_frames - still
view.handle_release(mouse(QEvent.Type.MouseButtonRelease, 170, LEFT, NONE))
frames = canvas.frames
canvas.grabFramebuffer()  # the frame after the drag
after = canvas.lod_frames - still - during
print(view.renderer_name, still, during, after, canvas.frames - frames)
"""


def test_opengl_draws_the_drag_at_low_detail_and_the_frame_after_it_in_full() -> None:
    from tests.gui.helpers import run_gl_script

    out = run_gl_script(_GL_DRAG).stdout.split()[-5:]
    # no low-detail frame at rest, four during the drag, none after it (one full frame)
    assert out == ["opengl", "0", "4", "0", "1"]


_GL_EDGE = r"""
import numpy as np
from PySide6.QtWidgets import QApplication
app = QApplication([])
import sys
import molforma.gui.view3d.opengl as og
og.SPRITE_GUARD_PIXELS = int(sys.argv[1]) if len(sys.argv) > 1 else og.SPRITE_GUARD_PIXELS
from molforma.gui.view3d.base import MoleculeView
from molforma.gui.view3d.structure_arrays import StructureArrays
from molforma.gui.view3d.scene import BACKGROUND
n = 25_000
rng = np.random.default_rng(3)
xyz = rng.uniform(-3, 3, size=(n, 3)) - np.array([0.0, 0.0, 25.0])
xyz[0] = (0.0, 0.0, 30.0)  # the atom put at the frame's edge, in front of the others
ids = np.empty(n, dtype=object); ids[:] = [f"a{i + 1}" for i in range(n)]
view = MoleculeView("opengl"); view.resize(600, 400); view.show()
for _ in range(20): app.processEvents()
view.set_molecule(StructureArrays(ids, np.zeros(n, np.int32), ["O"], xyz, np.zeros(n, bool),
                                  np.zeros((0, 2), np.int64), np.zeros(0, np.int8)), [])
canvas = view.canvas
img = canvas.grabFramebuffer()
w, h = canvas.width(), canvas.height()
sd, cam = view.scene, view.camera
cam.scale = 10.0 / float(sd.radius[0])  # a ball 10 px in radius
s = cam.to_screen(sd.pos[:1], w, h)[0]
for _ in range(3):  # its centre 4 px right of the frame, half-way down (pan is linear)
    cam.pan = cam.pan + np.array([w + 4.0 - s[0], s[1] - h / 2])
    s = cam.to_screen(sd.pos[:1], w, h)[0]
img = canvas.grabFramebuffer()
c = img.pixelColor(w - 1, int(round(s[1])))
bg = tuple(round(255 * v) for v in BACKGROUND)
print(canvas._sprites(), round(float(s[0]) - w, 1), round(float(s[1])), (c.red(), c.green(), c.blue()) != bg)
"""


def test_a_sprite_whose_centre_just_left_the_frame_still_draws_its_part_on_screen() -> None:
    from tests.gui.helpers import run_gl_script

    # Without the guard band (0 pixels) the ball vanishes whole; with it, its left part shows.
    assert run_gl_script(_GL_EDGE, "0").stdout.split()[-4:] == ["True", "4.0", "200", "False"]
    assert run_gl_script(_GL_EDGE).stdout.split()[-4:] == ["True", "4.0", "200", "True"]
