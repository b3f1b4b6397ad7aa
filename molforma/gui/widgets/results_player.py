"""The Results tab's structures and modes: the structure shown, trajectory playback and
normal-mode animation, and 'Use this structure' (Qt layer)."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QTabWidget,
    QWidget,
)

from molforma.app import ops
from molforma.app.actor import window_actor
from molforma.errors import ResultsError
from molforma.gui.widgets.panel_workers import (
    QT_TRANSLATE_NOOP,
    error_text,
    failure_text,
    reports_errors,
)
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    pass
    from molforma import results
else:  # imported on first use (start-up time): molforma.lazy
    results = lazy_import("molforma.results")

from PySide6.QtCore import QCoreApplication

from molforma.gui.widgets.results_support import (
    MODE_ROLE,
    ResultsPanelHost,
    _atoms_of,
)

log = logging.getLogger(__name__)


def _in_status_line(player: StructurePlayer, exc: BaseException) -> None:
    player.panel.status_label.setText(error_text(exc))


def _cannot_use(player: StructurePlayer, exc: BaseException) -> None:
    """The document is unchanged: the status line says why."""
    player.panel.status_label.setText(
        failure_text(
            "ResultsPanel", QT_TRANSLATE_NOOP("ResultsPanel", "Cannot use the structure: %1"), exc
        )
    )


class StructurePlayer:
    """Shows a structure or animates a trajectory or a normal mode.

    The widgets and the state stay on the tab (``self.panel``).
    """

    def __init__(self, panel: ResultsPanelHost) -> None:
        self.panel = panel

    def show_structure(self, index: int) -> None:
        """Show structure ``index`` (0-based) of the trajectory in the 3D view."""
        res = self.panel.results
        if res is None or not 0 <= index < len(res.structures):
            raise ResultsError(
                "results_bad_structure",
                index=index,
                count=len(res.structures) if res is not None else 0,
            )
        self._stop_animation()
        self.panel._mode = None
        st = res.structures[index]
        if self.panel.trajectory_slider.value() != index:
            with self.panel._quiet():
                self.panel.trajectory_slider.setValue(index)
        self.panel.view.set_mode_animation(_atoms_of(st), None, 0.0)
        self._mark_energy(index)
        energy = f", {st.energy:.8f} Eh" if st.energy is not None else ""
        self.panel.trajectory_label.setText(
            f"{index + 1}/{len(res.structures)} {self._structure_label(st.label)}{energy}"
        )
        self.panel._update_charge_labels()
        self.panel._update_buttons()

    def use_structure(self, index: int | None = None) -> bool:
        """Put trajectory structure ``index`` (default: the one on the slider, which starts
        at the final one) into the editor as a candidate, as a person's edit; then show
        the Molecule tab, where it is confirmed or cancelled."""
        res = self.panel.results
        if index is None:
            index = self.panel.trajectory_slider.value()
        if res is None or not 0 <= index < len(res.structures):
            self.panel.status_label.setText(
                error_text(
                    ResultsError(
                        "results_bad_structure",
                        index=index,
                        count=len(res.structures) if res is not None else 0,
                    )
                )
            )
            return False

        st = res.structures[index]
        if not self._use(ops, st):
            return False
        self.panel.status_label.setText(
            QCoreApplication.translate(
                "ResultsPanel",
                "Structure %1 is a candidate in the Molecule tab: confirm or cancel it there.",
            ).replace("%1", f"{index + 1} ({self._structure_label(st.label)})")
        )
        self._show_tab("moleculeTab")
        return True

    def _show_tab(self, name: str) -> None:
        w: QWidget | None = self.panel.parentWidget()
        while w is not None:
            if isinstance(w, QTabWidget) and w.objectName() == "mainTabs":
                for i in range(w.count()):
                    page = w.widget(i)
                    if page is not None and page.objectName() == name:
                        w.setCurrentIndex(i)
                        return
            w = w.parentWidget()

    def _structure_label(self, label: str) -> str:
        """A structure's label from the results ('input', 'step 3', ...) in the display language."""
        words = {
            "input": QCoreApplication.translate("ResultsPanel", "input"),
            "final": QCoreApplication.translate("ResultsPanel", "final"),
            "geometry": QCoreApplication.translate("ResultsPanel", "geometry"),
            "reference": QCoreApplication.translate("ResultsPanel", "reference"),
            "atoms": QCoreApplication.translate("ResultsPanel", "atoms"),
        }
        if label in words:
            return words[label]
        kind, _, number = label.partition(" ")
        if number.isdigit() and kind == "step":
            return QCoreApplication.translate("ResultsPanel", "step %1").replace("%1", number)
        if number.isdigit() and kind == "frame":
            return QCoreApplication.translate("ResultsPanel", "frame %1").replace("%1", number)
        return label

    def _mark_energy(self, structure: int) -> None:
        """Highlight the energy point of ``structure`` on the energy plot, if it has one."""
        for i, point in enumerate(self.panel._plotted):
            if point.structureIndex == structure:
                self.panel.energy_plot.set_marker(i)
                return
        # The final geometry repeats the last step: match it by its energy.
        res = self.panel.results
        energy = res.structures[structure].energy if res is not None else None
        if energy is not None:
            for i in range(len(self.panel._plotted) - 1, -1, -1):
                if abs(self.panel._plotted[i].energy - energy) < 1e-9:
                    self.panel.energy_plot.set_marker(i)
                    return
        self.panel.energy_plot.set_marker(None)

    def _slider_moved(self, value: int) -> None:
        if self.panel._updating:
            return
        with contextlib.suppress(ResultsError):
            self.show_structure(int(value))

    def _selected_mode(self) -> int | None:
        items = self.panel.modes_table.selectedItems()
        if not items:
            return None
        v = items[0].data(MODE_ROLE)
        return None if v is None else int(v)

    def _mode_selected(self) -> None:
        if self.panel._updating:
            return
        idx = self._selected_mode()
        if idx is None:
            self.panel._update_buttons()
            return
        self._prepare_mode(idx)
        self.panel._update_buttons()

    def _prepare_mode(self, index: int) -> bool:
        """Show mode ``index`` ready to animate; False when it has no displacements."""
        res = self.panel.results
        if res is None or not 0 <= index < len(res.modes):
            return False
        self._stop_animation()
        self.panel._mode = index
        if not res.modes[index].hasDisplacements:
            ref = res.reference_structure()
            if ref is not None:
                self.panel.view.set_mode_animation(_atoms_of(ref), None, 0.0)
            return False

        data = results.get_section(res, "mode_displacements", mode=index)
        items = data["items"]
        atoms = [
            {
                "element": it["element"],
                "x": it["position"][0],
                "y": it["position"][1],
                "z": it["position"][2],
            }
            for it in items
        ]
        disp = [tuple(it["displacement"]) for it in items]
        self.panel.view.set_mode_animation(atoms, disp, self.panel.amplitude_spin.value())
        self._show_mode_label(index)
        return True

    def _show_mode_label(self, index: int) -> None:
        """'Mode 7: 1635.31 cm⁻¹', with the IR tab's scale factor applied."""
        if self.panel.results is None:
            return
        m = self.panel.results.modes[index]
        self.panel.trajectory_label.setText(
            QCoreApplication.translate("ResultsPanel", "Mode %1: %2 cm⁻¹")
            .replace("%1", str(index + 1))
            .replace("%2", f"{m.frequency * self.panel.ir.scale_factor:.2f}")
        )

    def play_mode(self, index: int, amplitude: float | None = None) -> None:
        """Animate mode ``index`` (0-based), positive and imaginary alike.

        Raises:
            ResultsError: no results, a bad index, or a mode without displacements.
        """
        res = self.panel.results
        if res is None or not 0 <= index < len(res.modes):
            raise ResultsError(
                "results_bad_mode", mode=index, count=len(res.modes) if res is not None else 0
            )
        if not res.modes[index].hasDisplacements:
            raise ResultsError("results_no_displacements", mode=index)
        if amplitude is not None:
            if not 0 < float(amplitude) <= self.panel.amplitude_spin.maximum():
                raise ResultsError(
                    "results_bad_amplitude",
                    amplitude=amplitude,
                    max=self.panel.amplitude_spin.maximum(),
                )
            self.panel.amplitude_spin.blockSignals(True)
            self.panel.amplitude_spin.setValue(float(amplitude))
            self.panel.amplitude_spin.blockSignals(False)
        if self._selected_mode() != index:
            with self.panel._quiet():
                self.panel.modes_table.selectRow(self._row_of_mode(index))
        self._prepare_mode(index)
        self.panel.view.play()
        self.panel._update_buttons()

    def _row_of_mode(self, index: int) -> int:
        for row in range(self.panel.modes_table.rowCount()):
            item = self.panel.modes_table.item(row, 0)
            if item is not None and item.data(MODE_ROLE) == index:
                return row
        return index

    @reports_errors(_in_status_line, returns=None)
    def _play_clicked(self) -> None:
        idx = self._selected_mode()
        if idx is not None:
            self.play_mode(idx)
        elif self._can_play_frames():
            self.panel._frame_timer.start()
            self.panel._update_buttons()

    def _can_play_frames(self) -> bool:
        res = self.panel.results
        return res is not None and len(res.structures) > 1

    def _next_frame(self) -> None:
        res = self.panel.results
        if res is None or len(res.structures) < 2:
            self.panel._frame_timer.stop()
            return
        nxt = (self.panel.trajectory_slider.value() + 1) % len(res.structures)
        self.show_structure_keep_playing(nxt)

    def show_structure_keep_playing(self, index: int) -> None:
        """Advance trajectory playback to ``index`` without stopping it."""
        res = self.panel.results
        if res is None:
            return
        st = res.structures[index]
        with self.panel._quiet():
            self.panel.trajectory_slider.setValue(index)
        self.panel.view.set_mode_animation(_atoms_of(st), None, 0.0)
        self._mark_energy(index)
        self.panel.trajectory_label.setText(f"{index + 1}/{len(res.structures)} {st.label}")

    def _amplitude_changed(self, _value: float) -> None:
        if self.panel._mode is None:
            return
        playing = self.playing
        self._prepare_mode(self.panel._mode)
        if playing:
            self.panel.view.play()

    def _stop_animation(self) -> None:
        self.panel._frame_timer.stop()
        self.panel.view.stop()

    def stop(self) -> None:
        """Stop a mode animation or trajectory playback."""
        self._stop_animation()
        self.panel._update_buttons()

    @property
    def playing(self) -> bool:
        """True while a mode or the trajectory is animated."""
        return bool(self.panel.view.playing) or self.panel._frame_timer.isActive()

    @reports_errors(_cannot_use, returns=False)
    def _use(self, ops: Any, st: Any) -> bool:
        ops.use_structure(
            self.panel.ctx.document,
            st.symbols,
            st.coordinates,
            label="Use computed structure",
            preview=True,
            actor=window_actor(),
        )
        return True
