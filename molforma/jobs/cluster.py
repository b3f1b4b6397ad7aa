"""What a SLURM cluster offers and what it says about one job (no Qt).

Submission, status polling and cancel go through PSI/J (:mod:`molforma.jobs.batch`);
this module asks SLURM's own clients only what PSI/J does not tell: the partitions
with their time limits (``sinfo``), checked before a job folder is written, and one
job's state, reason and exit code (``scontrol show job``), which tell a time-out from
a failure and say why a job waits. Every failure a person can fix is a
:class:`~molforma.errors.CalculationError` whose message names the setting to change.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

from molforma.errors import CalculationError, ValidationError
from molforma.i18n import register
from molforma.nwchem import value_grammar as grammar

COMMAND_TIMEOUT = 20.0  # seconds; a controller that does not answer by then is unreachable

register(
    {
        "slurm_not_installed": {
            "en": "SLURM is not installed on this computer ('{command}' was not found). Install "
            "SLURM's client commands (sbatch, squeue, sinfo, scontrol, scancel) or set the "
            "execution setting scheduler to local.",
            "ja": "このコンピューターにはSLURMがインストールされていません（「{command}」が見つかり"
            "ません）。SLURMのクライアントコマンド（sbatch、squeue、sinfo、scontrol、scancel）を"
            "インストールするか、実行設定 scheduler を local にしてください。",
        },
        "slurm_unreachable": {
            "en": "The SLURM cluster does not answer: {reason}. Check that its controller is "
            "running and SLURM_CONF points to its configuration, or set the execution "
            "setting scheduler to local.",
            "ja": "SLURMクラスターが応答しません: {reason}。コントローラーが動いていて SLURM_CONF が"
            "その設定ファイルを指しているか確認するか、実行設定 scheduler を local にしてください。",
        },
        "slurm_unknown_partition": {
            "en": "The cluster has no partition '{partition}' (it offers: {partitions}). Change "
            "the execution setting partition.",
            "ja": "クラスターにパーティション「{partition}」はありません（利用可能: {partitions}）。"
            "実行設定 partition を変更してください。",
        },
        "slurm_time_limit_too_long": {
            "en": "The time limit of {limit} s is longer than partition '{partition}' allows "
            "({maximum} s). Lower the execution setting time_limit or choose another "
            "partition.",
            "ja": "制限時間 {limit} 秒はパーティション「{partition}」の上限（{maximum} 秒）を"
            "超えています。実行設定 time_limit を短くするか、別のパーティションを選んでください。",
        },
        "slurm_submit_refused": {
            "en": "The cluster refused the job: {reason}. Check the execution settings partition, "
            "account, qos, nodes, tasksPerNode, threads, time_limit and batch_directives.",
            "ja": "クラスターがジョブを受け付けませんでした: {reason}。実行設定 partition、account、"
            "qos、nodes、tasksPerNode、threads、time_limit、batch_directives を確認してください。",
        },
        "slurm_bad_directive": {
            "en": "The batch directive '{value}' is not of the form --name=value with a name of "
            "lowercase letters, digits and '-' and a value of letters, digits and "
            "_ @ % + = : , . / - only. Change the execution setting batch_directives.",
            "ja": "バッチ指定「{value}」が --name=value の形（name は小文字英字・数字・'-'、value は"
            "英数字と _ @ % + = : , . / - だけ）ではありません。実行設定 batch_directives を"
            "変更してください。",
        },
        "slurm_unsafe_path": {
            "en": "The job folder '{path}' holds characters a batch script cannot carry "
            "(spaces, quotes or other shell characters). Choose another execution setting "
            "job_root.",
            "ja": "ジョブフォルダー「{path}」にはバッチスクリプトで扱えない文字（空白、引用符などの"
            "シェル文字）が含まれています。実行設定 job_root を変更してください。",
        },
        "psij_missing": {
            "en": "Batch jobs need the Python package psij-python, which is not installed. "
            "Install it (pip install psij-python) or set the execution setting scheduler "
            "to local.",
            "ja": "バッチジョブには Python パッケージ psij-python が必要ですが、インストールされて"
            "いません。インストールする（pip install psij-python）か、実行設定 scheduler を "
            "local にしてください。",
        },
    }
)


@dataclass(frozen=True)
class Partition:
    """One partition as ``sinfo`` lists it."""

    name: str
    default: bool
    available: bool
    max_time: float | None  # seconds; None = no limit
    nodes: int
    cpus: int

    def to_dict(self) -> dict[str, Any]:
        """The ``get_execution.cluster.partitions`` entry."""
        return {
            "name": self.name,
            "default": self.default,
            "available": self.available,
            "maxTime": self.max_time,
            "nodes": self.nodes,
            "cpus": self.cpus,
        }


def _path() -> str:
    # Debian puts some SLURM tools in /usr/sbin, which a user's PATH may lack.
    return os.environ.get("PATH", os.defpath)


def which(command: str) -> str:
    """The full path of a SLURM client command.

    Raises:
        CalculationError: ``slurm_not_installed``.
    """
    found = shutil.which(command, path=_path())
    if not found:
        raise CalculationError("slurm_not_installed", command=command, setting="scheduler")
    return found


def run(*argv: str) -> str:
    """Run a SLURM client command and return its stdout.

    Raises:
        CalculationError: ``slurm_not_installed`` (no such command) or
            ``slurm_unreachable`` (non-zero exit, e.g. the controller is down).
    """
    exe = which(argv[0])
    try:
        res = subprocess.run(
            [exe, *argv[1:]],
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as exc:
        raise CalculationError(
            "slurm_unreachable",
            setting="scheduler",
            reason=f"{argv[0]} gave no answer in {COMMAND_TIMEOUT:.0f} s",
        ) from exc
    except OSError as exc:
        raise CalculationError(
            "slurm_unreachable", setting="scheduler", reason=exc.strerror or str(exc)
        ) from exc
    if res.returncode != 0:
        reason = _first_line(res.stderr or res.stdout) or f"{argv[0]} exit code {res.returncode}"
        raise CalculationError("slurm_unreachable", setting="scheduler", reason=reason)
    return res.stdout


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def parse_duration(text: str) -> float | None:
    """SLURM's ``[days-]hours:minutes:seconds`` (or ``minutes``, ``m:s``) in seconds.

    ``infinite``, ``UNLIMITED``, ``NONE`` and ``n/a`` are None (no limit).
    """
    text = text.strip()
    if not text or text.lower() in ("infinite", "unlimited", "none", "n/a", "partition_limit"):
        return None
    days = 0
    if "-" in text:
        d, text = text.split("-", 1)
        days = int(d)
    parts = [int(p) for p in text.split(":")]
    if len(parts) == 1:
        h, m, s = 0, parts[0], 0  # a bare number is minutes
    elif len(parts) == 2:
        h, (m, s) = 0, parts
    else:
        h, m, s = parts[-3:]
    return float(((days * 24 + h) * 60 + m) * 60 + s)


def partitions() -> list[Partition]:
    """Every partition of the cluster (``sinfo``), the default one marked.

    Raises:
        CalculationError: ``slurm_not_installed`` or ``slurm_unreachable``.
    """
    return parse_partitions(run(*SINFO_ARGV))


# What sinfo is asked: here and on a remote cluster over ssh (molforma.jobs.remote).
SINFO_ARGV: tuple[str, ...] = ("sinfo", "-h", "-o", "%P|%a|%l|%D|%C")


def parse_partitions(out: str) -> list[Partition]:
    """The partitions in the output of :data:`SINFO_ARGV`, the default one marked."""
    found: dict[str, Partition] = {}
    for line in out.splitlines():
        cols = line.strip().split("|")
        if len(cols) < 5:
            continue
        name = cols[0]
        default = name.endswith("*")
        name = name.rstrip("*")
        try:
            limit = parse_duration(cols[2])
        except ValueError:
            limit = None
        cpus = cols[4].split("/")[-1]  # allocated/idle/other/total
        found.setdefault(
            name,
            Partition(
                name=name,
                default=default,
                available=cols[1] == "up",
                max_time=limit,
                nodes=int(cols[3]) if cols[3].isdigit() else 0,
                cpus=int(cpus) if cpus.isdigit() else 0,
            ),
        )
    return list(found.values())


def cluster_info() -> dict[str, Any]:
    """``get_execution.cluster``: reachable or not, and the partitions when it is."""
    try:
        parts = partitions()
    except CalculationError as exc:
        return {
            "scheduler": "slurm",
            "reachable": False,
            "error": exc.code,
            "message": exc.message(),
            "partitions": [],
        }
    return {"scheduler": "slurm", "reachable": True, "partitions": [p.to_dict() for p in parts]}


def check_settings(
    partition: str | None, time_limit: float | None, directives: list[str]
) -> str | None:
    """Check a batch job's settings against the cluster before anything is written.

    Returns:
        The partition the job will use (the named one or the cluster's default).

    Raises:
        CalculationError: ``slurm_not_installed``, ``slurm_unreachable``,
            ``slurm_unknown_partition``, ``slurm_time_limit_too_long``,
            ``slurm_bad_directive``.
        ValidationError: ``bad_slurm_name`` or ``bad_time_limit`` (the value's grammar).
    """
    # The grammar first: a value that could break the batch script never reaches a command.
    grammar.validate_partition(partition)
    grammar.validate_time_limit(time_limit)
    for value in directives:
        directive_pair(value)
    which("sbatch")
    return choose_partition(partitions(), partition, time_limit)


def choose_partition(
    parts: list[Partition], partition: str | None, time_limit: float | None
) -> str | None:
    """The partition a job will use among ``parts`` (the named one or the default),
    checked against the time limit; shared by local and remote clusters.

    Raises:
        CalculationError: ``slurm_unknown_partition``, ``slurm_time_limit_too_long``.
    """
    if partition:
        chosen = next((p for p in parts if p.name == partition), None)
        if chosen is None:
            raise CalculationError(
                "slurm_unknown_partition",
                partition=partition,
                setting="partition",
                partitions=", ".join(p.name for p in parts) or "-",
            )
    else:
        chosen = next((p for p in parts if p.default), None)
    if (
        chosen is not None
        and time_limit
        and chosen.max_time is not None
        and math.ceil(time_limit / 60.0) * 60.0 > chosen.max_time
    ):
        raise CalculationError(
            "slurm_time_limit_too_long",
            limit=f"{time_limit:g}",
            maximum=f"{chosen.max_time:g}",
            partition=chosen.name,
            setting="time_limit",
        )
    return chosen.name if chosen is not None else None


def directive_pair(value: str) -> tuple[str, str]:
    """``--mem=4G`` → ``("mem", "4G")``, by the grammar of
    :func:`molforma.nwchem.value_grammar.directive_parts`.

    Raises:
        CalculationError: ``slurm_bad_directive`` or ``reserved_batch_directive``.
    """
    try:
        return grammar.directive_parts(value)
    except ValidationError as exc:
        code = exc.code if exc.code == "reserved_batch_directive" else "slurm_bad_directive"
        raise CalculationError(code, **{**exc.data, "setting": "batch_directives"}) from exc


def job_info(native_id: str) -> dict[str, str] | None:
    """``scontrol show job`` of one job as a dict (JobState, Reason, ExitCode, …).

    None when SLURM cannot be asked or no longer knows the job.
    """
    try:
        out = run("scontrol", "show", "job", "-o", native_id)
    except CalculationError:
        return None
    info: dict[str, str] = {}
    for field in out.split():
        key, sep, value = field.partition("=")
        if sep and key not in info:
            info[key] = value
    return info or None
