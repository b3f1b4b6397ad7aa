"""Building rules of the editor: where a bonded atom goes, and hydrogens that follow edits
(no Qt).

Like the edit functions of :mod:`molforma.document.chemistry`, these change ``work``
(a private copy of the project) in place and return an
:class:`~molforma.document.document.EditResult`; :mod:`molforma.app.ops` wraps
them as document operations.

* A new atom bonded to a parent goes where the parent's hybridisation puts its next
  bond: the VSEPR domains of the parent counted as if its open valences were already
  filled with hydrogen (sp3 109.5°, sp2 120°, sp 180°), anti to a substituent of the
  neighbour (zig-zag chains), on the free position with the fewest clashes.
* "Adjust hydrogens" (Avogadro's option of the same name): after an edit, every
  atom it touched carries exactly the terminal hydrogens its valence leaves open.
  An atom whose count changes gets all its terminal hydrogens placed afresh, so an
  ethane carbon turned into an ethylene carbon ends up trigonal, not tetrahedral.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from molforma.document import elements
from molforma.document.chemistry import _add_h_to
from molforma.document.document import EditResult
from molforma.document.envelope import Project, check_atom_fields, new_atom
from molforma.document.geometry import free_directions, unit
from molforma.document.valence import (
    _bond_orders,
    _clash_score,
    _Environment,
    _steric_number,
    _twist_reference,
    bond_length,
    is_metal,
    missing_hydrogens,
    valence_exceeded_ids,
)
from molforma.errors import UnknownAtomError

AtomDict = dict[str, Any]


def _index(work: Project) -> dict[str, AtomDict]:
    return {a["id"]: a for a in work["document"]["atoms"]}


def _xyz(a: AtomDict) -> np.ndarray:
    return np.array([float(a["x"]), float(a["y"]), float(a["z"])])


def _terminal_hydrogens(
    index: dict[str, AtomDict], orders: dict[str, list[tuple[str, int]]], aid: str
) -> list[str]:
    return [
        n
        for n, _o in orders.get(aid, ())
        if index[n]["element"] == "H" and len(orders.get(n, ())) == 1
    ]


def _local_missing(
    work: Project, ids: Iterable[str], without: set[str] | frozenset[str] = frozenset()
) -> dict[str, int]:
    """:func:`missing_hydrogens` of ``ids`` only, from a sub-project of them and their
    neighbours (an atom's open valence depends only on its own bonds), leaving out the
    atoms ``without``: linear in the neighbourhood, not in the molecule."""
    want = set(ids)
    keep = set(want)
    bonds = work["document"]["bonds"]
    for b in bonds:
        if b["a"] in want:
            keep.add(b["b"])
        if b["b"] in want:
            keep.add(b["a"])
    keep -= set(without)
    sub = {
        "document": {
            "atoms": [a for a in work["document"]["atoms"] if a["id"] in keep],
            "bonds": [b for b in bonds if b["a"] in keep and b["b"] in keep],
        }
    }
    need = missing_hydrogens(sub)
    return {i: n for i, n in need.items() if i in want}


def bonded_direction(
    work: Project, parent_id: str, element: str, *, hint: Sequence[float] | None = None
) -> np.ndarray:
    """Unit vector from atom ``parent_id`` to a new single-bonded atom of ``element``.

    ``hint`` is used for a parent without neighbours (the window passes "to the
    right on screen").

    Raises:
        UnknownAtomError: ``parent_id`` is not in the project.
    """
    index = _index(work)
    parent = index.get(parent_id)
    if parent is None:
        raise UnknownAtomError(id=parent_id)
    orders = _bond_orders(work)
    mine = orders[parent_id]
    centre = _xyz(parent)
    existing = [
        unit(_xyz(index[n]) - centre)
        for n, _o in mine
        if np.linalg.norm(_xyz(index[n]) - centre) > 1e-6
    ]
    if not existing and hint is not None and np.linalg.norm(np.asarray(hint, float)) > 1e-9:
        return unit(np.asarray(hint, float))
    # The hydrogens the parent will still need once this bond exists count as domains:
    # that is what makes a chain carbon tetrahedral rather than linear.
    still_open = max(_local_missing(work, [parent_id]).get(parent_id, 0) - 1, 0)
    steric = _steric_number(parent, mine, index, 1 + still_open, orders)
    steric = max(steric, len(existing) + 1)
    ref = None
    if len(mine) == 1:
        ref = _twist_reference(parent, index[mine[0][0]], orders, index)
    dirs = free_directions(existing, steric, reference=ref)
    if not dirs:
        dirs = free_directions(existing, len(existing) + 1)
    length = bond_length(parent["element"], element, 1)
    env = _Environment(work)
    env_xyz, env_el = env.near(centre, length + 4.0, {parent_id})
    best, best_score = dirs[0], None
    for d in dirs:
        score = _clash_score(np.array([centre + d * length]), [element], env_xyz, env_el)
        if best_score is None or score < best_score - 1e-9:
            best, best_score = d, score
    return unit(best)


def add_bonded_atom(
    work: Project,
    parent_id: str,
    element: str,
    *,
    adjust: bool = True,
    hint: Sequence[float] | None = None,
    toward: Sequence[float] | None = None,
) -> EditResult:
    """Add an atom of ``element`` single-bonded to ``parent_id`` at the typical bond length.

    With ``adjust``, a heavy atom takes the place of one of the parent's terminal
    hydrogens (as in Avogadro: clicking a methane carbon gives ethane), and then the
    hydrogens of the parent and the new atom are adjusted.

    ``toward`` is a direction the person drew (a drag from the parent): the new atom goes
    that way, and the hydrogen it replaces is the one pointing most nearly that way.
    """
    index = _index(work)
    parent = index.get(parent_id)
    if parent is None:
        raise UnknownAtomError(id=parent_id)
    centre = _xyz(parent)
    removed: list[str] = []
    direction = None
    drawn = None
    if toward is not None and np.linalg.norm(np.asarray(toward, float)) > 1e-9:
        drawn = unit(np.asarray(toward, float))
    if adjust and element != "H":
        orders = _bond_orders(work)
        hs = [h for h in _terminal_hydrogens(index, orders, parent_id) if not index[h].get("fixed")]
        if hs:
            if drawn is not None:
                h = max(hs, key=lambda i: float(unit(_xyz(index[i]) - centre) @ drawn))
            else:
                h = max(hs, key=lambda i: int(i[1:]) if i[1:].isdigit() else 0)
            direction = unit(_xyz(index[h]) - centre)
            _remove(work, {h})
            removed.append(h)
    if drawn is not None:
        direction = drawn
    if direction is None:
        direction = bonded_direction(work, parent_id, element, hint=hint)
    xyz = centre + direction * bond_length(parent["element"], element, 1)
    doc = work["document"]
    n = int(doc.get("nextAtomId", 1))
    doc["nextAtomId"] = n + 1
    new_id = f"a{n}"
    atom = new_atom(new_id, element, *xyz)
    check_atom_fields(atom)
    doc["atoms"].append(atom)
    doc["bonds"].append({"a": parent_id, "b": new_id, "order": 1})
    res = EditResult(added=[new_id], removed=removed, changed=[parent_id], touched=[new_id])
    if adjust:
        res = merge_adjusted(work, res, [new_id, parent_id])
    return res


def change_element(work: Project, atom_id: str, element: str, *, adjust: bool = True) -> EditResult:
    """Turn atom ``atom_id`` into ``element`` (the Add-atom tool clicked on a hydrogen,
    as in Avogadro: a methane H clicked with carbon gives ethane).

    A terminal atom moves along its one bond to the typical length for the new element
    (an H turned into C sits 1.54 Å from its carbon, not 1.09 Å). With ``adjust`` the
    atom and its neighbour get the hydrogens their valences leave open.

    Raises:
        UnknownAtomError: ``atom_id`` is not in the project.
    """
    index = _index(work)
    atom = index.get(atom_id)
    if atom is None:
        raise UnknownAtomError(id=atom_id)
    orders = _bond_orders(work)
    mine = orders.get(atom_id, [])
    if element != atom["element"]:
        atom["massNumber"] = None
        atom["mass"] = None
    atom["element"] = element
    if len(mine) == 1 and not atom.get("fixed"):
        parent = index[mine[0][0]]
        centre = _xyz(parent)
        d = _xyz(atom) - centre
        if np.linalg.norm(d) > 1e-6:
            x, y, z = centre + unit(d) * bond_length(parent["element"], element, mine[0][1])
            atom["x"], atom["y"], atom["z"] = float(x), float(y), float(z)
    check_atom_fields(atom)
    res = EditResult(changed=[atom_id], touched=[atom_id])
    if adjust:
        res = merge_adjusted(work, res, [atom_id, *(n for n, _o in mine)])
    return res


def _remove(work: Project, gone: set[str]) -> None:
    d = work["document"]
    d["atoms"] = [a for a in d["atoms"] if a["id"] not in gone]
    d["bonds"] = [b for b in d["bonds"] if b["a"] not in gone and b["b"] not in gone]


def adjust_hydrogens(work: Project, ids: Iterable[str]) -> EditResult:
    """Give each main-group heavy atom of ``ids`` the terminal hydrogens its valence leaves
    open (bond orders, formal charge, unpaired electrons).

    Atoms whose count is already right are left alone (ids and positions kept); the
    others lose all their terminal hydrogens and get the right number at VSEPR
    positions. An atom with a fixed hydrogen is left as the person fixed it.
    """
    index = _index(work)
    orders = _bond_orders(work)
    heavy = [
        i
        for i in dict.fromkeys(ids)
        if i in index and index[i]["element"] != "H" and not is_metal(index[i]["element"])
    ]
    strip = {aid: _terminal_hydrogens(index, orders, aid) for aid in heavy}
    heavy = [aid for aid in heavy if not any(index[h].get("fixed") for h in strip[aid])]
    if not heavy:
        return EditResult(added=[], removed=[], touched=[])
    every_h = {h for aid in heavy for h in strip[aid]}
    need = _local_missing(work, heavy, without=every_h)
    redo = [aid for aid in heavy if need.get(aid, 0) != len(strip[aid])]
    gone = {h for aid in redo for h in strip[aid]}
    if gone:
        _remove(work, gone)
    added: list[str] = []
    if redo:
        index = _index(work)
        orders = _bond_orders(work)
        env = _Environment(work)
        for aid in redo:
            if need.get(aid, 0) > 0:
                added += _add_h_to(work, index, orders, env, index[aid], need[aid])
    return EditResult(added=added, removed=sorted(gone, key=_idnum), touched=added)


def merge_adjusted(
    work: Project,
    res: EditResult,
    ids: Iterable[str],
    *,
    adjust: Callable[[Project, list[str]], EditResult] | None = None,
) -> EditResult:
    """``res`` followed by :func:`adjust_hydrogens` of ``ids`` (or ``adjust``, the same on
    the column tables), as one result."""
    extra = (adjust or adjust_hydrogens)(work, [i for i in ids if i not in set(res.removed)])
    gone = set(extra.removed)
    new_in_edit = set(res.added)
    touched = (
        None if res.touched is None else [i for i in res.touched if i not in gone] + extra.added
    )
    return EditResult(
        added=[i for i in res.added if i not in gone] + extra.added,
        removed=res.removed + [i for i in extra.removed if i not in new_in_edit],
        changed=[i for i in res.changed if i not in gone],
        touched=touched,
        structure=True,
        coords_only=False,
        info=res.info,
    )


def neighbours(work: Project, ids: Iterable[str]) -> list[str]:
    """Atoms bonded to any of ``ids`` and not among them."""
    want = set(ids)
    out: list[str] = []
    for b in work["document"]["bonds"]:
        for x, y in ((b["a"], b["b"]), (b["b"], b["a"])):
            if x in want and y not in want:
                out.append(y)
    return list(dict.fromkeys(out))


def hydrogens_of(work: Project, ids: Iterable[str]) -> list[str]:
    """Terminal hydrogens bonded to the heavy atoms among ``ids`` (they go with them)."""
    index = _index(work)
    orders = _bond_orders(work)
    out: list[str] = []
    for aid in ids:
        if aid in index and index[aid]["element"] != "H":
            out += _terminal_hydrogens(index, orders, aid)
    return list(dict.fromkeys(out))


def valence_problem_ids(project: Project) -> list[str]:
    """Ids of main-group atoms with more bonds than any valence allows (what
    ``validate_document`` reports as ``valence_exceeded``).

    The window asks after every edit, so atoms that are plainly fine (neutral, no
    unpaired electrons, bond orders summing to at most the element's default valence)
    are settled here; only the rest, with their neighbours, go to RDKit's check.
    """
    atoms = project["document"]["atoms"]
    if not atoms:
        return []
    # One look-up per element, not per atom: the check runs on every edit of a
    # 10,000-atom document (and RDKit is asked about the suspicious atoms only).
    symbols = {a["element"] for a in atoms}
    metals = {el for el in symbols if is_metal(el)}
    default = {el: elements.default_valence(el) for el in symbols - metals}
    # Bonds count between two known non-metal atoms only.
    counted = {a["id"] for a in atoms if a["element"] not in metals}
    bonds = [b for b in project["document"]["bonds"] if b["a"] in counted and b["b"] in counted]
    total: dict[str, int] = {}
    for b in bonds:
        order = int(b.get("order", 1))
        total[b["a"]] = total.get(b["a"], 0) + order
        total[b["b"]] = total.get(b["b"], 0) + order
    suspicious: list[str] = []
    for a in atoms:
        el = a["element"]
        if el in metals:
            continue
        if (
            a.get("formalCharge")
            or a.get("unpairedElectrons")
            or (default[el] >= 0 and total.get(a["id"], 0) > default[el])
        ):
            suspicious.append(a["id"])
    if not suspicious:
        return []
    flagged = set(suspicious)
    keep = set(suspicious)
    for b in bonds:
        if b["a"] in flagged or b["b"] in flagged:
            keep.update((b["a"], b["b"]))
    sub = {
        "document": {
            "atoms": [a for a in atoms if a["id"] in keep],
            "bonds": [b for b in project["document"]["bonds"] if b["a"] in keep and b["b"] in keep],
        }
    }
    return [i for i in valence_exceeded_ids(sub) if i in flagged]


def _idnum(aid: str) -> int:
    return int(aid[1:]) if aid[1:].isdigit() else 0


def placement_problems(
    before: Project, after: Project, site: str, kind: str | None
) -> dict[str, list[str]]:
    """What a fragment or ligand placed on ``site`` got wrong, for a warning.

    ``not_a_metal``: a ligand put on an atom that is not a metal (an NH3 on another
    ligand's N makes an N–N chain); ``valence``: atoms whose valence became impossible
    with the placement (they were fine before).
    """
    out: dict[str, list[str]] = {}
    element = next((a["element"] for a in before["document"]["atoms"] if a["id"] == site), None)
    if kind == "ligand" and element is not None and not is_metal(str(element)):
        out["not_a_metal"] = [site]
    worse = set(valence_problem_ids(after)) - set(valence_problem_ids(before))
    if worse:
        order = {a["id"]: k for k, a in enumerate(after["document"]["atoms"])}
        out["valence"] = sorted(worse, key=lambda i: order.get(i, 0))
    return out


def metal_ids(project: Project) -> list[str]:
    """Ids of the metal atoms, in document order (places a ligand can go)."""
    return [a["id"] for a in project["document"]["atoms"] if is_metal(str(a["element"]))]
