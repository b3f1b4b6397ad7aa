"""History scan: job folders become rows; statuses, energies, order, cancellation."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

import molforma.history.folder_scan as scan_mod
from molforma.errors import FileAccessError
from molforma.history.folder_scan import HistoryScanner, ScanCancelledError, preview, scan
from molforma.history.jobdir import JobDir
from molforma.history.nwfiles import (
    element_of_tag,
    last_energy,
    status_from_tail,
    summarize_input,
)
from tests.paths import NWCHEM_DATA

FIXTURES = NWCHEM_DATA


def make_job(root: Path, name: str, **record: Any) -> Path:
    """A job folder as the job runner writes it: job.json plus input.nw/output.out."""
    folder = root / name
    folder.mkdir(parents=True)
    base: dict[str, Any] = {
        "format": "molforma-job",
        "version": 1,
        "id": name,
        "title": name,
        "formula": "H2O",
        "task": "energy",
        "theory": "scf",
        "basis": "6-31g*",
        "functional": "b3lyp",
        "status": "finished",
        "createdAt": "2026-11-01T10:00:00+00:00",
        "startedAt": "2026-11-01T10:00:01+00:00",
        "finishedAt": "2026-11-01T10:01:00+00:00",
        "exitCode": 0,
        "command": ["nwchem", "input.nw"],
        "processes": 1,
        "threads": 1,
        "timeLimit": None,
        "scfConverged": True,
        "optimizationConverged": None,
        "finalEnergy": -76.0107465,
        "progress": None,
        "error": None,
        "savedOnly": False,
    }
    base.update(record)
    (folder / "job.json").write_text(json.dumps(base), encoding="utf-8")
    return folder


def copy_fixture(root: Path, folder: str, stem: str, *, out: bool = True) -> Path:
    """A plain NWChem run folder made of the real fixture files."""
    dest = root / folder
    dest.mkdir(parents=True)
    shutil.copy(FIXTURES / f"{stem}.nw", dest / f"{stem}.nw")
    if out:
        shutil.copy(FIXTURES / f"{stem}.out", dest / f"{stem}.out")
    return dest


def by_name(rows: list[Any]) -> dict[str, Any]:
    return {Path(r.folder).name: r for r in rows}


def test_job_record_fields_become_the_row(tmp_path: Path) -> None:
    make_job(tmp_path, "20261101-H2O-energy", title="Water", finalEnergy=-76.0107465)
    (row,) = scan([str(tmp_path)])
    assert row.folder == str(tmp_path / "20261101-H2O-energy")
    assert (row.title, row.formula, row.task, row.theory, row.basis, row.status) == (
        "Water",
        "H2O",
        "energy",
        "scf",
        "6-31g*",
        "finished",
    )
    assert row.finalEnergy == pytest.approx(-76.0107465)
    assert row.source == "job"
    assert row.functional == ""  # only DFT rows carry a functional
    expected = datetime.fromisoformat("2026-11-01T10:00:00+00:00").astimezone()
    assert datetime.fromisoformat(row.date) == expected


def test_real_nwchem_run_folder_without_record_is_a_reference_row(tmp_path: Path) -> None:
    copy_fixture(tmp_path, "water", "water_scf_optfreq")
    (row,) = scan([str(tmp_path)])
    assert row.source == "reference"
    assert row.title == "Water SCF/6-31G* geometry optimisation and frequencies"
    assert (row.formula, row.task, row.theory, row.basis) == (
        "H2O",
        "optimize+frequencies",
        "scf",
        "6-31g*",
    )
    assert row.status == "finished"
    # The last energy line of the file: the SCF of the frequency task.
    assert row.finalEnergy == pytest.approx(-76.010746508431, abs=1e-12)


def test_failed_and_unfinished_outputs_are_recognised(tmp_path: Path) -> None:
    copy_fixture(tmp_path, "basis", "bad_basis")
    copy_fixture(tmp_path, "noconv", "scf_not_converged")
    copy_fixture(tmp_path, "dft", "methane_b3lyp_molden")
    copy_fixture(tmp_path, "input_only", "nh3_planar_scf_freq", out=False)
    rows = by_name(scan([str(tmp_path)]))
    assert rows["basis"].status == "failed"
    assert rows["basis"].finalEnergy is None
    assert rows["noconv"].status == "failed"
    assert rows["dft"].status == "finished"
    assert (rows["dft"].theory, rows["dft"].functional, rows["dft"].formula) == (
        "dft",
        "b3lyp",
        "CH4",
    )
    assert rows["dft"].finalEnergy == pytest.approx(-40.518350345, abs=1e-9)
    assert rows["input_only"].status == "unknown"
    assert rows["input_only"].task == "frequencies"
    assert rows["input_only"].finalEnergy is None


def test_an_output_cut_off_mid_run_has_unknown_status(tmp_path: Path) -> None:
    folder = copy_fixture(tmp_path, "cut", "water_scf_optfreq")
    text = (folder / "water_scf_optfreq.out").read_text()
    (folder / "water_scf_optfreq.out").write_text(text[: len(text) // 2])
    (row,) = scan([str(tmp_path)])
    assert row.status == "unknown"
    assert row.finalEnergy is not None and row.finalEnergy < -76.0


def test_rows_are_newest_first(tmp_path: Path) -> None:
    make_job(tmp_path, "old", createdAt="2026-01-01T00:00:00+00:00")
    make_job(tmp_path, "new", createdAt="2026-11-20T00:00:00+00:00")
    ref = copy_fixture(tmp_path, "middle", "water_scf_optfreq")
    stamp = datetime.fromisoformat("2026-06-01T00:00:00+00:00").timestamp()
    for f in ref.iterdir():
        os.utime(f, (stamp, stamp))
    assert [Path(r.folder).name for r in scan([str(tmp_path)])] == ["new", "middle", "old"]


def test_scan_is_one_level_deep_and_includes_a_root_that_is_a_job_folder(tmp_path: Path) -> None:
    root = make_job(tmp_path, "rootjob")
    make_job(root, "child")
    make_job(root / "grouping", "grandchild")
    (root / "empty").mkdir()
    (root / "notes").mkdir()
    (root / "notes" / "readme.txt").write_text("not a job")
    names = sorted(Path(r.folder).name for r in scan([str(root)]))
    assert names == ["child", "rootjob"]


def test_missing_roots_give_no_rows_and_duplicates_are_listed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_job(tmp_path, "a")
    make_job(tmp_path / "cwd", "not-a-root")
    monkeypatch.chdir(tmp_path / "cwd")
    assert scan(["", "  "]) == []
    rows = scan([str(tmp_path), str(tmp_path / "missing"), str(tmp_path) + "/./"])
    assert [Path(r.folder).name for r in rows] == ["a"]


def test_symlinked_subfolders_are_not_followed(tmp_path: Path) -> None:
    outside = make_job(tmp_path / "outside", "secret")
    root = tmp_path / "root"
    root.mkdir()
    (root / "link").symlink_to(outside, target_is_directory=True)
    assert scan([str(root)]) == []


def test_tilde_in_roots_expands_to_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    make_job(tmp_path / "molforma-jobs", "j1")
    (row,) = scan(["~/molforma-jobs"])
    assert row.folder == str(tmp_path / "molforma-jobs" / "j1")


def test_running_record_with_a_live_pid_stays_running(tmp_path: Path) -> None:
    make_job(tmp_path, "live", status="running", pid=os.getpid(), finalEnergy=None)
    (row,) = scan([str(tmp_path)])
    assert row.status == "running"


def test_running_record_with_a_dead_pid_is_interrupted(tmp_path: Path) -> None:
    proc = __import__("subprocess").Popen(["true"])
    proc.wait()
    make_job(tmp_path, "dead", status="running", pid=proc.pid)
    (row,) = scan([str(tmp_path)])
    assert row.status == "interrupted"


def test_running_record_whose_pid_is_a_zombie_is_interrupted(tmp_path: Path) -> None:
    # What a job leader becomes when MolForma was killed and nobody reaps it.
    proc = __import__("subprocess").Popen(["true"])
    try:
        stat = Path(f"/proc/{proc.pid}/stat")
        deadline = time.monotonic() + 10
        while stat.read_text().rsplit(")", 1)[1].split()[0] != "Z":
            assert time.monotonic() < deadline
            time.sleep(0.01)
        make_job(tmp_path, "zombie", status="running", pid=proc.pid)
        (row,) = scan([str(tmp_path)])
        assert row.status == "interrupted"
    finally:
        proc.wait()


def test_running_record_without_pid_is_judged_by_the_age_of_its_files(tmp_path: Path) -> None:
    fresh = make_job(tmp_path, "fresh", status="running")
    stale = make_job(tmp_path, "stale", status="queued")
    (fresh / "output.out").write_text("starting\n")
    old = time.time() - scan_mod.STALE_RUNNING_SECONDS - 60
    os.utime(stale / "job.json", (old, old))
    rows = by_name(scan([str(tmp_path)]))
    assert rows["fresh"].status == "running"
    assert rows["stale"].status == "interrupted"


def test_running_record_from_another_host_is_not_judged_by_a_local_pid(tmp_path: Path) -> None:
    make_job(tmp_path, "remote", status="running", pid=999_999_999, host="elsewhere.invalid")
    (row,) = scan([str(tmp_path)])
    assert row.status == "running"


def test_saved_input_sets_and_unknown_statuses(tmp_path: Path) -> None:
    make_job(tmp_path, "saved", status="queued", savedOnly=True, finalEnergy=None)
    make_job(tmp_path, "weird", status="exploded")
    make_job(tmp_path, "timeout", status="timed_out")
    rows = by_name(scan([str(tmp_path)]))
    assert rows["saved"].status == "saved"
    assert rows["weird"].status == "unknown"
    assert rows["timeout"].status == "timed_out"


def test_missing_record_fields_are_filled_from_the_input_and_output(tmp_path: Path) -> None:
    folder = make_job(
        tmp_path,
        "sparse",
        title="",
        formula="",
        task="",
        theory="",
        basis="",
        finalEnergy=None,
        functional="",
    )
    shutil.copy(FIXTURES / "methane_b3lyp_molden.nw", folder / "input.nw")
    shutil.copy(FIXTURES / "methane_b3lyp_molden.out", folder / "output.out")
    (row,) = scan([str(tmp_path)])
    assert row.title.startswith("Methane B3LYP/6-31G*")
    assert (row.formula, row.task, row.theory, row.functional, row.basis) == (
        "CH4",
        "energy",
        "dft",
        "b3lyp",
        "6-31g*",
    )
    assert row.finalEnergy == pytest.approx(-40.518350345, abs=1e-9)


def test_odd_record_values_do_not_break_the_row(tmp_path: Path) -> None:
    folder = make_job(
        tmp_path,
        "odd",
        title=42,
        createdAt="yesterday",
        startedAt=None,
        finishedAt=7,
        finalEnergy=None,
    )
    text = (folder / "job.json").read_text().replace('"finalEnergy": null', '"finalEnergy": NaN')
    (folder / "job.json").write_text(text)
    (row,) = scan([str(tmp_path)])
    assert row.title == "odd"
    assert row.finalEnergy is None
    assert datetime.fromisoformat(row.date).timestamp() == pytest.approx(
        (folder / "job.json").stat().st_mtime, abs=1
    )


def test_an_unreadable_record_falls_back_to_the_files(tmp_path: Path) -> None:
    folder = copy_fixture(tmp_path, "broken", "water_scf_optfreq")
    (folder / "job.json").write_text("{not json", encoding="utf-8")
    (row,) = scan([str(tmp_path)])
    assert row.source == "reference"
    assert row.status == "finished"
    assert row.formula == "H2O"


def test_a_folder_with_only_a_project_snapshot_is_a_row(tmp_path: Path) -> None:
    (tmp_path / "snap").mkdir()
    (tmp_path / "snap" / "project.molforma.json").write_text("{}", encoding="utf-8")
    (row,) = scan([str(tmp_path)])
    assert (row.title, row.status, row.source) == ("snap", "unknown", "reference")


def test_cancel_before_start_raises_and_progress_reports_counts(tmp_path: Path) -> None:
    for i in range(60):
        make_job(tmp_path, f"j{i:02d}")
    stop = threading.Event()
    stop.set()
    with pytest.raises(ScanCancelledError) as info:
        scan([str(tmp_path)], cancel=stop)
    assert info.value.code == "history_scan_cancelled"
    seen: list[int] = []
    rows = scan([str(tmp_path)], on_progress=seen.append)
    assert len(rows) == 60
    assert seen == [25, 50, 60]


def test_cancel_during_the_scan_stops_it(tmp_path: Path) -> None:
    for i in range(60):
        make_job(tmp_path, f"j{i:02d}")
    stop = threading.Event()
    seen: list[int] = []

    def progress(n: int) -> None:
        seen.append(n)
        stop.set()

    with pytest.raises(ScanCancelledError):
        scan([str(tmp_path)], cancel=stop, on_progress=progress)
    assert seen == [25]


def test_background_scanner_finishes_with_rows(tmp_path: Path) -> None:
    make_job(tmp_path, "a")
    copy_fixture(tmp_path, "b", "water_scf_optfreq")
    done: list[str] = []
    handle = HistoryScanner().start([str(tmp_path)], on_done=lambda h: done.append(h.status))
    assert handle.wait(30)
    assert handle.status == "finished"
    assert sorted(Path(r.folder).name for r in handle.rows) == ["a", "b"]
    assert done == ["finished"]
    assert handle.to_dict()["rowCount"] == 2


def test_background_scan_can_be_cancelled_and_a_new_scan_cancels_the_old(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(3):
        make_job(tmp_path, f"j{i}")
    entered = threading.Event()
    release = threading.Event()
    real_row = scan_mod._row

    def slow_row(*args: Any) -> Any:
        entered.set()
        release.wait(30)
        return real_row(*args)

    monkeypatch.setattr(scan_mod, "_row", slow_row)
    scanner = HistoryScanner()
    first = scanner.start([str(tmp_path)])
    assert entered.wait(30)
    assert first.status == "running" and not first.done
    second = scanner.start([str(tmp_path)])  # cancels the first one
    assert scanner.current is second
    scanner.cancel()
    release.set()
    assert first.wait(30) and second.wait(30)
    assert first.status == "cancelled"
    assert second.status == "cancelled"
    assert first.rows == []


def test_preview_shows_input_log_tail_and_record(tmp_path: Path) -> None:
    folder = make_job(tmp_path, "job", title="Water")
    shutil.copy(FIXTURES / "water_scf_optfreq.nw", folder / "input.nw")
    shutil.copy(FIXTURES / "water_scf_optfreq.out", folder / "output.out")
    got = preview(str(folder), chars=2000)
    assert got["input"] == (FIXTURES / "water_scf_optfreq.nw").read_text()
    assert got["inputTruncated"] is False
    assert len(got["log"]) == 2000
    assert got["log"].rstrip().endswith("wall:        1.0s")
    assert got["logTruncated"] is True
    assert got["record"]["title"] == "Water"
    assert got["inputFile"] == str(folder / "input.nw")


def test_preview_caps_a_long_input_and_handles_a_folder_without_output(tmp_path: Path) -> None:
    folder = tmp_path / "long"
    folder.mkdir()
    (folder / "big.nw").write_text("# comment ü\n" * 5000, encoding="utf-8")
    got = preview(str(folder), chars=100)
    assert len(got["input"]) == 100
    assert got["inputTruncated"] is True
    assert got["log"] == "" and got["logFile"] is None and got["record"] is None


def test_preview_refuses_a_folder_that_is_not_a_job(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    for target in (tmp_path / "plain", tmp_path / "missing"):
        with pytest.raises(FileAccessError) as info:
            preview(str(target))
        assert info.value.code == "history_not_job_folder"
        assert "job.json" in info.value.message("en")
        assert "ジョブフォルダ" in info.value.message("ja")


# -- the cheap NWChem readers ------------------------------------------------------------------


def test_status_from_tail_prefers_the_error_banner() -> None:
    assert status_from_tail(b" Total times  cpu: 1.0s wall: 1.0s\n") == "finished"
    assert status_from_tail(b" There is an error in the input\n Total times  cpu: 1s\n") == "failed"
    assert status_from_tail(b"   iter   energy\n") == "unknown"


def test_last_energy_reads_backwards_across_block_boundaries(tmp_path: Path) -> None:
    out = tmp_path / "big.out"
    filler = b"x" * 99 + b"\n"
    line = b"         Total SCF energy =    -75.123456789012\n"
    # Place the energy line so that it straddles the 64 KiB block boundary from the end.
    tail = filler * 655 + b"  iteration done\n"
    head = b"@    0     -74.00000000  0.0D+00\n" + filler * 20_000
    body = head + line + tail
    cut = len(body) - 64 * 1024
    assert body.index(line) < cut < body.index(line) + len(line)
    out.write_bytes(body)
    assert last_energy(out) == pytest.approx(-75.123456789012)
    # With a tiny search window the energy far from the end is not found.
    out.write_bytes(line + filler * 5000)
    assert last_energy(out, scan_limit=64 * 1024) is None
    assert last_energy(out) == pytest.approx(-75.123456789012)
    assert last_energy(tmp_path / "missing.out") is None
    # A step line opening the file, found with and without an already-read tail.
    out.write_bytes(b"@    0     -74.50000000  0.0D+00\n" + filler * 3000)
    assert last_energy(out) == pytest.approx(-74.5)
    assert last_energy(out, tail=out.read_bytes()[-1000:]) == pytest.approx(-74.5)
    out.write_bytes(b"")
    assert last_energy(out) is None


def test_a_huge_output_is_never_read_whole(tmp_path: Path) -> None:
    # A sparse 64 MiB output: an energy at the start, and optionally the normal ending.
    folder = tmp_path / "huge"
    folder.mkdir()
    shutil.copy(FIXTURES / "water_scf_optfreq.nw", folder / "input.nw")
    out = folder / "output.out"
    with out.open("wb") as fh:
        fh.write(b"         Total SCF energy =    -11.000000000000\n")
        fh.truncate(64 * 1024 * 1024)
    (row,) = scan([str(tmp_path)])
    # The energy lies beyond the backwards search limit, so it is not reported.
    assert row.finalEnergy is None
    assert row.status == "unknown"
    with out.open("ab") as fh:
        fh.write(
            b"\n         Total SCF energy =    -76.010746508431\n"
            b" Total times  cpu:        0.9s     wall:        1.0s\n"
        )
    (row,) = scan([str(tmp_path)])
    assert row.status == "finished"
    assert row.finalEnergy == pytest.approx(-76.010746508431)


def test_input_summary_reads_tags_zmatrix_comments_and_tasks() -> None:
    text = """
    start calcium_thing   # a comment
    title "Ca # not a comment"
    geometry units angstrom noautosym
      symmetry c1
      Ca1   0.0 0.0 0.0
      c     1.0 0.0 0.0   # lower-case carbon
      bqH   2.0 0.0 0.0
      X     3.0 0.0 0.0
      Cl2   0.0 1.0 0.0
    end
    geometry second
      U 0 0 0
    end
    basis spherical
      * library cc-pvdz except Ca
      Ca library "def2-svp"
    end
    dft
      xc pbe0
    end
    task shell "ls"
    task dft optimize
    task dft freq
    task dft property
    """
    s = summarize_input(text)
    assert s.title == "Ca # not a comment"
    assert s.start == "calcium_thing"
    assert s.elements == ("Ca", "C", "Cl")
    assert (s.task, s.theory, s.functional) == ("optimize+frequencies", "dft", "pbe0")
    assert s.basis == "cc-pvdz, def2-svp"
    zmat = summarize_input(
        "geometry\n zmatrix\n O\n H 1 0.96\n H 1 0.96 2 104.5\n variables\n"
        " r 0.96\n end\nend\ntask mp2 energy\n"
    )
    assert zmat.elements == ("O", "H", "H")
    assert (zmat.task, zmat.theory) == ("energy", "mp2")


@pytest.mark.parametrize(
    ("tag", "element"),
    [
        ("O", "O"),
        ("h2", "H"),
        ("Co", "Co"),
        ("CO1", "Co"),
        ("C12", "C"),
        ("bq", None),
        ("bqC", None),
        ("x", None),
        ("Hx", "H"),
        ("1H", None),
    ],
)
def test_element_of_tag_follows_nwchem(tag: str, element: str | None) -> None:
    assert element_of_tag(tag) == element


def test_cancel_answers_at_once_while_the_worker_is_inside_a_folder_and_drops_its_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(3):
        make_job(tmp_path, f"j{i}")
    entered = threading.Event()
    release = threading.Event()
    real_row = scan_mod._row
    calls: list[str] = []

    def slow_row(folder: str, *args: Any) -> Any:
        calls.append(folder)
        entered.set()
        release.wait(30)
        return real_row(folder, *args)

    monkeypatch.setattr(scan_mod, "_row", slow_row)
    ended: list[str] = []
    handle = HistoryScanner().start([str(tmp_path)], on_done=lambda h: ended.append(h.status))
    assert entered.wait(30)
    handle.cancel()
    # answered without waiting for the folder being read
    assert handle.done and handle.status == "cancelled"
    release.set()
    handle._thread.join(30)
    assert handle.status == "cancelled" and handle.rows == []
    assert len(calls) == 1, "the worker stopped at its next check"
    assert ended == ["cancelled"]


def test_cancel_is_checked_for_every_entry_of_a_root_not_only_job_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(50):
        (tmp_path / f"other{i:02d}").mkdir()  # not job folders: no rows, many entries
    stop = threading.Event()
    listed: list[str] = []
    real_names = JobDir.names

    def names(folder: JobDir) -> Any:
        listed.append(folder.path)
        if len(listed) == 5:
            stop.set()
        return real_names(folder)

    monkeypatch.setattr(JobDir, "names", names)
    with pytest.raises(ScanCancelledError):
        scan([str(tmp_path)], cancel=stop)
    assert len(listed) == 5
