"""One entry point per document tool, shared by the window and the MCP server (no Qt;
application layer).

Each edit operation checks its arguments, builds a small edit function and hands
it to :meth:`Document.edit`, which runs it on a private copy, checks the result
and makes it the candidate (``preview=True``) or applies it as one undo step.
A failure anywhere changes nothing. ``actor`` says who asks (the person at the window,
an MCP tool, a window command of MCP); its origin is recorded on the edit and decides
trust (docs/reference/safety.md, Trusted values).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from molforma.app.actor import Actor
from molforma.app.building_ops import (
    _adjusted,
    _index,
    _need,
    add_bonded_atom,
    add_hydrogens,
    change_element,
    draw_from_atom,
    place_fragment,
    set_internal_coordinate,
)
from molforma.app.computed_structures import use_results_structure, use_structure
from molforma.app.document_checks import get_catalog, measure, validate_document
from molforma.app.document_files import export_document, import_document, save_project
from molforma.app.document_files import (  # the document-level form of the one open
    open_file_into as open_file,
)
from molforma.app.document_settings import (
    get_execution,
    set_advanced,
    set_execution,
    set_molecule,
    set_nwchem,
)
from molforma.app.edit_paths import edit_on
from molforma.document.coordinates import xyz_array
from molforma.document.document import Document, EditResult, first_ids
from molforma.document.elements import normalize_symbol
from molforma.document.envelope import (
    MAX_ATOMS,
    Project,
    atoms_of,
    bonds_of,
    check_atom_fields,
    new_atom,
)
from molforma.document.geometry import rotation_matrix
from molforma.document.tabletypes import is_atom_table
from molforma.errors import (
    UnknownAtomError,
    ValidationError,
)
from molforma.formats.computed import (
    Vec,
)
from molforma.formats.computed import checked_vector as _vec
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.document import building, table_edits
else:  # imported on first use (start-up time): molforma.lazy
    building = lazy_import("molforma.document.building")
    table_edits = lazy_import("molforma.document.table_edits")

ATOM_PROPS = ("element", "name", "formalCharge", "unpairedElectrons", "massNumber", "mass", "fixed")


_FIXED = itemgetter("fixed")


def _next_id(work: Project) -> str:
    doc = work["document"]
    n = int(doc["nextAtomId"])
    doc["nextAtomId"] = n + 1
    return f"a{n}"


# ---------------------------------------------------------------------------------------------
# Undo, redo, confirm, cancel


def history_step(
    doc: Document,
    action: str,
    *,
    expected_revision: str | None = None,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """One step of the undo history or of the candidate: ``undo``, ``redo``, ``confirm`` or
    ``cancel`` (the ``history`` tool; not History, the past calculations). ``actor`` says
    who asks; its origin is recorded on a confirm."""
    if action == "undo":
        return doc.undo(expected_revision=expected_revision)
    if action == "redo":
        return doc.redo(expected_revision=expected_revision)
    if action == "confirm":
        return doc.confirm(expected_revision=expected_revision, origin=actor.origin)
    if action == "cancel":
        return doc.cancel(expected_revision=expected_revision)
    raise ValidationError("unknown_history_action", action=action)


# ---------------------------------------------------------------------------------------------
# Atoms and bonds


def add_atoms(
    doc: Document,
    atoms: Sequence[Mapping[str, Any]],
    bonds: Sequence[Mapping[str, Any]] = (),
    *,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
    adjust_hydrogens: bool = False,
) -> dict[str, Any]:
    """Add atoms (element + position + optional properties) and bonds.

    A bond end is an existing atom id or ``"#k"``, the k-th atom of this call (0-based).
    ``adjust_hydrogens`` then gives the new atoms and their bond partners the hydrogens
    their valences leave open (:func:`molforma.document.building.adjust_hydrogens`).
    """
    if not atoms:
        raise ValidationError("empty_edit", detail="no atoms given")
    have = len(atoms_of(doc.project))
    if have + len(atoms) > MAX_ATOMS:  # refused before a million records are copied
        raise ValidationError("too_many_atoms", count=have + len(atoms), max=MAX_ATOMS)

    def fn(work: Project) -> EditResult:
        new_ids: list[str] = []
        lst = atoms_of(work)
        for spec in atoms:
            pos = spec.get("position")
            xyz = _vec(
                pos if pos is not None else (spec.get("x"), spec.get("y"), spec.get("z")),
                "position",
            )
            props = {k: spec[k] for k in ATOM_PROPS if k in spec and k != "element"}
            unknown = set(spec) - set(ATOM_PROPS) - {"position", "x", "y", "z"}
            if unknown:
                raise ValidationError(
                    "invalid_argument", detail=f"unknown atom keys {sorted(unknown)}"
                )
            el = normalize_symbol(str(spec.get("element", ""))) or str(spec.get("element", ""))
            # checked under its place in the call: a refused atom never had an id
            atom = new_atom(f"#{len(new_ids)}", el, *xyz, **props)
            check_atom_fields(atom)
            atom["id"] = _next_id(work)
            lst.append(atom)
            new_ids.append(atom["id"])
        index = _index(work)

        def ref(r: Any) -> str:
            if isinstance(r, str) and r.startswith("#"):
                try:
                    return new_ids[int(r[1:])]
                except (ValueError, IndexError) as exc:
                    raise ValidationError("bad_new_atom_ref", ref=r, last=len(new_ids) - 1) from exc
            if r not in index:
                raise UnknownAtomError(id=r)
            return str(r)

        partners: list[str] = []
        for b in bonds:
            bonds_of(work).append(
                {"a": ref(b.get("a")), "b": ref(b.get("b")), "order": b.get("order", 1)}
            )
            partners += [bonds_of(work)[-1]["a"], bonds_of(work)[-1]["b"]]
        res = EditResult(added=new_ids, touched=new_ids)
        return _adjusted(work, res, new_ids + partners) if adjust_hydrogens else res

    # on the columns (without hydrogens): the old columns are copied once into longer
    # ones, no record made
    return edit_on(
        doc,
        "Add atoms",
        fn,
        None
        if adjust_hydrogens
        else lambda work: table_edits.add_atoms(work, _new_records(atoms), bonds),
        expected_revision=expected_revision,
        preview=preview,
        actor=actor,
    )


def _new_records(atoms: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The atom dicts of add_atoms' arguments, each checked under its place in the call
    (``#k``: a refused atom never had an id)."""
    out = []
    for k, spec in enumerate(atoms):
        pos = spec.get("position")
        xyz = _vec(
            pos if pos is not None else (spec.get("x"), spec.get("y"), spec.get("z")), "position"
        )
        props = {key: spec[key] for key in ATOM_PROPS if key in spec and key != "element"}
        unknown = set(spec) - set(ATOM_PROPS) - {"position", "x", "y", "z"}
        if unknown:
            raise ValidationError("invalid_argument", detail=f"unknown atom keys {sorted(unknown)}")
        el = normalize_symbol(str(spec.get("element", ""))) or str(spec.get("element", ""))
        atom = new_atom(f"#{k}", el, *xyz, **props)
        check_atom_fields(atom)
        out.append(atom)
    return out


