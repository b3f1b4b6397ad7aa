"""The 3D renderers frame by frame, and the window's start-up to its first complete frame.

Frame time: OpenGL (the window's renderer) and QPainter (the offscreen fallback)
draw the same lattice of 100, 1,000, 2,000 and 10,000 atoms at 1000×800, one frame
each in turn (A B A B ...), the camera turning a little every frame: QPainter into
an image, OpenGL into its framebuffer read back with ``grabFramebuffer`` (so all
GPU work and the copy are counted). OpenGL's draw-only time (``paintGL`` +
``glFinish``, what rotating on screen costs) is printed beside it.

Start-up: a child process starts the real window (``launch_window`` as
``molforma FILE`` does, with a small molecule) and reports when the 3D canvas has
finished its first paint with the whole window around it; the baseline child
shows a bare PySide6 ``QMainWindow`` measured the same way. Both are timed from
process start, with the child's peak RSS at that moment.

Large structures (``--large``): rotation of 100,000 atoms with OpenGL (frames per
second, draw only, as above); picking at 100,000 atoms (the grid over the positions
against testing every atom, the same answer checked); and the first frame of a
100,000 and a 1,000,000-atom water box XYZ opened as ``molforma FILE`` against
Avogadro 2 (Debian's ``avogadro`` 1.97, ``avogadro2 FILE``) on the same file, one
after the other per round. Both first frames are seen the same way from outside: the
bench grabs the Xvfb screen every 0.1 s and stops the clock when oxygen-red pixels
show the molecule (time from process start; a program that shows nothing within the
time-out is reported with what it showed).

OpenGL needs an X server; without a display the script re-runs itself under
``xvfb-run`` (Mesa llvmpipe, i.e. software rendering):

    .venv/bin/python bench/render_bench.py [--sizes 100 1000] [--starts 5]
    .venv/bin/python bench/render_bench.py --sizes --starts 0 --large [--open-sizes 100000 1000000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

from harness import ROOT, Report, Sample, add_output_argument, compare, measure

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
                atoms.append(
                    {
                        "id": aid,
                        "element": elements[(i + j + k) % len(elements)],
                        "x": 1.5 * i,
                        "y": 1.5 * j,
                        "z": 1.5 * k,
                        "fixed": False,
                    }
                )
    bonds = []
    for (i, j, k), aid in index.items():
        for d in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
            other = index.get((i + d[0], j + d[1], k + d[2]))
            if other is not None:
                bonds.append({"a": aid, "b": other, "order": 1})
    return atoms, bonds


def _frames_for(ms_guess: float) -> int:
    return max(5, min(60, int(2000 / max(ms_guess, 1.0))))


def painter_frame(view: Any) -> Any:
    """One painter frame of ``view`` into a 1000×800 image, as a callable."""
    from PySide6.QtGui import QImage, QPainter

    from molforma.gui.view3d.painter import render_scene

    img = QImage(WIDTH, HEIGHT, QImage.Format.Format_ARGB32_Premultiplied)

    def frame() -> None:
        view.camera.rotate(3.0, 1.0)
        p = QPainter(img)
        render_scene(p, view, float(WIDTH), float(HEIGHT))
        p.end()

    return frame


def opengl_frame(view: Any) -> Any:
    """One OpenGL frame of ``view``, read back into an image like the painter's."""
    canvas = view.canvas

    def frame() -> None:
        view.camera.rotate(3.0, 1.0)
        before = canvas.frames
        img = canvas.grabFramebuffer()  # renders (paintGL), finishes and reads the pixels
        if img.isNull() or canvas.frames != before + 1:
            raise RuntimeError("the OpenGL widget did not paint the frame")

    return frame


def bench_opengl_draw(view: Any, frames: int, drag: bool = False) -> float:
    """Milliseconds per OpenGL frame drawn into the widget's framebuffer (no read-back):
    what rotating the molecule on screen costs, apart from Qt's final composition.

    ``drag``: the camera is turned by a left-button drag, the mouse events going through
    the view's own handler (as a person's drag does), so the frames are those the view
    draws while dragging (its interactive level of detail)."""
    from OpenGL import GL
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent

    canvas = view.canvas
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    state = {"x": 100.0}

    def mouse(kind: QEvent.Type, button: Qt.MouseButton, buttons: Any) -> QMouseEvent:
        at = QPointF(state["x"], 300.0)
        return QMouseEvent(kind, at, at, button, buttons, Qt.KeyboardModifier.NoModifier)

    if drag:
        view.handle_press(mouse(QEvent.Type.MouseButtonPress, left, left))
    canvas.makeCurrent()
    try:

        def frame() -> None:
            if drag:
                state["x"] += 6.0
                view.handle_move(mouse(QEvent.Type.MouseMove, none, left))
            else:
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
        if drag:
            view.handle_release(mouse(QEvent.Type.MouseButtonRelease, left, none))


