"""Excited states, solvent and transition states in the window: the Calculation tab's rows
and the input they write, refusals beside the field, and the Results tab's table of roots
and summary lines (offscreen, painter renderer)."""

from __future__ import annotations

import os
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QSpinBox

from tests.gui.test_panels_calculation import ctx, panel  # noqa: F401 - fixtures
from tests.gui.test_panels_results import _open
from tests.paths import NWCHEM_DATA


def _preview(calculation_panel: Any) -> list[str]:
    return calculation_panel.input_preview.toPlainText().splitlines()


def _choose(combo: QComboBox, data: Any) -> None:
    combo.setCurrentIndex(combo.findData(data))


def test_the_excited_state_rows_show_for_that_task_and_write_the_tddft_block(
    panel: Any,  # noqa: F811
    ctx: Any,  # noqa: F811
) -> None:
    roots = panel.findChild(QSpinBox, "excitedRootsSpin")
    spin = panel.findChild(QComboBox, "excitedSpinCombo")
    method = panel.findChild(QComboBox, "excitedMethodCombo")
    assert not roots.isVisible()
    _choose(panel.task_combo, "excited-states")
    assert roots.isVisible() and spin.isVisible() and method.isVisible()
    roots.setValue(5)
    _choose(spin, "both")
    _choose(method, "tda")
    calc = ctx.document.project["calculation"]
    assert (calc["excited_roots"], calc["excited_spin"], calc["excited_method"]) == (
        5,
        "both",
        "tda",
    )
    lines = _preview(panel)
    assert lines[lines.index("tddft") + 1 : lines.index("tddft") + 4] == [
        "  nroots 5",
        "  cis",
        "end",
    ]
    assert "task tddft energy" in lines
    irc = panel.findChild(QCheckBox, "ircCheck")
    assert not irc.isVisible()
    _choose(panel.task_combo, "transition-state")
    assert not roots.isVisible() and irc.isVisible()
    assert [x for x in _preview(panel) if x.startswith("task")] == [
        "task scf saddle",
        "task scf freq",
    ]
    irc.setChecked(True)
    assert ctx.document.project["calculation"]["irc"] is True
    assert [x for x in _preview(panel) if x.startswith("task")][-1] == "task scf mepgs"


def test_a_solvent_or_a_custom_constant_writes_cosmo_and_a_bad_one_is_refused_beside_it(
    panel: Any,  # noqa: F811
    ctx: Any,  # noqa: F811
    qtbot: Any,
) -> None:
    solvent = panel.findChild(QComboBox, "solventCombo")
    eps = panel.findChild(QLineEdit, "dielectricEdit")
    assert solvent.currentData() is None and not eps.isEnabled()
    assert solvent.itemText(solvent.findData("water")) == "Water (ε 78.4)"
    _choose(solvent, "water")
    assert ctx.document.project["calculation"]["solvent"] == "water"
    assert "  dielec 78.4" in _preview(panel)
    _choose(solvent, "__custom__")
    assert eps.isEnabled()
    eps.setText("12.5")
    eps.editingFinished.emit()
    calc = ctx.document.project["calculation"]
    assert (calc["solvent"], calc["dielectric"]) == (None, 12.5)
    assert "  dielec 12.5" in _preview(panel)
    before = dict(ctx.document.project["calculation"])
    eps.setText("0.5")
    eps.editingFinished.emit()
    assert ctx.document.project["calculation"] == before
    assert "above 1" in panel.messages()["calculation.dielectric"]
    _choose(solvent, None)
    assert ctx.document.project["calculation"]["dielectric"] is None
    assert "cosmo" not in _preview(panel)


def test_a_dft_frequency_job_says_in_the_preview_what_it_tightened(panel: Any, ctx: Any) -> None:  # noqa: F811
    _choose(panel.theory_combo, "dft")
    _choose(panel.task_combo, "optimize+frequencies")
    lines = _preview(panel)
    comment = lines[lines.index("dft") - 1]
    assert comment.startswith("# frequencies: grid fine and convergence energy 1e-08")
    assert "  grid fine" in lines


@pytest.fixture
def results(qtbot: Any, make_main_window: Any) -> Any:
    win = make_main_window()
    win.show_tab("results")
    return win.panels["results"]


def test_the_roots_table_lists_each_state_with_its_dominant_transitions(
    results: Any, qtbot: Any
) -> None:
    _open(qtbot, results, NWCHEM_DATA / "water_b3lyp_tda.out")
    table = results.findChild(object, "excitationsTable")
    assert table.isVisible() and results.plots.currentWidget() is results.uvvis
    rows = table.rows()
    assert rows[0] == ["1", "singlet b2", "11.7137", "105.8", "0.0026", "5 b2 → 6 a1 (-1.000)"]
    assert rows[2][5] == "4 a1 → 6 a1 (0.973); 3 b1 → 7 b1 (0.222); 2 a1 → 6 a1 (0.064)"
    _open(qtbot, results, NWCHEM_DATA / "oh_b3lyp_tddft.out")
    assert table.rows()[0][5] == "4β a → 5β a (1.923 X); 4β a → 5β a (1.643 Y)"
    _open(qtbot, results, NWCHEM_DATA / "water_scf_optfreq.out")
    assert table.rowCount() == 0 and not table.isVisible()


def test_the_summary_gives_the_solvation_energy_and_the_transition_state_check(
    results: Any, qtbot: Any
) -> None:
    summary = results.findChild(object, "resultsSummary")
    _open(qtbot, results, NWCHEM_DATA / "water_scf_cosmo.out")
    assert (
        "Solvation energy (COSMO, electrostatic): -0.00685514 Eh (-4.30 kcal/mol)"
        in summary.toPlainText()
    )
    _open(qtbot, results, NWCHEM_DATA / "water_saddle_from_minimum.out")
    text = summary.toPlainText()
    assert "Not a transition state: 0 imaginary modes (one expected)" in text
    assert "the saddle search ended at a minimum" in text
