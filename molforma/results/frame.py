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

import re
from collections.abc import Iterator

import numpy as np

from molforma.results.model import Results

_ECHO_START = "echo of input deck"
_ECHO_END = re.compile(r"^={40,}\s*$", re.M)
_BOHR = 0.52917721092
_UNITS = {"angstrom": 1.0, "angstroms": 1.0, "an": 1.0, "au": _BOHR, "atomic": _BOHR,
          "bohr": _BOHR, "nm": 10.0, "nanometers": 10.0, "pm": 0.01, "picometers": 0.01}
# autosym symmetrises within NWChem's default tolerance (1e-2 bohr); anything further
# off is not the same geometry and is left alone.
_MAX_FIT_RMSD = 0.05
_SAME = 1e-6


def echoed_geometry(text: str) -> np.ndarray | None:
    """Coordinates (Å, input order) of the first geometry block in the echoed input deck.

    None when the output has no echo, the block is not Cartesian, or it is unreadable.
    """
    start = text.find(_ECHO_START)
    if start < 0:
        return None
    start = text.find("\n", start) + 1
    end_match = _ECHO_END.search(text, start)
    deck = text[start:end_match.start() if end_match else len(text)]
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


def _coordinates(lines: Iterator[str], scale: float) -> np.ndarray | None:
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
            coords.append([float(w.replace("d", "e").replace("D", "e")) * scale
                           for w in words[1:4]])
        except ValueError:
            return None  # a z-matrix or a load directive: no Cartesian reference
        if len(coords[-1]) != 3:
            return None
    return np.array(coords) if coords else None


def _fit(mobile: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Orthogonal matrix and centroids with ``(mobile - cm) @ r + ct ≈ target`` (Kabsch).

    The determinant is not forced to +1: if NWChem's standard orientation was a
    reflection, mapping back must reflect too.
    """
    cm, ct = mobile.mean(axis=0), target.mean(axis=0)
    u, _s, vt = np.linalg.svd((mobile - cm).T @ (target - ct))
    return u @ vt, cm, ct


def restore_input_frame(res: Results, text: str) -> bool:
    """Move every structure and mode displacement of ``res`` into the input's frame.

    ``text`` is the output (its head with the echoed deck is enough). Returns True when
    a transformation was applied; False when there was nothing to do or no safe fit.
    """
    if not res.structures:
        return False
    target = echoed_geometry(text)
    first = np.asarray(res.structures[0].coordinates, dtype=float)
    if target is None or target.shape != first.shape or first.ndim != 2:
        return False
    if np.allclose(first, target, atol=_SAME, rtol=0.0):
        return False
    r, cm, ct = _fit(first, target)
    rmsd = float(np.sqrt(np.mean(np.sum(((first - cm) @ r + ct - target) ** 2, axis=1))))
    if rmsd > _MAX_FIT_RMSD:
        return False
    for structure in res.structures:
        xyz = np.asarray(structure.coordinates, dtype=float)
        if xyz.shape != first.shape:
            continue  # not this molecule (cannot happen in one NWChem run)
        structure.coordinates = _clean((xyz - cm) @ r + ct).tolist()
    disp = res._displacements
    if disp is not None and disp.ndim == 3 and disp.shape[1:] == first.shape:
        res.set_displacements(_clean(disp @ r))
    return True


def _clean(values: np.ndarray) -> np.ndarray:
    """Round off the rotation's last-bit noise (NWChem prints 8 decimals) and -0.0."""
    return np.round(values, 10) + 0.0
