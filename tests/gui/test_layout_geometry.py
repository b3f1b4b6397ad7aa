"""Every tab at the default 1280×800 in English and Japanese, checked by geometry rather
than by eye: every visible label, button, check box and group title shows its whole text,
every visible widget lies inside the window and inside what holds it (a form in a scroll
area is not cut on the right), buttons beside each other do not overlap, combo boxes show
their whole current text, and list views show more than an ellipsis. The Execution tab is
checked while a job runs (status line, progress and bar shown)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QRect, Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QCheckBox,
    QComboBox,
    QGroupBox,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QStyle,
    QStyleOptionComboBox,
    QTabBar,
    QToolButton,
    QTreeWidget,
    QWidget,
)

from molforma.app import ops
from molforma.gui.app import set_language
from tests.gui.helpers import WATER
from tests.paths import NWCHEM_DATA

FAKE_NWCHEM = Path(__file__).resolve().parents[1] / "stand_in" / "fake_nwchem.py"
SIZE = (1280, 800)


def _inside_item_view(w: QWidget, top: QWidget) -> bool:
    """Parts of item views and scroll bars (headers, editors, viewports) are drawn and
    clipped by the view itself."""
    p = w.parentWidget()
    while p is not None and p is not top:
        if isinstance(p, QAbstractItemView | QTabBar):
            return True
        p = p.parentWidget()
    return False


def _scroll_area_of(w: QWidget, top: QWidget) -> QScrollArea | None:
    """The scroll area whose content holds ``w`` (its own scroll bars are not content)."""
    p = w.parentWidget()
    while p is not None and p is not top:
        if isinstance(p, QScrollArea):
            content = p.widget()
            return p if content is not None and (w is content or content.isAncestorOf(w)) else None
        p = p.parentWidget()
    return None


def _text_lines(text: str) -> list[str]:
    return [
        line
        for line in text.replace("&&", "\0").replace("&", "").replace("\0", "&").splitlines()
        if line
    ]


def _menu_indicator(w: QAbstractButton) -> int:
    if (
        isinstance(w, QToolButton)
        and w.menu() is not None
        and w.popupMode() != QToolButton.ToolButtonPopupMode.DelayedPopup
    ):
        return w.style().pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, None, w)
    if isinstance(w, QPushButton) and w.menu() is not None:
        return w.style().pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, None, w)
    return 0


def _clipped_text(w: QWidget) -> str | None:
    """Why the text of ``w`` does not fit its box, or None."""
    fm = w.fontMetrics()
    if isinstance(w, QLabel):
        if w.wordWrap() or (w.pixmap() is not None and not w.pixmap().isNull()):
            return None
        text = w.text()
        if GuiQt.mightBeRichText(text) or w.textFormat() == Qt.TextFormat.RichText:
            return None
        room = w.contentsRect().width() - 2 * max(w.margin(), 0) - max(w.indent(), 0)
        need = max((fm.horizontalAdvance(line) for line in _text_lines(text)), default=0)
    elif isinstance(w, QAbstractButton):
        lines = _text_lines(w.text())
        if not lines:
            return None
        need = max(fm.horizontalAdvance(line) for line in lines) + _menu_indicator(w)
        if isinstance(w, QCheckBox | QRadioButton):
            need += w.style().pixelMetric(
                QStyle.PixelMetric.PM_IndicatorWidth, None, w
            ) + w.style().pixelMetric(QStyle.PixelMetric.PM_CheckBoxLabelSpacing, None, w)
        elif not w.icon().isNull():
            need += w.iconSize().width() + 4
        room = w.contentsRect().width() - (0 if isinstance(w, QCheckBox | QRadioButton) else 6)
    elif isinstance(w, QGroupBox):
        if not w.title():
            return None
        need = fm.horizontalAdvance(w.title().replace("&", "")) + (20 if w.isCheckable() else 0)
        room = w.width() - 8
    elif isinstance(w, QComboBox) and not w.isEditable():
        text = w.currentText()
        if not text:
            return None
        opt = QStyleOptionComboBox()
        w.initStyleOption(opt)
        field = w.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, w
        )
        need = fm.horizontalAdvance(text)
        room = field.width()
    elif isinstance(w, QProgressBar) and w.isTextVisible() and w.text():
        need = fm.horizontalAdvance(w.text()) + 8
        room = w.width()
    else:
        return None
    if need > room:
        return f"text needs {need} px, has {room}"
    return None


def _ellipsis_only(w: QWidget) -> str | None:
    """A list view whose first column shows no more than an ellipsis."""
    if not isinstance(w, QTreeWidget | QListWidget) or not w.isVisible():
        return None
    fm = w.fontMetrics()
    if isinstance(w, QTreeWidget):
        items = [w.topLevelItem(i) for i in range(min(w.topLevelItemCount(), 20))]
        width = w.header().sectionSize(0) - w.indentation() - 8
        texts = [it.text(0) for it in items if it is not None]
    else:
        texts = [w.item(i).text() for i in range(min(w.count(), 20))]
        width = w.viewport().width() - 8
    seen: dict[str, str] = {}
    for text in texts:
        shown = fm.elidedText(text, w.textElideMode(), width)
        if len(shown.replace("…", "").strip()) < min(len(text), 8):
            return f"shows {shown!r} of {text!r} ({width} px)"
        if seen.get(shown, text) != text:  # two rows that read the same
            return f"{seen[shown]!r} and {text!r} both show as {shown!r} ({width} px)"
        seen[shown] = text
    return None


def _narrow_text(w: QWidget) -> str | None:
    """A read-only text area (a summary) too narrow for a line of 36 characters."""
    if (
        not isinstance(w, QPlainTextEdit)
        or not w.isReadOnly()
        or w.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap
    ):
        return None
    need = 36 * w.fontMetrics().averageCharWidth()
    if w.viewport().width() < need:
        return f"{w.viewport().width()} px wide, a 36-character line needs {need}"
    return None


def _problems(win: QWidget, top: QWidget) -> list[str]:
    out: list[str] = []
    window_rect = win.rect()
    for w in [top, *top.findChildren(QWidget)]:
        if not w.isVisible() or w.isWindow() or _inside_item_view(w, top):
            continue
        name = f"{w.objectName() or type(w).__name__} ({type(w).__name__})"
        why = _clipped_text(w)
        if why:
            out.append(f"{name}: {w.text() if hasattr(w, 'text') else ''!r} clipped: {why}")
        why = _ellipsis_only(w) or _narrow_text(w)
        if why:
            out.append(f"{name}: {why}")
        # Inside the window's visible area, not cut by its right or bottom edge; inside a
        # scroll area (a form that scrolls down) not cut by the area's right edge.
        at = QRect(w.mapTo(win, w.rect().topLeft()), w.size())
        area = _scroll_area_of(w, top)
        if area is None and not window_rect.contains(at):
            out.append(f"{name}: {at} is cut by the window {window_rect}")
        if area is not None:
            port = area.viewport()
            seen = QRect(port.mapTo(win, port.rect().topLeft()), port.size())
            if at.right() > seen.right() or at.left() < seen.left():
                out.append(
                    f"{name}: {at} is cut on the side by "
                    f"{area.objectName() or type(area).__name__} {seen}"
                )
        # Inside its parent, unless the parent scrolls it (a scroll area's viewport).
        parent = w.parentWidget()
        scrolled = parent is not None and isinstance(parent.parentWidget(), QAbstractScrollArea)
        if parent is not None and not scrolled and not parent.rect().contains(w.geometry()):
            out.append(
                f"{name}: {w.geometry()} sticks out of its parent "
                f"{parent.objectName() or type(parent).__name__} {parent.rect()}"
            )
        # A form in a scroll area scrolls down, never sideways (the right part hidden).
        if isinstance(w, QScrollArea) and w.horizontalScrollBar().isVisible():
            out.append(
                f"{name}: its content is wider than the area "
                f"({w.widget().width()} > {w.viewport().width()} px)"
            )
        # Buttons beside each other do not overlap (a tab bar's own scroll arrows aside).
        buttons = (
            []
            if isinstance(w, QTabBar)
            else [
                c
                for c in w.findChildren(
                    QAbstractButton, options=Qt.FindChildOption.FindDirectChildrenOnly
                )
                if c.isVisible()
            ]
        )
        for i, a in enumerate(buttons):
            for b in buttons[i + 1 :]:
                if a.geometry().intersects(b.geometry()):
                    out.append(f"{a.objectName()} overlaps {b.objectName()}")
    return out


def _settle(qtbot: Any) -> None:
    """Let every pending layout run: a language switch or an edit posts layout requests
    up the widget tree, one level per round, and a loaded machine may take longer than
    one short wait to deliver them all."""
    for _ in range(20):
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QApplication.processEvents()
    qtbot.wait(50)
    QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)


def _window(make_main_window: Any, qtbot: Any, lang: str) -> Any:
    win = make_main_window()
    win.resize(*SIZE)
    set_language(lang, win.ctx)
    win.build_panels()
    results = win.panels["results"]
    handle = results.open_path(str(NWCHEM_DATA / "nh3_planar_scf_freq.out"))
    qtbot.waitUntil(lambda: handle.done, timeout=20000)
    qtbot.waitUntil(lambda: results.results is handle.result, timeout=5000)
    _settle(qtbot)
    return win


def _check_tabs(win: Any, qtbot: Any, lang: str) -> list[str]:
    problems: list[str] = []
    for i in range(win.tabs.count()):
        win.tabs.setCurrentIndex(i)
        _settle(qtbot)
        page = win.tabs.widget(i)
        problems += [f"[{lang}] {page.objectName()}: {p}" for p in _problems(win, page)]
    return problems


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_tab_shows_every_text_whole_inside_1280_by_800(
    make_main_window: Any, qtbot: Any, lang: str
) -> None:
    win = _window(make_main_window, qtbot, lang)
    try:
        assert (win.width(), win.height()) == SIZE
        # A molecule with a measurement selected and atom labels: the side column full.
        doc = win.ctx.document
        ops.add_atoms(doc, WATER, preview=False)
        ops.set_molecule(doc, title="water", preview=False)
        tab = win.molecule_tab
        tab.labels_combo.setCurrentIndex(tab.labels_combo.findData("element_index"))
        ops.set_internal_coordinate(doc, ["a1", "a2"], 1.0, preview=False)
        tab._update_state()
        # The step's name does not fit the Undo button: the button says plain "Undo", never
        # a cut "Undo Set intern…"; the tooltip names the step.
        assert not tab.undo_button.text().endswith("…")
        assert tab.undo_button.toolTip().startswith(tab.undo_button.text())
        problems = _check_tabs(win, qtbot, lang)
        assert problems == [], "\n".join(problems)
    finally:
        set_language("en", win.ctx)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_execution_tab_fits_1280_by_800_while_a_job_runs(
    make_main_window: Any, qtbot: Any, tmp_path: Path, lang: str
) -> None:
    win = _window(make_main_window, qtbot, lang)
    try:
        doc = win.ctx.document
        ops.add_atoms(doc, WATER, preview=False)
        ops.set_nwchem(doc, {"basis": "sto-3g"}, preview=False)
        exe = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_NWCHEM))}"
        # A deep job folder: its path is the long word of the status line.
        root = tmp_path / "a-rather-long-folder-name-for-the-jobs" / "of-this-project"
        ops.set_execution(
            doc,
            {
                "executable": exe,
                "job_root": str(root),
                "environment": {"FAKE_NWCHEM_MODE": "noconverge", "FAKE_NWCHEM_DELAY": "0.2"},
            },
            preview=False,
        )
        panel = win.panels["execution"]
        win.tabs.setCurrentWidget(panel)
        panel.run()
        assert panel.job is not None
        qtbot.waitUntil(
            lambda: "SCF" in panel.progress_label.text() or "SCF" in panel.progress_bar.text(),
            timeout=20000,
        )
        qtbot.waitUntil(lambda: panel.progress_bar.value() >= 1, timeout=20000)
        _settle(qtbot)
        assert panel.stop_button.isEnabled() and panel.progress_bar.isVisible()
        problems = [f"[{lang}] running: {p}" for p in _problems(win, panel)]
        for name in ("executableBrowse", "jobRootBrowse", "jobProgressBar", "stopButton"):
            w = panel.findChild(QWidget, name)
            at = QRect(w.mapTo(win, w.rect().topLeft()), w.size())
            scroll = panel.findChild(QScrollArea, "executionScroll").viewport()
            seen = QRect(scroll.mapTo(win, scroll.rect().topLeft()), scroll.size())
            if not seen.contains(at):
                problems.append(f"[{lang}] {name} {at} outside the shown form {seen}")
        assert problems == []
    finally:
        if win.panels["execution"].job is not None:
            win.panels["execution"].stop()
            qtbot.waitUntil(
                lambda: win.panels["execution"].job.status in ("cancelled", "finished", "failed"),
                timeout=15000,
            )
        set_language("en", win.ctx)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_named_undo_and_redo_keep_the_molecule_tab_inside_1280_pixels(
    make_main_window: Any, qtbot: Any, lang: str
) -> None:
    # "Undo Add atoms" and "Redo Add atoms" beside the tools made the tab 1,339 px wide.
    win = make_main_window()
    win.resize(*SIZE)
    set_language(lang, win.ctx)
    try:
        doc = win.ctx.document
        ops.add_atoms(doc, WATER[:1], preview=False)
        ops.add_atoms(doc, WATER[1:], preview=False)
        doc.undo()
        tab = win.molecule_tab
        tab._update_state()
        _settle(qtbot)
        assert (
            tab.undo_button.text() not in history_plain()
            and tab.redo_button.text() not in history_plain()
        )
        assert win.minimumSizeHint().width() <= SIZE[0]
        assert (win.width(), win.height()) == SIZE
        problems = _problems(win, tab)
        assert problems == [], "\n".join(problems)
    finally:
        set_language("en", win.ctx)


def history_plain() -> tuple[str, str]:
    from molforma.gui.widgets.molecule_tab_support import history_texts

    return history_texts(None)
