"""The window started from the command line shows the Molecule tab first and builds the
other tabs right after its first frame (or as soon as anything asks for one)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QTabWidget, QWidget

TAB_OBJECTS = ["moleculeTab", "calculationTab", "executionTab", "resultsTab", "historyTab"]
TAB_TITLES = ["1 Molecule", "2 Calculation", "3 Execution", "Results", "History"]


@pytest.fixture
def deferred_window(qtbot: Any, tmp_path: Path) -> Iterator[Callable[[], Any]]:
    """Factory of a MainWindow built as ``molforma FILE`` builds it (not shown yet)."""
    from molforma.gui.context import AppContext
    from molforma.gui.main_window import MainWindow

    windows: list[Any] = []

    def factory() -> Any:
        ctx = AppContext.create(data_dir=tmp_path)
        win = MainWindow(ctx, defer_panels=True)
        qtbot.addWidget(win)
        win.resize(1200, 800)
        windows.append(win)
        return win

    yield factory
    for win in windows:
        win.molecule_tab.shutdown()
        win._confirm_discard = lambda: True
        win._confirm_stop_jobs = lambda: True
        win.close()


def _tab_objects(win: Any) -> list[str]:
    tabs = win.findChild(QTabWidget, "mainTabs")
    return [tabs.widget(i).objectName() for i in range(tabs.count())]


def test_before_its_first_frame_the_window_has_five_titled_tabs_and_only_the_molecule_panel(
    deferred_window: Any,
) -> None:
    win = deferred_window()
    tabs = win.findChild(QTabWidget, "mainTabs")
    assert [tabs.tabText(i) for i in range(tabs.count())] == TAB_TITLES
    assert _tab_objects(win)[0] == "moleculeTab"
    assert win.findChild(QWidget, "processesSpin") is None
    assert win.findChild(QWidget, "resultsTab") is None


def test_the_other_panels_are_built_right_after_the_first_frame(
    deferred_window: Any, qtbot: Any
) -> None:
    win = deferred_window()
    win.show()
    qtbot.waitExposed(win)
    qtbot.waitUntil(lambda: _tab_objects(win) == TAB_OBJECTS, timeout=10_000)
    tabs = win.findChild(QTabWidget, "mainTabs")
    assert [tabs.tabText(i) for i in range(tabs.count())] == TAB_TITLES
    assert tabs.currentIndex() == 0
    assert win.panels["results"] is tabs.widget(3)
    assert win.findChild(QWidget, "processesSpin") is not None


def test_asking_for_a_panel_before_the_first_frame_builds_the_panels(deferred_window: Any) -> None:
    win = deferred_window()
    panel = win.panels["history"]
    assert panel.objectName() == "historyTab"
    assert _tab_objects(win) == TAB_OBJECTS
    with pytest.raises(KeyError):
        win.panels["nonsense"]


def test_choosing_a_tab_not_built_yet_builds_it_and_keeps_it_in_front(deferred_window: Any) -> None:
    win = deferred_window()
    win.tabs.setCurrentIndex(2)
    assert win.tabs.currentIndex() == 2
    assert win.tabs.currentWidget().objectName() == "executionTab"
    win.show_tab("results")
    assert win.tabs.currentWidget() is win.panels["results"]


def test_mcp_work_on_the_gui_thread_finds_the_widgets_of_every_tab(deferred_window: Any) -> None:
    win = deferred_window()
    found = win.mcp_bridge.call(lambda: win.findChild(QWidget, "processesSpin"))
    assert found is not None
    assert _tab_objects(win) == TAB_OBJECTS


def test_the_hidden_parts_palette_is_built_after_the_first_frame_in_its_pane(
    deferred_window: Any, qtbot: Any
) -> None:
    win = deferred_window()
    splitter = win.findChild(QWidget, "moleculeSplitter")
    assert win.findChild(QWidget, "partsPalette") is None
    pane = splitter.widget(0)
    win.show()
    qtbot.waitExposed(win)
    qtbot.waitUntil(lambda: win.findChild(QWidget, "partsPalette") is not None, timeout=10_000)
    palette = win.findChild(QWidget, "partsPalette")
    assert splitter.widget(0) is palette and palette is not pane
    assert not palette.isVisible()
    assert splitter.widget(1).objectName() == "viewTableSplitter"
    # it works as the palette built with the window did: shown at its width, chooses
    tab = win.molecule_tab
    tab.toggle_palette(True)
    assert palette.isVisible() and palette.width() >= palette.table.minimumSizeHint().width()
    tab.palette.table.buttons["N"].click()
    assert tab.element == "N" and tab.tool == "add"


def test_the_palette_used_before_the_first_frame_is_built_then(deferred_window: Any) -> None:
    win = deferred_window()
    tab = win.molecule_tab
    tab.set_element("O")  # before the palette exists: it starts with that element
    assert win.findChild(QWidget, "partsPalette") is None
    tab.toggle_palette(True)
    assert win.findChild(QWidget, "partsPalette") is tab.palette
    assert tab.palette.table.buttons["O"].isChecked()
    found = win.mcp_bridge.call(lambda: win.findChild(QWidget, "element_C"))
    assert found is not None
