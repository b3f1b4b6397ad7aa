"""Render MolForma's PNG icons from its SVG icon with Qt's SVG renderer.

    .venv/bin/python scripts/render_icons.py

The SVG (``molforma/desktop/icons/hicolor/scalable/apps/``) is the source; the PNGs at
16, 32, 48, 64, 128 and 256 pixels beside it (``<N>x<N>/apps/``) are committed, so an
installation never needs Qt's SVG module to show the icon. Run this after changing the SVG.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "molforma" / "desktop" / "icons" / "hicolor"
APP_ID = "io.github.molforma.MolForma"
SIZES = (16, 32, 48, 64, 128, 256)


def main() -> int:
    # No window is shown, so no display is needed.
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    svg = ICONS / "scalable" / "apps" / f"{APP_ID}.svg"
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        sys.stderr.write(f"render_icons: {svg} is not a valid SVG\n")
        return 1
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter)
        painter.end()
        out = ICONS / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(out)):  # PNG, from the file name
            sys.stderr.write(f"render_icons: cannot write {out}\n")
            return 1
        print(f"wrote {out.relative_to(ROOT)} ({size}x{size})")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
