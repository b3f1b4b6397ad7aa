"""Map NWChem's re-oriented geometries back to the frame of the input (no Qt).

With symmetry (``autosym``) or centring on, NWChem moves the molecule to its own
standard orientation before it prints any geometry, so an optimisation trajectory
or the normal modes would not overlay the document they came from. MolForma writes
``echo`` into every input, so the output starts with the input deck and its
geometry in the document's frame and atom order (NWChem keeps the order). The
rigid motion that takes NWChem's first printed geometry onto the echoed one is
applied to every structure and (as a rotation) to the mode displacements.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterator

from molforma.nwchem.output_patterns import ECHO_END, ECHO_START
from molforma.results import rigid
from molforma.results.results_model import Results

_ECHO_START = ECHO_START
_ECHO_END = ECHO_END
_BOHR = 0.52917721092
_UNITS = {
    "angstrom": 1.0,
    "angstroms": 1.0,
    "an": 1.0,
    "au": _BOHR,
    "atomic": _BOHR,
    "bohr": _BOHR,
    "nm": 10.0,
    "nanometers": 10.0,
    "pm": 0.01,
    "picometers": 0.01,
}
# autosym symmetrises within NWChem's default tolerance (1e-2 bohr); anything further
# off is not the same geometry and is left alone.
_MAX_FIT_RMSD = 0.05
_SAME = 1e-6


def _echoed_coordinates(text: str) -> list[list[float]] | None:
    start = text.find(_ECHO_START)
    if start < 0:
        return None
    start = text.find("\n", start) + 1
    end_match = _ECHO_END.search(text, start)
    deck = text[start : end_match.start() if end_match else len(text)]
    lines = iter(deck.splitlines())
    for line in lines:
        words = line.split()
        if words and words[0].lower() == "geometry":
            opts = [w.lower() for w in words[1:]]
            scale = 1.0
            if "units" in opts and opts.index("units") + 1 < len(opts):
                scale = _UNITS.get(opts[opts.index("units") + 1], 0.0)
            if not scale:
                return None
            return _coordinates(lines, scale)
    return None


def _coordinates(lines: Iterator[str], scale: float) -> list[list[float]] | None:
    coords: list[list[float]] = []
    for line in lines:
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        head = words[0].lower()
        if head == "end":
            break
        if head in ("symmetry", "print", "noprint", "adjust"):
            continue
        try:
            coords.append(
                [float(w.replace("d", "e").replace("D", "e")) * scale for w in words[1:4]]
            )
        except ValueError:
            return None  # a z-matrix or a load directive: no Cartesian reference
        if len(coords[-1]) != 3:
            return None
    return coords or None


def restore_input_frame(res: Results, text: str) -> bool:
    """Move every structure and mode displacement of ``res`` into the input's frame.

    ``text`` is the output (its head with the echoed deck is enough). Returns True when
    a transformation was applied; False when there was nothing to do or no safe fit.
    The fit and the moves are plain Python (3×3 matrices): no numpy import, so reading
    a result stays quick to start. The determinant is not forced to +1: if NWChem's
    standard orientation was a reflection, mapping back must reflect too.
    """
    if not res.structures:
        return False
    target = _echoed_coordinates(text)
    first = res.structures[0].coordinates
    if target is None or len(target) != len(first) or any(len(p) != 3 for p in first):
        return False
    if _same(first, target):
        return False
    r, cm, ct = rigid.fit(first, target)
    moved = rigid.apply(first, r, cm, ct)
    rmsd = math.sqrt(
        sum(
            (a - b) ** 2
            for p, q in zip(moved, target, strict=True)
            for a, b in zip(p, q, strict=True)
        )
        / len(target)
    )
    if rmsd > _MAX_FIT_RMSD:
        return False
    structures = res.structures
    for k, structure in enumerate(structures):
        if len(structure.coordinates) != len(first):
            continue  # not this molecule (cannot happen in one NWChem run)
        structure.coordinates = rigid.apply(structure.coordinates, r, cm, ct)
        if not isinstance(structures, list):  # a FrameStore made this model: store it back
            structures[k] = structure
    disp = res._displacements
    if disp is not None:
        rows = disp.tolist() if hasattr(disp, "tolist") else [list(d) for d in disp]
        natoms = len(first)
        turned: list[array[float]] = []
        for row in rows:
            vecs = (
                row
                if row and isinstance(row[0], list)
                else [row[i : i + 3] for i in range(0, len(row) - 2, 3)]
            )
            if len(vecs) != natoms:
                turned = []
                break
            turned.append(array("d", [v for vec in rigid.apply(vecs, r) for v in vec]))
        if turned:
            res.set_displacements(turned)
    _rotate_moments(res, r, cm, ct)
    return True


def _rotate_moments(res: Results, r: rigid.Matrix, cm: list[float], ct: list[float]) -> None:
    """Dipole (vector), quadrupole (tensor) and expansion point into the input's frame."""
    m = res.summary.moments
    if m is None:
        return
    if m.dipole is not None:
        m.dipole = rigid.apply([m.dipole], r)[0]
    if m.quadrupole:
        q = m.quadrupole
        keys = (("xx", "xy", "xz"), ("xy", "yy", "yz"), ("xz", "yz", "zz"))
        if all(k in q for row in keys for k in row):
            t = [[q[k] for k in row] for row in keys]
            # rᵀ t r: the tensor seen in the frame where vectors are x @ r
            tr = [[sum(t[i][k] * r[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
            t2 = [
                [round(sum(r[k][i] * tr[k][j] for k in range(3)), 10) + 0.0 for j in range(3)]
                for i in range(3)
            ]
            names = {
                "xx": (0, 0),
                "yy": (1, 1),
                "zz": (2, 2),
                "xy": (0, 1),
                "xz": (0, 2),
                "yz": (1, 2),
            }
            m.quadrupole = {k: t2[i][j] for k, (i, j) in names.items()}
    origin = [v * _BOHR for v in m.origin]
    m.origin = [round(v / _BOHR, 10) + 0.0 for v in rigid.apply([origin], r, cm, ct)[0]]
    m.frame = (
        "the input's frame: NWChem re-oriented the molecule and MolForma mapped the "
        "moments back together with the structures"
    )


def _same(a: list[list[float]], b: list[list[float]]) -> bool:
    return len(a) == len(b) and all(
        len(p) == len(q) and all(abs(x - y) <= _SAME for x, y in zip(p, q, strict=True))
        for p, q in zip(a, b, strict=True)
    )
