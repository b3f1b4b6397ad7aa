"""The 3D view and the coordinate table at 100,000 atoms and more: picking through the
grid is exactly the brute-force answer, a click picks the atom drawn there, selection
changes touch only the marks, the QPainter fallback draws large structures as dots
with a note (instead of ball by ball for minutes), and the table reads columns."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage, QPainter

from molforma.gui.view3d.base import MoleculeView
from molforma.gui.view3d.painter import points_mode, render_scene
from molforma.gui.view3d.scene import MARK_SELECTED, pick
from molforma.gui.view3d.structure_arrays import StructureArrays, structure_arrays

N = 100_000


def lattice(n: int) -> StructureArrays:
    """``n`` atoms on a 1.5 Å cubic lattice (C, N, O, H in turn), bonded along x."""
    side = round(n ** (1 / 3)) + 1
    idx = np.arange(n)
    xyz = np.stack([idx // (side * side), (idx // side) % side, idx % side], axis=1) * 1.5
    kinds = (idx % 4).astype(np.int32)
    ids = np.empty(n, dtype=object)
    ids[:] = [f"a{i + 1}" for i in range(n)]
    same_row = (idx[:-1] // side) == (idx[1:] // side)
    bonds = np.stack([idx[:-1][same_row], idx[1:][same_row]], axis=1).astype(np.int64)
    return StructureArrays(
        ids,
        kinds,
        ["C", "N", "O", "H"],
        xyz.astype(float),
        np.zeros(n, dtype=bool),
        bonds,
        np.ones(len(bonds), dtype=np.int8),
    )


@pytest.fixture(scope="module")
def big() -> StructureArrays:
    return lattice(N)


@pytest.fixture
def big_view(qtbot: Any, big: StructureArrays) -> MoleculeView:
    v = MoleculeView("painter")
    qtbot.addWidget(v)
    v.resize(800, 600)
    v.set_molecule(big, [])
    v.rotate_by(23.0, -17.0)
    return v


def _brute_force(view: MoleculeView, x: float, y: float) -> int | None:
    """The answer of testing every atom (the pick before the grid)."""
    sd, cam = view.scene, view.camera
    w, h = view._size()
    s = cam.to_screen(sd.pos, w, h)
    r = sd.radius * cam.scale
    d2 = (s[:, 0] - x) ** 2 + (s[:, 1] - y) ** 2
    hit = (d2 <= np.maximum(r, 4.0) ** 2) & sd.pickable
    if not hit.any():
        return None
    idx = np.nonzero(hit)[0]
    return int(idx[np.argmax(s[idx, 2])])


def test_picking_in_100000_atoms_uses_the_grid_and_gives_the_brute_force_answer(
    big_view: MoleculeView,
) -> None:
    rng = np.random.default_rng(7)
    w, h = big_view._size()
    for zoom in (1.0, 6.0):
        big_view.zoom_by(zoom)
        points = rng.uniform([0, 0], [w, h], size=(150, 2))
        for x, y in points:
            assert pick(big_view.scene, big_view.camera, x, y, w, h) == _brute_force(big_view, x, y)
        assert "pick_grid" in big_view.scene.cache  # the grid answered, not a full scan


def test_a_click_on_an_atom_among_100000_picks_exactly_that_atom(
    big_view: MoleculeView, qtbot: Any
) -> None:
    sd = big_view.scene
    w, h = big_view._size()
    s = big_view.camera.to_screen(sd.pos, w, h)
    inside = np.flatnonzero(
        (s[:, 0] > 20) & (s[:, 0] < w - 20) & (s[:, 1] > 20) & (s[:, 1] < h - 20)
    )
    # atoms on the near face: nothing is drawn over their centres
    front = inside[np.argsort(-s[inside, 2])[:5]]
    for row in front.tolist():
        aid = str(sd.ids[row])
        with qtbot.waitSignal(big_view.atomClicked, timeout=2000) as blocker:
            qtbot.mouseClick(
                big_view.canvas,
                Qt.MouseButton.LeftButton,
                pos=big_view.atom_screen_pos(aid).toPoint(),
            )
        assert blocker.args[0] == aid


def test_selecting_in_a_large_structure_updates_the_marks_without_rebuilding(
    big_view: MoleculeView,
) -> None:
    scene = big_view.scene
    big_view.set_selection(["a10", "a99999"])
    assert big_view.scene is scene  # no new scene of 100,000 atoms per selection
    rows = [scene.index_of("a10"), scene.index_of("a99999")]
    assert all(int(scene.mark[r]) & MARK_SELECTED for r in rows)
    assert int((scene.mark & MARK_SELECTED).astype(bool).sum()) == 2
    big_view.set_selection(["a5"])
    assert int((scene.mark & MARK_SELECTED).astype(bool).sum()) == 1
    assert int(scene.mark[scene.index_of("a5")]) & MARK_SELECTED


def test_a_bond_is_found_under_the_pointer_among_100000_atoms(big_view: MoleculeView) -> None:
    sd = big_view.scene
    w, h = big_view._size()
    big_view.zoom_by(8.0)
    s = big_view.camera.to_screen(sd.pos, w, h)
    a, b = (int(v) for v in sd.bond_pairs[len(sd.bond_pairs) // 2])
    mid = (s[a, :2] + s[b, :2]) / 2
    found = big_view.bond_at(QPointF(float(mid[0]), float(mid[1])), tolerance=50.0)
    assert found is not None
    # the same bond as testing every bond
    ab = s[sd.bond_pairs[:, 1], :2] - s[sd.bond_pairs[:, 0], :2]
    q = mid - s[sd.bond_pairs[:, 0], :2]
    t = np.clip(
        np.einsum("ij,ij->i", q, ab) / np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-9), 0, 1
    )
    d = np.linalg.norm(s[sd.bond_pairs[:, 0], :2] + ab * t[:, None] - mid, axis=1)
    k = int(np.argmin(d))
    assert found == (str(sd.ids[sd.bond_pairs[k, 0]]), str(sd.ids[sd.bond_pairs[k, 1]]))


def test_the_painter_draws_a_large_structure_as_dots_with_a_note_in_seconds(
    big_view: MoleculeView,
) -> None:
    view = big_view
    assert points_mode(view)
    img = QImage(800, 600, QImage.Format.Format_ARGB32_Premultiplied)
    t0 = time.perf_counter()
    p = QPainter(img)
    render_scene(p, view, 800.0, 600.0)
    p.end()
    assert time.perf_counter() - t0 < 10.0  # ball by ball this took minutes
    # an atom on the near face shows its element colour where the camera puts it
    sd = view.scene
    s = view.camera.to_screen(sd.pos, 800.0, 600.0)
    inside = np.flatnonzero((s[:, 0] > 20) & (s[:, 0] < 780) & (s[:, 1] > 20) & (s[:, 1] < 560))
    front = inside[np.argmax(s[inside, 2])]
    c = img.pixelColor(int(np.rint(s[front, 0])), int(np.rint(s[front, 1])))
    want = sd.colour[front, :3] * 255
    assert (
        max(abs(c.red() - want[0]), abs(c.green() - want[1]), abs(c.blue() - want[2])) < 5
    )  # the nearest atom, at full depth cue
    # the note: light text pixels along the bottom-left corner
    light = sum(
        1
        for x in range(8, 300)
        for y in range(578, 598)
        if min(img.pixelColor(x, y).getRgb()[:3]) > 200
    )
    assert light > 20


def test_the_coordinate_table_shows_columns_and_finds_rows_by_id(
    qtbot: Any, big: StructureArrays
) -> None:
    from molforma.gui.widgets.coordinate_table import CoordinateTable

    edits: list[tuple[str, str, Any]] = []
    table = CoordinateTable(lambda aid, key, value: edits.append((aid, key, value)) or True)
    qtbot.addWidget(table)
    table.atom_model.set_atoms(big, editable=True)
    model = table.atom_model
    assert model.columns is big  # the view's columns, not a copy of records
    assert model.rowCount() == N
    assert model.row_of("a77777") == 77776
    row = 77776
    assert model.data(model.index(row, 0)) == "a77777"
    assert model.data(model.index(row, 1)) == big.kind_symbols[int(big.kinds[row])]
    assert model.data(model.index(row, 2)) == f"{big.xyz[row, 0]:.5f}"
    assert model.setData(model.index(row, 4), "2.5")
    assert edits == [("a77777", "z", "2.5")]  # the edit goes to the tab's edit path


def test_the_adapter_reads_records_into_the_same_columns() -> None:
    atoms = [
        {"id": "a1", "element": "O", "x": 0.0, "y": 0.0, "z": 0.1, "fixed": True},
        {"id": "a2", "element": "H", "x": 0.0, "y": 0.75, "z": -0.4},
        {"id": "a3", "element": "H", "x": 0.0, "y": -0.75, "z": -0.4},
    ]
    bonds = [
        {"a": "a1", "b": "a2", "order": 1},
        {"a": "a1", "b": "a3", "order": 2},
        {"a": "a1", "b": "a9", "order": 1},
    ]  # a bond to an atom not shown is left out
    cols = structure_arrays(atoms, bonds)
    assert cols.elements.tolist() == ["O", "H", "H"]
    assert cols.numbers.tolist() == [8, 1, 1]
    assert cols.fixed.tolist() == [True, False, False]
    assert cols.bonds.tolist() == [[0, 1], [0, 2]] and cols.orders.tolist() == [1, 2]
    assert cols.xyz[2].tolist() == [0.0, -0.75, -0.4]


def test_opengl_draws_100000_atoms_as_sprites_where_picking_finds_them() -> None:
    from tests.gui.helpers import run_gl_script

    proc = run_gl_script(
        "import numpy as np\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from tests.gui.test_large_structure_view import lattice\n"
        "from molforma.gui.view3d import create_view\n"
        "from molforma.gui.view3d.scene import pick\n"
        "v = create_view(); v.resize(640, 480); v.show()\n"
        "v.set_molecule(lattice(100_000), []); v.rotate_by(23.0, -17.0); v.zoom_by(2.0)\n"
        "for _ in range(20): app.processEvents()\n"
        "img = v.grab().toImage()\n"
        "sd, cam = v.scene, v.camera\n"
        "s = cam.to_screen(sd.pos, 640.0, 480.0)\n"
        "ok = bad = 0\n"
        "for x in range(40, 600, 7):\n"
        "    for y in range(40, 440, 5):\n"
        "        i = pick(sd, cam, x, y, 640.0, 480.0)\n"
        "        if i is None: continue\n"
        "        if (s[i, 0] - x) ** 2 + (s[i, 1] - y) ** 2 > (0.7 * sd.radius[i] * cam.scale) ** 2:\n"
        "            continue\n"
        "        c = img.pixelColor(x, y)\n"
        "        want = sd.colour[i, :3] * 255\n"
        "        hue = np.argmax(want) if want.max() - want.min() > 60 else -1\n"
        "        got = np.array([c.red(), c.green(), c.blue()])\n"
        "        good = hue < 0 or int(np.argmax(got)) == hue\n"
        "        ok += good; bad += not good\n"
        "print(v.renderer_name, v.canvas._sprites(), ok, bad)\n",
        timeout=300,
    )
    name, sprites, ok, bad = proc.stdout.split()[-4:]
    assert name == "opengl" and sprites == "True"
    # the atom picked at a point well inside a ball is the one drawn there
    assert int(ok) > 200 and int(bad) <= int(ok) // 100  # (ties in depth aside)


def test_the_adapter_shares_the_columns_of_a_document_kept_as_tables() -> None:
    from molforma.document.molecule import AtomTable, BondTable

    atoms = AtomTable.from_records(
        [
            {"id": "a1", "element": "O", "x": 0.0, "y": 0.0, "z": 0.0, "fixed": True},
            {"id": "a2", "element": "H", "x": 0.0, "y": 0.9, "z": 0.0},
            {"id": "a5", "element": "Fe", "x": 2.0, "y": 0.0, "z": 0.0},
        ]
    )
    bonds = BondTable.from_records(
        [{"a": "a1", "b": "a2", "order": 1}, {"a": "a1", "b": "a5", "order": 2}]
    )
    cols = structure_arrays(atoms, bonds)
    assert cols.xyz is atoms.xyz or np.shares_memory(cols.xyz, atoms.xyz)  # no copy
    assert cols.elements.tolist() == ["O", "H", "Fe"]
    assert sorted(cols.kind_symbols) == ["Fe", "H", "O"]  # only the elements present
    assert cols.ids.tolist() == ["a1", "a2", "a5"] and cols.row_of("a5") == 2
    assert cols.bonds.tolist() == [[0, 1], [0, 2]] and cols.orders.tolist() == [1, 2]
    assert cols.fixed.tolist() == [True, False, False]
