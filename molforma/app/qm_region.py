"""Cut a QM region out of the document: one application function for the window and MCP.

:func:`extract_qm_region` keeps the atoms named (by id and/or residue name, number and
chain) and everything within R Å of them (whole residues by default), caps every cut
covalent bond with a link hydrogen, sets the total charge from the residues' standard
charges and the ligand's formal charges (:mod:`molforma.document.region_cut`) and makes
that the document's structure: a candidate (``preview``) or one undo step, so undo (or
cancel) gives the whole protein back. Applied (not a candidate), the region is a new,
untitled project as after File > New: it no longer names the protein's file, so saving it
asks for a name and never writes over the protein.

:func:`qm_region_document` cuts the same region into a new :class:`Document`, leaving the
protein's document as it was (headless MCP holds both: ``delete_atoms`` ``keep`` with
``newDocument``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from molforma.app.actor import Actor
from molforma.document.document import Document, EditResult
from molforma.document.envelope import Project
from molforma.errors import UnknownAtomError, ValidationError
from molforma.i18n import register
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.document import molecule, region_cut
else:  # imported on first use (start-up time): molforma.lazy
    molecule = lazy_import("molforma.document.molecule")
    region_cut = lazy_import("molforma.document.region_cut")

register(
    {
        "qm_region_empty": {
            "en": "The QM region is empty: no atom matches the selection given (atom ids, "
            "residue names, numbers, chains). Nothing was changed.",
            "ja": "QM 領域が空です。指定した選択（原子 ID、残基名、残基番号、鎖）に合う原子が"
            "ありません。何も変更していません。",
        },
        "qm_region_no_selection": {
            "en": "Name the region's core: atom ids or residue names, numbers or chains.",
            "ja": "領域の中心を指定してください（原子 ID、または残基名・残基番号・鎖）。",
        },
        "qm_region_new_document_window": {
            "en": "The window holds one document: extract the region in it (newDocument "
            "false; undo gives the protein back) or run MolForma headless (--mcp) to hold "
            "the region beside the protein. Nothing was changed.",
            "ja": "ウィンドウは文書を一つだけ持ちます。領域はその文書の中で切り出してください"
            "（newDocument を false に。元に戻すでタンパク質が戻ります）。タンパク質と並べて"
            "持つにはヘッドレス（--mcp）で起動してください。何も変更していません。",
        },
        "qm_region_radius": {
            "en": "The radius must be between 0 and 50 Å (got {radius}).",
            "ja": "半径は 0〜50 Å で指定してください（指定値: {radius}）。",
        },
    }
)

MAX_RADIUS = 50.0


def qm_region_document(doc: Document, **region: Any) -> tuple[Document, dict[str, Any]]:
    """The QM region of ``doc`` as a new document (its settings, trusted values and undo
    limit); ``doc`` is not changed. ``region`` takes the keywords of
    :func:`extract_qm_region` (``actor`` too; not ``preview`` or ``expected_revision``).

    Returns:
        The new document and the edit summary of the cut (``info`` as there).

    Raises:
        As :func:`extract_qm_region`; nothing is made and ``doc`` is unchanged.
    """
    with doc.lock:
        source = doc.project
        undo_limit = doc.undo_limit
        trusted = dict(doc.trusted)
    work = Document(source, undo_limit=undo_limit)
    out = extract_qm_region(work, preview=False, **region)
    # The new document starts its own history: undo in it never gives the protein back
    # (the protein's own document still holds it).
    new = Document(work.project, undo_limit=undo_limit)
    new.trusted = trusted
    new.modified = True
    out["revision"] = new.revision
    return new, out


def extract_qm_region(
    doc: Document,
    *,
    atom_ids: Sequence[str] = (),
    residue_names: Sequence[str] = (),
    residue_numbers: Sequence[int] = (),
    chains: Sequence[str] = (),
    within: float = 0.0,
    whole_residues: bool = True,
    cap: bool = True,
    fix_caps: bool = False,
    set_charge: bool = True,
    expected_revision: str | None = None,
    preview: bool = True,
    actor: Actor = Actor.PERSON,
) -> dict[str, Any]:
    """Make the QM region the document's structure (see the module docstring).

    The edit summary's ``info`` holds ``atomCount``, ``caps`` (ids of the link hydrogens),
    ``charge`` (set when ``set_charge``) and ``charges`` (the charged residues). ``actor``
    says who asks; its origin is recorded on the edit.

    Raises:
        ValidationError: no core named, a radius outside 0..50 Å, an empty region.
        UnknownAtomError: an atom id not in the document.
        StaleRevisionError, CandidateExistsError, BusyError: nothing changed.
    """
    if not (atom_ids or residue_names or residue_numbers or chains):
        raise ValidationError("qm_region_no_selection")
    radius = float(within)
    if not 0.0 <= radius <= MAX_RADIUS or radius != radius:
        raise ValidationError("qm_region_radius", radius=within)

    def fn(work: Project) -> EditResult:
        d = work["document"]
        atoms, bonds = d["atoms"], d["bonds"]
        assert isinstance(atoms, molecule.AtomTable) and isinstance(bonds, molecule.BondTable)
        if atom_ids:
            rows = atoms.rows_of(list(atom_ids))
            if (rows < 0).any():
                raise UnknownAtomError(id=list(atom_ids)[int(np.flatnonzero(rows < 0)[0])])
        mask = region_cut.region_mask(
            atoms,
            atom_ids=atom_ids,
            names=residue_names,
            numbers=residue_numbers,
            chains=chains,
            radius=radius,
            whole=whole_residues,
        )
        if not mask.any():
            raise ValidationError("qm_region_empty")
        next_id = int(d.get("nextAtomId", 1))
        region = region_cut.cut_region(
            atoms, bonds, mask, next_id, cap=cap, fix_caps=fix_caps, set_charge=set_charge
        )
        d["atoms"] = region.atoms
        d["bonds"] = region.bonds
        d["nextAtomId"] = next_id + len(region.cap_ids)
        d["title"] = _region_title(str(d.get("title") or ""))
        info: dict[str, Any] = {"atomCount": len(region.atoms), "caps": region.cap_ids}
        if set_charge:
            d["charge"] = region.charge
            info["charge"] = region.charge
            info["charges"] = region.charges
        removed = [f"a{i}" for i in atoms.ids[~mask].tolist()]
        return EditResult(added=region.cap_ids, removed=removed, touched=region.cap_ids, info=info)

    out = doc.edit(
        fn,
        label="Extract QM region",
        expected_revision=expected_revision,
        preview=preview,
        origin=actor.origin,
        tables=True,
    )
    if not preview:
        doc.forget_path()  # a new project now: Save asks for a name, as after File > New
    return out


def _region_title(title: str) -> str:
    """The region's title: the protein's with the words "QM region" (once)."""
    if not title:
        return "QM region"
    return title if title.endswith("QM region") else f"{title} QM region"
