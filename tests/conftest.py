"""Suite-wide rules.

Skips here only ever stand for a missing tool on a developer's machine (NWChem,
xvfb-run, cclib, a non-Linux system). CI installs all of them (``.ci/run`` runs
``./test.sh``, whose set-up installs NWChem and Xvfb), so under ``CI`` a skipped
test means a missing install step and is reported as a failure.
"""

from __future__ import annotations

import os
from typing import Any

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Any:
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"skipped under CI, where every tool is installed: {reason}"


@pytest.fixture(scope="session")
def slurm_cluster() -> Any:
    """A real single-node SLURM cluster for the whole session (tests/slurm_cluster.py).

    Started by the first test that asks for it, stopped at the end of the session by
    the pids it recorded; ``SLURM_CONF`` points every client (and every spawned
    ``molforma``) to it meanwhile.
    """
    from tests.slurm_cluster import SlurmCluster, slurm_installed

    if not slurm_installed():
        pytest.skip("SLURM is not installed (apt-get install slurm-wlm munge)")
    cluster = SlurmCluster().start()
    saved = {k: os.environ.get(k) for k in cluster.env}
    os.environ.update(cluster.env)
    try:
        yield cluster
    finally:
        cluster.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
