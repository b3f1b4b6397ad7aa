"""Measurements and labels over the OpenGL renderer (Xvfb with Mesa, in a child process)."""

from __future__ import annotations

from pathlib import Path

from tests.gui.helpers import run_gl_script

_SCRIPT = r"""
import sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
from molforma.gui.view3d import create_view
v = create_view()
v.resize(400, 400)
v.show()
atoms = [{"id": "a1", "element": "O", "x": 0, "y": 0, "z": 0.117},
         {"id": "a2", "element": "H", "x": 0, "y": 0.757, "z": -0.469},
         {"id": "a3", "element": "H", "x": 0, "y": -0.757, "z": -0.469}]
v.set_molecule(atoms, [{"a": "a1", "b": "a2", "order": 1}, {"a": "a1", "b": "a3", "order": 1}])
for _ in range(20):
    app.processEvents()
def yellow(im):
    n = 0
    for x in range(0, im.width(), 2):
        for y in range(0, im.height(), 2):
            c = im.pixelColor(x, y)
            if c.red() > 230 and 200 < c.green() < 245 and 90 < c.blue() < 150:
                n += 1
    return n
plain = yellow(v.grab().toImage())
v.set_measurements([("a2", "a1", "a3")])
for _ in range(20):
    app.processEvents()
img = v.grab().toImage()  # what a screenshot shows
img.save(sys.argv[1])
print(v.renderer_name, plain, yellow(img))
"""


def test_the_opengl_renderer_draws_the_measurement_over_the_molecule(tmp_path: Path) -> None:
    out = tmp_path / "gl.png"
    proc = run_gl_script(_SCRIPT, str(out))
    renderer, plain, measured = proc.stdout.split()[-3:]
    assert renderer == "opengl"
    assert int(plain) == 0 and int(measured) > 30
    assert out.stat().st_size > 0
