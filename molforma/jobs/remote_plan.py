"""What a remote batch job is before it is submitted (no Qt): the person's cluster profile,
what differs between the schedulers (:data:`SYSTEMS`: SLURM and PBS/Torque), the names of
the job's remote folder, and :class:`RemotePlan`, the checked settings and batch script.

:mod:`molforma.jobs.remote` submits and follows the job. Trust as there: the profile
always comes from the person's Preferences; every word that reaches the remote shell is a
constant or a value checked by its grammar, quoted with :func:`shlex.join`.
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Callable
from typing import Any

from molforma.errors import CalculationError, MolFormaError
from molforma.i18n import register
from molforma.jobs import cluster
from molforma.jobs.batch import check_batch_values, mpi_processes
from molforma.jobs.job_setup import INPUT_NAME, OUTPUT_NAME
from molforma.jobs.ssh import Ssh
from molforma.nwchem import value_grammar as grammar
from molforma.nwchem.settings import ExecutionSettings
from molforma.preferences import ClusterProfile, check_profile, load_preferences

SCRIPT_NAME = "job.sbatch"
EXIT_NAME = ".molforma-exit"  # NWChem's exit code, written by the batch script after it
CHUNK = 4 * 1024 * 1024  # most bytes of output.out brought per look
_FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+\-]{0,254}")
LIFETIME_NOTE = (
    "Remote batch job: it belongs to the cluster. Closing MolForma does not "
    "cancel it; a later MolForma re-attaches to it from this record and "
    "copies its results home."
)


# One look at the job, as one line for any login shell: $1 folder, $2 job id, $3 the
# first byte of output.out not yet copied (tail -c +N counts from 1).
def _poll_script(state: str) -> str:
    return (
        'cd -- "$1" || exit 3; echo @@state@@; ' + state + "; "
        "echo @@exit@@; cat " + EXIT_NAME + " 2>/dev/null; echo; echo @@output@@; "
        'tail -c +"$3" ' + OUTPUT_NAME + " 2>/dev/null | head -c " + str(CHUNK)
    )


_POLL = _poll_script(
    'scontrol show job -o "$2" 2>/dev/null || '
    'sacct -n -P -X -j "$2" -o State,ExitCode,Reason 2>/dev/null'
)

register(
    {
        "remote_profile_unknown": {
            "en": "There is no cluster profile '{profile}' in Preferences (profiles: {profiles}). "
            "Choose one of them in the execution setting remote_profile, or ask the person "
            "to add it in Preferences.",
            "ja": "環境設定にクラスタープロファイル「{profile}」はありません（プロファイル: "
            "{profiles}）。実行設定 remote_profile でそのいずれかを選ぶか、環境設定への"
            "追加を利用者に依頼してください。",
        },
        "remote_needs_slurm": {
            "en": "The cluster profile '{profile}' is chosen but the execution setting scheduler "
            "is '{scheduler}'. A remote job is a batch job: set scheduler to slurm, or "
            "clear remote_profile to run here.",
            "ja": "クラスタープロファイル「{profile}」が選ばれていますが、実行設定 scheduler は"
            "「{scheduler}」です。リモートジョブはバッチジョブです。scheduler を slurm に"
            "するか、ここで実行するなら remote_profile を空にしてください。",
        },
        "remote_submit_refused": {
            "en": "Cluster profile '{profile}': the cluster refused the job: {reason}. Check the "
            "execution settings partition, account, qos, nodes, tasksPerNode, threads, "
            "time_limit and batch_directives.",
            "ja": "クラスタープロファイル「{profile}」: クラスターがジョブを受け付けませんでした: "
            "{reason}。実行設定 partition、account、qos、nodes、tasksPerNode、threads、"
            "time_limit、batch_directives を確認してください。",
        },
    }
)


# PBS/Torque's job_state letters as the SLURM states the follower judges by (an ended
# job is C, or F on PBS Pro: NWChem's exit code and MolForma's own cancel tell the rest).
_PBS_STATES = {
    "Q": "PENDING",
    "W": "PENDING",
    "H": "PENDING",
    "T": "PENDING",
    "R": "RUNNING",
    "E": "COMPLETING",
    "S": "SUSPENDED",
    "C": "COMPLETED",
    "F": "COMPLETED",
    "X": "COMPLETED",
}
_PBS_REASONS = {"H": "held", "W": "waiting for its start time", "T": "being moved"}


def _pbs_state_fields(text: str) -> dict[str, str]:
    """``qstat -f`` as :func:`_state_fields`' keys; {} when PBS no longer knows the job."""
    letter = ""
    for line in text.splitlines():
        key, sep, value = line.strip().partition(" = ")
        if sep and key == "job_state":
            letter = value.strip()
            break
    if not letter:
        return {}
    return {
        "JobState": _PBS_STATES.get(letter, "PENDING"),
        "PbsState": letter,
        "Reason": _PBS_REASONS.get(letter, ""),
    }


