"""One edit of a document on the path its storage allows (no Qt).

A stored project holds its atoms and bonds as column tables; an edit that has a column form
(:mod:`molforma.document.table_edits`) runs on them without a record per atom, and the
others run on records. :func:`edit_on` is that choice, made once for every use case.
"""

from __future__ import annotations

from typing import Any

from molforma.app.actor import Actor
from molforma.document.document import Document, EditFn
from molforma.document.envelope import atoms_of
from molforma.document.tabletypes import is_atom_table


def edit_on(
    doc: Document,
    label: str,
    records: EditFn,
    columns: EditFn | None = None,
    *,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Edit ``doc`` with ``columns`` on its stored tables when given and the document holds
    tables, else with ``records`` on atom records; one candidate or undo step either way,
    recorded with the origin of ``actor``."""
    on_tables = columns is not None and is_atom_table(atoms_of(doc.project))
    return doc.edit(
        columns if on_tables and columns is not None else records,
        label=label,
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
        tables=on_tables,
    )
