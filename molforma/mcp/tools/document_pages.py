"""Pages of what the document tools return: envelopes, checks, measurements (no Qt).

docs/reference/mcp.md, Size of results: with default arguments no answer passes the size hint. These
functions cut the whole answer of ``get_document``, ``validate_document`` and
``measure`` to the page asked for (``offset``, ``limit``) and say where the next one
starts; :mod:`molforma.mcp.paging` holds the envelope and text pages they build on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from molforma.lazy import lazy_import
from molforma.mcp import paging

if TYPE_CHECKING:
    from molforma.mcp import table_pages
else:
    # numpy and the column tables only when a page is cut: get_app_state's first call
    # loads this module (through the document tools) and needs neither.
    table_pages = lazy_import("molforma.mcp.table_pages")

VALIDATE_DEFAULT_LIMIT = 10
MEASURE_DEFAULT_LIMIT = 300


def envelope_pages(
    doc: Any, include: Sequence[str], offset: int, limit: int | None
) -> dict[str, Any]:
    """One page of atoms of the project and/or candidate of ``doc`` (its lock held), with
    bondCount, candidateAtomCount, offset, nextOffset, complete and links."""
    out: dict[str, Any] = {}
    wanted = {
        "project": doc.project if "project" in include else None,
        "candidate": doc.candidate if "candidate" in include else None,
    }
    # the JSON text copy escapes every quote of the page: keep a tenth in hand
    budget = paging.PAGE_CHARS * 9 // 10 // max(1, sum(v is not None for v in wanted.values()))
    nexts: list[int] = []
    whole = True
    for key in include:
        env = wanted[key]
        if env is None:
            out[key] = None
            continue
        # a stored project holds column tables: only the page's records are built
        page, nxt, complete = table_pages.page_envelope(env, offset, limit, budget)
        out[key] = page
        if not complete:
            whole = False
            # the candidate gets the same atom window as the project
            limit = limit or max(1, len(page["document"]["atoms"]))
        if nxt is not None:
            nexts.append(nxt)
    out["bondCount"] = len(doc.project["document"].get("bonds") or [])
    if doc.candidate is not None:
        out["candidateAtomCount"] = len(doc.candidate["document"].get("atoms") or [])
    out["offset"] = offset
    out["nextOffset"] = min(nexts) if nexts else None
    out["complete"] = whole
    if not whole:
        out["links"] = paging.document_links(doc.id)
    return out


def page_checks(out: dict[str, Any], check: str | None, offset: int, limit: int | None) -> None:
    """Cut validate_document's ``checks`` to the page (per check code), with counts, more
    and, for one ``check``, nextOffset."""
    checks = list(out.get("checks") or [])
    counts: dict[str, int] = {}
    for c in checks:
        counts[c["code"]] = counts.get(c["code"], 0) + 1
    shown_limit = limit or VALIDATE_DEFAULT_LIMIT
    seen: dict[str, int] = {}
    shown = []
    for c in checks:
        code = c["code"]
        k = seen.get(code, 0)
        seen[code] = k + 1
        if (check is None or code == check) and offset <= k < offset + shown_limit:
            shown.append(c)
    out["checks"] = shown
    out["counts"] = counts
    out["more"] = [
        code
        for code, n in counts.items()
        if (check is None or code == check) and n > offset + shown_limit
    ]
    if check is not None:
        n = counts.get(check, 0)
        out["nextOffset"] = offset + shown_limit if n > offset + shown_limit else None


def page_measurements(out: dict[str, Any], offset: int, limit: int | None) -> None:
    """Cut measure's distances, then angles, then dihedrals to the page, with total and
    nextOffset."""
    kinds = ("distances", "angles", "dihedrals")
    total = sum(len(out.get(k) or []) for k in kinds)
    start, stop = offset, offset + (limit or MEASURE_DEFAULT_LIMIT)
    seen = 0
    for k in kinds:
        values = list(out.get(k) or [])
        out[k] = values[max(0, start - seen) : max(0, stop - seen)]
        seen += len(values)
    out["total"] = total
    out["nextOffset"] = stop if stop < total else None
