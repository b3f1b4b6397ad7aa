"""One table names each task, theory and advanced setting: the window, get_catalog and the
history say the same words in each language (the catalogue under resources/)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QComboBox, QLabel

from molforma.catalog import get_catalog
from molforma.nwchem.settings import TASKS, THEORIES, AdvancedSettings


@pytest.fixture
def ctx(qtbot: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    from molforma.gui.context import AppContext

    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    context = AppContext.create()
    yield context
    context.close()


@pytest.fixture
def english_afterwards() -> Any:
    from molforma.gui.app import install_translators

    yield
    install_translators("en")


def _labels(kind: str, lang: str, key: str = "name") -> dict[str, str]:
    return {e[key]: e["label"][lang] for e in get_catalog(kind)[kind]}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_calculation_tab_shows_the_catalogue_labels_in_each_language(
    english_afterwards: Any, qtbot: Any, ctx: Any, lang: str
) -> None:
    from molforma.gui.app import install_translators
    from molforma.gui.widgets.calculation_panel import CalculationPanel

    install_translators(lang)
    calc = CalculationPanel(ctx)
    qtbot.addWidget(calc)
    tasks, theories = _labels("tasks", lang), _labels("theories", lang)
    task_combo = calc.findChild(QComboBox, "taskCombo")
    theory_combo = calc.findChild(QComboBox, "theoryCombo")
    assert [task_combo.itemText(i) for i in range(task_combo.count())] == [tasks[k] for k in TASKS]
    assert [task_combo.itemData(i) for i in range(task_combo.count())] == list(TASKS)
    assert [theory_combo.itemText(i) for i in range(theory_combo.count())] == [
        theories[k] for k in THEORIES
    ]
    shown = {lab.text() for lab in calc.findChildren(QLabel)}
    advanced = _labels("advanced_keys", lang, "key")
    for key in AdvancedSettings.model_fields:
        assert advanced[key] + ":" in shown, key


def test_one_spelling_of_optimisation_plus_frequencies_everywhere(
    english_afterwards: Any, qtbot: Any, ctx: Any
) -> None:
    from molforma.gui.app import install_translators
    from molforma.gui.widgets.calculation_panel import CalculationPanel
    from molforma.gui.widgets.history_panel import _task_name

    calc = CalculationPanel(ctx)
    qtbot.addWidget(calc)
    combo = calc.findChild(QComboBox, "taskCombo")
    i = combo.findData("optimize+frequencies")
    for lang in ("en", "ja"):
        install_translators(lang)
        qtbot.waitUntil(
            lambda lang=lang: combo.itemText(i) == _labels("tasks", lang)["optimize+frequencies"],
            timeout=3000,
        )
        assert _task_name("optimize+frequencies") == combo.itemText(i)
    assert _labels("tasks", "en")["optimize+frequencies"] == "Optimisation + frequencies"
    assert _labels("tasks", "ja")["optimize+frequencies"] == "構造最適化＋振動数計算"
