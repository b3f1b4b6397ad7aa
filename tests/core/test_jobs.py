"""Job runner with a stand-in NWChem: folders, records, statuses, cancel, time limit, launcher."""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from molforma.errors import CalculationError, ValidationError
from molforma.jobs import runner
from molforma.jobs.manager import JobManager
from molforma.jobs.runner import Job, build_command
from molforma.nwchem.settings import ExecutionSettings
from tests.core.test_nwchem_input import WATER, make_project

STAND_IN = Path(__file__).resolve().parents[1] / "stand_in"
FAKE_NWCHEM = STAND_IN / "fake_nwchem.py"
FAKE_LAUNCHER = STAND_IN / "fake_launcher.py"
RECORD_KEYS = {
    "format",
    "version",
    "id",
    "title",
    "formula",
    "charge",
    "multiplicity",
    "task",
    "theory",
    "basis",
    "functional",
    "status",
    "createdAt",
    "startedAt",
    "finishedAt",
    "exitCode",
    "command",
    "processes",
    "threads",
    "timeLimit",
    "scfConverged",
    "optimizationConverged",
    "finalEnergy",
    "progress",
    "error",
    "savedOnly",
    "scheduler",
}
RAN_KEYS = RECORD_KEYS | {"pid", "host"}  # a job that started also says where it ran
ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def _command(script: Path) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


def stand_in_project(
    root: Path,
    mode: str = "converge",
    *,
    task: str = "optimize",
    delay: float = 0.02,
    **execution: Any,
) -> dict[str, Any]:
    """Water whose executable is the stand-in NWChem running in ``mode``."""
    p = make_project(WATER, task=task, basis="sto-3g")
    p["document"]["title"] = "water"
    env = {"FAKE_NWCHEM_MODE": mode, "FAKE_NWCHEM_DELAY": str(delay)}
    env.update(execution.pop("environment", {}))
    p["execution"].update(
        executable=_command(FAKE_NWCHEM), job_root=str(root), environment=env, **execution
    )
    return p


