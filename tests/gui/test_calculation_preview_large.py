"""The Calculation tab's input preview of a 200,000-atom structure: the geometry block cut
to its first lines and a note, the input checks and text built without a record per atom;
the job and the export still write every atom. No clock is read: records are counted."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from molforma.file_formats import BY_NAME
from molforma.gui.widgets.calculation_preview import PREVIEW_ROWS, preview_text
from molforma.nwchem.input import input_errors, render_input
from tests.gui.test_molecule_tab_large import N, _big_window, box_file, record_count

__all__ = ["box_file", "record_count"]  # fixtures shared with the Molecule tab's test


def _atom_lines(text: str) -> list[str]:
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("geometry "))
    end = lines.index("end", start)
    return lines[start + 1 : end]


def test_the_preview_of_200000_atoms_cuts_the_geometry_and_builds_no_atom_records(
    make_main_window: Any, qtbot: Any, box_file: Path, record_count: list[int]
) -> None:
    win = _big_window(make_main_window, qtbot, box_file)
    win.show_tab("calculation")
    preview = win.findChild(object, "inputPreview")
    qtbot.waitUntil(lambda: "more atoms" in preview.toPlainText(), timeout=20000)
    text = preview.toPlainText()
    shown = _atom_lines(text)
    assert len(shown) == PREVIEW_ROWS + 1
    assert shown[0].split()[0] == "O" and shown[1].split()[0] == "H"
    assert shown[-1] == (
        f"  # … {N - PREVIEW_ROWS:,} more atoms (the full input is written "
        "when the job runs or on export)"
    )
    assert "\ntask " in text  # the rest of the input follows the cut geometry
    # Rendering it again and checking the input read the columns: the preview's own
    # lines are the only records built.
    project = win.ctx.document.project
    record_count[0] = 0
    assert preview_text(project) == text
    assert input_errors(project) == []
    assert record_count[0] == PREVIEW_ROWS


def test_the_job_and_the_export_of_200000_atoms_write_every_atom(
    make_main_window: Any, qtbot: Any, box_file: Path
) -> None:
    from molforma.jobs.job_setup import _Prepared

    win = _big_window(make_main_window, qtbot, box_file)
    project = win.ctx.document.project
    module, name = BY_NAME["nwchem"].writer.split(":")
    exported = getattr(importlib.import_module(module), name)(project)
    assert len(_atom_lines(exported)) == N
    assert "more atoms" not in exported
    job_text = _Prepared(project).input_text
    assert len(_atom_lines(job_text)) == N
    assert job_text == exported


def test_a_small_preview_is_the_whole_input() -> None:
    atoms = [
        {"id": "a1", "element": "O", "x": 0.0, "y": 0.0, "z": 0.0},
        {"id": "a2", "element": "H", "x": 0.9572, "y": 0.0, "z": 0.0},
        {"id": "a3", "element": "H", "x": -0.24, "y": 0.927, "z": 0.0},
    ]
    project = {"document": {"atoms": atoms, "bonds": []}}
    assert preview_text(project) == render_input(project)


@pytest.mark.parametrize("fixed", [False, True])
def test_the_column_paths_write_what_the_records_write(fixed: bool) -> None:
    from molforma.document.molecule import as_table_project

    atoms = [
        {
            "id": f"a{i + 1}",
            "element": e,
            "x": float(i),
            "y": 0.5 * i,
            "z": 0.0,
            "name": "",
            "formalCharge": 0,
            "unpairedElectrons": 0,
            "massNumber": None,
            "mass": None,
            "fixed": fixed and i == 1,
        }
        for i, e in enumerate(["O", "H", "H", "Br", "C"])
    ]
    plain = {
        "document": {"atoms": atoms, "bonds": [], "multiplicity": 2},
        "calculation": {"basis": "def2-svp"},
    }
    tables = as_table_project(plain)
    assert render_input(tables) == render_input(plain)
    assert input_errors(tables) == input_errors(plain)


def test_the_structure_checks_of_a_large_structure_run_off_the_window_thread(
    make_main_window: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from molforma.app import ops
    from molforma.gui.main_window import load_launch_file
    from molforma.gui.widgets.calculation_preview import PREVIEW_FULL_ATOMS
    from tests.mcp.test_large_documents import water_box

    n = PREVIEW_FULL_ATOMS + 1002
    text = water_box(n - 2)
    # Two helium atoms 0.5 Å apart, far from the box: a close-contact warning.
    lines = text.split("\n")
    lines[0] = str(n)
    path = tmp_path / "box.xyz"
    path.write_text(
        "\n".join(lines).rstrip("\n") + "\nHe 500.0 500.0 500.0\nHe 500.5 500.0 500.0\n"
    )
    threads: list[str] = []
    original = ops.validate_document

    def recording(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return original(*args, **kwargs)

    monkeypatch.setattr(ops, "validate_document", recording)
    win = make_main_window()
    load_launch_file(win.ctx, str(path))
    win.show_tab("calculation")
    preview = win.findChild(object, "inputPreview")
    qtbot.waitUntil(lambda: "more atoms" in preview.toPlainText(), timeout=20000)
    general = win.findChild(object, "calculationMessages")
    qtbot.waitUntil(lambda: "Warning:" in general.text(), timeout=60000)
    assert threads and all(t != threading.main_thread().name for t in threads), threads
