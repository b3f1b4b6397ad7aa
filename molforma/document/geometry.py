"""Pure geometry of molecules: measurements, rotations, bond-graph splits, VSEPR directions.

Nothing here changes a project; :mod:`molforma.document.chemistry` builds the edits
on top of these functions. Positions are anything numpy turns into three floats.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from molforma.errors import UnknownAtomError, ValidationError
from molforma.i18n import register

Vec = Sequence[float] | np.ndarray
_EPS = 1e-9

register(
    {
        "in_ring": {
            "en": "Atoms {a} and {b} are part of a ring: cutting that bond does not split the "
            "molecule, so one side cannot be moved alone.",
            "ja": "原子 {a} と {b} は環の一部です。この結合を切っても分子が二つに分かれないため、"
            "片側だけを動かせません。",
        },
        "not_separable": {
            "en": "Atoms {a} and {b} are connected through other atoms without a direct bond, "
            "so there is no part that can be moved alone.",
            "ja": "原子 {a} と {b} は直接の結合なしに他の原子を介してつながっているため、"
            "単独で動かせる部分がありません。",
        },
    }
)


def _v(p: Vec) -> np.ndarray:
    return np.asarray(p, dtype=float).reshape(3)


def unit(v: Vec) -> np.ndarray:
    """``v`` scaled to length 1 (a zero vector stays zero)."""
    a = _v(v)
    n = float(np.linalg.norm(a))
    return a / n if n > _EPS else np.zeros(3)


def distance(p: Vec, q: Vec) -> float:
    """Distance between two points (same unit as the input, Å in MolForma)."""
    return float(np.linalg.norm(_v(p) - _v(q)))


def angle(p: Vec, q: Vec, r: Vec) -> float:
    """Angle p-q-r at q in degrees (0..180)."""
    u = _v(p) - _v(q)
    w = _v(r) - _v(q)
    nu, nw = np.linalg.norm(u), np.linalg.norm(w)
    if nu < _EPS or nw < _EPS:
        return 0.0
    c = float(np.dot(u, w) / (nu * nw))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def dihedral(p: Vec, q: Vec, r: Vec, s: Vec) -> float:
    """Dihedral p-q-r-s in degrees, -180..180 (IUPAC sign: clockwise seen along q→r is +).

    Collinear p-q-r or q-r-s leaves the dihedral undefined; 0.0 is returned then
    (:func:`dihedral_defined` tells the two apart).
    """
    b0 = _v(p) - _v(q)
    b1 = _v(r) - _v(q)
    b2 = _v(s) - _v(r)
    n1 = np.linalg.norm(b1)
    if n1 < _EPS:
        return 0.0
    b1u = b1 / n1
    v = b0 - np.dot(b0, b1u) * b1u
    w = b2 - np.dot(b2, b1u) * b1u
    x = float(np.dot(v, w))
    y = float(np.dot(np.cross(b1u, v), w))
    if abs(x) < _EPS and abs(y) < _EPS:
        return 0.0
    return math.degrees(math.atan2(y, x))


def dihedral_defined(p: Vec, q: Vec, r: Vec, s: Vec, tol_deg: float = 1.0) -> bool:
    """False when p-q-r or q-r-s is (nearly) a straight line, so no dihedral exists."""
    a1 = angle(p, q, r)
    a2 = angle(q, r, s)
    return tol_deg < a1 < 180 - tol_deg and tol_deg < a2 < 180 - tol_deg


def rotation_matrix(axis: Vec, angle_deg: float) -> np.ndarray:
    """3×3 matrix rotating by ``angle_deg`` (right hand) about ``axis`` through the origin.

    Raises:
        ValidationError: ``bad_axis`` when the axis is (nearly) zero.
    """
    a = _v(axis)
    n = float(np.linalg.norm(a))
    if n < _EPS or not math.isfinite(n):
        raise ValidationError("bad_axis")
    k = a / n
    t = math.radians(angle_deg)
    c, s = math.cos(t), math.sin(t)
    kx = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) * c + s * kx + (1 - c) * np.outer(k, k)


def perpendicular(v: Vec) -> np.ndarray:
    """Some unit vector perpendicular to ``v`` (deterministic)."""
    a = unit(v)
    if np.linalg.norm(a) < _EPS:
        return np.array([1.0, 0.0, 0.0])
    trial = np.array([1.0, 0.0, 0.0]) if abs(a[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    return unit(np.cross(a, trial))


# ---------------------------------------------------------------------------------------------
# Bond graph


def adjacency(project: Mapping[str, Any]) -> dict[str, list[str]]:
    """Neighbour ids of every atom id, from the bonds of ``project`` (an envelope)."""
    doc = project["document"]
    adj: dict[str, list[str]] = {a["id"]: [] for a in doc["atoms"]}
    for b in doc["bonds"]:
        if b["a"] in adj and b["b"] in adj:
            adj[b["a"]].append(b["b"])
            adj[b["b"]].append(b["a"])
    return adj


def _reach(adj: Mapping[str, Iterable[str]], start: str, cut: tuple[str, str] | None) -> set[str]:
    seen = {start}
    todo = deque([start])
    while todo:
        cur = todo.popleft()
        for nb in adj.get(cur, ()):
            if cut is not None and {cur, nb} == set(cut):
                continue
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen


def components(project: Mapping[str, Any]) -> list[list[str]]:
    """Connected components of the bond graph, each in atom order, largest first."""
    adj = adjacency(project)
    order = {a["id"]: i for i, a in enumerate(project["document"]["atoms"])}
    seen: set[str] = set()
    out: list[list[str]] = []
    for aid in adj:
        if aid in seen:
            continue
        comp = _reach(adj, aid, None)
        seen |= comp
        out.append(sorted(comp, key=order.__getitem__))
    out.sort(key=lambda c: (-len(c), order[c[0]]))
    return out


def moving_side(adj: Mapping[str, Iterable[str]], anchor: str, mover: str) -> set[str]:
    """The atoms that go with ``mover`` when it is separated from ``anchor``.

    Bonded: the ``mover`` side of the cut bond. Not bonded: ``mover``'s whole
    connected component.

    Raises:
        ValidationError: ``in_ring`` (bonded, but connected again through a ring),
        ``not_separable`` (not bonded, but in the same connected component).
    """
    bonded = anchor in set(adj.get(mover, ()))
    side = _reach(adj, mover, (anchor, mover) if bonded else None)
    if anchor in side:
        raise ValidationError("in_ring" if bonded else "not_separable", a=anchor, b=mover)
    return side


def fragments_split(work: Mapping[str, Any], a_id: str, b_id: str) -> tuple[set[str], set[str]]:
    """The two sides (``a``'s, ``b``'s) when the ``a``-``b`` connection is cut.

    For atoms that are not bonded, the sides are their connected components.
    Atoms of other components belong to neither side.

    Raises:
        UnknownAtomError: an id not in the project.
        ValidationError: ``in_ring`` / ``not_separable`` (see :func:`moving_side`).
    """
    adj = adjacency(work)
    for aid in (a_id, b_id):
        if aid not in adj:
            raise UnknownAtomError(id=aid)
    if a_id == b_id:
        raise ValidationError("not_separable", a=a_id, b=b_id)
    side_b = moving_side(adj, a_id, b_id)
    side_a = moving_side(adj, b_id, a_id)
    return side_a, side_b


# ---------------------------------------------------------------------------------------------
# Ideal directions around a centre (VSEPR)

_TET = math.degrees(math.acos(-1.0 / 3.0))  # 109.47°


def ideal_polyhedron(n: int) -> np.ndarray:
    """``n`` unit vectors of the ideal VSEPR arrangement (n = 1..8; more: spread points)."""
    if n <= 0:
        return np.zeros((0, 3))
    if n == 1:
        return np.array([[1.0, 0.0, 0.0]])
    if n == 2:
        return np.array([[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]])
    if n == 3:
        return np.array(
            [[1.0, 0.0, 0.0], [-0.5, math.sqrt(3) / 2, 0.0], [-0.5, -math.sqrt(3) / 2, 0.0]]
        )
    if n == 4:
        s = 1 / math.sqrt(3)
        return np.array([[s, s, s], [s, -s, -s], [-s, s, -s], [-s, -s, s]])
    if n == 5:
        return np.array(
            [
                [0.0, 0.0, 1.0],
                [0.0, 0.0, -1.0],
                [1.0, 0.0, 0.0],
                [-0.5, math.sqrt(3) / 2, 0.0],
                [-0.5, -math.sqrt(3) / 2, 0.0],
            ]
        )
    if n == 6:
        return np.array(
            [[1.0, 0, 0], [-1.0, 0, 0], [0, 1.0, 0], [0, -1.0, 0], [0, 0, 1.0], [0, 0, -1.0]]
        )
    if n == 7:  # pentagonal bipyramid
        ring = [
            [math.cos(2 * math.pi * k / 5), math.sin(2 * math.pi * k / 5), 0.0] for k in range(5)
        ]
        return np.array([[0.0, 0.0, 1.0], [0.0, 0.0, -1.0], *ring])
    if n == 8:  # square antiprism
        pts = []
        h = 0.5774
        r = math.sqrt(1 - h * h)
        for k in range(4):
            t = math.pi / 2 * k
            pts.append([r * math.cos(t), r * math.sin(t), h])
            pts.append([r * math.cos(t + math.pi / 4), r * math.sin(t + math.pi / 4), -h])
        return np.array(pts)
    return fibonacci_sphere(n)


def fibonacci_sphere(n: int) -> np.ndarray:
    """``n`` nearly evenly spread unit vectors."""
    i = np.arange(n) + 0.5
    phi = np.arccos(1 - 2 * i / n)
    theta = math.pi * (1 + 5**0.5) * i
    return np.stack([np.cos(theta) * np.sin(phi), np.sin(theta) * np.sin(phi), np.cos(phi)], 1)


def _rotation_from_pairs(src: Sequence[np.ndarray], dst: Sequence[np.ndarray]) -> np.ndarray:
    """Best rotation (Kabsch) taking the unit vectors ``src`` onto ``dst``."""
    a = np.asarray(src, dtype=float)
    b = np.asarray(dst, dtype=float)
    if len(a) == 1:
        return _align(a[0], b[0])
    h = a.T @ b
    u, _s, vt = np.linalg.svd(h)
    d = np.sign(np.linalg.det(vt.T @ u.T)) or 1.0
    rotation: np.ndarray = vt.T @ np.diag([1.0, 1.0, d]) @ u.T
    return rotation


def _align(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Rotation taking unit vector ``src`` onto ``dst`` (the shortest one)."""
    s, d = unit(src), unit(dst)
    c = float(np.dot(s, d))
    if c > 1 - 1e-12:
        return np.eye(3)
    if c < -1 + 1e-12:
        return rotation_matrix(perpendicular(s), 180.0)
    ax = np.cross(s, d)
    return rotation_matrix(ax, math.degrees(math.acos(max(-1.0, min(1.0, c)))))


