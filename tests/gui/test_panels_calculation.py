"""The Calculation tab driven as a person would: conditions, advanced fields, extra input."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QSpinBox

from molforma.app import ops
from molforma.nwchem.settings import AdvancedSettings

WATER = [
    {"element": "O", "position": [0.0, 0.0, 0.117]},
    {"element": "H", "position": [0.0, 0.757, -0.469]},
    {"element": "H", "position": [0.0, -0.757, -0.469]},
]


@pytest.fixture
def ctx(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    from molforma.gui.context import AppContext

    context = AppContext.create()
    ops.add_atoms(context.document, WATER, preview=False)
    yield context
    context.close()


@pytest.fixture
def panel(qtbot: Any, ctx: Any) -> Any:
    from molforma.gui.widgets.calculation_panel import CalculationPanel

    w = CalculationPanel(ctx)
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    return w


def test_changing_theory_and_basis_updates_the_live_input_preview(
    panel: Any, ctx: Any, qtbot: Any
) -> None:
    preview = panel.findChild(object, "inputPreview")
    assert "task scf energy" in preview.toPlainText()
    assert "* library 6-31g*" in preview.toPlainText()

    theory = panel.findChild(QComboBox, "theoryCombo")
    theory.setCurrentIndex(theory.findData("dft"))
    assert "task dft energy" in preview.toPlainText()
    assert "xc b3lyp" in preview.toPlainText()

    basis = panel.findChild(QComboBox, "basisCombo")
    basis.lineEdit().clear()
    qtbot.keyClicks(basis.lineEdit(), "sto-3g")
    qtbot.keyClick(basis.lineEdit(), Qt.Key.Key_Return)
    assert ctx.document.project["calculation"]["basis"] == "sto-3g"
    assert "* library sto-3g" in preview.toPlainText()

    task = panel.findChild(QComboBox, "taskCombo")
    task.setCurrentIndex(task.findData("optimize+frequencies"))
    assert "task dft optimize" in preview.toPlainText()
    assert "task dft freq" in preview.toPlainText()
    # One undo step per change, and undo brings the preview back.
    assert ctx.document.undo_labels[-3:] == ["Set calculation"] * 3
    ctx.document.undo()
    assert "task dft energy" in preview.toPlainText()
    assert task.currentData() == "energy"


def test_charge_and_multiplicity_edit_the_molecule_and_show_a_parity_message(
    panel: Any, ctx: Any
) -> None:
    mult = panel.findChild(QSpinBox, "multiplicitySpin")
    mult.setValue(2)
    assert ctx.document.project["document"]["multiplicity"] == 2
    message = panel.findChild(object, "document_multiplicityMessage")
    assert message.isVisible()
    assert "2" in message.text()
    charge = panel.findChild(QSpinBox, "chargeSpin")
    charge.setValue(1)
    assert ctx.document.project["document"]["charge"] == 1
    assert not message.isVisible()
    assert "charge 1" in panel.findChild(object, "inputPreview").toPlainText()


def test_every_advanced_key_has_its_own_field_in_the_collapsible_group(panel: Any) -> None:
    group = panel.findChild(object, "advancedGroup")
    assert not group.isVisible()
    for key in AdvancedSettings.model_fields:
        field = panel.findChild(object, f"advanced_{key}")
        assert field is not None, key
        assert group.isAncestorOf(field)
    panel.findChild(object, "advancedToggle").click()
    assert group.isVisible()
    panel.findChild(object, "advancedToggle").click()
    assert not group.isVisible()


def test_advanced_fields_change_the_document_and_the_input(
    panel: Any, ctx: Any, qtbot: Any
) -> None:
    preview = panel.findChild(object, "inputPreview")
    maxiter = panel.findChild(QLineEdit, "advanced_scf_maxiter")
    maxiter.setText("55")
    qtbot.keyClick(maxiter, Qt.Key.Key_Return)
    assert ctx.document.project["advanced"]["scf_maxiter"] == 55
    assert "maxiter 55" in preview.toPlainText()
    maxiter.clear()  # back to NWChem's default
    qtbot.keyClick(maxiter, Qt.Key.Key_Return)
    assert ctx.document.project["advanced"]["scf_maxiter"] is None

    animate = panel.findChild(QCheckBox, "advanced_freq_animate")
    animate.setChecked(True)
    assert ctx.document.project["advanced"]["freq_animate"] is True

    grid = panel.findChild(QComboBox, "advanced_dft_grid")
    grid.setCurrentIndex(grid.findData("fine"))
    assert ctx.document.project["advanced"]["dft_grid"] == "fine"

    thresh = panel.findChild(QLineEdit, "advanced_scf_thresh")
    thresh.setText("1e-7")
    qtbot.keyClick(thresh, Qt.Key.Key_Return)
    assert ctx.document.project["advanced"]["scf_thresh"] == pytest.approx(1e-7)


def test_a_refused_advanced_value_is_explained_and_changes_nothing(
    panel: Any, ctx: Any, qtbot: Any
) -> None:
    before = ctx.document.revision
    scratch = panel.findChild(QLineEdit, "advanced_scratch_dir")
    panel.set_advanced_expanded(True)
    thresh = panel.findChild(QLineEdit, "advanced_scf_thresh")
    thresh.setText("5")  # above the allowed maximum of 1
    qtbot.keyClick(thresh, Qt.Key.Key_Return)
    assert ctx.document.revision == before
    message = panel.findChild(object, "advanced_scf_threshMessage")
    assert message.isVisible() and message.text()
    assert thresh.text() == ""  # the document's value is shown again
    assert scratch.text() == ""


def test_apply_extra_input_adds_it_and_a_shell_task_is_refused(
    panel: Any, ctx: Any, qtbot: Any
) -> None:
    editor = panel.findChild(object, "extraInputEdit")
    apply_button = panel.findChild(object, "applyExtraInputButton")
    editor.setPlainText("property\n  dipole\nend")
    assert panel.findChild(object, "extraInputState").text()  # "not applied yet"
    qtbot.mouseClick(apply_button, Qt.MouseButton.LeftButton)
    assert ctx.document.project["calculation"]["extra_input"] == "property\n  dipole\nend"
    assert "  dipole" in panel.findChild(object, "inputPreview").toPlainText()
    assert panel.findChild(object, "extraInputState").text() == ""

    before = ctx.document.revision
    tasks = panel.findChild(object, "extraTasksEdit")
    tasks.setPlainText("shell rm -rf /")
    qtbot.mouseClick(apply_button, Qt.MouseButton.LeftButton)
    assert ctx.document.revision == before
    assert ctx.document.project["calculation"]["extra_tasks"] == []
    message = panel.findChild(object, "calculation_extra_inputMessage")
    assert message.isVisible() and message.text()
    assert tasks.toPlainText() == "shell rm -rf /"  # kept so the person can fix it


def test_edits_are_refused_while_a_candidate_waits(panel: Any, ctx: Any) -> None:
    ops.set_molecule(ctx.document, title="proposed", preview=True)
    theory = panel.findChild(QComboBox, "theoryCombo")
    theory.setCurrentIndex(theory.findData("mp2"))
    assert ctx.document.project["calculation"]["theory"] == "scf"
    assert theory.currentData() == "scf"
    assert panel.findChild(object, "calculation_theoryMessage").text()
    ctx.document.cancel()
    assert not panel.findChild(object, "calculation_theoryMessage").text()
    theory.setCurrentIndex(theory.findData("mp2"))
    assert ctx.document.project["calculation"]["theory"] == "mp2"


def test_every_interactive_widget_has_a_unique_object_name(panel: Any) -> None:
    from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QPlainTextEdit

    names = []
    for cls in (QAbstractButton, QComboBox, QAbstractSpinBox, QLineEdit, QPlainTextEdit):
        for w in panel.findChildren(cls):
            if isinstance(w, QLineEdit) and isinstance(w.parent(), QComboBox | QAbstractSpinBox):
                continue  # the editor inside a combo or spin box
            assert w.objectName(), repr(w)
            names.append(w.objectName())
    assert len(names) == len(set(names))


def test_a_large_molecule_preview_follows_after_a_short_pause(
    panel: Any, ctx: Any, qtbot: Any
) -> None:
    from molforma.gui.widgets.calculation_panel import SYNC_PREVIEW_ATOMS

    n = SYNC_PREVIEW_ATOMS + 100
    helium = [
        {
            "element": "He",
            "position": [3.0 * (i % 10), 3.0 * (i // 10 % 10), 3.0 * (i // 100) + 10.0],
        }
        for i in range(n)
    ]
    ops.add_atoms(ctx.document, helium, preview=False)
    preview = panel.findChild(object, "inputPreview")
    qtbot.waitUntil(lambda: preview.toPlainText().count("\n  He ") == n, timeout=5000)
    theory = panel.findChild(QComboBox, "theoryCombo")
    theory.setCurrentIndex(theory.findData("mp2"))
    qtbot.waitUntil(lambda: "task mp2 energy" in preview.toPlainText(), timeout=5000)


def test_automatic_symmetry_and_basis_type_show_partly_checked_and_cycle_by_click(
    panel: Any, ctx: Any, qtbot: Any
) -> None:
    panel.set_advanced_expanded(True)
    preview = panel.findChild(object, "inputPreview")
    symmetry = panel.findChild(QCheckBox, "advanced_noautosym")
    spherical = panel.findChild(QCheckBox, "advanced_basis_spherical")
    frozen = panel.findChild(QCheckBox, "advanced_mp2_frozen_core")
    assert symmetry.isTristate() and spherical.isTristate() and not frozen.isTristate()
    assert symmetry.checkState() == Qt.CheckState.PartiallyChecked
    assert frozen.isChecked()  # frozen core is on for a project that never set it
    assert "geometry units angstrom\n" in preview.toPlainText()
    # A click (QAbstractButton.click: the same path as the mouse) moves automatic -> on,
    # which switches symmetry off.
    symmetry.click()
    assert symmetry.checkState() == Qt.CheckState.Checked
    assert ctx.document.project["advanced"]["noautosym"] is True
    assert "geometry units angstrom noautosym" in preview.toPlainText()
    symmetry.click()
    assert ctx.document.project["advanced"]["noautosym"] is False
    symmetry.click()
    assert symmetry.checkState() == Qt.CheckState.PartiallyChecked
    assert ctx.document.project["advanced"]["noautosym"] is None
    basis = panel.findChild(QComboBox, "basisCombo")
    basis.setEditText("cc-pvdz")
    basis.lineEdit().editingFinished.emit()
    assert "basis spherical" in preview.toPlainText()


@pytest.mark.parametrize(
    ("key", "typed"),
    [
        ("scf_thresh", "1,0e-6"),  # a decimal comma is not read as a point
        ("scf_thresh", "1e-6x"),
        ("scf_thresh", "inf"),
        ("scf_maxiter", "-3"),  # below the minimum: refused, not turned into 3
        ("scf_maxiter", "12.5"),
        ("scf_maxiter", "1,000"),
        ("memory_mb", "10"),  # below 16 MB: refused, not clamped
        ("memory_mb", "99999999"),  # above the maximum: refused, not clamped
    ],
)
def test_numeric_advanced_fields_refuse_what_they_cannot_read_exactly(
    panel: Any, ctx: Any, qtbot: Any, key: str, typed: str
) -> None:
    panel.set_advanced_expanded(True)
    before = (ctx.document.revision, ctx.document.project["advanced"].get(key))
    field = panel.findChild(QLineEdit, f"advanced_{key}")
    field.setText(typed)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert (ctx.document.revision, ctx.document.project["advanced"].get(key)) == before
    message = panel.findChild(object, f"advanced_{key}Message")
    assert message.isVisible() and message.text()
    assert field.text() == ""  # the document's value again, never a changed number


def test_numeric_advanced_fields_take_c_locale_numbers_exactly(
    panel: Any, ctx: Any, qtbot: Any
) -> None:
    for key, typed, expected in (
        ("scf_thresh", "1.0e-6", 1e-6),
        ("scf_thresh", ".5", 0.5),
        ("memory_mb", "+2048", 2048),
        ("dft_iterations", "300", 300),
    ):
        field = panel.findChild(QLineEdit, f"advanced_{key}")
        field.setText(typed)
        qtbot.keyClick(field, Qt.Key.Key_Return)
        assert ctx.document.project["advanced"][key] == expected
