"""Batch-job pieces that need no cluster: SLURM time strings, directives, messages, paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from molforma.errors import CalculationError
from molforma.i18n import render
from molforma.jobs import batch, cluster
from molforma.nwchem.settings import PROTECTED_EXECUTION_KEYS, ExecutionSettings


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("30:00", 1800.0),
        ("1:00", 60.0),
        ("2-03:04:05", 2 * 86400 + 3 * 3600 + 4 * 60 + 5.0),
        ("1-00:00:00", 86400.0),
        ("10", 600.0),
        ("01:02:03", 3723.0),
        ("infinite", None),
        ("UNLIMITED", None),
        ("NONE", None),
    ],
)
def test_slurm_time_strings_become_seconds(text: str, seconds: float | None) -> None:
    assert cluster.parse_duration(text) == seconds


def test_batch_directives_are_name_value_pairs_and_anything_else_names_the_setting() -> None:
    assert cluster.directive_pair("--mem=4G") == ("mem", "4G")
    assert cluster.directive_pair("#SBATCH --constraint=cpu") == ("constraint", "cpu")
    for bad in ("mem=4G", "--mem", "-m=4G", "--mem=4G\n#SBATCH --uid=0", "--a b=c", "--=x"):
        with pytest.raises(CalculationError) as info:
            cluster.directive_pair(bad)
        assert info.value.code == "slurm_bad_directive"
        assert info.value.data["setting"] == "batch_directives"


def test_scheduler_account_and_directives_are_protected_and_partition_is_not() -> None:
    for key in ("scheduler", "account", "batch_directives"):
        assert key in PROTECTED_EXECUTION_KEYS
    for key in ("partition", "qos", "nodes", "tasksPerNode", "threads", "time_limit"):
        assert key not in PROTECTED_EXECUTION_KEYS
    ex = ExecutionSettings()
    assert ex.scheduler == "local" and ex.nodes == 1 and ex.tasksPerNode == 1


def test_the_mpi_command_of_a_batch_job_uses_nodes_times_tasks_per_node() -> None:
    one = ExecutionSettings(scheduler="slurm", processes=8)
    assert batch.batch_command(one) == ["nwchem", "input.nw"]
    two = ExecutionSettings(scheduler="slurm", nodes=1, tasksPerNode=2)
    assert batch.batch_command(two)[:3] == ["mpirun", "-np", "2"]
    assert batch.batch_environment(two)["OMP_NUM_THREADS"] == "1"


def test_a_job_folder_with_shell_characters_is_refused_for_batch_jobs(tmp_path: Path) -> None:
    batch.check_folder(tmp_path / "20261201-H2O-energy")
    with pytest.raises(CalculationError) as info:
        batch.check_folder(tmp_path / "my jobs" / "x")
    assert info.value.code == "slurm_unsafe_path" and info.value.data["setting"] == "job_root"


@pytest.mark.parametrize(
    "code",
    [
        "slurm_not_installed",
        "slurm_unreachable",
        "slurm_unknown_partition",
        "slurm_time_limit_too_long",
        "slurm_submit_refused",
        "slurm_bad_directive",
        "slurm_unsafe_path",
        "psij_missing",
    ],
)
def test_every_cluster_message_exists_in_english_and_japanese(code: str) -> None:
    data = {
        "command": "sbatch",
        "reason": "r",
        "partition": "p",
        "partitions": "a, b",
        "limit": "7200",
        "maximum": "3600",
        "value": "v",
        "path": "/x",
    }
    en = render(code, data, "en")
    ja = render(code, data, "ja")
    assert en != ja and "{" not in en and "{" not in ja
    assert any(ord(c) > 0x3000 for c in ja)


def test_without_slurm_on_path_the_message_names_the_scheduler_setting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(CalculationError) as info:
        cluster.check_settings(None, None, [])
    assert info.value.code == "slurm_not_installed"
    assert "scheduler" in info.value.message("en") and "scheduler" in info.value.message("ja")
    assert cluster.cluster_info()["reachable"] is False
