"""The Molecule tab at 200,000 atoms: the window's first frame and a change of the
selection cost what the selection needs, not the whole document. No clock is read:
the records the tab builds are counted (a wrapper around the table's record builder),
and the coordinate table is checked to share the view's columns (no copy)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from molforma.document import building
from molforma.document.molecule import AtomTable, as_table_project
from molforma.gui.main_window import load_launch_file
from molforma.gui.widgets import molecule_lookup
from tests.mcp.test_large_documents import water_box

N = 200_000


@pytest.fixture(scope="module")
def box_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("box") / "box.xyz"
    path.write_text(water_box(N))
    return path


@pytest.fixture
def record_count(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Atom records built by AtomTable.to_records from now on (every row path uses it)."""
    built = [0]
    original = AtomTable.to_records

    def counting(self: AtomTable, start: int = 0, stop: int | None = None) -> Any:
        out = original(self, start, stop)
        built[0] += len(out)
        return out

    monkeypatch.setattr(AtomTable, "to_records", counting)
    return built


def _big_window(make_main_window: Any, qtbot: Any, box_file: Path) -> Any:
    win = make_main_window()
    load_launch_file(win.ctx, str(box_file))
    qtbot.wait(50)
    assert len(win.ctx.document.project["document"]["atoms"]) == N
    return win


def test_showing_200000_atoms_builds_no_atom_record_and_the_table_shares_the_columns(
    make_main_window: Any, qtbot: Any, box_file: Path, record_count: list[int]
) -> None:
    win = _big_window(make_main_window, qtbot, box_file)
    tab = win.molecule_tab
    record_count[0] = 0
    tab.refresh()  # what the first frame of a loaded file runs: view, table, state
    assert record_count[0] == 0
    # The table lists the view's own columns (the same object, not a copy of them).
    assert tab.table.atom_model._columns is tab.view.shown_structure()
    assert tab.table.atom_model.rowCount() == N
    assert tab.valence_problems == []


def test_selecting_atoms_among_200000_builds_their_records_only(
    make_main_window: Any, qtbot: Any, box_file: Path, record_count: list[int]
) -> None:
    win = _big_window(make_main_window, qtbot, box_file)
    tab = win.molecule_tab
    ids = [str(i) for i in tab.view.shown_structure().ids[[0, 1, 2]]]
    record_count[0] = 0
    tab.set_selection(ids[:1])
    assert record_count[0] <= 1
    # The state follows the selection: the property panel shows that atom.
    assert ids[0] in tab.properties.atom_box.title()
    tab.set_selection(ids[:2])  # O and its first H: the distance is measured
    assert "Distance" in tab.measurement.text()
    assert tab.measurement.text().endswith("0.9572 Å")
    assert tab.measure_name(ids[:2]) == "O1–H2"
    tab.keep_measurement(ids[:2])
    assert tab.measurement_list.item(0).text().startswith("O1–H2: 0.957")
    tab.set_selection(ids)
    assert "Angle" in tab.measurement.text()
    # Each state update built the selected atoms' records (1, 2, 2 kept, 3), no more.
    assert record_count[0] == 1 + 2 + 2 + 3
    assert tab.atom_label(ids[2]) == "H3"


def _project(atoms: list[dict[str, Any]], bonds: list[dict[str, Any]]) -> dict[str, Any]:
    full = [
        {
            "id": a["id"],
            "element": a["element"],
            "x": a.get("x", 0.0),
            "y": 0.0,
            "z": 0.0,
            "name": "",
            "formalCharge": a.get("formalCharge", 0),
            "unpairedElectrons": 0,
            "massNumber": None,
            "mass": None,
            "fixed": False,
        }
        for a in atoms
    ]
    return {"document": {"atoms": full, "bonds": bonds}}


