"""History actions on one row or the table: reuse, move to trash, export CSV."""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

import molforma.history.trash as trash_mod
from molforma.document.envelope import new_atom, new_project
from molforma.errors import FileAccessError, FormatError, ValidationError
from molforma.history import HistoryRow, export_csv, move_to_trash, reuse
from molforma.history.export import COLUMNS, rows_to_csv
from molforma.history.folder_scan import scan
from tests.paths import NWCHEM_DATA

FIXTURES = NWCHEM_DATA


@pytest.fixture
def trash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An isolated home trash under tmp_path."""
    data = tmp_path / "xdg-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    return data / "Trash"


def water_project() -> dict[str, Any]:
    proj = new_project(processes=2)
    proj["document"]["title"] = "water snapshot"
    proj["document"]["atoms"] = [
        new_atom("a1", "O", 0.0, 0.0, 0.1173),
        new_atom("a2", "H", 0.0, 0.7572, -0.4692),
        new_atom("a4", "H", 0.0, -0.7572, -0.4692, fixed=True),
    ]
    proj["document"]["bonds"] = [
        {"a": "a1", "b": "a2", "order": 1},
        {"a": "a1", "b": "a4", "order": 1},
    ]
    proj["document"]["nextAtomId"] = 5
    proj["calculation"]["theory"] = "dft"
    proj["futureField"] = {"kept": True}
    return proj


def make_folder(root: Path, name: str, files: dict[str, str]) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    for fname, text in files.items():
        (folder / fname).write_text(text, encoding="utf-8")
    return folder


# -- reuse ---------------------------------------------------------------------------------------


def test_reuse_prefers_the_project_snapshot(tmp_path: Path) -> None:
    snap = water_project()
    folder = make_folder(
        tmp_path,
        "job",
        {
            "project.molforma.json": json.dumps(snap),
            "input.nw": "geometry\n C 0 0 0\nend\ntask scf\n",
            "job.json": json.dumps({"format": "molforma-job", "status": "finished"}),
        },
    )
    proj = reuse(str(folder))
    assert proj["document"]["atoms"] == snap["document"]["atoms"]
    assert proj["document"]["nextAtomId"] == 5
    assert proj["calculation"]["theory"] == "dft"
    assert proj["execution"]["processes"] == 2
    assert proj["futureField"] == {"kept": True}


def test_reuse_builds_a_project_from_the_nwchem_input(tmp_path: Path) -> None:
    folder = tmp_path / "water"
    folder.mkdir()
    shutil.copy(FIXTURES / "water_scf_optfreq.nw", folder / "water_scf_optfreq.nw")
    shutil.copy(FIXTURES / "water_scf_optfreq.out", folder / "water_scf_optfreq.out")
    proj = reuse(str(folder))
    elements = [a["element"] for a in proj["document"]["atoms"]]
    assert elements == ["O", "H", "H"]
    assert proj["document"]["atoms"][1]["y"] == pytest.approx(0.7572)
    assert proj["calculation"]["basis"].lower() == "6-31g*"
    assert proj["calculation"]["task"] == "optimize+frequencies"
    assert proj["document"]["nextAtomId"] == 4
    assert proj["format"] == "molforma-project"


def test_reuse_of_a_broken_snapshot_fails_clearly(tmp_path: Path) -> None:
    folder = make_folder(tmp_path, "job", {"project.molforma.json": "{oops"})
    with pytest.raises(FormatError):
        reuse(str(folder))
    bad = make_folder(tmp_path, "bad", {"project.molforma.json": json.dumps({"format": "x"})})
    with pytest.raises(FormatError):
        reuse(str(bad))


def test_reuse_without_input_or_snapshot_is_refused(tmp_path: Path) -> None:
    folder = make_folder(tmp_path, "outonly", {"output.out": "Total times cpu: 1s\n"})
    with pytest.raises(FileAccessError) as info:
        reuse(str(folder))
    assert info.value.code == "history_nothing_to_reuse"
    with pytest.raises(FileAccessError) as info:
        reuse(str(tmp_path / "nothing-here"))
    assert info.value.code == "history_not_job_folder"


# -- trash -----------------------------------------------------------------------------------------


def test_move_to_trash_moves_the_folder_and_writes_trash_info(tmp_path: Path, trash: Path) -> None:
    folder = make_folder(
        tmp_path / "jobs", "20261101-H2O-energy", {"input.nw": "task scf\n", "output.out": "log\n"}
    )
    trashed = Path(move_to_trash(str(folder)))
    assert not folder.exists()
    assert trashed == trash / "files" / "20261101-H2O-energy"
    assert (trashed / "output.out").read_text() == "log\n"
    info = (trash / "info" / "20261101-H2O-energy.trashinfo").read_text(encoding="utf-8")
    lines = info.splitlines()
    assert lines[0] == "[Trash Info]"
    fields = dict(line.split("=", 1) for line in lines[1:])
    assert unquote(fields["Path"]) == str(folder)
    assert len(fields["DeletionDate"]) == 19 and fields["DeletionDate"][10] == "T"
    # Recoverable: putting it back gives the same files.
    os.rename(trashed, folder)
    assert (folder / "input.nw").read_text() == "task scf\n"


def test_trash_names_are_unique_and_paths_percent_encoded(tmp_path: Path, trash: Path) -> None:
    first = make_folder(tmp_path / "a", "水 job", {"input.nw": "x"})
    second = make_folder(tmp_path / "b", "水 job", {"input.nw": "y"})
    t1 = Path(move_to_trash(str(first)))
    t2 = Path(move_to_trash(str(second)))
    assert t1.name == "水 job" and t2.name == "水 job.2"
    assert (t2 / "input.nw").read_text() == "y"
    info2 = (trash / "info" / "水 job.2.trashinfo").read_text(encoding="utf-8")
    path_line = next(line for line in info2.splitlines() if line.startswith("Path="))
    assert " " not in path_line and "%E6%B0%B4" in path_line
    assert unquote(path_line[5:]) == str(second)


def test_trash_defaults_to_the_home_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder = make_folder(tmp_path, "job", {"job.json": "{}"})
    trashed = move_to_trash(str(folder))
    assert trashed == str(tmp_path / "home" / ".local" / "share" / "Trash" / "files" / "job")


def test_trash_refuses_folders_that_are_not_jobs_or_hold_the_trash(
    tmp_path: Path, trash: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = make_folder(tmp_path, "photos", {"cat.jpg": "meow"})
    with pytest.raises(FileAccessError) as info:
        move_to_trash(str(plain))
    assert info.value.code == "history_not_job_folder"
    assert plain.exists()
    home = make_folder(tmp_path, "home", {"stray.out": "x"})
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    with pytest.raises(FileAccessError) as info:
        move_to_trash(str(home))
    assert info.value.code == "history_trash_refused"
    assert (home / "stray.out").exists()


def test_a_failed_move_leaves_the_folder_and_no_trash_info(
    tmp_path: Path, trash: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_folder(tmp_path, "job", {"input.nw": "x"})

    def deny(src: Any, dst: Any) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(trash_mod.os, "rename", deny)
    with pytest.raises(FileAccessError) as info:
        move_to_trash(str(folder))
    assert info.value.code == "history_trash_failed"
    assert "そのまま" in info.value.message("ja")
    assert (folder / "input.nw").exists()
    assert list((trash / "info").iterdir()) == []


def test_across_file_systems_the_folder_is_copied_before_removal(
    tmp_path: Path, trash: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_folder(tmp_path, "job", {"input.nw": "x", "output.out": "y" * 10_000})
    (folder / "sub").mkdir()
    (folder / "sub" / "movecs").write_bytes(b"\x00\x01")

    def cross_device(src: Any, dst: Any) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(trash_mod.os, "rename", cross_device)
    trashed = Path(move_to_trash(str(folder)))
    assert not folder.exists()
    assert (trashed / "output.out").read_text() == "y" * 10_000
    assert (trashed / "sub" / "movecs").read_bytes() == b"\x00\x01"
    assert (trash / "info" / "job.trashinfo").exists()


def test_a_failed_cross_device_copy_keeps_the_original(
    tmp_path: Path, trash: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_folder(tmp_path, "job", {"input.nw": "x"})

    def cross_device(src: Any, dst: Any) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    def broken_copy(src: Any, dst: Any, **kwargs: Any) -> None:
        Path(dst).mkdir(parents=True)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(trash_mod.os, "rename", cross_device)
    monkeypatch.setattr(trash_mod.shutil, "copytree", broken_copy)
    with pytest.raises(FileAccessError) as info:
        move_to_trash(str(folder))
    assert info.value.code == "history_trash_failed"
    assert (folder / "input.nw").read_text() == "x"
    assert list((trash / "files").iterdir()) == []
    assert list((trash / "info").iterdir()) == []


# -- CSV ---------------------------------------------------------------------------------------------


def sample_rows() -> list[HistoryRow]:
    return [
        HistoryRow(
            folder="/jobs/a",
            date="2026-11-01T10:00:00+09:00",
            title='水, "quoted"',
            formula="H2O",
            task="optimize",
            theory="dft",
            basis="6-31g*",
            status="finished",
            finalEnergy=-76.41973792616123,
            source="job",
            functional="b3lyp",
        ),
        HistoryRow(
            folder="/ref/b",
            date="2026-10-01T09:00:00+09:00",
            title="=HYPERLINK(1)",
            formula="CH4",
            task="energy",
            theory="scf",
            basis="sto-3g",
            status="unknown",
            finalEnergy=None,
            source="reference",
        ),
    ]


def test_export_csv_writes_a_header_and_one_line_per_row(tmp_path: Path) -> None:
    path = tmp_path / "history.csv"
    export_csv(sample_rows(), str(path))
    raw = path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(raw.decode("utf-8"))))
    assert table[0] == list(COLUMNS)
    first = dict(zip(COLUMNS, table[1], strict=True))
    assert first["title"] == '水, "quoted"'
    assert float(first["finalEnergy"]) == -76.41973792616123
    assert first["functional"] == "b3lyp"
    second = dict(zip(COLUMNS, table[2], strict=True))
    assert second["finalEnergy"] == ""
    assert second["title"] == "'=HYPERLINK(1)"  # never run as a spreadsheet formula
    assert len(table) == 3


def test_export_csv_writes_numbers_as_numbers_a_negative_charge_included(tmp_path: Path) -> None:
    # Hydroxide: charge -1 was written "'-1", which a spreadsheet reads as text.
    rows = [
        r.model_copy(update={"charge": -1, "multiplicity": 1, "title": "-OH anion"})
        for r in sample_rows()[:1]
    ]
    table = list(csv.DictReader(io.StringIO(rows_to_csv(rows))))
    assert table[0]["charge"] == "-1" and int(table[0]["charge"]) == -1
    assert table[0]["multiplicity"] == "1"
    assert float(table[0]["finalEnergy"]) == rows[0].finalEnergy
    assert table[0]["title"] == "'-OH anion"  # text that looks like a formula stays guarded


def test_export_of_scanned_rows_round_trips(tmp_path: Path) -> None:
    folder = tmp_path / "jobs" / "water"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES / "water_scf_optfreq.nw", folder / "water_scf_optfreq.nw")
    shutil.copy(FIXTURES / "water_scf_optfreq.out", folder / "water_scf_optfreq.out")
    rows = scan([str(tmp_path / "jobs")])
    out = tmp_path / "out.csv"
    export_csv(rows, str(out))
    (line,) = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert line["folder"] == str(folder)
    assert line["status"] == "finished"
    assert float(line["finalEnergy"]) == pytest.approx(-76.010746508431, abs=1e-12)


def test_export_csv_accepts_row_dicts_and_refuses_bad_ones_without_touching_the_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "history.csv"
    path.write_text("old content\n", encoding="utf-8")
    dicts = [r.model_dump() for r in sample_rows()]
    assert rows_to_csv(dicts) == rows_to_csv(sample_rows())
    with pytest.raises(ValidationError):
        export_csv([*dicts, {"folder": "/x"}], str(path))
    assert path.read_text(encoding="utf-8") == "old content\n"
    assert [p.name for p in tmp_path.iterdir()] == ["history.csv"]


def test_export_csv_into_an_unwritable_place_fails_cleanly(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(FileAccessError):
        export_csv(sample_rows(), str(blocker / "history.csv"))
    assert blocker.read_text() == "x"
