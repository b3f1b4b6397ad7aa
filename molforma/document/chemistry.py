"""Chemistry edits on a project: internal coordinates, hydrogens, fragments, and
measurements (no Qt).

Edit functions take ``work``, a private copy of the project envelope made by
:func:`molforma.document.envelope.clone_project`, change it in place and return an
:class:`~molforma.document.document.EditResult`. They raise before changing anything
they cannot finish, and :meth:`Document.edit` throws the copy away on any error, so a
failed edit never leaves a trace. Fixed atoms never move.

The valence model they build on is :mod:`molforma.document.valence`; the checks before a
run are :mod:`molforma.document.validation`. :func:`validate`, :func:`bond_length`,
:func:`is_metal` and :func:`missing_hydrogens` are importable from here as well.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from molforma.document import elements
from molforma.document import messages as _messages  # noqa: F401 - registers shared codes
from molforma.document.coordinates import xyz_array
from molforma.document.document import EditResult
from molforma.document.envelope import Project, new_atom
from molforma.document.geometry import (
    adjacency,
    align_vectors,
    angle,
    dihedral,
    dihedral_defined,
    distance,
    free_directions,
    moving_side,
    perpendicular,
    rotation_matrix,
    unit,
)
from molforma.document.valence import (
    AtomDict,
    _atoms,
    _bond_orders,
    _clash_score,
    _Environment,
    _get,
    _idnum,
    _index,
    _next_id,
    _set_xyz,
    _steric_number,
    _twist_reference,
    _xyz,
)
from molforma.document.valence import bond_length as bond_length
from molforma.document.valence import is_metal as is_metal
from molforma.document.valence import missing_hydrogens as missing_hydrogens
from molforma.document.validation import validate as validate
from molforma.errors import MolFormaError, ValidationError
from molforma.i18n import catalogue, register
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma import catalog
else:  # imported on first use (start-up time): molforma.lazy
    catalog = lazy_import("molforma.catalog")

_MESSAGES: dict[str, dict[str, str]] = {
    # -- edits --------------------------------------------------------------------------------
    "bad_internal_value": {
        "en": "{value} is not a valid {coordinate}: {rule}.",
        "ja": "{value} は{coordinate}として使えません: {rule}。",
    },
    "bad_internal_ids": {
        "en": "Give 2 (distance), 3 (angle) or 4 (dihedral) different atom ids; got {ids}.",
        "ja": "異なる原子IDを 2 個（距離）、3 個（角度）、4 個（二面角）のいずれかで指定してください"
        "（指定: {ids}）。",
    },
    "undefined_dihedral": {
        "en": "The dihedral {ids} is undefined: three of its atoms lie on a straight line.",
        "ja": "二面角 {ids} は定義できません。3 個の原子が一直線上にあります。",
    },
    "unknown_fragment": {
        "en": "No {kind} named '{name}'. Known: {known}",
        "ja": "「{name}」という{kind}はありません。使える名前: {known}",
    },
    "bad_fragment_kind": {
        "en": "kind must be 'fragment' or 'ligand', not '{kind}'.",
        "ja": "kind は 'fragment' か 'ligand' です（「{kind}」は不可）。",
    },
    "no_free_site": {
        "en": "Atom {id} ({element}) has no free site: no hydrogen to replace and no open valence.",
        "ja": "原子 {id}（{element}）には空きサイトがありません。置き換える水素も空いた原子価も"
        "ありません。",
    },
    "bad_measure_ids": {
        "en": "A {kind} needs {expected} different atom ids; got {ids}.",
        "ja": "{kind}には異なる原子IDが {expected} 個必要です（指定: {ids}）。",
    },
}
# Codes shared with the input generator keep one meaning; only missing ones are added.
register({code: text for code, text in _MESSAGES.items() if code not in catalogue()})

_FRAGMENT_TWIST_STEP = 10.0  # degrees between trial orientations about a new bond
# A crowded site may bend the new bond a little off the ideal direction; each degree of
# bending costs as much as a small overlap, so an uncrowded site keeps the ideal one.
_TILTS = (6.0, 12.0)
_TILT_PENALTY = 0.004
_CLASH_FACTOR = 0.8  # pairs closer than this share of their van der Waals sum overlap
_SOFT_WEIGHT = 0.01  # weight of the 1/d⁶ tie-breaker between clash-free orientations
_CONJUGATION_WEIGHT = 0.05  # weight of the coplanarity preference of adjacent π systems


# ---------------------------------------------------------------------------------------------
# Internal coordinates

_KIND_OF = {2: "distance", 3: "angle", 4: "dihedral"}
_MAX_COORD = 1e5  # Å, the document's coordinate limit


def _check_value(kind: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValidationError(
            "bad_internal_value", coordinate=kind, value=value, rule="a finite number is required"
        )
    v = float(value)
    if kind == "distance" and not 0.1 < v <= 1000.0:
        raise ValidationError(
            "bad_internal_value", coordinate=kind, value=value, rule="0.1 Å < distance ≤ 1000 Å"
        )
    if kind == "angle" and not 0.0 < v < 180.0:
        raise ValidationError(
            "bad_internal_value", coordinate=kind, value=value, rule="0° < angle < 180°"
        )
    if kind == "dihedral":
        v = (v + 180.0) % 360.0 - 180.0
        if v == -180.0:
            v = 180.0
    return v


def _choose_side(
    candidates: list[tuple[set[str], Callable[[np.ndarray], np.ndarray]]],
    index: Mapping[str, AtomDict],
    axis_atoms: set[str],
) -> tuple[set[str], Callable[[np.ndarray], np.ndarray]]:
    """The smaller candidate without fixed atoms; candidates are ordered last-id side first."""
    usable = []
    blocked: str | None = None
    for side, fn in candidates:
        fixed = [a for a in side if a not in axis_atoms and index[a].get("fixed")]
        if fixed:
            blocked = blocked or sorted(fixed, key=_idnum)[0]
            continue
        usable.append((side, fn))
    if not usable:
        raise ValidationError("fixed_atom", id=blocked)
    # min() keeps the first of equal sizes: the side of the last id wins ties.
    return min(usable, key=lambda c: len(c[0]))


def set_internal_coordinate(work: Project, ids: list[str], value: float) -> EditResult:
    """Set a distance (2 ids, Å), angle (3, degrees) or dihedral (4, degrees).

    The part that moves is the smaller one (by atom count; on a tie the side of
    the last id): for a distance and a dihedral the two sides of the cut
    connection between the middle atoms, for an angle the side of the first or
    the last atom. Atoms that are not bonded are separated as whole connected
    components. A side holding a fixed atom never moves; when both do, the edit
    fails with ``fixed_atom``.

    Raises:
        UnknownAtomError, ValidationError (``bad_internal_ids``, ``bad_internal_value``,
        ``in_ring``, ``not_separable``, ``undefined_dihedral``, ``fixed_atom``).
    """
    if len(ids) not in _KIND_OF or len(set(ids)) != len(ids):
        raise ValidationError("bad_internal_ids", ids=list(ids))
    index = _index(work)
    atoms = [_get(index, i) for i in ids]
    kind = _KIND_OF[len(ids)]
    target = _check_value(kind, value)
    pos = [_xyz(a) for a in atoms]
    adj = adjacency(work)

    cands: list[tuple[set[str], Callable[[np.ndarray], np.ndarray]]] = []
    errors: list[MolFormaError] = []
    axis_atoms: set[str] = set()

    def side(anchor: str, mover: str) -> set[str] | None:
        try:
            return moving_side(adj, anchor, mover)
        except ValidationError as exc:
            errors.append(exc)
            return None

    if kind == "distance":
        p, q = pos
        current = distance(p, q)
        u = unit(q - p) if current > 1e-9 else np.array([1.0, 0.0, 0.0])
        delta = target - current
        s_q = side(ids[0], ids[1])
        s_p = side(ids[1], ids[0])
        if s_q is not None:
            cands.append((s_q, lambda x: x + u * delta))
        if s_p is not None:
            cands.append((s_p, lambda x: x - u * delta))
    elif kind == "angle":
        p, q, r = pos
        current = angle(p, q, r)
        n = np.cross(p - q, r - q)
        if np.linalg.norm(n) < 1e-6:
            n = perpendicular(p - q if np.linalg.norm(p - q) > 1e-9 else r - q)
        delta = target - current
        rot_r = rotation_matrix(n, delta)
        rot_p = rotation_matrix(n, -delta)
        s_r = side(ids[1], ids[2])
        s_p = side(ids[1], ids[0])
        if s_r is not None and ids[0] not in s_r:
            cands.append((s_r, lambda x: q + rot_r @ (x - q)))
        if s_p is not None and ids[2] not in s_p:
            cands.append((s_p, lambda x: q + rot_p @ (x - q)))
    else:
        p, q, r, s = pos
        if not dihedral_defined(p, q, r, s):
            raise ValidationError("undefined_dihedral", ids=list(ids))
        current = dihedral(p, q, r, s)
        delta = target - current
        axis = r - q
        if np.linalg.norm(axis) < 1e-9:
            raise ValidationError("undefined_dihedral", ids=list(ids))
        rot_s = rotation_matrix(axis, delta)
        rot_p = rotation_matrix(axis, -delta)
        axis_atoms = {ids[1], ids[2]}
        s_r = side(ids[1], ids[2])
        s_q = side(ids[2], ids[1])
        if s_r is not None and ids[0] not in s_r:
            cands.append((s_r, lambda x: r + rot_s @ (x - r)))
        if s_q is not None and ids[3] not in s_q:
            cands.append((s_q, lambda x: q + rot_p @ (x - q)))
    if not cands:
        if errors:
            raise errors[0]
        raise ValidationError("not_separable", a=ids[0], b=ids[-1])
    moving, fn = _choose_side(cands, index, axis_atoms)
    moved: list[str] = []
    for aid in sorted(moving, key=_idnum):
        if aid in axis_atoms:
            continue  # on the rotation axis: its position does not change
        atom = index[aid]
        new = fn(_xyz(atom))
        if not np.all(np.isfinite(new)) or float(np.max(np.abs(new))) > _MAX_COORD:
            raise ValidationError("bad_coordinate", id=aid, value=[float(c) for c in new])
        _set_xyz(atom, new)
        moved.append(aid)
    # Only positions changed, and they were checked here: the document checks contacts.
    return EditResult(
        changed=moved,
        touched=moved,
        coords_only=True,
        info={
            "coordinate": kind,
            "from": round(current, 6),
            "to": round(target, 6),
            "moved": len(moved),
        },
    )


# ---------------------------------------------------------------------------------------------
# Hydrogens


def _h_length(atom: AtomDict, orders: Sequence[tuple[str, int]]) -> float:
    sym = atom["element"]
    if sym == "C":
        top = max((o for _n, o in orders), default=1)
        return {1: 1.09, 2: 1.08, 3: 1.06}.get(top, 1.09)
    return bond_length(sym, "H", 1)


def add_hydrogens(work: Project, ids: list[str] | None = None) -> EditResult:
    """Fill open valences of all atoms (or of ``ids``) with hydrogen at VSEPR positions.

    The number of hydrogens comes from RDKit's valence model (bond orders, formal
    charges, unpaired electrons); their directions from the electron domains of
    the atom (sp3 109.5°, sp2 120°, sp 180°; a second sp3 centre is staggered
    and a double bond stays planar). Saturated atoms, hydrogen atoms and metals
    get none.

    Raises:
        UnknownAtomError: an id not in the project.
    """
    index = _index(work)
    if ids is not None:
        for i in ids:
            _get(index, i)
        wanted = list(dict.fromkeys(ids))
    else:
        wanted = [a["id"] for a in _atoms(work)]
    need = missing_hydrogens(work)
    added: list[str] = []
    orders = _bond_orders(work)
    env = _Environment(work)
    for aid in wanted:
        count = need.get(aid, 0)
        if count <= 0:
            continue
        added += _add_h_to(work, index, orders, env, index[aid], count)
    return EditResult(added=added, touched=added, info={"hydrogens": len(added)})


def _add_h_to(
    work: Project,
    index: dict[str, AtomDict],
    orders: dict[str, list[tuple[str, int]]],
    env: _Environment,
    atom: AtomDict,
    count: int,
) -> list[str]:
    center = _xyz(atom)
    my = orders[atom["id"]]
    nbs = [index[n] for n, _o in my]
    existing = [unit(_xyz(n) - center) for n in nbs]
    steric = _steric_number(atom, my, index, count, orders)
    steric = max(steric, len(existing) + count)
    ref = None
    if len(nbs) == 1:
        ref = _twist_reference(atom, nbs[0], orders, index)
    dirs = free_directions(existing, steric, reference=ref)
    if len(dirs) < count:  # odd geometry: spread the rest evenly
        dirs = free_directions(existing, len(existing) + count)
    length = _h_length(atom, my)
    if len(dirs) > count:
        env_xyz, env_el = env.near(center, length + 4.0, {atom["id"]})
        best: tuple[float, int, tuple[int, ...]] | None = None
        for rank, combo in enumerate(itertools.combinations(range(len(dirs)), count)):
            pts = np.array([center + dirs[i] * length for i in combo])
            score = _clash_score(pts, ["H"] * count, env_xyz, env_el)
            if best is None or score < best[0] - 1e-9:
                best = (score, rank, combo)
        assert best is not None
        chosen = [dirs[i] for i in best[2]]
    else:
        chosen = dirs[:count]
    new_ids = []
    for d in chosen:
        hid = _next_id(work)
        xyz = center + d * length
        h = new_atom(hid, "H", *xyz)
        _atoms(work).append(h)
        work["document"]["bonds"].append({"a": atom["id"], "b": hid, "order": 1})
        index[hid] = h
        env.add(hid, "H", xyz)
        orders[atom["id"]].append((hid, 1))
        orders[hid] = [(atom["id"], 1)]
        new_ids.append(hid)
    return new_ids


# ---------------------------------------------------------------------------------------------
# Fragments and ligands


def _site_candidates(
    work: Project,
    index: dict[str, AtomDict],
    orders: dict[str, list[tuple[str, int]]],
    site: AtomDict,
) -> list[tuple[np.ndarray, str | None]]:
    """(unit direction from the site, id of the hydrogen it replaces or None)."""
    center = _xyz(site)
    my = orders[site["id"]]
    metal = is_metal(site["element"])
    out: list[tuple[np.ndarray, str | None]] = []
    for nb, _o in my:
        h = index[nb]
        if h["element"] == "H" and len(orders[nb]) == 1 and not h.get("fixed"):
            d = _xyz(h) - center
            if np.linalg.norm(d) > 1e-6:
                out.append((unit(d), nb))
    # On a metal a hydride is a ligand like any other: an open coordination site comes first.
    if out and not (metal and len(my) < 6):
        return out
    existing = [unit(_xyz(index[n]) - center) for n, _o in my]
    if metal:
        if len(my) >= 8:
            if out:
                return out
            raise ValidationError("no_free_site", id=site["id"], element=site["element"])
        steric = 6 if len(my) < 6 else len(my) + 1
    else:
        open_valence = missing_hydrogens(work).get(site["id"], 0)
        if open_valence <= 0:
            raise ValidationError("no_free_site", id=site["id"], element=site["element"])
        # Every open valence is a bond to come, so all of them count as domains.
        steric = max(_steric_number(site, my, index, open_valence, orders), len(my) + 1)
    ref = None
    if len(my) == 1:
        ref = _twist_reference(site, index[my[0][0]], orders, index)
    dirs = free_directions(existing, steric, reference=ref)
    if not dirs:
        dirs = free_directions(existing, len(existing) + 1)
    return [(d, None) for d in dirs]


def _fragment_plane_normal(entry: Mapping[str, Any], frag: np.ndarray) -> np.ndarray | None:
    """Normal of the π plane at a fragment's attachment atom, or None when it has none."""
    attach = int(entry["attachment"])
    nbs = [j if i == attach else i for i, j, _o in entry["bonds"] if attach in (i, j)]
    if not any(o > 1 for i, j, o in entry["bonds"] if attach in (i, j)) or len(nbs) < 2:
        return None
    n = np.cross(frag[nbs[0]] - frag[attach], frag[nbs[1]] - frag[attach])
    return unit(n) if np.linalg.norm(n) > 1e-6 else None


