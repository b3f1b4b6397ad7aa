"""Isosurfaces drawn over a molecule in both renderers (Qt layer, numpy + OpenGL).

A :class:`Surface` is a triangle mesh in Ångström with one colour, or a colour per vertex
(an electrostatic potential mapped on a density surface, :func:`esp_colours`). The QPainter
renderer draws its triangles far to near, flat-shaded like the atoms, after the
molecule; the OpenGL renderer draws them depth-tested and blended with a small
shader that shares the atoms' camera uniforms, so both renderers agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF

from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from PySide6 import QtOpenGL

    from molforma.gui.view3d import gl
    from molforma.gui.view3d.rendered import RenderedView
else:  # imported on first use (start-up time): molforma.lazy
    QtOpenGL = lazy_import("PySide6.QtOpenGL")
    gl = lazy_import("molforma.gui.view3d.gl")

# The usual orbital colours: positive lobe blue, negative lobe red (Avogadro, Jmol).
POSITIVE = (0.20, 0.45, 0.95, 0.62)
NEGATIVE = (0.92, 0.25, 0.22, 0.62)
# Electrostatic potential maps: negative (electron-rich) red, zero white, positive blue,
# the colours of GaussView, Avogadro and Jmol.
ESP_NEGATIVE = np.array([0.86, 0.16, 0.14])
ESP_ZERO = np.array([0.97, 0.97, 0.97])
ESP_POSITIVE = np.array([0.16, 0.32, 0.90])
_LIGHT = np.array([-0.35, 0.45, 1.0]) / np.linalg.norm([-0.35, 0.45, 1.0])


@dataclass(frozen=True)
class Surface:
    """One coloured triangle mesh (vertices and normals in Å-space, faces as indices)."""

    vertices: np.ndarray
    faces: np.ndarray
    normals: np.ndarray
    rgba: tuple[float, float, float, float]
    colours: np.ndarray | None = None  # (V, 4) RGBA per vertex; overrides rgba when given

    def vertex_colours(self) -> np.ndarray:
        """RGBA per vertex, shape (V, 4)."""
        if self.colours is not None:
            return np.asarray(self.colours, dtype=float)
        return np.tile(np.asarray(self.rgba, dtype=float), (len(self.vertices), 1))


def esp_colours(values: np.ndarray, limit: float, alpha: float = 0.85) -> np.ndarray:
    """RGBA per value: −limit and below red, 0 white, +limit and above blue."""
    x = np.clip(np.asarray(values, dtype=float) / max(float(limit), 1e-12), -1.0, 1.0)[:, None]
    rgb = np.where(
        x < 0, ESP_ZERO + (ESP_NEGATIVE - ESP_ZERO) * (-x), ESP_ZERO + (ESP_POSITIVE - ESP_ZERO) * x
    )
    return np.hstack([rgb, np.full((len(rgb), 1), alpha)])


def draw_surfaces(p: QPainter, view: RenderedView, w: float, h: float) -> None:
    """Paint ``view.surfaces`` over what is drawn already (QPainter renderer)."""
    surfaces = [s for s in getattr(view, "surfaces", []) if len(s.faces)]
    if not surfaces:
        return
    cam = view.camera
    p.setPen(QPen(Qt.PenStyle.NoPen))
    tris, depth, colours = [], [], []
    for surf in surfaces:
        screen = cam.to_screen(surf.vertices, w, h)
        tri = screen[surf.faces]  # (F, 3, 3)
        normals = surf.normals[surf.faces].mean(axis=1) @ np.asarray(cam.rot).T
        lengths = np.linalg.norm(normals, axis=1, keepdims=True)
        normals = normals / np.where(lengths == 0, 1.0, lengths)
        # Two-sided light: the inside of a lobe seen through a hole is lit too.
        lit = 0.35 + 0.65 * np.abs(normals @ _LIGHT)
        tris.append(tri)
        depth.append(tri[:, :, 2].mean(axis=1))
        if surf.colours is not None:
            base = np.asarray(surf.colours, dtype=float)[surf.faces].mean(axis=1)
        else:
            base = np.asarray(surf.rgba)[None, :]
        colours.append(base * np.c_[lit, lit, lit, np.ones(len(lit))])
    all_tris = np.concatenate(tris)
    all_colours = np.concatenate(colours)
    for k in np.argsort(np.concatenate(depth), kind="stable"):  # far to near
        r, g, b, a = (float(v) for v in all_colours[k])
        p.setBrush(QColor.fromRgbF(min(r, 1.0), min(g, 1.0), min(b, 1.0), a))
        t = all_tris[k]
        p.drawPolygon(QPolygonF([QPointF(float(t[i, 0]), float(t[i, 1])) for i in range(3)]))


_MESH_VS = """
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 colour;
out vec3 vNormal;
out vec4 vColour;
out float vZ;
void main() {
    vec3 v = toView(position);
    vNormal = uRot * normal;
    vColour = colour;
    vZ = v.z;
    gl_Position = toClip(v);
}
"""

_MESH_FS = """
in vec3 vNormal;
in vec4 vColour;
in float vZ;
out vec4 fragColour;
void main() {
    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing) n = -n;
    fragColour = vec4(shade(vColour.rgb, n), vColour.a);
}
"""


class SurfaceGL:
    """Vertex buffers and the shader of the surfaces, owned by the GL canvas.

    ``funcs`` is the context's ``QOpenGLExtraFunctions``; ``compile_program`` builds a
    ``QOpenGLShaderProgram`` from GLSL sources.
    """

    def __init__(self, funcs: Any, compile_program: Any, common: str) -> None:
        self._f = funcs
        self.program = compile_program(
            "#version 330 core\n" + common + _MESH_VS, "#version 330 core\n" + common + _MESH_FS
        )
        self._meshes: list[tuple[Any, Any, int, tuple[float, ...]]] = []

    def free(self) -> None:
        """Delete the meshes' GL objects (their context is current)."""
        for vao, vbo, _n, _c in self._meshes:
            vao.destroy()
            vbo.destroy()
        self._meshes = []

    def upload(self, surfaces: list[Surface]) -> None:
        """Replace the meshes (called when the view's surfaces change)."""
        self.free()
        for surf in surfaces:
            if not len(surf.faces):
                continue
            # One vertex per triangle corner: PySide6's glDrawElements takes no index
            # offset, and glDrawArrays needs none.
            corners = np.hstack([surf.vertices, surf.normals, surf.vertex_colours()])[
                np.asarray(surf.faces).ravel()
            ]
            data = np.ascontiguousarray(corners, np.float32)
            vao = QtOpenGL.QOpenGLVertexArrayObject()
            vao.create()
            vao.bind()
            vbo = QtOpenGL.QOpenGLBuffer(QtOpenGL.QOpenGLBuffer.Type.VertexBuffer)
            vbo.create()
            vbo.bind()
            vbo.allocate(data.tobytes(), data.nbytes)
            for loc, offset, size in ((0, 0, 3), (1, 12, 3), (2, 24, 4)):
                self.program.enableAttributeArray(loc)
                self.program.setAttributeBuffer(loc, gl.FLOAT, offset, size, 40)
            vao.release()
            self._meshes.append((vao, vbo, len(data), surf.rgba))

    def draw(self, set_uniforms: Any) -> None:
        """Draw every mesh blended over the molecule (depth test on, depth writes off)."""
        if not self._meshes:
            return

        f = self._f
        self.program.bind()
        set_uniforms(self.program)
        f.glDepthMask(gl.FALSE)
        for vao, _vbo, count, _rgba in self._meshes:
            vao.bind()
            f.glDrawArrays(gl.TRIANGLES, 0, count)
            vao.release()
        f.glDepthMask(gl.TRUE)
        self.program.release()
