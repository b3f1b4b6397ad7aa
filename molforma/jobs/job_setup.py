"""Preparing a job: its folder, input, snapshot, record, command and environment (no Qt).

Everything a job needs is computed first (:class:`_Prepared`: the input text, the argv,
the environment, the record); only then is the folder ``<job root>/<YYYYmmdd-HHMMSS>-
<formula>-<task>/`` made and filled, and a refusal removes it, so no half-written folder
is left (docs/reference/jobs.md, Job folders). :mod:`molforma.jobs.runner` runs what this prepared;
:mod:`molforma.jobs.batch` and :mod:`molforma.jobs.remote` submit it.
"""

from __future__ import annotations

import copy
import datetime as _dt
import os
import shlex
import shutil
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError as PydanticError

from molforma.document.envelope import formula
from molforma.errors import CalculationError, FileAccessError, MolFormaError
from molforma.fileio import atomic_write_text, finite_or_none, strict_json_dumps
from molforma.i18n import register
from molforma.lazy import lazy_import
from molforma.nwchem.input import input_errors, render_input
from molforma.nwchem.progress import ProgressTracker
from molforma.nwchem.settings import CalculationSettings, ExecutionSettings

if TYPE_CHECKING:
    from molforma.jobs import folders
else:  # imported on first use (start-up time): molforma.lazy
    folders = lazy_import("molforma.jobs.folders")

INPUT_NAME = "input.nw"
OUTPUT_NAME = "output.out"
ERROR_NAME = "error.err"
RECORD_NAME = "job.json"
SNAPSHOT_NAME = "project.molforma.json"
PREFIX = "molforma"
JOB_FORMAT = "molforma-job"
JOB_VERSION = 1
_TASK_SLUGS = {"optimize+frequencies": "optfreq"}

register(
    {
        "input_invalid": {
            "en": "The calculation cannot run yet: {summary}",
            "ja": "まだ計算を実行できません: {summary}",
        },
        "bad_command": {
            "en": "The {setting} command '{value}' cannot be used: {reason}",
            "ja": "{setting} のコマンド「{value}」は使えません: {reason}",
        },
        "bad_environment": {
            "en": "Environment variable '{name}' is not valid.",
            "ja": "環境変数「{name}」は不正です。",
        },
    }
)


