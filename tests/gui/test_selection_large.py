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
    make_main_window: Any, qtbot: Any, box_file: Path, record_count: list[int]
) -> None:
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
    atoms = [
        {
            "id": f"a{i + 1}",
            "element": e,
            "x": float(i),
            "y": 0.0,
            "z": 0.0,
            "name": "",
            "formalCharge": q,
            "unpairedElectrons": 0,
            "massNumber": None,
            "mass": None,
            "fixed": i == 2,
        }
        for i, (e, q) in enumerate([("N", 1), ("H", 0), ("O", -1), ("C", 0), ("H", 0)])
    ]
    tables = as_table_project({"document": {"atoms": atoms, "bonds": []}})
    summary = selection_summary(tables, ["a5", "a3", "a1", "a9"])
    assert summary is not None
    assert summary["count"] == 3
    assert summary["elements"] == {"N": 1, "O": 1, "H": 1}
    assert summary["charge"] == 0
    assert summary["fixed"] == {True, False}
    assert summary["first"]["id"] == "a1"
    assert selection_summary({"document": {"atoms": atoms, "bonds": []}}, ["a1"]) is None


def _small() -> dict[str, Any]:
    # Water, methane (C with 4 H, listed apart), a lone helium.
    spec = [
        ("O", 0.0),
        ("C", 5.0),
        ("H", 0.9572),
        ("H", -0.24),
        ("He", 9.0),
        ("H", 5.6),
        ("H", 4.4),
        ("H", 5.0),
        ("H", -0.000000001),
    ]
    atoms = [
        {
            "id": f"a{i + 1}",
            "element": e,
            "x": x,
            "y": -1.5 * i,
            "z": 0.1,
            "name": "",
            "formalCharge": 0,
            "unpairedElectrons": 0,
            "massNumber": None,
            "mass": None,
            "fixed": False,
        }
        for i, (e, x) in enumerate(spec)
    ]
    bonds = [{"a": "a1", "b": "a3", "order": 1}, {"a": "a1", "b": "a4", "order": 1}]
    bonds += [{"a": "a2", "b": f"a{i}", "order": 1} for i in (6, 7, 8, 9)]
    return {"document": {"atoms": atoms, "bonds": bonds, "title": "two\nlines"}}


def _record_xyz(plain: dict[str, Any], ids: list[str], title: str) -> str:
    """The record path's text (what Copy as XYZ wrote before the columns)."""
    atoms = [a for a in plain["document"]["atoms"] if not ids or a["id"] in ids]
    lines = [str(len(atoms)), title.replace("\n", " ")]
    lines += [
        f"{a['element']:<2} {float(a['x']):14.8f} {float(a['y']):14.8f} {float(a['z']):14.8f}"
        for a in atoms
    ]
    return "\n".join(lines) + "\n"


def test_column_xyz_and_fragments_are_the_records_answers() -> None:
    from molforma.document.geometry import components
    from molforma.gui.widgets.molecule_selection import fragment_ids, xyz_text

    plain = _small()
    tables = as_table_project(_small())
    for ids in ([], ["a9", "a1", "a5"], ["a2"]):
        assert xyz_text(tables, ids, "two\nlines") == _record_xyz(plain, ids, "two\nlines")
    assert xyz_text(plain, [], "") is None
    for ids in (["a3"], ["a9", "a5"], ["a5", "a4"], ["a7", "a1"], ["zz"], []):
        want = [i for comp in components(plain) if set(ids) & set(comp) for i in comp]
        assert fragment_ids(tables, ids) == want
    assert fragment_ids(plain, ["a1"]) is None


def test_copy_and_select_fragment_among_200000_atoms_build_no_records(
    make_main_window: Any, qtbot: Any, box_file: Path, record_count: list[int]
) -> None:
    from PySide6.QtGui import QGuiApplication

    win = _big_window(make_main_window, qtbot, box_file)
    tab = win.molecule_tab
    atoms = win.ctx.document.project["document"]["atoms"]
    ids = [f"a{i}" for i in atoms.ids[[3, 0]].tolist()]
    tab.set_selection(ids)
    record_count[0] = 0
    assert tab.copy_selection_xyz()
    text = QGuiApplication.clipboard().text()
    lines = text.split("\n")
    assert lines[0] == "2" and lines[2].split()[0] == "O"
    assert [float(v) for v in lines[2].split()[1:]] == [round(float(v), 8) for v in atoms.xyz[0]]
    tab.select_all()
    record_count[0] = 0
    assert tab.copy_selection_xyz()
    assert QGuiApplication.clipboard().text().count("\n") == N + 2
    assert record_count[0] == 0
    tab.set_selection(ids[1:])  # the first water's oxygen
    record_count[0] = 0
    tab.selecting.select_fragment()
    assert tab.view.selection() == [f"a{i}" for i in atoms.ids[:3].tolist()]
    assert record_count[0] <= 3  # the panel's records of the three selected atoms
