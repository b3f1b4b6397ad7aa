"""Frame time of the two 3D renderers for 100, 1,000, 2,000 and 10,000 atoms.

Each frame turns the camera a little and redraws the whole scene at 1000×800
pixels into an image: QPainter directly, OpenGL into its framebuffer, read back
with ``grabFramebuffer`` (so all GPU work and the copy are counted). OpenGL needs an X server; without a
display the script re-runs itself under ``xvfb-run`` (Mesa llvmpipe, i.e.
software rendering), which is how the numbers in the README were taken:

    .venv/bin/python bench/render_bench.py            # or, explicitly:
    xvfb-run -a -s '-screen 0 1280x1024x24' env QT_QPA_PLATFORM=xcb \\
        .venv/bin/python bench/render_bench.py
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from typing import Any

SIZES = (100, 1000, 2000, 10000)
WIDTH, HEIGHT = 1000, 800


def lattice(n: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``n`` atoms on a simple cubic lattice (1.5 Å), bonded to their lattice neighbours."""
    side = round(n ** (1 / 3)) + 1
    atoms: list[dict[str, Any]] = []
    index: dict[tuple[int, int, int], str] = {}
    elements = ("C", "C", "C", "N", "O", "H")
    for i in range(side):
        for j in range(side):
            for k in range(side):
                if len(atoms) == n:
                    break
                aid = f"a{len(atoms) + 1}"
                index[(i, j, k)] = aid
                atoms.append({"id": aid, "element": elements[(i + j + k) % len(elements)],
                              "x": 1.5 * i, "y": 1.5 * j, "z": 1.5 * k, "fixed": False})
    bonds = []
    for (i, j, k), aid in index.items():
        for d in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
            other = index.get((i + d[0], j + d[1], k + d[2]))
            if other is not None:
                bonds.append({"a": aid, "b": other, "order": 1})
    return atoms, bonds


def _frames_for(ms_guess: float) -> int:
    return max(5, min(60, int(2000 / max(ms_guess, 1.0))))


def bench_painter(view: Any, frames: int) -> float:
    """Milliseconds per painter frame into a 1000×800 image."""
    from PySide6.QtGui import QImage, QPainter

    from molforma.gui.view3d.painter import render_scene

    img = QImage(WIDTH, HEIGHT, QImage.Format.Format_ARGB32_Premultiplied)

    def frame() -> None:
        view.camera.rotate(3.0, 1.0)
        p = QPainter(img)
        render_scene(p, view, float(WIDTH), float(HEIGHT))
        p.end()

    frame()
    t0 = time.perf_counter()
    for _ in range(frames):
        frame()
    return (time.perf_counter() - t0) * 1000 / frames


def bench_opengl(view: Any, frames: int) -> float:
    """Milliseconds per OpenGL frame, read back into an image like the painter's."""
    canvas = view.canvas

    def frame() -> None:
        view.camera.rotate(3.0, 1.0)
        img = canvas.grabFramebuffer()  # renders (paintGL), finishes and reads the pixels
        if img.isNull():
            raise RuntimeError("empty OpenGL frame")

    for _ in range(3):
        frame()
    start_frames = canvas.frames
    t0 = time.perf_counter()
    for _ in range(frames):
        frame()
    elapsed = time.perf_counter() - t0
    if canvas.frames - start_frames != frames:
        raise RuntimeError("the OpenGL widget did not paint every frame")
    return elapsed * 1000 / frames


def bench_opengl_draw(view: Any, frames: int) -> float:
    """Milliseconds per OpenGL frame drawn into the widget's framebuffer (no read-back):
    what rotating the molecule on screen costs, apart from Qt's final composition."""
    from OpenGL import GL

    canvas = view.canvas
    canvas.makeCurrent()
    try:
        def frame() -> None:
            view.camera.rotate(3.0, 1.0)
            canvas.paintGL()
            GL.glFinish()

        for _ in range(3):
            frame()
        t0 = time.perf_counter()
        for _ in range(frames):
            frame()
        return (time.perf_counter() - t0) * 1000 / frames
    finally:
        canvas.doneCurrent()


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY") and os.environ.get("MOLFORMA_BENCH_CHILD") != "1":
        xvfb = shutil.which("xvfb-run")
        if xvfb:
            env = dict(os.environ, MOLFORMA_BENCH_CHILD="1", QT_QPA_PLATFORM="xcb")
            return subprocess.call([xvfb, "-a", "-s", "-screen 0 1280x1024x24", sys.executable,
                                    __file__, *sys.argv[1:]], env=env)
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QOpenGLContext
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    from molforma.gui.view3d.base import MoleculeView

    gl_ok = app.platformName() not in ("offscreen", "minimal") and QOpenGLContext().create()
    renderer = "unknown"
    if gl_ok:
        ctx = QOpenGLContext()
        ctx.create()
        from PySide6.QtGui import QOffscreenSurface

        surf = QOffscreenSurface()
        surf.create()
        ctx.makeCurrent(surf)
        from OpenGL import GL

        renderer = GL.glGetString(GL.GL_RENDERER).decode()
        ctx.doneCurrent()
    print(f"platform {app.platformName()}, OpenGL: {renderer if gl_ok else 'not available'}, "
          f"{WIDTH}x{HEIGHT} pixels")
    print(f"{'atoms':>7} {'bonds':>7} {'painter ms':>11} {'opengl ms':>10} {'GL fps':>7} "
          f"{'GL/painter speed-up':>20} {'GL draw-only ms':>16} {'fps':>6}")
    for n in args.sizes:
        atoms, bonds = lattice(n)
        pview = MoleculeView("painter")
        pview.resize(WIDTH, HEIGHT)
        pview.set_molecule(atoms, bonds)
        pview.camera.fit(pview.scene.pos, pview.scene.radius, WIDTH, HEIGHT)
        painter_ms = bench_painter(pview, _frames_for(n / 20))
        gl_ms = draw_ms = float("nan")
        if gl_ok:
            gview = MoleculeView("opengl")
            gview.resize(WIDTH, HEIGHT)
            gview.show()
            from PySide6.QtTest import QTest

            QTest.qWaitForWindowExposed(gview)
            for _ in range(10):
                app.processEvents()
            gview.set_molecule(atoms, bonds)
            gview.fit()
            for _ in range(5):
                app.processEvents()
            if gview.renderer_name == "opengl":
                gl_ms = bench_opengl(gview, 30)
                draw_ms = bench_opengl_draw(gview, 30)
            gview.close()
        ratio = painter_ms / gl_ms if gl_ms == gl_ms else float("nan")
        fps = 1000 / gl_ms if gl_ms == gl_ms else float("nan")
        print(f"{n:>7} {len(bonds):>7} {painter_ms:>11.1f} {gl_ms:>10.1f} {fps:>7.1f} "
              f"{ratio:>19.1f}x {draw_ms:>16.1f} {1000 / draw_ms:>6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
