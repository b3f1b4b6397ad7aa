"""OpenGL renderer of the 3D view (Qt layer, PyOpenGL, GLSL 3.30 core).

Atoms are ray-cast sphere impostors: one instanced quad per atom whose fragment
shader computes the sphere's normal and depth, so balls are perfectly round at
any zoom for two triangles each. Bonds are cylinder impostors the same way: one
screen-aligned quad per bond, shaded and depth-corrected as a cylinder. Per
instance data lives in vertex buffers that are uploaded only when the molecule
changes; rotating, zooming and panning change four uniforms, which keeps 10,000
atoms smooth even on a software rasteriser. The camera mapping is the one in
:mod:`molforma.gui.view3d.scene`, so picking matches the picture exactly.
"""

from __future__ import annotations

import ctypes
import logging
import os
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from OpenGL import GL
from PySide6.QtGui import QSurfaceFormat
from PySide6.QtOpenGLWidgets import QOpenGLWidget

from molforma.gui.view3d.forwarding import ForwardsInput
from molforma.gui.view3d.scene import BACKGROUND, MARK_CANDIDATE, MARK_FIXED, MARK_SELECTED
from molforma.gui.view3d.surfaces import SurfaceGL

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from molforma.gui.view3d.rendered import RenderedView

log = logging.getLogger(__name__)

_COMMON = """
uniform mat3 uRot;
uniform vec3 uCentre;
uniform float uScale;
uniform vec2 uPan;
uniform vec2 uViewport;
uniform float uDepth;
vec3 toView(vec3 p) { return uRot * (p - uCentre) * uScale + vec3(uPan, 0.0); }
vec4 toClip(vec3 v) { return vec4(2.0 * v.x / uViewport.x, 2.0 * v.y / uViewport.y, -v.z / uDepth, 1.0); }
vec3 shade(vec3 base, vec3 n) {
    vec3 l = normalize(vec3(-0.35, 0.45, 1.0));
    float diff = max(dot(n, l), 0.0);
    vec3 h = normalize(l + vec3(0.0, 0.0, 1.0));
    // x^32 by squaring: far cheaper than pow() on software rasterisers.
    float spec = max(dot(n, h), 0.0);
    spec *= spec; spec *= spec; spec *= spec; spec *= spec; spec *= spec;
    return base * (0.28 + 0.72 * diff) + vec3(0.45) * spec;
}
"""

_SPHERE_VS = "#version 330 core\n" + _COMMON + """
layout(location = 0) in vec2 corner;
layout(location = 1) in vec3 centre;
layout(location = 2) in float radius;
layout(location = 3) in vec4 colour;
layout(location = 4) in float mark;
out vec2 vCorner;
out vec4 vColour;
out float vMark;
out vec3 vCentre;
out float vRadius;
void main() {
    vec3 c = toView(centre);
    float r = radius * uScale;
    // Room for a ring only around marked atoms: smaller quads cost less fill.
    float EXTENT = mark > 0.5 ? 1.35 : 1.0;
    vCorner = corner * EXTENT;
    vColour = colour;
    vMark = mark;
    vCentre = c;
    vRadius = r;
    gl_Position = toClip(c + vec3(corner * EXTENT * max(r, 1.5), 0.0));
}
"""

_SPHERE_FS = "#version 330 core\n" + _COMMON + """
in vec2 vCorner;
in vec4 vColour;
in float vMark;
in vec3 vCentre;
in float vRadius;
out vec4 fragColour;
void main() {
    float r2 = dot(vCorner, vCorner);
    int m = int(vMark + 0.5);
    if (r2 <= 1.0) {
        float z = sqrt(1.0 - r2);
        vec3 n = vec3(vCorner, z);
        fragColour = vec4(shade(vColour.rgb, n), vColour.a);
        gl_FragDepth = (-(vCentre.z + z * vRadius) / uDepth) * 0.5 + 0.5;
        return;
    }
    float r = sqrt(r2);
    if (m == 0 || r < 1.1 || r > 1.32) discard;
    vec3 ring = (m & 1) != 0 ? vec3(1.0, 0.85, 0.0)
              : ((m & 8) != 0 ? vec3(1.0, 0.25, 0.2)
              : ((m & 4) != 0 ? vec3(0.1, 0.95, 0.55) : vec3(0.85, 0.2, 0.95)));
    fragColour = vec4(ring, 1.0);
    gl_FragDepth = (-(vCentre.z) / uDepth) * 0.5 + 0.5;
}
"""

