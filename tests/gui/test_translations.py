"""Japanese and English catalogues: every visible string of the window is translated."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QTableView,
    QTabWidget,
    QWidget,
)

from molforma.gui.app import set_language, translations_dir
from tests.paths import NWCHEM_DATA

# Names and notations that stay as they are in Japanese.
_KEEP = re.compile(
    r"SMILES|MolForma|NWChem|MCP|XYZ|PDB|MDL|Molfile|CCO|Enter|Ctrl|Shift|"
    r"SCF|DFT|MPI|OMP_NUM_THREADS|CSV|km/mol|MMFF94|UFF|kcal/mol|"
    # names that Japanese text keeps in Latin letters
    r"Mulliken|Löwdin|HOMO|LUMO|MOLDEN|Gaussian|cube|TDDFT|UV-Vis|"
    # method names and the NWChem keywords a field writes
    r"COSMO|dielec|nroots|tddft|notriplet|nosinglet|cis|TDHF|TDA|CIS|Tamm|IRC|"
    r"Dancoff|zcoord|optimize|"
    # remote clusters: the tools and the scheduler keep their names
    r"SLURM|ssh|SSH|sinfo|"
    r"\.molforma\.json|\.xyz|\.mol|\.sdf|\.pdb|\.nw|%\d|%n"
)


@pytest.fixture(autouse=True)
def _restore_language(monkeypatch: pytest.MonkeyPatch) -> None:
    # set_language sets MOLFORMA_LANGUAGE; monkeypatch puts the original back afterwards.
    monkeypatch.setenv("MOLFORMA_LANGUAGE", "en")


@pytest.fixture
def japanese(make_main_window: Any) -> Iterator[Any]:
    win = make_main_window()
    set_language("ja", win.ctx)
    yield win
    set_language("en", win.ctx)


def _visible_texts(win: Any, root: QWidget, *, combos: bool = True) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for w in [root, *root.findChildren(QWidget)]:
        if not w.isVisibleTo(win):
            continue
        name = w.objectName() or type(w).__name__
        if isinstance(w, QLabel | QAbstractButton):
            out.append((name, w.text()))
        elif isinstance(w, QGroupBox):
            out.append((name, w.title()))
        elif isinstance(w, QLineEdit):
            out.append((name, w.placeholderText()))
        elif isinstance(w, QComboBox) and combos:
            out += [(name, w.itemText(i)) for i in range(w.count())]
        elif isinstance(w, QAbstractSpinBox):
            out.append((name, w.specialValueText()))
        elif isinstance(w, QTableView):
            m = w.model()
            out += [
                (name, str(m.headerData(c, Qt.Orientation.Horizontal) or ""))
                for c in range(m.columnCount())
            ]
        if w.toolTip():
            out.append((name + ".toolTip", w.toolTip()))
    return out


def _untranslated(texts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(n, t) for n, t in texts if re.search(r"[A-Za-z]{3,}", _KEEP.sub("", t))]


def test_compiled_catalogues_are_shipped_for_japanese_and_english() -> None:
    names = {p.name for p in translations_dir().iterdir()}
    for lang in ("ja", "en"):
        assert f"molforma_{lang}.ts" in names
        assert f"molforma_{lang}.qm" in names


def test_switching_to_japanese_translates_menus_actions_and_tabs(japanese: Any) -> None:
    win = japanese
    tabs = win.findChild(QTabWidget, "mainTabs")
    assert [tabs.tabText(i) for i in range(tabs.count())] == [
        "1 分子",
        "2 計算条件",
        "3 実行",
        "結果",
        "履歴",
    ]
    menus = [a.text() for a in win.menuBar().actions()]
    assert menus == ["ファイル(&F)", "編集(&E)", "表示(&V)", "ヘルプ(&H)"]
    untranslated = _untranslated([(a.objectName(), a.text()) for a in win.actions_by_id.values()])
    assert untranslated == []


def test_the_status_bar_atom_count_follows_a_language_switch(
    make_main_window: Any, qtbot: Any
) -> None:
    from molforma.app import ops
    from tests.gui.helpers import WATER

    win = make_main_window()
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    summary = win.findChild(QLabel, "documentSummary")
    assert summary.text() == "H2O — 3 atoms"
    set_language("ja", win.ctx)
    qtbot.waitUntil(lambda: win.tabs.tabText(0) == "1 分子")  # LanguageChange is posted
    assert summary.text() == "H2O — 3 原子"
    assert _untranslated(_visible_texts(win, win.statusBar())) == []
    set_language("en", win.ctx)
    qtbot.waitUntil(lambda: win.tabs.tabText(0) == "1 Molecule")
    assert summary.text() == "H2O — 3 atoms"


def test_every_visible_string_of_the_molecule_tab_is_japanese(japanese: Any) -> None:
    win = japanese
    win.molecule_tab.toggle_palette(True)
    texts = _visible_texts(win, win.molecule_tab)
    assert len(texts) > 40
    assert _untranslated(texts) == []


def test_every_visible_string_of_the_other_tabs_is_japanese(japanese: Any) -> None:
    win = japanese
    tabs = win.findChild(QTabWidget, "mainTabs")
    bad = []
    for i in range(1, tabs.count()):
        tabs.setCurrentIndex(i)
        # Combo items there are method, basis and functional names, which stay as they are.
        bad += _untranslated(_visible_texts(win, tabs.widget(i), combos=False))
    assert bad == []


def test_switching_back_to_english_restores_the_source_texts(make_main_window: Any) -> None:
    win = make_main_window()
    set_language("ja", win.ctx)
    assert win.molecule_tab.confirm_button.text() == "確定"
    set_language("en", win.ctx)
    assert win.molecule_tab.confirm_button.text() == "Confirm"
    assert win.windowTitle().startswith("Untitled")


def test_molforma_language_overrides_the_preferences(
    monkeypatch: pytest.MonkeyPatch, make_main_window: Any
) -> None:
    from molforma.gui.app import install_translators
    from molforma.i18n import display_language
    from molforma.preferences import Preferences, save_preferences

    save_preferences(Preferences(language="en"))
    monkeypatch.setenv("MOLFORMA_LANGUAGE", "ja")
    assert display_language() == "ja"
    loaded = install_translators(display_language())
    try:
        assert "molforma_ja.qm" in loaded
        win = make_main_window()
        assert win.molecule_tab.undo_button.text() == "元に戻す"
    finally:
        install_translators("en")


def test_refusals_from_the_core_are_shown_in_japanese_too(japanese: Any) -> None:
    from molforma.app import ops

    win = japanese
    ops.add_atoms(
        win.ctx.document,
        [{"element": "O", "position": [0, 0, 0]}, {"element": "H", "position": [0.9, 0, 0]}],
        preview=False,
    )
    model = win.molecule_tab.table.atom_model
    assert not model.setData(model.index(1, 2), "0.0")  # onto the O atom
    text = win.molecule_tab.message.text()
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text), text


def test_the_results_tab_with_a_loaded_run_is_japanese(japanese: Any, qtbot: Any) -> None:
    win = japanese
    panel = win.panels["results"]
    out = NWCHEM_DATA / "water_scf_optfreq.out"
    handle = panel.open_path(str(out))
    qtbot.waitUntil(lambda: handle.done and panel.results is not None, timeout=20000)
    win.show_tab("results")
    label = panel.findChild(QLabel, "trajectoryLabel")
    slider = panel.findChild(object, "trajectorySlider")
    seen = []
    for index in range(slider.maximum() + 1):  # input, steps, final
        slider.setValue(index)
        seen.append(label.text())
        assert _untranslated(_visible_texts(win, panel)) == [], label.text()
    assert "入力" in seen[0] and "最終" in seen[-1]


def test_qt_file_dialog_and_standard_buttons_speak_japanese(japanese: Any) -> None:
    from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QPushButton

    dialog = QFileDialog(japanese)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    labels = [w.text() for w in dialog.findChildren(QLabel) if w.text()]
    buttons = [b.text() for b in dialog.findChildren(QPushButton) if b.text()]
    tips = [b.toolTip() for b in dialog.findChildren(QAbstractButton) if b.toolTip()]
    kana = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    assert labels and all(kana.search(t) for t in labels), labels
    assert buttons and all(kana.search(t) for t in buttons), buttons
    assert tips and all(kana.search(t) for t in tips), tips
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, japanese)
    assert box.buttons()[0].text() == "キャンセル"
    dialog.deleteLater()


def test_japanese_text_uses_one_font_for_kana_and_digits(japanese: Any) -> None:
    from PySide6.QtGui import QFontDatabase
    from PySide6.QtWidgets import QApplication

    family = QApplication.font().family()
    systems = QFontDatabase.writingSystems(family)
    assert QFontDatabase.WritingSystem.Japanese in systems, family
    assert QFontDatabase.WritingSystem.Latin in systems, family


def test_a_status_message_follows_a_live_language_switch(
    make_main_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    win = make_main_window()
    src = tmp_path / "neon.xyz"
    src.write_text("1\nneon\nNe 0 0 0\n")
    win.open_path(str(src))
    assert win.status_label.text() == "Opened neon.xyz"
    kana = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    set_language("ja", win.ctx)
    try:
        qtbot.waitUntil(lambda: kana.search(win.status_label.text()) is not None)
        assert "neon.xyz" in win.status_label.text()
    finally:
        set_language("en", win.ctx)
    qtbot.waitUntil(lambda: win.status_label.text() == "Opened neon.xyz")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_tab_fits_a_1280_by_800_screen_in_each_language(
    make_main_window: Any, lang: str
) -> None:
    # The window's minimum size is what its widest row and tallest column force; over
    # 1280x800 (less the title bar and a panel of the desktop) a tab is cut off.
    win = make_main_window()
    set_language(lang, win.ctx)
    try:
        for key, panel in win.panels.items():
            hint = panel.minimumSizeHint()
            assert hint.width() <= 1240 and hint.height() <= 640, (lang, key, hint)
        hint = win.minimumSizeHint()
        assert hint.width() <= 1280 and hint.height() <= 740, (lang, hint)
    finally:
        set_language("en", win.ctx)
