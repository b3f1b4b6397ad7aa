"""The window opens without waiting for pyqtgraph; the plots import it when first shown."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
from molforma.gui.app import create_application
from molforma.gui.context import AppContext
from molforma.gui.main_window import MainWindow, settle_events, wait_exposed
app = create_application()
window = MainWindow(AppContext.create())
window.show()
wait_exposed(window)
settle_events()
before = "pyqtgraph" in sys.modules
window.show_tab("results")
settle_events()
plot = window.findChild(object, "resultsEnergyPlot")
plot.set_energies([-1.0, -1.5])
print(json.dumps({"before": before, "after": "pyqtgraph" in sys.modules,
                  "energies": plot.energies()}))
window.ctx.document.modified = False
window.close()
"""


def test_the_window_shows_before_pyqtgraph_is_imported(tmp_path: Path) -> None:
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        MOLFORMA_RENDERER="painter",
        MOLFORMA_CONFIG_DIR=str(tmp_path),
        PYTHONPATH=str(REPO),
    )
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=180,
        check=True,
    )
    got = json.loads(run.stdout.strip().splitlines()[-1])
    assert got == {"before": False, "after": True, "energies": [-1.0, -1.5]}
