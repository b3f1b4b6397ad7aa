"""The QPainter fallback's note on a large structure ("drawn as dots without bonds")
speaks Japanese with the Japanese catalogue, the count in its place."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QTranslator

from molforma.gui.view3d.painter import points_note
from tests.paths import REPO


def test_the_points_note_is_translated_to_japanese() -> None:
    assert points_note(250_000) == "250,000 atoms: drawn as dots without bonds (no OpenGL)"
    translator = QTranslator()
    assert translator.load(str(REPO / "translations" / "molforma_ja.qm"))
    QCoreApplication.installTranslator(translator)
    try:
        assert (
            points_note(250_000)
            == "原子 250,000 個：OpenGL がないため、結合なしの点で表示しています"
        )
    finally:
        QCoreApplication.removeTranslator(translator)
    assert points_note(3) == "3 atoms: drawn as dots without bonds (no OpenGL)"
