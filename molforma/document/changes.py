"""What a document change touched, and sharing what it did not touch (no Qt).

:class:`Change` is what :class:`~molforma.document.document.Document` tells its
listeners, so a view redraws only what moved: a drag changes ``POSITIONS`` only,
a basis set change ``SETTINGS`` only.

:func:`share_unchanged` is what makes undo scale. An edit works on a copy of the
project; once it is checked, every atom, bond and block of the copy that equals
the one it came from is replaced by that earlier object, which is never mutated
after it is stored. An undo step of a one-atom move then holds one new atom and
a new list of references, not a second copy of 10,000 atoms, and a settings edit
holds no atom data at all. Unknown fields travel inside the shared objects as
they are, so nothing of a newer file is lost.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from itertools import compress
from operator import eq, itemgetter, not_
from typing import TYPE_CHECKING, Any

from molforma.document.tabletypes import is_atom_table, is_bond_table
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (start-up time): molforma.lazy
    np = lazy_import("numpy")

Project = dict[str, Any]

_XYZ = ("x", "y", "z")
# Bookkeeping that no one shows: undo restores an older value that edits raise again.
_QUIET_DOCUMENT_KEYS = frozenset({"atoms", "bonds", "nextAtomId"})


class Change(enum.Flag):
    """The parts of a document a change touched (listeners get an OR of these).

    The content flags (``ATOMS`` … ``SETTINGS``) describe the confirmed project;
    ``CANDIDATE`` says the candidate appeared, went away or was replaced.
    """

    NONE = 0
    ATOMS = enum.auto()  # atoms added, removed, reordered, or a property other than x/y/z
    POSITIONS = enum.auto()  # x, y or z of some atom
    BONDS = enum.auto()  # a bond added, removed or of another order
    MOLECULE = enum.auto()  # title, charge, multiplicity (the document block's own fields)
    SETTINGS = enum.auto()  # calculation, advanced, execution or other top-level blocks
    CANDIDATE = enum.auto()  # the candidate appeared, went away or was replaced
    HISTORY = enum.auto()  # the undo or redo steps changed
    LOAD = enum.auto()  # a whole project replaced the previous one (open, new, import)
    BUSY = enum.auto()  # edits became refused or allowed again (a clean-up runs or ended)

    STRUCTURE = ATOMS | POSITIONS | BONDS
    CONTENT = ATOMS | POSITIONS | BONDS | MOLECULE | SETTINGS
    ALL = CONTENT | CANDIDATE | HISTORY | LOAD | BUSY  # another document altogether


def _atom_key(a: Mapping[str, Any]) -> Hashable:
    aid = a.get("id")
    return aid if isinstance(aid, str) else id(a)


def _bond_key(b: Mapping[str, Any]) -> Hashable:
    a1, a2 = b.get("a"), b.get("b")
    return (a1, a2) if isinstance(a1, str) and isinstance(a2, str) else id(b)


_ATOM_KEYS = (itemgetter("id"), _atom_key)
_BOND_KEYS = (itemgetter("a"), itemgetter("b"), _bond_key)
Pairs = Iterator[tuple[Any, Any]]


def _keys(records: list[Any], keys: tuple[Callable[[Any], Any], ...]) -> list[list[Any]]:
    """Key columns of ``records``: strings in lists, which the garbage collector skips
    (a tuple per record would make a 10,000-atom edit pay for collections)."""
    *fast, safe = keys
    try:
        return [list(map(f, records)) for f in fast]  # in C; a hand-made record may lack a key
    except (KeyError, TypeError):
        return [list(map(safe, records))]


def _share_records(
    old: list[Any],
    new: list[Any],
    keys: tuple[Callable[[Any], Any], ...],
    written: frozenset[Hashable] = frozenset(),
) -> tuple[list[Any], Pairs, bool]:
    """``new`` with its records equal to ``old`` ones replaced by them.

    Records whose (first) key is in ``written`` stay as the edit wrote them even when
    equal (``1`` where ``1.0`` stood is saved as the edit meant it). Returns the list
    to store (``old`` itself when nothing differs), the changed (old, new) pairs of
    one key, and whether records came, went or moved.
    """
    if not new:
        return (old if not old else new), iter(()), bool(old)
    if not old:
        return new, iter(()), True
    if len(old) == len(new):
        same = list(map(eq, old, new))  # in C: one pass, and no keys when all are equal
        diff = list(compress(range(len(same)), map(not_, same)))
        if not diff and not written:
            return old, iter(()), False
        dnew = [new[i] for i in diff]
        dkeys = _keys(dnew, keys)
        if _keys([old[i] for i in diff], keys) == dkeys:  # the same records in the same order
            share = same
            if written and not written <= set(dkeys[0]):  # an equal record was written
                share = [
                    s and k not in written for s, k in zip(same, _keys(new, keys)[0], strict=True)
                ]
            if all(share):
                return old, iter(()), False
            out = [o if s else n for o, n, s in zip(old, new, share, strict=True)]
            return out, ((old[i], new[i]) for i in diff), False
    okeys, nkeys = _keys(old, keys), _keys(new, keys)
    # Records came, went or moved: match them by key.
    ok = list(zip(*okeys, strict=True)) if len(okeys) > 1 else okeys[0]
    nk = list(zip(*nkeys, strict=True)) if len(nkeys) > 1 else nkeys[0]
    by_key = dict(zip(ok, old, strict=True))
    out, pairs = [], []
    for k, r in zip(nk, new, strict=True):
        o = by_key.get(k)
        if o is None:
            out.append(r)
        elif o == r:
            out.append(o if k not in written else r)
        else:
            out.append(r)
            pairs.append((o, r))
    return out, iter(pairs), True


def _atom_change(old: Mapping[str, Any], new: Mapping[str, Any]) -> Change:
    out = Change.NONE
    if any(old.get(k) != new.get(k) for k in _XYZ):
        out |= Change.POSITIONS
    if old.keys() != new.keys() or any(
        k not in _XYZ and old[k] is not new[k] and old[k] != new[k] for k in old
    ):
        out |= Change.ATOMS
    return out


def _table_change(old: Any, new: Any) -> Change:
    """What differs between two atom tables whose equal columns are shared."""
    if len(old) != len(new) or new.ids is not old.ids:
        # atoms came or went: POSITIONS only when an atom that stayed moved too
        keep = np.flatnonzero(np.isin(new.ids, old.ids))
        rows = old.index_of(new.ids[keep])
        moved = not np.array_equal(new.xyz[keep], old.xyz[rows])
        return Change.ATOMS | (Change.POSITIONS if moved else Change.NONE)
    out = Change.NONE
    if new.xyz is not old.xyz:
        out |= Change.POSITIONS
    if (
        any(n is not o for n, o in zip(new._core()[3:], old._core()[3:], strict=True))
        or new.z is not old.z
        or new.extra is not old.extra
    ):
        out |= Change.ATOMS
    return out


def _same(a: Any, b: Any) -> bool:
    """Equal and saved alike: same types, key order and sign of zero, all the way down."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return len(a) == len(b) and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float):
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return bool(a == b)


