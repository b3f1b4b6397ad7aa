"""Computed geometries into the editor: a results structure, a job's final structure
(no Qt; application layer).

When the atom count and the elements (in order) match the document, the atoms keep
their ids, bonds and properties and only move; otherwise the geometry replaces the
molecule with new ids and perceived bonds, keeping every setting. ``actor`` says who asks; its origin is
recorded on the edit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from molforma.app.actor import Actor
from molforma.document.document import Document
from molforma.errors import ResultsError
from molforma.formats.computed import Vec, place_structure, structure_arguments
from molforma.i18n import register

register(
    {
        # Same text as the Results tab's (molforma.gui.widgets.results_panel), for both modes.
        "results_bad_structure": {
            "en": "No structure {index}: the results hold {count} structures (0-based).",
            "ja": "構造 {index} はありません。結果の構造は {count} 個です（0始まり）。",
        },
    }
)


def use_structure(
    doc: Document,
    symbols: Sequence[str],
    coordinates: Sequence[Vec],
    *,
    label: str = "Use computed structure",
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Put a computed geometry (a results structure) into the editor, as a candidate by
    default.

    When the atom count and the elements (in order) match the document, the atoms keep
    their ids, bonds and properties and only move (fixed atoms stay where they are, as
    the optimiser kept them); otherwise the geometry replaces the molecule with new ids
    and perceived bonds, keeping the title, charge, multiplicity and all settings.
    """
    syms, xyz = structure_arguments(symbols, coordinates)  # refused before any edit
    return doc.edit(
        lambda work: place_structure(work, syms, xyz),
        label=label,
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
    )


def use_results_structure(
    doc: Document,
    results: Any,
    index: int | None = None,
    *,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Put structure ``index`` of loaded results (default: the last, an optimisation's
    final geometry) into the editor through :func:`use_structure`: the Results tab's "Use
    this structure" and ``results_action`` ``use_structure`` in both modes.

    Raises:
        ResultsError: ``results_none_loaded`` (no results), ``results_bad_structure``.
        MolFormaError: as :func:`use_structure` (stale revision, candidate, busy, ...).
    """
    if results is None:
        raise ResultsError("results_none_loaded")
    # A sequence indexed directly: a frame store of 10,000 frames builds the one asked
    # for, not every frame as a model (as a list of it would).
    structures = results.structures if results.structures is not None else ()
    if index is None:
        index = len(structures) - 1
    if not 0 <= index < len(structures):
        raise ResultsError("results_bad_structure", index=index, count=len(structures))
    st = structures[index]
    out = use_structure(
        doc,
        st.symbols,
        st.coordinates,
        label="Use computed structure",
        expected_revision=expected_revision,
        preview=preview,
        actor=actor,
    )
    out["info"] = {
        **(out.get("info") or {}),
        "structureIndex": index,
        "structureLabel": st.label,
        "source": results.source,
        **({"energy": st.energy} if st.energy is not None else {}),
    }
    return out
