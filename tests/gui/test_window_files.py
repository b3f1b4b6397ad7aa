"""Opening files in the window as a chemist does: results go to the Results tab, nothing is
lost silently on import (SDF records, titles, .nw settings) and Recent Files remembers."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QAction, QDropEvent

from molforma.app import ops
from tests.gui.helpers import WATER
from tests.paths import NWCHEM_DATA

SDF = """first
     RDKit          3D

  1  0  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 He  0  0  0  0  0  0  0  0  0  0  0  0
M  END
$$$$
second
     RDKit          3D

  1  0  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    2.5000 Ne  0  0  0  0  0  0  0  0  0  0  0  0
M  END
$$$$
"""


@pytest.mark.parametrize("name", ["water_scf_optfreq.out", "nh3_planar_scf_freq.molden"])
def test_file_open_of_an_output_or_molden_file_shows_it_in_the_results_tab(
    make_main_window: Any, dialog_log: Any, qtbot: Any, name: str
) -> None:
    win = make_main_window()
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    before = (win.ctx.document.revision, win.ctx.document.project)
    dialog_log.answers.append(str(NWCHEM_DATA / name))
    win.findChild(QAction, "molforma.file.open").trigger()
    panel = win.panels["results"]
    qtbot.waitUntil(lambda: panel.results is not None, timeout=20000)
    assert win.tabs.currentWidget() is panel
    assert panel.results.source == str(NWCHEM_DATA / name)
    assert (win.ctx.document.revision, win.ctx.document.project) == before
    assert "error" not in dialog_log.names()
    assert "question" not in dialog_log.names()  # nothing to discard: the document stays


def test_a_job_folder_dropped_on_the_window_opens_in_the_results_tab(
    make_main_window: Any, dialog_log: Any, qtbot: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "job"
    folder.mkdir()
    shutil.copy(NWCHEM_DATA / "water_scf_optfreq.out", folder / "output.out")
    win = make_main_window()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(folder))])
    drop = QDropEvent(
        QPoint(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    win.dropEvent(drop)
    panel = win.panels["results"]
    qtbot.waitUntil(lambda: panel.results is not None, timeout=20000)
    assert Path(panel.results.resolvedPath or "").name == "output.out"
    assert win.tabs.currentWidget() is panel


def test_a_multi_record_sdf_offers_the_record_choice(
    make_main_window: Any, dialog_log: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    from molforma.gui import dialogs

    src = tmp_path / "two.sdf"
    src.write_text(SDF)
    seen: list[str] = []

    def second_record(dialog: Any) -> int:
        seen.append(dialog.frame_label.text())
        dialog.frame.setValue(2)
        return 1

    monkeypatch.setattr(dialogs, "run_dialog", second_record)
    win = make_main_window()
    dialog_log.answers.append(str(src))
    win.findChild(QAction, "molforma.file.open").trigger()
    assert seen == ["Record (of 2):"]
    doc = win.ctx.document.project["document"]
    assert [a["element"] for a in doc["atoms"]] == ["Ne"]
    assert doc["title"] == "second"


def test_a_structure_without_a_title_is_named_by_its_file_and_the_title_bar_shows_it(
    make_main_window: Any, dialog_log: Any, tmp_path: Path
) -> None:
    win = make_main_window()
    ops.set_molecule(win.ctx.document, title="aspirin", preview=False)
    src = tmp_path / "neon.xyz"
    src.write_text("1\n\nNe 0 0 0\n")
    dialog_log.answers += [str(src), "Discard"]  # the file first, then the unsaved title
    win.findChild(QAction, "molforma.file.open").trigger()
    assert dialog_log.names() == ["get_open_path", "ask"]
    assert win.ctx.document.project["document"]["title"] == "neon"
    assert win.windowTitle().startswith("neon.xyz")
    assert win.ctx.document.path is None  # Save still asks where the project goes


def test_an_nwchem_input_brings_its_memory_and_optimiser_steps(
    make_main_window: Any, dialog_log: Any, tmp_path: Path
) -> None:
    src = tmp_path / "job.nw"
    src.write_text(
        "start job\nmemory total 800 mb\ngeometry units angstrom\n"
        "  O 0 0 0.1173\n  H 0 0.7572 -0.4692\n  H 0 -0.7572 -0.4692\nend\n"
        "basis\n  * library 6-31g*\nend\ndriver\n  maxiter 77\nend\n"
        "task scf optimize\n"
    )
    win = make_main_window()
    dialog_log.answers.append(str(src))
    win.findChild(QAction, "molforma.file.open").trigger()
    advanced = win.ctx.document.project["advanced"]
    assert advanced["memory_mb"] == 800
    assert advanced["opt_maxiter"] == 77
    assert win.ctx.document.project["calculation"]["task"] == "optimize"


def test_recent_files_lists_what_was_opened_and_reopens_it(
    make_main_window: Any, dialog_log: Any, tmp_path: Path
) -> None:
    first, second = tmp_path / "a.xyz", tmp_path / "b.xyz"
    first.write_text("1\nalpha\nHe 0 0 0\n")
    second.write_text("1\nbeta\nNe 0 0 0\n")
    win = make_main_window()
    dialog_log.answers += [str(first), str(second), "Discard"]  # an opened file is unsaved
    win.findChild(QAction, "molforma.file.open").trigger()
    win.findChild(QAction, "molforma.file.open").trigger()
    win._fill_recent_menu()
    recent = [
        a
        for a in win.recent_menu.actions()
        if a.objectName().startswith("molforma.file.recent.") and a.objectName()[-1].isdigit()
    ]
    assert [a.toolTip() for a in recent] == [str(second.resolve()), str(first.resolve())]
    dialog_log.answers.append("Discard")
    win.findChild(QAction, "molforma.file.recent.1").trigger()
    assert win.ctx.document.project["document"]["title"] == "alpha"
    # A later window (a new session) sees the same list.
    other = make_main_window()
    assert other.findChild(QAction, "molforma.file.recent.0").toolTip() == str(first.resolve())
    other.findChild(QAction, "molforma.file.recent.clear").trigger()
    assert other.findChild(QAction, "molforma.file.recent.0") is None
