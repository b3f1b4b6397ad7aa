"""3D molecule view (Qt layer): :func:`create_view` picks the renderer.

``MOLFORMA_RENDERER=opengl`` (the default) draws with OpenGL (through Qt); ``painter`` draws
with QPainter. Platforms without OpenGL (``offscreen``, ``minimal``) always get the
painter, because Qt cannot create a GL context there.
"""

from __future__ import annotations

import logging
import os

from PySide6.QtWidgets import QApplication, QWidget

from molforma.gui.view3d.base import MoleculeView

log = logging.getLogger(__name__)

_NO_GL_PLATFORMS = ("offscreen", "minimal", "minimalegl", "vnc")


def chosen_renderer() -> str:
    """``"opengl"`` or ``"painter"`` for this process (environment and platform)."""
    want = os.environ.get("MOLFORMA_RENDERER", "opengl").strip().lower()
    if want != "painter":
        app = QApplication.instance()
        platform = app.platformName() if isinstance(app, QApplication) else ""
        if platform in _NO_GL_PLATFORMS:
            log.info("platform %s has no OpenGL; using the QPainter renderer", platform)
            return "painter"
        try:
            from molforma.gui.view3d.opengl import gl_renderer_name
        except ImportError:  # a build without QtOpenGL
            return "painter"
        if not gl_renderer_name():
            log.warning("no usable OpenGL context; using the QPainter renderer")
            return "painter"
        return "opengl"
    return "painter"


def create_view(parent: QWidget | None = None) -> MoleculeView:
    """A :class:`MoleculeView` with the renderer chosen by ``MOLFORMA_RENDERER``."""
    return MoleculeView(chosen_renderer(), parent)


__all__ = ["MoleculeView", "chosen_renderer", "create_view"]
