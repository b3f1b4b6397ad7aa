"""Cut a QM region out of the document: one application function for the window and MCP.

:func:`extract_qm_region` keeps the atoms named (by id and/or residue name, number and
chain) and everything within R Å of them (whole residues by default), caps every cut
covalent bond with a link hydrogen, sets the total charge from the residues' standard
charges and the ligand's formal charges (:mod:`molforma.document.region_cut`) and makes
that the document's structure: a candidate (``preview``) or one undo step, so undo (or
cancel) gives the whole protein back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from molforma.document.document import Document, EditResult, Origin
from molforma.document.envelope import Project
from molforma.errors import UnknownAtomError, ValidationError
from molforma.i18n import register

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
        "qm_region_radius": {
            "en": "The radius must be between 0 and 50 Å (got {radius}).",
            "ja": "半径は 0〜50 Å で指定してください（指定値: {radius}）。",
        },
    }
)

MAX_RADIUS = 50.0


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
    origin: Origin = "user",
) -> dict[str, Any]:
    """Make the QM region the document's structure (see the module docstring).

    The edit summary's ``info`` holds ``atomCount``, ``caps`` (ids of the link hydrogens),
    ``charge`` (set when ``set_charge``) and ``charges`` (the charged residues).

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
        from molforma.document.molecule import AtomTable, BondTable
        from molforma.document.region_cut import cut_region, region_mask

        d = work["document"]
        atoms, bonds = d["atoms"], d["bonds"]
        assert isinstance(atoms, AtomTable) and isinstance(bonds, BondTable)
        if atom_ids:
            rows = atoms.rows_of(list(atom_ids))
            if (rows < 0).any():
                raise UnknownAtomError(id=list(atom_ids)[int(np.flatnonzero(rows < 0)[0])])
        mask = region_mask(
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
        region = cut_region(
            atoms, bonds, mask, next_id, cap=cap, fix_caps=fix_caps, set_charge=set_charge
        )
        d["atoms"] = region.atoms
        d["bonds"] = region.bonds
        d["nextAtomId"] = next_id + len(region.cap_ids)
        info: dict[str, Any] = {"atomCount": len(region.atoms), "caps": region.cap_ids}
        if set_charge:
            d["charge"] = region.charge
            info["charge"] = region.charge
            info["charges"] = region.charges
        removed = [f"a{i}" for i in atoms.ids[~mask].tolist()]
        return EditResult(added=region.cap_ids, removed=removed, touched=region.cap_ids, info=info)

    return doc.edit(
        fn,
        label="Extract QM region",
        expected_revision=expected_revision,
        preview=preview,
        origin=origin,
        tables=True,
    )