# The start-up children: each prints its peak RSS (KiB) once its first frame is complete.
_FIRST_FRAME_HOOK = """
import os, sys
from PySide6.QtCore import QEvent, QObject, QTimer

def _report():
    with open('/proc/self/status') as s:
        kib = next(l for l in s if l.startswith('VmHWM:')).split()[1]
    os.write(1, f'frame {kib}\\n'.encode())
    os._exit(0)

class _FirstFrame(QObject):
    def __init__(self, name):
        super().__init__()
        self.name, self.seen = name, False
    def eventFilter(self, obj, ev):
        if (not self.seen and ev.type() == QEvent.Type.Paint and obj.objectName() == self.name
                and obj.window().isVisible()):
            self.seen = True
            # After the paint event returns: the whole window's paint pass has finished.
            QTimer.singleShot(0, _report)
        return False
"""
_WINDOW_CHILD = (
    _FIRST_FRAME_HOOK
    + """
from molforma.gui import app as gui_app
from molforma.gui.launch import launch_window
_create = gui_app.create_application

def _create_with_hook(argv=None):
    app = _create(argv)
    app._first_frame = _FirstFrame('moleculeCanvas')
    app.installEventFilter(app._first_frame)
    return app

gui_app.create_application = _create_with_hook
sys.exit(launch_window(sys.argv[1], False, None, False, None, None))
"""
)
_BARE_CHILD = (
    _FIRST_FRAME_HOOK
    + """
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
app = QApplication([])
hook = _FirstFrame('bare')
app.installEventFilter(hook)
w = QMainWindow()
label = QLabel('MolForma')
label.setObjectName('bare')
w.setCentralWidget(label)
w.resize(1200, 800)
w.show()
sys.exit(app.exec())
"""
)


