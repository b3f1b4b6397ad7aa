"""Vibrations in the Results tab: displacement arrows, scale factor, line shape, the view
kept fitted while a mode plays, PNG export at a chosen scale."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QSpinBox, QTableWidget

from tests.gui.helpers import run_gl_script
from tests.gui.test_panels_results import NH3_OUT, _open, _select_mode


@pytest.fixture
def panel(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from molforma.gui.context import AppContext
    from molforma.gui.widgets.results_panel import ResultsPanel

    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    ctx = AppContext.create()
    w = ResultsPanel(ctx)
    qtbot.addWidget(w)
    w.resize(1200, 750)
    w.show()
    qtbot.waitExposed(w)
    _open(qtbot, w, NH3_OUT)
    yield w
    w.stop()
    ctx.close()


def _green_pixels(view: Any) -> int:
    image: QImage = view.canvas.grab().toImage()
    target = QColor("#0a8f3c")
    count = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            c = image.pixelColor(x, y)
            if (
                abs(c.red() - target.red()) < 30
                and abs(c.green() - target.green()) < 30
                and abs(c.blue() - target.blue()) < 30
            ):
                count += 1
    return count


def _real_mode_row(table: QTableWidget) -> int:
    return next(r for r in range(table.rowCount()) if float(table.item(r, 1).text()) > 1000)


def test_arrows_of_the_selected_mode_are_drawn_still_and_while_playing(
    panel: Any, qtbot: Any
) -> None:
    table = panel.findChild(QTableWidget, "modesTable")
    _select_mode(qtbot, table, _real_mode_row(table))
    view = panel.view
    check = panel.findChild(QCheckBox, "modeArrowsCheck")
    assert check.toolTip() and not check.isChecked()
    assert len(view.displacement_arrows()[0]) == 0
    without = _green_pixels(view)
    qtbot.mouseClick(check, Qt.MouseButton.LeftButton)
    starts, vectors = view.displacement_arrows()
    assert len(starts) >= 2
    assert np.linalg.norm(vectors, axis=1).max() == pytest.approx(1.2, rel=1e-6)
    assert _green_pixels(view) > without + 20
    # Arrows ride along with the atoms while the mode plays.
    qtbot.mouseClick(panel.findChild(object, "playButton"), Qt.MouseButton.LeftButton)
    assert view.playing
    first = view.displacement_arrows()[0].copy()
    qtbot.wait(300)
    assert not np.allclose(view.displacement_arrows()[0], first)
    assert _green_pixels(view) > without + 20
    # Twice the amplitude, twice as long.
    panel.findChild(object, "amplitudeSpin").setValue(1.0)
    assert np.linalg.norm(view.displacement_arrows()[1], axis=1).max() == pytest.approx(2.4)
    qtbot.mouseClick(check, Qt.MouseButton.LeftButton)
    assert len(view.displacement_arrows()[0]) == 0


def test_a_playing_mode_never_leaves_the_view(panel: Any, qtbot: Any) -> None:
    table = panel.findChild(QTableWidget, "modesTable")
    _select_mode(qtbot, table, _real_mode_row(table))
    panel.findChild(object, "amplitudeSpin").setValue(3.0)
    qtbot.mouseClick(panel.findChild(QCheckBox, "modeArrowsCheck"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.findChild(object, "playButton"), Qt.MouseButton.LeftButton)
    view = panel.view
    w, h = float(view.canvas.width()), float(view.canvas.height())
    for _ in range(30):
        qtbot.wait(40)
        s = view.camera.to_screen(view.scene.pos, w, h)
        r = view.scene.radius * view.camera.scale
        assert (s[:, 0] - r >= -1).all() and (s[:, 0] + r <= w + 1).all()
        assert (s[:, 1] - r >= -1).all() and (s[:, 1] + r <= h + 1).all()
        starts, vectors = view.displacement_arrows()
        tips = view.camera.to_screen(starts + vectors, w, h)
        assert (tips[:, 0] >= -1).all() and (tips[:, 0] <= w + 1).all()
        assert (tips[:, 1] >= -1).all() and (tips[:, 1] <= h + 1).all()


def test_the_scale_factor_scales_the_plot_the_table_and_the_csv(
    panel: Any, qtbot: Any, tmp_path: Path
) -> None:
    ir, table = panel.ir, panel.findChild(QTableWidget, "modesTable")
    panel.plots.setCurrentWidget(ir)  # the IR spectrum tab, as a person clicks it
    row = _real_mode_row(table)
    raw = float(table.item(row, 1).text())
    combo = panel.findChild(QComboBox, "irScaleCombo")
    assert combo.isEditable() and combo.toolTip()
    offered = [combo.itemText(i) for i in range(combo.count())]
    assert {"0.8953 HF/6-31G*", "0.9613 B3LYP/6-31G*", "0.9427 MP2/6-31G*"} <= set(offered)
    sticks = ir.sticks()
    combo.setCurrentIndex(offered.index("0.8953 HF/6-31G*"))
    combo.activated.emit(combo.currentIndex())
    assert ir.scale_factor == pytest.approx(0.8953)
    assert [f for f, _ in ir.sticks()] == pytest.approx([f * 0.8953 for f, _ in sticks])
    assert float(table.item(row, 1).text()) == pytest.approx(raw * 0.8953, abs=0.01)
    assert "0.8953" in table.horizontalHeaderItem(1).text()
    _select_mode(qtbot, table, row)
    label = panel.findChild(QLabel, "trajectoryLabel")
    assert f"{raw * 0.8953:.2f}"[:-1] in label.text()
    # A typed value, read in the C locale.
    edit = combo.lineEdit()
    edit.selectAll()
    qtbot.keyClicks(edit, "0.95")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert ir.scale_factor == pytest.approx(0.95)
    # A decimal comma or a value out of range is refused with a message, nothing changes.
    for bad in ("0,95", "2.5", "abc"):
        edit.selectAll()
        qtbot.keyClicks(edit, bad)
        qtbot.keyClick(edit, Qt.Key.Key_Return)
        message = panel.findChild(QLabel, "irScaleMessage")
        assert message.isVisible() and bad in message.text()
        assert ir.scale_factor == pytest.approx(0.95)
    out = tmp_path / "ir.csv"
    ir.write_csv(out)
    lines = out.read_text().splitlines()
    assert "scale_factor,0.9500" in lines[0]
    top = max(ir.sticks(), key=lambda s: s[1])[0]
    assert any(line.startswith(f"{top:.4f},,") for line in lines)


def test_gaussian_and_lorentzian_bands_keep_the_peak_height_and_differ_in_the_wings(
    panel: Any,
) -> None:
    ir = panel.ir
    shape = ir.findChild(QComboBox, "irLineShapeCombo")
    assert [shape.itemText(i) for i in range(shape.count())] == ["Lorentzian", "Gaussian"]
    f, i = max(ir.sticks(), key=lambda s: s[1])
    x, lorentz = ir.broadened()
    shape.setCurrentIndex(shape.findData("gaussian"))
    assert ir.line_shape == "gaussian"
    x2, gauss = ir.broadened()
    fwhm = ir.width_spin.value()
    assert np.interp(f, x2, gauss) == pytest.approx(np.interp(f, x, lorentz), rel=0.05)
    assert np.interp(f, x2, gauss) >= 0.95 * i
    # Far out in the wings a Gaussian has died away, a Lorentzian has not.
    far = f + 5 * fwhm
    assert np.interp(far, x2, gauss) < 0.2 * np.interp(far, x, lorentz)
    # At half width both are at half height of an isolated band.
    from molforma.gui.widgets.plots import broadened

    grid = np.array([100.0, 110.0])
    for kind in ("lorentzian", "gaussian"):
        assert broadened(np.array([100.0]), np.array([2.0]), grid, 20.0, kind) == pytest.approx(
            [2.0, 1.0]
        )


def test_png_export_at_a_chosen_scale(panel: Any, qtbot: Any, tmp_path: Path) -> None:
    ir = panel.ir
    panel.plots.setCurrentWidget(ir)
    qtbot.waitUntil(lambda: ir.plot.isVisible() and ir.plot.plot_widget().size() == ir.plot.size())
    qtbot.wait(100)  # the plot item lays itself out in the view
    spin = ir.findChild(QSpinBox, "irExportScale")
    assert spin.toolTip()
    spin.setValue(3)
    out = tmp_path / "ir.png"
    ir.write_png(out)
    w, h = ir.plot.width(), ir.plot.height()
    image = QImage(str(out))
    assert image.width() == 3 * w
    assert abs(image.height() - 3 * h) <= 0.1 * 3 * h
    assert (image.width(), image.height()) == ir.export_size()
    spin.setValue(4)
    assert ir.findChild(QLabel, "irExportSize").text() == "{} × {} px".format(*ir.export_size())
    spin.setValue(3)
    spin.setValue(1)
    ir.write_png(out)
    assert QImage(str(out)).width() == w


def test_opengl_under_xvfb_draws_the_displacement_arrows() -> None:
    proc = run_gl_script(
        "from PySide6.QtGui import QColor\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from molforma.gui.view3d import create_view\n"
        "atoms = [{'element': 'O', 'x': 0.0, 'y': 0.0, 'z': 0.12},\n"
        "         {'element': 'H', 'x': 0.0, 'y': 0.76, 'z': -0.47},\n"
        "         {'element': 'H', 'x': 0.0, 'y': -0.76, 'z': -0.47}]\n"
        "disp = [(0.0, 0.0, -0.07), (0.0, 0.43, 0.56), (0.0, -0.43, 0.56)]\n"
        "v = create_view(); v.resize(500, 400); v.show()\n"
        "def green(img):\n"
        "    t = QColor('#0a8f3c'); n = 0\n"
        "    for x in range(0, img.width(), 2):\n"
        "        for y in range(0, img.height(), 2):\n"
        "            c = img.pixelColor(x, y)\n"
        "            n += abs(c.red() - t.red()) < 30 and abs(c.green() - t.green()) < 30 \\\n"
        "                and abs(c.blue() - t.blue()) < 30\n"
        "    return n\n"
        "v.set_mode_animation(atoms, disp, 0.5)\n"
        "for _ in range(20): app.processEvents()\n"
        "before = green(v.grab().toImage())\n"
        "v.set_show_arrows(True)\n"
        "for _ in range(20): app.processEvents()\n"
        "print(v.renderer_name, before, green(v.grab().toImage()))\n",
        timeout=180,
    )
    name, before, after = proc.stdout.split()[-3:]
    assert name == "opengl"
    assert int(after) > int(before) + 20
