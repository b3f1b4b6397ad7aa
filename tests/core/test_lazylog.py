"""Loggers of molforma.lazylog load logging on their first message, in the set-up given."""

from __future__ import annotations

import subprocess
import sys

from tests.paths import REPO

CODE = r"""
import sys
from molforma import lazylog
log = lazylog.get_logger("molforma.test")
lazylog.basic_config(stream=sys.stderr, level="WARNING", format="molforma: %(levelname)s %(message)s")
print("logging" in sys.modules)
log.info("not shown")
log.warning("shown %s", 1)
print("logging" in sys.modules, log.getEffectiveLevel())
"""


def test_a_lazy_logger_imports_logging_at_its_first_message_with_the_recorded_set_up() -> None:
    run = subprocess.run(
        [sys.executable, "-c", CODE],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
        timeout=60,
    )
    assert run.stdout.split() == ["False", "True", "30"]
    assert run.stderr == "molforma: WARNING shown 1\n"
