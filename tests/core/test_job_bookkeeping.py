"""Job bookkeeping: refused job roots and work folders, progress limits, charge and
multiplicity in History and its CSV."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from molforma.app import ops
from molforma.document.document import Document
from molforma.errors import CalculationError, ValidationError
from molforma.history.export import COLUMNS, rows_to_csv
from molforma.history.folder_scan import scan
from molforma.history.nwfiles import summarize_input
from molforma.jobs.folders import check_job_root, folder_problems
from molforma.jobs.manager import JobManager
from molforma.nwchem.progress import progress_limits

WATER = [
    {"element": "O", "position": [0.0, 0.0, 0.117]},
    {"element": "H", "position": [0.0, 0.757, -0.469]},
    {"element": "H", "position": [0.0, -0.757, -0.469]},
]


def water_doc(tmp_path: Path) -> Document:
    doc = Document()
    ops.add_atoms(doc, WATER, preview=False)
    ops.set_nwchem(doc, {"basis": "sto-3g"}, preview=False)
    ops.set_execution(doc, {"job_root": str(tmp_path / "jobs")}, preview=False)
    return doc


@pytest.mark.parametrize("value", ["jobs", "./jobs", "../elsewhere/jobs", "jobs/~"])
def test_a_relative_job_root_is_refused_in_english_and_japanese(value: str) -> None:
    with pytest.raises(ValidationError) as info:
        check_job_root(value)
    assert info.value.code == "job_root_relative"
    assert value in info.value.message("en") and "full path" in info.value.message("en")
    assert value in info.value.message("ja") and "相対パス" in info.value.message("ja")


@pytest.mark.parametrize("value", ["~/molforma-jobs", "~", "/srv/jobs"])
def test_absolute_and_home_job_roots_are_accepted(value: str) -> None:
    check_job_root(value)


def test_set_execution_refuses_a_relative_or_empty_job_root_and_changes_nothing(
    tmp_path: Path,
) -> None:
    doc = water_doc(tmp_path)
    before = doc.revision
    for value, code in (("jobs", "job_root_relative"), ("  ", "job_root_empty")):
        with pytest.raises(ValidationError) as info:
            ops.set_execution(doc, {"job_root": value}, preview=False)
        assert info.value.code == code
    assert doc.revision == before
    assert doc.project["execution"]["job_root"] == str(tmp_path / "jobs")


def test_set_advanced_refuses_a_missing_absolute_scratch_folder_naming_it(tmp_path: Path) -> None:
    doc = water_doc(tmp_path)
    before = doc.revision
    missing = tmp_path / "no" / "scratch"
    with pytest.raises(ValidationError) as info:
        ops.set_advanced(doc, {"scratch_dir": str(missing)}, preview=False)
    assert info.value.code == "work_dir_missing"
    assert str(missing) in info.value.message("en") and "scratch_dir" in info.value.message("en")
    assert str(missing) in info.value.message("ja")
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(ValidationError) as info:
        ops.set_advanced(doc, {"permanent_dir": str(a_file)}, preview=False)
    assert info.value.code == "work_dir_not_folder"
    assert doc.revision == before
    # An existing folder, or a relative name (made inside each job folder), is fine.
    (tmp_path / "scr").mkdir()
    ops.set_advanced(
        doc, {"scratch_dir": str(tmp_path / "scr"), "permanent_dir": "perm"}, preview=False
    )
    assert doc.project["advanced"]["scratch_dir"] == str(tmp_path / "scr")


def test_a_start_with_a_scratch_folder_gone_is_refused_with_the_path_and_writes_nothing(
    tmp_path: Path,
) -> None:
    doc = water_doc(tmp_path)
    scratch = tmp_path / "scr"
    scratch.mkdir()
    ops.set_advanced(doc, {"scratch_dir": str(scratch)}, preview=False)
    scratch.rmdir()
    with pytest.raises(CalculationError) as info:
        JobManager().start(doc.project)
    assert info.value.code == "input_invalid"
    assert str(scratch) in info.value.message("en")
    assert not (tmp_path / "jobs").exists() or not any((tmp_path / "jobs").iterdir())
    checks = ops.validate_document(doc)
    assert checks["ok"] is False
    (missing,) = [c for c in checks["checks"] if c["code"] == "work_dir_missing"]
    assert missing["severity"] == "error" and str(scratch) in missing["message"]


def test_a_project_with_a_relative_job_root_is_refused_at_start(tmp_path: Path) -> None:
    doc = water_doc(tmp_path)
    project = json.loads(json.dumps(doc.project))
    project["execution"]["job_root"] = "relative-jobs"
    assert [p["code"] for p in folder_problems(project)] == ["job_root_relative"]
    with pytest.raises(CalculationError) as info:
        JobManager().save_input_set(project)
    assert "relative-jobs" in info.value.message("en")


def test_progress_limits_come_from_the_advanced_settings_else_nwchem_defaults() -> None:
    def project(task: str, theory: str = "scf", **adv: Any) -> dict[str, Any]:
        return {"calculation": {"task": task, "theory": theory}, "advanced": adv}

    assert progress_limits(project("energy")) == {"kind": "scf", "maximum": 30}
    assert progress_limits(project("energy", scf_maxiter=12)) == {"kind": "scf", "maximum": 12}
    assert progress_limits(project("energy", "dft", dft_iterations=45))["maximum"] == 45
    assert progress_limits(project("optimize")) == {"kind": "optimization", "maximum": 20}
    assert progress_limits(project("optimize+frequencies", opt_maxiter=7)) == {
        "kind": "optimization",
        "maximum": 7,
    }


def test_the_job_record_and_history_row_carry_charge_and_multiplicity(tmp_path: Path) -> None:
    doc = water_doc(tmp_path)
    ops.set_molecule(doc, charge=1, multiplicity=2, preview=False)
    folder = JobManager().save_input_set(doc.project)
    record = json.loads((Path(folder) / "job.json").read_text())
    assert (record["charge"], record["multiplicity"]) == (1, 2)
    (row,) = scan([str(tmp_path / "jobs")])
    assert (row.charge, row.multiplicity) == (1, 2)


def test_an_older_record_without_them_reads_the_project_snapshot(tmp_path: Path) -> None:
    doc = water_doc(tmp_path)
    ops.set_molecule(doc, charge=-1, multiplicity=2, preview=False)
    folder = Path(JobManager().save_input_set(doc.project))
    record = json.loads((folder / "job.json").read_text())
    del record["charge"], record["multiplicity"]
    (folder / "job.json").write_text(json.dumps(record))
    (row,) = scan([str(tmp_path / "jobs")])
    assert (row.charge, row.multiplicity) == (-1, 2)


def test_a_plain_nwchem_folder_reads_charge_and_spin_from_its_input(tmp_path: Path) -> None:
    run = tmp_path / "ref" / "cation"
    run.mkdir(parents=True)
    (run / "cation.nw").write_text(
        "start cation\ncharge 1\ngeometry\n O 0 0 0\n H 0 0.76 -0.47\n H 0 -0.76 -0.47\nend\n"
        "basis\n * library sto-3g\nend\nscf\n  doublet\n  uhf\nend\ntask scf energy\n"
    )
    (row,) = scan([str(tmp_path / "ref")])
    assert (row.charge, row.multiplicity) == (1, 2)
    dft = summarize_input("charge -2\ndft\n  mult 3\n  xc b3lyp\nend\ntask dft energy\n")
    assert (dft.charge, dft.multiplicity) == (-2, 3)
    nopen = summarize_input("scf\n  nopen 2\nend\ntask scf\n")
    assert (nopen.charge, nopen.multiplicity) == (None, 3)


def test_the_csv_export_has_charge_and_multiplicity_columns(tmp_path: Path) -> None:
    doc = water_doc(tmp_path)
    ops.set_molecule(doc, charge=1, multiplicity=2, preview=False)
    JobManager().save_input_set(doc.project)
    rows = scan([str(tmp_path / "jobs")])
    table = list(csv.reader(io.StringIO(rows_to_csv(rows))))
    assert table[0] == list(COLUMNS)
    assert COLUMNS.index("charge") == COLUMNS.index("formula") + 1
    line = dict(zip(COLUMNS, table[1], strict=True))
    assert (line["charge"], line["multiplicity"]) == ("1", "2")
