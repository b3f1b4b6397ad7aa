"""Screenshot of the Results tab showing a normal mode with displacement arrows.

Usage (OpenGL under Xvfb, as the other screenshots)::

    xvfb-run -a -s '-screen 0 1280x1024x24' env QT_QPA_PLATFORM=xcb MOLFORMA_RENDERER=opengl \\
      MOLFORMA_LANGUAGE=en .venv/bin/python scripts/vibration_screenshot.py OUTPUT.nwout OUT.png

It opens the NWChem frequency output in the Results tab, selects the strongest IR band (a real vibration),
turns on the arrows, uses the HF/6-31G* scale factor (0.8953) and saves the window as PNG.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    """Open ``argv[0]``, show its strongest band with arrows, save ``argv[1]``."""
    from PySide6.QtWidgets import QApplication

    from molforma.gui.app import install_translators
    from molforma.gui.context import AppContext
    from molforma.gui.main_window import MainWindow
    from molforma.i18n import display_language

    def loop_wait(ms: int) -> None:
        from PySide6.QtCore import QEventLoop, QTimer

        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    source, out = argv
    app = QApplication([])
    install_translators(display_language())
    window = MainWindow(AppContext.create())
    window.resize(1280, 820)
    window.show()
    panel = window.panels["results"]
    handle = panel.open_path(str(Path(source).resolve()))
    while not handle.done:
        loop_wait(50)
    loop_wait(300)
    window.show_tab("results")
    res = panel.results
    from molforma.gui.widgets.plots import MIN_REAL_FREQUENCY

    vibrations = [m for m in res.modes if m.frequency >= MIN_REAL_FREQUENCY]
    strongest = max(vibrations, key=lambda m: m.irIntensity or 0.0)
    panel.modes_table.selectRow(panel._row_of_mode(strongest.index))
    panel.plots.setCurrentWidget(panel.ir)
    panel.ir.scale_combo.setCurrentIndex(panel.ir.scale_combo.findData(0.8953))
    panel.ir.set_scale_factor(0.8953)
    panel.arrows_check.setChecked(True)
    loop_wait(600)
    ok = window.grab().save(out, "PNG")
    window.ctx.document.modified = False
    window.close()
    app.processEvents()
    return 0 if ok else 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
