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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from molforma.document import elements
from molforma.document.coordinates import xyz_array

# Jmol/CPK colours (0..1); unknown elements fall back to pink, as most viewers do.
_COLOURS: dict[str, tuple[int, int, int]] = {
    "H": (255, 255, 255), "He": (217, 255, 255), "Li": (204, 128, 255), "Be": (194, 255, 0),
    "B": (255, 181, 181), "C": (144, 144, 144), "N": (48, 80, 248), "O": (255, 13, 13),
    "F": (144, 224, 80), "Ne": (179, 227, 245), "Na": (171, 92, 242), "Mg": (138, 255, 0),
    "Al": (191, 166, 166), "Si": (240, 200, 160), "P": (255, 128, 0), "S": (255, 255, 48),
    "Cl": (31, 240, 31), "Ar": (128, 209, 227), "K": (143, 64, 212), "Ca": (61, 255, 0),
    "Sc": (230, 230, 230), "Ti": (191, 194, 199), "V": (166, 166, 171), "Cr": (138, 153, 199),
    "Mn": (156, 122, 199), "Fe": (224, 102, 51), "Co": (240, 144, 160), "Ni": (80, 208, 80),
    "Cu": (200, 128, 51), "Zn": (125, 128, 176), "Ga": (194, 143, 143), "Ge": (102, 143, 143),
    "As": (189, 128, 227), "Se": (255, 161, 0), "Br": (166, 41, 41), "Kr": (92, 184, 209),
    "Rb": (112, 46, 176), "Sr": (0, 255, 0), "Y": (148, 255, 255), "Zr": (148, 224, 224),
    "Nb": (115, 194, 201), "Mo": (84, 181, 181), "Tc": (59, 158, 158), "Ru": (36, 143, 143),
    "Rh": (10, 125, 140), "Pd": (0, 105, 133), "Ag": (192, 192, 192), "Cd": (255, 217, 143),
    "In": (166, 117, 115), "Sn": (102, 128, 128), "Sb": (158, 99, 181), "Te": (212, 122, 0),
    "I": (148, 0, 148), "Xe": (66, 158, 176), "Cs": (87, 23, 143), "Ba": (0, 201, 0),
    "La": (112, 212, 255), "Pt": (208, 208, 224), "Au": (255, 209, 35), "Hg": (184, 184, 208),
    "Pb": (87, 89, 97), "Bi": (158, 79, 181), "U": (0, 143, 255),
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
    MARK_VALENCE: (1.0, 0.25, 0.2),    # red ring: impossible valence
    MARK_SELECTED: (1.0, 0.85, 0.0),   # yellow ring
    MARK_CANDIDATE: (0.1, 0.95, 0.55),  # green ring: new or moved in the candidate
    MARK_FIXED: (0.85, 0.2, 0.95),     # magenta ring: fixed atom
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

    ids: list[str] = field(default_factory=list)
    symbols: list[str] = field(default_factory=list)
    pos: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    colour: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    radius: np.ndarray = field(default_factory=lambda: np.zeros(0))
    mark: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    pickable: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    bond_pairs: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    bond_orders: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    seg_start: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    seg_end: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    seg_radius: np.ndarray = field(default_factory=lambda: np.zeros(0))
    seg_colour: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    # The atom each half-bond belongs to (the painter draws a half just before its ball).
    seg_atom: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    # Whole bond lines (one per line of a multiple bond), coloured half and half: OpenGL.
    line_start: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    line_end: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    line_radius: np.ndarray = field(default_factory=lambda: np.zeros(0))
    line_colour_a: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    line_colour_b: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    line_split: np.ndarray = field(default_factory=lambda: np.zeros(0))  # where colour b starts
    version: int = 0

    @property
    def count(self) -> int:
        """Number of atoms drawn."""
        return len(self.ids)

    def index_of(self, atom_id: str) -> int | None:
        """Row of an atom id (first match, the candidate's atom when both are drawn)."""
        try:
            return self.ids.index(atom_id)
        except ValueError:
            return None


STYLES = ("ball_and_stick", "spacefill", "sticks")


def build_scene(atoms: Sequence[dict[str, Any]], bonds: Sequence[dict[str, Any]], *,
                candidate_atoms: Sequence[dict[str, Any]] | None = None,
                candidate_bonds: Sequence[dict[str, Any]] | None = None,
                selected: set[str] | None = None, style: str = "ball_and_stick",
                flagged: set[str] | None = None) -> SceneData:
    """Arrays for the confirmed molecule, or the candidate over a ghost of it.

    With a candidate, the candidate is drawn solid (its new or moved atoms ringed
    green) and confirmed atoms that it removes or moves are drawn as faint ghosts.
    ``style``: ball and stick, space filling (van der Waals spheres, no bonds) or
    sticks (atoms as small as the bonds). ``flagged`` atoms (impossible valences) get
    a red ring.
    """
    selected = selected or set()
    if candidate_atoms is None:
        solid, solid_bonds, ghosts = list(atoms), list(bonds), []
        changed: set[str] = set()
    else:
        solid, solid_bonds = list(candidate_atoms), list(candidate_bonds or [])
        old = {a["id"]: a for a in atoms}
        changed = set()
        for a in solid:
            o = old.get(a["id"])
            if o is None or any(abs(float(o[k]) - float(a[k])) > 1e-6 for k in "xyz") \
                    or o["element"] != a["element"]:
                changed.add(a["id"])
        cand_ids = {a["id"] for a in solid}
        ghosts = [a for a in atoms if a["id"] not in cand_ids or a["id"] in changed]
    all_atoms = solid + ghosts
    n_solid = len(solid)
    sd = SceneData()
    sd.ids = [str(a["id"]) for a in all_atoms]
    sd.symbols = [str(a["element"]) for a in all_atoms]
    sd.pos = xyz_array(all_atoms)
    n = len(all_atoms)
    # Colour and radius once per element, then spread over the atoms with numpy: no
    # per-atom Python work for a 10,000-atom first frame.
    kinds: dict[str, int] = {}
    kind = np.fromiter((kinds.setdefault(sym, len(kinds)) for sym in sd.symbols),
                       dtype=np.int64, count=n)
    table_c = np.ones((max(len(kinds), 1), 4))
    table_r = np.zeros(max(len(kinds), 1))
    for sym, k in kinds.items():
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
    row = {aid: i for i, aid in enumerate(sd.ids[:n_solid])}
    for i, a in enumerate(solid):
        if a.get("fixed"):
            mark[i] |= MARK_FIXED
    for ids, bit in ((changed, MARK_CANDIDATE), (selected, MARK_SELECTED),
                     (flagged or (), MARK_VALENCE)):
        for aid in ids:
            at = row.get(aid)
            if at is not None:
                mark[at] |= bit
    if ghosts:
        colour[n_solid:, :3] = colour[n_solid:, :3] * 0.5 + 0.25
        colour[n_solid:, 3] = GHOST_ALPHA
        radius[n_solid:] *= 0.9
    sd.colour, sd.radius, sd.mark = colour, radius, mark
    sd.pickable = np.zeros(n, dtype=bool)
    sd.pickable[:n_solid] = True
    pairs, orders = [], []
    for b in solid_bonds if style != "spacefill" else []:
        ia, ja = row.get(b["a"]), row.get(b["b"])
        if ia is not None and ja is not None:
            pairs.append((ia, ja))
            orders.append(int(b.get("order", 1)))
    sd.bond_pairs = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    sd.bond_orders = np.array(orders, dtype=np.int64)
    rebuild_segments(sd)
    return sd


def rebuild_segments(sd: SceneData) -> None:
    """Cylinder segments for the bonds at the current positions (two halves per line)."""
    if len(sd.bond_pairs) == 0:
        sd.seg_start = sd.line_start = np.zeros((0, 3))
        sd.seg_end = sd.line_end = np.zeros((0, 3))
        sd.seg_radius = sd.line_radius = np.zeros(0)
        sd.seg_colour = sd.line_colour_a = sd.line_colour_b = np.zeros((0, 4))
        sd.seg_atom = np.zeros(0, dtype=np.int64)
        sd.line_split = np.zeros(0)
        return
    i, j = sd.bond_pairs[:, 0], sd.bond_pairs[:, 1]
    pa, pb = sd.pos[i], sd.pos[j]
    axis = pb - pa
    length = np.linalg.norm(axis, axis=1, keepdims=True)
    length[length == 0] = 1.0
    d = axis / length
    # A side direction for multiple bonds: perpendicular to the bond, chosen stably.
    ref = np.where(np.abs(d[:, 2:3]) < 0.9, np.array([[0.0, 0.0, 1.0]]), np.array([[1.0, 0.0, 0.0]]))
    side = np.cross(d, ref)
    side /= np.linalg.norm(side, axis=1, keepdims=True)
    starts, ends, radii, cols, owners = [], [], [], [], []
    l_start, l_end, l_rad, l_ca, l_cb, l_split = [], [], [], [], [], []
    for order in (1, 2, 3):
        sel = sd.bond_orders == order
        if not np.any(sel):
            continue
        offsets = {1: (0.0,), 2: (-0.09, 0.09), 3: (-0.13, 0.0, 0.13)}[order]
        r = BOND_RADIUS if order == 1 else BOND_RADIUS * 0.55
        for off in offsets:
            a0 = pa[sel] + side[sel] * off
            b0 = pb[sel] + side[sel] * off
            mid = (a0 + b0) / 2
            starts += [a0, mid]
            ends += [mid, b0]
            radii += [np.full(len(a0), r)] * 2
            cols += [sd.colour[i[sel]], sd.colour[j[sel]]]
            owners += [i[sel], j[sel]]
            # The parts of a bond inside its two balls are never seen: leave them out
            # (kept a little inside the balls so that no gap can show).
            ra = sd.radius[i[sel]][:, None] * 0.8
            rb = sd.radius[j[sel]][:, None] * 0.8
            half = length[sel] / 2
            cut_a, cut_b = np.minimum(ra, half), np.minimum(rb, half)
            l_start.append(a0 + d[sel] * cut_a)
            l_end.append(b0 - d[sel] * cut_b)
            kept = np.maximum(length[sel] - cut_a - cut_b, 1e-9)
            l_split.append(((half - cut_a) / kept)[:, 0])
            l_rad.append(np.full(len(a0), r))
            l_ca.append(sd.colour[i[sel]])
            l_cb.append(sd.colour[j[sel]])
    sd.seg_start = np.concatenate(starts)
    sd.seg_end = np.concatenate(ends)
    sd.seg_radius = np.concatenate(radii)
    sd.seg_colour = np.concatenate(cols)
    sd.seg_atom = np.concatenate(owners).astype(np.int64)
    sd.line_start = np.concatenate(l_start)
    sd.line_end = np.concatenate(l_end)
    sd.line_radius = np.concatenate(l_rad)
    sd.line_colour_a = np.concatenate(l_ca)
    sd.line_colour_b = np.concatenate(l_cb)
    sd.line_split = np.concatenate(l_split)


def rotation(axis: Sequence[float] | np.ndarray, angle: float) -> np.ndarray:
    """Rotation matrix about ``axis`` by ``angle`` radians."""
    a = np.asarray(axis, dtype=float)
    n = np.linalg.norm(a)
    if n == 0:
        return np.eye(3)
    x, y, z = a / n
    c, s = math.cos(angle), math.sin(angle)
    C = 1 - c
    return np.array([
        [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
        [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
        [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
    ])


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
        v = (pos - self.centre) @ self.rot.T * self.scale
        v[:, 0] += self.pan[0]
        v[:, 1] += self.pan[1]
        return v

    def to_screen(self, pos: np.ndarray, width: float, height: float) -> np.ndarray:
        """(N, 3): screen x, screen y (pixels, y down) and depth (larger is nearer)."""
        v = self.view_coords(np.asarray(pos, dtype=float).reshape(-1, 3))
        v[:, 0] += width / 2
        v[:, 1] = height / 2 - v[:, 1]
        return v

    def from_screen(self, x: float, y: float, width: float, height: float,
                    depth: float = 0.0) -> np.ndarray:
        """The model point under screen point (x, y) at view depth ``depth`` (pixels)."""
        v = np.array([x - width / 2 - self.pan[0], (height / 2 - y) - self.pan[1], depth])
        return self.rot.T @ (v / self.scale) + self.centre

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


def pick(sd: SceneData, cam: Camera, x: float, y: float, width: float, height: float) -> int | None:
    """Index of the nearest pickable atom drawn under (x, y), or None."""
    if sd.count == 0:
        return None
    s = cam.to_screen(sd.pos, width, height)
    r = sd.radius * cam.scale
    d2 = (s[:, 0] - x) ** 2 + (s[:, 1] - y) ** 2
    hit = (d2 <= np.maximum(r, 4.0) ** 2) & sd.pickable
    if not np.any(hit):
        return None
    idx = np.nonzero(hit)[0]
    return int(idx[np.argmax(s[idx, 2])])


def outside_view(sd: SceneData, cam: Camera, width: float, height: float) -> bool:
    """True when some atom lies (partly) outside the widget."""
    if sd.count == 0 or width <= 0 or height <= 0:
        return False
    s = cam.to_screen(sd.pos, width, height)
    r = sd.radius * cam.scale
    return bool(np.any(s[:, 0] - r < 0) or np.any(s[:, 0] + r > width)
                or np.any(s[:, 1] - r < 0) or np.any(s[:, 1] + r > height))