def align_vectors(src: Vec, dst: Vec) -> np.ndarray:
    """Rotation matrix taking the direction of ``src`` onto that of ``dst``."""
    return _align(_v(src), _v(dst))


def free_directions(
    existing: Sequence[Vec], steric: int, *, reference: Vec | None = None
) -> list[np.ndarray]:
    """Unit vectors of the free positions around a centre.

    ``existing`` are unit vectors to the present neighbours; ``steric`` is the
    number of electron domains (bonds + lone pairs, VSEPR). Tetrahedral, trigonal
    and linear centres are built analytically, so the free positions respect the
    existing bond angles (a CH2 in a ring gets its H atoms on the bisecting plane);
    ``reference`` (a direction perpendicular to the single existing bond, e.g. a
    substituent of the neighbour) fixes the twist about that bond: the first free
    position is placed anti to it, which staggers sp3 centres and keeps sp2
    centres planar. Returns the free positions, best first; lone pairs take
    the ones a caller does not use.
    """
    ex = [unit(e) for e in existing if np.linalg.norm(_v(e)) > _EPS]
    k = len(ex)
    free = steric - k
    if free <= 0:
        return []
    ref = None
    if reference is not None and np.linalg.norm(_v(reference)) > _EPS:
        ref = unit(reference)
    if steric <= 4 and k <= 3:
        out = _analytic(ex, steric, ref)
        if out is not None:
            return out
    return _fitted(ex, steric, ref)