_CYL_VS = "#version 330 core\n" + _COMMON + """
layout(location = 0) in vec2 corner;    // x: 0..1 along the bond, y: -1..1 across it
layout(location = 1) in vec3 pStart;
layout(location = 2) in vec3 pEnd;
layout(location = 3) in float radius;
layout(location = 4) in vec4 colourA;
layout(location = 5) in vec4 colourB;
layout(location = 6) in float split;
out float vAcross;
out float vAlong;
out float vZ;
out float vRadius;
flat out vec2 vPerp;
flat out vec4 vColourA;
flat out vec4 vColourB;
flat out float vSplit;
void main() {
    vec3 a = toView(pStart);
    vec3 b = toView(pEnd);
    vec2 axis = b.xy - a.xy;
    float len = length(axis);
    vec2 dir = len > 1e-4 ? axis / len : vec2(1.0, 0.0);
    vec2 perp = vec2(-dir.y, dir.x);
    float r = max(radius * uScale, 0.75);
    vec3 p = mix(a, b, corner.x);
    p.xy += perp * corner.y * r;
    vAcross = corner.y;
    vAlong = corner.x;
    vZ = p.z;
    vRadius = r;
    vPerp = perp;
    vColourA = colourA;
    vColourB = colourB;
    vSplit = split;
    gl_Position = toClip(p);
}
"""

_CYL_FS = "#version 330 core\n" + _COMMON + """
in float vAcross;
in float vAlong;
in float vZ;
in float vRadius;
flat in vec2 vPerp;
flat in vec4 vColourA;
flat in vec4 vColourB;
flat in float vSplit;
out vec4 fragColour;
void main() {
    float h = sqrt(max(1.0 - vAcross * vAcross, 0.0));
    vec3 n = normalize(vec3(vPerp * vAcross, h));
    vec4 c = vAlong < vSplit ? vColourA : vColourB;
    fragColour = vec4(shade(c.rgb * 0.85, n), c.a);
    gl_FragDepth = (-(vZ + h * vRadius) / uDepth) * 0.5 + 0.5;
}
"""

_MARK_BITS = (MARK_SELECTED, MARK_FIXED, MARK_CANDIDATE)  # the shader decodes these bits


_SOFTWARE_NAMES = ("llvmpipe", "softpipe", "swrast", "swiftshader", "software")
_renderer_name: list[str] = []


def gl_renderer_name() -> str:
    """The GL_RENDERER string of this machine's OpenGL ('' when none), probed once."""
    if not _renderer_name:
        name = ""
        try:
            from PySide6.QtGui import QOffscreenSurface, QOpenGLContext

            ctx = QOpenGLContext()
            surf = QOffscreenSurface()
            surf.create()
            if ctx.create() and ctx.makeCurrent(surf):
                raw = GL.glGetString(GL.GL_RENDERER)
                name = raw.decode(errors="replace") if raw else ""
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


def _compile(vs: str, fs: str) -> int:
    prog = GL.glCreateProgram()
    for src, kind in ((vs, GL.GL_VERTEX_SHADER), (fs, GL.GL_FRAGMENT_SHADER)):
        sh = GL.glCreateShader(kind)
        GL.glShaderSource(sh, src)
        GL.glCompileShader(sh)
        if not GL.glGetShaderiv(sh, GL.GL_COMPILE_STATUS):
            raise RuntimeError(GL.glGetShaderInfoLog(sh).decode(errors="replace"))
        GL.glAttachShader(prog, sh)
        GL.glDeleteShader(sh)
    GL.glLinkProgram(prog)
    if not GL.glGetProgramiv(prog, GL.GL_LINK_STATUS):
        raise RuntimeError(GL.glGetProgramInfoLog(prog).decode(errors="replace"))
    return int(prog)


