"""Edits made on the column tables themselves (no Qt): no atom record is copied.

Each function is an edit function for :meth:`Document.edit` with ``tables=True``: it
gets the project copy holding the stored tables (never to be changed), builds new
tables that share every column it does not write, puts them into the copy and reports
what it changed. A property change of one atom in a million copies the one column it
writes (a byte per atom for a charge); a deletion copies each column once. They check
what they are given as the record edits do and raise the same errors, in the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from molforma.document.document import EditResult
from molforma.document.elements import normalize_symbol
from molforma.document.envelope import Project, check_atom_fields
from molforma.document.molecule import AtomTable, BondTable
from molforma.errors import UnknownAtomError, ValidationError
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.document import building, chemistry
else:  # imported on first use (start-up time): molforma.lazy
    building = lazy_import("molforma.document.building")
    chemistry = lazy_import("molforma.document.chemistry")

# Å around the atoms whose hydrogens are redone that a placement may look at (a hydrogen's
# bond length plus the 4 Å its clash score looks around, with room to spare).
_PLACEMENT_REACH = 8.0
_VALENCE_KEYS = frozenset({"element", "formalCharge", "unpairedElectrons"})

ATOM_PROPS = ("element", "name", "formalCharge", "unpairedElectrons", "massNumber", "mass", "fixed")


def _tables(work: Project) -> tuple[AtomTable, BondTable]:
    doc = work["document"]
    atoms, bonds = doc["atoms"], doc["bonds"]
    assert isinstance(atoms, AtomTable) and isinstance(bonds, BondTable)
    return atoms, bonds


def _rows(atoms: AtomTable, ids: Sequence[Any]) -> np.ndarray:
    rows = atoms.rows_of(ids)
    if (rows < 0).any():
        raise UnknownAtomError(id=ids[int(np.flatnonzero(rows < 0)[0])])
    return rows


def delete_atoms(work: Project, ids: Sequence[Any]) -> EditResult:
    """Delete the atoms ``ids`` and their bonds (``ops.delete_atoms`` without hydrogens)."""
    atoms, bonds = _tables(work)
    wanted = list(dict.fromkeys(ids))
    rows = _rows(atoms, wanted)
    gone = atoms.ids[rows]
    keep = ~(np.isin(bonds.a, gone) | np.isin(bonds.b, gone))
    doc = work["document"]
    doc["atoms"] = atoms.delete(rows)
    if not keep.all():
        doc["bonds"] = bonds.take(np.flatnonzero(keep))
    return EditResult(removed=[str(i) for i in wanted], touched=[])


def set_atom_properties(work: Project, changes: Sequence[Mapping[str, Any]]) -> EditResult:
    """Change element, name, formal charge, unpaired electrons, mass number, mass or fixed
    of atoms by id (``ops.set_atom_properties`` without hydrogens): each change is checked
    on the atom's record as the record edit checks it, then written into the columns."""
    atoms, _bonds = _tables(work)
    records: dict[int, dict[str, Any]] = {}
    changed: list[str] = []
    for ch in changes:
        aid = ch.get("id")
        row = int(_rows(atoms, [aid])[0]) if isinstance(aid, str) else -1
        if row < 0:
            raise UnknownAtomError(id=aid)
        unknown = set(ch) - set(ATOM_PROPS) - {"id"}
        if unknown:
            raise ValidationError("invalid_argument", detail=f"unknown atom keys {sorted(unknown)}")
        atom = records.get(row) or atoms[row]
        for k in ATOM_PROPS:
            if k in ch:
                val = ch[k]
                if k == "element":
                    val = normalize_symbol(str(val)) or val
                    if val != atom["element"]:
                        atom["massNumber"] = ch.get("massNumber")
                atom[k] = val
        check_atom_fields(atom)
        records[row] = atom
        changed.append(str(aid))
    if records:
        work["document"]["atoms"] = _written(atoms, records)
    return EditResult(changed=changed, touched=[])


def _written(atoms: AtomTable, records: Mapping[int, Mapping[str, Any]]) -> AtomTable:
    """``atoms`` with the rows ``records`` (checked atom dicts) written in: only the
    columns some record changes are copied."""
    rows = np.fromiter(records, dtype=np.int64, count=len(records))
    recs = list(records.values())
    new = AtomTable.from_records(recs)  # the records' values in column form
    cols: dict[str, Any] = {}
    for name in ("z", "charge", "unpaired", "fixed", "mass_number", "mass"):
        old = getattr(atoms, name)
        val = getattr(new, name)
        if not np.array_equal(old[rows], val, equal_nan=name == "mass"):
            col = old.copy()
            col[rows] = val
            cols[name] = col
    names = [r.get("name", "") for r in recs]
    current = [""] * len(rows) if atoms.names is None else atoms.names[rows].tolist()
    if names != current:
        col = np.full(len(atoms), "", dtype=object) if atoms.names is None else atoms.names.copy()
        col[rows] = names
        cols["names"] = col if any(col.tolist()) else None
    extra = atoms.extra
    for aid in atoms.ids[rows].tolist():
        more = new.extra.get(aid)
        if extra.get(aid) != more:
            extra = dict(extra)
            if more:
                extra[aid] = more
            else:
                extra.pop(aid, None)
    if extra is not atoms.extra:
        cols["extra"] = extra
    if not cols:
        return atoms
    return atoms._replace(**cols)


