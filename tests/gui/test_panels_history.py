"""The History tab: scan, preview, reuse a job, open in results, trash and CSV export."""

from __future__ import annotations

import csv
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.paths import NWCHEM_DATA

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableWidget

from molforma.app import ops

NW = NWCHEM_DATA
WATER = [
    {"element": "O", "position": [0.0, 0.0, 0.117]},
    {"element": "H", "position": [0.0, 0.757, -0.469]},
    {"element": "H", "position": [0.0, -0.757, -0.469]},
]
AMMONIA = [
    {"element": "N", "position": [0.0, 0.0, 0.0]},
    {"element": "H", "position": [1.0, 0.0, 0.0]},
    {"element": "H", "position": [-0.5, 0.866, 0.0]},
    {"element": "H", "position": [-0.5, -0.866, 0.0]},
]


@pytest.fixture
def ctx(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    from molforma.gui.context import AppContext

    context = AppContext.create()
    ops.set_execution(
        context.document,
        {"job_root": str(tmp_path / "jobs"), "reference_dir": str(tmp_path / "ref")},
        preview=False,
    )
    yield context
    context.close()


@pytest.fixture
def jobs(ctx: Any, tmp_path: Path) -> dict[str, Path]:
    """Two saved input sets (ammonia, DFT) in the job root and a real water run as reference."""
    from molforma.jobs.manager import JobManager

    project = ctx.document.project
    ammonia = ops.add_atoms(ctx.document, AMMONIA, preview=False)
    assert ammonia["project"]["formula"] == "H3N"
    ops.set_molecule(ctx.document, title="ammonia", preview=False)
    ops.set_nwchem(ctx.document, {"theory": "dft", "basis": "sto-3g"}, preview=False)
    folder = JobManager().save_input_set(ctx.document.project)
    ref = tmp_path / "ref" / "water_run"
    ref.mkdir(parents=True)
    shutil.copy(NW / "water_scf_optfreq.nw", ref / "water_scf_optfreq.nw")
    shutil.copy(NW / "water_scf_optfreq.out", ref / "water_scf_optfreq.out")
    # Back to an empty molecule: reuse must bring the job's molecule back.
    ctx.document.load(project, label="Empty again", preview=False)
    return {"ammonia": Path(folder), "water": ref}


@pytest.fixture
def panel(qtbot: Any, ctx: Any) -> Any:
    from molforma.gui.widgets.history_panel import HistoryPanel

    w = HistoryPanel(ctx)
    qtbot.addWidget(w)
    w.resize(1100, 700)
    return w


def _scan(qtbot: Any, panel: Any) -> None:
    with qtbot.waitSignal(panel.scanFinished, timeout=20000):
        qtbot.mouseClick(panel.findChild(object, "historyScan"), Qt.MouseButton.LeftButton)


def _row_of(table: QTableWidget, text: str) -> int:
    for r in range(table.rowCount()):
        if any(
            text in (table.item(r, c).text() if table.item(r, c) else "")
            for c in range(table.columnCount())
        ):
            return r
    raise AssertionError(f"{text} not in the table")


def test_showing_the_tab_scans_and_lists_jobs_from_job_root_and_reference(
    panel: Any, jobs: dict[str, Path], qtbot: Any
) -> None:
    with qtbot.waitSignal(panel.scanFinished, timeout=20000):
        panel.show()
    table = panel.findChild(QTableWidget, "historyTable")
    assert table.rowCount() == 2
    r = _row_of(table, "ammonia")
    assert table.item(r, 2).text() == "H3N"
    assert "dft" in table.item(r, 4).text() and "sto-3g" in table.item(r, 4).text()
    w = _row_of(table, "water_run")
    assert float(table.item(w, 6).text()) == pytest.approx(-76.01074651, abs=1e-6)


def test_rows_show_a_readable_local_time_and_the_task_in_words(
    panel: Any, jobs: dict[str, Path], qtbot: Any
) -> None:
    import re

    with qtbot.waitSignal(panel.scanFinished, timeout=20000):
        panel.show()
    table = panel.findChild(QTableWidget, "historyTable")
    r = _row_of(table, "ammonia")
    date = table.item(r, 0)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", date.text()), date.text()
    assert "T" in date.toolTip()  # the recorded ISO time stays one hover away
    assert table.item(r, 3).text() == "Energy (single point)"


def test_selecting_a_row_previews_its_input_and_log(
    panel: Any, jobs: dict[str, Path], qtbot: Any
) -> None:
    panel.show()
    _scan(qtbot, panel)
    table = panel.findChild(QTableWidget, "historyTable")
    table.selectRow(_row_of(table, "water_run"))
    inp = panel.findChild(object, "historyPreviewInput")
    log = panel.findChild(object, "historyPreviewLog")
    qtbot.waitUntil(lambda: "basis" in inp.toPlainText(), timeout=5000)
    assert "Total times" in log.toPlainText()


def test_reuse_loads_the_molecule_and_conditions_as_one_untrusted_undo_step(
    panel: Any, ctx: Any, jobs: dict[str, Path], qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs

    panel.show()
    _scan(qtbot, panel)
    table = panel.findChild(QTableWidget, "historyTable")
    table.selectRow(_row_of(table, "ammonia"))
    steps = len(ctx.document.undo_labels)
    assert ctx.document.project["document"]["atoms"] == []
    qtbot.mouseClick(panel.findChild(object, "historyReuse"), Qt.MouseButton.LeftButton)
    project = ctx.document.project
    assert [a["element"] for a in project["document"]["atoms"]] == ["N", "H", "H", "H"]
    assert project["calculation"]["theory"] == "dft"
    assert len(ctx.document.undo_labels) == steps + 1
    ctx.document.undo()
    assert ctx.document.project["document"]["atoms"] == []
    ctx.document.redo()

    # A reused job whose executable differs is not trusted: Run asks first.
    snap = jobs["ammonia"] / "project.molforma.json"
    import json

    data = json.loads(snap.read_text())
    data["execution"]["executable"] = "/opt/other/nwchem"
    snap.write_text(json.dumps(data))
    qtbot.mouseClick(panel.findChild(object, "historyReuse"), Qt.MouseButton.LeftButton)
    assert ctx.document.project["execution"]["executable"] == "/opt/other/nwchem"
    assert not ctx.document.is_trusted
    asked: list[str] = []

    def no(parent: Any, title: str, text: str, buttons: list[str], **kw: Any) -> str:
        asked.append(text)
        return buttons[-1]

    monkeypatch.setattr(dialogs, "ask", no)
    from molforma.gui.widgets.execution_panel import ExecutionPanel

    execution = ExecutionPanel(ctx)
    qtbot.addWidget(execution)
    execution.run()
    assert asked and "/opt/other/nwchem" in asked[0]
    assert execution.job is None


def test_open_in_results_viewer_loads_the_selected_job(
    panel: Any, ctx: Any, jobs: dict[str, Path], qtbot: Any
) -> None:
    panel.show()
    _scan(qtbot, panel)
    table = panel.findChild(QTableWidget, "historyTable")
    table.selectRow(_row_of(table, "water_run"))
    with qtbot.waitSignal(ctx.events.resultsChanged, timeout=20000):
        qtbot.mouseClick(panel.findChild(object, "historyOpenResults"), Qt.MouseButton.LeftButton)
    assert ctx.results.current.summary.optimizationConverged is True
    assert Path(ctx.results.current.source) == jobs["water"]


def test_open_folder_asks_the_desktop_for_the_selected_folder(
    panel: Any, jobs: dict[str, Path], qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui.widgets import history_panel

    opened: list[str] = []
    monkeypatch.setattr(
        history_panel, "open_url", lambda url: opened.append(url.toLocalFile()) or True
    )
    panel.show()
    _scan(qtbot, panel)
    table = panel.findChild(QTableWidget, "historyTable")
    table.selectRow(_row_of(table, "ammonia"))
    qtbot.mouseClick(panel.findChild(object, "historyOpenFolder"), Qt.MouseButton.LeftButton)
    assert opened == [str(jobs["ammonia"])]


def test_move_to_trash_asks_and_moves_the_folder(
    panel: Any, jobs: dict[str, Path], qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs

    panel.show()
    _scan(qtbot, panel)
    table = panel.findChild(QTableWidget, "historyTable")
    answers = iter(["cancel", "yes"])

    def ask(parent: Any, title: str, text: str, buttons: list[str], **kw: Any) -> str:
        return buttons[-1] if next(answers) == "cancel" else buttons[0]

    monkeypatch.setattr(dialogs, "ask", ask)
    table.selectRow(_row_of(table, "ammonia"))
    trash = panel.findChild(object, "historyTrash")
    qtbot.mouseClick(trash, Qt.MouseButton.LeftButton)
    assert jobs["ammonia"].exists()
    qtbot.mouseClick(trash, Qt.MouseButton.LeftButton)
    assert not jobs["ammonia"].exists()
    assert (tmp_path / "xdg" / "Trash" / "files" / jobs["ammonia"].name).is_dir()
    assert table.rowCount() == 1
    _scan(qtbot, panel)
    assert table.rowCount() == 1


def test_export_csv_writes_every_row(
    panel: Any, jobs: dict[str, Path], qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs

    panel.show()
    _scan(qtbot, panel)
    target = tmp_path / "out" / "history.csv"
    monkeypatch.setattr(dialogs, "get_save_path", lambda *a, **k: str(target))
    qtbot.mouseClick(panel.findChild(object, "historyExportCsv"), Qt.MouseButton.LeftButton)
    with target.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 2
    assert {r["formula"] for r in rows} == {"H3N", "H2O"}


def test_allowed_directories_refuse_a_folder_outside_to_mcp_but_not_to_the_person(
    panel: Any, ctx: Any, jobs: dict[str, Path], qtbot: Any, tmp_path: Path
) -> None:
    from molforma.app.actor import acting_for_mcp
    from molforma.app.policy import Policy

    panel.show()
    _scan(qtbot, panel)
    ctx.policy = Policy(allow_dirs=(str(tmp_path / "jobs"),))
    table = panel.findChild(QTableWidget, "historyTable")
    before = ctx.document.revision
    table.selectRow(_row_of(table, "water_run"))
    with acting_for_mcp():  # a window command driven by MCP
        assert not panel.reuse_selected()
    assert ctx.document.revision == before
    assert panel.findChild(object, "historyStatus").text()
    # The person's own click is not limited by --mcp-allow-dir (docs/reference/safety.md, Allowed directories).
    assert panel.reuse_selected()
    assert ctx.document.revision != before
    assert ctx.document.undo_labels[-1] == "Reuse job"


def test_the_status_line_counts_jobs_with_plural_forms_in_english_and_japanese(
    panel: Any, jobs: dict[str, Path], qtbot: Any, tmp_path: Path
) -> None:
    from PySide6.QtCore import QCoreApplication, QTranslator

    from tests.paths import REPO

    panel.show()
    _scan(qtbot, panel)
    status = panel.status_label
    assert status.text().startswith("2 jobs in ")
    shutil.rmtree(jobs["water"])
    _scan(qtbot, panel)
    assert status.text().startswith("1 job in "), status.text()
    assert str(tmp_path / "jobs") in status.text()
    translator = QTranslator()
    assert translator.load(str(REPO / "translations" / "panels_ja.qm"))
    QCoreApplication.installTranslator(translator)
    try:
        _scan(qtbot, panel)
        assert status.text().startswith(f"{tmp_path / 'jobs'}")
        assert "に 1 件のジョブ" in status.text()
    finally:
        QCoreApplication.removeTranslator(translator)
