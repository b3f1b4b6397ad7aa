"""The window's task and theory combos show the core's label table in en and ja."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QComboBox

from molforma.catalog import get_catalog, setting_labels
from molforma.nwchem.settings import TASKS, THEORIES


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_combo_texts_equal_the_table_and_the_catalogue(
    qtbot: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    from molforma.gui.app import install_translators
    from molforma.gui.context import AppContext
    from molforma.gui.widgets.calculation_panel import CalculationPanel

    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    ctx = AppContext.create()
    try:
        install_translators(lang)
        calc = CalculationPanel(ctx)
        qtbot.addWidget(calc)
        for name, kind, values in (
            ("taskCombo", "tasks", TASKS),
            ("theoryCombo", "theories", THEORIES),
        ):
            combo = calc.findChild(QComboBox, name)
            shown = [combo.itemText(i) for i in range(combo.count())]
            table = setting_labels(kind, lang)
            catalogue = {e["name"]: e["label"][lang] for e in get_catalog(kind)[kind]}
            assert shown == [table[k] for k in values] == [catalogue[k] for k in values]
    finally:
        install_translators("en")
        ctx.close()
