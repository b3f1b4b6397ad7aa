"""Closing the window while a calculation runs asks first; MCP mode never asks; batch jobs stay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.gui.test_quit_stops_calculations import _alive, _run_stand_in


def test_closing_during_a_run_asks_and_cancel_keeps_the_window_and_the_job(
    make_main_window: Any, qtbot: Any, tmp_path: Path, dialog_log: Any
) -> None:
    window = make_main_window()
    job, pids = _run_stand_in(window, qtbot, tmp_path)
    window.ctx.document.modified = False  # only the running job is asked about
    dialog_log.answers.append("Cancel")
    window.close()
    assert dialog_log.names() == ["ask"]
    title, text, buttons = dialog_log.calls[0][1]
    assert title == "Calculation running"
    assert buttons == ["Stop and quit", "Cancel"]
    assert "1 calculation still running here will be stopped" in text
    assert str(job.folder) in text
    assert window.isVisible()
    assert job.status == "running" and all(_alive(p) for p in pids)

    dialog_log.answers.append("Stop and quit")
    window.close()
    assert not window.isVisible()
    assert job.status == "cancelled"
    assert json.loads((job.folder / "job.json").read_text())["status"] == "cancelled"
    assert not any(_alive(p) for p in pids)


def test_stop_and_quit_then_cancel_on_unsaved_changes_leaves_the_job_running(
    make_main_window: Any, qtbot: Any, tmp_path: Path, dialog_log: Any
) -> None:
    window = make_main_window()
    job, pids = _run_stand_in(window, qtbot, tmp_path)
    assert window.ctx.document.modified  # the water was added
    dialog_log.answers += ["Stop and quit", "Cancel"]
    window.close()
    assert [c[1][0] for c in dialog_log.calls] == ["Calculation running", "Unsaved changes"]
    assert window.isVisible()
    assert job.status == "running" and all(_alive(p) for p in pids)
    job.cancel()
    assert job.wait(15)


def test_in_mcp_mode_closing_never_asks_and_stops_the_run(
    make_main_window: Any, qtbot: Any, tmp_path: Path, dialog_log: Any
) -> None:
    window = make_main_window(mcp_mode=True)
    job, pids = _run_stand_in(window, qtbot, tmp_path)
    window.close()
    assert dialog_log.calls == []
    assert not window.isVisible()
    assert job.status == "cancelled"
    assert not any(_alive(p) for p in pids)


class _BatchJob:
    """A job handed to a scheduler, as the SLURM path records it."""

    is_batch = True

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.status = "queued"
        self.cancelled = False

    def snapshot(self) -> dict[str, Any]:
        return {"status": self.status, "scheduler": "slurm"}

    def cancel(self) -> None:
        self.cancelled = True


class _Manager:
    def __init__(self, jobs: list[Any]) -> None:
        self._jobs = jobs

    def jobs(self) -> list[Any]:
        return list(self._jobs)

    def stop_all(self) -> None:
        for job in self._jobs:
            if not getattr(job, "is_batch", False):
                job.cancel()


def test_a_batch_job_is_named_as_kept_running_and_quit_leaves_it(
    make_main_window: Any, tmp_path: Path, dialog_log: Any
) -> None:
    from molforma.gui.running_jobs import is_batch_job, running_jobs

    window = make_main_window()
    batch = _BatchJob(tmp_path / "20261201-120000-H2O-energy")
    window.ctx.jobs = _Manager([batch])
    assert is_batch_job(batch)
    assert running_jobs(window.ctx) == ([], [batch])
    dialog_log.answers.append("Quit")
    window.close()
    _title, text, buttons = dialog_log.calls[0][1]
    assert buttons == ["Quit", "Cancel"]
    assert "1 batch job on the cluster keeps running" in text
    assert str(batch.folder) in text
    assert "will be stopped" not in text
    assert not window.isVisible()
    assert batch.cancelled is False


def test_a_job_recorded_with_a_scheduler_counts_as_batch_without_the_attribute() -> None:
    from molforma.gui.running_jobs import is_batch_job

    class Recorded:
        def snapshot(self) -> dict[str, Any]:
            return {"status": "running", "scheduler": "slurm"}

    class Local:
        def snapshot(self) -> dict[str, Any]:
            return {"status": "running", "scheduler": "local"}

    assert is_batch_job(Recorded())
    assert not is_batch_job(Local())


def test_closing_with_no_calculation_running_asks_nothing(
    make_main_window: Any, dialog_log: Any
) -> None:
    window = make_main_window()
    window.close()
    assert dialog_log.calls == []
    assert not window.isVisible()


def test_the_question_is_asked_in_japanese_too(
    make_main_window: Any, tmp_path: Path, dialog_log: Any, monkeypatch: Any
) -> None:
    from molforma.gui.app import set_language

    monkeypatch.setenv("MOLFORMA_LANGUAGE", "en")  # put back after the switch
    window = make_main_window()
    batch = _BatchJob(tmp_path / "job")
    window.ctx.jobs = _Manager([batch])
    set_language("ja", window.ctx)
    try:
        dialog_log.answers.append("キャンセル")
        window.close()
    finally:
        set_language("en", window.ctx)
    title, text, buttons = dialog_log.calls[0][1]
    assert title == "計算を実行中"
    assert "バッチジョブ 1 件は実行を続けます" in text
    assert buttons == ["終了", "キャンセル"]
    assert window.isVisible()