def _twist_frame(axis: np.ndarray, ref: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Two unit vectors perpendicular to ``axis``; the first anti to ``ref``'s projection."""
    if ref is not None:
        proj = ref - np.dot(ref, axis) * axis
        if np.linalg.norm(proj) > 1e-3:
            u = -unit(proj)
            return u, unit(np.cross(axis, u))
    u = perpendicular(axis)
    return u, unit(np.cross(axis, u))


def _analytic(ex: list[np.ndarray], steric: int, ref: np.ndarray | None) -> list[np.ndarray] | None:
    k = len(ex)
    if steric == 2:
        if k == 0:
            d = ref if ref is not None else np.array([1.0, 0.0, 0.0])
            return [d, -d]
        return [-ex[0]]
    if steric == 3:
        if k == 0:
            u = ref if ref is not None else np.array([1.0, 0.0, 0.0])
            v = perpendicular(u)
            return [u, -0.5 * u + math.sqrt(3) / 2 * v, -0.5 * u - math.sqrt(3) / 2 * v]
        if k == 1:
            a = ex[0]
            u, _w = _twist_frame(a, ref)
            return [unit(-0.5 * a + math.sqrt(3) / 2 * u), unit(-0.5 * a - math.sqrt(3) / 2 * u)]
        s = ex[0] + ex[1]
        if np.linalg.norm(s) < 1e-3:  # linear pair: any perpendicular direction
            return [perpendicular(ex[0])]
        return [unit(-s)]
    if steric == 4:
        if k == 0:
            return list(ideal_polyhedron(4))
        if k == 1:
            a = ex[0]
            u, w = _twist_frame(a, ref)
            c, s = math.cos(math.radians(_TET)), math.sin(math.radians(_TET))
            out = []
            for t in (0.0, 120.0, 240.0):
                tr = math.radians(t)
                out.append(unit(c * a + s * (math.cos(tr) * u + math.sin(tr) * w)))
            return out
        if k == 2:
            s = ex[0] + ex[1]
            n = np.cross(ex[0], ex[1])
            if np.linalg.norm(s) < 1e-3 or np.linalg.norm(n) < 1e-3:
                return None
            b = unit(-s)
            n = unit(n)
            half = math.radians(_TET / 2)
            return [
                unit(b * math.cos(half) + n * math.sin(half)),
                unit(b * math.cos(half) - n * math.sin(half)),
            ]
        s = ex[0] + ex[1] + ex[2]
        if np.linalg.norm(s) < 1e-2:  # planar: go perpendicular to the plane
            n = np.cross(ex[1] - ex[0], ex[2] - ex[0])
            return [unit(n)] if np.linalg.norm(n) > _EPS else None
        return [unit(-s)]
    return None


def _fitted(ex: list[np.ndarray], steric: int, ref: np.ndarray | None) -> list[np.ndarray]:
    """Fit the ideal polyhedron to the existing directions; the unmatched vertices are free."""
    poly = ideal_polyhedron(steric)
    if not ex:
        if ref is not None:
            rot = _align(poly[0], ref)
            return [rot @ p for p in poly]
        return [p.copy() for p in poly]
    best: tuple[float, np.ndarray] | None = None
    n = len(poly)
    pairs: list[tuple[int, int]] = []
    for i in range(n):
        if len(ex) == 1:
            pairs.append((i, -1))
        else:
            pairs += [(i, j) for j in range(n) if j != i]
    for i, j in pairs:
        if j < 0:
            rot = _align(poly[i], ex[0])
        else:
            rot = _rotation_from_pairs([poly[i], poly[j]], [ex[0], ex[1]])
        pts = poly @ rot.T
        cost = sum(float(np.max(pts @ e)) for e in ex)
        if best is None or cost > best[0] + 1e-9:
            best = (cost, pts)
    assert best is not None
    pts = best[1]
    used: set[int] = set()
    for e in ex:
        order = np.argsort(-(pts @ e))
        for idx in order:
            if int(idx) not in used:
                used.add(int(idx))
                break
    free = [pts[i] for i in range(n) if i not in used]
    # Best first: the positions farthest from every existing neighbour.
    free.sort(key=lambda p: max(float(np.dot(p, e)) for e in ex))
    return [unit(p) for p in free]
