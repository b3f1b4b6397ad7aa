"""Cluster profiles (Preferences) and the checks before any ssh command (no cluster needed).

The end-to-end tests against a real sshd in front of a real SLURM are in
tests/core/test_remote_cluster.py and tests/mcp/test_remote_cluster_mcp.py.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from molforma.errors import CalculationError, ValidationError
from molforma.jobs import remote, ssh
from molforma.nwchem.settings import ExecutionSettings
from molforma.preferences import (
    ClusterProfile,
    Preferences,
    load_preferences,
    parse_preferences,
    preferences_path,
)

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "remote-clusters.md"

PROFILE: dict[str, Any] = {
    "name": "hpc",
    "host": "hpc-login",
    "remote_folder": "/scratch/ada/molforma-jobs",
    "environment_lines": ["module load nwchem/7.2.2"],
    "nwchem_command": "nwchem",
}


def _write_prefs(data: dict[str, Any]) -> Path:
    path = preferences_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def test_the_profile_shown_in_the_docs_is_read_as_it_is_stored() -> None:
    block = re.search(r"```json\n(.*?)```", DOC.read_text(), re.S)
    assert block is not None
    prefs = parse_preferences(block.group(1))
    hpc = prefs.profile("hpc")
    assert hpc is not None and hpc.host == "hpc-login" and hpc.launcher == "srun"
    assert hpc.environment_lines[1] == "module load nwchem/7.2.2"
    assert hpc.ssh_config == "/home/ada/.ssh/config"


@pytest.mark.parametrize(
    ("key", "value", "code_words"),
    [
        ("nwchem_command", "nwchem; touch {canary}", "nwchem_command"),
        ("nwchem_command", "nwchem $(touch {canary})", "nwchem_command"),
        ("launcher", "mpirun`touch {canary}`", "launcher"),
        ("environment_lines", ["module load nwchem && touch {canary}"], "environment line"),
        ("environment_lines", ["export A=$(touch {canary})"], "environment line"),
        ("environment_lines", ["touch {canary}"], "environment line"),
        ("environment_lines", ["module load x\ntouch {canary}"], "environment line"),
        ("remote_folder", "/tmp/x;touch {canary}", "remote work folder"),
        ("remote_folder", "/tmp/../etc", "remote work folder"),
        ("host", "-oProxyCommand=touch {canary}", "SSH host"),
        ("host", "host name", "SSH host"),
        ("ssh_config", "relative/ssh_config", "ssh_config"),
        ("partition", "debug;touch", "partition"),
        ("name", "a b", "profile name"),
    ],
)
def test_a_profile_value_with_shell_characters_refuses_the_whole_file(
    key: str, value: Any, code_words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    canary = tmp_path / "canary"
    value = (
        [v.format(canary=canary) for v in value]
        if isinstance(value, list)
        else value.format(canary=canary)
    )
    path = _write_prefs(
        {"scheduler": "slurm", "executable": "nwchem", "profiles": [{**PROFILE, key: value}]}
    )
    prefs = load_preferences()
    assert prefs == Preferences()  # nothing of the file is trusted, no profile exists
    err = capsys.readouterr().err
    assert str(path) in err and code_words in err
    # Naming the refused profile for a job runs nothing either.
    execution = ExecutionSettings(scheduler="slurm", remote_profile="hpc")
    with pytest.raises(CalculationError) as info:
        remote.RemotePlan(execution)
    assert info.value.code == "remote_profile_unknown"
    assert not canary.exists()


def test_two_profiles_of_one_name_are_refused() -> None:
    with pytest.raises(ValueError, match="used twice"):
        parse_preferences(json.dumps({"profiles": [PROFILE, PROFILE]}))


def test_a_profile_forced_past_validation_runs_no_ssh_command(tmp_path: Path) -> None:
    canary = tmp_path / "canary"
    forced = ClusterProfile.model_construct(
        **{**ClusterProfile(**PROFILE).model_dump(), "nwchem_command": f"nwchem; touch {canary}"}
    )
    with pytest.raises(ValidationError) as info:
        ssh.Ssh(forced)
    assert info.value.code == "bad_remote_command"
    forced = ClusterProfile.model_construct(
        **{**ClusterProfile(**PROFILE).model_dump(), "host": f"-oProxyCommand=touch {canary}"}
    )
    with pytest.raises(ValidationError) as info:
        ssh.Ssh(forced)
    assert info.value.code == "bad_ssh_host"
    assert not canary.exists()


@pytest.mark.parametrize("value", ["a;b", "$(touch x)", "-x", "a b", "x" * 65])
def test_the_remote_profile_setting_takes_only_a_profile_name(value: str) -> None:
    with pytest.raises(ValidationError) as info:
        ExecutionSettings(scheduler="slurm", remote_profile=value)
    assert "bad_profile_name" in str(info.value) or "profile name" in str(info.value)
    assert ExecutionSettings(remote_profile="hpc-2.a_b").remote_profile == "hpc-2.a_b"


def test_an_unknown_profile_is_named_with_the_existing_ones_in_english_and_japanese() -> None:
    _write_prefs({"scheduler": "slurm", "profiles": [PROFILE]})
    with pytest.raises(CalculationError) as info:
        remote.RemotePlan(ExecutionSettings(scheduler="slurm", remote_profile="other"))
    assert info.value.code == "remote_profile_unknown"
    assert "'other'" in info.value.message("en") and "hpc" in info.value.message("en")
    assert "プロファイル" in info.value.message("ja") and "hpc" in info.value.message("ja")


def test_a_remote_profile_with_the_local_scheduler_is_refused_before_any_connection() -> None:
    _write_prefs({"profiles": [PROFILE]})
    with pytest.raises(CalculationError) as info:
        remote.RemotePlan(ExecutionSettings(scheduler="local", remote_profile="hpc"))
    assert info.value.code == "remote_needs_slurm"


# ssh's own words (OpenSSH 9.2) for each failure, and what the person is told.
FAILURES = [
    ("ssh: Could not resolve hostname nosuch.invalid: Name or service not known", "ssh_dns"),
    ("ssh: connect to host 127.0.0.1 port 1: Connection refused", "ssh_refused"),
    ("ssh: connect to host 10.255.255.1 port 22: Connection timed out", "ssh_timeout"),
    ("root@127.0.0.1: Permission denied (publickey).", "ssh_auth"),
    (
        "No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict "
        "checking.\r\nHost key verification failed.",
        "ssh_host_key_unknown",
    ),
    (
        "@@@@@@@\r\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\r\n"
        "Host key verification failed.",
        "ssh_host_key_changed",
    ),
    (
        'Load key "/home/ada/.ssh/id_ed25519": bad permissions\r\n'
        "kex_exchange_identification: read: Connection reset by peer",
        "ssh_failed",
    ),
]


@pytest.mark.parametrize(("stderr", "code"), FAILURES)
def test_each_ssh_failure_names_the_profile_and_what_failed(stderr: str, code: str) -> None:
    profile = ClusterProfile(**PROFILE, ssh_config="/home/ada/cfg")
    error = ssh.classify(profile, stderr)
    assert error.code == code
    for lang in ("en", "ja"):
        text = error.message(lang)
        assert "'hpc'" in text or "「hpc」" in text
        assert "id_ed25519" not in text  # a key file is never named in a message
    if code == "ssh_host_key_unknown":
        en = error.message("en")
        assert "ssh-keyscan" in en and "ssh -F /home/ada/cfg hpc-login true" in en
        assert "ssh-keyscan" in error.message("ja")


def test_a_record_naming_a_profile_not_in_preferences_or_another_folder_is_not_followed(
    tmp_path: Path,
) -> None:
    _write_prefs({"scheduler": "slurm", "profiles": [PROFILE]})
    root = tmp_path / "jobs"
    base = {
        "format": "molforma-job",
        "version": 1,
        "status": "running",
        "scheduler": "slurm",
        "nativeId": "7",
    }
    cases = {
        "j-missing": {
            "profile": "nosuch",
            "host": "hpc-login",
            "folder": "/scratch/ada/molforma-jobs/j-missing",
        },
        "j-elsewhere": {"profile": "hpc", "host": "hpc-login", "folder": "/etc"},
        "j-otherhost": {
            "profile": "hpc",
            "host": "evil",
            "folder": "/scratch/ada/molforma-jobs/j-otherhost",
        },
        "j-good": {
            "profile": "hpc",
            "host": "hpc-login",
            "folder": "/scratch/ada/molforma-jobs/j-good",
        },
    }
    for name, where in cases.items():
        (root / name).mkdir(parents=True)
        (root / name / "job.json").write_text(json.dumps({**base, "id": name, "remote": where}))
    found = remote.reattach(root, set())
    assert [j.id for j in found] == ["j-good"]
    assert found[0].remote_folder == "/scratch/ada/molforma-jobs/j-good"


def test_the_batch_script_quotes_every_value_and_runs_the_profiles_lines() -> None:
    profile = ClusterProfile(**{**PROFILE, "partition": "standard"})
    plan = remote.RemotePlan.__new__(remote.RemotePlan)
    plan.profile = profile
    plan.execution = ExecutionSettings(
        scheduler="slurm",
        remote_profile="hpc",
        threads=2,
        time_limit=90,
        batch_directives=["--mem=4G"],
    )
    plan.partition, plan.account, plan.qos = "standard", None, None
    plan.command = plan._command()
    text = plan.script("20261204-120000-H2O-energy")
    assert text.startswith("#!/bin/bash -l\n")
    assert "#SBATCH --partition=standard" in text and "#SBATCH --time=2" in text
    assert "#SBATCH --mem=4G" in text and "#SBATCH --cpus-per-task=2" in text
    assert "module load nwchem/7.2.2\n" in text and "\nnwchem input.nw\n" in text
    # bash reads it without error (syntax only)
    assert subprocess.run(["bash", "-n"], input=text, text=True).returncode == 0


def test_profiles_survive_a_save_of_the_other_preferences() -> None:
    from molforma.preferences import preferences_text, save_preferences

    _write_prefs({"scheduler": "slurm", "profiles": [PROFILE]})
    prefs = load_preferences()
    # what the Preferences dialog and the job-root memory do: change one key, save all
    save_preferences(prefs.model_copy(update={"language": "ja", "job_root": "/tmp/jobs"}))
    again = load_preferences()
    assert again.profiles == prefs.profiles and again.language == "ja"
    assert parse_preferences(preferences_text(again)) == again
