"""OpenGL renderer of the 3D view (Qt layer, PyOpenGL, GLSL 3.30 core).

Atoms are ray-cast sphere impostors: one instanced quad per atom whose fragment
shader computes the sphere's normal and depth, so balls are perfectly round at
any zoom for two triangles each. Bonds are an instanced 12-sided cylinder. Per
instance data lives in vertex buffers that are uploaded only when the molecule
changes; rotating, zooming and panning change four uniforms, which keeps 10,000
atoms smooth even on a software rasteriser. The camera mapping is the one in
:mod:`molforma.gui.view3d.scene`, so picking matches the picture exactly.
"""

from __future__ import annotations

import ctypes
import logging
import math
from typing import TYPE_CHECKING, Any

import numpy as np
from OpenGL import GL
from PySide6.QtGui import QMouseEvent, QSurfaceFormat, QWheelEvent
from PySide6.QtOpenGLWidgets import QOpenGLWidget

from molforma.gui.view3d.scene import BACKGROUND, MARK_CANDIDATE, MARK_FIXED, MARK_SELECTED

if TYPE_CHECKING:
    from molforma.gui.view3d.base import MoleculeView

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
    float spec = pow(max(dot(n, h), 0.0), 40.0);
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
const float EXTENT = 1.35;
void main() {
    vec3 c = toView(centre);
    float r = radius * uScale;
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
              : ((m & 4) != 0 ? vec3(0.1, 0.95, 0.55) : vec3(0.85, 0.2, 0.95));
    fragColour = vec4(ring, 1.0);
    gl_FragDepth = (-(vCentre.z) / uDepth) * 0.5 + 0.5;
}
"""

_CYL_VS = "#version 330 core\n" + _COMMON + """
layout(location = 0) in vec3 unitPos;   // x, y on the unit circle, z in 0..1
layout(location = 1) in vec3 pStart;
layout(location = 2) in vec3 pEnd;
layout(location = 3) in float radius;
layout(location = 4) in vec4 colour;
out vec3 vNormal;
out vec4 vColour;
void main() {
    vec3 axis = pEnd - pStart;
    float len = length(axis);
    vec3 d = len > 0.0 ? axis / len : vec3(0.0, 0.0, 1.0);
    vec3 ref = abs(d.z) < 0.9 ? vec3(0.0, 0.0, 1.0) : vec3(1.0, 0.0, 0.0);
    vec3 u = normalize(cross(d, ref));
    vec3 w = cross(d, u);
    vec3 nrm = u * unitPos.x + w * unitPos.y;
    vec3 p = pStart + d * len * unitPos.z + nrm * radius;
    vNormal = uRot * nrm;
    vColour = colour;
    gl_Position = toClip(toView(p));
}
"""

_CYL_FS = "#version 330 core\n" + _COMMON + """
in vec3 vNormal;
in vec4 vColour;
out vec4 fragColour;
void main() {
    fragColour = vec4(shade(vColour.rgb * 0.85, normalize(vNormal)), vColour.a);
}
"""

_CYL_SIDES = 12
_MARK_BITS = (MARK_SELECTED, MARK_FIXED, MARK_CANDIDATE)  # the shader decodes these bits


def default_format() -> QSurfaceFormat:
    """OpenGL 3.3 core with a depth buffer and 4× multisampling."""
    fmt = QSurfaceFormat()
    fmt.setVersion(3, 3)
    fmt.setProfile(QSurfaceFormat.OpenGLContextProfile.CoreProfile)
    fmt.setDepthBufferSize(24)
    fmt.setSamples(4)
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


def _cylinder_mesh() -> tuple[np.ndarray, np.ndarray]:
    verts = []
    for k in range(_CYL_SIDES):
        a = 2 * math.pi * k / _CYL_SIDES
        verts += [(math.cos(a), math.sin(a), 0.0), (math.cos(a), math.sin(a), 1.0)]
    idx = []
    for k in range(_CYL_SIDES):
        a0, a1 = 2 * k, 2 * k + 1
        b0, b1 = (2 * k + 2) % (2 * _CYL_SIDES), (2 * k + 3) % (2 * _CYL_SIDES)
        idx += [a0, b0, a1, a1, b0, b1]
    return np.array(verts, np.float32), np.array(idx, np.uint32)


class GLCanvas(QOpenGLWidget):
    """Draws the view's scene with instanced OpenGL."""

    renderer_name = "opengl"

    def __init__(self, view: MoleculeView) -> None:
        super().__init__(view)
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
        self._n_cyl_idx = 0
        self._uniforms: dict[tuple[int, str], int] = {}

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
        verts, idx = _cylinder_mesh()
        self._n_cyl_idx = len(idx)
        self._cyl_vao = int(GL.glGenVertexArrays(1))
        GL.glBindVertexArray(self._cyl_vao)
        GL.glBindBuffer(GL.GL_ARRAY_BUFFER, self._buffer("cyl"))
        GL.glBufferData(GL.GL_ARRAY_BUFFER, verts.nbytes, verts, GL.GL_STATIC_DRAW)
        self._attrib(0, "cyl", 3, 0)
        self._attrib(1, "s_start", 3, 1)
        self._attrib(2, "s_end", 3, 1)
        self._attrib(3, "s_rad", 1, 1)
        self._attrib(4, "s_col", 4, 1)
        GL.glBindBuffer(GL.GL_ELEMENT_ARRAY_BUFFER, self._buffer("cyl_idx"))
        GL.glBufferData(GL.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx, GL.GL_STATIC_DRAW)
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
        self._upload("s_start", sd.seg_start)
        self._upload("s_end", sd.seg_end)
        self._upload("s_rad", sd.seg_radius)
        self._upload("s_col", sd.seg_colour)
        self._n_atoms = sd.count
        self._n_segs = len(sd.seg_start)
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
            GL.glDrawElementsInstanced(GL.GL_TRIANGLES, self._n_cyl_idx, GL.GL_UNSIGNED_INT,
                                       ctypes.c_void_p(0), self._n_segs)
        GL.glUseProgram(self._sphere_prog)
        self._set_uniforms(self._sphere_prog, w, h, depth)
        GL.glBindVertexArray(self._sphere_vao)
        GL.glDrawArraysInstanced(GL.GL_TRIANGLE_STRIP, 0, 4, self._n_atoms)
        GL.glBindVertexArray(0)
        GL.glUseProgram(0)

    # -- mouse -----------------------------------------------------------------------------
    def mousePressEvent(self, ev: QMouseEvent) -> None:
        """Forward to the view."""
        self._view.handle_press(ev)

    def mouseMoveEvent(self, ev: QMouseEvent) -> None:
        """Forward to the view."""
        self._view.handle_move(ev)

    def mouseReleaseEvent(self, ev: QMouseEvent) -> None:
        """Forward to the view."""
        self._view.handle_release(ev)

    def wheelEvent(self, ev: QWheelEvent) -> None:
        """Forward to the view."""
        self._view.handle_wheel(ev)
