"""What a renderer of the 3D view reads of the view (Qt layer).

:class:`molforma.gui.view3d.base.MoleculeView` creates its canvas (QPainter or OpenGL)
and the overlays; they read the view back through :class:`RenderedView`, so none of
them imports the view's module and the view's package has no import circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    from PySide6.QtCore import QRectF

    from molforma.gui.view3d.scene import Camera, SceneData


class RenderedView(Protocol):
    """The state a renderer draws and the two calls it makes (MoleculeView has them)."""

    camera: Camera
    scene: SceneData
    rubber_band: QRectF | None
    measurements: list[tuple[str, ...]]
    labels: dict[str, str]
    surfaces: list[Any]
    show_arrows: bool

    def displacement_arrows(self) -> tuple[np.ndarray, np.ndarray]:
        """``(starts, vectors)`` in model Å of the arrows drawn now."""
        ...

    def fall_back_to_painter(self) -> None:
        """Replace the OpenGL canvas by the QPainter one (no usable GL context)."""
        ...