def add_atoms(
    work: Project, records: Sequence[dict[str, Any]], bonds: Sequence[Mapping[str, Any]]
) -> EditResult:
    """Append atoms (checked atom dicts, ids given here from ``nextAtomId``) and bonds whose
    ends are existing ids or ``"#k"`` (the k-th new atom), as ``ops.add_atoms`` does
    without hydrogens: the old columns are copied once into the longer ones."""
    atoms, old_bonds = _tables(work)
    doc = work["document"]
    start = int(doc["nextAtomId"])
    new_ids = [f"a{start + k}" for k in range(len(records))]
    for rec, aid in zip(records, new_ids, strict=True):
        rec["id"] = aid
    doc["nextAtomId"] = start + len(records)

    def ref(r: Any) -> str:
        if isinstance(r, str) and r.startswith("#"):
            try:
                return new_ids[int(r[1:])]
            except (ValueError, IndexError) as exc:
                raise ValidationError("bad_new_atom_ref", ref=r, last=len(new_ids) - 1) from exc
        if not isinstance(r, str) or atoms.rows_of([r])[0] < 0:
            raise UnknownAtomError(id=r)
        return r

    made = []
    for b in bonds:
        a1, a2, order = ref(b.get("a")), ref(b.get("b")), b.get("order", 1)
        if a1 == a2:
            raise ValidationError("bond_self", a=a1)
        if isinstance(order, bool) or order not in (1, 2, 3):
            raise ValidationError("bad_bond_order", a=a1, b=a2, order=order)
        made.append({"a": a1, "b": a2, "order": order})
    doc["atoms"] = atoms.concat(AtomTable.from_records(records))
    if made:
        doc["bonds"] = old_bonds.concat(BondTable.from_records(made))
    return EditResult(added=new_ids, touched=new_ids)


def set_atom_properties_adjusting(
    work: Project, changes: Sequence[Mapping[str, Any]]
) -> EditResult:
    """:func:`set_atom_properties`, then the hydrogens of the atoms whose element, charge or
    unpaired electrons changed redone (``ops.set_atom_properties`` with hydrogens)."""
    res = set_atom_properties(work, changes)
    valence = [str(ch["id"]) for ch in changes if _VALENCE_KEYS & set(ch)]
    return building.merge_adjusted(work, res, valence, adjust=adjust_hydrogens)


def adjust_hydrogens(work: Project, ids: Sequence[str]) -> EditResult:
    """:func:`molforma.document.building.adjust_hydrogens` on the columns (see
    :func:`edit_around`)."""
    return edit_around(work, ids, lambda sub: building.adjust_hydrogens(sub, list(ids)))


def add_hydrogens(work: Project, ids: Sequence[str]) -> EditResult:
    """:func:`molforma.document.chemistry.add_hydrogens` of the atoms ``ids`` on the
    columns (see :func:`edit_around`); unknown ids raise as the record edit does."""
    atoms, _bonds = _tables(work)
    _rows(atoms, list(ids))
    return edit_around(work, ids, lambda sub: chemistry.add_hydrogens(sub, list(ids)))


def edit_around(
    work: Project, ids: Sequence[str], edit: Callable[[Project], EditResult]
) -> EditResult:
    """A local edit of the atoms ``ids`` (hydrogens, a bonded atom) run as a record edit on
    their neighbourhood.

    ``edit`` runs on a small project of records: the atoms ``ids``, their neighbours and
    their neighbours' neighbours (all a valence count, a VSEPR domain or a staggering
    reference reads) and every atom within :data:`_PLACEMENT_REACH` of them (what a new
    hydrogen's clash score looks at), in document order. The atoms it removed and added
    (with their bonds) are then taken out of and appended to the tables, as the record
    edit does to the lists, so the result is the same project.
    """
    atoms, bonds = _tables(work)
    doc = work["document"]
    rows = atoms.rows_of(list(dict.fromkeys(ids)))
    rows = rows[rows >= 0]
    if not len(rows):  # nothing to do, said as the record edit says it
        return edit({"document": {"atoms": [], "bonds": [], "nextAtomId": doc["nextAtomId"]}})
    ia, ib = bonds.rows_in(atoms)
    near = np.zeros(len(atoms), dtype=bool)
    near[rows] = True
    for _shell in range(2):
        hit = near[ia] | near[ib]
        near[ia[hit]] = True
        near[ib[hit]] = True
    lo = atoms.xyz[rows].min(axis=0) - _PLACEMENT_REACH
    hi = atoms.xyz[rows].max(axis=0) + _PLACEMENT_REACH
    near |= ((atoms.xyz >= lo) & (atoms.xyz <= hi)).all(axis=1)
    inside = near[ia] & near[ib]
    sub: Project = {
        "document": {
            "atoms": atoms.take(np.flatnonzero(near)).to_records(),
            "bonds": bonds.records_at(np.flatnonzero(inside)),
            "nextAtomId": doc["nextAtomId"],
        }
    }
    res = edit(sub)
    if not res.added and not res.removed:
        return res
    if res.removed:
        gone = atoms.rows_of(res.removed)
        gone_ids = atoms.ids[gone]
        keep = ~(np.isin(bonds.a, gone_ids) | np.isin(bonds.b, gone_ids))
        atoms = atoms.delete(gone)
        if not keep.all():
            bonds = bonds.take(np.flatnonzero(keep))
    if res.added:
        new = set(res.added)
        sdoc = sub["document"]
        atoms = atoms.concat(AtomTable.from_records([a for a in sdoc["atoms"] if a["id"] in new]))
        bonds = bonds.concat(
            BondTable.from_records([b for b in sdoc["bonds"] if b["a"] in new or b["b"] in new])
        )
        doc["nextAtomId"] = sdoc["nextAtomId"]
    doc["atoms"], doc["bonds"] = atoms, bonds
    return res