def test_the_column_valence_check_gives_the_documents_answer() -> None:
    # A five-bonded carbon, a charged nitrogen with four bonds (fine), an overbonded O,
    # a metal with many bonds (not checked) and a plain water.
    atoms = [{"id": "a1", "element": "C"}] + [{"id": f"a{i}", "element": "H"} for i in range(2, 7)]
    atoms += [{"id": "a7", "element": "N", "formalCharge": 1}] + [
        {"id": f"a{i}", "element": "H"} for i in range(8, 12)
    ]
    atoms += [{"id": "a12", "element": "O"}] + [
        {"id": f"a{i}", "element": "H"} for i in range(13, 16)
    ]
    atoms += [{"id": "a16", "element": "Fe"}] + [
        {"id": f"a{i}", "element": "Cl"} for i in range(17, 24)
    ]
    atoms += [
        {"id": "a24", "element": "O"},
        {"id": "a25", "element": "H"},
        {"id": "a26", "element": "H"},
    ]
    bonds = [{"a": "a1", "b": f"a{i}", "order": 1} for i in range(2, 7)]
    bonds += [{"a": "a7", "b": f"a{i}", "order": 1} for i in range(8, 12)]
    bonds += [{"a": "a12", "b": f"a{i}", "order": 1} for i in range(13, 16)]
    bonds += [{"a": "a16", "b": f"a{i}", "order": 1} for i in range(17, 24)]
    bonds += [{"a": "a24", "b": "a25", "order": 1}, {"a": "a24", "b": "a26", "order": 1}]
    plain = _project(atoms, bonds)
    tables = as_table_project(plain)
    assert isinstance(tables["document"]["atoms"], AtomTable)
    want = building.valence_problem_ids(plain)
    assert set(want) >= {"a1", "a12"}
    assert molecule_lookup.valence_problem_ids(tables) == want
    # and nothing flagged where the records' check flags nothing
    fine = as_table_project(_project(atoms[-3:], bonds[-2:]))
    assert molecule_lookup.valence_problem_ids(fine) == []
    assert np.array_equal(molecule_lookup.rows_of(tables, ["a3", "a99"]), [2, -1])


def test_selecting_all_200000_atoms_selects_one_range_of_table_rows(
    make_main_window: Any, qtbot: Any, box_file: Path
) -> None:
    win = _big_window(make_main_window, qtbot, box_file)
    tab = win.molecule_tab
    tab.select_all()
    ranges = tab.table.selectionModel().selection()
    assert len(ranges) == 1
    assert (ranges[0].top(), ranges[0].bottom()) == (0, N - 1)
    assert len(tab.view.selection()) == N


def test_rows_become_runs_of_consecutive_rows() -> None:
    from molforma.gui.widgets.molecule_selection import row_runs

    assert row_runs([]) == []
    assert row_runs([5, 3, 4, 9, 10, 0]) == [(0, 0), (3, 5), (9, 10)]


def test_charge_and_name_labels_among_200000_atoms_build_no_record(
    make_main_window: Any, qtbot: Any, box_file: Path, record_count: list[int]
) -> None:
    win = _big_window(make_main_window, qtbot, box_file)
    tab = win.molecule_tab
    record_count[0] = 0
    assert tab.geometry_editor.atom_labels("charge") == {}
    assert tab.geometry_editor.atom_labels("name") == {}
    assert record_count[0] == 0


def test_column_labels_are_the_records_labels() -> None:
    atoms = [
        {"id": "a1", "element": "N", "formalCharge": 1},
        {"id": "a2", "element": "H"},
        {"id": "a5", "element": "O", "formalCharge": -1},
    ]
    plain = _project(atoms, [{"a": "a1", "b": "a2", "order": 1}])
    plain["document"]["atoms"][1]["name"] = "HN"
    tables = as_table_project(plain)
    assert molecule_lookup.column_labels(tables, "charge") == {"a1": "+1", "a5": "-1"}
    assert molecule_lookup.column_labels(tables, "name") == {"a2": "HN"}
    assert molecule_lookup.column_labels(tables, "element_index") == {
        "a1": "N1",
        "a2": "H2",
        "a5": "O3",
    }
    assert molecule_lookup.column_labels(plain, "charge") is None  # records: the old path
