"""Bonds of large structures from distances alone, by RDKit's connect-the-dots rule (no Qt).

RDKit's ``DetermineConnectivity`` bonds two atoms when ``0.4 Å <= d <= r_i + r_j +
0.45 Å`` with its own covalent radii, and a hydrogen keeps only its shortest bond.
The radii are kept here (measured from RDKit by bisection; a test checks every
element against RDKit), so reading a large XYZ neither imports RDKit nor calls it
once per element. Pairs come from :mod:`molforma.document.neighbours` (numpy, linear
in the number of atoms).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

import numpy as np

from molforma.document import elements
from molforma.document.arrays import first_of_each
from molforma.document.coordinates import xyz_array
from molforma.document.neighbours import CrowdedError, close_pairs, near, pairs_closer_than

_ELEMENT = itemgetter("element")
_ID = itemgetter("id")

# Bond orders are perceived (by RDKit) up to this many atoms; larger structures (proteins,
# solvent boxes) keep single bonds from the sweep below, as order assignment grows fast.
ORDER_PERCEPTION_LIMIT = 1000
CONNECT_TOLERANCE = 0.45  # Å added to the sum of the two radii
# Candidate pairs per atom beyond which bonds are not perceived: a real structure has tens
# within the bonding reach (2 x the largest radius + 0.45 Å), not a thousand.
_CANDIDATES_PER_ATOM = 1000
# Neighbours by the distance rule beyond which an atom is in no molecule: atoms in a close
# packed metal have 12 (18 with the second shell within reach); dozens mean atoms packed
# tenfold denser than matter, whose "bonds" would be a large part of all pairs.
MAX_NEIGHBOURS = 32
CONNECT_MIN = 0.4  # Å: closer atoms are not bonded

# RDKit's radii by atomic number, as its connect-the-dots rule uses them: the covalent
# radii, but francium is capped at 2.5 Å there, not the periodic table's 2.6 Å.
_RADII: tuple[float, ...] = tuple(
    2.5 if z == 87 else r for z, r in enumerate(elements.COVALENT_RADII[1:], start=1)
)
RADII: dict[str, float] = {s: _RADII[elements.atomic_number(s) - 1] for s in elements.SYMBOLS}


def _one_bond_per_hydrogen(a: Any, b: Any, d: Any, hydrogen: Any) -> Any:
    """Indices of the pairs kept when every hydrogen keeps only its shortest bond.

    RDKit decides in order of distance (ties by atom index); a hydrogen already bonded
    refuses further bonds. Without hydrogen-hydrogen pairs every hydrogen simply keeps
    its first pair in that order (numpy); with them the order matters, so a loop decides.
    """
    with_h = np.nonzero(hydrogen[a] | hydrogen[b])[0]
    heavy = np.nonzero(~(hydrogen[a] | hydrogen[b]))[0]
    if not len(with_h):
        return heavy
    ha, hb, hd = a[with_h], b[with_h], d[with_h]
    ranked = np.lexsort((hb, ha, hd))
    both = hydrogen[ha] & hydrogen[hb]
    if not both.any():
        h_of = np.where(hydrogen[ha], ha, hb)[ranked]
        return np.concatenate([heavy, with_h[ranked[first_of_each(h_of)]]])
    taken: set[int] = set()
    kept: list[int] = []
    is_h = hydrogen.tolist()
    ha_l, hb_l = ha.tolist(), hb.tolist()
    for k in ranked.tolist():
        i, j = ha_l[k], hb_l[k]
        if (is_h[i] and i in taken) or (is_h[j] and j in taken):
            continue
        taken.add(i)
        taken.add(j)
        kept.append(k)
    return np.concatenate([heavy, with_h[np.asarray(kept, dtype=np.int64)]])


def bonded_pairs(
    xyz: Any, symbols: Sequence[str], seen: dict[str, float] | None = None
) -> tuple[Any, Any]:
    """Index arrays ``(i, j)`` of the bonds of :func:`connectivity_of`, in its order
    (``seen`` as there)."""
    xyz = np.asarray(xyz, dtype=float).reshape(-1, 3)
    n = len(xyz)
    if n < 2:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    kinds = sorted(set(symbols))
    code = {s: k for k, s in enumerate(kinds)}
    species = np.fromiter(map(code.__getitem__, symbols), dtype=np.int64, count=n)
    radii = np.array([RADII[s] for s in kinds])[species]
    empty = np.zeros(0, dtype=np.int64)
    try:
        a, b, d = close_pairs(
            xyz,
            2 * float(radii.max()) + CONNECT_TOLERANCE,
            max_candidates=_CANDIDATES_PER_ATOM * n + 10_000,
        )
    except CrowdedError:
        # Thousands of atoms on one spot, or packed tens of times denser than any matter:
        # their candidate bonds would be millions of pairs, so none are perceived (and
        # ``closest`` is not known: whoever loads the atoms checks them itself).
        if seen is not None:
            seen["crowded"] = 1.0
        return empty, empty
    if seen is not None:
        seen["closest"] = float(d.min()) if len(d) else float("inf")
    keep = (d <= radii[a] + radii[b] + CONNECT_TOLERANCE) & (d >= CONNECT_MIN)
    a, b, d = a[keep], b[keep], d[keep]
    if len(a) and int(np.bincount(np.concatenate([a, b])).max()) > MAX_NEIGHBOURS:
        if seen is not None:
            seen["crowded"] = 1.0
        return empty, empty
    hydrogen = species == code["H"] if "H" in code else np.zeros(n, dtype=bool)
    kept = _one_bond_per_hydrogen(a, b, d, hydrogen)
    pa, pb = a[kept], b[kept]
    rank = np.argsort(pa * n + pb, kind="stable")
    return pa[rank], pb[rank]


def crowded(xyz: Any, symbols: Sequence[str]) -> bool:
    """True when no bonds are perceived for ``xyz`` because its atoms are packed as no
    matter is: one within bonding distance of more than :data:`MAX_NEIGHBOURS` others,
    or so many within reach of each other that measuring them would not be linear.

    :func:`bonded_pairs` gives such structures no bonds; RDKit must not be asked either
    (its bond orders for carbons bonded to hundreds of others take minutes).
    """
    seen: dict[str, float] = {}
    bonded_pairs(xyz, symbols, seen)
    return bool(seen.get("crowded"))


def cross_pairs(xyz: Any, symbols: Sequence[str], side: Any) -> tuple[Any, Any]:
    """The pairs of :func:`bonded_pairs` that join an atom of ``side`` (a boolean array)
    to one outside it, found near the smaller of the two sets only.

    A hydrogen keeps its shortest bond among all of its own, so the hydrogens next to
    the smaller set bring their neighbours too; hydrogen-hydrogen contacts (whose
    outcome may hang on a chain of hydrogens) make the whole structure decide.
    """
    xyz = np.asarray(xyz, dtype=float).reshape(-1, 3)
    side = np.asarray(side, dtype=bool)
    seeds = np.flatnonzero(side if side.sum() * 2 <= len(side) else ~side)
    if not len(seeds):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    reach = 2 * max(RADII[s] for s in set(symbols)) + CONNECT_TOLERANCE
    hydrogen = np.fromiter((s == "H" for s in symbols), dtype=bool, count=len(symbols))
    around = near(xyz, seeds, reach)
    around |= near(xyz, np.flatnonzero(around & hydrogen), reach)
    keep = np.flatnonzero(around)  # ascending: pairs keep the whole structure's order
    hs = keep[hydrogen[keep]]
    if len(hs) > 1 and len(pairs_closer_than(xyz[hs], 2 * RADII["H"] + CONNECT_TOLERANCE)[0]):
        a, b = bonded_pairs(xyz, symbols)
    else:
        a, b = bonded_pairs(xyz[keep], [symbols[k] for k in keep.tolist()])
        a, b = keep[a], keep[b]
    cross = side[a] != side[b]
    return a[cross], b[cross]


def connectivity_of(
    xyz: Any, symbols: Sequence[str], seen: dict[str, float] | None = None
) -> list[tuple[int, int]]:
    """Bonded index pairs ``(i, j)``, ``i < j``, sorted, of coordinates ``xyz`` (n x 3).

    ``symbols`` are valid element symbols, one per row of ``xyz``. ``seen`` (when given)
    receives ``"closest"``: the shortest distance between any two atoms (infinity when no
    two are within the bonding reach, which is at least 1.07 Å), so a reader learns of
    duplicate atoms without a second search. Atoms packed as no matter is (see
    :func:`crowded`) get no bonds, and ``seen`` then holds ``"crowded"`` (and no
    ``"closest"`` when there were too many pairs to measure).
    """
    pa, pb = bonded_pairs(xyz, symbols, seen)
    return list(zip(pa.tolist(), pb.tolist(), strict=True))


def _symbols(atoms: Sequence[Mapping[str, Any]]) -> list[str]:
    return list(map(str, map(_ELEMENT, atoms)))


def connectivity(atoms: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """Bonded index pairs of atom dicts (see :func:`connectivity_of`)."""
    return connectivity_of(xyz_array(atoms), _symbols(atoms))


def single_bonds(
    atoms: Sequence[Mapping[str, Any]], xyz: Any = None, seen: dict[str, float] | None = None
) -> list[dict[str, Any]]:
    """Document bonds (order 1) of atom dicts; ``xyz`` spares building the coordinates again.

    ``seen`` as for :func:`connectivity_of`.
    """
    if xyz is None:
        xyz = xyz_array(atoms)
    pa, pb = bonded_pairs(xyz, _symbols(atoms), seen)
    ids = list(map(_ID, atoms))
    # Straight from the index arrays: a list of pair tuples would be thousands of objects
    # the cyclic garbage collector has to look at (and promote) while they live.
    return [
        {"a": ids[i], "b": ids[j], "order": 1}
        for i, j in zip(pa.tolist(), pb.tolist(), strict=True)
    ]


# The neutral valence of the elements whose atoms RDKit's bond-order assignment
# (xyz2mol) first tries at exactly that valence: a neutral structure of these elements in
# which every atom has that many neighbours gets single bonds and no charges from it.
# Noble gases have valence 0 (RDKit's table lacks helium, and its assignment then fails,
# which keeps the same single bonds). Sulfur, phosphorus, boron and the metals are left
# out: RDKit tries them at other valences or charges.
_SATURATED_AT = {
    "H": 1,
    "C": 4,
    "N": 3,
    "O": 2,
    "F": 1,
    "Cl": 1,
    "Br": 1,
    "I": 1,
    "He": 0,
    "Ne": 0,
    "Ar": 0,
    "Kr": 0,
    "Xe": 0,
}


def saturated_bonds(
    atoms: Sequence[dict[str, Any]],
    charge: int | None = None,
    xyz: Any = None,
    seen: dict[str, float] | None = None,
) -> list[dict[str, Any]] | None:
    """The bonds RDKit's perception gives a neutral structure whose atoms are all
    saturated by single bonds (water, alkanes, alcohols, amines, ethers, halides): the
    sweep's bonds, order 1, with every formal charge set to 0 in place, as RDKit sets them.

    None (nothing changed, ``seen`` untouched) when the structure is charged or an atom is
    of another element or has another number of neighbours: its orders need RDKit
    (:func:`molforma.formats.rdkit_bridge.perceive_bonds`). ``xyz`` and ``seen`` as for
    :func:`single_bonds`.
    """
    if charge:
        return None
    symbols = _symbols(atoms)
    try:
        wanted = np.fromiter(
            map(_SATURATED_AT.__getitem__, symbols), dtype=np.int64, count=len(symbols)
        )
    except KeyError:
        return None
    if xyz is None:
        xyz = xyz_array(atoms)
    found: dict[str, float] = {}
    pa, pb = bonded_pairs(xyz, symbols, found)
    degree = np.bincount(pa, minlength=len(symbols)) + np.bincount(pb, minlength=len(symbols))
    if not np.array_equal(degree, wanted):
        return None
    if seen is not None:
        seen.update(found)
    for a in atoms:
        a["formalCharge"] = 0
    ids = list(map(_ID, atoms))
    # RDKit's order: the later atom first, bonds by it, then by the earlier atom downwards
    rank = np.lexsort((-pa, pb))
    return [
        {"a": ids[j], "b": ids[i], "order": 1}
        for i, j in zip(pa[rank].tolist(), pb[rank].tolist(), strict=True)
    ]
