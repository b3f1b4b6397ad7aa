"""The window's tabs after "1 Molecule": which panels there are, built lazily (Qt layer).

"2 Calculation", "3 Execution", "Results" and "History" are imported when built; a panel
whose module is missing in this build is a visible placeholder. The window started from
the command line builds them right after its first frame; anything that asks for one
before builds them at once.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication, QLabel, QTabWidget, QWidget

from molforma.errors import MolFormaError
from molforma.gui.actions import QT_TRANSLATE_NOOP
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.gui.context import AppContext
    from molforma.gui.widgets import history_panel, results_panel
else:  # imported on first use (start-up time): molforma.lazy
    history_panel = lazy_import("molforma.gui.widgets.history_panel")
    results_panel = lazy_import("molforma.gui.widgets.results_panel")

log = logging.getLogger(__name__)

# (key, module, class, translatable title)
PANELS: list[tuple[str, str, str, str]] = [
    (
        "calculation",
        "molforma.gui.widgets.calculation_panel",
        "CalculationPanel",
        QT_TRANSLATE_NOOP("MainWindow", "2 Calculation"),
    ),
    (
        "execution",
        "molforma.gui.widgets.execution_panel",
        "ExecutionPanel",
        QT_TRANSLATE_NOOP("MainWindow", "3 Execution"),
    ),
    (
        "results",
        "molforma.gui.widgets.results_panel",
        "ResultsPanel",
        QT_TRANSLATE_NOOP("MainWindow", "Results"),
    ),
    (
        "history",
        "molforma.gui.widgets.history_panel",
        "HistoryPanel",
        QT_TRANSLATE_NOOP("MainWindow", "History"),
    ),
]


def tr_main(text: str) -> str:
    """Translate a string marked with QT_TRANSLATE_NOOP("MainWindow", ...)."""
    return QApplication.translate("MainWindow", text)


def missing_text() -> str:
    """What a placeholder tab says (its module is not in this build)."""
    return QApplication.translate(
        "MainWindow", "This part of MolForma is not available in this build."
    )


class WindowPanels(dict[str, QWidget]):
    """The window's panels by key; ``panels[key]`` of one still pending builds the
    panels (``get`` answers None for it instead, for pollers that must not build)."""

    def __init__(
        self, ctx: AppContext, tabs: QTabWidget, parent: QWidget, build_all: Callable[[], None]
    ) -> None:
        super().__init__()
        self._ctx = ctx
        self._tabs = tabs
        self._parent = parent
        self._build_all = build_all  # the window's build_panels (the palette first)
        self.pending: list[str] = []  # keys whose tab holds an empty page for now

    def __missing__(self, key: str) -> QWidget:
        if key in self.pending:
            self._build_all()
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def add_tabs(self, *, defer: bool) -> None:
        """Add a tab per panel: built now, or an empty page until :meth:`build_pending`."""
        for key, module, cls_name, _title in PANELS:
            if defer:
                self.pending.append(key)
                self._tabs.addTab(QWidget(self._tabs), "")
            else:
                self[key] = self._make(key, module, cls_name)
                self._tabs.addTab(self[key], "")

    def build_pending(self) -> None:
        """Build the panels still pending in place of their empty pages."""
        if not self.pending:
            return
        pending, self.pending = self.pending, []
        current = self._tabs.currentIndex()
        blocked = self._tabs.blockSignals(True)
        try:
            for i, (key, module, cls_name, title) in enumerate(PANELS, start=1):
                if key not in pending:
                    continue
                panel = self._make(key, module, cls_name)
                self[key] = panel
                page = self._tabs.widget(i)
                self._tabs.removeTab(i)
                self._tabs.insertTab(i, panel, tr_main(title))
                if page is not None:
                    page.deleteLater()
                if isinstance(panel, QLabel) and panel.property("placeholder"):
                    panel.setText(missing_text())
            self._tabs.setCurrentIndex(current)
        finally:
            self._tabs.blockSignals(blocked)

    def _make(self, key: str, module: str, cls_name: str) -> QWidget:
        try:
            cls_ = getattr(importlib.import_module(module), cls_name)
        except (ImportError, AttributeError) as exc:
            log.info("panel %s not available: %s", key, exc)
            placeholder = QLabel(self._parent)
            placeholder.setObjectName(f"{key}Tab")
            placeholder.setProperty("placeholder", True)
            placeholder.setWordWrap(True)
            return placeholder
        panel: QWidget = cls_(self._ctx, self._parent)
        return panel

    # -- typed access for the window's commands ------------------------------------------------
    def history(self) -> history_panel.HistoryPanel | None:
        """The History panel when built (never builds: for pollers), else None."""
        panel = self.get("history")
        if panel is None or panel.property("placeholder"):
            return None

        return panel if isinstance(panel, history_panel.HistoryPanel) else None

    def results(self) -> results_panel.ResultsPanel:
        """The Results panel (built now if pending).

        Raises:
            MolFormaError: ``window_refused`` when this build has no Results panel.
        """
        panel = self["results"]
        if panel.property("placeholder"):
            raise MolFormaError("window_refused", message="Results tab missing")

        if not isinstance(panel, results_panel.ResultsPanel):
            raise MolFormaError("window_refused", message="Results tab missing")
        return panel
