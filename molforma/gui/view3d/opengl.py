"""OpenGL renderer of the 3D view (Qt layer, Qt's OpenGL classes, GLSL 3.30 core).

Atoms are ray-cast sphere impostors: one instanced quad per atom whose fragment
shader computes the sphere's normal and depth, so balls are perfectly round at
any zoom for two triangles each. Bonds are cylinder impostors the same way: one
screen-aligned quad per bond, shaded and depth-corrected as a cylinder. Per
instance data lives in vertex buffers that are uploaded only when the molecule
changes (one buffer per attribute, all atoms in one call); rotating, zooming and
panning change four uniforms, which keeps 10,000 atoms smooth even on a software
rasteriser. The camera mapping is the one in :mod:`molforma.gui.view3d.scene`, so
picking matches the picture exactly.

GL is reached through Qt (``QOpenGLShaderProgram``, ``QOpenGLBuffer``, the context's
``QOpenGLExtraFunctions``), not PyOpenGL: importing PyOpenGL's ``GL`` package builds
some 3,000 function wrappers, a fifth of a second before the window's first frame.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from PySide6.QtGui import QOffscreenSurface, QOpenGLContext, QOpenGLExtraFunctions, QSurfaceFormat
from PySide6.QtOpenGL import (
    QOpenGLBuffer,
    QOpenGLShader,
    QOpenGLShaderProgram,
    QOpenGLVertexArrayObject,
)
from PySide6.QtOpenGLWidgets import QOpenGLWidget

from molforma.gui.view3d import gl, shaders
from molforma.gui.view3d.arrows import ArrowOverlay
from molforma.gui.view3d.forwarding import ForwardsInput
from molforma.gui.view3d.scene import (
    BACKGROUND,
    BOND_RADIUS,
    MARK_CANDIDATE,
    MARK_FIXED,
    MARK_SELECTED,
)
from molforma.gui.view3d.surfaces import SurfaceGL

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from molforma.gui.view3d.rendered import RenderedView

log = logging.getLogger(__name__)

_MARK_BITS = (MARK_SELECTED, MARK_FIXED, MARK_CANDIDATE)  # the shader decodes these bits
# What a change can touch: "all" (a new molecule), the marks, the positions, the surfaces.
_PARTS = ("all", "marks", "positions", "surfaces")
# Level of detail: with more bond lines than this, bonds thinner than
# BOND_LOD_PIXELS on screen are not drawn (at that zoom they are hidden between balls
# that touch, and a million of them would cost more than the atoms).
BOND_LOD_LINES = 50_000
BOND_LOD_PIXELS = 1.5
# With this many atoms, balls no wider than SPRITE_MAX_PIXELS on screen are drawn as
# point sprites (one vertex each) instead of instanced quads.
SPRITE_MIN_ATOMS = 20_000
SPRITE_MAX_PIXELS = 60.0
# A point is clipped by its centre: a sprite whose centre has left the frame would vanish
# whole while part of its ball is still on screen. The point passes draw into a viewport
# this many pixels larger on every side (a guard band; what falls outside the framebuffer
# is dropped), so edge balls stay until they are fully out.
SPRITE_GUARD_PIXELS = 48
# While the camera is dragged (MoleculeView.moving), structures of this many atoms are
# drawn at the interactive level of detail (shaders.FAST_VS/FAST_FS, no bonds); the full picture
# follows when the drag ends. Picking never depends on the drawing (it uses the grid).
LOD_MIN_ATOMS = 20_000
# A software rasteriser pays per point even at one pixel (100,000 points: ~35 ms on two
# loaded cores), so the drag draws at most about this many: every k-th atom, read from the
# same buffers with a k-fold stride. k is a prime other than 3 (a water is three rows, a
# stride of 3 would show the oxygens only) so small repeating units are not sampled in step.
LOD_MAX_POINTS = 50_000
_LOD_STRIDES = (
    1,
    2,
    5,
    7,
    11,
    13,
    17,
    19,
    23,
    29,
    31,
    37,
    41,
    43,
    47,
    53,
    59,
    61,
    67,
    71,
    73,
    79,
    83,
    89,
    97,
)


def lod_stride(n_atoms: int) -> int:
    """The row stride of the interactive level of detail for ``n_atoms`` atoms."""
    need = -(-n_atoms // LOD_MAX_POINTS)
    return next((k for k in _LOD_STRIDES if k >= need), _LOD_STRIDES[-1])


_SOFTWARE_NAMES = ("llvmpipe", "softpipe", "swrast", "swiftshader", "software")
_renderer_name: list[str] = []


def gl_renderer_name() -> str:
    """The GL_RENDERER string of this machine's OpenGL ('' when none), probed once."""
    if not _renderer_name:
        name = ""
        try:
            ctx = QOpenGLContext()
            surf = QOffscreenSurface()
            surf.create()
            if ctx.create() and ctx.makeCurrent(surf):
                name = ctx.functions().glGetString(gl.RENDERER) or ""
                ctx.doneCurrent()
        except Exception as exc:  # noqa: BLE001 - no GL: the caller falls back to QPainter
            log.info("cannot probe OpenGL: %s", exc)
        _renderer_name.append(name)
    return _renderer_name[0]


