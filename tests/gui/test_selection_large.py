"""Selections among 200,000 atoms: the property panel summarises a large selection from
the columns (count, formula, charge sum) and builds no record per atom. No clock is read:
records are counted (tests.gui.test_molecule_tab_large's counter)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from molforma.document.molecule import as_table_project
from molforma.gui.widgets.property_panel import selection_summary
from tests.gui.test_molecule_tab_large import N, _big_window, box_file, record_count

__all__ = ["box_file", "record_count"]  # fixtures shared with the Molecule tab's test


def test_select_all_among_200000_atoms_shows_a_summary_without_records(
        make_main_window: Any, qtbot: Any, box_file: Path, record_count: list[int]) -> None:
    win = _big_window(make_main_window, qtbot, box_file)
    tab = win.molecule_tab
    record_count[0] = 0
    tab.select_all()
    panel = tab.properties
    # The first atom's record for the fields; none for the rest of the selection.
    assert record_count[0] <= 1
    atoms = win.ctx.document.project["document"]["atoms"]
    counts = atoms.element_counts()
    formula = "".join(f"{e}{counts[e]}" for e in ("H", "He", "O") if e in counts)
    assert panel.summary.text() == f"{N:,} atoms, {formula}, formal charge sum 0"
    assert not panel.summary.isHidden()
    assert panel.atom_box.title() == f"{N} selected atoms"
    assert panel.element.placeholderText().startswith("O, H")
    assert len(panel._ids) == N and panel._ids[0] == f"a{atoms.ids[0]}"


def test_the_column_summary_is_what_the_records_say() -> None:
    atoms = [{"id": f"a{i + 1}", "element": e, "x": float(i), "y": 0.0, "z": 0.0, "name": "",
              "formalCharge": q, "unpairedElectrons": 0, "massNumber": None, "mass": None,
              "fixed": i == 2}
             for i, (e, q) in enumerate([("N", 1), ("H", 0), ("O", -1), ("C", 0), ("H", 0)])]
    tables = as_table_project({"document": {"atoms": atoms, "bonds": []}})
    summary = selection_summary(tables, ["a5", "a3", "a1", "a9"])
    assert summary is not None
    assert summary["count"] == 3
    assert summary["elements"] == {"N": 1, "O": 1, "H": 1}
    assert summary["charge"] == 0
    assert summary["fixed"] == {True, False}
    assert summary["first"]["id"] == "a1"
    assert selection_summary({"document": {"atoms": atoms, "bonds": []}}, ["a1"]) is None
