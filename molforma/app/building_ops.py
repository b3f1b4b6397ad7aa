"""The building and chemistry edits of the document tools (no Qt; application layer):
drawing an atom bonded to another, changing an element, hydrogens, library fragments and
internal coordinates. Each builds a small edit function for :meth:`Document.edit`, as the
other entry points of :mod:`molforma.app.ops` do, and is reached as ``ops.<name>`` too.
``actor`` says who asks; its origin is recorded on the edit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from molforma.app.actor import Actor
from molforma.app.edit_paths import edit_on
from molforma.document.document import Document, EditResult
from molforma.document.elements import normalize_symbol
from molforma.document.envelope import Project, atoms_of
from molforma.errors import UnknownAtomError, ValidationError
from molforma.formats.computed import Vec
from molforma.formats.computed import checked_vector as _vec
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.document import building, chemistry, table_edits
else:  # imported on first use (start-up time): molforma.lazy
    building = lazy_import("molforma.document.building")
    chemistry = lazy_import("molforma.document.chemistry")
    table_edits = lazy_import("molforma.document.table_edits")


# Atoms from which a bonded atom is added on the columns, around its parent (below, the
# record edit of the whole structure costs less than cutting out a neighbourhood).
LOCAL_EDIT_FROM = 5_000


def _index(work: Project) -> dict[str, dict[str, Any]]:
    return {a["id"]: a for a in atoms_of(work)}


def _need(index: Mapping[str, Any], ids: Sequence[Any]) -> None:
    # Ids come from agents' arguments: anything not a known id (None, a number) is unknown.
    for i in ids:
        if i not in index:
            raise UnknownAtomError(id=i)


def add_bonded_atom(
    doc: Document,
    parent: str,
    element: str,
    *,
    adjust_hydrogens: bool = True,
    hint: Vec | None = None,
    toward: Vec | None = None,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Add an atom of ``element`` bonded to ``parent`` where the parent's hybridisation puts
    its next bond (see :mod:`molforma.document.building`); ``hint`` is the direction for a
    parent without neighbours. With ``adjust_hydrogens`` the new atom replaces one of the
    parent's hydrogens and both get the hydrogens their valences leave open. ``toward`` is
    a drawn direction (a drag from the parent): the new atom goes that way.
    """
    el = normalize_symbol(str(element)) or str(element)
    direction = None if hint is None else _vec(hint, "hint")
    drawn = None if toward is None else _vec(toward, "toward")

    def add(work: Project) -> EditResult:
        return building.add_bonded_atom(
            work, parent, el, adjust=adjust_hydrogens, hint=direction, toward=drawn
        )

    def fn(work: Project) -> EditResult:
        _need(_index(work), [parent])
        return add(work)

    # A large structure: the record edit runs on the parent's neighbourhood only and what
    # it added and removed goes into the tables (a click with the Add-atom tool on a
    # million atoms would otherwise copy every atom as a record).
    large = len(atoms_of(doc.project)) > LOCAL_EDIT_FROM
    return edit_on(
        doc,
        "Add atoms",
        fn,
        (lambda work: table_edits.edit_around(work, [parent], add)) if large else None,
        expected_revision=expected_revision,
        preview=preview,
        actor=actor,
    )


def change_element(
    doc: Document,
    atom: str,
    element: str,
    *,
    adjust_hydrogens: bool = True,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Turn ``atom`` into ``element`` as one undo step "Change element" (the Add-atom tool
    on a hydrogen): a terminal atom moves to the new element's bond length, and with
    ``adjust_hydrogens`` it and its neighbour get the hydrogens their valences leave open
    (see :func:`molforma.document.building.change_element`)."""
    el = normalize_symbol(str(element)) or str(element)

    def fn(work: Project) -> EditResult:
        _need(_index(work), [atom])
        return building.change_element(work, atom, el, adjust=adjust_hydrogens)

    return doc.edit(
        fn,
        label="Change element",
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
    )


def draw_from_atom(
    doc: Document,
    start: str,
    element: str,
    toward: Vec,
    *,
    adjust_hydrogens: bool = True,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """A drag of the Add-atom tool from atom ``start`` in direction ``toward``: a new atom of
    ``element`` bonded to it that way, one undo step "Add atoms". As in Avogadro's Draw
    tool, a hydrogen the drag starts on first becomes ``element`` (methane's H dragged
    with carbon gives propane's chain, not a two-coordinate H)."""
    el = normalize_symbol(str(element)) or str(element)
    drawn = _vec(toward, "toward")

    def fn(work: Project) -> EditResult:
        index = _index(work)
        _need(index, [start])
        first = None
        if index[start]["element"] == "H" and el != "H":
            first = building.change_element(work, start, el, adjust=adjust_hydrogens)
        res = building.add_bonded_atom(work, start, el, adjust=adjust_hydrogens, toward=drawn)
        return res if first is None else _combined(first, res)

    return doc.edit(
        fn,
        label="Add atoms",
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
    )


def _combined(first: EditResult, second: EditResult) -> EditResult:
    """Two edits made one after the other on the same copy, as one result."""
    gone = set(second.removed)
    made = set(first.added)
    removed = first.removed + [i for i in second.removed if i not in made]
    touched = (
        None
        if first.touched is None or second.touched is None
        else list(dict.fromkeys(i for i in first.touched + second.touched if i not in gone))
    )
    return EditResult(
        added=[i for i in first.added if i not in gone] + second.added,
        removed=removed,
        changed=list(dict.fromkeys(i for i in first.changed + second.changed if i not in gone)),
        touched=touched,
    )


def _adjusted(work: Project, res: EditResult, ids: Sequence[str]) -> EditResult:
    return building.merge_adjusted(work, res, ids)


def set_internal_coordinate(
    doc: Document,
    ids: Sequence[str],
    value: float,
    *,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Set a distance (2 ids), angle (3) or dihedral (4), moving the smaller fragment."""

    def fn(work: Project) -> EditResult:
        _need(_index(work), ids)
        return chemistry.set_internal_coordinate(work, list(ids), float(value))

    if len(ids) not in (2, 3, 4) or len(set(ids)) != len(ids):
        raise ValidationError("invalid_argument", detail="give 2, 3 or 4 different atom ids")
    return doc.edit(
        fn,
        label="Set internal coordinate",
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
    )


def add_hydrogens(
    doc: Document,
    ids: Sequence[str] | None = None,
    *,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Fill open valences with hydrogen (all atoms or the given ones)."""

    def fn(work: Project) -> EditResult:
        if ids is not None:
            _need(_index(work), ids)
        return chemistry.add_hydrogens(work, list(ids) if ids is not None else None)

    # on the columns: the hydrogens of a selection are placed from its neighbourhood
    return edit_on(
        doc,
        "Add hydrogens",
        fn,
        None if ids is None else lambda work: table_edits.add_hydrogens(work, list(ids)),
        expected_revision=expected_revision,
        preview=preview,
        actor=actor,
    )


def place_fragment(
    doc: Document,
    name: str,
    site: str,
    *,
    kind: str | None = None,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Put a library fragment or ligand on a free site of atom ``site``."""

    def fn(work: Project) -> EditResult:
        _need(_index(work), [site])
        return chemistry.place_fragment(work, name, site, kind=kind)  # type: ignore[arg-type]

    return doc.edit(
        fn,
        label=f"Place {name}",
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
    )
