"""Scene data and camera shared by both renderers of the 3D view (Qt layer, numpy only).

The view keeps atoms as numpy arrays (positions, colours, radii, marks) and bonds as
ready-made cylinder segments, so each renderer only projects and draws. The camera
is orthographic and works in pixels: a model point ``p`` lands at
``scale * R (p - centre) + pan`` relative to the widget centre, with y up and the
viewer looking down -z. Both renderers and the picking use this one mapping, so a
click picks exactly the atom that either renderer drew there.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from molforma.document import elements
from molforma.document.arrays import runs
from molforma.gui.view3d.structure_arrays import StructureArrays, structure_arrays

# Jmol/CPK colours (0..1); unknown elements fall back to pink, as most viewers do.
_COLOURS: dict[str, tuple[int, int, int]] = {
    "H": (255, 255, 255),
    "He": (217, 255, 255),
    "Li": (204, 128, 255),
    "Be": (194, 255, 0),
    "B": (255, 181, 181),
    "C": (144, 144, 144),
    "N": (48, 80, 248),
    "O": (255, 13, 13),
    "F": (144, 224, 80),
    "Ne": (179, 227, 245),
    "Na": (171, 92, 242),
    "Mg": (138, 255, 0),
    "Al": (191, 166, 166),
    "Si": (240, 200, 160),
    "P": (255, 128, 0),
    "S": (255, 255, 48),
    "Cl": (31, 240, 31),
    "Ar": (128, 209, 227),
    "K": (143, 64, 212),
    "Ca": (61, 255, 0),
    "Sc": (230, 230, 230),
    "Ti": (191, 194, 199),
    "V": (166, 166, 171),
    "Cr": (138, 153, 199),
    "Mn": (156, 122, 199),
    "Fe": (224, 102, 51),
    "Co": (240, 144, 160),
    "Ni": (80, 208, 80),
    "Cu": (200, 128, 51),
    "Zn": (125, 128, 176),
    "Ga": (194, 143, 143),
    "Ge": (102, 143, 143),
    "As": (189, 128, 227),
    "Se": (255, 161, 0),
    "Br": (166, 41, 41),
    "Kr": (92, 184, 209),
    "Rb": (112, 46, 176),
    "Sr": (0, 255, 0),
    "Y": (148, 255, 255),
    "Zr": (148, 224, 224),
    "Nb": (115, 194, 201),
    "Mo": (84, 181, 181),
    "Tc": (59, 158, 158),
    "Ru": (36, 143, 143),
    "Rh": (10, 125, 140),
    "Pd": (0, 105, 133),
    "Ag": (192, 192, 192),
    "Cd": (255, 217, 143),
    "In": (166, 117, 115),
    "Sn": (102, 128, 128),
    "Sb": (158, 99, 181),
    "Te": (212, 122, 0),
    "I": (148, 0, 148),
    "Xe": (66, 158, 176),
    "Cs": (87, 23, 143),
    "Ba": (0, 201, 0),
    "La": (112, 212, 255),
    "Pt": (208, 208, 224),
    "Au": (255, 209, 35),
    "Hg": (184, 184, 208),
    "Pb": (87, 89, 97),
    "Bi": (158, 79, 181),
    "U": (0, 143, 255),
}
_DEFAULT_COLOUR = (255, 20, 147)

BOND_RADIUS = 0.12  # Angstrom
GHOST_ALPHA = 0.3
# Mark bits, used by both renderers to draw rings around atoms.
MARK_SELECTED = 1
MARK_FIXED = 2
MARK_CANDIDATE = 4
MARK_VALENCE = 8  # more bonds than the element's valence allows
MARK_COLOURS: dict[int, tuple[float, float, float]] = {
    MARK_VALENCE: (1.0, 0.25, 0.2),  # red ring: impossible valence
    MARK_SELECTED: (1.0, 0.85, 0.0),  # yellow ring
    MARK_CANDIDATE: (0.1, 0.95, 0.55),  # green ring: new or moved in the candidate
    MARK_FIXED: (0.85, 0.2, 0.95),  # magenta ring: fixed atom
}
BACKGROUND = (0.13, 0.15, 0.19)


def element_colour(symbol: str) -> tuple[float, float, float]:
    """The CPK colour of an element as floats 0..1."""
    r, g, b = _COLOURS.get(symbol, _DEFAULT_COLOUR)
    return (r / 255.0, g / 255.0, b / 255.0)


def ball_radius(symbol: str) -> float:
    """Drawn ball radius in Angstrom (grows gently with the covalent radius)."""
    try:
        cov = elements.covalent_radius(symbol)
    except (RuntimeError, ValueError):
        cov = 0.77
    return 0.12 + 0.3 * min(cov, 2.0)


def mark_colour(mark: int) -> tuple[float, float, float] | None:
    """The ring colour for a mark bit set (selected wins, then valence, candidate, fixed)."""
    for bit in (MARK_SELECTED, MARK_VALENCE, MARK_CANDIDATE, MARK_FIXED):
        if mark & bit:
            return MARK_COLOURS[bit]
    return None


@dataclass
class SceneData:
    """What is drawn: atoms (N) and bond cylinder segments (M), as numpy arrays."""

    ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=object))
    symbols: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=str))
    pos: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    colour: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    radius: np.ndarray = field(default_factory=lambda: np.zeros(0))
    mark: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    pickable: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    bond_pairs: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    bond_orders: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    # Whole bond lines (one per line of a multiple bond), coloured half and half: OpenGL.
    line_start: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    line_end: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    line_radius: np.ndarray = field(default_factory=lambda: np.zeros(0))
    line_colour_a: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    line_colour_b: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    line_split: np.ndarray = field(default_factory=lambda: np.zeros(0))  # where colour b starts
    # Bumped whenever positions change (drag, animation): caches over ``pos`` (the
    # picking grid, the renderers' depth range) are keyed on it.
    version: int = 0
    _row: dict[Any, int] | None = field(default=None, repr=False)
    cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def count(self) -> int:
        """Number of atoms drawn."""
        return len(self.ids)

    def index_of(self, atom_id: str) -> int | None:
        """Row of an atom id (first match, the candidate's atom when both are drawn).

        A dict made at the first call (the first row of an id wins), then O(1): the
        drag of a selection and the overlays look rows up many times per frame."""
        return self.row_map().get(atom_id)

    def row_map(self) -> dict[str, int]:
        """Atom id -> row (what :meth:`index_of` reads); many ids at once are looked up
        with its ``get`` (``map(row_map().get, ids)`` runs in C)."""
        if self._row is None:
            n = len(self.ids)
            # reversed, so that the first row of an id is the one the dict keeps
            self._row = dict(zip(self.ids[::-1].tolist(), range(n - 1, -1, -1), strict=True))
        return self._row

    # The painter's half-bond segments (two per bond line), made when first asked for.
    @property
    def seg_start(self) -> np.ndarray:
        """Half-bond starts (model Å)."""
        return _segments(self)["start"]

    @property
    def seg_end(self) -> np.ndarray:
        """Half-bond ends (model Å)."""
        return _segments(self)["end"]

    @property
    def seg_radius(self) -> np.ndarray:
        """Half-bond radii (Å)."""
        return _segments(self)["radius"]

    @property
    def seg_colour(self) -> np.ndarray:
        """Half-bond colours (RGBA 0..1); edits stay until the positions change."""
        return _segments(self)["colour"]

    @property
    def seg_atom(self) -> np.ndarray:
        """The atom each half-bond belongs to (drawn just before its ball)."""
        return _segments(self)["atom"]

    def positions_changed(self) -> None:
        """Forget what was computed from the old positions."""
        self.version += 1
        self.cache.clear()


STYLES = ("ball_and_stick", "spacefill", "sticks")


def build_scene(
    atoms: Sequence[dict[str, Any]] | StructureArrays,
    bonds: Sequence[dict[str, Any]],
    *,
    candidate_atoms: Sequence[dict[str, Any]] | StructureArrays | None = None,
    candidate_bonds: Sequence[dict[str, Any]] | None = None,
    selected: set[str] | None = None,
    style: str = "ball_and_stick",
    flagged: set[str] | None = None,
) -> SceneData:
    """Arrays for the confirmed molecule, or the candidate over a ghost of it.

    With a candidate, the candidate is drawn solid (its new or moved atoms ringed
    green) and confirmed atoms that it removes or moves are drawn as faint ghosts.
    ``style``: ball and stick, space filling (van der Waals spheres, no bonds) or
    sticks (atoms as small as the bonds). ``flagged`` atoms (impossible valences) get
    a red ring. The records pass through :func:`structure_arrays` once; everything
    after that is column work.
    """
    base = structure_arrays(atoms, bonds)
    cand = (
        None
        if candidate_atoms is None
        else structure_arrays(candidate_atoms, candidate_bonds or [])
    )
    return scene_from_arrays(base, cand, selected=selected, style=style, flagged=flagged)


def scene_from_arrays(
    base: StructureArrays,
    cand: StructureArrays | None = None,
    *,
    selected: Iterable[str] | None = None,
    style: str = "ball_and_stick",
    flagged: Iterable[str] | None = None,
) -> SceneData:
    """:func:`build_scene` of structures already held as columns."""
    if cand is None:
        solid = base
        ghost_rows = np.zeros(0, dtype=np.int64)
        changed = np.zeros(base.count, dtype=bool)
    else:
        solid = cand
        to_base = np.fromiter(
            ((-1 if r is None else r) for r in map(base.row_of, cand.ids.tolist())),
            dtype=np.int64,
            count=cand.count,
        )
        known = to_base >= 0
        changed = ~known
        if known.any():
            kb = to_base[known]
            moved = (np.abs(base.xyz[kb] - cand.xyz[known]) > 1e-6).any(axis=1) | (
                base.elements[kb] != cand.elements[known]
            )
            changed[np.flatnonzero(known)[moved]] = True
        ghost = np.ones(base.count, dtype=bool)
        ghost[to_base[known & ~changed]] = False
        ghost_rows = np.flatnonzero(ghost)
    n_solid = solid.count
    n = n_solid + len(ghost_rows)
    # One kind table for solid and ghost atoms: the candidate's, then the base's others.
    symbols = list(solid.kind_symbols)
    remap = np.zeros(max(len(base.kind_symbols), 1), dtype=np.int64)
    for k, sym in enumerate(base.kind_symbols):
        if sym not in symbols:
            symbols.append(sym)
        remap[k] = symbols.index(sym)
    kind = np.concatenate([solid.kinds.astype(np.int64), remap[base.kinds[ghost_rows]]])
    sd = SceneData()
    sd.ids = np.concatenate([solid.ids, base.ids[ghost_rows]]) if len(ghost_rows) else solid.ids
    table_s = np.array(symbols or [""], dtype=str)
    sd.symbols = table_s[kind] if n else np.zeros(0, dtype=str)
    sd.pos = (
        np.concatenate([solid.xyz, base.xyz[ghost_rows]]) if len(ghost_rows) else solid.xyz.copy()
    )
    # Colour and radius once per element, then spread over the atoms with numpy: no
    # per-atom Python work for a large first frame.
    table_c = np.ones((max(len(symbols), 1), 4))
    table_r = np.zeros(max(len(symbols), 1))
    for k, sym in enumerate(symbols):
        if style == "spacefill":
            try:
                r = elements.vdw_radius(sym)
            except (RuntimeError, ValueError):
                r = 1.7
        elif style == "sticks":
            r = BOND_RADIUS * 1.05
        else:
            r = ball_radius(sym)
        table_c[k, :3] = element_colour(sym)
        table_r[k] = r
    colour = table_c[kind] if n else np.ones((0, 4))
    radius = table_r[kind] if n else np.zeros(0)
    mark = np.zeros(n, dtype=np.int32)
    mark[:n_solid][solid.fixed] |= MARK_FIXED
    mark[:n_solid][changed] |= MARK_CANDIDATE  # all False without a candidate
    for ids, bit in ((selected or (), MARK_SELECTED), (flagged or (), MARK_VALENCE)):
        rows = solid.rows_of(ids)
        mark[rows] |= bit
    if len(ghost_rows):
        colour[n_solid:, :3] = colour[n_solid:, :3] * 0.5 + 0.25
        colour[n_solid:, 3] = GHOST_ALPHA
        radius[n_solid:] *= 0.9
    sd.colour, sd.radius, sd.mark = colour, radius, mark
    sd.pickable = np.zeros(n, dtype=bool)
    sd.pickable[:n_solid] = True
    if style != "spacefill":
        sd.bond_pairs = solid.bonds.astype(np.int64, copy=False)
        sd.bond_orders = solid.orders.astype(np.int64)
    rebuild_segments(sd)
    return sd


_SINGLE_OFFSETS = {1: (0.0,), 2: (-0.09, 0.09), 3: (-0.13, 0.0, 0.13)}


def _bond_line_index(orders: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per drawn line: its bond, its sideways offset (Å) and its radius; a double bond is
    two thin lines, a triple three. Orders other than 1, 2 and 3 are not drawn."""
    if len(orders) and bool((orders == 1).all()):  # the common case of a large structure
        m = len(orders)
        return np.arange(m), np.zeros(m), np.full(m, BOND_RADIUS)
    bonds, offs, rads = [], [], []
    for order, offsets in _SINGLE_OFFSETS.items():
        sel = np.flatnonzero(orders == order)
        r = BOND_RADIUS if order == 1 else BOND_RADIUS * 0.55
        for off in offsets:
            bonds.append(sel)
            offs.append(np.full(len(sel), off))
            rads.append(np.full(len(sel), r))
    return np.concatenate(bonds), np.concatenate(offs), np.concatenate(rads)


def _bond_frames(sd: SceneData) -> dict[str, np.ndarray]:
    """Per drawn line: its atoms, its two ends (offset sideways for multiple bonds), its
    direction and length; the lines and the half-bond segments are both made from this."""
    cached: dict[str, np.ndarray] | None = sd.cache.get("bond_frames")
    if cached is not None:
        return cached
    bond, off, rad = _bond_line_index(sd.bond_orders)
    i, j = sd.bond_pairs[bond, 0], sd.bond_pairs[bond, 1]
    pa, pb = sd.pos[i], sd.pos[j]
    axis = pb - pa
    length = np.linalg.norm(axis, axis=1, keepdims=True)
    length[length == 0] = 1.0
    d = axis / length
    if off.any():
        # A side direction for multiple bonds: perpendicular to the bond, chosen stably.
        ref = np.where(
            np.abs(d[:, 2:3]) < 0.9, np.array([[0.0, 0.0, 1.0]]), np.array([[1.0, 0.0, 0.0]])
        )
        side = np.cross(d, ref)
        side /= np.linalg.norm(side, axis=1, keepdims=True)
        shift = side * off[:, None]
        pa, pb = pa + shift, pb + shift
    frames = {"i": i, "j": j, "a": pa, "b": pb, "d": d, "length": length, "radius": rad}
    sd.cache["bond_frames"] = frames
    return frames


def rebuild_segments(sd: SceneData) -> None:
    """Bond lines for the current positions (the positions changed: caches over them go).

    The OpenGL lines are made here, as float32 (what the buffers take); the painter's
    half-bond segments are made when the painter first asks (:attr:`SceneData.seg_start`),
    so a large structure drawn with OpenGL never builds them.
    """
    sd.positions_changed()
    if len(sd.bond_pairs) == 0:
        sd.line_start = np.zeros((0, 3), dtype=np.float32)
        sd.line_end = np.zeros((0, 3), dtype=np.float32)
        sd.line_radius = sd.line_split = np.zeros(0, dtype=np.float32)
        sd.line_colour_a = sd.line_colour_b = np.zeros((0, 4), dtype=np.float32)
        return
    f = _bond_frames(sd)
    i, j, d, length = f["i"], f["j"], f["d"], f["length"]
    # The parts of a bond inside its two balls are never seen: leave them out (kept a
    # little inside the balls so that no gap can show).
    half = length / 2
    cut_a = np.minimum(sd.radius[i][:, None] * 0.8, half)
    cut_b = np.minimum(sd.radius[j][:, None] * 0.8, half)
    sd.line_start = (f["a"] + d * cut_a).astype(np.float32)
    sd.line_end = (f["b"] - d * cut_b).astype(np.float32)
    kept = np.maximum(length - cut_a - cut_b, 1e-9)
    sd.line_split = ((half - cut_a) / kept)[:, 0].astype(np.float32)
    sd.line_radius = f["radius"].astype(np.float32)
    colour = sd.colour.astype(np.float32)
    sd.line_colour_a = colour[i]
    sd.line_colour_b = colour[j]
    # The frames were only needed for the lines: the painter remakes them if it asks.
    sd.cache.pop("bond_frames", None)


def _segments(sd: SceneData) -> dict[str, np.ndarray]:
    """Half-bond segments (two per line) for the painter, made once per positions."""
    cached: dict[str, np.ndarray] | None = sd.cache.get("segments")
    if cached is not None:
        return cached
    if len(sd.bond_pairs) == 0:
        seg = {
            "start": np.zeros((0, 3)),
            "end": np.zeros((0, 3)),
            "radius": np.zeros(0),
            "colour": np.zeros((0, 4)),
            "atom": np.zeros(0, dtype=np.int64),
        }
    else:
        f = _bond_frames(sd)
        mid = (f["a"] + f["b"]) / 2
        seg = {
            "start": np.concatenate([f["a"], mid]),
            "end": np.concatenate([mid, f["b"]]),
            "radius": np.concatenate([f["radius"], f["radius"]]),
            "colour": np.concatenate([sd.colour[f["i"]], sd.colour[f["j"]]]),
            "atom": np.concatenate([f["i"], f["j"]]).astype(np.int64),
        }
    sd.cache["segments"] = seg
    return seg


def rotation(axis: Sequence[float] | np.ndarray, angle: float) -> np.ndarray:
    """Rotation matrix about ``axis`` by ``angle`` radians."""
    a = np.asarray(axis, dtype=float)
    n = np.linalg.norm(a)
    if n == 0:
        return np.eye(3)
    x, y, z = a / n
    c, s = math.cos(angle), math.sin(angle)
    C = 1 - c
    return np.array(
        [
            [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
            [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
            [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
        ]
    )


LONE_ATOM_EXTENT = 5.0  # Angstrom shown around a single atom by fit()


@dataclass
class Camera:
    """Orthographic camera in pixel units (see the module docstring)."""

    rot: np.ndarray = field(default_factory=lambda: np.eye(3))
    centre: np.ndarray = field(default_factory=lambda: np.zeros(3))
    scale: float = 40.0  # pixels per Angstrom
    pan: np.ndarray = field(default_factory=lambda: np.zeros(2))

    def view_coords(self, pos: np.ndarray) -> np.ndarray:
        """Positions in view space (pixels, y up, +z towards the viewer)."""
        v: np.ndarray = (pos - self.centre) @ self.rot.T * self.scale
        v[:, 0] += self.pan[0]
        v[:, 1] += self.pan[1]
        return v

    def to_screen(self, pos: np.ndarray, width: float, height: float) -> np.ndarray:
        """(N, 3): screen x, screen y (pixels, y down) and depth (larger is nearer)."""
        v = self.view_coords(np.asarray(pos, dtype=float).reshape(-1, 3))
        v[:, 0] += width / 2
        v[:, 1] = height / 2 - v[:, 1]
        return v

    def from_screen(
        self, x: float, y: float, width: float, height: float, depth: float = 0.0
    ) -> np.ndarray:
        """The model point under screen point (x, y) at view depth ``depth`` (pixels)."""
        v = np.array([x - width / 2 - self.pan[0], (height / 2 - y) - self.pan[1], depth])
        point: np.ndarray = self.rot.T @ (v / self.scale) + self.centre
        return point

    def screen_delta_to_model(self, dx: float, dy: float) -> np.ndarray:
        """A screen displacement (pixels, y down) as a model displacement in the view plane."""
        return self.rot.T @ (np.array([dx, -dy, 0.0]) / self.scale)

    def rotate(self, dx: float, dy: float) -> None:
        """Trackball-like rotation for a mouse drag of (dx, dy) pixels."""
        angle = math.hypot(dx, dy) * 0.01
        if angle == 0:
            return
        axis_view = np.array([dy, dx, 0.0])  # screen y is down, so (dy, dx) turns naturally
        self.rot = rotation(axis_view, angle) @ self.rot

    def fit(self, pos: np.ndarray, radius: np.ndarray, width: float, height: float) -> None:
        """Centre the atoms and scale them to fill about 85 % of the smaller side."""
        self.pan = np.zeros(2)
        if len(pos) == 0:
            self.centre = np.zeros(3)
            self.scale = 40.0
            return
        lo, hi = pos.min(axis=0), pos.max(axis=0)
        self.centre = (lo + hi) / 2
        extent = float(np.max(np.linalg.norm(pos - self.centre, axis=1) + radius))
        # A lone atom must not fill the view: the add-atom tool maps clicks through this
        # scale, and a zoomed-in lone atom would put the next atom far too close to it.
        extent = max(extent, LONE_ATOM_EXTENT if len(pos) == 1 else 1.0)
        self.scale = max(0.85 * min(width, height) / (2 * extent), 0.5)


# Below this many atoms a pick projects every atom (well under a millisecond); above it
# a grid over the model positions narrows the atoms to those near the pick ray first.
GRID_MIN_ATOMS = 20_000
_ATOMS_PER_CELL = 32


def _pick_grid(sd: SceneData) -> dict[str, Any]:
    """A uniform grid over the pickable atoms' positions, made once per positions.

    Cells are about ``_ATOMS_PER_CELL`` atoms (never smaller than a ball's diameter);
    ``rows`` lists the atoms cell by cell, ``starts``/``counts`` index it per non-empty
    cell and ``centres`` are those cells' centres.
    """
    grid: dict[str, Any] | None = sd.cache.get("pick_grid")
    if grid is not None:
        return grid

    rows = np.flatnonzero(sd.pickable)
    pos = sd.pos[rows]
    lo = pos.min(axis=0) if len(pos) else np.zeros(3)
    span = (pos.max(axis=0) - lo) if len(pos) else np.zeros(3)
    rmax = float(sd.radius[rows].max()) if len(rows) else 1.0
    volume = float(np.prod(np.maximum(span, 1.0)))
    cell = max(2.0 * rmax, (volume * _ATOMS_PER_CELL / max(len(rows), 1)) ** (1 / 3))
    dims = np.floor(span / cell).astype(np.int64) + 1
    ijk = np.minimum(np.floor((pos - lo) / cell).astype(np.int64), dims - 1)
    key = (ijk[:, 0] * dims[1] + ijk[:, 1]) * dims[2] + ijk[:, 2]
    order = np.argsort(key, kind="stable")
    keys, starts, counts = runs(key[order])
    cz = keys % dims[2]
    cy = (keys // dims[2]) % dims[1]
    cx = keys // (dims[1] * dims[2])
    centres = lo + (np.stack([cx, cy, cz], axis=1) + 0.5) * cell
    grid = {
        "rows": rows[order],
        "starts": starts,
        "counts": counts,
        "centres": centres,
        "cell": cell,
        "rmax": rmax,
    }
    sd.cache["pick_grid"] = grid
    return grid


def atoms_near_ray(
    sd: SceneData, cam: Camera, x: float, y: float, width: float, height: float, reach: float
) -> np.ndarray | None:
    """Pickable atoms whose centres may lie within ``reach`` Å of the line of sight
    through screen point (x, y), in ascending row order; a superset, never missing one.
    None when the structure is small enough to test every atom."""
    if sd.count < GRID_MIN_ATOMS:
        return None
    grid = _pick_grid(sd)
    origin = cam.from_screen(x, y, width, height)
    sight = cam.rot.T @ np.array([0.0, 0.0, 1.0])
    rel = grid["centres"] - origin
    along = rel @ sight
    off2 = np.einsum("ij,ij->i", rel, rel) - along * along
    limit = reach + grid["cell"] * math.sqrt(3.0) / 2
    cells = np.flatnonzero(off2 <= limit * limit)
    if len(cells) == 0:
        return np.zeros(0, dtype=np.int64)
    starts, counts = grid["starts"][cells], grid["counts"][cells]
    total = int(counts.sum())
    # every row of each chosen cell: starts repeated, plus 0, 1, ... within the cell
    first = np.repeat(starts - np.concatenate(([0], np.cumsum(counts)[:-1])), counts)
    members: np.ndarray = grid["rows"][first + np.arange(total)]
    members.sort()
    return members


def pick(sd: SceneData, cam: Camera, x: float, y: float, width: float, height: float) -> int | None:
    """Index of the nearest pickable atom drawn under (x, y), or None.

    An atom is under the point when the point is within its drawn radius (at least 4
    pixels). Large structures test only the atoms near the line of sight (a grid over
    the positions) with the same arithmetic, so the answer is the one of testing all.
    """
    if sd.count == 0:
        return None
    near = atoms_near_ray(
        sd,
        cam,
        x,
        y,
        width,
        height,
        max(_pick_grid(sd)["rmax"], 4.0 / cam.scale) if sd.count >= GRID_MIN_ATOMS else 0.0,
    )
    if near is None:
        idx = np.arange(sd.count)
    elif len(near) == 0:
        return None
    else:
        idx = near
    s = cam.to_screen(sd.pos[idx], width, height)
    r = sd.radius[idx] * cam.scale
    d2 = (s[:, 0] - x) ** 2 + (s[:, 1] - y) ** 2
    hit = (d2 <= np.maximum(r, 4.0) ** 2) & sd.pickable[idx]
    if not np.any(hit):
        return None
    where = np.nonzero(hit)[0]
    return int(idx[where[np.argmax(s[where, 2])]])


def outside_view(sd: SceneData, cam: Camera, width: float, height: float) -> bool:
    """True when some atom lies (partly) outside the widget."""
    if sd.count == 0 or width <= 0 or height <= 0:
        return False
    s = cam.to_screen(sd.pos, width, height)
    r = sd.radius * cam.scale
    return bool(
        np.any(s[:, 0] - r < 0)
        or np.any(s[:, 0] + r > width)
        or np.any(s[:, 1] - r < 0)
        or np.any(s[:, 1] + r > height)
    )
