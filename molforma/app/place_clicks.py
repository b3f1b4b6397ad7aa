"""The Molecule tab's Place and Add-atom clicks as application functions (no Qt;
application layer).

They differ from the document tools of the same subject (:func:`molforma.app.ops.
place_fragment`, :func:`molforma.app.ops.add_bonded_atom`) in what a click means, and
are named for it: a Place click first confirms the placement its actor proposed just
before (:func:`confirm_then_propose_placement`), and an Add-atom click adds nothing on an
atom of a candidate (:func:`add_bonded_atom_to_confirmed`).

The Place tool proposes a fragment or ligand as a candidate, and its next click
confirms that placement before proposing the next one, but only the placement the
same actor made just before: a person's click never confirms what MCP proposed,
and a window command driven by MCP never confirms the person's (docs/reference/document.md, Candidates).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from molforma.app import ops
from molforma.document.envelope import atoms_of
from molforma.errors import CandidateExistsError

if TYPE_CHECKING:
    from molforma.app.actor import Actor
    from molforma.document.document import Document
    from molforma.document.envelope import Project


@dataclass(frozen=True)
class Placed:
    """A placement candidate: its revision and the confirmed project it was put on."""

    revision: str
    before: Project


def confirm_then_propose_placement(
    doc: Document, name: str, site: str, *, kind: str, actor: Actor, previous: str | None
) -> Placed | None:
    """Propose library part ``name`` on atom ``site`` as a candidate, first confirming
    the placement candidate ``actor`` made at revision ``previous`` (if it is still the
    document's state).

    Returns:
        The new placement (pass its ``revision`` as ``previous`` next time), or None
        when ``site`` did not survive confirming the previous one.

    Raises:
        CandidateExistsError: another candidate waits (someone else's, or edited since).
        MolFormaError: the placement is impossible (no free site, unknown part, ...).
    """
    if doc.candidate is not None:
        mine = (
            doc.candidate_origin == actor.origin
            and previous is not None
            and doc.revision == previous
        )
        if not mine:
            raise CandidateExistsError()
        doc.confirm(expected_revision=previous, origin=actor.origin)
        if site not in {a["id"] for a in atoms_of(doc.project)}:
            return None
    before = doc.project
    ops.place_fragment(doc, name, site, kind=kind, preview=True, actor=actor)
    return Placed(doc.revision, before)


def confirm_placement(doc: Document, *, actor: Actor, previous: str) -> dict[str, Any]:
    """Confirm the placement candidate ``actor`` made at revision ``previous`` and place
    nothing more (the Place tool clicked on the same atom again).

    Raises:
        CandidateExistsError: the candidate is someone else's or was edited since.
    """
    if doc.candidate is None or doc.candidate_origin != actor.origin or doc.revision != previous:
        raise CandidateExistsError()
    return doc.confirm(expected_revision=previous, origin=actor.origin)


def add_bonded_atom_to_confirmed(
    doc: Document,
    parent: str,
    element: str,
    *,
    actor: Actor,
    adjust_hydrogens: bool,
    hint: Sequence[float] | None = None,
) -> dict[str, Any] | None:
    """Add an atom of ``element`` bonded to ``parent`` where its hybridisation puts the
    next bond (one undo step, see :func:`molforma.app.ops.add_bonded_atom`).

    Returns:
        The edit's summary, or None when ``parent`` is not an atom of the confirmed
        project (a click on an atom of a candidate adds nothing).

    Raises:
        MolFormaError: a candidate exists, the document is busy or the result breaks a
            document rule.
    """
    if parent not in {a["id"] for a in atoms_of(doc.project)}:
        return None
    return ops.add_bonded_atom(
        doc,
        parent,
        element,
        adjust_hydrogens=adjust_hydrogens,
        hint=hint,
        preview=False,
        actor=actor,
    )


# The names these clicks had before they were named for what they do (older callers).
place_fragment = confirm_then_propose_placement
add_bonded_atom = add_bonded_atom_to_confirmed