def first_frame(code: str, env: dict[str, str], *args: str) -> Sample:
    """Seconds from spawning ``python -c code`` to its ``frame`` line, and its peak RSS."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    elapsed = time.perf_counter() - t0
    proc.wait(30)
    proc.stdout.close()
    if not line.startswith("frame "):
        raise RuntimeError(f"the start-up child ended without a frame (exit {proc.returncode})")
    return Sample(elapsed, int(line.split()[1]) * 1024)


def lattice_columns(n: int) -> Any:
    """:func:`lattice` as columns (no records: a million atoms in a fraction of a second)."""
    import numpy as np

    from molforma.gui.view3d.structure_arrays import StructureArrays

    side = round(n ** (1 / 3)) + 1
    idx = np.arange(n)
    ijk = np.stack([idx // (side * side), (idx // side) % side, idx % side], axis=1)
    kinds = ((ijk.sum(axis=1)) % 6).astype(np.int32)
    ids = np.empty(n, dtype=object)
    ids[:] = [f"a{i + 1}" for i in range(n)]
    pairs = []
    for step, same in (
        (1, ijk[:-1, 2] + 1 < side),
        (side, ijk[:, 1] + 1 < side),
        (side * side, ijk[:, 0] + 1 < side),
    ):
        a = idx[: n - step][same[: n - step]]
        pairs.append(np.stack([a, a + step], axis=1))
    bonds = np.concatenate(pairs).astype(np.int64)
    return StructureArrays(
        ids,
        kinds,
        ["C", "C", "C", "N", "O", "H"],
        ijk * 1.5,
        np.zeros(n, dtype=bool),
        bonds,
        np.ones(len(bonds), dtype=np.int8),
    )


def rotation_fps(report: Report, n: int, rounds: int) -> None:
    """Frames per second of turning ``n`` atoms with OpenGL (draw + glFinish)."""
    from harness import Side
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from molforma.gui.view3d.base import MoleculeView

    app = QApplication.instance()
    view = MoleculeView("opengl")
    view.resize(WIDTH, HEIGHT)
    view.show()
    QTest.qWaitForWindowExposed(view)
    view.set_molecule(lattice_columns(n), [])
    view.fit()
    for _ in range(5):
        app.processEvents()
    if view.renderer_name != "opengl":
        print("rotation: no OpenGL here")
        view.close()
        return
    drag, still = Side(), Side()
    lod_before = getattr(view.canvas, "lod_frames", 0)
    for _ in range(rounds):
        drag.seconds.append(bench_opengl_draw(view, 20, drag=True) / 1000)
        still.seconds.append(bench_opengl_draw(view, 20) / 1000)
    lod = getattr(view.canvas, "lod_frames", 0) - lod_before
    view.close()
    fps = 1 / drag.time.median
    report.add_single(
        f"rotation_{n}",
        f"OpenGL rotation by a mouse drag, {n:,} atoms (seconds per frame)",
        drag,
        label="OpenGL draw + glFinish during the drag",
        target="≥ 30 fps",
        met=fps >= 30,
        note=f"{fps:.0f} fps median "
        f"({1 / drag.time.max:.0f}–{1 / drag.time.min:.0f}); {lod} of "
        f"{(20 + 3) * rounds} drag frames (3 warm-up each) at the interactive level of detail (flat points, "
        "no bonds; the full picture when the drag ends)",
    )
    sfps = 1 / still.time.median
    report.add_single(
        f"full_frame_{n}",
        f"OpenGL full picture (after the drag), {n:,} atoms (seconds per frame)",
        still,
        label="OpenGL draw + glFinish",
        note=f"{sfps:.0f} fps median ({1 / still.time.max:.0f}–{1 / still.time.min:.0f})",
    )


def picking(report: Report, n: int, repeat: int) -> None:
    """One pick at a random point: the grid against projecting every atom."""
    import numpy as np

    from molforma.gui.view3d.base import MoleculeView
    from molforma.gui.view3d.scene import pick

    view = MoleculeView("painter")
    view.resize(WIDTH, HEIGHT)
    view.set_molecule(lattice_columns(n), [])
    view.rotate_by(20, 10)
    sd, cam = view.scene, view.camera
    rng = np.random.default_rng(1)
    pts = rng.uniform([0, 0], [WIDTH, HEIGHT], size=(repeat + 2, 2)).tolist()
    state = {"i": 0, "j": 0}
    answers: dict[int, Any] = {}

    def grid() -> None:
        x, y = pts[state["i"]]
        answers[state["i"]] = pick(sd, cam, x, y, WIDTH, HEIGHT)
        state["i"] += 1

    def brute() -> None:
        x, y = pts[state["j"]]
        s = cam.to_screen(sd.pos, WIDTH, HEIGHT)
        r = sd.radius * cam.scale
        d2 = (s[:, 0] - x) ** 2 + (s[:, 1] - y) ** 2
        hit = (d2 <= np.maximum(r, 4.0) ** 2) & sd.pickable
        got = None
        if hit.any():
            idx = np.nonzero(hit)[0]
            got = int(idx[np.argmax(s[idx, 2])])
        if got != answers.get(state["j"], got):
            raise RuntimeError("the grid picked another atom than testing every atom")
        state["j"] += 1

    pick(sd, cam, 1.0, 1.0, WIDTH, HEIGHT)  # the grid is made once per positions
    c = compare(grid, brute, repeat=repeat, warmup=1)
    report.add(
        f"pick_{n}",
        f"pick one atom under the pointer, {n:,} atoms",
        c,
        candidate="grid over positions",
        baseline="project and test every atom",
        note="same atom picked at every point",
    )


_RED_MIN = 2000  # oxygen-red pixels that mean "the molecule is on the screen"


def _red_pixels(app: Any) -> int:
    """Oxygen-red pixels on the whole Xvfb screen (both programs draw O in CPK red)."""
    import numpy as np
    from PySide6.QtGui import QImage

    img = app.primaryScreen().grabWindow(0).toImage().convertToFormat(QImage.Format.Format_RGB32)
    buf = np.frombuffer(img.constBits(), dtype=np.uint8).reshape(img.height(), img.bytesPerLine())
    px = buf[:, : img.width() * 4].reshape(img.height(), img.width(), 4)
    b, g, r = px[..., 0].astype(int), px[..., 1].astype(int), px[..., 2].astype(int)
    return int(((r > 150) & (g < 90) & (b < 90)).sum())


def first_frame_seen(app: Any, argv: list[str], env: dict[str, str], timeout: float) -> Sample:
    """Seconds from spawning ``argv`` until the screen shows oxygen-red pixels."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, start_new_session=True
    )
    try:
        while True:
            elapsed = time.perf_counter() - t0
            if _red_pixels(app) >= _RED_MIN:
                return Sample(elapsed)
            if proc.poll() is not None:
                err = (proc.stderr.read() if proc.stderr else b"").decode(errors="replace")
                raise RuntimeError(
                    f"{argv[0]} ended (exit {proc.returncode}) after "
                    f"{elapsed:.1f} s without drawing: {err[-300:]}"
                )
            if elapsed > timeout:
                raise RuntimeError(f"{argv[0]} showed no molecule within {timeout:.0f} s")
            time.sleep(0.1)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 15)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()
        if proc.stderr:
            proc.stderr.close()
        time.sleep(0.5)  # the window is gone before the next start is watched


