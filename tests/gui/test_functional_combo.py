"""The functional and basis fields of the Calculation tab (pytest-qt, offscreen): the combo
follows the document whichever way it is set, an unknown functional is refused where the
person sees it (and a window command fails with that message), an unknown basis is kept
with a warning beside the field, and the combo's labels come from the functional table."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QLabel

from molforma.app import ops
from molforma.catalog import get_catalog
from molforma.mcp.window_commands import WindowCommand
from tests.gui.helpers import type_into

CUSTOM = "hfexch 0.2 becke88 0.8 lyp"  # an xc line NWChem reads, in no table entry


def _runner(win: Any) -> Any:
    from molforma.app.policy import Policy
    from molforma.gui.commands import CommandRunner
    from molforma.gui.introspection import WindowIntrospection

    return CommandRunner(win, WindowIntrospection(win), win.mcp_bridge, Policy())


def _window(make_main_window: Any) -> tuple[Any, Any, Any]:
    win = make_main_window(mcp_mode=True)
    doc = win.ctx.document
    ops.set_nwchem(doc, {"theory": "dft"}, preview=False)
    panel = win.panels["calculation"]
    win.tabs.setCurrentWidget(panel)
    return win, doc, panel


def _set_value(win: Any, target: str, value: Any) -> Any:
    runner = _runner(win)
    doc = win.ctx.document
    rec = runner.store.add(
        WindowCommand(
            tool="ui_set_value",
            args={"target": target, "value": value},
            document_id=doc.id,
            expected_revision=doc.revision,
        ),
        wake=False,
    )
    runner.drain()
    return rec


def _xc_line(panel: Any) -> str:
    text = panel.findChild(object, "inputPreview").toPlainText()
    return next(line.strip() for line in text.splitlines() if line.strip().startswith("xc "))


def test_ui_set_value_b3lyp_after_a_typed_custom_functional_changes_document_and_input(
    make_main_window: Any, qtbot: Any
) -> None:
    win, doc, panel = _window(make_main_window)
    combo = panel.findChild(QComboBox, "functionalCombo")
    rec = _set_value(win, "functionalCombo", CUSTOM)
    assert rec.status == "done", rec.error
    assert doc.project["calculation"]["functional"] == CUSTOM
    assert _xc_line(panel) == f"xc {CUSTOM}"
    rec = _set_value(win, "functionalCombo", "b3lyp")
    assert rec.status == "done", rec.error
    assert doc.project["calculation"]["functional"] == "b3lyp"
    assert _xc_line(panel) == "xc b3lyp"
    assert combo.currentData() == "b3lyp"
    # The same by hand: the person picks B3LYP from the list after typing their own line.
    type_into(qtbot, combo.lineEdit(), CUSTOM)
    assert doc.project["calculation"]["functional"] == CUSTOM
    index = combo.findData("b3lyp")
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    assert doc.project["calculation"]["functional"] == "b3lyp"


def test_a_window_command_naming_a_table_entry_writes_its_whole_dft_block(
    make_main_window: Any, qtbot: Any
) -> None:
    win, doc, panel = _window(make_main_window)
    rec = _set_value(win, "functionalCombo", "cam-b3lyp")
    assert rec.status == "done", rec.error
    assert doc.project["calculation"]["functional"] == "cam-b3lyp"
    preview = panel.findChild(object, "inputPreview").toPlainText()
    assert "cam 0.33 cam_alpha 0.19 cam_beta 0.46" in preview
    # Another spelling of a table entry is the entry.
    rec = _set_value(win, "functionalCombo", "CAMB3LYP")
    assert rec.status == "done", rec.error
    assert doc.project["calculation"]["functional"] == "cam-b3lyp"


def test_a_typed_unknown_functional_is_refused_beside_the_field_and_nothing_changes(
    make_main_window: Any, qtbot: Any
) -> None:
    win, doc, panel = _window(make_main_window)
    before = (doc.revision, dict(doc.project["calculation"]))
    combo = panel.findChild(QComboBox, "functionalCombo")
    type_into(qtbot, combo.lineEdit(), "wb97x-d")
    assert (doc.revision, dict(doc.project["calculation"])) == before
    message = panel.findChild(QLabel, "calculation_functionalMessage")
    assert message.isVisible() and "wb97x-d" in message.text() and "wb97x-d3" in message.text()
    assert _xc_line(panel) == "xc b3lyp"
    # Over MCP the window command fails with the same refusal, the document unchanged.
    rec = _set_value(win, "functionalCombo", "cam-b3lyp-d9")
    assert rec.status == "failed"
    assert rec.error.code == "unknown_functional"
    assert (doc.revision, dict(doc.project["calculation"])) == before


def test_an_unknown_basis_is_kept_with_a_warning_beside_the_field(
    make_main_window: Any, qtbot: Any
) -> None:
    _win, doc, panel = _window(make_main_window)
    combo = panel.findChild(QComboBox, "basisCombo")
    type_into(qtbot, combo.lineEdit(), "def2-svvp")
    assert doc.project["calculation"]["basis"] == "def2-svvp"
    message = panel.findChild(QLabel, "calculation_basisMessage")
    assert message.isVisible() and "def2-svp" in message.text()
    # Said once, beside the field, not again among the form's general warnings.
    assert "def2-svp" not in panel.messages().get("general", "")
    type_into(qtbot, combo.lineEdit(), "def2-svp")
    assert not message.isVisible()


def test_the_functional_combo_lists_the_table_with_its_labels(
    make_main_window: Any, qtbot: Any
) -> None:
    _win, _doc, panel = _window(make_main_window)
    combo = panel.findChild(QComboBox, "functionalCombo")
    table = get_catalog("functionals")["functionals"]
    assert [combo.itemData(i) for i in range(combo.count())] == [e["name"] for e in table]
    labels = {e["name"]: e["label"]["en"] for e in table}
    for i in range(combo.count()):
        assert labels[combo.itemData(i)] in combo.itemText(i)


def test_ui_set_value_of_a_listed_basis_after_a_typed_one_changes_the_document(
    make_main_window: Any, qtbot: Any
) -> None:
    win, doc, panel = _window(make_main_window)
    rec = _set_value(win, "basisCombo", "pcseg-1")
    assert rec.status == "done", rec.error
    assert doc.project["calculation"]["basis"] == "pcseg-1"
    rec = _set_value(win, "basisCombo", "6-31g*")
    assert rec.status == "done", rec.error
    assert doc.project["calculation"]["basis"] == "6-31g*"
    assert "* library 6-31g*" in panel.findChild(object, "inputPreview").toPlainText()


def test_a_project_opened_with_an_unknown_functional_shows_why_beside_the_field(
    make_main_window: Any, qtbot: Any, tmp_path: Any
) -> None:
    import json

    _win, doc, panel = _window(make_main_window)
    path = tmp_path / "old.molforma.json"
    ops.save_project(doc, str(path))
    data = json.loads(path.read_text())
    data["calculation"]["functional"] = "wb97x-d"
    path.write_text(json.dumps(data))
    ops.open_file(doc, str(path), preview=False)
    message = panel.findChild(QLabel, "calculation_functionalMessage")
    qtbot.waitUntil(lambda: message.isVisible(), timeout=3000)
    assert "wb97x-d" in message.text() and "wb97x-d3" in message.text()
    assert panel.findChild(QComboBox, "functionalCombo").currentText() == "wb97x-d"
    preview = panel.findChild(object, "inputPreview").toPlainText()
    assert "xc wb97x-d" not in preview and "wb97x-d" in preview  # no input, the reason
