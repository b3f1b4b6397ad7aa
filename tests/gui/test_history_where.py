"""History shows where each job ran: this computer, the local SLURM, or a cluster profile
and its host (from the record's ``remote``), with a lost connection and the files left
on the cluster; the CSV export has a ``where`` column."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableWidget

from molforma.app import ops

RECORDS = {
    "here": {"scheduler": "local"},
    "batch": {"scheduler": "slurm", "nativeId": "12"},
    "far": {
        "scheduler": "slurm",
        "nativeId": "34",
        "remote": {
            "profile": "hpc",
            "host": "hpc-login",
            "folder": "/scratch/ada/molforma-jobs/far",
        },
        "connectionError": "Cluster profile 'hpc': no answer in time.",
        "remoteOnly": ["water.aoints.0", "big.movecs"],
    },
}


@pytest.fixture
def ctx(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    from molforma.gui.context import AppContext

    context = AppContext.create()
    ops.set_execution(context.document, {"job_root": str(tmp_path / "jobs")}, preview=False)
    root = tmp_path / "jobs"
    for name, extra in RECORDS.items():
        folder = root / name
        folder.mkdir(parents=True)
        (folder / "job.json").write_text(
            json.dumps(
                {
                    "status": "finished",
                    "title": name,
                    "task": "energy",
                    "theory": "scf",
                    "basis": "sto-3g",
                    "createdAt": "2026-12-01T10:00:00",
                    "finalEnergy": -74.96,
                    **extra,
                }
            )
        )
    yield context
    context.close()


@pytest.fixture
def panel(qtbot: Any, ctx: Any) -> Any:
    from molforma.gui.widgets.history_panel import COLUMNS, HistoryPanel

    w = HistoryPanel(ctx)
    qtbot.addWidget(w)
    w.resize(1100, 700)
    with qtbot.waitSignal(w.scanFinished, timeout=20000):
        w.show()
    w.where_column = COLUMNS.index("where")
    return w


def _line(table: QTableWidget, title: str) -> int:
    return next(r for r in range(table.rowCount()) if table.item(r, 1).text() == title)


def test_history_shows_where_each_job_ran_with_the_lost_connection_and_files_left(
    panel: Any, qtbot: Any
) -> None:
    table = panel.findChild(QTableWidget, "historyTable")
    col = panel.where_column
    assert table.horizontalHeaderItem(col).text() == "Ran on"
    assert table.item(_line(table, "here"), col).text() == "Local"
    assert table.item(_line(table, "batch"), col).text() == "Local SLURM"
    far = _line(table, "far")
    assert table.item(far, col).text().startswith("hpc (hpc-login)")
    tip = table.item(far, col).toolTip()
    assert "no answer in time" in tip and "water.aoints.0, big.movecs" in tip
    label = panel.findChild(QLabel, "historyWhere")
    panel.select_index(far)
    qtbot.waitUntil(lambda: label.isVisible())
    assert "hpc" in label.text() and "hpc-login" in label.text()
    assert "Connection error" in label.text() and "big.movecs" in label.text()
    panel.select_index(_line(table, "here"))
    qtbot.waitUntil(lambda: label.text() == "Ran on this computer.")


def test_history_where_in_japanese(panel: Any, qtbot: Any, monkeypatch: Any) -> None:
    from molforma.gui.app import install_translators

    monkeypatch.delenv("MOLFORMA_LANGUAGE", raising=False)
    try:
        install_translators("ja")
        panel.retranslate()
        table = panel.findChild(QTableWidget, "historyTable")
        col = panel.where_column
        assert table.horizontalHeaderItem(col).text() == "実行場所"
        assert table.item(_line(table, "here"), col).text() == "ローカル"
        assert table.item(_line(table, "batch"), col).text() == "ローカル SLURM"
        panel.select_index(_line(table, "far"))
        label = panel.findChild(QLabel, "historyWhere")
        qtbot.waitUntil(lambda: "クラスター" in label.text())
    finally:
        install_translators("en")
        panel.retranslate()


def test_the_history_csv_has_a_where_column(panel: Any, tmp_path: Path) -> None:
    path = panel.export_csv(str(tmp_path / "history.csv"))
    assert path is not None
    with open(path, encoding="utf-8", newline="") as fh:
        rows = {r["title"]: r for r in csv.DictReader(fh)}
    assert rows["here"]["where"] == "local"
    assert rows["batch"]["where"] == "slurm"
    assert rows["far"]["where"] == "remote:hpc@hpc-login"


def test_a_record_with_odd_remote_values_still_lists_and_never_shows_markup(
    ctx: Any, qtbot: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "jobs" / "odd"
    folder.mkdir()
    (folder / "job.json").write_text(
        json.dumps(
            {
                "status": "finished",
                "title": "odd",
                "remote": {"profile": "<b>x</b>", "host": 7},
                "remoteOnly": "not a list",
                "connectionError": ["no"],
            }
        )
    )
    from molforma.gui.widgets.history_panel import HistoryPanel

    w = HistoryPanel(ctx)
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.scanFinished, timeout=20000):
        w.show()
    table = w.findChild(QTableWidget, "historyTable")
    line = _line(table, "odd")
    w.select_index(line)
    label = w.findChild(QLabel, "historyWhere")
    qtbot.waitUntil(lambda: label.isVisible())
    assert label.textFormat() == Qt.TextFormat.PlainText and "<b>x</b>" in label.text()
