"""Results an agent can hold: pages of a document and links to what is too big (no Qt).

docs/reference/mcp.md, Size of results: no tool result passes the 100,000-character size hint with
default arguments. A result is sent twice (``structuredContent`` and its JSON text),
so one copy gets :data:`PAGE_CHARS`. What does not fit travels beside the answer as
``resource_link`` content items (:func:`link`), listed in the result's ``links``
field, to resources that hold the full text.

A page of a document holds atoms ``offset`` .. ``offset + n - 1`` of the atom list
and the bonds whose *later* atom (by list position) is on the page, so paging
through ``nextOffset`` returns every atom and every bond exactly once, and a bond
never arrives before both its atoms.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from molforma.file_formats import resource_views

# One copy of a result: structuredContent and its JSON text together stay under 100,000.
PAGE_CHARS = 40_000

# The document views: view -> (resource name, title, MIME type, description), one per
# writable format of the format table. They are the first resources of
# molforma.mcp.resources.VIEWS and what results link to.
DOCUMENT_VIEWS: dict[str, tuple[str, str, str, str]] = resource_views()


def json_chars(value: Any) -> int:
    """Characters of ``value`` as compact JSON (what a result copy costs)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def link(
    uri: str, name: str, mime: str, description: str = "", size: int | None = None
) -> dict[str, Any]:
    """One entry of a result's ``links`` (sent as a ``resource_link`` content item too)."""
    out: dict[str, Any] = {"uri": uri, "name": name, "mimeType": mime}
    if description:
        out["description"] = description
    if size is not None:
        out["size"] = size
    return out


def document_links(
    doc_id: str, views: Iterable[str] = ("project", "xyz", "mol", "nwchem")
) -> list[dict[str, Any]]:
    """Links to the full confirmed project of ``doc_id`` in the given views."""
    return [
        link(
            f"molforma://documents/{doc_id}/{view}",
            f"{doc_id}_{view}",
            DOCUMENT_VIEWS[view][2],
            DOCUMENT_VIEWS[view][3],
        )
        for view in views
    ]


def page_envelope(
    project: Mapping[str, Any], offset: int, limit: int | None, budget: int = PAGE_CHARS
) -> tuple[dict[str, Any], int | None]:
    """The envelope ``project`` cut to one page of atoms (and their bonds), and nextOffset.

    Without ``limit`` the page holds as many atoms as fit in ``budget`` characters
    (at least one); with it, exactly ``limit`` atoms (the caller asked for them).
    A page holding every atom is the whole envelope, unchanged.
    """
    doc = project.get("document") or {}
    atoms = doc.get("atoms") or []
    bonds = doc.get("bonds") or []
    n = len(atoms)
    if offset == 0 and limit is None and json_chars(project) <= budget:
        return dict(project), None
    if offset == 0 and limit is not None and limit >= n:
        return dict(project), None
    pos = {a.get("id"): i for i, a in enumerate(atoms)}
    later: dict[int, list[Any]] = {}
    for b in bonds:
        i, j = pos.get(b.get("a"), -1), pos.get(b.get("b"), -1)
        later.setdefault(max(i, j), []).append(b)
    rest = {k: v for k, v in doc.items() if k not in ("atoms", "bonds")}
    used = json_chars({k: v for k, v in project.items() if k != "document"}) + json_chars(rest)
    page_atoms: list[Any] = []
    page_bonds: list[Any] = []
    i = offset
    while i < n and (limit is None or len(page_atoms) < limit):
        mine = later.get(i, [])
        cost = json_chars(atoms[i]) + sum(json_chars(b) for b in mine) + 2 * (1 + len(mine))
        if limit is None and page_atoms and used + cost > budget:
            break
        page_atoms.append(atoms[i])
        page_bonds.extend(mine)
        used += cost
        i += 1
    out = dict(project)
    out["document"] = {**doc, "atoms": page_atoms, "bonds": page_bonds}
    return out, (i if i < n else None)


def text_page(text: str, offset: int, limit: int | None, budget: int = 2 * PAGE_CHARS) -> str:
    """Characters ``offset``.. of ``text``: ``limit`` of them, or as many as fit ``budget``.

    A text travels escaped once in ``structuredContent`` and twice in the JSON text
    item (quotes and line ends of a project file grow there), so the fit is measured
    on both copies.
    """
    if limit is not None:
        return text[offset : offset + limit]
    n = min(len(text) - offset, budget)
    while n > 1000:
        page = text[offset : offset + n]
        once = json.dumps(page, ensure_ascii=False)
        cost = len(once) + len(json.dumps(once, ensure_ascii=False))
        if cost <= budget:
            return page
        n = n * budget // cost * 95 // 100
    return text[offset : offset + max(n, 1)]