def _site_plane_normal(
    index: Mapping[str, AtomDict],
    orders: Mapping[str, Sequence[tuple[str, int]]],
    site: AtomDict,
    replaced: str | None,
) -> np.ndarray | None:
    """Normal of the plane of the site's remaining neighbours (needs two of them)."""
    c = _xyz(site)
    nbs = [_xyz(index[n]) - c for n, _o in orders[site["id"]] if n != replaced]
    if len(nbs) < 2:
        return None
    n = np.cross(nbs[0], nbs[1])
    return unit(n) if np.linalg.norm(n) > 1e-6 else None


def _tilted(direction: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The ideal direction first, then directions bent by :data:`_TILTS` degrees around it."""
    out = [(direction, 0.0)]
    u = perpendicular(direction)
    for tilt in _TILTS:
        for k in range(6):
            axis = rotation_matrix(direction, 60.0 * k) @ u
            out.append((unit(rotation_matrix(axis, tilt) @ direction), tilt))
    return out


def _find_entry(name: str, kind: str | None) -> tuple[str, dict[str, Any]]:
    if kind not in (None, "fragment", "ligand"):
        raise ValidationError("bad_fragment_kind", kind=kind)
    if not isinstance(name, str) or not name:
        raise ValidationError("unknown_fragment", name=name, kind=kind or "fragment", known="")
    found = catalog.find_library_entry(name, kind)
    if found is None:
        kinds = ("fragments", "ligands") if kind is None else (f"{kind}s",)
        known = [e["name"] for k in kinds for e in catalog.get_catalog(k)[k]]
        raise ValidationError(
            "unknown_fragment", name=name, kind=kind or "fragment/ligand", known=", ".join(known)
        )
    return found


def place_fragment(
    work: Project, name: str, site: str, *, kind: Literal["fragment", "ligand"] | None = None
) -> EditResult:
    """Bond a library fragment or ligand to a free site of atom ``site``.

    A hydrogen on the site is replaced (on a metal only when its six octahedral
    sites are taken; the attachment atom takes the hydrogen's direction;
    when there are several, the one giving the fewest clashes; a terminal hydrogen
    given as ``site`` is itself the one replaced); otherwise the best
    free VSEPR direction is used (an octahedral site for metals). The bond length
    comes from typical lengths/covalent radii, and the part is turned about the
    new bond to the orientation with the fewest clashes. Ligand donor atoms bond
    to metals; their formal charges (Cl⁻, CN⁻…) come with them and ``info``
    reports the charge the ligand adds, which the molecule's charge does not
    follow by itself.

    Raises:
        UnknownAtomError, ValidationError (``unknown_fragment``, ``bad_fragment_kind``,
        ``no_free_site``).
    """
    found_kind, entry = _find_entry(name, kind)
    index = _index(work)
    site_atom = _get(index, site)
    orders = _bond_orders(work)
    if site_atom["element"] == "H" and len(orders[site]) == 1 and not site_atom.get("fixed"):
        # A terminal hydrogen names the site it occupies: replace exactly that one.
        h_id: str | None = site
        h_xyz = _xyz(index[site])
        site_atom = index[orders[site][0][0]]
        site = site_atom["id"]
        cands: list[tuple[np.ndarray, str | None]] = [(unit(h_xyz - _xyz(site_atom)), h_id)]
    else:
        cands = _site_candidates(work, index, orders, site_atom)
    frag = xyz_array(entry["atoms"])
    attach = int(entry["attachment"])
    frag = frag - frag[attach]
    felems = [a["element"] for a in entry["atoms"]]
    to_site = unit(np.asarray(entry["dummy"], dtype=float) - frag[attach])
    unsaturated = int(any(o > 1 for _n, o in orders[site])) + int(
        any(o > 1 and attach in (i, j) for i, j, o in entry["bonds"])
    )
    length = bond_length(site_atom["element"], felems[attach], 1, unsaturated)
    center = _xyz(site_atom)
    extent = float(np.max(np.linalg.norm(frag, axis=1))) if len(frag) else 0.0
    steps = round(360.0 / _FRAGMENT_TWIST_STEP) if len(frag) > 1 else 1
    twists = np.stack(
        [rotation_matrix([0.0, 0.0, 1.0], k * _FRAGMENT_TWIST_STEP) for k in range(steps)]
    )
    frad = np.array([elements.vdw_radius(e) for e in felems])
    site_rad = elements.vdw_radius(site_atom["element"])
    frag_normal = _fragment_plane_normal(entry, frag)
    site_pi = any(o > 1 for _n, o in orders[site])
    conjugated = frag_normal is not None and site_pi
    best: tuple[float, np.ndarray, str | None] | None = None
    env = _Environment(work)
    for ideal, h_id in cands:
        exclude = {site_atom["id"]} | ({h_id} if h_id else set())
        env_xyz, env_el, env_ids = env.near_ids(center, length + extent + 4.0, exclude)
        env_rad = np.array([elements.vdw_radius(e) for e in env_el])
        # The site itself joins the environment for every fragment atom but the attachment.
        env_xyz = np.vstack([env_xyz, center[None, :]])
        env_rad = np.append(env_rad, site_rad)
        mask = np.ones((len(frag), len(env_xyz)))
        mask[attach, -1] = 0.0
        # The attachment atom and the site's neighbours are 1,3 to each other: their
        # distance is set by the bond angle, not by the orientation.
        site_nbs = {n for n, _o in orders[site]}
        for col, eid in enumerate(env_ids):
            if eid in site_nbs:
                mask[attach, col] = 0.0
        limit = _CLASH_FACTOR * (frad[:, None] + env_rad[None, :])
        site_normal = _site_plane_normal(index, orders, site_atom, h_id) if conjugated else None
        for direction, tilt in _tilted(ideal):
            # Frame: the new bond along z, so the twists are rotations about z.
            to_z = align_vectors(to_site, [0.0, 0.0, -1.0])
            from_z = align_vectors([0.0, 0.0, 1.0], direction)
            origin = center + direction * length
            local = frag @ to_z.T
            rots = from_z @ twists
            pts = origin + np.einsum("kij,nj->kni", rots, local)
            d = np.linalg.norm(pts[:, :, None, :] - env_xyz[None, None, :, :], axis=3)
            over = np.clip(limit[None] - d, 0.0, None) * mask[None]
            scores = np.sum(over * over, axis=(1, 2)) + _TILT_PENALTY * tilt
            # Weak long-range repulsion: among clash-free twists, staggered beats eclipsed.
            scores += _SOFT_WEIGHT * np.sum(mask[None] / np.maximum(d, 0.5) ** 6, axis=(1, 2))
            if site_normal is not None and frag_normal is not None:
                # A π system next to a π system prefers one plane (styrene, nitrobenzene).
                normals = np.einsum("kij,j->ki", rots, to_z @ frag_normal)
                scores += _CONJUGATION_WEIGHT * (1.0 - (normals @ site_normal) ** 2)
            k = int(np.argmin(scores))
            if best is None or scores[k] < best[0] - 1e-9:
                best = (float(scores[k]), pts[k], h_id)
    assert best is not None
    _score, pts, h_id = best
    removed: list[str] = []
    if h_id is not None:
        work["document"]["atoms"] = [a for a in _atoms(work) if a["id"] != h_id]
        work["document"]["bonds"] = [
            b for b in work["document"]["bonds"] if h_id not in (b["a"], b["b"])
        ]
        removed.append(h_id)
    new_ids: list[str] = []
    for fa, xyz in zip(entry["atoms"], pts, strict=True):
        aid = _next_id(work)
        _atoms(work).append(
            new_atom(aid, fa["element"], *xyz, formalCharge=int(fa.get("formalCharge", 0)))
        )
        new_ids.append(aid)
    bonds = work["document"]["bonds"]
    for i, j, order in entry["bonds"]:
        bonds.append({"a": new_ids[i], "b": new_ids[j], "order": int(order)})
    bonds.append({"a": site, "b": new_ids[attach], "order": 1})
    charge = sum(int(a.get("formalCharge", 0)) for a in entry["atoms"])
    return EditResult(
        added=new_ids,
        removed=removed,
        touched=new_ids,
        info={
            "kind": found_kind,
            "name": entry["name"],
            "attachment": new_ids[attach],
            "replaced": h_id,
            "chargeChange": charge,
        },
    )


# ---------------------------------------------------------------------------------------------
# Measurements


def measure(
    project: Project,
    *,
    distances: Sequence[Sequence[str]] = (),
    angles: Sequence[Sequence[str]] = (),
    dihedrals: Sequence[Sequence[str]] = (),
) -> dict[str, Any]:
    """Distances (Å), angles and dihedrals (degrees, -180..180) between atoms given by id.

    Returns ``{"distances": [{"ids", "value", "unit"}], "angles": [...], "dihedrals": [...]}``.

    Raises:
        UnknownAtomError, ValidationError (``bad_measure_ids``, ``undefined_dihedral``).
    """
    index = _index(project)
    out: dict[str, Any] = {"distances": [], "angles": [], "dihedrals": []}
    for key, groups, n, fn, unit_name in (
        ("distances", distances, 2, distance, "angstrom"),
        ("angles", angles, 3, angle, "degree"),
        ("dihedrals", dihedrals, 4, dihedral, "degree"),
    ):
        for g in groups:
            ids = [str(i) for i in g] if isinstance(g, list | tuple) else []
            if len(ids) != n or len(set(ids)) != n:
                raise ValidationError(
                    "bad_measure_ids",
                    kind=key[:-1],
                    expected=n,
                    ids=list(g) if isinstance(g, list | tuple) else g,
                )
            pts = [_xyz(_get(index, i)) for i in ids]
            if n == 4 and not dihedral_defined(pts[0], pts[1], pts[2], pts[3], tol_deg=0.01):
                raise ValidationError("undefined_dihedral", ids=ids)
            out[key].append({"ids": ids, "value": round(float(fn(*pts)), 6), "unit": unit_name})
    return out