def delete_atoms(
    doc: Document,
    ids: Sequence[str],
    *,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
    adjust_hydrogens: bool = False,
) -> dict[str, Any]:
    """Delete atoms by id, with their bonds.

    ``adjust_hydrogens`` also deletes the terminal hydrogens of deleted heavy atoms and
    fills the valences this opens on their remaining neighbours.
    """
    if not ids:
        raise ValidationError("empty_edit", detail="no atom ids given")

    def fn(work: Project) -> EditResult:
        index = _index(work)
        _need(index, ids)
        wanted = list(dict.fromkeys(ids))
        heavy = [i for i in wanted if index[i]["element"] != "H"]
        if adjust_hydrogens:
            wanted += [h for h in building.hydrogens_of(work, heavy) if h not in wanted]
            # Only a heavy atom's removal opens a valence to fill: an erased hydrogen
            # must not come straight back.
            around = building.neighbours(work, heavy)
        gone = set(wanted)
        d = work["document"]
        d["atoms"] = [a for a in d["atoms"] if a["id"] not in gone]
        d["bonds"] = [b for b in d["bonds"] if b["a"] not in gone and b["b"] not in gone]
        res = EditResult(removed=wanted, touched=[])
        return _adjusted(work, res, around) if adjust_hydrogens else res

    # on the columns (without hydrogens): a deletion from a million atoms copies each
    # column once
    return edit_on(
        doc,
        "Delete atoms",
        fn,
        None if adjust_hydrogens else lambda work: table_edits.delete_atoms(work, ids),
        expected_revision=expected_revision,
        preview=preview,
        actor=actor,
    )


