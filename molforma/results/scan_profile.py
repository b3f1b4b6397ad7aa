"""The energy profile of a relaxed scan read from one NWChem output (no Qt).

MolForma writes a scan as one job (:mod:`molforma.nwchem.constraints`): the scanned
coordinate is the ``zcoord`` entry named ``scan``, first in the geometry block and then in
one ``geometry adjust`` block per further point, each followed by ``task ... optimize``.
The input deck NWChem echoes gives the atoms and the target value of every point; the
optimisation steps the parser read (grouped by optimisation run) give each point's
energy and structure. The value reached is measured on that structure, so a point whose
constraint NWChem did not hold shows it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from molforma.lazy import lazy_import
from molforma.results.results_model import Results

if TYPE_CHECKING:
    import numpy as np

    from molforma.document import geometry
else:  # imported on first use (start-up time): molforma.lazy
    np = lazy_import("numpy")
    geometry = lazy_import("molforma.document.geometry")

HARTREE_KCAL = 627.509474
_SCAN_LINE = re.compile(
    r"^\s*(bond|angle|torsion)\s+((?:\d+\s+){2,4})(-?\d+(?:\.\d*)?(?:[eEdD][-+]?\d+)?)"
    r"\s+scan\s+constant\s*$",
    re.I | re.M,
)
_KINDS = {"bond": "distance", "angle": "angle", "torsion": "dihedral"}
_UNITS = {"distance": "angstrom", "angle": "degree", "dihedral": "degree"}


def scan_targets(echo: str) -> tuple[str, list[int], list[float]] | None:
    """``(kind, 1-based atom numbers, target per point)`` from the echoed input, or None."""
    found = _SCAN_LINE.findall(echo or "")
    if not found:
        return None
    word, numbers, _ = found[0]
    atoms = [int(n) for n in numbers.split()]
    kind = _KINDS[word.lower()]
    if len(atoms) != {"distance": 2, "angle": 3, "dihedral": 4}[kind]:
        return None
    targets = [float(v.replace("d", "e").replace("D", "e")) for _, _, v in found]
    return kind, atoms, targets


def _measure(coordinates: Sequence[Sequence[float]], atoms: Sequence[int]) -> float | None:
    if any(not 1 <= a <= len(coordinates) for a in atoms):
        return None
    p = [np.array(coordinates[a - 1], float) for a in atoms]
    if len(p) == 2:
        return float(geometry.distance(*p))
    if len(p) == 3:
        return float(geometry.angle(*p))
    return float(geometry.dihedral(*p))


def scan_profile(results: Results) -> dict[str, Any] | None:
    """The scan of ``results``: ``{coordinate, atomNumbers, unit, planned, points}`` or None.

    ``coordinate`` is distance, angle or dihedral; ``atomNumbers`` are 1-based, in the
    order of the output's geometry. Each point: ``point`` (1-based), ``target`` (the value
    asked for), ``value`` (measured on the point's last structure), ``energy`` (hartree, the last optimisation step),
    ``relativeKcal`` (against the lowest point), ``converged``, ``steps`` and
    ``structureIndex``. Only the points NWChem reached are listed; ``planned`` says how
    many the input asked for.
    """
    found = scan_targets(results._input_echo)
    if found is None:
        return None
    kind, atoms, targets = found
    runs: dict[int, list[Any]] = {}
    for e in results.energies:
        if e.kind == "optimization" and e.optimization is not None:
            runs.setdefault(e.optimization, []).append(e)
    order = sorted(runs)
    points: list[dict[str, Any]] = []
    for n, run in enumerate(order[: len(targets)]):
        steps = runs[run]
        last = steps[-1]
        sidx = last.structureIndex
        nxt = runs[order[n + 1]][0].structureIndex if n + 1 < len(order) else None
        converged = any(
            s.label == "final"
            and (sidx is None or s.index > sidx)
            and (nxt is None or s.index < nxt)
            for s in results.structures
        )
        value = None
        if sidx is not None and 0 <= sidx < len(results.structures):
            value = _measure(results.structures[sidx].coordinates, atoms)
        points.append(
            {
                "point": n + 1,
                "target": targets[n],
                "value": round(value, 6) if value is not None else None,
                "energy": last.energy,
                "relativeKcal": None,
                "converged": converged,
                "steps": len(steps),
                "structureIndex": sidx,
            }
        )
    energies = [p["energy"] for p in points if p["energy"] is not None]
    if energies:
        low = min(energies)
        for p in points:
            if p["energy"] is not None:
                p["relativeKcal"] = round((p["energy"] - low) * HARTREE_KCAL, 4)
    return {
        "coordinate": kind,
        "atomNumbers": atoms,
        "unit": _UNITS[kind],
        "planned": len(targets),
        "points": points,
    }
