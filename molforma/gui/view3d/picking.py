"""What is drawn where (Qt layer): atoms inside a rubber band, the bond under the pointer.

Pure functions of the scene, the camera and the canvas size, so the view, its gestures
and tests ask the same question the same way.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF

from molforma.document.arrays import runs
from molforma.gui.view3d.scene import GRID_MIN_ATOMS, Camera, SceneData, atoms_near_ray


def atoms_in_rect(sd: SceneData, camera: Camera, rect: QRectF, w: float, h: float) -> list[str]:
    """Shown atoms whose centres are drawn inside ``rect`` (widget pixels)."""
    if not sd.count:
        return []
    s = camera.to_screen(sd.pos, w, h)
    inside = (
        (s[:, 0] >= rect.left())
        & (s[:, 0] <= rect.right())
        & (s[:, 1] >= rect.top())
        & (s[:, 1] <= rect.bottom())
        & sd.pickable
    )
    return [sd.ids[i] for i in np.nonzero(inside)[0]]


def bond_at(
    sd: SceneData, camera: Camera, pos: QPointF, w: float, h: float, tolerance: float = 5.0
) -> tuple[str, str] | None:
    """The bond drawn under ``pos`` (nearest within its half width + ``tolerance``).

    A large structure tests only the bonds with an atom near the line of sight (the
    picking grid), with the same arithmetic as testing them all."""
    if not len(sd.bond_pairs):
        return None
    limit = 0.12 * camera.scale + tolerance
    pairs = sd.bond_pairs
    bonds = None
    if sd.count >= GRID_MIN_ATOMS:
        longest = sd.cache.get("longest_bond")
        if longest is None:
            longest = sd.cache["longest_bond"] = float(
                np.max(np.linalg.norm(sd.pos[pairs[:, 0]] - sd.pos[pairs[:, 1]], axis=1))
            )
        near = atoms_near_ray(sd, camera, pos.x(), pos.y(), w, h, limit / camera.scale + longest)
        mask = np.zeros(sd.count, dtype=bool)
        if near is not None:
            mask[near] = True
        bonds = np.flatnonzero(mask[pairs[:, 0]] | mask[pairs[:, 1]])
        if len(bonds) == 0:
            return None
        pairs = pairs[bonds]
    used = runs(np.sort(pairs.ravel()))[0] if bonds is not None else None
    if used is None:
        s = camera.to_screen(sd.pos, w, h)[:, :2]
        a, b = s[pairs[:, 0]], s[pairs[:, 1]]
    else:
        su = camera.to_screen(sd.pos[used], w, h)[:, :2]
        a, b = su[np.searchsorted(used, pairs[:, 0])], su[np.searchsorted(used, pairs[:, 1])]
    q = np.array([pos.x(), pos.y()])
    ab = b - a
    t = np.clip(
        np.einsum("ij,ij->i", q - a, ab) / np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-9), 0.0, 1.0
    )
    d = np.linalg.norm(a + ab * t[:, None] - q, axis=1)
    k = int(np.argmin(d))
    if d[k] > limit:
        return None
    i, j = (int(v) for v in pairs[k])
    return str(sd.ids[i]), str(sd.ids[j])