# Atoms moved per block (see move_atoms): about what a core's cache holds of their records.
_MOVE_BLOCK = 512


def _move_target(
    moving: Any,
    given: Mapping[str, Vec] | None,
    sel: list[str],
    translate: Vec | None,
    rotate: Mapping[str, Any] | None,
) -> Callable[[Any, int], Any]:
    """``target(coords, first)``: the new coordinates of the atoms ``first``.. whose
    coordinates are ``coords`` (the arguments checked here, before anything moves).
    ``moving``: the moving atoms' records, or their positions as an ``(n, 3)`` array."""
    if given is not None:
        wanted = np.array([given[i] for i in sel], dtype=float).reshape(-1, 3)
        return lambda coords, first: wanted[first : first + len(coords)]
    if translate is not None:
        step = np.array(_vec(translate, "translate"))
        return lambda coords, _first: coords + step
    assert rotate is not None
    axis = np.array(_vec(rotate.get("axis"), "axis"))
    if np.linalg.norm(axis) < 1e-12:
        raise ValidationError("bad_axis")
    try:
        angle = float(rotate.get("angle", 0.0))
    except (TypeError, ValueError) as exc:
        raise ValidationError("invalid_argument", detail="angle must be a number") from exc
    c = rotate.get("center")
    if c is not None:
        center = np.array(_vec(c, "center"))
    else:
        center = (moving if isinstance(moving, np.ndarray) else xyz_array(moving)).mean(axis=0)
    turn = rotation_matrix(axis, angle).T
    return lambda coords, _first: (coords - center) @ turn + center