class GLCanvas(ForwardsInput, QOpenGLWidget):
    """Draws the view's scene with instanced OpenGL."""

    renderer_name = "opengl"

    def __init__(self, view: RenderedView) -> None:
        super().__init__(cast("QWidget", view))  # the view is the canvas's parent widget
        self._view = view
        self.setFormat(default_format())
        self._ok = False
        self._dirty = True
        self._sphere_prog = 0
        self._cyl_prog = 0
        self._sphere_vao = 0
        self._cyl_vao = 0
        self._buffers: dict[str, int] = {}
        self._n_atoms = 0
        self._n_segs = 0
        self._uniforms: dict[tuple[int, str], int] = {}
        self.frames = 0  # frames drawn (benchmarks check that a repaint really painted)
        self._surfaces: SurfaceGL | None = None
        # Flat 2D glyphs (displacement arrows) go on a transparent child widget: it is
        # composed over the GL frame on screen and in grabs alike.
        from molforma.gui.view3d.arrows import ArrowOverlay

        self._arrows = ArrowOverlay(view, self)

    def scene_changed(self) -> None:
        """The molecule changed: re-upload instance buffers on the next frame."""
        self._dirty = True
        self.update()

    # -- GL lifecycle ----------------------------------------------------------------------
    def initializeGL(self) -> None:
        """Compile shaders and create buffers; fall back to QPainter when that fails."""
        try:
            self._sphere_prog = _compile(_SPHERE_VS, _SPHERE_FS)
            self._cyl_prog = _compile(_CYL_VS, _CYL_FS)
            self._build_vaos()
            self._surfaces = SurfaceGL(_compile, _COMMON)
            self._ok = True
        except Exception as exc:  # noqa: BLE001 - any GL failure: show the painter instead
            log.warning("OpenGL renderer unavailable (%s); using QPainter", exc)
            self._ok = False
            self._view.fall_back_to_painter()

    def _buffer(self, name: str) -> int:
        if name not in self._buffers:
            self._buffers[name] = int(GL.glGenBuffers(1))
        return self._buffers[name]

    def _attrib(self, loc: int, buf: str, size: int, divisor: int) -> None:
        GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self._buffer(buf))
        GL.glEnableVertexAttribArray(loc)
        GL.glVertexAttribPointer(loc, size, GL.GL_FLOAT, GL.GL_FALSE, 0, ctypes.c_void_p(0))
        GL.glVertexAttribDivisor(loc, divisor)

    def _build_vaos(self) -> None:
        quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
        self._sphere_vao = int(GL.glGenVertexArrays(1))
        GL.glBindVertexArray(self._sphere_vao)
        GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self._buffer("quad"))
        GL.glBufferData(GL.GL_ARRAY_BUFFER, quad.nbytes, quad, GL.GL_STATIC_DRAW)
        self._attrib(0, "quad", 2, 0)
        self._attrib(1, "a_pos", 3, 1)
        self._attrib(2, "a_rad", 1, 1)
        self._attrib(3, "a_col", 4, 1)
        self._attrib(4, "a_mark", 1, 1)
        strip = np.array([[0, -1], [1, -1], [0, 1], [1, 1]], np.float32)
        self._cyl_vao = int(GL.glGenVertexArrays(1))
        GL.glBindVertexArray(self._cyl_vao)
        GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self._buffer("strip"))
        GL.glBufferData(GL.GL_ARRAY_BUFFER, strip.nbytes, strip, GL.GL_STATIC_DRAW)
        self._attrib(0, "strip", 2, 0)
        self._attrib(1, "l_start", 3, 1)
        self._attrib(2, "l_end", 3, 1)
        self._attrib(3, "l_rad", 1, 1)
        self._attrib(4, "l_col_a", 4, 1)
        self._attrib(5, "l_col_b", 4, 1)
        self._attrib(6, "l_split", 1, 1)
        GL.glBindVertexArray(0)

    def _upload(self, name: str, data: Any) -> None:
        arr = np.ascontiguousarray(data, dtype=np.float32)
        GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self._buffer(name))
        # An empty buffer still needs a size for some drivers.
        GL.glBufferData(GL.GL_ARRAY_BUFFER, max(arr.nbytes, 4), arr if arr.size else None,
                        GL.GL_DYNAMIC_DRAW)

    def _upload_scene(self) -> None:
        sd = self._view.scene
        self._upload("a_pos", sd.pos)
        self._upload("a_rad", sd.radius)
        self._upload("a_col", sd.colour)
        self._upload("a_mark", sd.mark.astype(np.float32))
        self._upload("l_start", sd.line_start)
        self._upload("l_end", sd.line_end)
        self._upload("l_rad", sd.line_radius)
        self._upload("l_col_a", sd.line_colour_a)
        self._upload("l_col_b", sd.line_colour_b)
        self._upload("l_split", sd.line_split)
        self._n_atoms = sd.count
        self._n_segs = len(sd.line_start)
        if self._surfaces is not None:
            self._surfaces.upload(list(getattr(self._view, "surfaces", [])))
        self._dirty = False

    def _set_uniforms(self, prog: int, w: float, h: float, depth: float) -> None:
        cam = self._view.camera

        def loc(name: str) -> int:
            key = (prog, name)
            if key not in self._uniforms:
                self._uniforms[key] = int(GL.glGetUniformLocation(prog, name))
            return self._uniforms[key]

        GL.glUniformMatrix3fv(loc("uRot"), 1, GL.GL_TRUE, np.asarray(cam.rot, np.float32))
        GL.glUniform3f(loc("uCentre"), *(float(v) for v in cam.centre))
        GL.glUniform1f(loc("uScale"), float(cam.scale))
        GL.glUniform2f(loc("uPan"), float(cam.pan[0]), float(cam.pan[1]))
        GL.glUniform2f(loc("uViewport"), w, h)
        GL.glUniform1f(loc("uDepth"), depth)

    def paintGL(self) -> None:
        """Draw one frame."""
        self.frames += 1
        r, g, b = BACKGROUND
        GL.glClearColor(r, g, b, 1.0)
        GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
        if not self._ok:
            return
        if self._dirty:
            self._upload_scene()
        if self._n_atoms == 0:
            return
        sd, cam = self._view.scene, self._view.camera
        w, h = float(self.width()), float(self.height())
        extent = float(np.max(np.linalg.norm(sd.pos - cam.centre, axis=1))) + 3.0
        depth = max(extent * cam.scale * 1.5, 10.0)
        GL.glEnable(GL.GL_DEPTH_TEST)
        GL.glDepthFunc(GL.GL_LESS)
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
        if self._n_segs:
            GL.glUseProgram(self._cyl_prog)
            self._set_uniforms(self._cyl_prog, w, h, depth)
            GL.glBindVertexArray(self._cyl_vao)
            GL.glDrawArraysInstanced(GL.GL_TRIANGLE_STRIP, 0, 4, self._n_segs)
        GL.glUseProgram(self._sphere_prog)
        self._set_uniforms(self._sphere_prog, w, h, depth)
        GL.glBindVertexArray(self._sphere_vao)
        GL.glDrawArraysInstanced(GL.GL_TRIANGLE_STRIP, 0, 4, self._n_atoms)
        GL.glBindVertexArray(0)
        GL.glUseProgram(0)
        if self._surfaces is not None:
            self._surfaces.draw(lambda prog: self._set_uniforms(prog, w, h, depth))
        wanted = self._arrows.wanted()
        if wanted or self._arrows.isVisible():
            self._arrows.setVisible(wanted)
            self._arrows.setGeometry(self.rect())
            self._arrows.update()  # repainted over this frame, as a child widget

