"""Pages of a stored project whose atoms and bonds are column tables (no Qt).

:func:`page_envelope` gives what :func:`molforma.mcp.paging.page_envelope` gives (the
same atoms, the same bonds in the same order, the same ``nextOffset``) while building
only the records of the page: the bonds of the page's atoms come from the bond table's
order by later atom, kept with the table, so a page of a 100,000-atom document costs
what a page of a 1,000-atom one does. Projects with plain lists go to the list pager.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from molforma.document.molecule import AtomTable, BondTable, plain_project
from molforma.mcp import paging

# Atoms whose records are built at once while filling a page (a page holds a few hundred).
_CHUNK = 128
# No atom record is shorter than this in JSON: above budget / it, the whole cannot fit.
_MIN_ATOM_CHARS = 100


def page_envelope(
    project: Mapping[str, Any], offset: int, limit: int | None, budget: int = paging.PAGE_CHARS
) -> tuple[dict[str, Any], int | None, bool]:
    """The envelope cut to one page of atoms and their bonds, nextOffset, and whether the
    page is the whole envelope (then it is the project as plain JSON-ready dicts)."""
    doc = project.get("document") or {}
    atoms, bonds = doc.get("atoms"), doc.get("bonds")
    if not (isinstance(atoms, AtomTable) and isinstance(bonds, BondTable)):
        page, nxt = paging.page_envelope(project, offset, limit, budget)
        return page, nxt, page.get("document") is doc
    n = len(atoms)
    whole = (
        offset == 0
        and limit is None
        and n * _MIN_ATOM_CHARS <= budget
        and paging.json_chars(plain_project(project)) <= budget
    ) or (offset == 0 and limit is not None and limit >= n)
    if whole:
        return plain_project(project), None, True
    order, later = bonds.by_later_row(atoms)
    rest = {k: v for k, v in dict.items(doc) if k not in ("atoms", "bonds")}
    used = paging.json_chars(
        {k: v for k, v in project.items() if k != "document"}
    ) + paging.json_chars(rest)
    page_atoms: list[Any] = []
    page_bonds: list[Any] = []
    i = offset
    full = False
    while i < n and not full:
        stop = min(n, i + _CHUNK)
        if limit is not None:
            stop = min(stop, offset + limit)
        recs = atoms.to_records(i, stop)
        lo, hi = np.searchsorted(later, [i, stop])
        chunk_bonds = bonds.records_at(order[lo:hi])
        starts = np.searchsorted(later[lo:hi], np.arange(i, stop + 1)).tolist()
        for k, rec in enumerate(recs):
            mine = chunk_bonds[starts[k] : starts[k + 1]]
            cost = (
                paging.json_chars(rec)
                + sum(paging.json_chars(b) for b in mine)
                + 2 * (1 + len(mine))
            )
            if limit is None and page_atoms and used + cost > budget:
                full = True
                break
            page_atoms.append(rec)
            page_bonds.extend(mine)
            used += cost
            i += 1
        if limit is not None and len(page_atoms) >= limit:
            break
    out = dict(project)
    out["document"] = {**rest, "atoms": page_atoms, "bonds": page_bonds}
    return out, (i if i < n else None), False