def move_atoms(
    doc: Document,
    *,
    positions: Mapping[str, Vec] | None = None,
    ids: Sequence[str] | None = None,
    translate: Vec | None = None,
    rotate: Mapping[str, Any] | None = None,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Set positions (``{id: [x,y,z]}``), or translate / rotate ``ids`` (default: all atoms).

    ``rotate`` is ``{"axis": [x,y,z], "angle": degrees, "center": [x,y,z] | null}``;
    without a centre the atoms' centroid is used. Fixed atoms never move.
    """
    if sum(v is not None for v in (positions, translate, rotate)) != 1:
        raise ValidationError("bad_move")

    def fn(work: Project) -> EditResult:
        # The records are shared with the stored state (positions_only): moved atoms get new
        # records in a new list, the others stay the very same objects.
        atoms = atoms_of(work)
        if is_atom_table(atoms):
            return _move_table(work, atoms, positions, ids, translate, rotate)
        given: dict[str, Vec] | None = None
        if positions is not None:
            given = {aid: _vec(xyz, "position") for aid, xyz in positions.items()}
            sel = list(given)
        else:
            sel = list(ids) if ids is not None else [a["id"] for a in atoms]
            if not sel:
                raise ValidationError("empty_edit", detail="no atoms to move")
        whole = ids is None and positions is None
        pos = None if whole else {a["id"]: i for i, a in enumerate(atoms)}
        if pos is not None:
            _need(pos, sel)
        rows = range(len(atoms)) if pos is None else [pos[i] for i in sel]
        moving = atoms if pos is None else [atoms[i] for i in rows]
        for atom in compress(moving, map(_FIXED, moving)):
            raise ValidationError("fixed_atom", id=atom["id"])
        target = _move_target(moving, given, sel, translate, rotate)
        moved: list[dict[str, Any]] = []
        changed = False
        # Block by block, so the records just read for their coordinates are still in the
        # cache when they are copied: a move of 10,000 atoms costs what ten of 1,000 do.
        for lo in range(0, len(moving), _MOVE_BLOCK):
            part = moving[lo : lo + _MOVE_BLOCK]
            coords = xyz_array(part)
            new = target(coords, lo)
            if not np.isfinite(new).all() or np.abs(new).max() > 1e5:
                raise ValidationError("invalid_argument", detail="positions out of range")
            changed = changed or not np.array_equal(new, coords)
            copies = list(map(dict.copy, part))  # dict.copy copies the key table at once
            # Three lists of floats, not one small list per atom: 10,000 living lists would
            # make the cyclic garbage collector run (and promote them) during the move.
            xs, ys, zs = new.T.tolist()
            for atom, x, y, z in zip(copies, xs, ys, zs, strict=True):
                atom["x"] = x
                atom["y"] = y
                atom["z"] = z
            moved += copies
        if not changed:  # nowhere to go: the records stay as they are
            return EditResult(changed=sel, touched=[], coords_only=True)
        if pos is None:
            out = moved
        else:
            out = list(atoms)
            for i, atom in zip(rows, moved, strict=True):
                out[i] = atom
        work["document"]["atoms"] = out
        # A translation or rotation of every atom keeps every distance: no pair can come
        # closer, so there is nothing to re-check (a 10,000-atom move skips the grid search).
        rigid_whole = positions is None and (whole or len(atoms) == len(set(sel)))
        return EditResult(changed=sel, touched=[] if rigid_whole else sel, coords_only=True)

    return doc.edit(
        fn,
        label="Move atoms",
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
        positions_only=True,
    )


def _move_table(
    work: Project,
    atoms: Any,
    positions: Mapping[str, Vec] | None,
    ids: Sequence[str] | None,
    translate: Vec | None,
    rotate: Mapping[str, Any] | None,
) -> EditResult:
    """:func:`move_atoms` on a column table: one new coordinate array, every other column
    shared with the stored state (an undo step keeps the old ``xyz`` and nothing else)."""
    given: dict[str, Vec] | None = None
    rows: np.ndarray | None = None
    if positions is not None:
        given = {aid: _vec(xyz, "position") for aid, xyz in positions.items()}
        sel: Sequence[Any] = list(given)
    elif ids is not None:
        sel = list(ids)
    else:
        sel = []
    if positions is not None or ids is not None:
        if not sel:
            raise ValidationError("empty_edit", detail="no atoms to move")
        rows = atoms.rows_of(sel)
        if (rows < 0).any():
            raise UnknownAtomError(id=sel[int(np.flatnonzero(rows < 0)[0])])
    elif not len(atoms):
        raise ValidationError("empty_edit", detail="no atoms to move")
    fixed = atoms.fixed if rows is None else atoms.fixed[rows]
    if fixed.any():
        first = int(np.flatnonzero(fixed)[0])
        raise ValidationError(
            "fixed_atom", id=f"a{atoms.ids[first if rows is None else rows[first]]}"
        )
    coords = atoms.xyz if rows is None else atoms.xyz[rows]
    new = _move_target(coords, given, list(sel), translate, rotate)(coords, 0)
    # Two reads of the new positions and no temporary array: NaN and infinity show in the
    # least or the greatest value (a million atoms are 24 MB; each pass costs).
    low, high = (float(new.min()), float(new.max())) if len(new) else (0.0, 0.0)
    if not (-1e5 <= low <= high <= 1e5):
        raise ValidationError("invalid_argument", detail="positions out of range")
    whole = rows is None
    changed_ids = first_ids(atoms) if whole else sel
    if translate is not None:
        # a step of at least 1e-9 Å moves every coordinate below 1e5 Å (its spacing there
        # is 1.5e-11): only a smaller step needs the comparison
        step = np.abs(np.asarray(_vec(translate, "translate")))
        moved = (
            bool((step >= 1e-9).any())
            if not ((step > 0) & (step < 1e-9)).any()
            else not np.array_equal(new, coords)
        )
    else:
        moved = not np.array_equal(new, coords)
    if not moved:  # nowhere to go: the table stays as it is
        return EditResult(changed=list(changed_ids), touched=[], coords_only=True)
    if whole:
        xyz = new
    else:
        xyz = atoms.xyz.copy()
        xyz[rows] = new
    work["document"]["atoms"] = atoms.with_xyz(xyz)
    # A translation or rotation of every atom keeps every distance: no pair can come
    # closer, so there is nothing to re-check (a million-atom move skips the grid search).
    if rows is not None and positions is None and len(rows) >= len(atoms):
        every = np.zeros(len(atoms), bool)
        every[rows] = True
        whole = bool(every.all())  # every atom named: as rigid as a move of all
    rigid_whole = positions is None and whole
    return EditResult(
        changed=list(changed_ids), touched=[] if rigid_whole else list(sel), coords_only=True
    )


def set_atom_properties(
    doc: Document,
    changes: Sequence[Mapping[str, Any]],
    *,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
    adjust_hydrogens: bool = False,
) -> dict[str, Any]:
    """Change element, formal charge, unpaired electrons, name, mass number, mass, fixed.

    ``adjust_hydrogens`` re-fills the hydrogens of atoms whose element, charge or
    unpaired electrons changed.
    """
    if not changes:
        raise ValidationError("empty_edit", detail="no changes given")

    def fn(work: Project) -> EditResult:
        index = _index(work)
        changed = []
        for ch in changes:
            aid = ch.get("id")
            if aid not in index:
                raise UnknownAtomError(id=aid)
            unknown = set(ch) - set(ATOM_PROPS) - {"id"}
            if unknown:
                raise ValidationError(
                    "invalid_argument", detail=f"unknown atom keys {sorted(unknown)}"
                )
            atom = index[aid]
            for k in ATOM_PROPS:
                if k in ch:
                    val = ch[k]
                    if k == "element":
                        val = normalize_symbol(str(val)) or val
                        if val != atom["element"]:
                            atom["massNumber"] = ch.get("massNumber")
                    atom[k] = val
            check_atom_fields(atom)
            changed.append(aid)
        res = EditResult(changed=changed, touched=[])
        if not adjust_hydrogens:
            return res
        valence = [
            str(ch["id"])
            for ch in changes
            if {"element", "formalCharge", "unpairedElectrons"} & set(ch)
        ]
        return _adjusted(work, res, valence)

    # on the columns: only the columns a change writes are copied, and hydrogens are
    # redone on the records around the changed atoms only
    column_edit = (
        table_edits.set_atom_properties_adjusting
        if adjust_hydrogens
        else table_edits.set_atom_properties
    )
    return edit_on(
        doc,
        "Set atom properties",
        fn,
        lambda work: column_edit(work, changes),
        expected_revision=expected_revision,
        preview=preview,
        actor=actor,
    )


def set_bonds(
    doc: Document,
    bonds: Sequence[Mapping[str, Any]],
    *,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
    adjust_hydrogens: bool = False,
) -> dict[str, Any]:
    """Add, change or remove bonds: ``{"a", "b", "order"}``; order 0 removes the bond.

    ``adjust_hydrogens`` then re-fills the hydrogens of both ends.
    """
    if not bonds:
        raise ValidationError("empty_edit", detail="no bonds given")

    def fn(work: Project) -> EditResult:
        index = _index(work)
        lst = bonds_of(work)
        changed: list[str] = []
        for spec in bonds:
            a, b, order = spec.get("a"), spec.get("b"), spec.get("order", 1)
            _need(index, [a, b])
            if isinstance(order, bool) or order not in (0, 1, 2, 3):
                raise ValidationError("bad_bond_order", a=a, b=b, order=order)
            pos = next((i for i, x in enumerate(lst) if {x["a"], x["b"]} == {a, b}), None)
            if order == 0:
                if pos is None:
                    raise ValidationError("no_bond", a=a, b=b)
                del lst[pos]
            elif pos is None:
                lst.append({"a": a, "b": b, "order": order})
            else:
                lst[pos] = {**lst[pos], "order": order}
            changed += [str(a), str(b)]  # known ids (checked above)
        res = EditResult(changed=changed, touched=[])
        return _adjusted(work, res, changed) if adjust_hydrogens else res

    return doc.edit(
        fn,
        label="Set bonds",
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
    )


# The tool's own name for history_step (tests and scripts call it so).
history = history_step

# The settings, files, read-only operations and building edits are defined beside this
# module and are entry points of their tools here too.
__all__ = [
    "ATOM_PROPS",
    "add_atoms",
    "add_bonded_atom",
    "add_hydrogens",
    "change_element",
    "delete_atoms",
    "draw_from_atom",
    "export_document",
    "get_catalog",
    "get_execution",
    "history",
    "history_step",
    "import_document",
    "measure",
    "move_atoms",
    "open_file",
    "place_fragment",
    "save_project",
    "set_advanced",
    "set_atom_properties",
    "set_bonds",
    "set_execution",
    "set_internal_coordinate",
    "set_molecule",
    "set_nwchem",
    "use_results_structure",
    "use_structure",
    "validate_document",
]
