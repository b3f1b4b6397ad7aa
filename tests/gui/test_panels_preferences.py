"""Preferences dialog (saved as a plain file) and the Japanese translation of the panels."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import QCoreApplication, Qt, QTranslator
from PySide6.QtWidgets import QComboBox, QLineEdit, QTableWidget

REPO = Path(__file__).resolve().parents[2]
TRANSLATIONS = REPO / "translations"


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture
def ctx(qtbot: Any, config: Path) -> Any:
    from molforma.gui.context import AppContext

    context = AppContext.create()
    yield context
    context.close()


@pytest.fixture
def dialog(qtbot: Any, ctx: Any) -> Any:
    from molforma.gui.widgets.preferences_dialog import PreferencesDialog

    d = PreferencesDialog(ctx)
    qtbot.addWidget(d)
    d.show()
    return d


@pytest.fixture
def english_afterwards(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv("MOLFORMA_LANGUAGE", raising=False)
    yield
    from molforma.gui.app import install_translators

    install_translators("en")


def test_ok_saves_language_and_trusted_defaults_to_a_file_read_without_qt(
    english_afterwards: Any, dialog: Any, ctx: Any, config: Path, qtbot: Any
) -> None:
    from molforma.gui.widgets.execution_panel import ExecutionPanel

    execution = ExecutionPanel(ctx)
    qtbot.addWidget(execution)
    assert execution.findChild(object, "runButton").text() == "Run"
    combo = dialog.findChild(QComboBox, "languageCombo")
    combo.setCurrentIndex(combo.findData("ja"))
    assert "at once" in dialog.findChild(object, "languageNote").text()
    exe = dialog.findChild(QLineEdit, "prefExecutableEdit")
    exe.setText("/opt/nwchem/bin/nwchem")
    dialog.findChild(QLineEdit, "prefLauncherEdit").setText("mpirun --allow-run-as-root")
    qtbot.mouseClick(dialog.findChild(object, "prefEnvironmentAdd"), Qt.MouseButton.LeftButton)
    table = dialog.findChild(QTableWidget, "prefEnvironmentTable")
    table.item(0, 0).setText("OMPI_MCA_btl")
    table.item(0, 1).setText("self,vader")
    with qtbot.waitSignal(ctx.events.languageChanged, timeout=1000):
        qtbot.mouseClick(dialog.findChild(object, "preferencesOk"), Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    # Applied at once: the open panels now speak Japanese.
    qtbot.waitUntil(lambda: execution.findChild(object, "runButton").text() == "実行", timeout=3000)
    assert execution.findChild(object, "programGroup").title() == "プログラム"

    data = json.loads((config / "preferences.json").read_text(encoding="utf-8"))
    assert data["language"] == "ja"
    assert data["executable"] == "/opt/nwchem/bin/nwchem"
    assert data["launcher"] == "mpirun --allow-run-as-root"
    assert data["environment"] == {"OMPI_MCA_btl": "self,vader"}
    assert ctx.preferences.executable == "/opt/nwchem/bin/nwchem"
    # The headless side reads the same file with no Qt at all.
    code = (
        "import sys, molforma.preferences as p; pr = p.load_preferences(); "
        "assert 'PySide6' not in sys.modules; print(pr.executable, pr.language)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "MOLFORMA_CONFIG_DIR": str(config)},
        check=True,
    )
    assert out.stdout.split() == ["/opt/nwchem/bin/nwchem", "ja"]


def test_bad_values_are_refused_and_nothing_is_written(
    dialog: Any, config: Path, qtbot: Any
) -> None:
    qtbot.mouseClick(dialog.findChild(object, "prefEnvironmentAdd"), Qt.MouseButton.LeftButton)
    table = dialog.findChild(QTableWidget, "prefEnvironmentTable")
    table.item(0, 0).setText("NOT VALID")
    qtbot.mouseClick(dialog.findChild(object, "preferencesOk"), Qt.MouseButton.LeftButton)
    assert dialog.isVisible()
    assert "NOT VALID" in dialog.findChild(object, "preferencesMessage").text()
    assert not (config / "preferences.json").exists()

    table.selectRow(0)
    qtbot.mouseClick(dialog.findChild(object, "prefEnvironmentRemove"), Qt.MouseButton.LeftButton)
    dialog.findChild(QLineEdit, "prefExecutableEdit").setText("  ")
    qtbot.mouseClick(dialog.findChild(object, "preferencesOk"), Qt.MouseButton.LeftButton)
    assert dialog.isVisible()
    assert not (config / "preferences.json").exists()


def test_cancel_keeps_the_saved_preferences(dialog: Any, config: Path, qtbot: Any) -> None:
    dialog.findChild(QLineEdit, "prefExecutableEdit").setText("/somewhere/else")
    qtbot.mouseClick(dialog.findChild(object, "preferencesCancel"), Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    assert not (config / "preferences.json").exists()


def test_every_panel_string_has_a_japanese_translation() -> None:
    tree = ET.parse(TRANSLATIONS / "panels_ja.ts")
    messages = list(tree.getroot().iter("message"))
    assert len(messages) > 150
    for msg in messages:
        source = msg.findtext("source") or ""
        translation = msg.find("translation")
        assert translation is not None and translation.get("type") != "unfinished", source
        forms = [f.text or "" for f in translation.iter("numerusform")]
        text = " ".join(forms) if msg.get("numerus") == "yes" else translation.text or ""
        assert text, source
        assert text.count("%1") == source.count("%1") and text.count("%2") == source.count("%2")
        if re.search(r"[A-Za-z]{4,}", source) and not re.fullmatch(r"[A-Z0-9 ().,*-]+", source):
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text), source
    assert (TRANSLATIONS / "panels_ja.qm").stat().st_size > 1000
    assert (TRANSLATIONS / "panels_en.qm").exists()


def test_panels_show_japanese_with_the_japanese_catalogue(qtbot: Any, ctx: Any) -> None:
    translator = QTranslator()
    assert translator.load(str(TRANSLATIONS / "panels_ja.qm"))
    QCoreApplication.installTranslator(translator)
    try:
        from molforma.gui.widgets.calculation_panel import CalculationPanel
        from molforma.gui.widgets.execution_panel import ExecutionPanel
        from molforma.gui.widgets.history_panel import HistoryPanel
        from molforma.gui.widgets.preferences_dialog import PreferencesDialog
        from molforma.gui.widgets.results_panel import ResultsPanel

        widgets = [
            cls(ctx)
            for cls in (
                CalculationPanel,
                ExecutionPanel,
                ResultsPanel,
                HistoryPanel,
                PreferencesDialog,
            )
        ]
        for w in widgets:
            qtbot.addWidget(w)
        calc, execution, results, history, prefs = widgets
        assert calc.findChild(object, "applyExtraInputButton").text() == "追加入力を適用"
        assert calc.findChild(object, "advancedToggle").text() == "詳細設定"
        # Task names come from the catalogue in the window's language (install_translators),
        # not from this raw translator: the next test and test_settings_labels check them.
        assert execution.findChild(object, "runButton").text() == "実行"
        assert execution.findChild(object, "saveInputSetButton").text() == "入力一式を保存"
        assert results.findChild(object, "playButton").text() == "再生"
        assert history.findChild(object, "historyReuse").text() == "分子・条件を再利用"
        assert history.findChild(object, "historyTrash").text() == "ごみ箱へ"
        assert prefs.windowTitle() == "環境設定"
    finally:
        QCoreApplication.removeTranslator(translator)


def test_switching_language_while_running_retranslates_every_panel(
    english_afterwards: Any, qtbot: Any, ctx: Any
) -> None:
    from molforma.gui.app import install_translators
    from molforma.gui.widgets.calculation_panel import CalculationPanel
    from molforma.gui.widgets.history_panel import HistoryPanel
    from molforma.gui.widgets.results_panel import ResultsPanel

    calc, results, history = CalculationPanel(ctx), ResultsPanel(ctx), HistoryPanel(ctx)
    for w in (calc, results, history):
        qtbot.addWidget(w)
    checks = [
        (lambda: calc.findChild(QComboBox, "taskCombo").itemText(2), "Frequencies", "振動数計算"),
        (
            lambda: results.findChild(object, "modesTable").horizontalHeaderItem(3).text(),
            "Imaginary",
            "虚振動",
        ),
        (
            lambda: results.findChild(object, "irWidthSpin").parent().width_label.text(),
            "Width (FWHM, cm⁻¹):",
            "線幅（半値全幅, cm⁻¹）:",
        ),
        (lambda: history.findChild(object, "historyPreviewTabs").tabText(0), "Input", "入力"),
    ]
    assert [get() for get, _, _ in checks] == [en for _, en, _ in checks]
    install_translators("ja")
    qtbot.waitUntil(
        lambda: [get() for get, _, _ in checks] == [ja for _, _, ja in checks], timeout=3000
    )
    install_translators("en")
    qtbot.waitUntil(
        lambda: [get() for get, _, _ in checks] == [en for _, en, _ in checks], timeout=3000
    )
