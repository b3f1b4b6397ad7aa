"""The 3D view: painter output shows the atoms where expected; picking, camera, animation.

The OpenGL renderer is exercised under Xvfb with Mesa in a child process
(``xvfb-run``), since the offscreen platform has no OpenGL.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage

from molforma.document.envelope import new_atom
from tests.gui.helpers import click_atom, run_gl_script, run_with_opengl

WATER_ATOMS = [
    new_atom("a1", "O", 0.0, 0.0, 0.117),
    new_atom("a2", "H", 0.0, 0.757, -0.469),
    new_atom("a3", "H", 0.0, -0.757, -0.469),
]
WATER_BONDS = [{"a": "a1", "b": "a2", "order": 1}, {"a": "a1", "b": "a3", "order": 1}]
WATER_XYZ = "3\nwater\nO 0 0 0.117\nH 0 0.757 -0.469\nH 0 -0.757 -0.469\n"


@pytest.fixture
def view(qtbot: Any) -> Any:
    from molforma.gui.view3d import create_view

    v = create_view()
    qtbot.addWidget(v)
    v.resize(400, 300)
    v.show()
    qtbot.waitExposed(v)
    assert v.renderer_name == "painter"
    return v


def _image(view: Any) -> QImage:
    return view.grab().toImage()


def _near(c: QColor, rgb: tuple[int, int, int], tol: int = 90) -> bool:
    return abs(c.red() - rgb[0]) + abs(c.green() - rgb[1]) + abs(c.blue() - rgb[2]) < tol


def _is_red(c: QColor) -> bool:
    return c.red() > 150 and c.green() < 80 and c.blue() < 80


def _is_white(c: QColor) -> bool:
    return min(c.red(), c.green(), c.blue()) > 170


def test_painter_draws_each_atom_in_its_element_colour_where_the_camera_puts_it(view: Any) -> None:
    view.set_molecule(WATER_ATOMS, WATER_BONDS)
    img = _image(view)
    colours = {img.pixel(x, y) for x in range(0, img.width(), 3) for y in range(0, img.height(), 3)}
    assert len(colours) > 50  # shaded balls, not a blank or flat image
    o = view.atom_screen_pos("a1").toPoint()
    assert _is_red(img.pixelColor(o))
    for hid in ("a2", "a3"):
        p = view.atom_screen_pos(hid).toPoint()
        assert _is_white(img.pixelColor(p)), hid
    assert _near(img.pixelColor(2, 2), (33, 38, 48))  # background corner


def test_the_view_refits_when_an_edit_puts_atoms_outside(view: Any) -> None:
    from molforma.gui.view3d.scene import outside_view

    view.set_molecule(WATER_ATOMS, WATER_BONDS)
    scale = view.camera.scale
    far = [*WATER_ATOMS, new_atom("a4", "C", 40.0, 0.0, 0.0)]
    view.set_molecule(far, WATER_BONDS)
    assert view.camera.scale < scale
    assert not outside_view(view.scene, view.camera, view.canvas.width(), view.canvas.height())
    p = view.atom_screen_pos("a4")
    assert 0 <= p.x() <= view.canvas.width() and 0 <= p.y() <= view.canvas.height()


def test_clicking_an_atom_after_rotating_picks_that_atom(view: Any, qtbot: Any) -> None:
    view.set_molecule(WATER_ATOMS, WATER_BONDS)
    # Drag to rotate: the picture changes and picking follows it.
    before = view.atom_screen_pos("a2")
    qtbot.mousePress(view.canvas, Qt.MouseButton.LeftButton, pos=QPoint(50, 50))
    for x in range(52, 140, 8):
        qtbot.mouseMove(view.canvas, QPoint(x, 70))
    qtbot.mouseRelease(view.canvas, Qt.MouseButton.LeftButton, pos=QPoint(140, 70))
    assert view.atom_screen_pos("a2") != before
    with qtbot.waitSignal(view.atomClicked) as blocker:
        click_atom(qtbot, view, "a3")
    assert blocker.args[0] == "a3"
    with qtbot.waitSignal(view.backgroundClicked):
        qtbot.mouseClick(view.canvas, Qt.MouseButton.LeftButton, pos=QPoint(3, 3))


def test_wheel_zoom_and_fit(view: Any) -> None:
    view.set_molecule(WATER_ATOMS, WATER_BONDS)
    s = view.camera.scale
    view.zoom_by(2.0)
    assert view.camera.scale == pytest.approx(2 * s)
    view.fit()
    assert view.camera.scale == pytest.approx(s)


def test_selection_fixed_atoms_and_candidate_are_drawn_with_distinct_rings(view: Any) -> None:
    atoms = [dict(a) for a in WATER_ATOMS]
    atoms[2]["fixed"] = True
    view.set_molecule(atoms, WATER_BONDS)
    view.set_selection(["a2"])
    img = _image(view)

    def ring_pixels(rgb: tuple[int, int, int]) -> int:
        return sum(
            1
            for x in range(img.width())
            for y in range(img.height())
            if _near(img.pixelColor(x, y), rgb, 60)
        )

    assert ring_pixels((255, 217, 0)) > 20  # selected: yellow
    assert ring_pixels((217, 51, 242)) > 20  # fixed: magenta
    moved = [dict(a) for a in atoms]
    moved[1]["x"] = 1.0
    cand = [*moved, new_atom("a4", "H", 0.0, 0.0, 1.2)]
    view.set_molecule(atoms, WATER_BONDS, candidate_atoms=cand, candidate_bonds=WATER_BONDS)
    img = _image(view)
    assert ring_pixels((26, 242, 140)) > 20  # new or moved in the candidate: green
    # The confirmed position of the moved atom is drawn as a faint ghost, not pickable.
    ghosts = [i for i, ok in enumerate(view.scene.pickable) if not ok]
    assert [view.scene.ids[i] for i in ghosts] == ["a2"]


def test_mode_animation_plays_and_stop_restores_the_reference(view: Any, qtbot: Any) -> None:
    ref = [{"element": a["element"], "x": a["x"], "y": a["y"], "z": a["z"]} for a in WATER_ATOMS]
    disp = [(0.0, 0.0, 0.1), (0.0, 0.3, 0.0), (0.0, -0.3, 0.0)]
    view.set_mode_animation(ref, disp, 1.0)
    base = view.scene.pos.copy()
    view.play()
    assert view.playing
    qtbot.waitUntil(lambda: abs(view.scene.pos - base).max() > 0.05, timeout=3000)
    view.stop()
    assert not view.playing
    assert abs(view.scene.pos - base).max() == 0


def _molforma() -> str:
    exe = Path(sys.executable).parent / "molforma"
    return str(exe) if exe.exists() else "molforma"


def test_opengl_screenshot_under_xvfb_shows_the_atoms_colours(tmp_path: Path) -> None:
    src = tmp_path / "water.xyz"
    src.write_text(WATER_XYZ)
    out = tmp_path / "gl.png"
    run_with_opengl([_molforma(), "--screenshot", str(out), str(src)])
    img = QImage(str(out))
    assert img.width() > 800
    red = white = 0
    for x in range(0, img.width(), 2):
        for y in range(0, img.height() // 2 + 200, 2):
            c = img.pixelColor(x, y)
            red += _is_red(c)
            white += _is_white(c) and c.red() < 250  # shaded white balls, not window chrome
    assert red > 200
    assert white > 50


def _water_view(*, show: bool) -> str:
    """Script lines: a 3D view ``v`` (400 x 300, shown or not) holding water."""
    return (
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from molforma.gui.view3d import create_view\n"
        "from molforma.document.envelope import new_atom\n"
        f"v = create_view(); v.resize(400, 300){'; v.show()' if show else ''}\n"
        "atoms = [new_atom('a1', 'O', 0, 0, 0.117), new_atom('a2', 'H', 0, 0.757, -0.469),\n"
        "         new_atom('a3', 'H', 0, -0.757, -0.469)]\n"
        "v.set_molecule(atoms, [{'a': 'a1', 'b': 'a2', 'order': 1}])\n"
    )


def test_opengl_renderer_is_really_used_under_xvfb_and_matches_the_camera() -> None:
    proc = run_gl_script(
        _water_view(show=True) + "for _ in range(20): app.processEvents()\n"
        "img = v.grab().toImage()\n"
        "o = img.pixelColor(v.atom_screen_pos('a1').toPoint())\n"
        "h = img.pixelColor(v.atom_screen_pos('a2').toPoint())\n"
        "print(v.renderer_name, o.red(), o.green(), o.blue(), h.red(), h.green(), h.blue())\n"
    )
    name, *rgb = proc.stdout.split()
    o, h = tuple(map(int, rgb[:3])), tuple(map(int, rgb[3:]))
    assert name == "opengl"
    assert o[0] > 150 and o[1] < 90 and o[2] < 90
    assert min(h) > 170


def test_a_window_start_draws_its_opengl_frame_once_and_only_when_it_is_on_screen(
    tmp_path: Path,
) -> None:
    # Qt paints an OpenGL widget after every resize, twice while the window is shown and
    # before it is exposed: those frames are cleared only; the exposed frame is drawn.
    src = tmp_path / "water.xyz"
    src.write_text(WATER_XYZ)
    proc = run_gl_script(
        "import sys\n"
        "from molforma.gui import launch\n"
        "import molforma.gui.main_window as mw\n"
        "def after(self):\n"
        "    c = self.molecule_tab.view.canvas\n"
        "    img = c.grabFramebuffer()\n"
        "    o = img.pixelColor(self.molecule_tab.view.atom_screen_pos('a1').toPoint())\n"
        "    print(c.renderer_name, c.frames, o.red(), o.green(), o.blue(), flush=True)\n"
        "    from PySide6.QtWidgets import QApplication\n"
        "    QApplication.instance().quit()\n"
        "mw.MainWindow._after_first_frame = after\n"
        "sys.exit(launch.launch_window(sys.argv[1], False, None, False, None, None))\n",
        str(src),
        screen="1600x1200",
        env={"MOLFORMA_CONFIG_DIR": str(tmp_path)},
    )
    name, frames, *rgb = proc.stdout.split()
    assert name == "opengl"
    # the exposed frame (the grab draws one more): without the skip it would be 3 + 1
    assert int(frames) == 2
    r, g, b = map(int, rgb)
    assert r > 150 and g < 90 and b < 90  # the oxygen is drawn where the camera puts it


def test_a_view_never_shown_is_drawn_in_its_first_grab() -> None:
    # the frames skipped at start-up are those of a window being shown, not of a grab
    proc = run_gl_script(
        _water_view(show=False) + "img = v.grab().toImage()\n"
        "o = img.pixelColor(v.atom_screen_pos('a1').toPoint())\n"
        "print(v.renderer_name, v.isVisible(), o.red(), o.green(), o.blue())\n"
    )
    name, visible, *rgb = proc.stdout.split()
    assert name == "opengl" and visible == "False"
    r, g, b = map(int, rgb)
    assert r > 150 and g < 90 and b < 90


def test_view_menu_switches_the_drawing_style(make_main_window: Any) -> None:
    from PySide6.QtGui import QAction

    from molforma.app import ops

    win = make_main_window()
    ops.add_atoms(
        win.ctx.document,
        [{"element": a["element"], "position": [a["x"], a["y"], a["z"]]} for a in WATER_ATOMS],
        bonds=[{"a": "#0", "b": "#1"}, {"a": "#0", "b": "#2"}],
        preview=False,
    )
    view = win.molecule_tab.view
    ball = view.scene.radius.copy()
    assert len(view.scene.line_start) == 2
    win.findChild(QAction, "molforma.view.style_spacefill").trigger()
    assert view.style == "spacefill"
    assert (view.scene.radius > ball).all()
    assert len(view.scene.line_start) == 0
    win.findChild(QAction, "molforma.view.style_sticks").trigger()
    assert (view.scene.radius < ball).all()
    assert len(view.scene.line_start) == 2
    with pytest.raises(ValueError, match="unknown style"):
        view.set_style("cartoon")


def test_a_failing_opengl_setup_falls_back_to_the_painter() -> None:
    proc = run_gl_script(
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "import molforma.gui.view3d.opengl as gl\n"
        "def broken(vs, fs):\n"
        "    raise RuntimeError('shader compiler unavailable')\n"
        "gl._compile = broken\n"
        "from molforma.gui.view3d import create_view\n"
        "from molforma.document.envelope import new_atom\n"
        "v = create_view(); v.resize(300, 200); v.show()\n"
        "v.set_molecule([new_atom('a1', 'O', 0, 0, 0)], [])\n"
        "for _ in range(30): app.processEvents()\n"
        "img = v.grab().toImage()\n"
        "c = img.pixelColor(v.atom_screen_pos('a1').toPoint())\n"
        "print(v.renderer_name, c.red(), c.green(), c.blue())\n"
    )
    name, r, g, b = proc.stdout.split()
    assert name == "painter"
    assert int(r) > 150 and int(g) < 90 and int(b) < 90
    assert "using QPainter" in proc.stderr


def test_a_fitted_molecule_stays_fitted_when_the_view_grows(view: Any, qtbot: Any) -> None:
    view.set_molecule(WATER_ATOMS, WATER_BONDS)
    small = view.camera.scale
    view.resize(800, 600)
    qtbot.waitUntil(lambda: view.camera.scale > 1.5 * small, timeout=2000)
    view.zoom_by(0.5)  # the person zoomed: resizing no longer refits
    zoomed = view.camera.scale
    view.resize(400, 300)
    qtbot.wait(50)
    assert view.camera.scale == pytest.approx(zoomed)


def test_the_first_frame_after_a_resize_is_already_fitted(view: Any, qtbot: Any) -> None:
    view.set_molecule(WATER_ATOMS, WATER_BONDS)
    qtbot.wait(50)
    canvas = view.canvas
    scales: list[float] = []
    original = type(canvas).paintEvent

    def paint(ev: Any) -> None:
        original(canvas, ev)
        scales.append(view.camera.scale)  # the camera this frame was drawn with

    canvas.paintEvent = paint  # type: ignore[method-assign]
    view.resize(800, 600)
    canvas.resize(view.size())  # what the layout does next; an OpenGL canvas is then
    canvas.repaint()  # drawn at once, before the zero timers run
    qtbot.wait(100)  # the zero-timer refit has had its turn
    view.fit()  # what fitting at the new size gives
    assert scales[0] == pytest.approx(view.camera.scale)  # no frame with the old fit
    assert len(scales) == 1  # and no second frame for the refit
    canvas.paintEvent = original.__get__(canvas)  # type: ignore[method-assign]


def _painted(
    view: Any,
    atoms: list[dict[str, Any]],
    bonds: list[dict[str, Any]],
    bond_rgb: tuple[float, float, float],
) -> tuple[QImage, Any]:
    """Render ``atoms`` head-on (model z towards the viewer) with every bond in ``bond_rgb``."""
    import numpy as np
    from PySide6.QtGui import QPainter

    from molforma.gui.view3d.painter import render_scene

    view.set_molecule(atoms, bonds)
    w, h = 400, 300
    view.camera.rot = np.eye(3)
    view.camera.fit(view.scene.pos, view.scene.radius, w, h)
    view.scene.seg_colour[:, :3] = bond_rgb  # a colour no atom has, to tell bond from ball
    img = QImage(w, h, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    render_scene(p, view, float(w), float(h))
    p.end()
    return img, view.camera.to_screen(view.scene.pos, w, h)


def _is_green(c: QColor) -> bool:
    return c.green() > c.red() + 40 and c.green() > c.blue() + 40


def test_painter_draws_a_bond_behind_the_balls_it_joins_even_when_it_points_at_the_viewer(
    view: Any,
) -> None:
    # The carbon is nearer the viewer; the bond leaves the oxygen towards it.
    atoms = [new_atom("a1", "O", 0.0, 0.0, 0.0), new_atom("a2", "C", 0.9, 0.0, 1.2)]
    img, screen = _painted(view, atoms, [{"a": "a1", "b": "a2", "order": 1}], (0.0, 1.0, 0.0))
    assert screen[1, 2] > screen[0, 2]  # the carbon is in front
    o = img.pixelColor(round(float(screen[0, 0])), round(float(screen[0, 1])))
    c = img.pixelColor(round(float(screen[1, 0])), round(float(screen[1, 1])))
    assert _is_red(o), o.name()
    assert not _is_green(c) and abs(c.red() - c.green()) < 40, c.name()  # grey carbon


def test_painter_shades_a_bond_across_its_width_like_the_balls(view: Any) -> None:
    atoms = [new_atom("a1", "O", 0.0, 0.0, 0.0), new_atom("a2", "O", 2.4, 0.0, 0.0)]
    img, screen = _painted(view, atoms, [{"a": "a1", "b": "a2", "order": 1}], (0.1, 0.8, 0.1))
    x = round(float(screen[0, 0] + screen[1, 0]) / 2)
    y0 = round(float(screen[0, 1]))
    column = [img.pixelColor(x, y) for y in range(y0 - 40, y0 + 41)]
    bond = [c for c in column if _is_green(c)]
    assert len(bond) >= 6  # the bond crosses this column, several pixels wide
    brightness = [c.green() for c in bond]
    assert max(brightness) - min(brightness) > 60, brightness
    # Brightest inside the bond, darker at both edges: a cylinder, not a flat band.
    top = brightness.index(max(brightness))
    assert 0 < top < len(brightness) - 1
    assert brightness[0] < max(brightness) - 30 and brightness[-1] < max(brightness) - 30