class BatchSystem:
    """What differs between schedulers, chosen by the profile's ``scheduler``: the script's
    name and directive lines, how it is submitted, how a job is looked at and cancelled.
    Everything else (folders, copying, following, judging the end) is shared."""

    def __init__(
        self,
        *,
        script_name: str,
        submit: Callable[[str, str], list[str]],
        poll: str,
        cancel: str,
        parse: Callable[[str], dict[str, str]],
        native_id: str,
    ) -> None:
        self.script_name = script_name
        self.submit = submit  # (remote folder, script name) -> the command that submits
        self.poll = poll
        self.cancel = cancel
        self.parse = parse
        self.native_id = re.compile(native_id)


SYSTEMS: dict[str, BatchSystem] = {
    "slurm": BatchSystem(
        script_name=SCRIPT_NAME,
        submit=lambda where, script: [
            "sbatch",
            "--parsable",
            f"--chdir={where}",
            f"{where}/{script}",
        ],
        poll=_POLL,
        cancel="scancel",
        parse=lambda text: _state_fields(text),
        native_id=r"\d+",
    ),
    # Torque's qsub prints "<number>.<server>"; the slurm-wlm-torque wrappers "<number>".
    "pbs": BatchSystem(
        # qsub has no folder option of its own everywhere: it is run in the job's folder.
        script_name="job.pbs",
        submit=lambda where, script: [
            "sh",
            "-c",
            'cd -- "$1" && exec qsub "$2"',
            "sh",
            where,
            script,
        ],
        poll=_poll_script('qstat -f "$2" 2>/dev/null'),
        cancel="qdel",
        parse=_pbs_state_fields,
        native_id=r"\d+(\.[A-Za-z0-9_\-]+)*",
    ),
}


def find_profile(name: str) -> ClusterProfile:
    """The person's profile ``name`` from Preferences (read now, never from elsewhere).

    Raises:
        CalculationError: ``remote_profile_unknown`` (the profiles there are named).
    """
    prefs = load_preferences()
    profile = prefs.profile(name)
    if profile is None:
        raise CalculationError(
            "remote_profile_unknown",
            profile=name,
            profiles=", ".join(p.name for p in prefs.profiles) or "-",
            setting="remote_profile",
        )
    return profile


# How many names a submission tries for its remote folder: ``<job id>``, then
# ``<job id>-2`` ... when another MolForma (another computer, the same second and
# formula) has the name already.
REMOTE_NAME_TRIES = 20


def remote_job_folder(profile: ClusterProfile, job_id: str, n: int = 1) -> str:
    """``<remote_folder>/<job id>`` (``-<n>`` added from the second try), the job id
    checked as a file name."""
    if not _FILE_NAME.fullmatch(job_id):
        raise CalculationError("slurm_unsafe_path", path=job_id, setting="job_root")
    name = job_id if n <= 1 else f"{job_id}-{n}"
    return f"{profile.remote_folder.rstrip('/')}/{name}"


def _is_job_folder(profile: ClusterProfile, job_id: str, folder: object) -> bool:
    """Whether ``folder`` is one of the names a submission of ``job_id`` could have made."""
    return any(
        folder == remote_job_folder(profile, job_id, n) for n in range(1, REMOTE_NAME_TRIES + 1)
    )


