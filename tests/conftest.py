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