def default_format() -> QSurfaceFormat:
    """OpenGL 3.3 core with a depth buffer; 4× multisampling on real GPUs.

    Software rasterisers (Mesa llvmpipe) pay for every sample on the CPU, so there
    the edges are left to the impostors' exact silhouettes instead.
    ``MOLFORMA_GL_SAMPLES`` overrides the sample count.
    """
    fmt = QSurfaceFormat()
    fmt.setVersion(3, 3)
    fmt.setProfile(QSurfaceFormat.OpenGLContextProfile.CoreProfile)
    fmt.setDepthBufferSize(24)
    env = os.environ.get("MOLFORMA_GL_SAMPLES", "")
    if env.isdigit():
        samples = int(env)
    else:
        software = any(n in gl_renderer_name().lower() for n in _SOFTWARE_NAMES)
        samples = 0 if software else 4
    fmt.setSamples(samples)
    return fmt


def _compile(vs: str, fs: str) -> QOpenGLShaderProgram:
    """A linked shader program of GLSL sources (RuntimeError with the log otherwise)."""
    prog = QOpenGLShaderProgram()
    for kind, src in (
        (QOpenGLShader.ShaderTypeBit.Vertex, vs),
        (QOpenGLShader.ShaderTypeBit.Fragment, fs),
    ):
        if not prog.addShaderFromSourceCode(kind, src):
            raise RuntimeError(prog.log())
    if not prog.link():
        raise RuntimeError(prog.log())
    return prog


def upload(buf: QOpenGLBuffer, data: Any) -> None:
    """Replace the contents of a vertex buffer by ``data`` as 32-bit floats (the array's
    own memory when it is float32 already: no copy of a million atoms' columns)."""
    arr = np.ascontiguousarray(data, dtype=np.float32)
    buf.bind()
    # An empty buffer still needs a size for some drivers.
    if arr.nbytes == 0:
        buf.allocate(bytes(4), 4)
    else:
        # PySide6's stub names only ``bytes``; any buffer is taken (no copy of a large array).
        buf.allocate(arr.reshape(-1).data.cast("B"), arr.nbytes)  # type: ignore[call-overload]