def test_connection(profile: ClusterProfile) -> dict[str, Any]:
    """What the Preferences' "Test connection" shows: reachable, else the error; and the
    partitions ``sinfo`` lists on the cluster."""
    # PBS has no sinfo: qstat answering is the test, and no partitions are listed.
    argv = list(cluster.SINFO_ARGV) if profile.scheduler == "slurm" else ["qstat"]
    try:
        out = Ssh(profile).run(argv)
    except MolFormaError as exc:
        return {
            "profile": profile.name,
            "reachable": False,
            "error": exc.code,
            "message": exc.message(),
            "partitions": [],
        }
    if profile.scheduler != "slurm":
        return {"profile": profile.name, "reachable": True, "partitions": []}
    parts = cluster.parse_partitions(out.stdout.decode("utf-8", "replace"))
    return {"profile": profile.name, "reachable": True, "partitions": [p.to_dict() for p in parts]}


def cluster_info(profile_name: str) -> dict[str, Any]:
    """``get_execution.cluster`` for a job going to the profile ``profile_name``: as
    :func:`molforma.jobs.cluster.cluster_info`, asked on the remote cluster over ssh,
    with ``profile``; an unknown profile is unreachable with its error."""
    try:
        profile = find_profile(profile_name)
    except CalculationError as exc:
        return {
            "scheduler": "slurm",
            "profile": profile_name,
            "reachable": False,
            "error": exc.code,
            "message": exc.message(),
            "partitions": [],
        }
    return {"scheduler": "slurm", **test_connection(profile)}


class RemotePlan:
    """A remote batch job's settings, checked (grammar, then the cluster) before any
    folder is written."""

    def __init__(self, execution: ExecutionSettings) -> None:
        check_batch_values(execution)
        name = str(execution.remote_profile or "")
        if execution.scheduler != "slurm":
            raise CalculationError(
                "remote_needs_slurm",
                profile=name,
                scheduler=execution.scheduler,
                setting="scheduler",
            )
        self.profile = find_profile(name)
        check_profile(self.profile)
        self.execution = execution
        self.ssh = Ssh(self.profile)
        ex = execution
        self.account = ex.account or self.profile.account or None
        self.qos = ex.qos or self.profile.qos or None
        wanted = ex.partition or self.profile.partition or None
        for value in ex.batch_directives:
            cluster.directive_pair(value)
        self.system = SYSTEMS[self.profile.scheduler]
        if self.profile.scheduler == "pbs":
            # PBS has no QoS, and batch_directives are sbatch options: refused, never
            # dropped, so a job never runs with less than was asked.
            asked = {"qos": bool(self.qos), "batch_directives": bool(ex.batch_directives)}
            for key, given in asked.items():
                if given:
                    raise CalculationError(
                        "remote_submit_refused",
                        profile=self.profile.name,
                        reason=f"{key} is a SLURM setting; a pbs profile takes none",
                        setting=key,
                    )
            # qsub itself refuses a queue the server does not have.
            self.partition = grammar.validate_slurm_name("partition", wanted) or None
        else:
            # The cluster is asked before anything is written: a wrong partition or a
            # time limit it does not allow is refused with the names it offers.
            out = self.ssh.run(list(cluster.SINFO_ARGV))
            parts = cluster.parse_partitions(out.stdout.decode("utf-8", "replace"))
            self.partition = cluster.choose_partition(parts, wanted, ex.time_limit)
        self.command = self._command()

    def _command(self) -> list[str]:
        p = self.profile
        ranks = mpi_processes(self.execution)
        exe = p.nwchem_command.split()
        if ranks <= 1:
            return [*exe, INPUT_NAME]
        return [*p.launcher.split(), "-np", str(ranks), *exe, INPUT_NAME]

    def record_fields(self) -> dict[str, Any]:
        """What the job record adds for a remote batch job."""
        ex = self.execution
        return {
            "scheduler": "slurm",
            "batchSystem": self.profile.scheduler,
            "nativeId": None,
            "partition": self.partition,
            "account": self.account,
            "qos": self.qos,
            "nodes": ex.nodes,
            "tasksPerNode": ex.tasksPerNode,
            "batchDirectives": list(ex.batch_directives),
            "processes": mpi_processes(ex),
            "command": list(self.command),
            "queueReason": None,
            "schedulerState": None,
            "survivesExit": True,
            "remote": {"profile": self.profile.name, "host": self.profile.host, "folder": None},
            "remoteOnly": [],
            "note": LIFETIME_NOTE,
        }

    def script(self, job_id: str) -> str:
        """The batch script: every line a constant or checked values, each word quoted."""
        ex = self.execution
        name = grammar.validate_job_name(f"molforma-{job_id}"[:64])
        opts: list[tuple[str, str]] = [
            ("job-name", name),
            ("output", OUTPUT_NAME),
            ("error", "error.err"),
            ("nodes", str(ex.nodes)),
            ("ntasks-per-node", str(ex.tasksPerNode)),
            ("cpus-per-task", str(ex.threads)),
        ]
        for key, value in (
            ("partition", self.partition),
            ("account", self.account),
            ("qos", self.qos),
        ):
            if value:
                opts.append((key, str(grammar.validate_slurm_name(key, value))))
        if ex.time_limit:
            opts.append(("time", str(max(1, math.ceil(float(ex.time_limit) / 60.0)))))
        opts += [cluster.directive_pair(d) for d in ex.batch_directives]
        lines = ["#!/bin/bash -l"]
        run = shlex.join(self.command)
        if self.profile.scheduler == "pbs":
            lines += _pbs_header(opts)
            # PBS may keep a job's own output until it ends: NWChem writes output.out
            # itself, so it is followed while it runs; the job starts in $HOME on PBS.
            run += f" > {OUTPUT_NAME} 2> error.err"
            lines.append('cd -- "${PBS_O_WORKDIR:-.}" || exit 1')
        else:
            lines += [f"#SBATCH --{key}={shlex.quote(value)}" for key, value in opts]
        lines.append(
            "# Written by MolForma for its job " + name + "; NWChem's exit code "
            "goes to " + EXIT_NAME + "."
        )
        lines += grammar.validate_remote_environment_lines(
            list(self.profile.environment_lines), self.profile.name
        )
        lines.append(f"export OMP_NUM_THREADS={int(ex.threads)}")
        lines.append(run)
        lines += ["rc=$?", f'echo "$rc" > {EXIT_NAME}', 'exit "$rc"', ""]
        return "\n".join(lines)