def _shared_block(old: Any, new: Any) -> tuple[Any, bool]:
    """The block to store (``old`` when ``new`` is the same), and whether they differ.

    Blocks are small, so they are compared strictly: a setting rewritten as ``1``
    where ``1.0`` stood is kept as written.
    """
    if _same(old, new):
        return old, False
    return new, old != new


def share_unchanged(
    old: Project,
    new: Project,
    *,
    coords_only: bool = False,
    written: Iterable[str] = (),
    whole: bool = False,
    positions_only: bool = False,
) -> tuple[Project, Change]:
    """``new`` sharing every part equal to ``old``, and the content :class:`Change` between them.

    ``new`` must be a fresh copy (it is changed in place and returned, or ``old`` is
    returned when the two are equal). Equal means equal in Python: an atom that an
    edit rewrote with an equal number of another spelling (``-0.0`` for ``0.0``) is
    shared unless its id is in ``written``, the atoms the edit said it changed.
    ``coords_only`` is the edit's own statement that only positions changed; it
    spares comparing each moved atom field by field. ``whole``: the edit replaced the
    atom and bond lists wholesale (a file opened), so they are compared as lists and
    not paired record by record (an undo step of an open holds both molecules anyway).
    ``positions_only``: the edit only moved atoms, giving the moved ones new records in a new list
    (none when no atom changed place) and keeping every other atom record and the bond
    list as they are (nothing to pair).
    """
    change = Change.NONE
    odoc, ndoc = old.get("document"), new.get("document")
    if isinstance(odoc, dict) and isinstance(ndoc, dict):
        oatoms, natoms = odoc.get("atoms"), ndoc.get("atoms")
        obonds, nbonds = odoc.get("bonds"), ndoc.get("bonds")
        tables = (
            is_atom_table(oatoms)
            and is_atom_table(natoms)
            and is_bond_table(obonds)
            and is_bond_table(nbonds)
        )
        mixed = (
            not tables
            and not positions_only
            and (is_atom_table(oatoms) or is_atom_table(natoms))
            and all(
                isinstance(v, list) or is_atom_table(v) or is_bond_table(v)
                for v in (oatoms, natoms, obonds, nbonds)
            )
        )
        if positions_only:
            if natoms is not oatoms:  # the edit put a new list only when an atom moved
                change |= Change.POSITIONS
        elif tables:
            # The edit's tables share every column equal to the old ones already
            # (Document._tabled), so a column that is not the old one has changed.
            if natoms is not oatoms:
                change |= (
                    Change.ATOMS | Change.POSITIONS if whole else _table_change(oatoms, natoms)
                )
            if nbonds is not obonds:
                change |= Change.BONDS
        elif mixed:
            # records became column tables (the first structure of a document): compared
            # as lists, cheaply when their lengths differ
            oa: Any = oatoms
            ob: Any = obonds
            na: Any = natoms
            nb: Any = nbonds
            if not (len(oa) == len(na) and oa == na):
                change |= Change.ATOMS  # as for records that came or went
            if not (len(ob) == len(nb) and ob == nb):
                change |= Change.BONDS
        elif whole:
            if oatoms != natoms:
                change |= Change.ATOMS | Change.POSITIONS
            if obonds != nbonds:
                change |= Change.BONDS
        elif isinstance(oatoms, list) and isinstance(natoms, list):
            atoms, pairs, moved = _share_records(oatoms, natoms, _ATOM_KEYS, frozenset(written))
            ndoc["atoms"] = atoms
            if moved:
                change |= Change.ATOMS
            for o, n in pairs:
                if coords_only:  # the edit's word: no need to look field by field
                    change |= Change.POSITIONS
                    break
                change |= _atom_change(o, n)
                if Change.ATOMS | Change.POSITIONS in change:
                    break
        if (
            not (whole or positions_only or tables or mixed)
            and isinstance(obonds, list)
            and isinstance(nbonds, list)
        ):
            bonds, pairs, moved = _share_records(obonds, nbonds, _BOND_KEYS)
            ndoc["bonds"] = bonds
            if moved or next(pairs, None) is not None:
                change |= Change.BONDS
        if any(
            odoc.get(k) != ndoc.get(k)
            for k in (odoc.keys() | ndoc.keys())
            if k not in _QUIET_DOCUMENT_KEYS
        ):
            change |= Change.MOLECULE
        if ndoc.get("atoms") is odoc.get("atoms") and ndoc.get("bonds") is odoc.get("bonds"):
            new["document"], _ = _shared_block(odoc, ndoc)
    elif odoc != ndoc:
        change |= Change.STRUCTURE | Change.MOLECULE
    for key in old.keys() | new.keys():
        if key == "document":
            continue
        if key not in new or key not in old:
            change |= Change.SETTINGS
            continue
        new[key], differs = _shared_block(old[key], new[key])
        if differs:
            change |= Change.SETTINGS
    if (
        change == Change.NONE
        and new.get("document") is old.get("document")
        and all(new[k] is old[k] for k in new)
        and list(new) == list(old)
    ):
        return old, change
    return new, change
