"""molforma.jobs.failure_error and progress_note on job records (no process, no Qt)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from molforma.jobs import failure_error, progress_note


def _record(status: str, **extra: Any) -> dict[str, Any]:
    return {
        "status": status,
        "exitCode": extra.pop("exitCode", None),
        "error": None,
        "task": "optimize",
        "theory": "scf",
        "scfConverged": None,
        "optimizationConverged": None,
        "progress": {
            "scfIteration": None,
            "optimizationStep": None,
            "energy": None,
            "energies": [],
            "frequencyDisplacement": None,
            "frequencies": False,
            "updates": 0,
        },
        **extra,
    }


@pytest.mark.parametrize("status", ["queued", "running", "finished", "cancelled"])
def test_only_failed_and_timed_out_runs_are_errors(status: str) -> None:
    assert failure_error(_record(status)) is None


def test_a_failed_run_names_nwchems_line_folder_and_exit_code(tmp_path: Path) -> None:
    rec = _record(
        "failed", exitCode=255, error="scf_gradient: scf energy failed", jobDirectory=str(tmp_path)
    )
    err = failure_error(rec)
    assert err is not None and err.code == "calculation_failed"
    out = err.to_dict("en")
    assert "scf_gradient: scf energy failed" in out["message"] and "255" in out["message"]
    assert out["details"]["status"] == "failed" and out["details"]["exitCode"] == 255
    assert out["details"]["jobDirectory"] == str(tmp_path)
    assert out["details"]["output"] == str(tmp_path / "output.out")
    assert "scf energy failed" in err.to_dict("ja")["message"]
    assert "計算が失敗しました" in err.to_dict("ja")["message"]


def test_a_failed_run_without_a_message_says_its_exit_code() -> None:
    err = failure_error(_record("failed", exitCode=3))
    assert err is not None and err.data["reason"] == "exit code 3"


def test_a_timed_out_run_is_its_own_error() -> None:
    err = failure_error(_record("timed_out", error="time limit of 60 s reached"))
    assert err is not None and err.code == "calculation_timed_out"
    assert "time limit of 60 s reached" in err.message("en")


def test_progress_note_names_step_of_maximum_iteration_and_energy() -> None:
    rec = _record("running")
    rec["progress"].update(scfIteration=5, optimizationStep=2, energy=-76.0123456, updates=17)
    note = progress_note(rec, "en")
    assert note["progress"] == 17 and "total" not in note
    assert note["message"] == (
        "Optimisation step 3 of at most 20 · SCF iteration 5 · energy -76.012346 Eh"
    )
    ja = progress_note(rec, "ja")["message"]
    assert "構造最適化ステップ 3（最大 20）" in ja and "SCF 反復 5" in ja


def test_progress_note_of_an_ended_run_is_complete() -> None:
    rec = _record("failed", error="scf energy failed")
    rec["progress"]["updates"] = 4
    note = progress_note(rec, "en")
    assert note["total"] == note["progress"] == 4
    assert note["message"].startswith("Calculation failed · scf energy failed")