def _pbs_header(opts: list[tuple[str, str]]) -> list[str]:
    """The ``#PBS`` lines for the same checked values the ``#SBATCH`` lines take."""
    given = dict(opts)
    lines = [
        f"#PBS -N {shlex.quote(given['job-name'])}",
        "#PBS -o scheduler.out",
        "#PBS -e scheduler.err",
    ]
    if given.get("partition"):
        lines.append(f"#PBS -q {shlex.quote(given['partition'])}")
    if given.get("account"):
        lines.append(f"#PBS -A {shlex.quote(given['account'])}")
    nodes, ppn = int(given["nodes"]), int(given["ntasks-per-node"]) * int(given["cpus-per-task"])
    lines.append(f"#PBS -l nodes={nodes}:ppn={ppn}")
    if given.get("time"):
        minutes = int(given["time"])
        lines.append(f"#PBS -l walltime={minutes // 60:02d}:{minutes % 60:02d}:00")
    return lines


def _state_fields(text: str) -> dict[str, str]:
    """``scontrol show job -o`` fields, or ``sacct -P`` State|ExitCode|Reason as the same
    keys; {} when the scheduler no longer knows the job."""
    text = text.strip()
    if not text:
        return {}
    if "JobState=" in text:
        info: dict[str, str] = {}
        for field in text.split():
            key, sep, value = field.partition("=")
            if sep and key not in info:
                info[key] = value
        return info
    cols = text.splitlines()[0].split("|")
    state = cols[0].split()[0] if cols and cols[0].split() else ""
    return {
        "JobState": state,
        "ExitCode": cols[1] if len(cols) > 1 else "",
        "Reason": cols[2] if len(cols) > 2 else "",
    }
