"""UV-Vis spectrum of TDDFT/CIS excitations: sticks plus a broadened curve (pyqtgraph).

Like the IR plot: the sticks are the oscillator strengths at each root's wavelength,
the curve is a sum of Gaussians in energy (FWHM in eV, the width chemists quote for
UV-Vis bands) whose peak heights equal the strengths, drawn against wavelength.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDoubleSpinBox, QHBoxLayout, QVBoxLayout, QWidget

from molforma.fileio import atomic_write_bytes, atomic_write_text
from molforma.gui.widgets.panel_workers import Retranslatable
from molforma.gui.widgets.plots import _LazyPlot, _style, broadened, widget_png_bytes
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    import pyqtgraph as pg
else:  # imported when a plot is first shown (start-up time): molforma.lazy
    pg = lazy_import("pyqtgraph")

EV_NM = 1239.84198
DEFAULT_FWHM_EV = 0.4  # a common width for simulated UV-Vis bands in solution


def gaussian_spectrum(
    energies_ev: Sequence[float],
    strengths: Sequence[float],
    fwhm_ev: float,
    grid_ev: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(energy grid in eV, summed Gaussians whose peak heights are the strengths)."""
    e = np.asarray(energies_ev, dtype=float)
    f = np.asarray(strengths, dtype=float)
    if grid_ev is None:
        lo = max(float(e.min()) - 4 * fwhm_ev, 0.5) if e.size else 1.0
        hi = float(e.max()) + 4 * fwhm_ev if e.size else 10.0
        grid_ev = np.linspace(lo, hi, 2000)
    return grid_ev, broadened(e, f, grid_ev, fwhm_ev, "gaussian")


class _UVVisPlot(Retranslatable, _LazyPlot):
    """The plot area: sticks and the curve; pyqtgraph is loaded when it is first shown."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent, "uvvisPlot")
        self._sticks: Any = None
        self._curve: Any = None
        self._data: tuple[list[float], list[float], float, Any] = ([], [], 1.0, None)
        self.setMinimumHeight(160)
        self.draw(*self._data)

    def _build(self, plot: Any) -> None:
        _style(plot)
        self.bind_text(
            lambda: plot.setLabel(
                "bottom", QCoreApplication.translate("UVVisSpectrumWidget", "Wavelength (nm)")
            )
        )
        self.bind_text(
            lambda: plot.setLabel(
                "left", QCoreApplication.translate("UVVisSpectrumWidget", "Oscillator strength")
            )
        )
        plot.getAxis("left").enableAutoSIPrefix(False)
        plot.getAxis("bottom").enableAutoSIPrefix(False)
        self._sticks = pg.BarGraphItem(x=[], height=[], width=1.0, brush="#9467bd", pen=None)
        plot.addItem(self._sticks)
        self._curve = plot.plot([], [], pen=pg.mkPen("#1f77b4", width=2))
        self.draw(*self._data)

    def retranslate_dynamic(self) -> None:
        """The empty-plot line follows the language."""
        self.draw(*self._data)

    def draw(self, nm: list[float], strengths: list[float], width: float, curve: Any) -> None:
        """Sticks at ``nm`` of ``width`` and the broadened ``curve`` (x, y) or none."""
        self._data = (nm, strengths, width, curve)
        self.set_empty(
            not nm,
            QCoreApplication.translate(
                "UVVisSpectrumWidget",
                "No excitations: open the results of a TDDFT or CIS calculation.",
            ),
        )
        if self._sticks is None:
            return
        self._sticks.setOpts(x=nm, height=strengths, width=width)
        self._curve.setData(*(curve if curve is not None else ([], [])))


class UVVisSpectrumWidget(Retranslatable, QWidget):
    """UV-Vis spectrum: sticks, broadened curve, width spin box and PNG/CSV export."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("uvvisPanel")
        self.plot = _UVVisPlot(self)

        self.width_label = self.label(lambda: self.tr("Width (FWHM, eV):"))
        self.width_spin = QDoubleSpinBox(self)
        self.width_spin.setObjectName("uvvisWidthSpin")
        self.width_spin.setRange(0.01, 5.0)
        self.width_spin.setDecimals(2)
        self.width_spin.setSingleStep(0.05)
        self.width_spin.setValue(DEFAULT_FWHM_EV)
        self.width_label.setBuddy(self.width_spin)
        self.export_png = self.button(lambda: self.tr("Export PNG…"), "uvvisExportPng")
        self.export_csv = self.button(lambda: self.tr("Export CSV…"), "uvvisExportCsv")
        row = QHBoxLayout()
        row.addWidget(self.width_label)
        row.addWidget(self.width_spin)
        row.addStretch(1)
        row.addWidget(self.export_png)
        row.addWidget(self.export_csv)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.plot, 1)
        lay.addLayout(row)
        self._ev: list[float] = []
        self._f: list[float] = []
        self.width_spin.valueChanged.connect(self._redraw)
        self._update_enabled()

    def set_excitations(
        self, energies_ev: Sequence[float], strengths: Sequence[float | None]
    ) -> None:
        """Show roots with a positive energy; a spin-forbidden root (None/0) has no stick."""
        ev: list[float] = []
        f: list[float] = []
        for e, s in zip(energies_ev, strengths, strict=False):
            if e is None or float(e) <= 0:
                continue
            ev.append(float(e))
            f.append(float(s or 0.0))
        self._ev, self._f = ev, f
        self._redraw()

    def sticks(self) -> list[tuple[float, float]]:
        """(wavelength in nm, oscillator strength) of the sticks shown."""
        return [(EV_NM / e, f) for e, f in zip(self._ev, self._f, strict=True)]

    def broadened(self) -> tuple[np.ndarray, np.ndarray]:
        """The broadened curve shown now: (wavelength in nm, intensity), by wavelength."""
        grid, y = gaussian_spectrum(self._ev, self._f, self.width_spin.value())
        return (EV_NM / grid)[::-1], y[::-1]

    def _redraw(self) -> None:
        nm = [EV_NM / e for e in self._ev]
        self.plot.draw(
            nm, self._f, max(0.5, _span(nm) / 200.0), self.broadened() if self._ev else None
        )
        self._update_enabled()

    def _update_enabled(self) -> None:
        has = bool(self._ev)
        self.export_png.setEnabled(has)
        self.export_csv.setEnabled(has)

    def write_png(self, path: str | Path) -> None:
        """Save the plot as a PNG file (atomically)."""
        atomic_write_bytes(path, widget_png_bytes(self.plot.plot_widget()))

    def write_csv(self, path: str | Path) -> None:
        """Save the sticks and the broadened curve as CSV (atomically)."""
        x, y = self.broadened()
        lines = [
            f"# fwhm_eV,{self.width_spin.value():.3f}",
            "wavelength_nm,broadened_intensity,oscillator_strength",
        ]
        lines += [f"{w:.4f},,{f:.6g}" for w, f in sorted(self.sticks())]
        lines += [f"{xv:.4f},{yv:.6g}," for xv, yv in zip(x, y, strict=True)]
        atomic_write_text(path, "\n".join(lines) + "\n")


def _span(values: Sequence[float]) -> float:
    return (max(values) - min(values)) if len(values) > 1 else 100.0