def _now() -> str:
    """The current time as an ISO 8601 UTC string."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _settings(project: Mapping[str, Any]) -> tuple[CalculationSettings, ExecutionSettings]:
    try:
        calc = CalculationSettings.model_validate(dict(project.get("calculation") or {}))
        execution = ExecutionSettings.model_validate(dict(project.get("execution") or {}))
    except PydanticError as exc:
        err = exc.errors(include_url=False)[0]
        raise CalculationError(
            "bad_setting",
            block="calculation/execution",
            key=".".join(str(x) for x in err["loc"]),
            reason=err["msg"],
        ) from exc
    return calc, execution


def _split(setting: str, value: str) -> list[str]:
    try:
        argv = shlex.split(value)
    except ValueError as exc:
        raise CalculationError(
            "bad_command", setting=setting, value=value, reason=str(exc)
        ) from exc
    if not argv:
        raise CalculationError("bad_command", setting=setting, value=value, reason="empty")
    argv[0] = os.path.expanduser(argv[0])
    return argv


def build_command(execution: ExecutionSettings, input_name: str = INPUT_NAME) -> list[str]:
    """The argv of a job: the executable alone for 1 process, else launcher -np N ….

    Raises:
        CalculationError: ``bad_command`` for an empty or unparsable command string.
    """
    exe = _split("executable", execution.executable)
    if execution.processes <= 1:
        return [*exe, input_name]
    launcher = _split("launcher", execution.launcher)
    # No ARMCI_PROGRESS_THREAD by default: it helps only where MPI offers
    # MPI_THREAD_MULTIPLE, and Debian's NWChem 7.0.2 answers it with "progress thread
    # disabled" on every rank. A person who has such a build sets it in the
    # environment table (Open MPI's mpirun passes the environment on to the ranks).
    return [*launcher, "-np", str(execution.processes), *exe, input_name]


def build_environment(execution: ExecutionSettings) -> dict[str, str]:
    """The child's environment: ours, OMP_NUM_THREADS, Open MPI's root switches, then the user's.

    Raises:
        CalculationError: ``bad_environment`` for a name or value the OS cannot take.
    """
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(execution.threads)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # Open MPI refuses to start as root without these (or --allow-run-as-root).
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    for name, value in execution.environment.items():
        if not name or "=" in name or "\0" in name or "\0" in str(value):
            raise CalculationError("bad_environment", name=name)
        env[name] = str(value)
    return env


def job_root(execution: ExecutionSettings) -> Path:
    """The job root with ``~`` expanded (not created)."""
    return Path(os.path.expanduser(execution.job_root))


def _task_slug(task: str) -> str:
    return _TASK_SLUGS.get(task, task)


def _make_folder(root: Path, formula_text: str, task: str) -> Path:
    """Create ``<root>/<YYYYmmdd-HHMMSS>-<formula>-<task>/``, unique with a -2, -3 … suffix."""
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileAccessError(path=str(root), reason=exc.strerror or str(exc)) from exc
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = f"{stamp}-{formula_text or 'empty'}-{_task_slug(task)}"
    for n in range(1, 1000):
        folder = root / (base if n == 1 else f"{base}-{n}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        except OSError as exc:
            raise FileAccessError(path=str(folder), reason=exc.strerror or str(exc)) from exc
        return folder
    raise FileAccessError(path=str(root / base), reason="no free folder name")


def _check_runnable(project: Mapping[str, Any]) -> None:
    problems = input_errors(project) + folders.folder_problems(project)
    if problems:
        summary = "; ".join(p["message"] for p in problems)
        raise CalculationError("input_invalid", summary=summary, problems=problems)


class _Prepared:
    """Everything a job needs, computed before any file is written."""

    def __init__(self, project: Mapping[str, Any]) -> None:
        _check_runnable(project)
        self.calc, self.execution = _settings(project)
        self.project = copy.deepcopy(dict(project))
        self.input_text = render_input(self.project, prefix=PREFIX)
        self.command = build_command(self.execution)
        self.env = build_environment(self.execution)
        doc = self.project.get("document") or {}
        self.formula = formula(doc.get("atoms") or [])
        self.title = str(doc.get("title") or "") or self.formula
        self.charge = int(doc.get("charge", 0) or 0)
        self.multiplicity = int(doc.get("multiplicity", 1) or 1)

    def write(
        self,
        *,
        saved_only: bool,
        extra: Mapping[str, Any] | None = None,
        check_folder: Callable[[Path], None] | None = None,
    ) -> tuple[Path, dict[str, Any]]:
        """Make the folder and write input, snapshot and record; no half-written folder.

        ``extra`` adds record fields (a batch job's); ``check_folder`` may refuse the
        folder made, which is then removed.
        """
        folder = _make_folder(job_root(self.execution), self.formula, self.calc.task)
        record = {
            "format": JOB_FORMAT,
            "version": JOB_VERSION,
            "id": folder.name,
            "title": self.title,
            "formula": self.formula,
            "charge": self.charge,
            "multiplicity": self.multiplicity,
            "task": self.calc.task,
            "theory": self.calc.theory,
            "basis": self.calc.basis,
            "functional": self.calc.functional if self.calc.theory == "dft" else None,
            "status": "queued",
            "createdAt": _now(),
            "startedAt": None,
            "finishedAt": None,
            "exitCode": None,
            "command": list(self.command),
            "processes": self.execution.processes,
            "threads": self.execution.threads,
            "timeLimit": self.execution.time_limit,
            "scfConverged": None,
            "optimizationConverged": None,
            "finalEnergy": None,
            "progress": ProgressTracker().to_dict(),
            "error": None,
            "savedOnly": saved_only,
            "scheduler": self.execution.scheduler,
            **(extra or {}),
        }
        try:
            if check_folder is not None:
                check_folder(folder)
            if not saved_only:
                self._make_work_dirs(folder)
            atomic_write_text(folder / INPUT_NAME, self.input_text)
            atomic_write_text(
                folder / SNAPSHOT_NAME,
                strict_json_dumps(self.project, "The project", indent=2, ensure_ascii=False),
            )
            atomic_write_text(folder / RECORD_NAME, _dump(record))
        except MolFormaError:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return folder, record

    def _make_work_dirs(self, folder: Path) -> None:
        """Create the scratch and permanent directories: NWChem stops when they are missing."""
        advanced = self.project.get("advanced") or {}
        for key in ("scratch_dir", "permanent_dir"):
            value = advanced.get(key)
            if not isinstance(value, str) or not value:
                continue
            path = folder / os.path.expanduser(value)  # a relative path is inside the job
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise FileAccessError(path=str(path), reason=exc.strerror or str(exc)) from exc


def _dump(record: Mapping[str, Any]) -> str:
    # A record is written while a job runs: a NaN energy that NWChem printed must not
    # stop the job's bookkeeping, so it is written as null (JSON has no NaN).
    return (
        strict_json_dumps(finite_or_none(record), "The job record", indent=2, ensure_ascii=False)
        + "\n"
    )