def open_first_frames(report: Report, sizes: list[int], rounds: int, timeout: float) -> None:
    """``molforma FILE`` against ``avogadro2 FILE``: first frame showing the molecule."""
    from PySide6.QtWidgets import QApplication

    sys.path.insert(0, str(ROOT))
    from tests.mcp.test_large_documents import water_box

    app = QApplication.instance()
    avogadro = shutil.which("avogadro2")
    molforma = str(ROOT / ".venv" / "bin" / "molforma")
    if not os.path.exists(molforma):
        molforma = shutil.which("molforma") or "molforma"
    with tempfile.TemporaryDirectory(prefix="molforma-open-bench-") as tmp:
        env = dict(
            os.environ,
            MOLFORMA_CONFIG_DIR=tmp,
            MOLFORMA_LANGUAGE="en",
            HOME=tmp,
            MOLFORMA_RENDERER="opengl",
            QT_QPA_PLATFORM="xcb",
        )
        for n in sizes:
            path = os.path.join(tmp, f"water_{n}.xyz")
            with open(path, "w") as fh:
                fh.write(water_box(n))
            what = f"open {n:,}-atom water box XYZ → first frame showing it (Xvfb, llvmpipe)"
            ours = lambda p=path: first_frame_seen(app, [molforma, p], env, timeout)  # noqa: E731
            if avogadro is None:
                report.add_single(
                    f"open_frame_{n}",
                    what,
                    measure(ours, repeat=rounds, warmup=0),
                    label="MolForma",
                    note="avogadro2 is not installed",
                )
                continue
            theirs = lambda p=path: first_frame_seen(app, [avogadro, p], env, timeout)  # noqa: E731
            try:
                c = compare(ours, theirs, repeat=rounds, warmup=0)
            except RuntimeError as exc:
                # One side failed: time the other alone and say what the failing one did.
                print(f"open_frame_{n}: {exc}")
                side, label, other = None, "", ""
                for fn, name in ((ours, "MolForma"), (theirs, "Avogadro 2 (1.97)")):
                    try:
                        side, label = measure(fn, repeat=rounds, warmup=0), name
                    except RuntimeError as exc2:
                        other = f"{name}: {exc2}"
                if side is None:
                    print(f"open_frame_{n}: neither side drew: {exc}")
                    continue
                report.add_single(
                    f"open_frame_{n}",
                    what,
                    side,
                    label=label,
                    note=f"the other side failed: {other or exc}",
                )
                continue
            report.add(
                f"open_frame_{n}",
                what,
                c,
                candidate="MolForma (molforma FILE)",
                baseline="Avogadro 2 1.97 (avogadro2 FILE)",
                target="MolForma ≤ Avogadro",
                met=c.ratio.median <= 1.0,
            )


