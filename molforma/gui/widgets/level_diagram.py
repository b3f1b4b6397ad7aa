"""The MO energy-level diagram of the Orbitals tab (Qt layer, pyqtgraph).

One column of short horizontal lines per spin channel (one for a restricted
wavefunction, alpha beside beta for an unrestricted one), energies in eV: occupied
levels solid and dark, virtual ones dashed and grey, the HOMO and LUMO of each channel
labelled. It reads the results model's orbital records and frontier (the summary's own
HOMO and LUMO), so the diagram, the summary and the orbital table name the same levels.
Clicking a level reports its index (``levelClicked``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QWidget

from molforma.gui.widgets.panel_workers import Retranslatable
from molforma.gui.widgets.plots import _LazyPlot, _style
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    import pyqtgraph as pg
else:  # imported when a plot is first shown (start-up time): molforma.lazy
    pg = lazy_import("pyqtgraph")

HARTREE_EV = 27.211386245988
WINDOW_EV = 12.0  # shown below the HOMO and above the LUMO: core levels would flatten the rest
DEGENERATE_EV = 0.01  # levels closer than this share a row, drawn side by side
# Within a column of width 1: the lines take the left part, the HOMO/LUMO labels the rest,
# so a label never runs into the next column or off the plot.
LINE_START, LINE_END, LABEL_AT = 0.06, 0.5, 0.53
OCCUPIED_PEN = "#1f3b73"
VIRTUAL_PEN = "#9a9a9a"
FRONTIER_PEN = "#c0392b"


@dataclass(frozen=True)
class Level:
    """One drawn level: its orbital's index in the list, channel, energy and marks."""

    index: int
    spin: str
    energy_ev: float
    occupied: bool
    label: str  # "HOMO", "LUMO" or ""
    column: int
    x0: float
    x1: float
    frontier: bool = False  # the HOMO or LUMO, or degenerate with it (drawn alike)


def layout_levels(orbitals: Sequence[Any], frontier: Sequence[Any]) -> list[Level]:
    """Where each orbital's line goes: its spin's column, degenerate levels side by side.

    ``orbitals`` are records with ``index``, ``spin``, ``energy`` (hartree) and
    ``occupation``; ``frontier`` the summary's per-spin HOMO/LUMO (``homoIndex``,
    ``lumoIndex``).
    """
    marks: dict[int, str] = {}
    for f in frontier:
        if f.homoIndex is not None:
            marks[f.homoIndex] = "HOMO"
        if f.lumoIndex is not None:
            marks[f.lumoIndex] = "LUMO"
    spins = [s for s in ("restricted", "alpha", "beta") if any(o.spin == s for o in orbitals)]
    out: list[Level] = []
    for column, spin in enumerate(spins):
        same = sorted((o for o in orbitals if o.spin == spin), key=lambda o: o.energy)
        groups: list[list[Any]] = []
        for o in same:
            if groups and abs(o.energy - groups[-1][0].energy) * HARTREE_EV < DEGENERATE_EV:
                groups[-1].append(o)
            else:
                groups.append([o])
        for group in groups:
            width = (LINE_END - LINE_START) / len(group)
            in_frontier = any(o.index in marks for o in group)
            for k, o in enumerate(group):
                x0 = column + LINE_START + k * width
                out.append(
                    Level(
                        index=o.index,
                        spin=spin,
                        energy_ev=o.energy * HARTREE_EV,
                        occupied=(o.occupation or 0.0) > 0.5,
                        label=marks.get(o.index, ""),
                        column=column,
                        x0=x0 + 0.04 * width,
                        x1=x0 + 0.96 * width,
                        frontier=in_frontier,
                    )
                )
    return out


