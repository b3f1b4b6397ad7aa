"""History reads only a job folder's own files: links are never followed.

What the History table and preview show, an MCP client can read from the window, and
Reuse loads what it reads into the document. A job folder whose ``input.nw``,
project snapshot, job record or output is a link to a file elsewhere (outside the
allowed directories) must therefore show and load nothing of that file
(docs/reference/safety.md, Allowed directories). A named pipe in a job folder must not hang the scan or the preview.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from molforma.app.policy import Policy
from molforma.errors import FileAccessError
from molforma.history import export_csv
from molforma.history.folder_scan import final_structure, preview, reuse, scan
from tests.paths import NWCHEM_DATA

MARKER = "HISTORY-OUTSIDE-MARKER-52e1"
INPUT = f"""title "{MARKER}"
start {MARKER.lower()}
geometry
  O 0.0 0.0 0.1173
  H 0.0 0.7572 -0.4692
  H 0.0 -0.7572 -0.4692
end
basis
  * library sto-3g
end
task scf energy
"""


@pytest.fixture
def linked_job(tmp_path: Path) -> Path:
    """``root/job`` whose input, snapshot, record and output link to ``outside``."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "input.nw").write_text(INPUT, encoding="utf-8")
    project = {"format": "molforma-project", "document": {"title": MARKER}}
    (outside / "project.molforma.json").write_text(json.dumps(project), encoding="utf-8")
    (outside / "job.json").write_text(
        json.dumps({"title": MARKER, "status": "finished"}), encoding="utf-8"
    )
    out = (NWCHEM_DATA / "water_scf_optfreq.out").read_text(encoding="utf-8")
    (outside / "output.out").write_text(out + MARKER + "\n", encoding="utf-8")
    job = tmp_path / "root" / "job"
    job.mkdir(parents=True)
    for name in ("input.nw", "project.molforma.json", "job.json", "output.out"):
        (job / name).symlink_to(outside / name)
    return job


def test_the_scan_row_shows_nothing_of_linked_files(linked_job: Path) -> None:
    (row,) = scan([str(linked_job.parent)])
    assert row.folder == str(linked_job)
    assert MARKER not in row.model_dump_json()
    assert row.formula == "" and row.finalEnergy is None  # nothing could be read


def test_the_preview_shows_nothing_of_linked_files(linked_job: Path) -> None:
    data = preview(str(linked_job))
    assert MARKER not in json.dumps(data)
    assert data["input"] == "" and data["log"] == "" and data["record"] is None


def test_reuse_refuses_a_linked_snapshot_and_a_linked_input(linked_job: Path) -> None:
    with pytest.raises(FileAccessError) as exc:
        reuse(str(linked_job))
    assert exc.value.code == "history_linked_file"
    (linked_job / "project.molforma.json").unlink()
    with pytest.raises(FileAccessError) as exc:
        reuse(str(linked_job))
    assert exc.value.code == "history_linked_file"
    assert str(linked_job / "input.nw") in exc.value.message("en")
    assert "シンボリックリンク" in exc.value.message("ja")


def test_the_final_structure_is_not_taken_from_a_linked_output(linked_job: Path) -> None:
    with pytest.raises(FileAccessError) as exc:
        final_structure(str(linked_job))
    assert exc.value.code == "history_linked_file"


def test_own_files_are_still_read_and_reused(tmp_path: Path) -> None:
    job = tmp_path / "root" / "job"
    job.mkdir(parents=True)
    (job / "input.nw").write_text(INPUT.replace(MARKER, "own title"), encoding="utf-8")
    (row,) = scan([str(job.parent)])
    assert row.title == "own title" and row.formula == "H2O"
    assert "own title" in preview(str(job))["input"]
    project = reuse(str(job))
    assert len(project["document"]["atoms"]) == 3


def test_with_the_policy_guard_a_job_folder_outside_is_refused(
    linked_job: Path, tmp_path: Path
) -> None:
    policy = Policy(allow_dirs=(tmp_path / "root",))
    alias = tmp_path / "root" / "alias"
    alias.symlink_to(tmp_path / "outside", target_is_directory=True)
    guard = policy.read_guard()
    for call in (lambda: preview(str(alias), guard=guard), lambda: reuse(str(alias), guard=guard)):
        with pytest.raises(FileAccessError) as exc:
            call()
        assert exc.value.code == "path_not_allowed"
    # A scan through the guard skips the root that is really elsewhere.
    assert scan([str(alias)], guard=guard) == []
    target = tmp_path / "outside" / "rows.csv"
    with pytest.raises(FileAccessError):
        export_csv([], str(alias / "rows.csv"), guard=guard)
    assert not target.exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_in_a_job_folder_does_not_hang_the_scan_or_the_preview(tmp_path: Path) -> None:
    job = tmp_path / "root" / "job"
    job.mkdir(parents=True)
    for name in ("input.nw", "output.out", "job.json"):
        os.mkfifo(job / name)
    done = threading.Event()
    seen: list[object] = []

    def work() -> None:
        seen.append(scan([str(job.parent)]))
        seen.append(preview(str(job)))
        done.set()

    threading.Thread(target=work, daemon=True).start()
    if not done.wait(10):
        for name in ("input.nw", "output.out", "job.json"):  # let the stuck reader go
            fd = os.open(job / name, os.O_RDWR | os.O_NONBLOCK)
            os.close(fd)
        pytest.fail("History blocked on a named pipe")
    rows, data = seen
    assert len(rows) == 1  # type: ignore[arg-type]
    assert data["input"] == ""  # type: ignore[index]
