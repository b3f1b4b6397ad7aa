"""What the Orbitals tab draws for a density surface, and the sentence beside it (Qt layer).

The total density, the spin density and the electrostatic potential on the density
surface are drawn from meshes the worker computed; this module turns those meshes into the
view's surfaces and the message under the orbital list, so that the panel only wires them.
The texts keep the ``OrbitalPanel`` translation context they had in the panel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication

from molforma.gui.view3d.surfaces import NEGATIVE, POSITIVE, Surface, esp_colours
from molforma.results import orbitals as orb

ESP_LIMIT_PERCENTILE = 98.0  # the colour scale ends where 2 % of the vertices lie beyond


@dataclass(frozen=True)
class DensityDrawing:
    """The surfaces to draw, the message beside them and the ESP range when there is one."""

    surfaces: list[Surface]
    message: str
    esp_range: tuple[float, float] | None = None
    esp_values: Any = None


def density_meshes(
    orbitals: orb.OrbitalSet, kind: str, values: Any, grid: orb.Grid, iso: float
) -> Any:
    """The meshes of a density surface: two lobes for the spin density, one surface for the
    total density, the surface and the potential at its vertices for the ESP."""
    if kind == "spin":
        return orb.isosurfaces(values, grid, iso)
    mesh = orb.density_surface(values, grid, iso)
    if kind == "esp":
        return mesh, orb.esp_on_surface(orbitals, mesh)
    return mesh


def orbital_surfaces(meshes: tuple[orb.Mesh, orb.Mesh]) -> list[Surface]:
    """The positive and negative lobes of an orbital (or of the spin density)."""
    plus, minus = meshes
    return [
        Surface(m.vertices, m.faces, m.normals, rgba)
        for m, rgba in ((plus, POSITIVE), (minus, NEGATIVE))
    ]


def two_s(orbitals: orb.OrbitalSet | None) -> str:
    """2S from the occupations: alpha minus beta electrons ("?" without orbitals)."""
    if orbitals is None:
        return "?"
    alpha = sum(o.occupation for o in orbitals.orbitals if o.spin != "beta")
    beta = sum(o.occupation for o in orbitals.orbitals if o.spin == "beta")
    if not any(o.spin == "beta" for o in orbitals.orbitals):
        alpha = sum(min(o.occupation, 1.0) for o in orbitals.orbitals)
        beta = sum(max(o.occupation - 1.0, 0.0) for o in orbitals.orbitals)
    return f"{alpha - beta:g}"


def density_drawing(
    kind: str, meshes: Any, integral: float | None, isovalue: str, orbitals: orb.OrbitalSet | None
) -> DensityDrawing:
    """Surfaces and message for ``kind`` ("density", "spin" or "esp"); none with a hint
    when the values stay below the isovalue everywhere."""
    first = meshes[0] if isinstance(meshes, tuple) else meshes
    if sum(len(m.faces) for m in (meshes if kind == "spin" else (first,))) == 0:
        return DensityDrawing(
            [],
            QCoreApplication.translate(
                "OrbitalPanel",
                "No surface at the isovalue %1: the values stay below it everywhere; give a "
                "lower isovalue.",
            ).replace("%1", isovalue),
        )
    total = f"{integral:.3f}" if integral is not None else "?"
    if kind == "spin":
        return DensityDrawing(
            orbital_surfaces(meshes),
            QCoreApplication.translate(
                "OrbitalPanel",
                "Spin density: blue where alpha electrons are in excess, red where beta are; "
                "∫(ρα − ρβ) = %1 on the grid (2S = %2).",
            )
            .replace("%1", total)
            .replace("%2", two_s(orbitals)),
        )
    if kind == "esp":
        mesh, esp = meshes

        limit = float(np.percentile(np.abs(esp), ESP_LIMIT_PERCENTILE)) if len(esp) else 0.0
        esp_range = (float(esp.min()), float(esp.max())) if len(esp) else (0.0, 0.0)
        surfaces = [
            Surface(mesh.vertices, mesh.faces, mesh.normals, POSITIVE, esp_colours(esp, limit))
        ]
        return DensityDrawing(
            surfaces,
            QCoreApplication.translate(
                "OrbitalPanel",
                "Electrostatic potential on the %1 e/bohr³ density surface: %2 to %3 "
                "hartree/e (red negative, blue positive; the colours end at ±%4).",
            )
            .replace("%1", isovalue)
            .replace("%2", f"{esp_range[0]:+.4f}")
            .replace("%3", f"{esp_range[1]:+.4f}")
            .replace("%4", f"{limit:.4f}"),
            esp_range,
            esp,
        )
    mesh = meshes
    return DensityDrawing(
        [Surface(mesh.vertices, mesh.faces, mesh.normals, (0.55, 0.55, 0.62, 0.55))],
        QCoreApplication.translate(
            "OrbitalPanel", "Total density: ∫ρ = %1 electrons on the grid (the orbitals hold %2)."
        )
        .replace("%1", total)
        .replace("%2", f"{orbitals.electron_count:g}" if orbitals else "?"),
    )