class LevelDiagram(Retranslatable, _LazyPlot):
    """Orbital energy levels per spin channel, HOMO and LUMO labelled."""

    levelClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, "orbitalLevelDiagram")
        self.levels: list[Level] = []
        self.columns: list[str] = []
        self.setMinimumWidth(160)
        self._draw()

    def set_orbitals(self, orbitals: Sequence[Any], frontier: Sequence[Any]) -> None:
        """Draw ``orbitals`` (the results' orbital list) with the summary's ``frontier``."""
        self.levels = layout_levels(orbitals, frontier)
        seen: list[str] = []
        for lv in self.levels:
            if lv.spin not in seen:
                seen.append(lv.spin)
        self.columns = seen
        self._draw()

    def visible_range(self) -> tuple[float, float] | None:
        """The energy window drawn (eV): from below the lowest HOMO to above the highest LUMO."""
        homos = [lv.energy_ev for lv in self.levels if lv.label == "HOMO"]
        lumos = [lv.energy_ev for lv in self.levels if lv.label == "LUMO"]
        if not self.levels:
            return None
        lo = (min(homos) if homos else min(lv.energy_ev for lv in self.levels)) - WINDOW_EV
        hi = (max(lumos) if lumos else max(lv.energy_ev for lv in self.levels)) + WINDOW_EV
        return lo, hi

    def retranslate_dynamic(self) -> None:
        """Column names follow the language."""
        self._draw()

    def _column_name(self, spin: str) -> str:
        names = {
            "restricted": QCoreApplication.translate("LevelDiagram", "Orbitals"),
            "alpha": QCoreApplication.translate("LevelDiagram", "α (alpha)"),
            "beta": QCoreApplication.translate("LevelDiagram", "β (beta)"),
        }
        return names.get(spin, spin)

    def _build(self, plot: Any) -> None:
        _style(plot)
        plot.showGrid(x=False, y=True, alpha=0.3)
        plot.setMouseEnabled(x=False, y=True)
        plot.scene().sigMouseClicked.connect(self._clicked)
        self._draw()

    def _draw(self) -> None:
        if not self.levels:
            self.set_empty(
                True,
                QCoreApplication.translate("LevelDiagram", "No orbital energies in these results."),
            )
            return
        self.set_empty(False)
        if self._plot is None:
            return  # drawn when the plot is made (first show)
        plot = self._plot
        plot.clear()
        plot.setLabel("left", QCoreApplication.translate("LevelDiagram", "Energy (eV)"))
        axis = plot.getAxis("bottom")
        axis.setTicks(
            [
                [
                    (k + LINE_END / 2 + LINE_START / 2, self._column_name(s))
                    for k, s in enumerate(self.columns)
                ]
            ]
        )
        for lv in self.levels:
            colour = FRONTIER_PEN if lv.frontier else (OCCUPIED_PEN if lv.occupied else VIRTUAL_PEN)
            pen = pg.mkPen(colour, width=3 if lv.occupied else 2)
            if not lv.occupied:
                pen.setStyle(_dash())
            plot.plot([lv.x0, lv.x1], [lv.energy_ev, lv.energy_ev], pen=pen)
            if lv.label:
                text = pg.TextItem(
                    f"{lv.label} {lv.energy_ev:.2f}", color=FRONTIER_PEN, anchor=(0, 0.5)
                )
                text.setPos(lv.column + LABEL_AT, lv.energy_ev)
                plot.addItem(text)
        span = self.visible_range()
        plot.setXRange(0, max(1, len(self.columns)), padding=0)
        if span is not None:
            plot.setYRange(span[0], span[1], padding=0.02)

    def _clicked(self, event: Any) -> None:
        if self._plot is None or not self.levels:
            return
        point = self._plot.getViewBox().mapSceneToView(event.scenePos())
        x, y = float(point.x()), float(point.y())
        lo, hi = self.visible_range() or (0.0, 1.0)
        tolerance = (hi - lo) / 60.0
        near = [
            lv for lv in self.levels if lv.x0 <= x <= lv.x1 and abs(lv.energy_ev - y) <= tolerance
        ]
        if near:
            best = min(near, key=lambda lv: abs(lv.energy_ev - y))
            self.levelClicked.emit(best.index)


def _dash() -> Any:
    return Qt.PenStyle.DashLine


__all__ = ["Level", "LevelDiagram", "layout_levels"]