def startup(report: Report, starts: int) -> None:
    """Window start-up to the first complete frame vs a bare Qt window."""
    molecule = str(ROOT / "tests" / "data" / "formats" / "ethanol.mol2")
    with tempfile.TemporaryDirectory(prefix="molforma-render-bench-") as tmp:
        env = dict(
            os.environ,
            MOLFORMA_CONFIG_DIR=tmp,
            MOLFORMA_LANGUAGE="en",
            PYTHONPATH=os.pathsep.join(
                p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p
            ),
        )
        renderer = env.get("MOLFORMA_RENDERER") or (
            "opengl" if env.get("QT_QPA_PLATFORM", "xcb") == "xcb" else "painter"
        )
        c = compare(
            lambda: first_frame(_WINDOW_CHILD, env, molecule),
            lambda: first_frame(_BARE_CHILD, env),
            repeat=starts,
            warmup=1,
        )
    report.add(
        "startup",
        f"window start-up → first complete frame ({renderer}, {env.get('QT_QPA_PLATFORM', 'xcb')})",
        c,
        candidate="MolForma window, ethanol",
        baseline="bare PySide6 QMainWindow",
        target="MolForma < 3 s",
        met=c.candidate.time.median < 3,
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--starts", type=int, default=5, help="window start-ups per side")
    parser.add_argument(
        "--large",
        action="store_true",
        help="also rotation at 100,000 atoms, picking, and opening large files against Avogadro 2",
    )
    parser.add_argument("--open-sizes", type=int, nargs="*", default=[100_000, 1_000_000])
    parser.add_argument("--open-rounds", type=int, default=2)
    parser.add_argument("--open-timeout", type=float, default=600.0)
    add_output_argument(parser)
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY") and os.environ.get("MOLFORMA_BENCH_CHILD") != "1":
        xvfb = shutil.which("xvfb-run")
        if xvfb:
            env = dict(os.environ, MOLFORMA_BENCH_CHILD="1", QT_QPA_PLATFORM="xcb")
            return subprocess.call(
                [
                    xvfb,
                    "-a",
                    "-s",
                    "-screen 0 1280x1024x24",
                    sys.executable,
                    __file__,
                    *sys.argv[1:],
                ],
                env=env,
            )
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
    report = Report(
        "render_bench",
        "python bench/render_bench.py "
        f"--sizes {' '.join(map(str, args.sizes))} --starts {args.starts}"
        + (" --large" if args.large else ""),
        notes=[
            f"render_bench: {app.platformName()}, OpenGL "
            f"{renderer if gl_ok else 'not available'}, {WIDTH}×{HEIGHT} pixels"
        ],
    )
    print(
        f"platform {app.platformName()}, OpenGL: {renderer if gl_ok else 'not available'}, "
        f"{WIDTH}x{HEIGHT} pixels"
    )
    from PySide6.QtTest import QTest

    for n in args.sizes:
        atoms, bonds = lattice(n)
        pview = MoleculeView("painter")
        pview.resize(WIDTH, HEIGHT)
        pview.set_molecule(atoms, bonds)
        pview.camera.fit(pview.scene.pos, pview.scene.radius, WIDTH, HEIGHT)
        frames = _frames_for(n / 20)
        gview = None
        if gl_ok:
            gview = MoleculeView("opengl")
            gview.resize(WIDTH, HEIGHT)
            gview.show()
            QTest.qWaitForWindowExposed(gview)
            for _ in range(10):
                app.processEvents()
            gview.set_molecule(atoms, bonds)
            gview.fit()
            for _ in range(5):
                app.processEvents()
            if gview.renderer_name != "opengl":
                gview.close()
                gview = None
        what = f"frame, {n:,} atoms / {len(bonds):,} bonds"
        if gview is not None:
            c = compare(opengl_frame(gview), painter_frame(pview), repeat=frames, warmup=3)
            draw_ms = bench_opengl_draw(gview, 30)
            target, met = "", None
            if n == 10_000:
                target, met = "OpenGL ≥ 10× faster", c.ratio.median <= 0.1
            elif n == 2000:
                target, met = "interactive (draw < 50 ms)", draw_ms < 50
            report.add(
                f"frame_{n}",
                what,
                c,
                candidate="OpenGL (with read-back)",
                baseline="QPainter",
                target=target,
                met=met,
                note=f"OpenGL draw only {draw_ms:.1f} ms ({1000 / draw_ms:.0f} fps)",
            )
            gview.close()
        else:
            report.add_single(
                f"frame_{n}",
                what,
                measure(painter_frame(pview), repeat=frames),
                label="QPainter (no OpenGL here)",
            )
    if args.large:
        picking(report, 100_000, 50)
        if gl_ok:
            rotation_fps(report, 100_000, 5)
        if gl_ok and args.open_sizes:
            open_first_frames(report, args.open_sizes, args.open_rounds, args.open_timeout)
    if args.starts:
        startup(report, args.starts)
    report.write(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