class GLCanvas(ForwardsInput, QOpenGLWidget):
    """Draws the view's scene with instanced OpenGL."""

    renderer_name = "opengl"

    def __init__(self, view: RenderedView) -> None:
        super().__init__(cast("QWidget", view))  # the view is the canvas's parent widget
        self._view = view
        self.setFormat(default_format())
        self._ok = False
        self._dirty = True
        self._dirty_parts: set[str] = set(_PARTS)
        self._sphere_prog: QOpenGLShaderProgram | None = None
        self._point_prog: QOpenGLShaderProgram | None = None
        self._point_vao: QOpenGLVertexArrayObject | None = None
        self._fast_prog: QOpenGLShaderProgram | None = None
        self._fast_vao: QOpenGLVertexArrayObject | None = None
        self._fast_stride = 0  # the row stride self._fast_vao reads with
        self.lod_frames = 0  # frames drawn at the interactive level of detail (benchmarks)
        self._cyl_prog: QOpenGLShaderProgram | None = None
        self._sphere_vao: QOpenGLVertexArrayObject | None = None
        self._cyl_vao: QOpenGLVertexArrayObject | None = None
        self._buffers: dict[str, QOpenGLBuffer] = {}
        self._f: QOpenGLExtraFunctions | None = None  # the context's, set in initializeGL
        self._n_atoms = 0
        self._n_segs = 0
        self._uniforms: dict[tuple[int, str], int] = {}
        self.frames = 0  # frames drawn (benchmarks check that a repaint really painted)
        self._surfaces: SurfaceGL | None = None
        # Flat 2D glyphs (displacement arrows) go on a transparent child widget: it is
        # composed over the GL frame on screen and in grabs alike.
        self._arrows = ArrowOverlay(view, self)

    def scene_changed(self, parts: Sequence[str] | None = None) -> None:
        """The molecule changed: re-upload instance buffers on the next frame (only the
        marks, the positions or the surfaces when ``parts`` says so)."""
        if parts is None:
            self._dirty_parts = set(_PARTS)
        else:
            self._dirty_parts |= set(parts)
        self._dirty = True
        self.update()

    # -- GL lifecycle ----------------------------------------------------------------------
    def initializeGL(self) -> None:
        """Compile shaders and create buffers; fall back to QPainter when that fails."""
        try:
            ctx = self.context()
            self._f = ctx.extraFunctions()
            self._sphere_prog = _compile(shaders.SPHERE_VS, shaders.SPHERE_FS)
            self._point_prog = _compile(shaders.POINT_VS, shaders.POINT_FS)
            self._fast_prog = _compile(shaders.FAST_VS, shaders.FAST_FS)
            self._cyl_prog = _compile(shaders.CYL_VS, shaders.CYL_FS)
            self._build_vaos()
            self._surfaces = SurfaceGL(self._f, _compile, shaders.COMMON)
            # GL objects go with their context (a re-parented widget gets a new one).
            ctx.aboutToBeDestroyed.connect(self._free_gl)
            self._ok = True
        except Exception as exc:  # noqa: BLE001 - any GL failure: show the painter instead
            log.warning("OpenGL renderer unavailable (%s); using QPainter", exc)
            self._ok = False
            self._view.fall_back_to_painter()

    def _free_gl(self) -> None:
        """Delete the GL objects while their context is still there."""
        self.makeCurrent()
        if self._surfaces is not None:
            self._surfaces.free()
        for buf in self._buffers.values():
            buf.destroy()
        for vao in (self._sphere_vao, self._cyl_vao, self._point_vao, self._fast_vao):
            if vao is not None:
                vao.destroy()
        self._buffers.clear()
        self._uniforms.clear()
        self._sphere_prog = self._cyl_prog = self._point_prog = self._fast_prog = None
        self._sphere_vao = self._cyl_vao = self._point_vao = self._surfaces = None
        self._fast_vao = None
        self._ok = False
        self._dirty = True
        self._dirty_parts = set(_PARTS)
        self.doneCurrent()

    def _gl(self) -> QOpenGLExtraFunctions:
        """The GL functions of this widget's context."""
        if self._f is None:
            self._f = self.context().extraFunctions()
        return self._f

    def _buffer(self, name: str) -> QOpenGLBuffer:
        if name not in self._buffers:
            buf = QOpenGLBuffer(QOpenGLBuffer.Type.VertexBuffer)
            buf.setUsagePattern(QOpenGLBuffer.UsagePattern.DynamicDraw)
            buf.create()
            self._buffers[name] = buf
        return self._buffers[name]

    def _attrib(
        self, prog: QOpenGLShaderProgram, loc: int, buf: str, size: int, divisor: int
    ) -> None:
        self._buffer(buf).bind()
        # The program's setAttributeBuffer, because PySide6's glVertexAttribPointer
        # accepts no offset.
        prog.enableAttributeArray(loc)
        prog.setAttributeBuffer(loc, gl.FLOAT, 0, size, 0)
        self._gl().glVertexAttribDivisor(loc, divisor)

    def _vao(self) -> QOpenGLVertexArrayObject:
        vao = QOpenGLVertexArrayObject()
        if not vao.create():
            raise RuntimeError("no vertex array objects")
        vao.bind()
        return vao

    def _build_vaos(self) -> None:
        sp, cp = self._sphere_prog, self._cyl_prog
        assert sp is not None and cp is not None
        self._sphere_vao = self._vao()
        upload(self._buffer("quad"), [[-1, -1], [1, -1], [-1, 1], [1, 1]])
        for loc, (buf, size, div) in enumerate(
            (("quad", 2, 0), ("a_pos", 3, 1), ("a_rad", 1, 1), ("a_col", 4, 1), ("a_mark", 1, 1))
        ):
            self._attrib(sp, loc, buf, size, div)
        self._sphere_vao.release()
        pp = self._point_prog
        assert pp is not None
        self._point_vao = self._vao()
        for loc, (buf, size) in enumerate(
            (("a_pos", 3), ("a_rad", 1), ("a_col", 4), ("a_mark", 1)), start=1
        ):
            self._attrib(pp, loc, buf, size, 0)
        self._point_vao.release()
        self._fast_vao, self._fast_stride = None, 0  # made for its stride when first drawn
        self._cyl_vao = self._vao()
        upload(self._buffer("strip"), [[0, -1], [1, -1], [0, 1], [1, 1]])
        for loc, (buf, size, div) in enumerate(
            (
                ("strip", 2, 0),
                ("l_start", 3, 1),
                ("l_end", 3, 1),
                ("l_rad", 1, 1),
                ("l_col_a", 4, 1),
                ("l_col_b", 4, 1),
                ("l_split", 1, 1),
            )
        ):
            self._attrib(cp, loc, buf, size, div)
        self._cyl_vao.release()

    def _fast_vao_for(self, stride: int) -> QOpenGLVertexArrayObject:
        """The level-of-detail points' vertex arrays, reading every ``stride``-th atom of
        the atom buffers (no copy of them)."""
        if self._fast_vao is not None and self._fast_stride == stride:
            return self._fast_vao
        if self._fast_vao is not None:
            self._fast_vao.destroy()
        fp = self._fast_prog
        assert fp is not None
        vao = self._vao()
        for loc, (buf, size) in enumerate(
            (("a_pos", 3), ("a_rad", 1), ("a_col", 4), ("a_mark", 1)), start=1
        ):
            self._buffer(buf).bind()
            fp.enableAttributeArray(loc)
            fp.setAttributeBuffer(loc, gl.FLOAT, 0, size, 4 * size * stride)
            self._gl().glVertexAttribDivisor(loc, 0)
        vao.release()
        self._fast_vao, self._fast_stride = vao, stride
        return vao

    def _upload_scene(self) -> None:
        """Upload what changed since the last frame: everything after a new molecule, only
        the marks after a selection, positions and bond lines after a drag."""
        sd = self._view.scene
        parts = self._dirty_parts or set(_PARTS)
        buffers: list[tuple[str, Any]] = []
        if "all" in parts:
            buffers += [
                ("a_rad", sd.radius),
                ("a_col", sd.colour),
                ("l_rad", sd.line_radius),
                ("l_col_a", sd.line_colour_a),
                ("l_col_b", sd.line_colour_b),
            ]
        if parts & {"all", "marks"}:
            buffers.append(("a_mark", sd.mark))
        if parts & {"all", "positions"}:
            buffers += [
                ("a_pos", sd.pos),
                ("l_start", sd.line_start),
                ("l_end", sd.line_end),
                ("l_split", sd.line_split),
            ]
        for name, data in buffers:
            upload(self._buffer(name), data)
        self._n_atoms = sd.count
        self._n_segs = len(sd.line_start)
        if self._surfaces is not None and parts & {"all", "surfaces"}:
            self._surfaces.upload(list(getattr(self._view, "surfaces", [])))
        self._dirty_parts = set()
        self._dirty = False

    def _depth_range(self) -> float:
        """Half the depth the atoms span around the camera centre (plus room for the
        balls), computed once per positions and centre rather than every frame."""
        sd, cam = self._view.scene, self._view.camera
        centre = tuple(float(v) for v in cam.centre)
        cached = sd.cache.get("depth_extent")
        if cached is None or cached[0] != centre:
            extent = float(np.max(np.linalg.norm(sd.pos - cam.centre, axis=1))) + 3.0
            cached = sd.cache["depth_extent"] = (centre, extent)
        return float(cached[1])

    def _set_uniforms(self, prog: QOpenGLShaderProgram, w: float, h: float, depth: float) -> None:
        cam = self._view.camera
        f = self._gl()

        def loc(name: str) -> int:
            key = (prog.programId(), name)
            if key not in self._uniforms:
                self._uniforms[key] = int(prog.uniformLocation(name))
            return self._uniforms[key]

        rot = [float(v) for v in np.asarray(cam.rot, np.float32).ravel()]
        f.glUniformMatrix3fv(loc("uRot"), 1, gl.TRUE, rot)
        f.glUniform3f(loc("uCentre"), *(float(v) for v in cam.centre))
        f.glUniform1f(loc("uScale"), float(cam.scale))
        f.glUniform2f(loc("uPan"), float(cam.pan[0]), float(cam.pan[1]))
        f.glUniform2f(loc("uViewport"), w, h)
        f.glUniform1f(loc("uDepth"), depth)

    def _sprites(self) -> bool:
        """Whether this frame draws the balls as point sprites (see :data:`SPRITE_MIN_ATOMS`)."""
        if self._n_atoms < SPRITE_MIN_ATOMS:
            return False
        sd = self._view.scene
        rmax = sd.cache.get("radius_max")
        if rmax is None:
            rmax = sd.cache["radius_max"] = float(sd.radius.max()) if sd.count else 0.0
        return 2.7 * float(rmax) * float(self._view.camera.scale) <= SPRITE_MAX_PIXELS

    def _interactive(self) -> bool:
        """Whether this frame is drawn at the interactive level of detail (a large
        structure while the camera is dragged; see :data:`LOD_MIN_ATOMS`)."""
        return bool(getattr(self._view, "moving", False)) and self._n_atoms >= LOD_MIN_ATOMS

    def _draw_points(
        self,
        prog: QOpenGLShaderProgram,
        vao: QOpenGLVertexArrayObject,
        w: float,
        h: float,
        depth: float,
        stride: int = 1,
    ) -> None:
        """All atoms as point sprites of ``prog``, in a viewport with a guard band
        (:data:`SPRITE_GUARD_PIXELS`) so that balls at the frame's edge are not clipped by
        their centre; the camera mapping to pixels is the same."""
        f = self._gl()
        m = SPRITE_GUARD_PIXELS
        dpr = float(self.devicePixelRatioF())
        fw, fh, md = round(w * dpr), round(h * dpr), round(m * dpr)
        f.glEnable(gl.PROGRAM_POINT_SIZE)
        f.glViewport(-md, -md, fw + 2 * md, fh + 2 * md)
        prog.bind()
        self._set_uniforms(prog, w + 2 * m, h + 2 * m, depth)
        vao.bind()
        f.glDrawArrays(gl.POINTS, 0, (self._n_atoms - 1) // stride + 1)
        vao.release()
        prog.release()
        f.glViewport(0, 0, fw, fh)

    def _bonds_visible(self) -> bool:
        """Whether this frame draws the bonds (see :data:`BOND_LOD_LINES`)."""
        return (
            self._n_segs <= BOND_LOD_LINES
            or BOND_RADIUS * 2 * float(self._view.camera.scale) >= BOND_LOD_PIXELS
        )

    def resizeGL(self, w: int, h: int) -> None:
        """Qt draws a frame after every resize; while the window is first being shown and is
        not on screen yet (twice) nobody sees that frame, so it is only cleared (see
        paintGL). Any other frame (a grab of a hidden view, a minimised window) is drawn."""
        window = self.window()
        handle = window.windowHandle()
        self._resized_unseen = (
            self.frames == 0
            and window.isVisible()
            and handle is not None
            and not handle.isExposed()
        )

    _resized_unseen = False

    def paintGL(self) -> None:
        """Draw one frame."""
        f = self._gl()
        r, g, b = BACKGROUND
        f.glClearColor(r, g, b, 1.0)
        f.glClear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT)
        if self._resized_unseen:
            # drawn when the window is exposed (10,000 atoms: two draws fewer at start-up)
            self._resized_unseen = False
            self.update()
            return
        self.frames += 1
        self._view.before_paint()
        if not self._ok:
            return
        if self._dirty:
            self._upload_scene()
        if self._n_atoms == 0:
            return
        assert self._sphere_prog is not None and self._cyl_prog is not None
        assert self._sphere_vao is not None and self._cyl_vao is not None
        cam = self._view.camera
        w, h = float(self.width()), float(self.height())
        depth = max(self._depth_range() * cam.scale * 1.5, 10.0)
        f.glEnable(gl.DEPTH_TEST)
        f.glDepthFunc(gl.LESS)
        f.glEnable(gl.BLEND)
        f.glBlendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA)
        fast = self._interactive()
        if fast:
            self.lod_frames += 1
        if self._n_segs and self._bonds_visible() and not fast:
            self._cyl_prog.bind()
            self._set_uniforms(self._cyl_prog, w, h, depth)
            self._cyl_vao.bind()
            f.glDrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, self._n_segs)
            self._cyl_vao.release()
        sprites = self._sprites()
        if fast and sprites and self._fast_prog is not None:
            stride = lod_stride(self._n_atoms)
            f.glDisable(gl.BLEND)  # opaque flat points: no read of the frame per pixel
            self._draw_points(self._fast_prog, self._fast_vao_for(stride), w, h, depth, stride)
            f.glEnable(gl.BLEND)
        elif sprites and self._point_prog is not None and self._point_vao is not None:
            self._draw_points(self._point_prog, self._point_vao, w, h, depth)
        else:
            self._sphere_prog.bind()
            self._set_uniforms(self._sphere_prog, w, h, depth)
            self._sphere_vao.bind()
            f.glDrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, self._n_atoms)
            self._sphere_vao.release()
            self._sphere_prog.release()
        if self._surfaces is not None:
            self._surfaces.draw(lambda prog: self._set_uniforms(prog, w, h, depth))
        wanted = self._arrows.wanted()
        if wanted or self._arrows.isVisible():
            self._arrows.setVisible(wanted)
            self._arrows.setGeometry(self.rect())
            self._arrows.update()  # repainted over this frame, as a child widget
