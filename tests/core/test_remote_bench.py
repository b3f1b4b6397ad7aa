"""bench/remote_bench.py's two paths do the same work: the same water SCF energy.

How fast they are is the bench's business (bench/remote_bench.py, figures in docs/benchmarks.md);
nothing here is timed. This runs one job each way through the bench's own functions on
the real sshd in front of the real single-node SLURM, so a bench whose baseline no longer
submits, or whose candidate no longer comes home, fails here.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from molforma.jobs.manager import JobManager
from tests.paths import REPO
from tests.ssh_rig import SshRig, started_rig

pytestmark = [pytest.mark.slurm, pytest.mark.slow, pytest.mark.nwchem]


def _bench() -> ModuleType:
    # The bench imports its harness as a top-level module, as when run from bench/.
    if "harness" not in sys.modules:
        spec = importlib.util.spec_from_file_location("harness", REPO / "bench" / "harness.py")
        assert spec and spec.loader
        harness = importlib.util.module_from_spec(spec)
        sys.modules["harness"] = harness  # dataclasses look their module up
        spec.loader.exec_module(harness)
    spec = importlib.util.spec_from_file_location(
        "remote_bench", REPO / "bench" / "remote_bench.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def rig(slurm_cluster: Any) -> Iterator[SshRig]:
    yield from started_rig(slurm_cluster)


def test_the_remote_bench_paths_give_the_same_water_energy(
    rig: SshRig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed")
    bench = _bench()
    monkeypatch.delenv("SLURM_CONF", raising=False)  # both reach SLURM only over ssh
    bench.write_preferences(tmp_path / "config", rig.profile(bench.PROFILE))
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    manager = JobManager()
    try:
        _, _, ours, folder = bench.candidate(manager, bench.project(tmp_path / "jobs"))
    finally:
        manager.stop_all()
    text = (folder / "input.nw").read_text()
    _, _, bare = bench.baseline(
        rig, tmp_path / "bare", str(rig.remote_folder.parent / "bare"), text
    )
    assert ours == pytest.approx(-74.963, abs=1e-3)
    assert bare == pytest.approx(ours, abs=1e-6)
    assert (tmp_path / "bare" / "output.out").is_file()