def processes_in(folder: Path) -> list[int]:
    """Pids of live processes whose working directory is ``folder`` (a /proc scan)."""
    found = []
    target = str(folder.resolve())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cwd = os.readlink(entry / "cwd")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if cwd == target and state != "Z":
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """True when ``pid`` runs and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(predicate: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def on_disk(job: Job) -> dict[str, Any]:
    return json.loads((job.folder / "job.json").read_text(encoding="utf-8"))


def test_build_command_runs_the_executable_alone_for_one_process() -> None:
    ex = ExecutionSettings(executable="nwchem", launcher="/no/such/mpirun", processes=1)
    assert build_command(ex) == ["nwchem", "input.nw"]


def test_build_command_uses_the_shell_split_launcher_for_several_processes() -> None:
    ex = ExecutionSettings(
        executable="'/opt/nw chem/bin/nwchem'",
        launcher="mpirun --allow-run-as-root",
        processes=4,
    )
    assert build_command(ex) == [
        "mpirun",
        "--allow-run-as-root",
        "-np",
        "4",
        "/opt/nw chem/bin/nwchem",
        "input.nw",
    ]


def test_converging_run_finishes_with_record_output_and_streamed_progress(tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []
    manager = JobManager(on_change=lambda job: seen.append(job.snapshot()))
    project = stand_in_project(
        tmp_path / "jobs", "converge", threads=3, environment={"FAKE_EXTRA": "yes"}
    )
    job = manager.start(project)
    assert job.wait(20)
    record = job.snapshot()
    assert set(record) == RAN_KEYS
    assert record["status"] == "finished"
    assert record["exitCode"] == 0
    assert record["scfConverged"] is True
    assert record["optimizationConverged"] is True
    assert record["finalEnergy"] == pytest.approx(-76.0121)
    assert record["progress"]["energies"] == pytest.approx([-76.0, -76.01, -76.012, -76.0121])
    assert record["progress"]["optimizationStep"] == 3
    assert record["command"] == [sys.executable, str(FAKE_NWCHEM), "input.nw"]
    assert record["error"] is None and record["savedOnly"] is False
    for key in ("createdAt", "startedAt", "finishedAt"):
        assert ISO_UTC.match(record[key]), key
    assert on_disk(job) == record
    assert (job.folder / "output.out").read_text().count("@    ") == 5
    assert "Optimization converged" in job.output_tail()
    assert job.output_tail(20) == (job.folder / "output.out").read_text()[-20:]
    snapshot = json.loads((job.folder / "project.molforma.json").read_text())
    assert snapshot["document"]["atoms"] == project["document"]["atoms"]
    assert (job.folder / "input.nw").read_text().startswith("start molforma")
    info = json.loads((job.folder / "fake_nwchem.info").read_text())
    assert info["env"]["OMP_NUM_THREADS"] == "3"
    assert info["env"]["FAKE_EXTRA"] == "yes"
    root_user = os.geteuid() == 0
    assert info["env"]["OMPI_ALLOW_RUN_AS_ROOT"] == ("1" if root_user else None)
    # Progress was seen while the job ran, growing step by step.
    running = [s["progress"]["energies"] for s in seen if s["status"] == "running"]
    lengths = [len(e) for e in running]
    assert lengths == sorted(lengths)
    assert len(set(lengths)) >= 2
    assert seen[-1]["status"] == "finished"
    assert manager.current() is job and manager.jobs() == [job]
    assert manager.find(job.id) is job and manager.find("nope") is None


def test_job_folder_is_named_by_time_formula_and_task_and_kept_unique(tmp_path: Path) -> None:
    manager = JobManager()
    project = stand_in_project(tmp_path / "a" / "b", task="optimize+frequencies")
    first = manager.save_input_set(project)
    second = manager.save_input_set(project)
    assert first.parent == tmp_path / "a" / "b"
    assert re.fullmatch(r"\d{8}-\d{6}-H2O-optfreq(-\d+)?", first.name)
    assert first != second
    assert re.fullmatch(r"\d{8}-\d{6}-H2O-optfreq(-\d+)?", second.name)
    if second.name[:15] == first.name[:15]:
        assert second.name != first.name  # the same second: a number keeps them apart
    else:
        assert second.name[:15] > first.name[:15]  # the clock moved on between the two


def test_job_root_expands_the_home_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    folder = JobManager().save_input_set(stand_in_project(Path("~/molforma-jobs")))
    assert folder.parent == tmp_path / "molforma-jobs"


def test_save_input_set_writes_the_folder_without_running(tmp_path: Path) -> None:
    folder = JobManager().save_input_set(stand_in_project(tmp_path, task="energy"))
    assert sorted(p.name for p in folder.iterdir()) == [
        "input.nw",
        "job.json",
        "project.molforma.json",
    ]
    record = json.loads((folder / "job.json").read_text())
    assert set(record) == RECORD_KEYS
    assert record["savedOnly"] is True
    assert record["status"] == "queued"
    assert record["startedAt"] is None and record["exitCode"] is None
    assert record["format"] == "molforma-job" and record["version"] == 1
    assert record["id"] == folder.name
    assert "task scf energy" in (folder / "input.nw").read_text()


def test_invalid_project_is_refused_before_any_folder_is_made(tmp_path: Path) -> None:
    root = tmp_path / "jobs"
    project = stand_in_project(root)
    project["document"]["atoms"] = []
    with pytest.raises(CalculationError) as info:
        JobManager().start(project)
    assert info.value.code == "input_invalid"
    assert info.value.data["problems"][0]["code"] == "empty_molecule"
    bad = stand_in_project(root)
    bad["calculation"]["extra_input"] = "task shell touch /tmp/x"
    with pytest.raises((CalculationError, ValidationError)):
        JobManager().save_input_set(bad)
    assert not root.exists() or list(root.iterdir()) == []


def test_optimisation_that_never_converges_is_finished_but_not_converged(tmp_path: Path) -> None:
    """Status says how the program ended; the convergence flags say what it achieved.

    A program that exits 0 without "Optimization converged" is ``finished`` with
    ``optimizationConverged: false`` and a note in ``error`` (docs/reference/jobs.md, States: exit
    code 0 proves nothing). The real NWChem exits 255 when the optimiser runs out of
    steps, which makes such a run ``failed`` as well.
    """
    job = JobManager().start(stand_in_project(tmp_path, "noconverge"))
    assert job.wait(20)
    record = job.snapshot()
    assert record["status"] == "finished"
    assert record["exitCode"] == 0
    assert record["optimizationConverged"] is False
    assert record["scfConverged"] is True
    assert "optimization" in record["error"]
    assert len(record["progress"]["energies"]) == 8


def test_energy_task_records_no_optimisation_convergence(tmp_path: Path) -> None:
    job = JobManager().start(stand_in_project(tmp_path, "noconverge", task="energy"))
    assert job.wait(20)
    assert job.snapshot()["optimizationConverged"] is None


def test_crash_is_failed_with_exit_code_and_nwchem_error(tmp_path: Path) -> None:
    job = JobManager().start(stand_in_project(tmp_path, "crash"))
    assert job.wait(20)
    record = on_disk(job)
    assert record["status"] == "failed"
    assert record["exitCode"] == 255
    assert record["error"] == "scf energy failed"
    assert record["optimizationConverged"] is False
    assert "ARMCI Error" in (job.folder / "error.err").read_text()


def test_silent_non_zero_exit_is_failed(tmp_path: Path) -> None:
    job = JobManager().start(stand_in_project(tmp_path, "exit255", task="energy"))
    assert job.wait(20)
    record = job.snapshot()
    assert (record["status"], record["exitCode"]) == ("failed", 255)
    assert "255" in record["error"]
    assert record["scfConverged"] is None


def test_missing_executable_is_failed_with_a_reason(tmp_path: Path) -> None:
    project = stand_in_project(tmp_path)
    project["execution"]["executable"] = str(tmp_path / "no-such-nwchem")
    job = JobManager().start(project)
    assert job.wait(10)
    record = job.snapshot()
    assert record["status"] == "failed"
    assert record["exitCode"] is None
    assert "cannot start" in record["error"]


def test_time_limit_ends_the_whole_process_group_as_timed_out(tmp_path: Path) -> None:
    job = JobManager().start(stand_in_project(tmp_path, "hang", time_limit=1.0))
    assert wait_for(lambda: (job.folder / "fake_nwchem.child").exists())
    child = int((job.folder / "fake_nwchem.child").read_text())
    start = time.monotonic()
    assert job.wait(15)
    assert time.monotonic() - start < 8
    record = on_disk(job)
    assert record["status"] == "timed_out"
    assert "time limit" in record["error"]
    assert not alive(child)
    assert processes_in(job.folder) == []


def test_cancel_ends_the_job_and_its_children_and_records_cancelled(tmp_path: Path) -> None:
    manager = JobManager()
    job = manager.start(stand_in_project(tmp_path, "hang"))
    assert wait_for(lambda: (job.folder / "fake_nwchem.child").exists())
    child = int((job.folder / "fake_nwchem.child").read_text())
    leader = json.loads((job.folder / "fake_nwchem.info").read_text())["pid"]
    assert job.status == "running"
    assert alive(child) and alive(leader)
    job.cancel()
    assert job.wait(10)
    assert on_disk(job)["status"] == "cancelled"
    assert not alive(child) and not alive(leader)
    assert processes_in(job.folder) == []


def test_process_that_ignores_sigterm_is_killed_after_the_grace_period(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "KILL_GRACE", 0.5)
    job = JobManager().start(stand_in_project(tmp_path, "stubborn"))
    assert wait_for(lambda: (job.folder / "fake_nwchem.child").exists())
    time.sleep(0.2)  # let the stand-in install its SIGTERM handler
    start = time.monotonic()
    job.cancel()
    assert job.wait(10)
    assert time.monotonic() - start < 5
    assert job.status == "cancelled"
    assert processes_in(job.folder) == []


def test_second_start_while_running_is_refused(tmp_path: Path) -> None:
    manager = JobManager()
    job = manager.start(stand_in_project(tmp_path, "hang"))
    try:
        with pytest.raises(CalculationError) as info:
            manager.start(stand_in_project(tmp_path, "converge"))
        assert info.value.code == "job_running"
        assert manager.current() is job
    finally:
        manager.stop_all(timeout=10)
    assert job.status == "cancelled"


def test_stop_all_leaves_no_process_behind(tmp_path: Path) -> None:
    manager = JobManager()
    job = manager.start(stand_in_project(tmp_path, "hang"))
    assert wait_for(lambda: (job.folder / "fake_nwchem.child").exists())
    manager.stop_all(timeout=10)
    assert job.wait(0)
    assert job.status == "cancelled"
    assert processes_in(job.folder) == []


def test_several_processes_run_through_the_launcher_with_np_and_no_progress_thread(
    tmp_path: Path,
) -> None:
    log = tmp_path / "launcher.json"
    project = stand_in_project(
        tmp_path / "jobs", "converge", processes=2, environment={"FAKE_LAUNCHER_LOG": str(log)}
    )
    project["execution"]["launcher"] = _command(FAKE_LAUNCHER) + " --allow-run-as-root"
    job = JobManager().start(project)
    assert job.wait(20)
    assert job.status == "finished"
    argv = json.loads(log.read_text())
    assert argv[1:] == [
        "--allow-run-as-root",
        "-np",
        "2",
        sys.executable,
        str(FAKE_NWCHEM),
        "input.nw",
    ]
    assert job.snapshot()["command"][:2] == [sys.executable, str(FAKE_LAUNCHER)]
    info = json.loads((job.folder / "fake_nwchem.info").read_text())
    assert info["env"]["ARMCI_PROGRESS_THREAD"] is None


def test_one_process_does_not_need_the_launcher(tmp_path: Path) -> None:
    project = stand_in_project(tmp_path, "converge", processes=1)
    project["execution"]["launcher"] = str(tmp_path / "no-such-mpirun")
    job = JobManager().start(project)
    assert job.wait(20)
    assert job.status == "finished"


def test_cancel_before_the_process_starts_is_cancelled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = Job._start_thread

    def cancel_first(self: Job) -> None:
        self.cancel()
        original(self)

    monkeypatch.setattr(Job, "_start_thread", cancel_first)
    job = JobManager().start(stand_in_project(tmp_path, "hang"))
    assert job.wait(10)
    assert job.status == "cancelled"
    assert on_disk(job)["status"] == "cancelled"
    assert not (job.folder / "output.out").exists()


def test_listener_may_start_the_next_job_when_it_hears_the_end(tmp_path: Path) -> None:
    started: list[Job] = []
    manager: JobManager

    def listener(job: Job) -> None:
        if job.status in runner.TERMINAL and not started:
            started.append(manager.start(stand_in_project(tmp_path, "converge", task="energy")))

    manager = JobManager(on_change=listener)
    first = manager.start(stand_in_project(tmp_path, "crash", task="energy"))
    assert first.wait(20)
    assert wait_for(lambda: bool(started))
    assert started[0].wait(20)
    assert started[0].status == "finished"
    assert manager.jobs() == [first, started[0]]


def test_failing_listener_does_not_stop_the_job(tmp_path: Path) -> None:
    def listener(job: Job) -> None:
        raise RuntimeError("listener bug")

    job = JobManager(on_change=listener).start(stand_in_project(tmp_path, "converge"))
    assert job.wait(20)
    assert job.status == "finished"


def test_program_exit_without_stop_all_still_ends_running_jobs(tmp_path: Path) -> None:
    import subprocess

    script = (
        "import json, sys, time\n"
        "from molforma.jobs.manager import JobManager\n"
        "from tests.core.test_jobs import stand_in_project, wait_for\n"
        "from pathlib import Path\n"
        f"job = JobManager().start(stand_in_project(Path({str(tmp_path)!r}), 'hang'))\n"
        "assert wait_for(lambda: (job.folder / 'fake_nwchem.child').exists())\n"
        "print(job.folder)\n"
    )
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(repo)},
    )
    assert done.returncode == 0, done.stderr
    folder = Path(done.stdout.strip())
    child = int((folder / "fake_nwchem.child").read_text())
    assert not alive(child)
    assert processes_in(folder) == []
    assert json.loads((folder / "job.json").read_text())["status"] == "cancelled"


def test_a_running_job_records_pid_and_host_so_history_can_tell_a_dead_one(tmp_path: Path) -> None:
    import socket

    from molforma.history.folder_scan import scan

    manager = JobManager()
    job = manager.start(stand_in_project(tmp_path, "converge", delay=0.5))
    assert wait_for(lambda: "host" in json.loads((job.folder / "job.json").read_text()))
    record = json.loads((job.folder / "job.json").read_text())
    assert record["status"] == "running"
    assert record["host"] == socket.gethostname()
    assert isinstance(record["pid"], int) and alive(record["pid"])
    rows = scan([str(tmp_path)])
    assert rows[0].status == "running"
    job.cancel()
    assert job.wait(15)
    # a record left saying "running" by a program that died with its child
    record["status"] = "running"
    (job.folder / "job.json").write_text(json.dumps(record))
    assert not alive(record["pid"])
    assert scan([str(tmp_path)])[0].status == "interrupted"
