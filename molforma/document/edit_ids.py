"""The atom ids an edit summary names (no Qt): added, removed and changed between two atom
tables, at most :data:`IDS_CAP` of each, so a million-atom edit never spells a million ids."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from molforma.document.tabletypes import is_atom_table
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (start-up time): molforma.lazy
    np = lazy_import("numpy")

IDS_CAP = 100


def _capped(ids: Iterable[str]) -> tuple[list[str], bool]:
    # Stops after the first IDS_CAP + 1 distinct ids: a 10,000-atom move lists 100.
    seen: dict[str, None] = {}
    for i in ids:
        if i not in seen:
            seen[i] = None
            if len(seen) > IDS_CAP:
                break
    lst = list(seen)
    return lst[:IDS_CAP], len(lst) > IDS_CAP


def first_ids(atoms: Any, count: int = IDS_CAP + 1) -> list[str]:
    """The first ``count`` atom ids of an atom list or table (an edit summary lists at
    most :data:`IDS_CAP`: a million-atom open never spells a million ids)."""
    if is_atom_table(atoms):
        return [f"a{i}" for i in atoms.ids[:count].tolist()]
    return [a["id"] for a in atoms[:count]]


def _id_sets(old: Any, new: Any) -> tuple[list[str], list[str], list[str]]:
    """Ids added, removed and changed (any field) from atom table ``old`` to ``new``."""
    if old is new:
        return [], [], []
    oid, nid = old.ids, new.ids
    in_old = np.isin(nid, oid)
    in_new = np.isin(oid, nid)
    added = [f"a{i}" for i in nid[~in_old][: IDS_CAP + 1].tolist()]
    removed = [f"a{i}" for i in oid[~in_new][: IDS_CAP + 1].tolist()]
    nrows = np.flatnonzero(in_old)
    orows = old.index_of(nid[nrows])
    diff = np.zeros(len(nrows), bool)
    for o, n in zip(old._core()[1:], new._core()[1:], strict=True):
        if o is n or (o is None and n is None):
            continue
        if o is None or n is None:
            diff[:] = True
            break
        a, b = o[orows], n[nrows]
        d = a != b
        diff |= d.any(axis=1) if d.ndim > 1 else d
    if old.extra != new.extra:
        ids = nid[nrows].tolist()
        diff |= np.array([old.extra.get(i) != new.extra.get(i) for i in ids], bool)
    changed = [f"a{i}" for i in nid[nrows][diff][: IDS_CAP + 1].tolist()]
    return added, removed, changed
